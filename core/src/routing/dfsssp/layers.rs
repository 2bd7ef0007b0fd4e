//! DFSSSP virtual-layer assignment and balancing (docs/routing.md §6, "Deadlock removal").

use crate::topology::{PortIndex, Topology};

use super::paths::{count_terminals, peer, split_scratch, split_trees};
use super::{DfssspConfig, DfssspReport, MAX_LAYERS};
use crate::routing::deadlock::cycle::{CycleSearch, DependencyGraph, Frame};
use crate::routing::error::RoutingError;
use crate::routing::terminal_location;

/// The destinations paths lead to: every terminal (DFSSSP), or `per_terminal` virtual
/// destinations per terminal (PARX LIDs, docs/routing.md §7), destination index
/// `terminal · per_terminal + i`. Path arrays are indexed `[destination · n + switch]`.
#[derive(Debug)]
pub(crate) struct Destinations<'t, T> {
    pub topo: &'t T,
    pub per_terminal: u32,
}

impl<T> Clone for Destinations<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Destinations<'_, T> {}

impl<T: Topology> Destinations<'_, T> {
    /// Number of destinations.
    pub(crate) fn count(&self) -> usize {
        self.topo.num_terminals() as usize * self.per_terminal.max(1) as usize
    }

    /// Switch of destination `d`.
    pub(crate) fn switch(&self, d: usize) -> Result<usize, RoutingError> {
        let term = d / self.per_terminal.max(1) as usize;
        Ok(terminal_location(self.topo, term as u32)?.0 as usize)
    }
}

/// The dependency graph of one layer: vertex = dense channel `u · r + p`, slot = output port
/// `q` at the next switch, edge present while some path of the layer induces it.
struct LayerGraph<'g, T> {
    topo: &'g T,
    r: u32,
    channels: u32,
    counts: &'g [u32],
}

impl<T: Topology> DependencyGraph for LayerGraph<'_, T> {
    fn num_vertices(&self) -> u32 {
        self.channels
    }
    fn fanout(&self) -> u32 {
        self.r
    }
    fn successor(&self, v: u32, slot: u32) -> Option<u32> {
        let c = self
            .counts
            .get((v as usize) * self.r as usize + slot as usize)?;
        if *c == 0 {
            return None;
        }
        let w = peer(self.topo, v / self.r, (v % self.r) as PortIndex)?;
        Some(w * self.r + slot)
    }
}

/// Read-only context of the layer phase.
struct Ctx<'c, T> {
    topo: &'c T,
    n: usize,
    r: usize,
    next_port: &'c [PortIndex],
    terms: &'c [u32],
}

impl<T: Topology> Ctx<'_, T> {
    /// Calls `f(dependency index)` for every dependency of the path from switch `x` to the
    /// switch `t` of destination `d` (index `(u · r + p) · r + q`).
    fn for_each_dep<F: FnMut(usize)>(&self, x: usize, d: usize, t: usize, mut f: F) {
        let row = &self.next_port[d * self.n..(d + 1) * self.n];
        let mut u = x;
        let mut guard = 0;
        while u != t && guard <= self.n {
            guard += 1;
            let p = row[u];
            let Some(w) = peer(self.topo, u as u32, p) else {
                return;
            };
            let w = w as usize;
            if w == t {
                return;
            }
            let q = row[w];
            f((u * self.r + p as usize) * self.r + q as usize);
            u = w;
        }
    }

    fn is_path(&self, x: usize, t: usize) -> bool {
        x != t && self.terms[x] > 0
    }
}

/// Destinations grouped by the channel their route takes at each switch: the destinations
/// `d` with `next_port[d][u] = p` are `list[start[c] .. start[c + 1]]` for channel
/// `c = u · r + p` (ascending `d`). Lets a cycle break visit only the destinations whose
/// routes use the weakest edge's first channel.
pub(crate) struct ChannelIndex<'i> {
    start: &'i [u32],
    list: &'i [u32],
}

impl<'i> ChannelIndex<'i> {
    /// Builds the index by counting sort (`list`: destinations · switches entries, `start`:
    /// channels + 1).
    pub(crate) fn build<T: Topology>(
        dests: Destinations<'_, T>,
        next_port: &[PortIndex],
        list: &'i mut [u32],
        start: &'i mut [u32],
    ) -> Result<Self, RoutingError> {
        let topo = dests.topo;
        let n = topo.num_switches() as usize;
        let nt = dests.count();
        let r = topo.radix() as usize;
        let start = &mut start[..n * r + 1];
        start.fill(0);
        let chan = |d: usize, u: usize| -> Option<usize> {
            let p = *next_port.get(d * n + u)? as usize;
            (p < r).then_some(u * r + p)
        };
        for d in 0..nt {
            let t = dests.switch(d)?;
            for u in (0..n).filter(|&u| u != t) {
                if let Some(c) = chan(d, u) {
                    start[c + 1] += 1;
                }
            }
        }
        for c in 0..n * r {
            start[c + 1] += start[c];
        }
        // Fill with a moving cursor kept in the (shifted) start array, then shift back.
        for d in 0..nt {
            let t = dests.switch(d)?;
            for u in (0..n).filter(|&u| u != t) {
                if let Some(c) = chan(d, u) {
                    let k = start[c] as usize;
                    if let Some(slot) = list.get_mut(k) {
                        *slot = d as u32;
                    }
                    start[c] += 1;
                }
            }
        }
        for c in (0..n * r).rev() {
            start[c + 1] = start[c];
        }
        start[0] = 0;
        Ok(ChannelIndex { start, list })
    }

    /// Destinations whose route leaves switch `u` on channel `c`.
    fn destinations(&self, c: usize) -> &[u32] {
        let lo = self.start.get(c).copied().unwrap_or(0) as usize;
        let hi = self.start.get(c + 1).copied().unwrap_or(0) as usize;
        self.list.get(lo..hi).unwrap_or(&[])
    }
}

/// Caller storage of the layer phase (a view of [`super::DfssspBuffers`]; lengths from
/// [`super::DfssspSizes`], `per_path` and `tree` scaled by the destinations per terminal).
pub(crate) struct LayerBuffers<'b> {
    /// Output: layer per (destination, source switch) (`per_path` entries).
    pub layer: &'b mut [u8],
    /// Path trees written by the path phase (`tree` entries), read here.
    pub tree: &'b mut [u32],
    /// Per-switch scratch arrays (`scratch` entries).
    pub scratch: &'b mut [u32],
    /// Dependency counts of the layer being processed (`dep_count` entries).
    pub dep_count: &'b mut [u32],
    /// Cycle search marks (`channels` entries).
    pub color: &'b mut [u32],
    /// Cycle search stack (`channels` entries).
    pub stack: &'b mut [Frame],
}

/// Assigns every path a layer so that no layer's dependency graph has a cycle, then
/// balances over spare layers if configured (docs/routing.md §6, "Deadlock removal").
pub(crate) fn assign<T: Topology>(
    dests: Destinations<'_, T>,
    config: &DfssspConfig,
    next_port: &[PortIndex],
    index: &ChannelIndex<'_>,
    bufs: LayerBuffers<'_>,
) -> Result<DfssspReport, RoutingError> {
    let LayerBuffers {
        layer,
        tree,
        scratch,
        dep_count,
        color,
        stack,
    } = bufs;
    let topo = dests.topo;
    let n = topo.num_switches() as usize;
    let nt = dests.count();
    let r = topo.radix() as usize;
    let sc = split_scratch(scratch, n);
    count_terminals(topo, sc.terms)?;
    let trees = split_trees(tree, nt * n);
    let layer = &mut layer[..nt * n];
    layer.fill(0);
    let mut l = Layering {
        ctx: Ctx {
            topo,
            n,
            r,
            next_port,
            terms: sc.terms,
        },
        dests,
        config,
        index,
        pre: trees.pre,
        pos: trees.pos,
        size: trees.size,
        layer,
        dep_count: &mut dep_count[..n * r * r],
        report: DfssspReport {
            paths: 0,
            layers_needed: 1,
            layers_used: 1,
            paths_per_layer: [0; MAX_LAYERS],
            cycles_broken: 0,
            paths_moved: 0,
            max_weight: 0,
        },
    };
    l.report.paths = l.count_paths()?;
    let needed = l.break_all_cycles(color, stack)?;
    if needed > config.max_layers as usize {
        return Err(RoutingError::TooManyLayers {
            needed: needed as u16,
            limit: config.max_layers,
        });
    }
    l.report.layers_needed = needed as u8;
    l.report.layers_used = needed as u8;
    let mut per_layer = l.paths_per_layer()?;
    if config.balance && needed < config.max_layers as usize {
        l.balance(&per_layer, needed)?;
        per_layer = l.paths_per_layer()?;
    }
    l.report.paths_per_layer = per_layer;
    Ok(l.report)
}

/// The layer phase in progress: the read-only inputs (routes, path trees, channel index)
/// and what it writes (layer of every path, dependency counts of the current layer, the
/// report).
struct Layering<'l, T> {
    ctx: Ctx<'l, T>,
    dests: Destinations<'l, T>,
    config: &'l DfssspConfig,
    index: &'l ChannelIndex<'l>,
    /// Path trees, `[d · n + x]`: preorder of destination `d`'s tree, position of switch
    /// `x` in it, subtree size of `x`.
    pre: &'l [u32],
    pos: &'l [u32],
    size: &'l [u32],
    /// Layer of the path from switch `x` to destination `d`, `[d · n + x]`.
    layer: &'l mut [u8],
    dep_count: &'l mut [u32],
    report: DfssspReport,
}

impl<T: Topology> Layering<'_, T> {
    /// Calls `f(d, t, x)` for every path: source switch `x` (with terminals) to destination
    /// `d` at switch `t ≠ x`, destinations ascending, sources ascending.
    fn for_each_path<F: FnMut(usize, usize, usize)>(&self, mut f: F) -> Result<(), RoutingError> {
        for d in 0..self.dests.count() {
            let t = self.dests.switch(d)?;
            for x in (0..self.ctx.n).filter(|&x| self.ctx.is_path(x, t)) {
                f(d, t, x);
            }
        }
        Ok(())
    }

    /// Number of paths.
    fn count_paths(&self) -> Result<u64, RoutingError> {
        let mut paths = 0u64;
        self.for_each_path(|_, _, _| paths += 1)?;
        Ok(paths)
    }

    /// Breaks the dependency cycles of layers `0, 1, ...` in turn, moving paths up, until a
    /// layer is empty; returns the number of layers used. [`RoutingError::LayerSearchExhausted`]
    /// when a cycle remains in the last of the [`MAX_LAYERS`] layers.
    fn break_all_cycles(
        &mut self,
        color: &mut [u32],
        stack: &mut [Frame],
    ) -> Result<usize, RoutingError> {
        let channels = (self.ctx.n * self.ctx.r) as u32;
        let mut highest = 0usize;
        for v in 0..MAX_LAYERS {
            if !self.count_dependencies(v)? {
                break;
            }
            highest = v;
            let mut search = CycleSearch::new(channels, &mut *color, &mut *stack)?;
            self.break_cycles(v, &mut search)?;
        }
        Ok(highest + 1)
    }

    /// Counts into `dep_count` the dependencies induced by the paths of layer `v`; returns
    /// whether the layer has any path.
    fn count_dependencies(&mut self, v: usize) -> Result<bool, RoutingError> {
        self.dep_count.fill(0);
        let n = self.ctx.n;
        let mut any = false;
        let (ctx, layer, dep_count) = (&self.ctx, &*self.layer, &mut *self.dep_count);
        for d in 0..self.dests.count() {
            let t = self.dests.switch(d)?;
            for x in 0..n {
                if ctx.is_path(x, t) && layer[d * n + x] as usize == v {
                    any = true;
                    ctx.for_each_dep(x, d, t, |i| {
                        if let Some(c) = dep_count.get_mut(i) {
                            *c += 1;
                        }
                    });
                }
            }
        }
        Ok(any)
    }

    /// While layer `v`'s dependency graph has a cycle, moves the paths inducing the
    /// cycle's weakest edge to layer `v + 1`.
    fn break_cycles(&mut self, v: usize, search: &mut CycleSearch<'_>) -> Result<(), RoutingError> {
        let r = self.ctx.r;
        loop {
            let g = LayerGraph {
                topo: self.ctx.topo,
                r: r as u32,
                channels: (self.ctx.n * r) as u32,
                counts: self.dep_count,
            };
            let Some(i) = search.next_cycle(&g) else {
                return Ok(());
            };
            if v + 1 >= MAX_LAYERS {
                return Err(RoutingError::LayerSearchExhausted {
                    searched: MAX_LAYERS as u16,
                    limit: self.config.max_layers,
                });
            }
            let Some((c, q)) = self.weakest_edge(search.frames().get(i..).unwrap_or(&[])) else {
                return Ok(());
            };
            let (u, p) = (c / r, (c % r) as PortIndex);
            let Some(w) = peer(self.ctx.topo, u as u32, p) else {
                return Ok(());
            };
            self.move_paths(v, (u, c), (w as usize, q), search)?;
            self.report.cycles_broken += 1;
            search.resume_after_removals();
        }
    }

    /// The weakest edge of a cycle: fewest inducing paths, first in cycle order on ties;
    /// `(channel, slot)`.
    fn weakest_edge(&self, cycle: &[Frame]) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize, u32)> = None;
        for f in cycle {
            let idx = f.vertex as usize * self.ctx.r + f.slot as usize;
            let cnt = self.dep_count.get(idx).copied().unwrap_or(0);
            if best.is_none_or(|(_, _, b)| cnt < b) {
                best = Some((f.vertex as usize, f.slot as usize, cnt));
            }
        }
        best.map(|(c, q, _)| (c, q))
    }

    /// Moves every layer-`v` path that takes channel `c` out of switch `u` into switch `w`
    /// and leaves `w` on port `q` to layer `v + 1`, removing its dependencies from
    /// `dep_count` (and from the search when a count drops to 0).
    fn move_paths(
        &mut self,
        v: usize,
        (u, c): (usize, usize),
        (w, q): (usize, usize),
        search: &mut CycleSearch<'_>,
    ) -> Result<(), RoutingError> {
        let (n, r) = (self.ctx.n, self.ctx.r);
        let (ctx, layer, dep_count) = (&self.ctx, &mut *self.layer, &mut *self.dep_count);
        for &d in self.index.destinations(c) {
            let d = d as usize;
            let t = self.dests.switch(d)?;
            if w == t || ctx.next_port[d * n + w] as usize != q {
                continue;
            }
            // Sources whose route passes u: u's subtree, a contiguous preorder range.
            let row = d * n..(d + 1) * n;
            let (lo, sz) = (self.pos[d * n + u] as usize, self.size[d * n + u] as usize);
            let subtree = self
                .pre
                .get(row)
                .and_then(|r| r.get(lo..lo.saturating_add(sz)))
                .unwrap_or(&[]);
            for &x in subtree {
                let x = x as usize;
                let li = d * n + x;
                if ctx.is_path(x, t) && layer[li] as usize == v {
                    layer[li] = (v + 1) as u8;
                    self.report.paths_moved += 1;
                    ctx.for_each_dep(x, d, t, |i| {
                        if let Some(cnt) = dep_count.get_mut(i) {
                            *cnt = cnt.saturating_sub(1);
                            if *cnt == 0 {
                                search.edge_removed((i / r) as u32, (i % r) as u32);
                            }
                        }
                    });
                }
            }
        }
        Ok(())
    }

    /// Paths per layer.
    fn paths_per_layer(&self) -> Result<[u64; MAX_LAYERS], RoutingError> {
        let n = self.ctx.n;
        let mut per_layer = [0u64; MAX_LAYERS];
        self.for_each_path(|d, _, x| {
            per_layer[self.layer[d * n + x] as usize % MAX_LAYERS] += 1;
        })?;
        Ok(per_layer)
    }

    /// OpenSM balancing: splits the `needed` layers over all configured layers
    /// ([`balance_split`]) and deals each layer's paths round-robin over its shares.
    fn balance(
        &mut self,
        per_layer: &[u64; MAX_LAYERS],
        needed: usize,
    ) -> Result<(), RoutingError> {
        let avail = self.config.max_layers as usize;
        let split = balance_split(&per_layer[..needed], avail);
        let mut base = [0usize; MAX_LAYERS];
        for j in 1..needed {
            base[j] = base[j - 1] + split[j - 1] as usize;
        }
        let n = self.ctx.n;
        let mut counter = [0u64; MAX_LAYERS];
        for d in 0..self.dests.count() {
            let t = self.dests.switch(d)?;
            for x in 0..n {
                if self.ctx.is_path(x, t) {
                    let j = self.layer[d * n + x] as usize % MAX_LAYERS;
                    let s = split[j].max(1) as u64;
                    self.layer[d * n + x] = (base[j] as u64 + counter[j] % s) as u8;
                    counter[j] += 1;
                }
            }
        }
        self.report.layers_used = avail as u8;
        Ok(())
    }
}

/// OpenSM balancing: every spare layer goes, one at a time, to the layer with the most paths
/// per share (first such layer on ties). Returns the number of shares of each layer.
pub(crate) fn balance_split(paths: &[u64], avail: usize) -> [u8; MAX_LAYERS] {
    let mut split = [0u8; MAX_LAYERS];
    let used = paths.len().min(MAX_LAYERS);
    for s in split.iter_mut().take(used) {
        *s = 1;
    }
    for _ in used..avail.min(MAX_LAYERS) {
        let mut best = 0usize;
        for j in 1..used {
            // paths[j] / split[j] > paths[best] / split[best], in integers.
            if paths[j] as u128 * split[best] as u128 > paths[best] as u128 * split[j] as u128 {
                best = j;
            }
        }
        if used > 0 {
            split[best] += 1;
        }
    }
    split
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn balancing_splits_the_heaviest_layer_first() {
        // 3 layers with 100, 40, 10 paths over 8 VLs: 5 spare shares go one by one to the
        // highest paths-per-share: 100/1 -> 100/2 = 50 > 40 -> 100/3 ≈ 33 < 40 -> 40/2 = 20;
        // 33 > 20 -> 100/4 = 25 > 20 -> 100/5.
        let s = balance_split(&[100, 40, 10], 8);
        assert_eq!(&s[..3], &[5, 2, 1]);
        assert_eq!(s.iter().map(|&x| x as usize).sum::<usize>(), 8);
        // Ties go to the first layer.
        let s = balance_split(&[10, 10], 3);
        assert_eq!(&s[..2], &[2, 1]);
        let s = balance_split(&[5], 1);
        assert_eq!(s[0], 1);
    }
}
