//! PARX (docs/routing.md §7) on the [HX] 12×8 HyperX with 7 terminals per switch: Table 1
//! against the closed-form rule, minimal small-message routes, detouring large-message
//! routes, link removal, delivery for every LID, deadlock-free layers and the VL limit; and
//! the demand-weighted path computation against an independent implementation.

extern crate std;
use crate::error::InvalidParam;
use std::boxed::Box;
use std::collections::VecDeque;
use std::sync::OnceLock;
use std::vec;
use std::vec::Vec;

use super::deps::{add_steps, cdg_cycle, has_cycle, steps_from, Deps};
use super::steps;
use crate::rng::Rng;
use crate::routing::deadlock::cycle::Frame;
use crate::routing::dfsssp::{DfssspBuffers, DfssspConfig, DfssspReport, DfssspSizes};
use crate::routing::parx::{
    closed_form_choices, normalise_demand, parx, select_lid, sort_demands, table_choices, Demand,
    Half, LidPolicy, Message, ParxRouting, Quadrant, LARGE_MESSAGE_BYTES, LIDS,
};
use crate::routing::paths::walk::check_all;
use crate::routing::{Routing, RoutingError};
use crate::topology::{HyperX, Port, Topology};

/// Owned PARX buffers.
struct Bufs {
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
    fn new(z: &DfssspSizes) -> Bufs {
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
    fn storage(&mut self) -> DfssspBuffers<'_> {
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

fn config(max_layers: u8) -> DfssspConfig {
    DfssspConfig {
        max_layers,
        balance: false,
        base_weight: None,
    }
}

/// PARX on the [HX] system (12×8, K = 1, T = 7) without demands, computed once.
struct Hx {
    routing: ParxRouting<'static>,
    report: DfssspReport,
}

fn hx12x8() -> &'static Hx {
    static CELL: OnceLock<Hx> = OnceLock::new();
    CELL.get_or_init(|| {
        let hx: &'static HyperX = Box::leak(Box::new(HyperX::new(&[12, 8], 1, 7).unwrap()));
        let bufs: &'static mut Bufs = Box::leak(Box::new(Bufs::new(&DfssspSizes::of_parx(hx))));
        let (routing, report) = parx(hx, &config(16), &[], bufs.storage()).unwrap();
        std::eprintln!("PARX 12x8: {report:?}");
        Hx { routing, report }
    })
}

/// Coordinates `(x, y)` of a switch of the 12×8 HyperX.
fn xy(s: u32) -> (u32, u32) {
    (s % 12, s / 12)
}

/// Quadrant by the spec's labels, from coordinates.
fn quadrant(s: u32) -> Quadrant {
    let (x, y) = xy(s);
    match (x < 6, y < 4) {
        (true, true) => Quadrant::Q0,
        (true, false) => Quadrant::Q1,
        (false, false) => Quadrant::Q2,
        (false, true) => Quadrant::Q3,
    }
}

/// Whether switch `s` lies in the half LID `lid` removes (R1 left, R2 right, R3 top,
/// R4 bottom).
fn in_removed_half(lid: u8, s: u32) -> bool {
    let (x, y) = xy(s);
    match lid {
        0 => x < 6,
        1 => x >= 6,
        2 => y < 4,
        _ => y >= 4,
    }
}

/// HyperX distance: number of differing coordinates.
fn dist(a: u32, b: u32) -> u32 {
    let ((xa, ya), (xb, yb)) = (xy(a), xy(b));
    (xa != xb) as u32 + (ya != yb) as u32
}

/// BFS distances to `t` in the 12×8 HyperX without the links LID `lid` removes.
fn reduced_bfs(hx: &HyperX, lid: u8, t: u32) -> Vec<u32> {
    let mut d = vec![u32::MAX; 96];
    let mut q = VecDeque::from([t]);
    d[t as usize] = 0;
    while let Some(u) = q.pop_front() {
        for p in 0..hx.radix() {
            if let Port::Link(l) = hx.port(u, p) {
                let v = l.peer;
                if in_removed_half(lid, u) && in_removed_half(lid, v) {
                    continue;
                }
                if d[v as usize] == u32::MAX {
                    d[v as usize] = d[u as usize] + 1;
                    q.push_back(v);
                }
            }
        }
    }
    d
}

#[test]
fn table_1_equals_the_closed_form_rule() {
    for s in Quadrant::ALL {
        for d in Quadrant::ALL {
            for large in [false, true] {
                let t = table_choices(s, d, large);
                assert_eq!(t, closed_form_choices(s, d, large), "{s:?}->{d:?} {large}");
                // The rule's meaning: small LIDs remove a half holding neither quadrant,
                // large LIDs one holding both (diagonal pairs: the source's halves).
                for &lid in t.as_slice() {
                    let h = Half::of_lid(lid).unwrap();
                    if s.is_diagonal_to(d) {
                        assert!(h.contains(s));
                    } else if large {
                        assert!(h.contains(s) && h.contains(d));
                    } else {
                        assert!(!h.contains(s) && !h.contains(d));
                    }
                }
            }
        }
    }
    // Spot checks against the printed tables.
    assert_eq!(
        table_choices(Quadrant::Q0, Quadrant::Q0, false).as_slice(),
        [1, 3]
    );
    assert_eq!(
        table_choices(Quadrant::Q1, Quadrant::Q3, false).as_slice(),
        [0, 3]
    );
    assert_eq!(
        table_choices(Quadrant::Q3, Quadrant::Q1, true).as_slice(),
        [1, 2]
    );
    assert_eq!(
        table_choices(Quadrant::Q2, Quadrant::Q1, true).as_slice(),
        [3]
    );
}

#[test]
fn quadrants_of_the_hx_system() {
    let h = hx12x8();
    let geo = h.routing.quadrants();
    let mut count = [0u32; 4];
    for s in 0..96 {
        let q = geo.quadrant(s).unwrap();
        assert_eq!(q, quadrant(s), "switch {s}");
        count[q.index()] += 1;
        for lid in 0..LIDS {
            assert_eq!(
                geo.in_half(Half::of_lid(lid).unwrap(), s),
                in_removed_half(lid, s)
            );
        }
    }
    assert_eq!(count, [24; 4]);
    assert_eq!(geo.quadrant(0).unwrap(), Quadrant::Q0);
    assert_eq!(geo.quadrant(95).unwrap(), Quadrant::Q2);
    assert!(geo.quadrant(96).is_err());
}

#[test]
fn every_lid_delivers_without_loops_on_shortest_reduced_paths() {
    let h = hx12x8();
    let hx = h.routing.topology();
    let nt = hx.num_terminals();
    for lid in 0..LIDS {
        let r = h.routing.with_policy(LidPolicy::Fixed(lid));
        let rep = check_all(hx, &r, None, false, 192).unwrap();
        assert_eq!(rep.pairs, 672 * 671);
        for dst in 0..nt {
            let t = hx.terminal_switch(dst).unwrap();
            let want = reduced_bfs(hx, lid, t);
            for s in 0..96 {
                let path = steps(hx, &r, s * 7, dst);
                assert_eq!(path.len() as u32, want[s as usize], "lid {lid} {s}->{dst}");
                for st in &path {
                    assert!(
                        !(in_removed_half(lid, st.from) && in_removed_half(lid, st.to)),
                        "lid {lid} {s}->{dst} uses removed link {}->{}",
                        st.from,
                        st.to
                    );
                    assert_eq!(st.vc, r.layer(s, dst, lid).unwrap());
                }
            }
        }
    }
}

#[test]
fn small_messages_are_minimal_and_large_ones_detour() {
    let h = hx12x8();
    let hx = h.routing.topology();
    let nt = hx.num_terminals();
    let (mut detours, mut diagonal) = (0u64, 0u64);
    for src in 0..nt {
        let s = hx.terminal_switch(src).unwrap();
        for dst in (0..nt).filter(|&d| d != src) {
            let t = hx.terminal_switch(dst).unwrap();
            let (qs, qd) = (quadrant(s), quadrant(t));
            let d = dist(s, t);
            for &lid in table_choices(qs, qd, false).as_slice() {
                let st = h.routing.inject_lid(src, dst, lid).unwrap();
                let len = steps_from(hx, &h.routing, st, dst).len() as u32;
                assert_eq!(len, d, "small {src}->{dst} lid {lid}");
            }
            for &lid in table_choices(qs, qd, true).as_slice() {
                let st = h.routing.inject_lid(src, dst, lid).unwrap();
                let len = steps_from(hx, &h.routing, st, dst).len() as u32;
                if s == t {
                    assert_eq!(len, 0);
                } else if qs.is_diagonal_to(qd) {
                    assert_eq!(len, d, "large diagonal {src}->{dst} lid {lid}");
                    diagonal += 1;
                } else {
                    assert!(
                        len > d,
                        "large {src}->{dst} lid {lid}: {len} hops, distance {d}"
                    );
                    detours += 1;
                }
            }
        }
    }
    assert!(detours > 0 && diagonal > 0);
}

#[test]
fn message_size_selects_the_table_and_the_hash_picks_among_two() {
    let h = hx12x8();
    let hx = h.routing.topology();
    let r = h.routing.with_seed(99);
    // Terminal 0 is in Q0 (switch 0); terminal 7 is on switch 1, also Q0: small 1|3,
    // large 0|2. Terminal 12·7·4 = 336 is on switch (0, 4) in Q1: small 1, large 0.
    for bytes in [0u64, 1, 511] {
        let mut seen = [false; 4];
        for msg in 0..64 {
            let lid = r.select_lid(0, 7, bytes, msg).unwrap();
            assert!(lid == 1 || lid == 3, "{bytes}: {lid}");
            seen[lid as usize] = true;
            assert_eq!(r.select_lid(0, 336, bytes, msg).unwrap(), 1);
            assert_eq!(r.inject_message(0, 7, bytes, msg).unwrap().lid, lid);
        }
        assert!(seen[1] && seen[3]);
    }
    for bytes in [LARGE_MESSAGE_BYTES, 1 << 20] {
        for msg in 0..64 {
            let lid = r.select_lid(0, 7, bytes, msg).unwrap();
            assert!(lid == 0 || lid == 2);
            assert_eq!(r.select_lid(0, 336, bytes, msg).unwrap(), 0);
        }
    }
    // Deterministic: a function of (seed, src, dst, message id) only.
    for msg in 0..20 {
        assert_eq!(
            r.select_lid(3, 600, 100, msg).unwrap(),
            select_lid(
                Quadrant::Q0,
                quadrant(600 / 7),
                &Message {
                    src: 3,
                    dst: 600,
                    bytes: 100,
                    id: msg
                },
                99
            )
        );
    }
    // `inject` follows the policy.
    let st = r.inject(0, 7).unwrap();
    assert!(st.lid == 1 || st.lid == 3);
    let st = r.with_policy(LidPolicy::Large).inject(0, 7).unwrap();
    assert!(st.lid == 0 || st.lid == 2);
    assert_eq!(st.layer, r.layer(0, 7, st.lid).unwrap());
    assert!(matches!(
        r.inject_lid(0, 7, 4),
        Err(RoutingError::Invalid(InvalidParam { param: "lid", .. }))
    ));
    assert!(matches!(
        r.inject(0, hx.num_terminals()),
        Err(RoutingError::TerminalOutOfRange { .. })
    ));
}

#[test]
fn layers_are_deadlock_free_and_the_vl_limit_is_enforced() {
    let h = hx12x8();
    let hx = h.routing.topology();
    let rep = h.report;
    std::eprintln!(
        "PARX 12x8 HyperX: {} paths, {} layers needed, per layer {:?}",
        rep.paths,
        rep.layers_needed,
        &rep.paths_per_layer[..rep.layers_used as usize]
    );
    assert_eq!(rep.paths, 96 * 95 * 7 * 4);
    // [HX]: PARX fits the 8 VLs of its InfiniBand hardware (5–8 depending on the profile).
    assert!((2..=8).contains(&rep.layers_needed), "{rep:?}");
    assert_eq!(rep.paths_per_layer.iter().sum::<u64>(), rep.paths);
    assert_eq!(h.routing.num_vcs(), rep.layers_needed);
    let layers = rep.layers_needed as usize;
    let mut per_layer: Vec<Deps> = vec![Deps::new(); layers];
    let mut all = Deps::new();
    for s in 0..96u32 {
        for dst in 0..hx.num_terminals() {
            for lid in 0..LIDS {
                let st = h.routing.inject_lid(s * 7, dst, lid).unwrap();
                let path = steps_from(hx, &h.routing, st, dst);
                add_steps(&mut per_layer[st.layer as usize], &path);
                add_steps(&mut all, &path);
            }
        }
    }
    for (l, deps) in per_layer.iter().enumerate() {
        assert!(!has_cycle(deps), "layer {l} (Kahn)");
    }
    assert_eq!(cdg_cycle(hx, rep.layers_needed, &all), None);
    // All paths on one layer would deadlock.
    let flat: Deps = all
        .iter()
        .map(|&(a, b)| ((a.0, a.1, 0), (b.0, b.1, 0)))
        .collect();
    assert!(has_cycle(&flat));

    // One layer fewer than needed: a clear error naming the count.
    let mut b = Bufs::new(&DfssspSizes::of_parx(hx));
    let limit = rep.layers_needed - 1;
    let err = parx(hx, &config(limit), &[], b.storage()).unwrap_err();
    assert_eq!(
        err,
        RoutingError::TooManyLayers {
            needed: rep.layers_needed as u16,
            limit
        }
    );
    assert_eq!(
        std::format!("{err}"),
        std::format!(
            "routing needs {} virtual layers, limit is {limit}",
            rep.layers_needed
        )
    );
}

#[test]
fn geometry_and_input_errors() {
    let z = |hx: &HyperX| Bufs::new(&DfssspSizes::of_parx(hx));
    let odd = HyperX::new(&[5, 4], 1, 1).unwrap();
    let err = parx(&odd, &config(8), &[], z(&odd).storage()).unwrap_err();
    assert!(matches!(
        err,
        RoutingError::Invalid(InvalidParam {
            param: "HyperX size S_0",
            value: 5,
            ..
        })
    ));
    assert_eq!(
        std::format!("{err}"),
        "PARX needs even HyperX sizes (quadrants split each dimension at the middle), got HyperX size S_0 = 5"
    );
    let cube = HyperX::new(&[2, 2, 2], 1, 1).unwrap();
    assert!(matches!(
        parx(&cube, &config(8), &[], z(&cube).storage()),
        Err(RoutingError::Invalid(InvalidParam {
            param: "HyperX dimensions",
            value: 3,
            ..
        }))
    ));
    let hx = HyperX::new(&[4, 2], 1, 2).unwrap();
    let unsorted = [
        Demand {
            src: 0,
            dst: 5,
            weight: 1,
        },
        Demand {
            src: 1,
            dst: 2,
            weight: 1,
        },
    ];
    assert!(matches!(
        parx(&hx, &config(8), &unsorted, z(&hx).storage()),
        Err(RoutingError::Invalid(InvalidParam {
            param: "demand index",
            value: 1,
            ..
        }))
    ));
    let far = [Demand {
        src: 0,
        dst: 16,
        weight: 1,
    }];
    assert!(matches!(
        parx(&hx, &config(8), &far, z(&hx).storage()),
        Err(RoutingError::TerminalOutOfRange { terminal: 16, .. })
    ));
    assert!(matches!(
        parx(&hx, &config(0), &[], z(&hx).storage()),
        Err(RoutingError::Invalid(InvalidParam {
            param: "max_layers",
            ..
        }))
    ));
    let mut small = z(&hx);
    small.np.truncate(10);
    assert!(matches!(
        parx(&hx, &config(8), &[], small.storage()),
        Err(RoutingError::Capacity(..))
    ));
}

#[test]
fn demand_normalisation() {
    assert_eq!(normalise_demand(0, 1000), 0);
    assert_eq!(normalise_demand(1000, 1000), 255);
    assert_eq!(normalise_demand(1, 1000), 1);
    assert_eq!(normalise_demand(500, 1000), 128); // ceil(127.5)
    assert_eq!(normalise_demand(400, 1000), 102); // 102 exactly
    assert_eq!(normalise_demand(2000, 1000), 255);
    assert_eq!(normalise_demand(5, 0), 0);
    assert_eq!(normalise_demand(u64::MAX, u64::MAX), 255);
    let mut d = [
        Demand {
            src: 3,
            dst: 1,
            weight: 9,
        },
        Demand {
            src: 0,
            dst: 2,
            weight: 8,
        },
        Demand {
            src: 1,
            dst: 1,
            weight: 7,
        },
    ];
    sort_demands(&mut d);
    let keys: Vec<(u32, u32)> = d.iter().map(|x| (x.dst, x.src)).collect();
    assert_eq!(keys, [(1, 1), (1, 3), (2, 0)]);
}

/// Independent PARX path computation (O(n²) Dijkstra per (destination, LID) on the reduced
/// graph, ties (weight, hops, port), Algorithm 1's order and weight updates): next port per
/// (destination · 4 + LID, switch).
fn reference_parx(hx: &HyperX, demands: &[Demand]) -> Vec<Vec<u16>> {
    let (s0, s1) = (hx.sizes()[0], hx.sizes()[1]);
    let removed = |lid: u8, u: u32, v: u32| {
        let inside = |s: u32| {
            let (x, y) = (s % s0, s / s0);
            match lid {
                0 => x < s0 / 2,
                1 => x >= s0 / 2,
                2 => y < s1 / 2,
                _ => y >= s1 / 2,
            }
        };
        inside(u) && inside(v)
    };
    let n = hx.num_switches() as usize;
    let nt = hx.num_terminals();
    let r = hx.radix() as usize;
    let p = nt as u64;
    let mut w = vec![p * p; n * r];
    let mut out = vec![Vec::new(); nt as usize * 4];
    let listed = |d: u32| demands.iter().any(|x| x.dst == d);
    let order: Vec<u32> = (0..nt)
        .filter(|&d| listed(d))
        .chain((0..nt).filter(|&d| !listed(d)))
        .collect();
    for d in order {
        let (t, tp) = hx.terminal_port(d).unwrap();
        let t = t as usize;
        for lid in 0..4u8 {
            let mut dist = vec![u64::MAX; n];
            let mut hops = vec![u32::MAX; n];
            let mut port = vec![u16::MAX; n];
            let mut done = vec![false; n];
            dist[t] = 0;
            hops[t] = 0;
            while let Some(y) = (0..n)
                .filter(|&x| !done[x] && dist[x] != u64::MAX)
                .min_by_key(|&x| (dist[x], hops[x], x))
            {
                done[y] = true;
                for q in 0..r as u16 {
                    if let Port::Link(l) = hx.port(y as u32, q) {
                        let x = l.peer as usize;
                        if done[x] || removed(lid, x as u32, y as u32) {
                            continue;
                        }
                        let cand = (
                            dist[y] + w[x * r + l.peer_port as usize],
                            hops[y] + 1,
                            l.peer_port,
                        );
                        if cand < (dist[x], hops[x], port[x]) {
                            (dist[x], hops[x], port[x]) = cand;
                        }
                    }
                }
            }
            port[t] = tp;
            for e in 0..nt {
                let amount = if listed(d) {
                    demands
                        .iter()
                        .find(|x| x.dst == d && x.src == e)
                        .map_or(0, |x| x.weight as u64)
                } else {
                    1
                };
                let mut u = hx.terminal_switch(e).unwrap() as usize;
                while u != t {
                    let pp = port[u];
                    w[u * r + pp as usize] += amount;
                    u = hx.port(u as u32, pp).link().unwrap().peer as usize;
                }
            }
            out[d as usize * 4 + lid as usize] = port;
        }
    }
    out
}

#[test]
fn demand_weighted_paths_match_an_independent_implementation() {
    for (sizes, tps, seed) in [([4u32, 4u32], 2u16, 1u64), ([6, 4], 1, 2), ([4, 2], 3, 3)] {
        let hx = HyperX::new(&sizes, 1, tps).unwrap();
        let nt = hx.num_terminals();
        // A sparse random pattern with normalised byte counts.
        let mut rng = Rng::new(seed);
        let mut raw: Vec<(u32, u32, u64)> = Vec::new();
        for _ in 0..nt * 2 {
            let (a, b) = (rng.below(nt as u64) as u32, rng.below(nt as u64) as u32);
            if a != b && !raw.iter().any(|&(x, y, _)| (x, y) == (a, b)) {
                raw.push((a, b, 1 + rng.below(1 << 20)));
            }
        }
        let max = raw.iter().map(|x| x.2).max().unwrap();
        let mut demands: Vec<Demand> = raw
            .iter()
            .map(|&(src, dst, b)| Demand {
                src,
                dst,
                weight: normalise_demand(b, max),
            })
            .collect();
        sort_demands(&mut demands);
        for dem in [&demands[..], &[][..]] {
            let mut b = Bufs::new(&DfssspSizes::of_parx(&hx));
            let (r, rep) = parx(&hx, &config(16), dem, b.storage()).unwrap();
            let want = reference_parx(&hx, dem);
            for d in 0..nt {
                for lid in 0..LIDS {
                    for x in 0..hx.num_switches() {
                        assert_eq!(
                            r.entry(x, d, lid).port,
                            want[d as usize * 4 + lid as usize][x as usize],
                            "{sizes:?} d {d} lid {lid} x {x}"
                        );
                    }
                }
            }
            // Every path's layer is acyclic (checked on all LIDs together).
            let mut all = Deps::new();
            for src in 0..nt {
                for dst in 0..nt {
                    for lid in 0..LIDS {
                        if src != dst {
                            let st = r.inject_lid(src, dst, lid).unwrap();
                            add_steps(&mut all, &steps_from(&hx, &r, st, dst));
                        }
                    }
                }
            }
            assert_eq!(cdg_cycle(&hx, rep.layers_used, &all), None);
        }
    }
}
