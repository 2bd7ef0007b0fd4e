//! Galaxyfly all-to-all broadcasts ([GF-A2A]; docs/collectives.md §7), at router level.
//!
//! Input is a [`GalaxyGraph`] oracle: the supernode-level Galaxy graph (neighbours in
//! ascending id), `a` routers per supernode and which router of `U` carries the edge `U–V`.
//! Router `t` of supernode `U` is rank `U·a + t`. Every router starts with one packet and
//! must end with all `a·n·q` packets ([`crate::collective::Semantics::Allgather`]).
//!
//! * [`spc::spc_tree`] — the SPC breadth-first tree rooted at the target supernode `A`.
//! * [`sfata::sfata`] — supernode-first: SPC then SPD (no redundant packet).
//! * [`rfata::rfata`] — router-first (reconstruction; redundant packets counted by the
//!   checker).

pub mod rfata;
pub mod sfata;
pub mod spc;
pub mod topology;

#[cfg(test)]
mod tests;

use super::list::BUILDER_SCRATCH_PER_RANK;
use super::message::Message;
use super::schedule::ScheduleError;
use crate::error::{CapacityError, InvalidParam};

/// Entry counts of every [`GalaxyflyBuffers`] buffer of SFATA or RFATA for `s` supernodes
/// of `a` routers (`N = s·a` routers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GalaxyflySizes {
    /// `msgs`: the messages of the schedule.
    pub msgs: usize,
    /// `own`: one packet index per router (`N`).
    pub own: usize,
    /// `scratch`: the trees and the list builder's scratch.
    pub scratch: usize,
}

impl GalaxyflySizes {
    /// Sizes of [`sfata::sfata`]: `2(N - 1)` messages; scratch for the supernode tree (2
    /// arrays of `s`), the router tree (5 of `N`), one router list (`a`) and the list
    /// builder.
    pub fn of_sfata(s: u32, a: u32) -> Self {
        let n = s as usize * a as usize;
        GalaxyflySizes {
            msgs: 2 * n.saturating_sub(1),
            own: n,
            scratch: 2 * s as usize + 5 * n + a as usize + BUILDER_SCRATCH_PER_RANK * n,
        }
    }

    /// Sizes of [`rfata::rfata`]: [`rfata::message_count`] messages; scratch for the
    /// supernode tree (7 arrays of `s`), one router list (`a`) and the list builder.
    pub fn of_rfata(s: u32, a: u32) -> Self {
        let n = s as usize * a as usize;
        GalaxyflySizes {
            msgs: usize::try_from(rfata::message_count(s, a)).unwrap_or(usize::MAX),
            own: n,
            scratch: 7 * s as usize + a as usize + BUILDER_SCRATCH_PER_RANK * n,
        }
    }
}

/// Caller storage of [`sfata::sfata`] and [`rfata::rfata`] (sizes from
/// [`GalaxyflySizes::of_sfata`] / [`GalaxyflySizes::of_rfata`]; longer is fine).
#[derive(Debug)]
pub struct GalaxyflyBuffers<'a, 's> {
    /// The schedule's messages.
    pub msgs: &'a mut [Message],
    /// Receives each router's packet index.
    pub own: &'a mut [u32],
    /// Scratch (not borrowed by the schedule).
    pub scratch: &'s mut [u32],
}

impl GalaxyflyBuffers<'_, '_> {
    /// Checks `scratch` and then `own` against `sizes`, naming the buffers after `alg`
    /// ("SFATA scratch", "RFATA own blocks", ...).
    pub(crate) fn check(
        &self,
        sizes: &GalaxyflySizes,
        scratch: &'static str,
        own: &'static str,
    ) -> Result<(), ScheduleError> {
        CapacityError::check(scratch, sizes.scratch, self.scratch.len())?;
        CapacityError::check(own, sizes.own, self.own.len())?;
        Ok(())
    }
}

/// Supernode-level Galaxy graph and router assignment of a Galaxyfly.
pub trait GalaxyGraph {
    /// Number of supernodes `n·q`.
    fn supernodes(&self) -> u32;
    /// Routers per supernode `a`.
    fn routers_per_supernode(&self) -> u32;
    /// Number of neighbours of supernode `u`.
    fn degree(&self, u: u32) -> u32;
    /// The `i`-th neighbour of `u`, neighbours in ascending id.
    fn neighbor(&self, u: u32, i: u32) -> u32;
    /// Router (`0..a`) of `u` that carries the edge `u–v`. Default: the project choice of
    /// docs/topologies.md §10 — `v` is `u`'s `j`-th neighbour in ascending order and the edge
    /// uses router `j mod a`.
    fn link_router(&self, u: u32, v: u32) -> Option<u32> {
        let a = self.routers_per_supernode();
        if a == 0 {
            return None;
        }
        (0..self.degree(u))
            .find(|&i| self.neighbor(u, i) == v)
            .map(|j| j % a)
    }
}

/// Marker for "no parent / unvisited" in scratch arrays.
pub(crate) const NONE: u32 = u32::MAX;

/// Checked `link_router(u, v)`.
pub(crate) fn link_router<G: GalaxyGraph>(g: &G, u: u32, v: u32) -> Result<u32, ScheduleError> {
    match g.link_router(u, v) {
        Some(t) if t < g.routers_per_supernode() => Ok(t),
        Some(t) => Err(ScheduleError::Invalid(InvalidParam {
            param: "link router",
            value: t as u64,
            rule: "the router carrying an edge must be below a (routers per supernode)",
        })),
        None => Err(ScheduleError::Invalid(InvalidParam {
            param: "supernode edge",
            value: ((u as u64) << 32) | v as u64,
            rule: "the Galaxy graph has no edge between these supernodes",
        })),
    }
}

/// Validates the sizes: `S ≥ 1`, `a ≥ 1`, `S·a < 2^32`; returns `(S, a, N = S·a)`.
pub(crate) fn dims<G: GalaxyGraph>(g: &G) -> Result<(u32, u32, u32), ScheduleError> {
    let (s, a) = (g.supernodes(), g.routers_per_supernode());
    if s == 0 || a == 0 {
        return Err(ScheduleError::Invalid(InvalidParam {
            param: "supernodes / routers per supernode",
            value: ((s as u64) << 32) | a as u64,
            rule: "both must be at least 1",
        }));
    }
    let n = s as u64 * a as u64;
    if n >= u32::MAX as u64 {
        return Err(ScheduleError::Invalid(InvalidParam {
            param: "routers",
            value: n,
            rule: "the number of routers must fit in 32 bits",
        }));
    }
    Ok((s, a, n as u32))
}

/// Splits `len` entries off the front of `buf`.
pub(crate) fn take<'b>(buf: &mut &'b mut [u32], len: usize) -> &'b mut [u32] {
    let b = core::mem::take(buf);
    let (head, tail) = b.split_at_mut(len.min(b.len()));
    *buf = tail;
    head
}

/// A rooted tree over `0..len` in caller storage: the `parent` links (`NONE` at the root)
/// go in; [`Tree::order`] fills the children lists `first`/`next` (ascending), the
/// pre-order numbers `pre[v]`, the pre-order sequence `seq[i]` and the subtree sizes
/// `size[v]` (all `len` entries). `pre` may outlive the rest (SFATA's `own`).
pub(crate) struct Tree<'t, 'p> {
    pub parent: &'t mut [u32],
    pub first: &'t mut [u32],
    pub next: &'t mut [u32],
    pub pre: &'p mut [u32],
    pub seq: &'t mut [u32],
    pub size: &'t mut [u32],
}

impl Tree<'_, '_> {
    /// Children lists (ascending), then the pre-order from `root` and the subtree sizes.
    pub(crate) fn order(&mut self, root: u32) -> Result<(), ScheduleError> {
        self.children();
        self.preorder(root)
    }

    /// Children lists (ascending) of the tree `parent`.
    fn children(&mut self) {
        let Tree {
            parent,
            first,
            next,
            ..
        } = self;
        first.fill(NONE);
        next.fill(NONE);
        for v in (0..parent.len()).rev() {
            let p = parent[v];
            if p != NONE {
                next[v] = first[p as usize];
                first[p as usize] = v as u32;
            }
        }
    }

    /// Pre-order from `root` along the children lists: `pre`, `seq` and subtree sizes.
    fn preorder(&mut self, root: u32) -> Result<(), ScheduleError> {
        let Tree {
            parent,
            first,
            next,
            pre,
            seq,
            size,
        } = self;
        let n = parent.len();
        let mut v = root;
        let mut idx = 0usize;
        loop {
            if idx >= n {
                return Err(ScheduleError::Invalid(InvalidParam {
                    param: "tree",
                    value: idx as u64,
                    rule: "parent links must form a tree",
                }));
            }
            pre[v as usize] = idx as u32;
            seq[idx] = v;
            idx += 1;
            if first[v as usize] != NONE {
                v = first[v as usize];
                continue;
            }
            while v != root && next[v as usize] == NONE {
                v = parent[v as usize];
            }
            if v == root {
                break;
            }
            v = next[v as usize];
        }
        if idx != n {
            return Err(ScheduleError::Disconnected { node: idx as u64 });
        }
        size.fill(1);
        for i in (1..n).rev() {
            let v = seq[i] as usize;
            let p = parent[v] as usize;
            size[p] += size[v];
        }
        Ok(())
    }
}
