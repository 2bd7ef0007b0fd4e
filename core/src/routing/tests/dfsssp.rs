extern crate std;
use std::collections::{HashMap, HashSet};
use std::vec;
use std::vec::Vec;

use super::steps;
use crate::routing::deadlock::cdg::{Cdg, Deadlock};
use crate::routing::deadlock::channel::ChannelVc;
use crate::routing::deadlock::cycle::Frame;
use crate::routing::dfsssp::{
    dfsssp, DfssspBuffers, DfssspConfig, DfssspReport, DfssspRouting, DfssspSizes,
};
use crate::routing::tables::compile::{compile_tables, VcMode};
use crate::routing::tables::run_table::{RouteEntry, Run};
use crate::routing::tables::table_routing::TableRouting;
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::testgraphs::{bfs, build, ring_with_chords, torus_edges, Store};
use crate::routing::{PacketState, Routing, RoutingError};
use crate::topology::{Port, Topology};

/// Owned DFSSSP buffers.
pub struct Bufs {
    w: Vec<u64>,
    d: Vec<u64>,
    s: Vec<u32>,
    np: Vec<u16>,
    l: Vec<u8>,
    t: Vec<u32>,
    dc: Vec<u32>,
    bc: Vec<u32>,
    cs: Vec<u32>,
    c: Vec<u32>,
    st: Vec<Frame>,
}

impl Bufs {
    pub fn new<T: Topology>(g: &T) -> Bufs {
        let z = DfssspSizes::of(g);
        Bufs {
            w: vec![0; z.weights],
            d: vec![0; z.dist],
            s: vec![0; z.scratch],
            np: vec![0; z.per_path],
            l: vec![0; z.per_path],
            t: vec![0; z.tree],
            dc: vec![0; z.dep_count],
            bc: vec![0; z.by_channel],
            cs: vec![0; z.channel_start],
            c: vec![0; z.channels],
            st: vec![Frame::default(); z.channels],
        }
    }
    pub fn storage(&mut self) -> DfssspBuffers<'_> {
        DfssspBuffers {
            weights: &mut self.w,
            dist: &mut self.d,
            scratch: &mut self.s,
            next_port: &mut self.np,
            layer: &mut self.l,
            tree: &mut self.t,
            dep_count: &mut self.dc,
            by_channel: &mut self.bc,
            channel_start: &mut self.cs,
            color: &mut self.c,
            stack: &mut self.st,
        }
    }
}

/// Independent DFSSSP path computation (O(n²) Dijkstra, same weights and tie rules):
/// returns next port per (destination terminal, switch).
fn reference_ports<T: Topology>(g: &T) -> Vec<Vec<u16>> {
    let n = g.num_switches() as usize;
    let nt = g.num_terminals() as usize;
    let r = g.radix() as usize;
    let p = nt as u64;
    let mut w = vec![p * p; n * r];
    let mut out = Vec::new();
    for d in 0..nt {
        let (t, tp) = g.terminal_port(d as u32).unwrap();
        let t = t as usize;
        let mut dist = vec![u64::MAX; n];
        let mut hops = vec![u32::MAX; n];
        let mut port = vec![u16::MAX; n];
        let mut done = vec![false; n];
        dist[t] = 0;
        hops[t] = 0;
        loop {
            let x = (0..n)
                .filter(|&x| !done[x] && dist[x] != u64::MAX)
                .min_by_key(|&x| (dist[x], hops[x], x));
            let Some(x) = x else { break };
            done[x] = true;
            for q in 0..r as u16 {
                if let Port::Link(l) = g.port(x as u32, q) {
                    let y = l.peer as usize;
                    if done[y] {
                        continue;
                    }
                    let cand = (
                        dist[x] + w[y * r + l.peer_port as usize],
                        hops[x] + 1,
                        l.peer_port,
                    );
                    if cand < (dist[y], hops[y], port[y]) {
                        (dist[y], hops[y], port[y]) = cand;
                    }
                }
            }
        }
        port[t] = tp;
        for e in 0..nt {
            let mut u = g.terminal_switch(e as u32).unwrap() as usize;
            while u != t {
                let pp = port[u];
                w[u * r + pp as usize] += 1;
                u = g.port(u as u32, pp).link().unwrap().peer as usize;
            }
        }
        out.push(port);
    }
    out
}

/// Dependency pairs `((switch, port), (switch, port))` of one layer.
type Deps = HashSet<((u32, u16), (u32, u16))>;

/// Kahn's algorithm: whether the dependency pairs form an acyclic graph.
fn acyclic(deps: &Deps) -> bool {
    let mut indeg: HashMap<(u32, u16), usize> = HashMap::new();
    let mut succ: HashMap<(u32, u16), Vec<(u32, u16)>> = HashMap::new();
    for &(a, b) in deps {
        indeg.entry(a).or_insert(0);
        *indeg.entry(b).or_insert(0) += 1;
        succ.entry(a).or_default().push(b);
    }
    let mut ready: Vec<_> = indeg
        .iter()
        .filter(|(_, &d)| d == 0)
        .map(|(&k, _)| k)
        .collect();
    let mut removed = 0;
    while let Some(v) = ready.pop() {
        removed += 1;
        for &s in succ.get(&v).map(|v| v.as_slice()).unwrap_or(&[]) {
            let e = indeg.get_mut(&s).unwrap();
            *e -= 1;
            if *e == 0 {
                ready.push(s);
            }
        }
    }
    removed == indeg.len()
}

/// Full check of a DFSSSP result: reference routes, minimal, every layer acyclic (with
/// the crate's CDG and with Kahn's algorithm), tables compile to the same routes.
fn check<T: Topology>(g: &T, cfg: DfssspConfig) -> DfssspReport {
    let mut b = Bufs::new(g);
    let (r, rep) = dfsssp(g, &cfg, b.storage()).unwrap();
    let n = g.num_switches();
    assert_eq!(
        r.next_hop(n, &mut PacketState::new(0), 0),
        Err(RoutingError::SwitchOutOfRange {
            switch: n,
            switches: n
        })
    );
    if cfg.base_weight.is_none() {
        check_reference_ports(g, &r);
    }
    check_minimal_acyclic_layers(g, &r, &rep);
    check_compiled_tables(g, &r);
    rep
}

/// Without weights DFSSSP takes the reference ports (lowest-id balanced minimal routes).
fn check_reference_ports<T: Topology>(g: &T, r: &DfssspRouting<'_, T>) {
    let reference = reference_ports(g);
    for d in 0..g.num_terminals() {
        for x in 0..g.num_switches() {
            assert_eq!(
                r.entry(x, d).port,
                reference[d as usize][x as usize],
                "d {d} x {x}"
            );
        }
    }
}

/// Every path is minimal and stays on its layer; every layer's channel dependencies are
/// acyclic (the crate's CDG and Kahn's algorithm agree); the report counts the paths.
fn check_minimal_acyclic_layers<T: Topology>(g: &T, r: &DfssspRouting<'_, T>, rep: &DfssspReport) {
    let nt = g.num_terminals();
    let dist: Vec<Vec<u32>> = (0..g.num_switches()).map(|s| bfs(g, s)).collect();
    let layers = rep.layers_used;
    let mut per_layer_paths = vec![0u64; layers as usize];
    let mut deps: Vec<Deps> = vec![HashSet::new(); layers as usize];
    let mut cdg_bits: Vec<Vec<u64>> = (0..layers)
        .map(|_| vec![0u64; Cdg::words_needed(g, 1) as usize])
        .collect();
    let mut cdgs: Vec<Cdg<'_, T>> = cdg_bits
        .iter_mut()
        .map(|b| Cdg::new(g, 1, b).unwrap())
        .collect();
    let mut seen_pairs = HashSet::new();
    for src in 0..nt {
        for dst in (0..nt).filter(|&d| d != src) {
            let s = g.terminal_switch(src).unwrap();
            let t = g.terminal_switch(dst).unwrap();
            let path = steps(g, r, src, dst);
            assert_eq!(
                path.len() as u32,
                dist[s as usize][t as usize],
                "minimal {src}->{dst}"
            );
            let layer = r.inject(src, dst).unwrap().layer;
            assert!(layer < layers);
            assert!(path.iter().all(|st| st.vc == layer));
            if s != t && seen_pairs.insert((s, dst)) {
                per_layer_paths[layer as usize] += 1;
            }
            let chans: Vec<ChannelVc> = path
                .iter()
                .map(|st| ChannelVc {
                    switch: st.from,
                    port: st.port,
                    vc: 0,
                })
                .collect();
            cdgs[layer as usize].add_path(&chans).unwrap();
            for w in path.windows(2) {
                deps[layer as usize].insert(((w[0].from, w[0].port), (w[1].from, w[1].port)));
            }
        }
    }
    let v = Cdg::vertices_needed(g, 1) as usize;
    for (l, cdg) in cdgs.iter().enumerate() {
        let (mut c, mut s, mut o) = (
            vec![0u32; v],
            vec![Frame::default(); v],
            vec![ChannelVc::default(); v],
        );
        assert_eq!(
            cdg.find_cycle(&mut c, &mut s, &mut o).unwrap(),
            Deadlock::Free,
            "layer {l}"
        );
        assert!(acyclic(&deps[l]), "layer {l} (Kahn)");
    }
    assert_eq!(
        &rep.paths_per_layer[..layers as usize],
        &per_layer_paths[..]
    );
    assert_eq!(per_layer_paths.iter().sum::<u64>(), rep.paths);
}

/// Compiled LFTs + per-path layer tables route exactly like DFSSSP, VCs included.
fn check_compiled_tables<T: Topology>(g: &T, r: &DfssspRouting<'_, T>) {
    let (n, nt) = (g.num_switches(), g.num_terminals());
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (n * nt) as usize
    ];
    let mut offs = vec![0u32; n as usize + 1];
    let mut lruns = vec![
        Run {
            first: 0,
            value: 0u8
        };
        (n * nt) as usize
    ];
    let mut loffs = vec![0u32; n as usize + 1];
    let mut rb = TableSetBuilder::new(n, nt, &mut runs, &mut offs).unwrap();
    let mut lb = TableSetBuilder::new(n, nt, &mut lruns, &mut loffs).unwrap();
    compile_tables(g, r, VcMode::PerPath, &mut rb, Some(&mut lb)).unwrap();
    let tr = TableRouting::new(
        g,
        rb.finish().unwrap(),
        Some(lb.finish().unwrap()),
        r.num_vcs(),
    )
    .unwrap();
    for src in 0..nt {
        for dst in (0..nt).filter(|&d| d != src) {
            assert_eq!(steps(g, &tr, src, dst), steps(g, r, src, dst));
        }
    }
}

#[test]
fn dfsssp_on_random_graphs() {
    for (n, chords, width, tps, seed) in [
        (24u32, 20u32, 5u16, 1u16, 1u64),
        (40, 50, 6, 1, 2),
        (30, 25, 5, 2, 3),
        (64, 120, 8, 1, 4),
    ] {
        let edges = ring_with_chords(n, chords, width, seed);
        let mut st = Store::default();
        let g = build(n, width, tps, &edges, &mut st);
        let rep = check(
            &g,
            DfssspConfig {
                max_layers: 8,
                balance: false,
                base_weight: None,
            },
        );
        assert_eq!(rep.layers_used, rep.layers_needed);
        let rep2 = check(
            &g,
            DfssspConfig {
                max_layers: 8,
                balance: true,
                base_weight: None,
            },
        );
        assert_eq!(rep2.layers_needed, rep.layers_needed);
        assert_eq!(rep2.layers_used, 8);
    }
}

#[test]
fn dfsssp_on_tori_needs_several_layers() {
    for (kx, ky) in [(4u32, 4u32), (5, 5), (6, 3)] {
        let mut st = Store::default();
        let g = build(kx * ky, 4, 1, &torus_edges(kx, ky), &mut st);
        let rep = check(
            &g,
            DfssspConfig {
                max_layers: 8,
                balance: false,
                base_weight: None,
            },
        );
        // Rings of length >= 3 in every dimension: one layer cannot be deadlock-free.
        assert!(rep.layers_needed >= 2, "{kx}x{ky}: {rep:?}");
        assert!(rep.cycles_broken > 0 && rep.paths_moved > 0);
    }
}

#[test]
fn vl_limit_is_enforced_with_a_clear_error() {
    let n = 8u32;
    let edges: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    let mut st = Store::default();
    let g = build(n, 2, 1, &edges, &mut st);
    let mut b = Bufs::new(&g);
    let cfg = DfssspConfig {
        max_layers: 1,
        balance: false,
        base_weight: None,
    };
    let err = dfsssp(&g, &cfg, b.storage()).unwrap_err();
    let RoutingError::TooManyLayers { needed, limit } = err else {
        panic!("{err:?}");
    };
    assert_eq!(limit, 1);
    assert!(needed >= 2);
    assert_eq!(
        std::format!("{err}"),
        std::format!("routing needs {needed} virtual layers, limit is 1")
    );
    // With exactly that many layers it succeeds.
    let rep = check(
        &g,
        DfssspConfig {
            max_layers: needed as u8,
            balance: false,
            base_weight: None,
        },
    );
    assert_eq!(rep.layers_needed as u16, needed);
    // Bad limits and small buffers are errors, not panics.
    let bad = DfssspConfig {
        max_layers: 0,
        ..cfg
    };
    assert!(matches!(
        dfsssp(&g, &bad, b.storage()),
        Err(RoutingError::Invalid(..))
    ));
    let mut b2 = Bufs::new(&g);
    b2.np.truncate(3);
    assert!(matches!(
        dfsssp(&g, &cfg, b2.storage()),
        Err(RoutingError::Capacity(..))
    ));
}

#[test]
fn tree_needs_one_layer() {
    let edges: Vec<(u32, u32)> = (1..20).map(|i| ((i - 1) / 3, i)).collect();
    let mut st = Store::default();
    let g = build(20, 4, 1, &edges, &mut st);
    let rep = check(
        &g,
        DfssspConfig {
            max_layers: 4,
            balance: false,
            base_weight: None,
        },
    );
    assert_eq!(rep.layers_needed, 1);
    assert_eq!(rep.cycles_broken, 0);
}

/// Edges of a 2-D HyperX `s0 × s1` (K = 1) in an order that gives every switch its network
/// ports as docs/topologies.md §8 orders them: dimension 0 values ascending, then dimension 1.
fn hyperx_edges(s0: u32, s1: u32) -> Vec<(u32, u32)> {
    let id = |x: u32, y: u32| y * s0 + x;
    let mut e = Vec::new();
    for y in 0..s1 {
        for a in 0..s0 {
            for b in a + 1..s0 {
                e.push((id(a, y), id(b, y)));
            }
        }
    }
    for x in 0..s0 {
        for a in 0..s1 {
            for b in a + 1..s1 {
                e.push((id(x, a), id(x, b)));
            }
        }
    }
    e
}

#[test]
fn hyperx_12x8_like_hx_paper() {
    // [HX] system: 12×8 HyperX, 7 nodes per switch; OpenSM's DFSSSP needed 3 VLs there
    // (docs/reference-results.md §D; OpenSM also routes switch LIDs and the real fabric
    // missed 15 cables, so only the bound is compared).
    let mut st = Store::default();
    let g = build(96, 18, 7, &hyperx_edges(12, 8), &mut st);
    let rep = check(
        &g,
        DfssspConfig {
            max_layers: 8,
            balance: false,
            base_weight: None,
        },
    );
    assert_eq!(rep.paths, 96 * 95 * 7);
    assert!(rep.layers_needed <= 3, "{rep:?}");
}
