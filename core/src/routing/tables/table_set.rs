//! The route tables of all switches in two flat caller buffers: runs of every switch back to
//! back, and `switches + 1` offsets into them (switch `s` owns `runs[offsets[s] ..
//! offsets[s+1]]`). A host builds a whole network's tables here; a device holds one
//! [`RunTable`].

use crate::error::{CapacityError, InvalidParam};
use crate::topology::{SwitchId, TerminalId};

use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::{push_run, Run, RunTable};

/// Read-only tables of `switches` switches, each covering destinations `0..destinations`.
#[derive(Clone, Copy, Debug)]
pub struct TableSet<'a, V> {
    runs: &'a [Run<V>],
    offsets: &'a [u32],
    destinations: u32,
}

impl<'a, V: Copy + Eq> TableSet<'a, V> {
    /// Re-opens tables previously built by [`TableSetBuilder`] (or loaded from elsewhere):
    /// `offsets` (`switches + 1` entries, from 0, non-decreasing, ending at `runs.len()`) and
    /// every switch's runs in canonical form are checked.
    pub fn from_parts(
        runs: &'a [Run<V>],
        offsets: &'a [u32],
        destinations: u32,
    ) -> Result<Self, RoutingError> {
        let bad = |value: u64| {
            RoutingError::Invalid(InvalidParam {
                param: "table offsets",
                value,
                rule: "offsets must start at 0, never decrease and end at the number of runs",
            })
        };
        match (offsets.first(), offsets.last()) {
            (Some(0), Some(&last)) if last as usize == runs.len() => {}
            _ => return Err(bad(offsets.len() as u64)),
        }
        for (i, w) in offsets.windows(2).enumerate() {
            let table = runs
                .get(w[0] as usize..w[1] as usize)
                .ok_or(bad(i as u64))?;
            RunTable::new(table, destinations)?;
        }
        Ok(TableSet {
            runs,
            offsets,
            destinations,
        })
    }

    /// Number of switches.
    pub fn switches(&self) -> u32 {
        self.offsets.len().saturating_sub(1) as u32
    }

    /// Number of destinations of every table.
    pub fn destinations(&self) -> u32 {
        self.destinations
    }

    /// Total number of runs over all switches.
    pub fn total_runs(&self) -> usize {
        self.runs.len()
    }

    /// The table of `switch` (`None` when out of range).
    pub fn table(&self, switch: SwitchId) -> Option<RunTable<'a, V>> {
        let s = switch as usize;
        let lo = *self.offsets.get(s)? as usize;
        let hi = *self.offsets.get(s + 1)? as usize;
        let runs = self.runs.get(lo..hi)?;
        // Canonical by construction: only `TableSetBuilder` creates table sets.
        Some(RunTable::from_canonical(runs, self.destinations))
    }

    /// Value for destination `dst` at `switch`.
    #[inline]
    pub fn lookup(&self, switch: SwitchId, dst: TerminalId) -> Option<V> {
        self.table(switch)?.lookup(dst)
    }
}

/// Builds a [`TableSet`] switch by switch (ascending), destination by destination.
#[derive(Debug)]
pub struct TableSetBuilder<'a, V> {
    runs: &'a mut [Run<V>],
    offsets: &'a mut [u32],
    used: usize,
    switch: u32,
    switches: u32,
    dst: u32,
    destinations: u32,
}

impl<'a, V: Copy + Eq> TableSetBuilder<'a, V> {
    /// Starts tables for `switches` switches of `destinations` destinations each.
    /// `offsets` needs `switches + 1` entries; `runs` at most `switches · destinations`
    /// (the exact need depends on how well the tables compress).
    pub fn new(
        switches: u32,
        destinations: u32,
        runs: &'a mut [Run<V>],
        offsets: &'a mut [u32],
    ) -> Result<Self, RoutingError> {
        CapacityError::check("table offsets", switches as u64 + 1, offsets.len())?;
        if let Some(o) = offsets.first_mut() {
            *o = 0;
        }
        Ok(TableSetBuilder {
            runs,
            offsets,
            used: 0,
            switch: 0,
            switches,
            dst: 0,
            destinations,
        })
    }

    /// Switch whose table is being built.
    pub fn current_switch(&self) -> SwitchId {
        self.switch
    }

    /// Appends the value of the next destination of the current switch; after the last
    /// destination the builder moves on to the next switch.
    pub fn push(&mut self, value: V) -> Result<(), RoutingError> {
        if self.switch >= self.switches {
            return Err(RoutingError::Capacity(CapacityError {
                what: "table entries",
                needed: self.switches as u64 * self.destinations as u64 + 1,
                available: self.switches as u64 * self.destinations as u64,
            }));
        }
        let dst = self.dst;
        let start = self.offsets.get(self.switch as usize).copied().unwrap_or(0) as usize;
        let mut local = self.used - start;
        let tail = self.runs.get_mut(start..).unwrap_or(&mut []);
        push_run(tail, &mut local, dst, value, "table runs")?;
        self.used = start + local;
        self.dst += 1;
        if self.dst == self.destinations {
            self.close_switch();
        }
        Ok(())
    }

    fn close_switch(&mut self) {
        if let Some(o) = self.offsets.get_mut(self.switch as usize + 1) {
            *o = self.used as u32;
        }
        self.switch += 1;
        self.dst = 0;
    }

    /// Finishes all tables; every switch must be complete.
    pub fn finish(mut self) -> Result<TableSet<'a, V>, RoutingError> {
        if self.destinations == 0 {
            while self.switch < self.switches {
                self.close_switch();
            }
        }
        if self.switch != self.switches {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "switch",
                value: self.switch as u64,
                rule: "every switch's table must be complete before finishing",
            }));
        }
        let used = self.used;
        let n = self.switches as usize;
        let runs: &'a [Run<V>] = self.runs;
        let offsets: &'a [u32] = self.offsets;
        Ok(TableSet {
            runs: runs.get(..used).unwrap_or(&[]),
            offsets: offsets.get(..n + 1).unwrap_or(&[]),
            destinations: self.destinations,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn from_parts_checks_offsets_and_runs() {
        let runs = [
            Run {
                first: 0,
                value: 1u8,
            },
            Run { first: 2, value: 2 },
            Run { first: 0, value: 3 },
        ];
        let t = TableSet::from_parts(&runs, &[0, 2, 3], 4).unwrap();
        assert_eq!(t.lookup(0, 3), Some(2));
        assert_eq!(t.lookup(1, 3), Some(3));
        assert!(TableSet::from_parts(&runs, &[0, 2], 4).is_err());
        assert!(TableSet::from_parts(&runs, &[1, 2, 3], 4).is_err());
        assert!(TableSet::from_parts(&runs, &[0, 3, 2], 4).is_err());
        assert!(TableSet::from_parts(&runs, &[0, 1, 3], 4).is_err());
        assert!(TableSet::from_parts(&runs, &[0, 2, 3], 2).is_err());
    }

    #[test]
    fn tables_of_several_switches() {
        let mut runs = [Run {
            first: 0,
            value: 0u8,
        }; 12];
        let mut offs = [0u32; 4];
        let mut b = TableSetBuilder::new(3, 4, &mut runs, &mut offs).unwrap();
        let vals = [[1u8, 1, 2, 2], [5, 5, 5, 5], [0, 1, 0, 1]];
        for row in vals {
            for v in row {
                b.push(v).unwrap();
            }
        }
        assert!(b.push(9).is_err());
        let set = b.finish().unwrap();
        assert_eq!(set.switches(), 3);
        assert_eq!(set.total_runs(), 2 + 1 + 4);
        for (s, row) in vals.iter().enumerate() {
            for (d, &v) in row.iter().enumerate() {
                assert_eq!(set.lookup(s as u32, d as u32), Some(v));
            }
        }
        assert_eq!(set.lookup(3, 0), None);
    }

    #[test]
    fn incomplete_set_is_an_error() {
        let mut runs = [Run {
            first: 0,
            value: 0u8,
        }; 4];
        let mut offs = [0u32; 3];
        let mut b = TableSetBuilder::new(2, 2, &mut runs, &mut offs).unwrap();
        b.push(1).unwrap();
        assert!(b.finish().is_err());
    }
}
