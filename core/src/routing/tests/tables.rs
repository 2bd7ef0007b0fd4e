extern crate std;
use std::vec;
use std::vec::Vec;

use super::{matrix_buf, steps};
use crate::image::route_table::{decode, encode, max_image_len};
use crate::image::{ImageError, ImageKind};
use crate::routing::minimal::distance::DistanceMatrix;
use crate::routing::minimal::MinimalRouting;
use crate::routing::paths::walk::walk;
use crate::routing::tables::compile::{compile_tables, VcMode};
use crate::routing::tables::run_table::{RouteEntry, Run};
use crate::routing::tables::table_routing::TableRouting;
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::testgraphs::{build, ring_with_chords, torus_edges, Store};
use crate::routing::{Routing, RoutingError};
use crate::topology::Topology;

struct Compiled {
    runs: Vec<Run<RouteEntry>>,
    offs: Vec<u32>,
}

fn compile_minimal<T: Topology>(g: &T, c: &mut Compiled) -> usize {
    let n = g.num_switches();
    let nt = g.num_terminals();
    let mut buf = matrix_buf(g);
    let mut q = vec![0u32; n as usize];
    let dm = DistanceMatrix::compute(g, &mut buf, &mut q).unwrap();
    let r = MinimalRouting::new(g, dm).unwrap();
    c.runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (n * nt) as usize
    ];
    c.offs = vec![0u32; n as usize + 1];
    let mut b = TableSetBuilder::new(n, nt, &mut c.runs, &mut c.offs).unwrap();
    compile_tables(g, &r, VcMode::InTable, &mut b, None).unwrap();
    let set = b.finish().unwrap();
    let total = set.total_runs();
    // Compiled routes equal the algorithm's routes for every pair.
    let tr = TableRouting::new(g, set, None, 1).unwrap();
    for s in 0..nt {
        for d in 0..nt {
            if s != d {
                assert_eq!(steps(g, &tr, s, d), steps(g, &r, s, d), "{s}->{d}");
            }
        }
    }
    total
}

#[test]
fn compiled_tables_route_like_the_algorithm_and_compress() {
    for (n, chords, tps, seed) in [(30u32, 30u32, 1u16, 1u64), (24, 20, 3, 2)] {
        let edges = ring_with_chords(n, chords, 6, seed);
        let mut st = Store::default();
        let g = build(n, 6, tps, &edges, &mut st);
        let mut c = Compiled {
            runs: Vec::new(),
            offs: Vec::new(),
        };
        let total = compile_minimal(&g, &mut c);
        let entries = (n * g.num_terminals()) as usize;
        assert!(total <= entries);
        // Terminals of one switch share runs when tps > 1: strictly fewer runs than entries.
        if tps > 1 {
            assert!(total < entries);
        }
    }
    let mut st = Store::default();
    let g = build(16, 4, 1, &torus_edges(4, 4), &mut st);
    let mut c = Compiled {
        runs: Vec::new(),
        offs: Vec::new(),
    };
    compile_minimal(&g, &mut c);
}

#[test]
fn image_round_trip_and_corruption_never_panics() {
    let edges = ring_with_chords(20, 15, 5, 9);
    let mut st = Store::default();
    let g = build(20, 5, 2, &edges, &mut st);
    let n = g.num_switches();
    let nt = g.num_terminals();
    let mut c = Compiled {
        runs: Vec::new(),
        offs: Vec::new(),
    };
    compile_minimal(&g, &mut c);
    for s in 0..n {
        let lo = c.offs[s as usize] as usize;
        let hi = c.offs[s as usize + 1] as usize;
        let table = crate::routing::tables::run_table::RunTable::new(&c.runs[lo..hi], nt).unwrap();
        let mut img = vec![0u8; max_image_len(table.runs().len())];
        let len = encode(s, &table, &mut img).unwrap();
        let img = &img[..len];
        // Deterministic bytes: encoding twice gives the same image.
        let mut again = vec![0u8; len];
        assert_eq!(encode(s, &table, &mut again).unwrap(), len);
        assert_eq!(again, img);
        let mut out = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            table.runs().len()
        ];
        let dec = decode::<RouteEntry>(img, &mut out).unwrap();
        assert_eq!(dec.switch, s);
        assert_eq!(dec.table.runs(), table.runs());
        assert_eq!(dec.table.len(), nt);
        // Every single-byte corruption and every truncation is rejected.
        let mut scratch = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            64
        ];
        for i in 0..len {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = img.to_vec();
                bad[i] ^= flip;
                assert!(
                    decode::<RouteEntry>(&bad, &mut scratch).is_err(),
                    "byte {i}"
                );
            }
        }
        for cut in 0..len {
            assert!(
                decode::<RouteEntry>(&img[..cut], &mut scratch).is_err(),
                "cut {cut}"
            );
        }
        // A layer table is not a route table.
        assert!(matches!(
            decode::<u8>(
                img,
                &mut [Run {
                    first: 0,
                    value: 0u8
                }; 64]
            ),
            Err(ImageError::WrongKind {
                found: ImageKind::RouteTable,
                expected: ImageKind::VirtualLayers
            })
        ));
        // Too small an output buffer is a capacity error, not a panic.
        if table.runs().len() > 1 {
            let mut small = vec![
                Run {
                    first: 0,
                    value: RouteEntry::NONE
                };
                1
            ];
            assert!(matches!(
                decode::<RouteEntry>(img, &mut small),
                Err(ImageError::BufferTooSmall { .. })
            ));
        }
    }
}

#[test]
fn missing_entry_is_a_clear_error() {
    let mut st = Store::default();
    let g = build(3, 2, 1, &[(0, 1), (1, 2)], &mut st);
    // Switch 0 knows terminals 0 and 1 only; 2 is missing.
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        9
    ];
    let mut offs = vec![0u32; 4];
    let mut b = TableSetBuilder::new(3, 3, &mut runs, &mut offs).unwrap();
    let e = |p| RouteEntry { port: p, vc: 0 };
    // Ports: switch 0: 0 -> 1, terminal port 2. Switch 1: 0 -> 0, 1 -> 2, terminal 2.
    // Switch 2: 0 -> 1, terminal 2.
    for v in [
        e(2),
        e(0),
        RouteEntry::NONE,
        e(0),
        e(2),
        e(1),
        e(0),
        e(0),
        e(2),
    ] {
        b.push(v).unwrap();
    }
    let set = b.finish().unwrap();
    let tr = TableRouting::new(&g, set, None, 1).unwrap();
    let err = walk(&g, &tr, 0, 2, 10, |_| {}).unwrap_err();
    assert_eq!(
        err,
        RoutingError::NoRoute {
            switch: 0,
            terminal: 2
        }
    );
    assert_eq!(
        std::format!("{err}"),
        "switch 0 has no route to terminal 2 (table entry missing)"
    );
    assert_eq!(walk(&g, &tr, 2, 0, 10, |_| {}).unwrap(), 2);
    assert_eq!(tr.num_vcs(), 1);
}

/// Table routing over a 3-switch line (ports: width 3, 2 terminals per switch) built from
/// explicit per-switch entries `rows[s][d] = port`.
fn line_routing_check(rows: [[u16; 6]; 3], vcs: u8, src: u32, dst: u32) -> RoutingError {
    let mut st = Store::default();
    // Switch 0: port 0 -> 1. Switch 1: port 0 -> 0, port 1 -> 2. Switch 2: port 0 -> 1.
    // Port 2 is unconnected everywhere; terminal ports are 3 and 4.
    let g = build(3, 3, 2, &[(0, 1), (1, 2)], &mut st);
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        18
    ];
    let mut offs = vec![0u32; 4];
    let mut b = TableSetBuilder::new(3, 6, &mut runs, &mut offs).unwrap();
    for row in rows {
        for port in row {
            b.push(RouteEntry { port, vc: 1 }).unwrap();
        }
    }
    let tr = TableRouting::new(&g, b.finish().unwrap(), None, vcs).unwrap();
    walk(&g, &tr, src, dst, 8, |_| {}).unwrap_err()
}

#[test]
fn broken_tables_are_reported_not_followed() {
    // Correct rows: switch 0 ejects terminals 0, 1 on ports 3, 4, else port 0; etc.
    let good = [[3, 4, 0, 0, 0, 0], [0, 0, 3, 4, 1, 1], [0, 0, 0, 0, 3, 4]];
    // Loop: switch 1 sends terminal 5 back to switch 0.
    let mut rows = good;
    rows[1][5] = 0;
    assert_eq!(
        line_routing_check(rows, 2, 0, 5),
        RoutingError::HopLimit {
            src: 0,
            dst: 5,
            limit: 8
        }
    );
    // Wrong eject: switch 2 hands terminal 5 to terminal 4's port.
    let mut rows = good;
    rows[2][5] = 3;
    assert_eq!(
        line_routing_check(rows, 2, 0, 5),
        RoutingError::WrongEject {
            switch: 2,
            port: 3,
            terminal: 5
        }
    );
    // Unconnected port.
    let mut rows = good;
    rows[0][5] = 2;
    assert_eq!(
        line_routing_check(rows, 2, 0, 5),
        RoutingError::NotALink { switch: 0, port: 2 }
    );
    // VC 1 with a single-VC routing.
    let err = line_routing_check(good, 1, 0, 5);
    assert_eq!(
        err,
        RoutingError::VcOutOfRange {
            switch: 0,
            port: 0,
            vc: 1,
            num_vcs: 1
        }
    );
    assert_eq!(
        std::format!("{err}"),
        "switch 0 port 0 uses VC 1, but the routing has only 1 VCs"
    );
}
