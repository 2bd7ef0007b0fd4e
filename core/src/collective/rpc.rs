//! Router-Packet-Collection (RPC) and Router-Packet-Distribution (RPD) inside one supernode
//! or group ([GF-A2A] §3.1; docs/collectives.md §7).
//!
//! ```text
//! RPC(B, m): B1 = routers of B before m, B2 = routers after m (list order)
//!            for each non-empty Bi: bi = pivot(Bi); RPC(Bi, bi)
//!            then b1 -> m, b2 -> m   (each carries everything bi collected: Bi)
//! ```
//! RPD is its time reverse (`m -> b1`, `m -> b2`, then the recursions). The pivot is a
//! project choice: the lower median `S[(|S| - 1) / 2]` ([`LowerMedian`]); any [`Pivot`]
//! (e.g. a closure) can replace it, which is how the paper's trace is replayed.

use super::schedule::ScheduleError;
use crate::error::InvalidParam;

/// Chooses the relay `b = S[pivot(S)]` of a sub-list `S` (non-empty).
pub trait Pivot {
    /// Index into `list` (must be `< list.len()`).
    fn pivot(&self, list: &[u32]) -> usize;
}

/// The project's pivot: the lower median `(|S| - 1) / 2`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LowerMedian;

impl Pivot for LowerMedian {
    fn pivot(&self, list: &[u32]) -> usize {
        list.len().saturating_sub(1) / 2
    }
}

impl<F: Fn(&[u32]) -> usize> Pivot for F {
    fn pivot(&self, list: &[u32]) -> usize {
        self(list)
    }
}

/// One edge of an RPC tree, as positions in the router list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RpcEdge {
    /// The relay `b` (sends in RPC, receives in RPD).
    pub child: usize,
    /// The collector `m`.
    pub parent: usize,
    /// First list position of the routers `b` collects.
    pub span_start: usize,
    /// Number of routers `b` collects (including itself).
    pub span_len: usize,
}

/// Deepest recursion accepted (a lower-median pivot needs `log2 |B|`).
pub const MAX_DEPTH: u32 = 64;

/// Calls `f` for every edge of `RPC(list, list[m])` in a causal order (an edge after the
/// edges into its child).
pub fn rpc<P, F>(list: &[u32], m: usize, pivot: &P, f: &mut F) -> Result<(), ScheduleError>
where
    P: Pivot + ?Sized,
    F: FnMut(RpcEdge) -> Result<(), ScheduleError>,
{
    check_root(list, m)?;
    Walk {
        list,
        pivot,
        f,
        reverse: false,
    }
    .walk(0, list.len(), m, 0)
}

/// Calls `f` for every edge of `RPD(list, list[m])` (the reverse of [`rpc`]) in a causal
/// order (an edge after the edge into its parent).
pub fn rpd<P, F>(list: &[u32], m: usize, pivot: &P, f: &mut F) -> Result<(), ScheduleError>
where
    P: Pivot + ?Sized,
    F: FnMut(RpcEdge) -> Result<(), ScheduleError>,
{
    check_root(list, m)?;
    Walk {
        list,
        pivot,
        f,
        reverse: true,
    }
    .walk(0, list.len(), m, 0)
}

fn check_root(list: &[u32], m: usize) -> Result<(), ScheduleError> {
    if m < list.len() {
        Ok(())
    } else {
        Err(ScheduleError::Pivot {
            index: m as u64,
            len: list.len() as u64,
        })
    }
}

/// One RPC (`reverse = false`) or RPD (`reverse = true`) traversal of `list`: what stays
/// the same through the recursion.
struct Walk<'w, P: ?Sized, F> {
    list: &'w [u32],
    pivot: &'w P,
    f: &'w mut F,
    reverse: bool,
}

impl<P, F> Walk<'_, P, F>
where
    P: Pivot + ?Sized,
    F: FnMut(RpcEdge) -> Result<(), ScheduleError>,
{
    /// Visits the sub-list `list[lo..hi]` collected at position `m`, `depth` levels down.
    fn walk(&mut self, lo: usize, hi: usize, m: usize, depth: u32) -> Result<(), ScheduleError> {
        let (list, pivot, reverse) = (self.list, self.pivot, self.reverse);
        if depth > MAX_DEPTH {
            return Err(ScheduleError::Invalid(InvalidParam {
                param: "RPC depth",
                value: depth as u64,
                rule: "the pivot rule must keep the recursion within 64 levels",
            }));
        }
        let mut parts: [Option<(usize, usize, usize)>; 2] = [None, None];
        for (slot, (a, b)) in parts.iter_mut().zip([(lo, m), (m + 1, hi)]) {
            if a < b {
                let sub = &list[a..b];
                let p = pivot.pivot(sub);
                if p >= sub.len() {
                    return Err(ScheduleError::Pivot {
                        index: p as u64,
                        len: sub.len() as u64,
                    });
                }
                *slot = Some((a, b, a + p));
            }
        }
        let edge = |(a, b, c): (usize, usize, usize)| RpcEdge {
            child: c,
            parent: m,
            span_start: a,
            span_len: b - a,
        };
        if reverse {
            for &(a, b, c) in parts.iter().flatten() {
                (self.f)(edge((a, b, c)))?;
            }
        }
        for &(a, b, c) in parts.iter().flatten() {
            self.walk(a, b, c, depth + 1)?;
        }
        if !reverse {
            for &(a, b, c) in parts.iter().flatten() {
                (self.f)(edge((a, b, c)))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn edges(list: &[u32], m: usize, pivot: &dyn Pivot, reverse: bool) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        let mut f = |e: RpcEdge| {
            v.push((list[e.child], list[e.parent]));
            Ok(())
        };
        if reverse {
            rpd(list, m, pivot, &mut f).unwrap();
        } else {
            rpc(list, m, pivot, &mut f).unwrap();
        }
        v
    }

    #[test]
    fn paper_trace_with_override() {
        // [GF-A2A] Fig. 3: RPC({R1..R8}, R4): R1→R2, R3→R2, R6→R5, R5→R7, R8→R7, R2→R4, R7→R4.
        // The paper's pivots (R2 of 3, R7 of {R5..R8}, R5 of 2) need an override for {R5..R8}.
        let routers = [1, 2, 3, 4, 5, 6, 7, 8];
        let paper = |s: &[u32]| {
            if s == [5, 6, 7, 8] {
                2
            } else {
                LowerMedian.pivot(s)
            }
        };
        let mut got = edges(&routers, 3, &paper, false);
        let mut want = std::vec![(1, 2), (3, 2), (6, 5), (5, 7), (8, 7), (2, 4), (7, 4)];
        assert_eq!(got.len(), 7);
        // Causal order: R6→R5 before R5→R7, R1/R3→R2 before R2→R4.
        let pos = |e: (u32, u32)| got.iter().position(|&x| x == e).unwrap();
        assert!(pos((6, 5)) < pos((5, 7)));
        assert!(pos((1, 2)) < pos((2, 4)) && pos((7, 4)) > pos((8, 7)));
        got.sort();
        want.sort();
        assert_eq!(got, want);
        // Without the override the lower median picks R6 for {R5..R8}.
        let plain = edges(&routers, 3, &LowerMedian, false);
        assert!(plain.contains(&(6, 4)));
        // RPD is the exact reverse.
        let mut rev = edges(&routers, 3, &paper, true);
        assert_eq!(rev[0..2], [(2, 4), (7, 4)]); // m sends first
        rev.sort();
        assert_eq!(rev, want);
    }

    #[test]
    fn spans_cover_subtrees_and_bad_pivots_fail() {
        let list: Vec<u32> = (0..13).collect();
        for m in 0..13 {
            let mut covered = [0u32; 13];
            rpc(&list, m, &LowerMedian, &mut |e: RpcEdge| {
                assert!(e.span_start <= e.child && e.child < e.span_start + e.span_len);
                for c in covered.iter_mut().skip(e.span_start).take(e.span_len) {
                    *c += 1;
                }
                Ok(())
            })
            .unwrap();
            assert_eq!(covered[m], 0);
        }
        let bad = |s: &[u32]| s.len();
        assert!(matches!(
            rpc(&list, 0, &bad, &mut |_| Ok(())),
            Err(ScheduleError::Pivot { .. })
        ));
        assert!(matches!(
            rpc(&list, 13, &LowerMedian, &mut |_| Ok(())),
            Err(ScheduleError::Pivot { .. })
        ));
        let long: Vec<u32> = (0..200).collect();
        let first = |_: &[u32]| 0usize;
        assert!(matches!(
            rpc(&long, 0, &first, &mut |_| Ok(())),
            Err(ScheduleError::Invalid(InvalidParam {
                param: "RPC depth",
                ..
            }))
        ));
    }
}
