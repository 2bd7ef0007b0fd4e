//! SFATA — supernode-first all-to-all broadcast `SPC(U, A); SPD(U, A)` ([GF-A2A] §4.1;
//! docs/collectives.md §7).
//!
//! SPC builds one router-level collection tree: in every supernode `U ≠ A`, RPC over its
//! routers (ascending) towards the router that carries the link to `U`'s SPC parent, which
//! then sends to the parent's router carrying that link; in `A`, RPC towards the pivot of
//! its routers. Every router sends once, carrying the packets of its collection subtree.
//! SPD is the reverse: every router receives, from its collection parent, exactly the packets
//! outside its subtree. Packets are numbered by the pre-order of the collection tree
//! (children ascending), so each subtree is one [`Blocks::Range`] and each complement one
//! [`Blocks::TwoRanges`]. `2(N - 1)` messages, no router receives a packet twice.

use super::spc::spc_tree;
use super::{dims, link_router, take, GalaxyGraph, GalaxyflyBuffers, GalaxyflySizes, Tree, NONE};
use crate::collective::blocks::{Blocks, DataLayout, Span};
use crate::collective::list::{ListBuilder, ListSchedule};
use crate::collective::rpc::{rpc, Pivot};
use crate::collective::schedule::{ScheduleError, Semantics};

/// Builds SFATA towards supernode `root` with `packet_bytes`-byte packets into `bufs`
/// (sizes from [`GalaxyflySizes::of_sfata`]); `bufs.own` receives each router's packet
/// index.
pub fn sfata<'a, G: GalaxyGraph, P: Pivot + ?Sized>(
    graph: &G,
    root: u32,
    pivot: &P,
    packet_bytes: u64,
    bufs: GalaxyflyBuffers<'a, '_>,
) -> Result<ListSchedule<'a>, ScheduleError> {
    let (s, a, n) = dims(graph)?;
    let (su, au, nu) = (s as usize, a as usize, n as usize);
    bufs.check(
        &GalaxyflySizes::of_sfata(s, a),
        "SFATA scratch",
        "SFATA own blocks",
    )?;
    let GalaxyflyBuffers {
        msgs,
        mut own,
        scratch,
    } = bufs;
    let mut buf = scratch;
    let sn_parent = take(&mut buf, su);
    let sn_order = take(&mut buf, su);
    let mut tree = Tree {
        parent: take(&mut buf, nu),
        first: take(&mut buf, nu),
        next: take(&mut buf, nu),
        pre: take(&mut own, nu),
        seq: take(&mut buf, nu),
        size: take(&mut buf, nu),
    };
    let list = take(&mut buf, au);
    spc_tree(graph, root, sn_parent, sn_order)?;

    // Router-level collection tree.
    let mut top = NONE;
    for u in 0..s {
        for (t, x) in list.iter_mut().enumerate() {
            *x = u * a + t as u32;
        }
        let p = sn_parent[u as usize];
        let m = if p == NONE {
            pivot.pivot(list) as u32
        } else {
            link_router(graph, u, p)?
        };
        if m >= a {
            return Err(ScheduleError::Pivot {
                index: m as u64,
                len: a as u64,
            });
        }
        rpc(list, m as usize, pivot, &mut |e| {
            tree.parent[list[e.child] as usize] = list[e.parent];
            Ok(())
        })?;
        tree.parent[(u * a + m) as usize] = if p == NONE {
            top = u * a + m;
            NONE
        } else {
            p * a + link_router(graph, p, u)?
        };
    }
    tree.order(top)?;
    let Tree {
        parent,
        pre: own,
        seq,
        size,
        ..
    } = tree;

    let mut b = ListBuilder::new(n, DataLayout::uniform(n, packet_bytes), msgs, buf)?;
    for &v in seq.iter().skip(1).rev() {
        let v = v as usize;
        b.send(
            v as u32,
            parent[v],
            Blocks::Range {
                start: own[v],
                len: size[v],
            },
        )?;
    }
    for &v in seq.iter().skip(1) {
        let v = v as usize;
        b.send(
            parent[v],
            v as u32,
            Blocks::outside(Span::new(own[v], size[v]), n),
        )?;
    }
    b.finish(Semantics::Allgather, Some(own))
}
