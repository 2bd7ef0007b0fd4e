//! RFATA — router-first all-to-all broadcast ([GF-A2A] §4.2; docs/collectives.md §7).
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
    let mut b = ListBuilder::new(n, DataLayout::uniform(n, packet_bytes), msgs, buf)?;
    let mut steps = Steps {
        graph,
        pivot,
        packets: Packets { a, pre, size },
        parent,
        order,
        list,
    };
    steps.allgather_in_supernodes(&mut b, s)?;
    steps.collect_towards_root(&mut b)?;
    steps.distribute_from_root(&mut b, n)?;
    b.finish(Semantics::Allgather, Some(own))
}

/// Packet numbering: supernode by supernode in SPC-tree pre-order, `a` packets each.
struct Packets<'t> {
    a: u32,
    pre: &'t [u32],
    size: &'t [u32],
}

impl Packets<'_> {
    /// First packet of supernode `u`.
    fn base(&self, u: u32) -> u32 {
        self.pre[u as usize] * self.a
    }

    /// The packets of `u`'s SPC subtree (contiguous).
    fn subtree(&self, u: u32) -> Span {
        Span::new(self.base(u), self.size[u as usize] * self.a)
    }

    /// The routers of supernode `u`, ascending, into `list`.
    fn fill(&self, list: &mut [u32], u: u32) {
        for (t, x) in list.iter_mut().enumerate() {
            *x = u * self.a + t as u32;
        }
    }
}

/// The three steps of RFATA over one SPC tree.
struct Steps<'x, G: ?Sized, P: ?Sized> {
    graph: &'x G,
    pivot: &'x P,
    packets: Packets<'x>,
    parent: &'x [u32],
    order: &'x [u32],
    /// Scratch: the routers of one supernode.
    list: &'x mut [u32],
}

impl<G: GalaxyGraph, P: Pivot + ?Sized> Steps<'_, G, P> {
    /// Step 1: in each of the `s` supernodes, RPC then RPD around the router linked to the
    /// SPC parent (the pivot's router for the root).
    fn allgather_in_supernodes(
        &mut self,
        b: &mut ListBuilder<'_, '_>,
        s: u32,
    ) -> Result<(), ScheduleError> {
        let a = self.packets.a;
        for u in 0..s {
            self.packets.fill(self.list, u);
            let list = &*self.list;
            let p = self.parent[u as usize];
            let m = if p == NONE {
                self.pivot.pivot(list) as u32
            } else {
                link_router(self.graph, u, p)?
            };
            let base = self.packets.base(u);
            let whole = Span::new(base, a);
            let mine = |e: &RpcEdge| Span::new(base + e.span_start as u32, e.span_len as u32);
            rpc(list, m as usize, self.pivot, &mut |e| {
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
            rpd(list, m as usize, self.pivot, &mut |e| {
                b.send(
                    list[e.parent],
                    list[e.child],
                    Blocks::range_minus(whole, mine(&e)),
                )
                .map(|_| ())
            })?;
        }
        Ok(())
    }

    /// Step 2: collection towards the root along the SPC tree, children before parents,
    /// distributing inside every supernode on arrival.
    fn collect_towards_root(&mut self, b: &mut ListBuilder<'_, '_>) -> Result<(), ScheduleError> {
        let a = self.packets.a;
        for &y in self.order.iter().skip(1).rev() {
            let x = self.parent[y as usize];
            let (ty, tx) = (
                link_router(self.graph, y, x)?,
                link_router(self.graph, x, y)?,
            );
            let sp = self.packets.subtree(y);
            let blocks = Blocks::Range {
                start: sp.start,
                len: sp.len,
            };
            b.send(y * a + ty, x * a + tx, blocks)?;
            self.packets.fill(self.list, x);
            let list = &*self.list;
            rpd(list, tx as usize, self.pivot, &mut |e| {
                b.send(list[e.parent], list[e.child], blocks).map(|_| ())
            })?;
        }
        Ok(())
    }

    /// Step 3: distribution from the root: everything across each tree link, the packets
    /// new to the supernode (outside its subtree) inside it; `n` packets in all.
    fn distribute_from_root(
        &mut self,
        b: &mut ListBuilder<'_, '_>,
        n: u32,
    ) -> Result<(), ScheduleError> {
        let a = self.packets.a;
        for &x in self.order.iter().skip(1) {
            let p = self.parent[x as usize];
            let (tp, tx) = (
                link_router(self.graph, p, x)?,
                link_router(self.graph, x, p)?,
            );
            b.send(p * a + tp, x * a + tx, Blocks::All)?;
            let fresh = Blocks::outside(self.packets.subtree(x), n);
            self.packets.fill(self.list, x);
            let list = &*self.list;
            rpd(list, tx as usize, self.pivot, &mut |e| {
                b.send(list[e.parent], list[e.child], fresh).map(|_| ())
            })?;
        }
        Ok(())
    }
}
