//! Core code never panics on input: the entry points that take bytes or tables from outside
//! (program and routing-table images, wire frames, CSR and port-table parts, edge lists) are
//! fed random
//! and corrupted data. Every call must return `Ok` or `Err`; whatever decodes is then used
//! (executed, looked up, searched) and must not panic either. Corrupted images get a valid
//! CRC (and, when resized, a matching payload length) so that the parsers behind the
//! framing checks are exercised too.

use crate::collective::{Blocks, Dep, Op, RecursiveDoubling, Schedule};
use crate::exec::{Action, Executor, OpStatus};
use crate::image::crc32::crc32;
use crate::image::device as device_image;
use crate::image::frame::{CRC_LEN, HEADER_LEN};
use crate::image::{program as program_image, route_table as image};
use crate::metrics::{bfs, bit_bfs, Csr, DistanceOutputs};
use crate::routing::tables::compile::{switch_table, VcMode};
use crate::routing::{RouteEntry, Run, RunTableBuilder, TableSet, TorusDor, TorusVcs};
use crate::topology::stored::from_edges;
use crate::topology::{Family, LinkClass, Port, Slot, StoredGraph, Topology, Torus};
use proptest::prelude::*;
use std::vec;
use std::vec::Vec;

/// Replaces bytes of `content` (an image without its CRC) at `edits` (position modulo the
/// length, new value), resizes it to `len` bytes, and appends a valid CRC-32. A resized
/// image gets the payload length field of its new size, so it reaches the payload parser.
fn corrupt(content: &[u8], edits: &[(usize, u8)], len: usize) -> Vec<u8> {
    let mut c = content.to_vec();
    if !c.is_empty() {
        let n = c.len();
        for &(i, v) in edits {
            c[i % n] = v;
        }
    }
    let resized = len != c.len();
    c.resize(len, 0xA5);
    if resized && len >= HEADER_LEN {
        let payload = (len - HEADER_LEN) as u32;
        c[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&payload.to_le_bytes());
    }
    let crc = crc32(&c);
    c.extend_from_slice(&crc.to_le_bytes());
    c
}

/// Runs an executor over `ops` with arbitrary arrivals; it may fail, never panic.
fn execute(ops: &[Op], arrivals: &[(u32, u32)]) {
    let mut status = vec![OpStatus::Pending; ops.len()];
    let Ok(mut exec) = Executor::new(ops, &mut status) else {
        return;
    };
    for (t, &(peer, block)) in arrivals.iter().enumerate() {
        let _ = exec.on_receive(peer, Blocks::Single(block));
        match exec.poll(t as u64) {
            Ok(Action::Done) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

/// Rank 3's program in a 37-rank recursive-doubling allreduce.
fn rank3_program() -> Vec<Op> {
    let rd = RecursiveDoubling::new(37, 64).unwrap();
    let blank = Op::Send {
        peer: 0,
        blocks: Blocks::All,
        after: Dep::None,
    };
    let mut ops = vec![blank; rd.program_len(3)];
    let len = rd.program(3, &mut ops).unwrap();
    ops.truncate(len);
    ops
}

/// Switch 5's DOR table on a 6×4 torus with 2 terminals per switch, in `runs`.
fn switch5_table(runs: &mut Vec<Run<RouteEntry>>) -> crate::routing::RunTable<'_, RouteEntry> {
    let torus = Torus::torus(&[6, 4], 2).unwrap();
    let dor = TorusDor::new(&torus, TorusVcs::Single).unwrap();
    *runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        torus.num_terminals() as usize
    ];
    let mut b = RunTableBuilder::new(runs);
    switch_table(&torus, &dor, 5, VcMode::InTable, &mut b).unwrap();
    b.finish()
}

/// The canonical image of one program ([`rank3_program`]), without its CRC.
fn program_content() -> Vec<u8> {
    let ops = rank3_program();
    let mut out = vec![0u8; program_image::max_image_len(ops.len())];
    let n = program_image::encode(3, 37, &ops, &mut out).unwrap();
    out.truncate(n - CRC_LEN);
    out
}

/// The canonical image of [`switch5_table`], without its CRC.
fn table_content() -> Vec<u8> {
    let mut runs = Vec::new();
    let table = switch5_table(&mut runs);
    let mut out = vec![0u8; image::max_image_len(table.runs().len())];
    let n = image::encode(5, &table, &mut out).unwrap();
    out.truncate(n - CRC_LEN);
    out
}

/// The canonical device image of switch 5 of a 6×4 torus: [`switch5_table`] and
/// [`rank3_program`], without its CRC.
fn device_content() -> Vec<u8> {
    let mut runs = Vec::new();
    let table = switch5_table(&mut runs);
    let ops = rank3_program();
    let programs = [device_image::ProgramEntry {
        collective: 1,
        terminal: 10,
        rank: 3,
        ranks: 37,
        ops: ops.len() as u32,
    }];
    let network = crate::topology::spec::NetworkSpec::torus(&[6, 4], 2).unwrap();
    let content = device_image::DeviceContent {
        switch: 5,
        network: &network,
        algorithm: device_image::RoutingAlgorithm::TorusDor,
        table,
        programs: &programs,
        ops: &ops,
    };
    let mut out = vec![0u8; device_image::max_image_len(table.runs().len(), 1, ops.len())];
    let n = device_image::encode(&content, &mut out).unwrap();
    out.truncate(n - CRC_LEN);
    out
}

/// Every query a user of a decoded or re-opened graph may make.
fn explore<T: Topology>(g: &T) {
    let n = g.num_switches();
    for s in 0..n.saturating_add(2) {
        for p in 0..g.radix().saturating_add(2) {
            let _ = g.port(s, p);
        }
        let _ = g.degree(s);
    }
    for t in 0..g.num_terminals().saturating_add(2) {
        let _ = g.terminal_port(t);
    }
}

/// All-pairs BFS both ways on a CSR (small graphs only).
fn search(csr: &Csr<'_>) {
    let n = csr.num_vertices() as usize;
    for v in 0..csr.num_vertices().saturating_add(2) {
        let _ = csr.neighbors(v);
    }
    let (mut dist, mut queue) = (vec![0u32; n], vec![0u32; n]);
    let _ = bfs::all_pairs(csr, &mut dist, &mut queue, DistanceOutputs::none());
    let mut words = vec![[0u64; 1]; bit_bfs::words_needed(n as u32)];
    let _ = bit_bfs::all_pairs::<1>(csr, &mut words, DistanceOutputs::none(), &mut |_, _| {});
}

/// Every lookup of a re-opened table set, in and beyond range.
fn look_up_all(set: &TableSet<'_, u8>, destinations: u32) {
    for s in 0..set.switches().saturating_add(2) {
        let _ = set.table(s);
        for d in 0..destinations.saturating_add(2) {
            let _ = set.lookup(s, d);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn program_images_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..3),
        resize in proptest::option::weighted(0.2, (0usize..8, 0usize..8)),
        arrivals in proptest::collection::vec((0u32..40, 0u32..40), 0..64),
    ) {
        let blank = Op::Send { peer: 0, blocks: Blocks::All, after: Dep::None };
        let mut ops = [blank; 64];
        let _ = program_image::decode(&bytes, &mut ops);
        let content = program_content();
        let (extra, shrink) = resize.unwrap_or((0, 0));
        let len = (content.len() + extra).saturating_sub(shrink);
        let img = corrupt(&content, &edits, len);
        if let Ok(d) = program_image::decode(&img, &mut ops) {
            execute(&ops[..d.ops.min(ops.len())], &arrivals);
        }
        // A buffer too small for the ops is an error, not a panic.
        let _ = program_image::decode(&img, &mut ops[..2]);
    }

    #[test]
    fn table_images_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..3),
        resize in proptest::option::weighted(0.2, (0usize..8, 0usize..8)),
    ) {
        let mut runs = [Run { first: 0, value: RouteEntry::NONE }; 64];
        let _ = image::decode::<RouteEntry>(&bytes, &mut runs);
        let content = table_content();
        let (extra, shrink) = resize.unwrap_or((0, 0));
        let len = (content.len() + extra).saturating_sub(shrink);
        let img = corrupt(&content, &edits, len);
        if let Ok(d) = image::decode::<RouteEntry>(&img, &mut runs) {
            for t in 0..d.table.len().saturating_add(4) {
                let _ = d.table.lookup(t);
            }
        }
        let _ = image::decode::<RouteEntry>(&img, &mut runs[..1]);
    }

    #[test]
    fn device_images_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..3),
        resize in proptest::option::weighted(0.2, (0usize..8, 0usize..8)),
        arrivals in proptest::collection::vec((0u32..40, 0u32..40), 0..32),
        small in any::<bool>(),
    ) {
        let blank = Op::Send { peer: 0, blocks: Blocks::All, after: Dep::None };
        let mut runs = [Run { first: 0, value: RouteEntry::NONE }; 64];
        let mut programs = [device_image::ProgramEntry::default(); 4];
        let mut ops = [blank; 64];
        // Small buffers: over-capacity images must be errors too.
        let cut = if small { 3 } else { 64 };
        let content = device_content();
        let (extra, shrink) = resize.unwrap_or((0, 0));
        let len = (content.len() + extra).saturating_sub(shrink);
        let img = corrupt(&content, &edits, len);
        for input in [&bytes[..], &img[..]] {
            let limits = device_image::Capacities { destinations: u32::MAX, runs: cut as u32, programs: 4, ops: cut as u32 };
            let verified = device_image::verify(input, limits);
            let buffers = device_image::DeviceBuffers {
                runs: &mut runs[..cut],
                programs: &mut programs,
                ops: &mut ops[..cut],
            };
            let decoded = device_image::decode(input, buffers);
            // verify and decode agree.
            prop_assert_eq!(verified.as_ref().err(), decoded.as_ref().err());
            if let Ok(d) = decoded {
                for t in 0..d.table.len().saturating_add(4) {
                    let _ = d.table.lookup(t);
                }
                for i in 0..d.programs.len() + 1 {
                    if let Some((_, p)) = d.program(i) {
                        execute(p, &arrivals);
                    }
                }
            }
        }
    }

    #[test]
    fn csr_parts_never_panic(
        offsets in proptest::collection::vec(0u32..24, 0..12),
        targets in proptest::collection::vec(0u32..14, 0..24),
        degrees in proptest::collection::vec(0u32..4, 1..10),
        edit in proptest::option::weighted(0.5, (any::<usize>(), 0u32..14, any::<bool>())),
    ) {
        if let Ok(csr) = Csr::from_parts(&offsets, &targets) {
            search(&csr);
        }
        // Well-formed parts (offsets from degrees, targets below n), then one entry changed.
        let n = degrees.len() as u32;
        let mut offs = vec![0u32];
        for d in &degrees {
            offs.push(offs[offs.len() - 1] + d);
        }
        let mut tgts: Vec<u32> = (0..offs[offs.len() - 1]).map(|i| (i * 7 + 3) % n).collect();
        if let Some((i, v, in_offsets)) = edit {
            if in_offsets {
                let k = i % offs.len();
                offs[k] = v;
            } else if !tgts.is_empty() {
                let k = i % tgts.len();
                tgts[k] = v;
            }
        }
        if let Ok(csr) = Csr::from_parts(&offs, &tgts) {
            search(&csr);
        }
    }

    #[test]
    fn table_set_parts_never_panic(
        runs in proptest::collection::vec((0u32..20, any::<u8>()), 0..16),
        offsets in proptest::collection::vec(0u32..18, 0..8),
        destinations in 1u32..20,
        per_switch in proptest::collection::vec(proptest::collection::btree_set(1u32..20, 0..4), 1..5),
        edit in proptest::option::weighted(0.5, (any::<usize>(), 0u32..24, any::<bool>())),
    ) {
        let raw: Vec<Run<u8>> = runs
            .into_iter()
            .map(|(first, value)| Run { first, value })
            .collect();
        if let Ok(set) = TableSet::from_parts(&raw, &offsets, destinations) {
            look_up_all(&set, destinations);
        }
        // Canonical tables (runs from 0, ascending starts, neighbours differ), then one
        // entry changed.
        let mut runs = Vec::new();
        let mut offs = vec![0u32];
        for starts in &per_switch {
            let firsts = core::iter::once(0).chain(starts.iter().copied().filter(|&f| f < destinations));
            for (i, first) in firsts.enumerate() {
                runs.push(Run { first, value: (i % 2) as u8 });
            }
            offs.push(runs.len() as u32);
        }
        if let Some((i, v, in_offsets)) = edit {
            if in_offsets {
                let k = i % offs.len();
                offs[k] = v;
            } else if !runs.is_empty() {
                let k = i % runs.len();
                runs[k].first = v;
            }
        }
        if let Ok(set) = TableSet::from_parts(&runs, &offs, destinations) {
            look_up_all(&set, destinations);
        }
    }

    #[test]
    fn port_tables_never_panic(
        n in 0u32..8,
        width in 0u16..4,
        tps in 0u16..3,
        raw in proptest::collection::vec((0u32..10, 0u16..5, 0u8..3), 0..32),
    ) {
        let classes = [LinkClass::Local, LinkClass::Global, LinkClass::Terminal];
        let mut slots: Vec<Slot> = raw
            .iter()
            .map(|&(peer, peer_port, c)| Slot {
                peer: if peer == 9 { Slot::EMPTY_PEER } else { peer },
                peer_port,
                class: classes[c as usize],
            })
            .collect();
        slots.resize((n as usize) * (width as usize), Slot::EMPTY);
        if let Ok(g) = StoredGraph::from_slots(Family::Arbitrary, n, width, tps, &slots) {
            explore(&g);
            let size = crate::metrics::csr_size(&g);
            let (mut o, mut t) = (vec![0u32; size.offsets], vec![0u32; size.targets]);
            if let Ok(csr) = Csr::build(&g, &mut o, &mut t) {
                search(&csr);
            }
            for s in 0..n {
                for p in 0..width {
                    if let Port::Link(l) = g.port(s, p) {
                        prop_assert_eq!(g.port(l.peer, l.peer_port), Port::Link(crate::topology::Link {
                            peer: s,
                            peer_port: p,
                            class: l.class,
                        }));
                    }
                }
            }
        }
    }

    #[test]
    fn edge_lists_never_panic(
        n in 0u32..10,
        width in 0u16..5,
        tps in 0u16..3,
        edges in proptest::collection::vec((0u32..12, 0u32..12), 0..24),
        short in any::<bool>(),
    ) {
        let len = n as usize * width as usize;
        let mut slots = vec![Slot::EMPTY; if short { len / 2 } else { len }];
        let mut degree = vec![0u16; n as usize];
        if let Ok(g) = from_edges(n, width, tps, edges.iter().copied(), &mut slots, &mut degree) {
            explore(&g);
        }
    }

    #[test]
    fn wire_frames_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
        body in proptest::collection::vec(any::<u8>(), 0..300),
    ) {
        use crate::wire::{frame, FrameAccumulator, Request, Response, MAX_FRAME_LEN};
        // Raw bytes: COBS, CRC and length checks.
        let mut copy = bytes.clone();
        let _ = frame::decode::<Request>(&mut copy);
        let mut copy = bytes.clone();
        let _ = frame::decode::<Response>(&mut copy);
        let mut acc = FrameAccumulator::<MAX_FRAME_LEN>::new();
        for &b in &bytes {
            if let Some(Ok(f)) = acc.push(b) {
                let _ = frame::decode::<Request>(f);
            }
        }
        // Any body in a valid frame (COBS and CRC right): the message decoders.
        let mut buf = [0u8; 1024];
        if let Ok(f) = frame::encode(&RawBytes(&body), &mut buf) {
            let mut copy = f.to_vec();
            let _ = frame::decode::<Request>(&mut copy);
            let mut copy = f.to_vec();
            let _ = frame::decode::<Response>(&mut copy);
        }
    }
}

/// Serializes as its bytes, without a length prefix (an arbitrary message body).
struct RawBytes<'a>(&'a [u8]);

impl serde::Serialize for RawBytes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(self.0.len())?;
        for b in self.0 {
            t.serialize_element(b)?;
        }
        t.end()
    }
}
