extern crate std;
use std::vec;
use std::vec::Vec;

use super::super::compile::{compile_tables, VcMode};
use super::super::distance::DistanceMatrix;
use super::super::image::{decode, encode, max_image_len};
use super::super::minimal::MinimalRouting;
use super::super::table::{RouteEntry, Run, RunTableBuilder};
use super::super::table_routing::TableRouting;
use super::super::table_set::TableSetBuilder;
use super::super::testgraphs::{build, ring_with_chords, torus_edges, Store};
use super::super::walk::walk;
use super::super::{Routing, RoutingError};
use super::{matrix_buf, steps};
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
        let table = super::super::table::RunTable::new(&c.runs[lo..hi], nt).unwrap();
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
            Err(RoutingError::Image(super::super::ImageError::Kind { .. }))
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
                Err(RoutingError::Capacity(..))
            ));
        }
    }
}

#[test]
fn image_bytes_are_the_documented_layout() {
    // Table of 3 destinations: port 2 for 0..2, port 300 on VC 1 for 2.
    let mut runs = [Run {
        first: 0,
        value: RouteEntry::NONE,
    }; 3];
    let mut b = RunTableBuilder::new(&mut runs);
    for e in [(2u16, 0u8), (2, 0), (300, 1)] {
        b.push(RouteEntry { port: e.0, vc: e.1 }).unwrap();
    }
    let t = b.finish();
    let mut img = [0u8; 64];
    let len = encode(5, &t, &mut img).unwrap();
    // magic, version 1, kind 0, switch 5, 3 destinations, 2 runs (varints), then runs
    // (first, port varint, vc), then CRC-32 little-endian.
    let body: &[u8] = &[
        b'J', b'N', b'R', b'T', 1, 0, 5, 3, 2, // header
        0, 2, 0, // run 0: first 0, port 2, vc 0
        2, 0xAC, 0x02, 1, // run 1: first 2, port 300 = 0xAC 0x02, vc 1
    ];
    assert_eq!(&img[..len - 4], body);
    let crc = super::super::crc32::crc32(body);
    assert_eq!(&img[len - 4..len], &crc.to_le_bytes());
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

#[test]
fn layer_table_image_round_trip() {
    let layers = [0u8, 0, 1, 1, 1, 2, 0, 0, 7];
    let mut runs = [Run {
        first: 0,
        value: 0u8,
    }; 9];
    let mut b = RunTableBuilder::new(&mut runs);
    for l in layers {
        b.push(l).unwrap();
    }
    let t = b.finish();
    assert_eq!(t.runs().len(), 5);
    let mut img = vec![0u8; max_image_len(t.runs().len())];
    let len = encode(3, &t, &mut img).unwrap();
    let mut out = [Run {
        first: 0,
        value: 0u8,
    }; 5];
    let dec = decode::<u8>(&img[..len], &mut out).unwrap();
    assert_eq!(dec.switch, 3);
    for (d, &l) in layers.iter().enumerate() {
        assert_eq!(dec.table.lookup(d as u32), Some(l));
    }
    // Too small an image buffer is a capacity error.
    assert!(matches!(
        encode(3, &t, &mut img[..6]),
        Err(RoutingError::Capacity(..))
    ));
}

#[test]
fn random_bytes_never_panic_the_decoder() {
    let mut rng = crate::rng::Rng::new(77);
    let mut out = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        16
    ];
    for _ in 0..20_000 {
        let len = rng.index(48);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if len > 8 && rng.index(2) == 0 {
            // Valid CRC over garbage content: exercises the field checks behind the CRC.
            bytes[..4].copy_from_slice(b"JNRT");
            let crc = super::super::crc32::crc32(&bytes[..len - 4]);
            bytes[len - 4..].copy_from_slice(&crc.to_le_bytes());
        }
        let _ = decode::<RouteEntry>(&bytes, &mut out);
    }
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
