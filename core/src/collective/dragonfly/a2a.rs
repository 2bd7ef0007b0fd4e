//! Dragonfly all-to-all broadcast A2A of Xiang & Ju (COCOON 2021), router level
//! (docs/collectives.md §8). **Reconstruction** from the abstract (project choice):
//!
//! 1. Every group gathers its routers' packets to a group root by RPC (routers ascending,
//!    root = pivot; [`crate::collective::rpc`]).
//! 2. The root distributes the combined group message to every router (RPD; each router gets
//!    the group packets it lacks).
//! 3. Every router sends the combined group message over each of its global links: group `G`
//!    reaches group `G'` once, at router `link(G, G').1`.
//! 4. Every router forwards each message received over a global link to all other routers of
//!    its group.
//!
//! Router `t` of group `G` is rank `G·a + t` and owns packet `G·a + t`. Messages:
//! `2g(a - 1) + g(g - 1)a`; no router receives a packet twice.

use super::{DragonflyBuffers, DragonflySizes, GroupLinks};
use crate::collective::blocks::{Blocks, DataLayout, Span};
use crate::collective::list::{ListBuilder, ListSchedule};
use crate::collective::rpc::{rpc, rpd, Pivot, RpcEdge};
use crate::collective::schedule::{ScheduleError, Semantics};
use crate::error::{CapacityError, InvalidParam};

/// Messages A2A sends for `g` groups of `a` routers.
pub fn message_count(g: u32, a: u32) -> u64 {
    let (g, a) = (g as u64, a as u64);
    2 * g * a.saturating_sub(1) + g * g.saturating_sub(1) * a
}

/// Builds A2A for `g` groups of `a` routers with `packet_bytes`-byte packets into `bufs`
/// (sizes from [`DragonflySizes::of_a2a`]).
pub fn a2a<'a, L: GroupLinks, P: Pivot + ?Sized>(
    g: u32,
    a: u32,
    links: &L,
    pivot: &P,
    packet_bytes: u64,
    bufs: DragonflyBuffers<'a, '_>,
) -> Result<ListSchedule<'a>, ScheduleError> {
    let DragonflyBuffers { msgs, scratch } = bufs;
    let n = g as u64 * a as u64;
    if g == 0 || a == 0 || n >= u32::MAX as u64 {
        return Err(ScheduleError::Invalid(InvalidParam {
            param: "groups · routers",
            value: n,
            rule: "need at least one group of one router and fewer than 2^32 routers",
        }));
    }
    let n = n as u32;
    let sizes = DragonflySizes::of_a2a(g, a);
    CapacityError::check("A2A scratch", sizes.scratch, scratch.len())?;
    let (list, rest) = scratch.split_at_mut(a as usize);
    let mut b = ListBuilder::new(n, DataLayout::uniform(n, packet_bytes), msgs, rest)?;
    let group_span = |grp: u32| Span::new(grp * a, a);
    let check = |t: u32| {
        if t < a {
            Ok(t)
        } else {
            Err(ScheduleError::Invalid(InvalidParam {
                param: "link router",
                value: t as u64,
                rule: "GroupLinks must return router indices below a",
            }))
        }
    };
    for grp in 0..g {
        for (t, x) in list.iter_mut().enumerate() {
            *x = grp * a + t as u32;
        }
        let m = pivot.pivot(list);
        let sub = |e: &RpcEdge| Span::new(grp * a + e.span_start as u32, e.span_len as u32);
        rpc(list, m, pivot, &mut |e| {
            let sp = sub(&e);
            b.send(
                list[e.child],
                list[e.parent],
                Blocks::Range {
                    start: sp.start,
                    len: sp.len,
                },
            )
            .map(|_| ())
        })?;
        rpd(list, m, pivot, &mut |e| {
            b.send(
                list[e.parent],
                list[e.child],
                Blocks::range_minus(group_span(grp), sub(&e)),
            )
            .map(|_| ())
        })?;
    }
    for src in 0..g {
        for dst in (0..g).filter(|&d| d != src) {
            let (r1, r2) = links.link(src, dst);
            let sp = group_span(src);
            b.send(
                src * a + check(r1)?,
                dst * a + check(r2)?,
                Blocks::Range {
                    start: sp.start,
                    len: sp.len,
                },
            )?;
        }
    }
    for dst in 0..g {
        for src in (0..g).filter(|&s| s != dst) {
            let r2 = check(links.link(src, dst).1)?;
            let sp = group_span(src);
            for t in (0..a).filter(|&t| t != r2) {
                b.send(
                    dst * a + r2,
                    dst * a + t,
                    Blocks::Range {
                        start: sp.start,
                        len: sp.len,
                    },
                )?;
            }
        }
    }
    b.finish(Semantics::Allgather, None)
}
