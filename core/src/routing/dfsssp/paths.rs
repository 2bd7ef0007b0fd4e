//! DFSSSP path computation with balancing weights (docs/routing.md §6, "Path computation").

use crate::topology::{Port, PortIndex, SwitchId, Topology};

use super::heap::{MinHeap, NOT_IN_HEAP, SETTLED};
use super::DfssspConfig;
use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::RouteEntry;
use crate::routing::terminal_location;

/// Views of the per-switch scratch arrays (each `n` entries, `child_start` `n + 1`).
pub(crate) struct Scratch<'s> {
    pub hops: &'s mut [u32],
    pub heap: &'s mut [u32],
    pub pos: &'s mut [u32],
    pub order: &'s mut [u32],
    pub acc: &'s mut [u32],
    pub parent: &'s mut [u32],
    pub child: &'s mut [u32],
    pub dfs: &'s mut [u32],
    pub terms: &'s mut [u32],
    pub child_start: &'s mut [u32],
}

/// Splits `scratch` (at least `10 · n + 1` entries) into its arrays.
pub(crate) fn split_scratch(scratch: &mut [u32], n: usize) -> Scratch<'_> {
    let (hops, rest) = scratch.split_at_mut(n);
    let (heap, rest) = rest.split_at_mut(n);
    let (pos, rest) = rest.split_at_mut(n);
    let (order, rest) = rest.split_at_mut(n);
    let (acc, rest) = rest.split_at_mut(n);
    let (parent, rest) = rest.split_at_mut(n);
    let (child, rest) = rest.split_at_mut(n);
    let (dfs, rest) = rest.split_at_mut(n);
    let (terms, rest) = rest.split_at_mut(n);
    let (child_start, _) = rest.split_at_mut(n + 1);
    Scratch {
        hops,
        heap,
        pos,
        order,
        acc,
        parent,
        child,
        dfs,
        terms,
        child_start,
    }
}

/// Views of the path-tree arrays (`terminals · n` each): preorder of destination `d`'s
/// tree, position of each switch in it, subtree size of each switch.
pub(crate) struct Trees<'s> {
    pub pre: &'s mut [u32],
    pub pos: &'s mut [u32],
    pub size: &'s mut [u32],
}

/// Splits `tree` (at least `3 · per_path` entries).
pub(crate) fn split_trees(tree: &mut [u32], per_path: usize) -> Trees<'_> {
    let (pre, rest) = tree.split_at_mut(per_path);
    let (pos, rest) = rest.split_at_mut(per_path);
    let (size, _) = rest.split_at_mut(per_path);
    Trees { pre, pos, size }
}

/// Position marker of a switch outside destination `d`'s tree.
pub(crate) const NOT_IN_TREE: u32 = u32::MAX;

/// Counts terminals per switch into `terms`.
pub(crate) fn count_terminals<T: Topology>(
    topo: &T,
    terms: &mut [u32],
) -> Result<(), RoutingError> {
    terms.fill(0);
    for d in 0..topo.num_terminals() {
        let (s, _) = terminal_location(topo, d)?;
        if let Some(c) = terms.get_mut(s as usize) {
            *c += 1;
        }
    }
    Ok(())
}

/// Peer switch of channel `(u, p)`, checked against the switch range.
#[inline]
pub(crate) fn peer<T: Topology>(topo: &T, u: SwitchId, p: PortIndex) -> Option<SwitchId> {
    match topo.port(u, p) {
        Port::Link(l) if l.peer < topo.num_switches() => Some(l.peer),
        _ => None,
    }
}

/// Caller storage of the path phase (a view of [`super::DfssspBuffers`]; lengths from
/// [`super::DfssspSizes`], `per_path` and `tree` scaled by the destinations per terminal).
pub(crate) struct PathBuffers<'b> {
    /// Channel weights (`weights` entries).
    pub weights: &'b mut [u64],
    /// Dijkstra distances (`dist` entries).
    pub dist: &'b mut [u64],
    /// Per-switch scratch arrays (`scratch` entries), split by [`split_scratch`].
    pub scratch: &'b mut [u32],
    /// Output: next port per (destination, switch) (`per_path` entries).
    pub next_port: &'b mut [PortIndex],
    /// Output: path trees (`tree` entries), split by [`split_trees`].
    pub tree: &'b mut [u32],
}

impl<'b> PathBuffers<'b> {
    /// Splits the buffers for `n` switches and `per_path = destinations · n` path entries
    /// into the Dijkstra work arrays, the next-port rows and the tree arrays.
    pub(crate) fn split(
        self,
        n: usize,
        per_path: usize,
    ) -> (PathWork<'b>, &'b mut [PortIndex], Trees<'b>) {
        let work = PathWork {
            weights: self.weights,
            dist: self.dist,
            sc: split_scratch(self.scratch, n),
        };
        (work, self.next_port, split_trees(self.tree, per_path))
    }
}

/// What the modified Dijkstra of one destination works on besides its outputs: the channel
/// weights (raised after each destination), the distances and the per-switch scratch arrays.
pub(crate) struct PathWork<'w> {
    pub weights: &'w mut [u64],
    pub dist: &'w mut [u64],
    pub sc: Scratch<'w>,
}

/// Computes every destination terminal's next hops into `bufs.next_port` (`[d · n + x]`)
/// and its path tree into `bufs.tree`, updating the channel weights `bufs.weights`
/// (docs/routing.md §6). Returns the largest final weight.
pub(crate) fn compute<T: Topology>(
    topo: &T,
    config: &DfssspConfig,
    bufs: PathBuffers<'_>,
) -> Result<u64, RoutingError> {
    let n = topo.num_switches() as usize;
    let nt = topo.num_terminals() as usize;
    let (mut work, next_port, trees) = bufs.split(n, nt * n);
    let base = init_weights(topo, config, work.weights);
    count_terminals(topo, work.sc.terms)?;
    for d in 0..nt {
        let (t, tport) = terminal_location(topo, d as u32)?;
        // +1 per path from every source terminal.
        work.sc.acc.copy_from_slice(work.sc.terms);
        let rows = d * n..(d + 1) * n;
        route_destination(
            topo,
            &|_, _, _| true,
            (t, tport),
            &mut work,
            DestOut {
                row: &mut next_port[rows.clone()],
                pre: &mut trees.pre[rows.clone()],
                pos: &mut trees.pos[rows.clone()],
                size: &mut trees.size[rows],
            },
        )?;
    }
    Ok(max_weight(topo, work.weights, base))
}

/// Sets every channel weight to the initial value (`config.base_weight`, default `P²` with
/// P = number of terminals, at least 1) and returns it (docs/routing.md §6).
pub(crate) fn init_weights<T: Topology>(
    topo: &T,
    config: &DfssspConfig,
    weights: &mut [u64],
) -> u64 {
    let p_terms = topo.num_terminals() as u64;
    let base = config
        .base_weight
        .unwrap_or(p_terms.saturating_mul(p_terms))
        .max(1);
    let channels = topo.num_switches() as usize * topo.radix() as usize;
    if let Some(w) = weights.get_mut(..channels) {
        w.fill(base);
    }
    base
}

/// Largest channel weight (`base` when there are no channels).
pub(crate) fn max_weight<T: Topology>(topo: &T, weights: &[u64], base: u64) -> u64 {
    let channels = topo.num_switches() as usize * topo.radix() as usize;
    weights
        .get(..channels)
        .and_then(|w| w.iter().copied().max())
        .unwrap_or(base)
}

/// Outputs of one destination: next port of every switch and the path tree (preorder,
/// positions, subtree sizes), `n` entries each.
pub(crate) struct DestOut<'o> {
    pub row: &'o mut [PortIndex],
    pub pre: &'o mut [u32],
    pub pos: &'o mut [u32],
    pub size: &'o mut [u32],
}

/// Routes every switch to destination switch `t` (which ejects on `tport`) with the modified
/// Dijkstra of docs/routing.md §6 over the channels `keep(from, port, to)` admits, then adds
/// to every channel of the path from each source switch `x` the amount `work.sc.acc[x]`
/// holds on entry (DFSSSP: its terminal count, +1 per path; PARX: its demand toward the
/// destination, §7). Fails with [`RoutingError::Unreachable`] when a switch with terminals
/// cannot reach `t`.
pub(crate) fn route_destination<T: Topology, K: Fn(SwitchId, PortIndex, SwitchId) -> bool>(
    topo: &T,
    keep: &K,
    (t, tport): (SwitchId, PortIndex),
    work: &mut PathWork<'_>,
    out: DestOut<'_>,
) -> Result<(), RoutingError> {
    let n = topo.num_switches() as usize;
    let r = topo.radix() as usize;
    if t as usize >= n {
        return Err(RoutingError::SwitchOutOfRange {
            switch: t,
            switches: n as u32,
        });
    }
    let row = out.row;
    let reached = dijkstra(topo, keep, t, work, row)?;
    let PathWork { weights, dist, sc } = work;
    // Destination switch ejects; unreached sources with terminals cannot be routed.
    row[t as usize] = tport;
    if let Some(x) = (0..n).find(|&x| dist[x] == u64::MAX && sc.terms[x] > 0) {
        return Err(RoutingError::Unreachable {
            from: x as u32,
            to: t,
        });
    }
    // Push the per-source amounts up the tree, adding them to every channel on the way.
    for i in (1..reached).rev() {
        let x = sc.order[i] as usize;
        let p = row[x];
        let par = peer(topo, x as u32, p).ok_or(RoutingError::NotALink {
            switch: x as u32,
            port: p,
        })? as usize;
        sc.parent[x] = par as u32;
        if let Some(w) = weights.get_mut(x * r + p as usize) {
            *w = w.saturating_add(sc.acc[x] as u64);
        }
        sc.acc[par] = sc.acc[par].saturating_add(sc.acc[x]);
    }
    build_tree(t as usize, reached, sc, out.pre, out.pos, out.size);
    Ok(())
}

/// Dijkstra from `t` over reversed channels with ties (weight, hops, output port), using
/// only channels `x → y` on port `p` of `x` with `keep(x, p, y)`; writes each switch's
/// output port into `row`, its distance into `work.dist` and the settle order into
/// `work.sc.order`; returns the number of switches reached.
fn dijkstra<T: Topology, K: Fn(SwitchId, PortIndex, SwitchId) -> bool>(
    topo: &T,
    keep: &K,
    t: SwitchId,
    work: &mut PathWork<'_>,
    row: &mut [PortIndex],
) -> Result<usize, RoutingError> {
    let n = topo.num_switches() as usize;
    let r = topo.radix() as usize;
    let PathWork { weights, dist, sc } = work;
    let dist = &mut dist[..n];
    dist.fill(u64::MAX);
    sc.hops.fill(u32::MAX);
    sc.pos.fill(NOT_IN_HEAP);
    row.fill(RouteEntry::NO_PORT);
    dist[t as usize] = 0;
    sc.hops[t as usize] = 0;
    let mut heap = MinHeap {
        heap: &mut *sc.heap,
        pos: &mut *sc.pos,
        len: 0,
    };
    heap.push_or_decrease(t, dist, sc.hops);
    let mut reached = 0usize;
    while let Some(y) = heap.pop(dist, sc.hops) {
        sc.order[reached] = y;
        reached += 1;
        let (dy, hy) = (dist[y as usize], sc.hops[y as usize]);
        for q in 0..r as PortIndex {
            let Port::Link(l) = topo.port(y, q) else {
                continue;
            };
            let x = l.peer as usize;
            if x >= n {
                return Err(RoutingError::SwitchOutOfRange {
                    switch: l.peer,
                    switches: n as u32,
                });
            }
            if heap.pos[x] == SETTLED {
                continue;
            }
            let p = l.peer_port;
            if !keep(x as SwitchId, p, y) {
                continue;
            }
            let w = weights.get(x * r + p as usize).copied().unwrap_or(u64::MAX);
            let cand = (dy.saturating_add(w), hy + 1, p);
            if cand < (dist[x], sc.hops[x], row[x]) {
                dist[x] = cand.0;
                sc.hops[x] = cand.1;
                row[x] = p;
                heap.push_or_decrease(x as u32, dist, sc.hops);
            }
        }
    }
    Ok(reached)
}

/// Builds the preorder (children in ascending id), positions and subtree sizes of the tree
/// given by `sc.parent` over the `reached` switches in `sc.order` (rooted at `t`).
fn build_tree(
    t: usize,
    reached: usize,
    sc: &mut Scratch<'_>,
    pre: &mut [u32],
    pos: &mut [u32],
    size: &mut [u32],
) {
    let n = pos.len();
    pos.fill(NOT_IN_TREE);
    size.fill(0);
    // Children lists by counting sort on the parent (children in ascending id).
    sc.child_start.fill(0);
    for &x in &sc.order[1..reached] {
        sc.child_start[sc.parent[x as usize] as usize + 1] += 1;
    }
    for i in 0..n {
        sc.child_start[i + 1] += sc.child_start[i];
    }
    // `acc` is free again: use it as the fill cursor.
    sc.acc[..n].copy_from_slice(&sc.child_start[..n]);
    for x in 0..n {
        if x != t && pos_in_order(sc, x) {
            let par = sc.parent[x] as usize;
            sc.child[sc.acc[par] as usize] = x as u32;
            sc.acc[par] += 1;
        }
    }
    // Iterative preorder from t; children pushed in reverse so the lowest id comes first.
    let mut k = 0usize;
    let mut top = 0usize;
    sc.dfs[top] = t as u32;
    top += 1;
    while top > 0 {
        top -= 1;
        let u = sc.dfs[top] as usize;
        pre[k] = u as u32;
        pos[u] = k as u32;
        size[u] = 1;
        k += 1;
        let (lo, hi) = (sc.child_start[u] as usize, sc.child_start[u + 1] as usize);
        for i in (lo..hi).rev() {
            sc.dfs[top] = sc.child[i];
            top += 1;
        }
    }
    for i in (1..k).rev() {
        let u = pre[i] as usize;
        let par = sc.parent[u] as usize;
        size[par] += size[u];
    }
}

/// Whether switch `x` was reached by the last Dijkstra (its heap marker says settled).
#[inline]
fn pos_in_order(sc: &Scratch<'_>, x: usize) -> bool {
    sc.pos[x] == SETTLED
}
