//! One switch's route table, stored as runs of equal entries in a caller buffer.
//!
//! A table maps every destination terminal `0..len` to a value (a [`RouteEntry`] for the
//! forwarding table, a virtual layer `u8` for per-path layers). Consecutive destinations with
//! equal values form one [`Run`]; run `k` covers destinations `runs[k].first ..
//! runs[k+1].first` (the last run up to `len`). The form is canonical: the first run starts
//! at 0, starts strictly increase and neighbouring runs differ in value, so one table has
//! exactly one representation. Lookup is a binary search, O(log runs).

use crate::error::{CapacityError, InvalidParam};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::image::ImageKind;
use crate::topology::{PortIndex, TerminalId};

use crate::routing::error::RoutingError;
use crate::routing::Vc;

/// A value a run table can hold (serialised in table images, `image::route_table`).
pub trait TableValue: Copy + Eq + Serialize + DeserializeOwned + core::fmt::Debug {
    /// Image kind of a table of these values ([`ImageKind::RouteTable`] for route entries,
    /// [`ImageKind::VirtualLayers`] for layers).
    const KIND: ImageKind;
}

/// Forwarding entry: output port and virtual channel toward one destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RouteEntry {
    /// Output port (a network port, or the terminal port at the destination switch);
    /// [`RouteEntry::NO_PORT`] when the destination is unreachable.
    pub port: PortIndex,
    /// Virtual channel to use on that port (0 for single-VC and layered routings).
    pub vc: Vc,
}

impl RouteEntry {
    /// Port value marking a missing route.
    pub const NO_PORT: PortIndex = PortIndex::MAX;
    /// A missing route.
    pub const NONE: RouteEntry = RouteEntry {
        port: RouteEntry::NO_PORT,
        vc: 0,
    };

    /// Whether this entry holds a route.
    pub fn is_route(&self) -> bool {
        self.port != RouteEntry::NO_PORT
    }
}

impl TableValue for RouteEntry {
    const KIND: ImageKind = ImageKind::RouteTable;
}

impl TableValue for u8 {
    const KIND: ImageKind = ImageKind::VirtualLayers;
}

/// A run of destinations `first..` (up to the next run) sharing `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Run<V> {
    /// First destination of the run.
    pub first: TerminalId,
    /// Value of every destination in the run.
    pub value: V,
}

/// Read-only view of one table (runs in canonical form, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunTable<'a, V> {
    runs: &'a [Run<V>],
    len: u32,
}

impl<'a, V: Copy + Eq> RunTable<'a, V> {
    /// Wraps runs that are already in canonical form for destinations `0..len`. Checks the
    /// form (first run at 0, strictly increasing starts below `len`, neighbours differ).
    pub fn new(runs: &'a [Run<V>], len: u32) -> Result<Self, RoutingError> {
        if len == 0 {
            if runs.is_empty() {
                return Ok(RunTable { runs, len });
            }
            return Err(RoutingError::Invalid(InvalidParam {
                param: "runs",
                value: runs.len() as u64,
                rule: "a table of 0 destinations has no runs",
            }));
        }
        let mut prev: Option<&Run<V>> = None;
        for r in runs {
            let ok = match prev {
                None => r.first == 0,
                Some(p) => r.first > p.first && r.value != p.value,
            };
            if !ok || r.first >= len {
                return Err(RoutingError::Invalid(InvalidParam {
                    param: "run start",
                    value: r.first as u64,
                    rule: "runs must start at 0, increase strictly, stay below the destination count and differ from their neighbour",
                }));
            }
            prev = Some(r);
        }
        if runs.is_empty() {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "runs",
                value: 0,
                rule: "a table of at least one destination needs at least one run",
            }));
        }
        Ok(RunTable { runs, len })
    }

    /// Wraps runs known to be canonical (built by this module's builders), without the
    /// O(runs) check of [`RunTable::new`].
    pub(crate) fn from_canonical(runs: &'a [Run<V>], len: u32) -> Self {
        RunTable { runs, len }
    }

    /// Number of destinations covered.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the table covers no destination.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The runs.
    pub fn runs(&self) -> &'a [Run<V>] {
        self.runs
    }

    /// Value for destination `dst` (`None` when `dst >= len`), O(log runs).
    #[inline]
    pub fn lookup(&self, dst: TerminalId) -> Option<V> {
        if dst >= self.len {
            return None;
        }
        let k = self.runs.partition_point(|r| r.first <= dst);
        k.checked_sub(1)
            .and_then(|i| self.runs.get(i))
            .map(|r| r.value)
    }

    /// Calls `f(dst, value)` for every destination in order.
    pub fn for_each<F: FnMut(TerminalId, V)>(&self, mut f: F) {
        for (i, r) in self.runs.iter().enumerate() {
            let end = self.runs.get(i + 1).map_or(self.len, |n| n.first);
            for d in r.first..end {
                f(d, r.value);
            }
        }
    }
}

/// Builds one table destination by destination into a caller buffer, merging equal
/// neighbours into runs.
#[derive(Debug)]
pub struct RunTableBuilder<'a, V> {
    runs: &'a mut [Run<V>],
    used: usize,
    len: u32,
}

impl<'a, V: Copy + Eq> RunTableBuilder<'a, V> {
    /// Starts an empty table in `runs` (at most `runs.len()` runs).
    pub fn new(runs: &'a mut [Run<V>]) -> Self {
        RunTableBuilder {
            runs,
            used: 0,
            len: 0,
        }
    }

    /// Appends the value of the next destination (`len()` before the call).
    pub fn push(&mut self, value: V) -> Result<(), RoutingError> {
        let dst = self.len;
        self.len = self
            .len
            .checked_add(1)
            .ok_or(RoutingError::Capacity(CapacityError {
                what: "table destinations",
                needed: u32::MAX as u64 + 1,
                available: u32::MAX as u64,
            }))?;
        push_run(self.runs, &mut self.used, dst, value, "table runs")
    }

    /// Destinations pushed so far.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether nothing was pushed yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Runs used so far.
    pub fn runs_used(&self) -> usize {
        self.used
    }

    /// Finishes the table.
    pub fn finish(self) -> RunTable<'a, V> {
        let len = self.len;
        let used = self.used;
        let runs: &'a [Run<V>] = self.runs;
        RunTable {
            runs: runs.get(..used).unwrap_or(&[]),
            len,
        }
    }
}

/// Appends destination `dst` with `value` to the runs `runs[..*used]`, opening a new run when
/// the value differs from the last one.
pub(crate) fn push_run<V: Copy + Eq>(
    runs: &mut [Run<V>],
    used: &mut usize,
    dst: TerminalId,
    value: V,
    what: &'static str,
) -> Result<(), RoutingError> {
    if let Some(last) = used.checked_sub(1).and_then(|i| runs.get(i)) {
        if last.value == value {
            return Ok(());
        }
    }
    match runs.get_mut(*used) {
        Some(slot) => {
            *slot = Run { first: dst, value };
            *used += 1;
            Ok(())
        }
        None => Err(RoutingError::Capacity(CapacityError {
            what,
            needed: *used as u64 + 1,
            available: runs.len() as u64,
        })),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn e(port: u16) -> RouteEntry {
        RouteEntry { port, vc: 0 }
    }

    #[test]
    fn runs_compress_and_lookup_matches_plain_array() {
        let plain = [3u16, 3, 3, 1, 1, 7, 3, 3, 0, 0, 0, 0];
        let mut buf = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 12];
        let mut b = RunTableBuilder::new(&mut buf);
        for &p in &plain {
            b.push(e(p)).unwrap();
        }
        let t = b.finish();
        assert_eq!(t.runs().len(), 5);
        assert!(t.runs().len() <= plain.len());
        for (d, &p) in plain.iter().enumerate() {
            assert_eq!(t.lookup(d as u32), Some(e(p)));
        }
        assert_eq!(t.lookup(12), None);
        let mut seen = [0u16; 12];
        t.for_each(|d, v| seen[d as usize] = v.port);
        assert_eq!(seen, plain);
        assert!(RunTable::new(t.runs(), 12).is_ok());
    }

    #[test]
    fn capacity_and_canonical_form_are_checked() {
        let mut buf = [Run {
            first: 0,
            value: 0u8,
        }; 2];
        let mut b = RunTableBuilder::new(&mut buf);
        b.push(1).unwrap();
        b.push(2).unwrap();
        assert!(matches!(b.push(3), Err(RoutingError::Capacity(..))));
        let runs = [
            Run {
                first: 0,
                value: 1u8,
            },
            Run { first: 2, value: 1 },
        ];
        assert!(RunTable::new(&runs, 4).is_err());
        let runs = [Run {
            first: 1,
            value: 1u8,
        }];
        assert!(RunTable::new(&runs, 4).is_err());
        let runs = [
            Run {
                first: 0,
                value: 1u8,
            },
            Run { first: 4, value: 2 },
        ];
        assert!(RunTable::new(&runs, 4).is_err());
        assert!(RunTable::<u8>::new(&[], 0).is_ok());
        assert!(RunTable::<u8>::new(&[], 1).is_err());
    }
}
