//! RFATA — router-first all-to-all broadcast ([GF-A2A] §4.2; spec/collectives.md §7).
//! **Reconstruction** (project choice; the paper gives no exact message rules):
//!
//! 1. In every supernode `U`: RPC then RPD over its routers (ascending) around `m_U` — the
//!    router carrying the link to `U`'s SPC parent (for `A`, the pivot) — so every router of
//!    `U` holds `U`'s `a` packets (RPD sends each router exactly what it lacks).
//! 2. Collection along the SPC tree, children before parents: the router of `y` linked to
//!    its parent `x` sends the packets of `y`'s whole SPC subtree to `x`'s router on that
//!    link, which at once distributes them to all routers of `x` (RPD rooted there).
//! 3. Distribution from `A` along the SPC tree: the parent's router linked to `x` forwards
//!    **all** packets to `m_x` (the supernode cannot tell what it already has), and `m_x`
//!    distributes the packets new to `x` (those outside `x`'s subtree) by RPD.
//!
//! Packets are numbered supernode by supernode in SPC-tree pre-order (children ascending),
//! so a supernode's packets and an SPC subtree's packets are contiguous. The only redundant
//! deliveries are in step 3: `m_x` receives `x`'s subtree again, `a·|subtree(x)|` packets
//! for every `x ≠ A`.

use super::spc::spc_tree;
use super::{dims, link_router, take, GalaxyGraph, GalaxyflyBuffers, GalaxyflySizes, Tree, NONE};
use crate::collective::blocks::{Blocks, DataLayout, Span};
use crate::collective::list::{ListBuilder, ListSchedule};
use crate::collective::rpc::{rpc, rpd, Pivot, RpcEdge};
use crate::collective::schedule::{ScheduleError, Semantics};

/// Messages RFATA sends: `2S(a - 1) + 2(S - 1)a`.
pub fn message_count(s: u32, a: u32) -> u64 {
    let (s, a) = (s as u64, a as u64);
    2 * s * (a - 1) + 2 * (s - 1) * a
}

/// Builds RFATA towards supernode `root` with `packet_bytes`-byte packets into `bufs`
/// (sizes from [`GalaxyflySizes::of_rfata`]); `bufs.own` receives each router's packet
/// index.
pub fn rfata<'a, G: GalaxyGraph, P: Pivot + ?Sized>(
    graph: &G,
    root: u32,
    pivot: &P,
    packet_bytes: u64,
    bufs: GalaxyflyBuffers<'a, '_>,
) -> Result<ListSchedule<'a>, ScheduleError> {
    let (s, a, n) = dims(graph)?;
    let (su, au, nu) = (s as usize, a as usize, n as usize);
    bufs.check(
        &GalaxyflySizes::of_rfata(s, a),
        "RFATA scratch",
        "RFATA own blocks",
    )?;
    let GalaxyflyBuffers { msgs, own, scratch } = bufs;
    let mut buf = scratch;
    let parent = take(&mut buf, su);
    let order = take(&mut buf, su);
    let mut tree = Tree {
        parent,
        first: take(&mut buf, su),
        next: take(&mut buf, su),
        pre: take(&mut buf, su),
        seq: take(&mut buf, su),
        size: take(&mut buf, su),
    };
    let list = take(&mut buf, au);
    spc_tree(graph, root, tree.parent, order)?;
    tree.order(root)?;
    let Tree {
        parent, pre, size, ..
    } = tree;
    let own = &mut own[..nu];
    for u in 0..su {
        for t in 0..au {
            own[u * au + t] = pre[u] * a + t as u32;
        }
    }
    let base = |u: u32| pre[u as usize] * a;
    let subtree = |u: u32| Span::new(base(u), size[u as usize] * a);
    let fill = |list: &mut [u32], u: u32| {
        for (t, x) in list.iter_mut().enumerate() {
            *x = u * a + t as u32;
        }
    };
    let mut b = ListBuilder::new(n, DataLayout::uniform(n, packet_bytes), msgs, buf)?;

    // 1. Intra-supernode allgather.
    for u in 0..s {
        fill(list, u);
        let p = parent[u as usize];
        let m = if p == NONE {
            pivot.pivot(list) as u32
        } else {
            link_router(graph, u, p)?
        };
        let whole = Span::new(base(u), a);
        let mine = |e: &RpcEdge| Span::new(base(u) + e.span_start as u32, e.span_len as u32);
        rpc(list, m as usize, pivot, &mut |e| {
            let sp = mine(&e);
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
        rpd(list, m as usize, pivot, &mut |e| {
            b.send(
                list[e.parent],
                list[e.child],
                Blocks::range_minus(whole, mine(&e)),
            )
            .map(|_| ())
        })?;
    }
    // 2. Collection towards A, distributing inside every supernode on arrival.
    for &y in order.iter().skip(1).rev() {
        let x = parent[y as usize];
        let (ty, tx) = (link_router(graph, y, x)?, link_router(graph, x, y)?);
        let sp = subtree(y);
        let blocks = Blocks::Range {
            start: sp.start,
            len: sp.len,
        };
        b.send(y * a + ty, x * a + tx, blocks)?;
        fill(list, x);
        rpd(list, tx as usize, pivot, &mut |e| {
            b.send(list[e.parent], list[e.child], blocks).map(|_| ())
        })?;
    }
    // 3. Distribution from A: everything across the link, the new packets inside.
    for &x in order.iter().skip(1) {
        let p = parent[x as usize];
        let (tp, tx) = (link_router(graph, p, x)?, link_router(graph, x, p)?);
        b.send(p * a + tp, x * a + tx, Blocks::All)?;
        let fresh = Blocks::outside(subtree(x), n);
        fill(list, x);
        rpd(list, tx as usize, pivot, &mut |e| {
            b.send(list[e.parent], list[e.child], fresh).map(|_| ())
        })?;
    }
    b.finish(Semantics::Allgather, Some(own))
}
