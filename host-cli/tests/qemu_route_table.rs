//! Hardware-in-the-loop tests of route tables computed on the device (QEMU `mps2-an386`,
//! jumpnet-core compiled for `thumbv7em-none-eabihf`).
//!
//! For each network and algorithm the device computes single switches' forwarding tables
//! with the per-switch functions of the core (`minimal::switch_table`,
//! `compile::switch_table`, `DragonflyMinimal::switch_table`) and sends their canonical
//! images in chunks. This side computes the tables of *all* switches with the whole-network
//! functions (`minimal::all_tables` from a distance matrix, `compile::compile_tables` from
//! the arithmetic routing), encodes the same switches' images, and requires:
//!
//! 1. the device's bytes are identical to the host's;
//! 2. the decoded table routes like the algorithm: every destination's entry is the first
//!    hop `next_hop` gives on the host (and, for torus DOR and Dragonfly minimal, the same
//!    port as the deadlock-free dateline variants, whose VCs are applied per packet);
//! 3. for the minimal algorithms, every entry steps one hop closer to the destination by an
//!    independent BFS written here (and minimal BFS takes the lowest such port).
//!
//! Then the error paths: corrupted request frames, requests beyond the device's capacity or
//! naming an algorithm that does not fit the network, chunks beyond the image.
//! Ignored by default: `cargo xtask firmware` builds the ELF and runs them.
#![cfg(not(target_os = "none"))]

mod firmware_support;

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use firmware_support::{firmware_elf, Ids, Qemu};
use jumpnet_core::image::crc32::crc32;
use jumpnet_core::image::device::RoutingAlgorithm;
use jumpnet_core::image::route_table as image;
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::minimal::all_tables;
use jumpnet_core::routing::tables::compile::{compile_tables, VcMode};
use jumpnet_core::routing::{
    CirculantGreedy, CirculantNaf, DistanceMatrix, FatTreeDmodK, Hop, HyperXDor, HypercubeEcube,
    MinimalRouting, PacketState, RouteEntry, Routing, Run, TableSet, TableSetBuilder, TorusDor,
    TorusVcs,
};
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::{GlobalArrangement, Network, Port, PortIndex, Topology};
use jumpnet_core::wire::route_table::{MAX_BFS_SWITCHES, MAX_IMAGE_CHUNK};
use jumpnet_core::wire::{
    Command, FrameError, Rejection, Reply, Request, Response, RouteTableRequest, TableResource,
    WIRE_VERSION,
};

/// One network and algorithm, and the switches whose tables the device computes.
struct Case {
    network: NetworkSpec,
    algorithm: RoutingAlgorithm,
    switches: &'static [u32],
}

fn cases() -> Vec<Case> {
    let g1024 = NetworkSpec::CirculantG { n: 1024 };
    let df = |arrangement| NetworkSpec::Dragonfly {
        g: 9,
        a: 4,
        p: 2,
        h: 2,
        arrangement,
    };
    vec![
        Case {
            network: g1024.clone(),
            algorithm: RoutingAlgorithm::CirculantNaf,
            switches: &[0, 1, 511, 1023],
        },
        Case {
            network: g1024,
            algorithm: RoutingAlgorithm::MinimalBfs,
            switches: &[0, 777],
        },
        Case {
            network: NetworkSpec::torus(&[8, 8], 1).expect("2 dims"),
            algorithm: RoutingAlgorithm::TorusDor,
            switches: &[0, 9, 36, 63],
        },
        Case {
            network: NetworkSpec::Hypercube {
                dim: 6,
                terminals_per_switch: 1,
            },
            algorithm: RoutingAlgorithm::Ecube,
            switches: &[0, 21, 42, 63],
        },
        Case {
            network: df(GlobalArrangement::Consecutive),
            algorithm: RoutingAlgorithm::DragonflyMinimal,
            switches: &[0, 5, 18, 35],
        },
        Case {
            network: df(GlobalArrangement::PalmTree),
            algorithm: RoutingAlgorithm::DragonflyMinimal,
            switches: &[7, 30],
        },
        Case {
            network: df(GlobalArrangement::Consecutive),
            algorithm: RoutingAlgorithm::MinimalBfs,
            switches: &[0, 22],
        },
        Case {
            network: NetworkSpec::mesh(&[5, 3], 2).expect("2 dims"),
            algorithm: RoutingAlgorithm::TorusDor,
            switches: &[0, 7, 14],
        },
        Case {
            network: NetworkSpec::circulant(40, &[1, 3, 9]).expect("3 jumps"),
            algorithm: RoutingAlgorithm::CirculantGreedy,
            switches: &[0, 17],
        },
        Case {
            network: NetworkSpec::hyperx(&[4, 3], 2, 2).expect("2 dims"),
            algorithm: RoutingAlgorithm::HyperXDor,
            switches: &[0, 11],
        },
        Case {
            network: NetworkSpec::FatTree { k: 4, n: 3 },
            algorithm: RoutingAlgorithm::FatTreeDmodK,
            switches: &[0, 17, 47],
        },
    ]
}

/// Whether every route of the algorithm is a shortest path in the switch graph.
fn is_minimal(algorithm: RoutingAlgorithm) -> bool {
    // Dragonfly minimal routes may be longer than a path through a third group; greedy
    // circulant routing is not optimal; D-mod-k is minimal but checked by its own tests.
    matches!(
        algorithm,
        RoutingAlgorithm::MinimalBfs
            | RoutingAlgorithm::TorusDor
            | RoutingAlgorithm::Ecube
            | RoutingAlgorithm::CirculantNaf
            | RoutingAlgorithm::HyperXDor
    )
}

/// The routing on the host: the single-VC variant whose first hops the tables hold, and
/// for dateline-style routings the deadlock-free variant (same ports, VCs per packet).
fn host_routings<'a>(
    net: &'a Network<'static>,
    algorithm: RoutingAlgorithm,
    dist: &'a [u16],
) -> (Box<dyn Routing + 'a>, Option<Box<dyn Routing + 'a>>) {
    match (algorithm, net) {
        (RoutingAlgorithm::MinimalBfs, _) => {
            let d = DistanceMatrix::new(net.num_switches(), dist).expect("distance matrix");
            (
                Box::new(MinimalRouting::new(net, d).expect("minimal routing")),
                None,
            )
        }
        (RoutingAlgorithm::TorusDor, Network::Torus(t)) => (
            Box::new(TorusDor::new(t, TorusVcs::Single).expect("DOR")),
            t.wraps()
                .then(|| Box::new(TorusDor::new(t, TorusVcs::Dateline).expect("DOR")) as _),
        ),
        (RoutingAlgorithm::Ecube, Network::Hypercube(c)) => {
            (Box::new(HypercubeEcube::new(c)), None)
        }
        (RoutingAlgorithm::CirculantNaf, Network::Circulant(c)) => {
            (Box::new(CirculantNaf::new(c).expect("G(n, log2 n)")), None)
        }
        (RoutingAlgorithm::CirculantGreedy, Network::Circulant(c)) => {
            (Box::new(CirculantGreedy::new(c)), None)
        }
        (RoutingAlgorithm::HyperXDor, Network::HyperX(h)) => (Box::new(HyperXDor::new(h)), None),
        (RoutingAlgorithm::FatTreeDmodK, Network::FatTree(t)) => {
            (Box::new(FatTreeDmodK::new(t)), None)
        }
        (RoutingAlgorithm::DragonflyMinimal, Network::Dragonfly(df)) => (
            Box::new(DragonflyMinimal::new(df, MinimalVcs::Single)),
            Some(Box::new(DragonflyMinimal::new(df, MinimalVcs::Dateline))),
        ),
        (a, n) => panic!("no host routing for {a} on {:?}", n.family()),
    }
}

/// Tables of every switch, computed on the host with the whole-network functions.
struct HostTables {
    runs: Vec<Run<RouteEntry>>,
    offsets: Vec<u32>,
    destinations: u32,
}

impl HostTables {
    fn compute(net: &Network<'static>, algorithm: RoutingAlgorithm, routing: &dyn Routing) -> Self {
        let (n, dests) = (net.num_switches(), net.num_terminals());
        let mut runs = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            n as usize * dests as usize
        ];
        let mut offsets = vec![0u32; n as usize + 1];
        let mut b = TableSetBuilder::new(n, dests, &mut runs, &mut offsets).expect("builder");
        if algorithm == RoutingAlgorithm::MinimalBfs {
            let mut dist = vec![0u16; (n * n) as usize];
            let mut queue = vec![0u32; n as usize];
            let d = DistanceMatrix::compute(net, &mut dist, &mut queue).expect("distances");
            let r = MinimalRouting::new(net, d).expect("minimal routing");
            let mut best_dist = vec![0u16; n as usize];
            let mut best_port = vec![0 as PortIndex; n as usize];
            all_tables(&r, &mut best_dist, &mut best_port, &mut b).expect("all_tables");
        } else {
            compile_tables(net, routing, VcMode::InTable, &mut b, None).expect("compile_tables");
        }
        let used = b.finish().expect("complete tables").total_runs();
        runs.truncate(used);
        HostTables {
            runs,
            offsets,
            destinations: dests,
        }
    }

    fn set(&self) -> TableSet<'_, RouteEntry> {
        TableSet::from_parts(&self.runs, &self.offsets, self.destinations).expect("table set")
    }

    fn image(&self, switch: u32) -> Vec<u8> {
        let table = self.set().table(switch).expect("switch in range");
        let mut buf = vec![0u8; image::max_image_len(table.runs().len())];
        let len = image::encode(switch, &table, &mut buf).expect("encode");
        buf.truncate(len);
        buf
    }
}

/// Hop distances from `src` to every switch (plain BFS over `Topology::port`).
fn bfs(net: &Network<'_>, src: u32) -> Vec<u32> {
    let mut dist = vec![u32::MAX; net.num_switches() as usize];
    dist[src as usize] = 0;
    let mut queue = VecDeque::from([src]);
    while let Some(u) = queue.pop_front() {
        for p in 0..net.radix() {
            if let Port::Link(l) = net.port(u, p) {
                if dist[l.peer as usize] == u32::MAX {
                    dist[l.peer as usize] = dist[u as usize] + 1;
                    queue.push_back(l.peer);
                }
            }
        }
    }
    dist
}

/// The first hop of a packet injected at `s` toward terminal `d`, as a table entry.
fn first_hop(r: &dyn Routing, s: u32, d: u32) -> RouteEntry {
    match r
        .next_hop(s, &mut PacketState::new(s), d)
        .expect("next hop")
    {
        Hop::Forward { port, vc } => RouteEntry { port, vc },
        Hop::Eject { port } => RouteEntry { port, vc: 0 },
    }
}

/// Checks a decoded device table against the routing and an independent BFS.
fn check_routes(
    net: &Network<'_>,
    case: &Case,
    s: u32,
    device: &[u8],
    single: &dyn Routing,
    dateline: Option<&dyn Routing>,
) {
    let what = format!("{} on {:?}, switch {s}", case.algorithm, case.network);
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        net.num_terminals() as usize
    ];
    let decoded = image::decode::<RouteEntry>(device, &mut runs).expect("device image decodes");
    assert_eq!(decoded.switch, s, "{what}");
    assert_eq!(decoded.table.len(), net.num_terminals(), "{what}");
    let from_s = bfs(net, s);
    let neighbour_dist: Vec<Option<Vec<u32>>> = (0..net.radix())
        .map(|p| net.port(s, p).link().map(|l| bfs(net, l.peer)))
        .collect();
    for d in 0..net.num_terminals() {
        let entry = decoded.table.lookup(d).expect("entry");
        assert_eq!(entry, first_hop(single, s, d), "{what}, dst {d}");
        assert_eq!(entry.vc, 0, "{what}, dst {d}: port tables hold VC 0");
        if let Some(r) = dateline {
            assert_eq!(entry.port, first_hop(r, s, d).port, "{what}, dst {d}");
        }
        let (t, tport) = net.terminal_port(d).expect("terminal");
        if t == s {
            assert_eq!(entry.port, tport, "{what}: eject to terminal {d}");
            continue;
        }
        let Some(Some(via)) = neighbour_dist.get(entry.port as usize) else {
            panic!("{what}, dst {d}: port {} is not a network link", entry.port);
        };
        if is_minimal(case.algorithm) {
            assert_eq!(via[t as usize] + 1, from_s[t as usize], "{what}, dst {d}");
        }
        if case.algorithm == RoutingAlgorithm::MinimalBfs {
            let lowest = neighbour_dist
                .iter()
                .position(|nd| {
                    nd.as_ref()
                        .is_some_and(|v| v[t as usize] + 1 == from_s[t as usize])
                })
                .expect("a shortest-path port");
            assert_eq!(entry.port as usize, lowest, "{what}, dst {d}: lowest port");
        }
    }
}

/// Request ids, counting from 1.
fn table_request(case: &Case, switch: u32, offset: u32) -> Command {
    Command::RouteTable(RouteTableRequest {
        network: case.network.clone(),
        algorithm: case.algorithm,
        switch,
        offset,
        max_len: MAX_IMAGE_CHUNK as u16,
    })
}

/// Reads one switch's image from the device chunk by chunk; returns it, the number of
/// chunks and the wall time of the first chunk (which includes the table computation).
fn fetch_image(q: &mut Qemu, ids: &mut Ids, case: &Case, switch: u32) -> (Vec<u8>, u32, Duration) {
    let mut image = Vec::new();
    let mut chunks = 0u32;
    let mut first = Duration::ZERO;
    loop {
        let id = ids.next();
        let t0 = Instant::now();
        let r = q.call(&Request::new(
            id,
            table_request(case, switch, image.len() as u32),
        ));
        if chunks == 0 {
            first = t0.elapsed();
        }
        assert_eq!(r.id, id);
        let Reply::RouteTable(chunk) = r.reply else {
            panic!(
                "{} switch {switch}: unexpected reply {:?}",
                case.algorithm, r.reply
            );
        };
        chunks += 1;
        assert_eq!(chunk.offset as usize, image.len());
        assert!(!chunk.bytes.is_empty() && chunk.bytes.len() <= MAX_IMAGE_CHUNK);
        image.extend_from_slice(&chunk.bytes);
        assert!(image.len() <= chunk.image_len as usize);
        if image.len() == chunk.image_len as usize {
            return (image, chunks, first);
        }
    }
}

/// A frame with the given body and CRC (to build corrupted requests).
fn raw_frame(body: &[u8], crc: u32) -> Vec<u8> {
    let mut payload = body.to_vec();
    payload.extend_from_slice(&crc.to_le_bytes());
    let mut out = vec![0u8; cobs::max_encoding_length(payload.len())];
    let len = cobs::encode(&payload, &mut out);
    out.truncate(len);
    out.push(0);
    out
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_tables_are_byte_identical_to_host_tables() {
    let started = Instant::now();
    let mut q = Qemu::start(&firmware_elf());
    let mut ids = Ids(0);
    let mut host_time = Duration::ZERO;
    let mut images = 0u32;
    for case in cases() {
        let net = case.network.build().expect("valid network");
        let t0 = Instant::now();
        let n = net.num_switches() as usize;
        let mut dist = Vec::new();
        if case.algorithm == RoutingAlgorithm::MinimalBfs {
            dist = vec![0u16; n * n];
            let mut queue = vec![0u32; n];
            DistanceMatrix::compute(&net, &mut dist, &mut queue).expect("distances");
        }
        let (single, dateline) = host_routings(&net, case.algorithm, &dist);
        let host = HostTables::compute(&net, case.algorithm, single.as_ref());
        host_time += t0.elapsed();
        for &s in case.switches {
            let (device, chunks, first) = fetch_image(&mut q, &mut ids, &case, s);
            let expected = host.image(s);
            assert_eq!(
                device, expected,
                "{} on {:?}, switch {s}: device image differs from the host's",
                case.algorithm, case.network
            );
            check_routes(
                &net,
                &case,
                s,
                &device,
                single.as_ref(),
                dateline.as_deref(),
            );
            images += 1;
            eprintln!(
                "{:>10} {:?} switch {s}: {} bytes, {} runs, {chunks} chunks, first chunk \
                 (with computation) {:.1} ms",
                case.algorithm.name(),
                net.family(),
                device.len(),
                host.set().table(s).expect("table").runs().len(),
                first.as_secs_f64() * 1e3
            );
        }
    }
    let id = ids.next();
    assert_eq!(
        q.call(&Request::new(id, Command::Shutdown)),
        Response::new(id, Reply::ShuttingDown)
    );
    let done = q.finish();
    assert_eq!(done.status.code(), Some(0), "stderr: {}", done.stderr);
    let computed = done
        .log
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("route tables computed: "))
        .expect("table log line");
    assert_eq!(computed, images.to_string(), "one computation per table");
    eprintln!(
        "{images} device tables in {:.2} s wall (host-side whole-network tables {:.2} s)",
        started.elapsed().as_secs_f64(),
        host_time.as_secs_f64()
    );
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_rejects_bad_and_oversized_table_requests() {
    let mut q = Qemu::start(&firmware_elf());
    let mut ids = Ids(0);
    let torus = Case {
        network: NetworkSpec::torus(&[8, 8], 1).expect("2 dims"),
        algorithm: RoutingAlgorithm::TorusDor,
        switches: &[],
    };
    damaged_frames_are_rejected(&mut q, &mut ids, &torus);
    bad_table_requests_are_rejected(&mut q, &mut ids, &torus);
    // Requests of another wire version are refused before anything is computed.
    let mut old = Request::new(ids.next(), table_request(&torus, 9, 0));
    old.version = WIRE_VERSION - 1;
    assert_eq!(
        q.call(&old).reply,
        Reply::Rejected(Rejection::UnsupportedVersion {
            got: WIRE_VERSION - 1,
            supported: WIRE_VERSION
        })
    );

    let id = ids.next();
    assert_eq!(
        q.call(&Request::new(id, Command::Shutdown)).reply,
        Reply::ShuttingDown
    );
    let done = q.finish();
    assert_eq!(done.status.code(), Some(0), "stderr: {}", done.stderr);
    assert!(
        done.log.iter().any(|l| l.starts_with("bad frame")),
        "log: {:?}",
        done.log
    );
}

/// A frame with a wrong CRC and a truncated one are rejected; the intact frame then works.
fn damaged_frames_are_rejected(q: &mut Qemu, ids: &mut Ids, torus: &Case) {
    let request = Request::new(ids.next(), table_request(torus, 9, 0));
    let mut buf = [0u8; 128];
    let body = postcard::to_slice(&request, &mut buf).expect("serialize");

    // A request with a wrong CRC, and a truncated request with a correct CRC.
    let crc = crc32(body);
    q.send_raw(&raw_frame(body, crc ^ 0x0100));
    assert_eq!(
        q.receive(),
        Response::new(0, Reply::Rejected(Rejection::Frame(FrameError::BadCrc)))
    );
    let short = &body[..body.len() - 3];
    q.send_raw(&raw_frame(short, crc32(short)));
    assert_eq!(
        q.receive(),
        Response::new(0, Reply::Rejected(Rejection::Frame(FrameError::BadMessage)))
    );
    // The intact frame still works afterwards.
    q.send_raw(&raw_frame(body, crc));
    let r = q.receive();
    assert_eq!(r.id, request.id);
    assert!(matches!(r.reply, Reply::RouteTable(ref c) if c.offset == 0 && !c.bytes.is_empty()));
}

/// Requests over the device's capacity, for the wrong algorithm or network, a switch out of
/// range and an offset beyond the image are rejected with what is wrong.
fn bad_table_requests_are_rejected(q: &mut Qemu, ids: &mut Ids, torus: &Case) {
    let mut call = |network: NetworkSpec, algorithm, switch, offset| {
        let case = Case {
            network,
            algorithm,
            switches: &[],
        };
        let id = ids.next();
        let r = q.call(&Request::new(id, table_request(&case, switch, offset)));
        assert_eq!(r.id, id);
        r.reply
    };
    // Over capacity: 8192 destinations; minimal BFS on 8192 switches (no terminals).
    assert_eq!(
        call(
            NetworkSpec::CirculantG { n: 8192 },
            RoutingAlgorithm::CirculantNaf,
            0,
            0
        ),
        Reply::Rejected(Rejection::TableCapacity {
            resource: TableResource::Destinations,
            needed: 8192,
            available: 4096
        })
    );
    let cube13 = NetworkSpec::Hypercube {
        dim: 13,
        terminals_per_switch: 0,
    };
    assert_eq!(
        call(cube13, RoutingAlgorithm::MinimalBfs, 1, 0),
        Reply::Rejected(Rejection::TableCapacity {
            resource: TableResource::BfsSwitches,
            needed: 8192,
            available: MAX_BFS_SWITCHES as u64
        })
    );
    // Wrong algorithm, invalid network, switch out of range, offset beyond the image.
    assert_eq!(
        call(torus.network.clone(), RoutingAlgorithm::Ecube, 0, 0),
        Reply::Rejected(Rejection::AlgorithmNotApplicable {
            algorithm: RoutingAlgorithm::Ecube
        })
    );
    assert_eq!(
        call(
            NetworkSpec::CirculantG { n: 1000 },
            RoutingAlgorithm::MinimalBfs,
            0,
            0
        ),
        Reply::Rejected(Rejection::InvalidNetwork)
    );
    assert_eq!(
        call(torus.network.clone(), RoutingAlgorithm::TorusDor, 64, 0),
        Reply::Rejected(Rejection::SwitchOutOfRange {
            switch: 64,
            switches: 64
        })
    );
    let Reply::RouteTable(c) = call(torus.network.clone(), RoutingAlgorithm::TorusDor, 9, 0) else {
        panic!("torus table")
    };
    assert_eq!(
        call(
            torus.network.clone(),
            RoutingAlgorithm::TorusDor,
            9,
            c.image_len + 1
        ),
        Reply::Rejected(Rejection::ChunkOutOfRange {
            offset: c.image_len + 1,
            image_len: c.image_len
        })
    );
}
