//! Compact adjacency (CSR) of a topology's switch graph, in caller buffers.
//!
//! Distances only depend on which switches are adjacent (docs/routing.md §1), so the CSR keeps
//! each neighbour once (parallel links merged, self loops dropped), sorted by id. Row `v` is
//! `targets[offsets[v] .. offsets[v + 1]]`.

use super::MetricsError;
use crate::error::{CapacityError, InvalidParam};
use crate::topology::{Port, Topology};

/// Buffer sizes [`Csr::build`] needs for a topology (see [`csr_size`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsrSize {
    /// Entries of `offsets`: switches + 1.
    pub offsets: usize,
    /// Entries of `targets`: connected network port ends (an upper bound; after merging
    /// parallel links fewer may be used).
    pub targets: usize,
}

/// Sizes of the CSR buffers for `t` (counts its connected network ports).
pub fn csr_size<T: Topology + ?Sized>(t: &T) -> CsrSize {
    let n = t.num_switches();
    let radix = t.radix();
    let mut ends = 0usize;
    for s in 0..n {
        for p in 0..radix {
            if let Port::Link(_) = t.port(s, p) {
                ends += 1;
            }
        }
    }
    CsrSize {
        offsets: n as usize + 1,
        targets: ends,
    }
}

/// Deduplicated, sorted adjacency lists of a switch graph, borrowing caller storage.
#[derive(Clone, Copy, Debug)]
pub struct Csr<'a> {
    offsets: &'a [u32],
    targets: &'a [u32],
}

impl<'a> Csr<'a> {
    /// Compiles the switch graph of `t` into `offsets` (`n + 1` entries) and `targets` (see
    /// [`csr_size`]); links to switches outside `0..n` are ignored.
    pub fn build<T: Topology + ?Sized>(
        t: &T,
        offsets: &'a mut [u32],
        targets: &'a mut [u32],
    ) -> Result<Csr<'a>, MetricsError> {
        let n = t.num_switches();
        let radix = t.radix();
        CapacityError::check("CSR offsets", n as usize + 1, offsets.len())?;
        let mut end = 0usize;
        for s in 0..n {
            if let Some(o) = offsets.get_mut(s as usize) {
                *o = end as u32;
            }
            let start = end;
            for p in 0..radix {
                if let Port::Link(l) = t.port(s, p) {
                    if l.peer == s || l.peer >= n {
                        continue;
                    }
                    match targets.get_mut(end) {
                        Some(slot) => *slot = l.peer,
                        None => {
                            return Err(MetricsError::Capacity(CapacityError {
                                what: "CSR targets",
                                needed: csr_size(t).targets as u64,
                                available: targets.len() as u64,
                            }))
                        }
                    }
                    end += 1;
                }
            }
            end = start + sort_dedup(&mut targets[start..end]);
            if end > u32::MAX as usize {
                return Err(MetricsError::Invalid(InvalidParam {
                    param: "links",
                    value: end as u64,
                    rule: "the CSR holds at most 2^32 - 1 adjacency entries",
                }));
            }
        }
        let offsets = &mut offsets[..n as usize + 1];
        offsets[n as usize] = end as u32;
        Ok(Csr {
            offsets,
            targets: &targets[..end],
        })
    }

    /// Re-opens an adjacency built earlier by [`Csr::build`] (offsets `n + 1` entries, targets
    /// exactly `offsets[n]` entries), after checking it is well formed: offsets start at 0 and
    /// never decrease, and every target is a vertex.
    pub fn from_parts(offsets: &'a [u32], targets: &'a [u32]) -> Result<Csr<'a>, MetricsError> {
        let malformed = |value: u64| {
            MetricsError::Invalid(InvalidParam {
                param: "CSR",
                value,
                rule: "offsets must start at 0, never decrease and end at the number of targets",
            })
        };
        let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) else {
            return Err(malformed(0));
        };
        if first != 0 || last as usize != targets.len() {
            return Err(malformed(last as u64));
        }
        if let Some(w) = offsets.windows(2).position(|w| w[0] > w[1]) {
            return Err(malformed(w as u64));
        }
        let n = (offsets.len() - 1) as u32;
        if let Some(&bad) = targets.iter().find(|&&v| v >= n) {
            return Err(MetricsError::Invalid(InvalidParam {
                param: "CSR target",
                value: bad as u64,
                rule: "adjacency targets must be vertices 0..n",
            }));
        }
        Ok(Csr { offsets, targets })
    }

    /// Number of vertices (switches).
    #[inline]
    pub fn num_vertices(&self) -> u32 {
        (self.offsets.len() - 1) as u32
    }

    /// Number of adjacency entries (twice the number of distinct adjacent pairs).
    #[inline]
    pub fn num_arcs(&self) -> usize {
        self.targets.len()
    }

    /// Sorted distinct neighbours of `v` (empty when out of range).
    #[inline]
    pub fn neighbors(&self, v: u32) -> &'a [u32] {
        let (Some(&a), Some(&b)) = (
            self.offsets.get(v as usize),
            self.offsets.get(v as usize + 1),
        ) else {
            return &[];
        };
        self.targets.get(a as usize..b as usize).unwrap_or(&[])
    }

    /// The row offsets (`n + 1` entries).
    pub fn offsets(&self) -> &'a [u32] {
        self.offsets
    }

    /// The concatenated rows.
    pub fn targets(&self) -> &'a [u32] {
        self.targets
    }
}

/// Sorts `row` and moves its distinct values to the front; returns how many there are.
fn sort_dedup(row: &mut [u32]) -> usize {
    row.sort_unstable();
    let mut kept = 0;
    for i in 0..row.len() {
        if kept == 0 || row[i] != row[kept - 1] {
            row[kept] = row[i];
            kept += 1;
        }
    }
    kept
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::topology::stored::from_edges;
    use crate::topology::Slot;
    use std::vec;

    #[test]
    fn from_parts_validates() {
        assert!(Csr::from_parts(&[0, 1, 2], &[1, 0]).is_ok());
        assert!(Csr::from_parts(&[], &[]).is_err());
        assert!(Csr::from_parts(&[1, 2], &[0, 0]).is_err());
        assert!(Csr::from_parts(&[0, 2, 1], &[1]).is_err());
        assert!(Csr::from_parts(&[0, 1, 2], &[1, 2]).is_err());
        assert!(Csr::from_parts(&[0, 1, 1], &[1, 0]).is_err());
    }

    #[test]
    fn merges_parallel_links_and_sorts() {
        let mut slots = [Slot::EMPTY; 16];
        let mut deg = [0u16; 4];
        let edges = [(0, 3), (0, 1), (1, 0), (2, 1), (0, 3)];
        let g = from_edges(4, 4, 0, edges, &mut slots, &mut deg).unwrap();
        let size = csr_size(&g);
        assert_eq!(
            size,
            CsrSize {
                offsets: 5,
                targets: 10
            }
        );
        let (mut off, mut tg) = (vec![0; size.offsets], vec![0; size.targets]);
        let csr = Csr::build(&g, &mut off, &mut tg).unwrap();
        assert_eq!(csr.num_vertices(), 4);
        assert_eq!(csr.neighbors(0), &[1, 3]);
        assert_eq!(csr.neighbors(1), &[0, 2]);
        assert_eq!(csr.neighbors(2), &[1]);
        assert_eq!(csr.neighbors(3), &[0]);
        assert_eq!(csr.neighbors(4), &[] as &[u32]);
        assert_eq!(csr.num_arcs(), 6);
        assert_eq!(csr.offsets(), &[0, 2, 4, 5, 6]);
    }

    #[test]
    fn short_buffers_are_errors() {
        let mut slots = [Slot::EMPTY; 6];
        let mut deg = [0u16; 3];
        let g = from_edges(3, 2, 0, [(0, 1), (1, 2)], &mut slots, &mut deg).unwrap();
        let (mut off, mut tg) = (vec![0; 3], vec![0; 4]);
        assert!(matches!(
            Csr::build(&g, &mut off, &mut tg),
            Err(MetricsError::Capacity(CapacityError {
                what: "CSR offsets",
                needed: 4,
                available: 3
            }))
        ));
        let (mut off, mut tg) = (vec![0; 4], vec![0; 3]);
        assert!(matches!(
            Csr::build(&g, &mut off, &mut tg),
            Err(MetricsError::Capacity(CapacityError {
                what: "CSR targets",
                needed: 4,
                available: 3
            }))
        ));
    }
}
