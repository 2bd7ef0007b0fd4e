//! The request handler: runs jumpnet-core code on the device and answers requests (the
//! self-test computations here, route tables in [`crate::tables`]).
//!
//! Everything here is plain computation over [`jumpnet_core::wire::message`] types, so it runs the
//! same on the host (unit tests) and on the device; the host checks the device's answers
//! against its own computation with jumpnet-core (HIL test `host-cli/tests/qemu_selftest.rs`).

use heapless::Vec;
use jumpnet_core::image::crc32::Crc32;
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::stored::{from_edges, Slot};
use jumpnet_core::topology::{Port, Topology};

use crate::device::DeviceHandler;
use crate::tables::TableService;
use jumpnet_core::wire::device::Counters;
use jumpnet_core::wire::message::{
    Command, GraphSummary, Rejection, Reply, Request, Response, MAX_GRAPH_CHORDS,
    MAX_GRAPH_SWITCHES, MAX_RNG_SKIP, MAX_RNG_WORDS, MIN_GRAPH_SWITCHES, WIRE_VERSION,
};

/// Largest port-table width of a [`Command::RingWithChords`] graph (ring ports + chords).
const MAX_WIDTH: usize = 2 + MAX_GRAPH_CHORDS as usize;

/// What the caller must do after sending the response of [`handle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(target_os = "none", derive(defmt::Format))]
pub enum Action {
    /// Keep serving.
    Continue,
    /// Send the response, then end the session successfully.
    Shutdown,
    /// Send nothing and panic (the host asked to exercise the panic path).
    Panic,
}

/// The services a request may need: route tables computed on the device (absent in device
/// builds sized for one network) and the device image service.
pub struct Services<'a> {
    /// On-device route-table computation, if this build has it.
    pub tables: Option<&'a mut TableService>,
    /// The device image service.
    pub device: &'a mut dyn DeviceHandler,
    /// The request loop's counts, for the device counters.
    pub frames: Counters,
}

impl core::fmt::Debug for Services<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Services")
            .field("tables", &self.tables.is_some())
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

/// Answers one request. `served` is the number of requests answered before this one;
/// route-table requests are answered by `services.tables` (rejected as
/// [`Rejection::Unsupported`] without), device commands by `services.device`.
pub fn handle(request: &Request, served: u32, services: Services<'_>) -> (Response, Action) {
    let id = request.id;
    if request.version != WIRE_VERSION {
        let rejection = Rejection::UnsupportedVersion {
            got: request.version,
            supported: WIRE_VERSION,
        };
        return (
            Response::new(id, Reply::Rejected(rejection)),
            Action::Continue,
        );
    }
    let (reply, action) = match &request.command {
        Command::Hello => (
            Reply::Hello {
                wire_version: WIRE_VERSION,
                served,
            },
            Action::Continue,
        ),
        &Command::RngWords { seed, skip, count } => (
            rng_words(seed, skip, count).map_or_else(Reply::Rejected, Reply::RngWords),
            Action::Continue,
        ),
        &Command::RingWithChords {
            seed,
            switches,
            chords,
        } => (
            ring_with_chords(seed, switches, chords).map_or_else(Reply::Rejected, Reply::Graph),
            Action::Continue,
        ),
        Command::Shutdown => (Reply::ShuttingDown, Action::Shutdown),
        Command::Panic => (Reply::ShuttingDown, Action::Panic),
        Command::RouteTable(req) => (
            match services.tables {
                Some(tables) => tables
                    .serve(req)
                    .map_or_else(Reply::Rejected, Reply::RouteTable),
                None => Reply::Rejected(Rejection::Unsupported),
            },
            Action::Continue,
        ),
        Command::Device(cmd) => (
            services
                .device
                .handle(cmd, services.frames)
                .map_or_else(Reply::Rejected, Reply::Device),
            Action::Continue,
        ),
    };
    (Response::new(id, reply), action)
}

/// Outputs `skip .. skip + count` of `Rng::new(seed)`.
pub fn rng_words(seed: u64, skip: u32, count: u8) -> Result<Vec<u64, MAX_RNG_WORDS>, Rejection> {
    if count as usize > MAX_RNG_WORDS || skip > MAX_RNG_SKIP {
        return Err(Rejection::RngRequestTooLarge { count, skip });
    }
    let mut rng = Rng::new(seed);
    for _ in 0..skip {
        rng.next();
    }
    let mut words = Vec::new();
    for _ in 0..count {
        words
            .push(rng.next())
            .map_err(|_| Rejection::RngRequestTooLarge { count, skip })?;
    }
    Ok(words)
}

/// The edges of the self-test graph, in the order they are added: the ring
/// `(i, i + 1 mod n)` for `i = 0..n`, then `chords` pairs `Rng::new(seed).distinct_pair(n)`
/// (parallel links allowed).
pub fn ring_with_chords_edges(
    seed: u64,
    switches: u8,
    chords: u8,
) -> impl Iterator<Item = (u32, u32)> {
    let n = switches as u32;
    let ring = (0..n).map(move |i| (i, (i + 1) % n));
    let mut rng = Rng::new(seed);
    let chords = (0..chords).filter_map(move |_| {
        rng.distinct_pair(n as usize)
            .map(|(a, b)| (a as u32, b as u32))
    });
    ring.chain(chords)
}

/// Builds the self-test graph with `stored::from_edges` (width `2 + chords`, one terminal per
/// switch) and summarizes it: degrees, BFS distances from switch 0 and a CRC of the port
/// table (layout in [`GraphSummary::port_table_crc`]).
pub fn ring_with_chords(seed: u64, switches: u8, chords: u8) -> Result<GraphSummary, Rejection> {
    if !(MIN_GRAPH_SWITCHES as usize..=MAX_GRAPH_SWITCHES).contains(&(switches as usize))
        || chords > MAX_GRAPH_CHORDS
    {
        return Err(Rejection::GraphOutOfRange { switches, chords });
    }
    let n = switches as u32;
    let width = 2 + chords as u16;
    let mut slots = [Slot::EMPTY; MAX_GRAPH_SWITCHES * MAX_WIDTH];
    let mut degree = [0u16; MAX_GRAPH_SWITCHES];
    let graph = from_edges(
        n,
        width,
        1,
        ring_with_chords_edges(seed, switches, chords),
        &mut slots,
        &mut degree,
    )
    .map_err(|_| Rejection::GraphBuildFailed)?;

    let mut digest = Crc32::new();
    let mut degrees = Vec::new();
    for s in 0..n {
        let mut d = 0u8;
        for p in 0..width {
            let (peer, peer_port) = match graph.port(s, p) {
                Port::Link(l) => {
                    d = d.saturating_add(1);
                    (l.peer, l.peer_port)
                }
                _ => (u32::MAX, 0),
            };
            digest.update(&peer.to_le_bytes());
            digest.update(&peer_port.to_le_bytes());
        }
        degrees
            .push(d)
            .map_err(|_| Rejection::GraphOutOfRange { switches, chords })?;
    }
    Ok(GraphSummary {
        switches,
        width: width as u8,
        links: switches as u16 + chords as u16,
        degrees,
        distances_from_0: bfs_distances(&graph, width),
        port_table_crc: digest.finish(),
    })
}

/// Hop distances from switch 0 over the network ports `0..width` (`u8::MAX` = unreachable).
fn bfs_distances<T: Topology>(graph: &T, width: u16) -> Vec<u8, MAX_GRAPH_SWITCHES> {
    let n = (graph.num_switches() as usize).min(MAX_GRAPH_SWITCHES);
    let mut dist = [u8::MAX; MAX_GRAPH_SWITCHES];
    let mut queue = [0u32; MAX_GRAPH_SWITCHES];
    let (mut head, mut tail) = (0usize, 0usize);
    if n > 0 {
        dist[0] = 0;
        queue[0] = 0;
        tail = 1;
    }
    while head < tail {
        let s = queue[head];
        head += 1;
        let next = dist[s as usize].saturating_add(1);
        for p in 0..width {
            if let Port::Link(l) = graph.port(s, p) {
                let peer = l.peer as usize;
                if peer < n && dist[peer] == u8::MAX {
                    dist[peer] = next;
                    queue[tail] = l.peer;
                    tail += 1;
                }
            }
        }
    }
    dist.iter().take(n).copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(req: &Request, served: u32, tables: &mut TableService) -> (Response, Action) {
        let mut device = crate::device::DeviceService::<4, 1, 4, 256>::new();
        let services = Services {
            tables: Some(tables),
            device: &mut device,
            frames: Counters::default(),
        };
        handle(req, served, services)
    }
    use std::collections::VecDeque;
    use std::vec;
    use std::vec::Vec as StdVec;

    #[test]
    fn rng_words_match_the_core_generator() {
        // Core's Rng is checked against the published xoshiro256** stream in core's tests.
        for seed in [0u64, 1, 42, u64::MAX] {
            let mut rng = jumpnet_core::rng::Rng::new(seed);
            let all: StdVec<u64> = (0..100).map(|_| rng.next()).collect();
            let got = rng_words(seed, 0, 32).unwrap();
            assert_eq!(&got[..], &all[..32]);
            let got = rng_words(seed, 67, 33 - 1).unwrap();
            assert_eq!(&got[..], &all[67..99]);
        }
        assert_eq!(rng_words(5, 0, 0).unwrap().len(), 0);
    }

    #[test]
    fn rng_limits_are_enforced() {
        assert_eq!(
            rng_words(1, 0, 33),
            Err(Rejection::RngRequestTooLarge { count: 33, skip: 0 })
        );
        assert!(rng_words(1, MAX_RNG_SKIP + 1, 1).is_err());
    }

    /// Independent model of the graph: ports assigned in edge order, plain BFS.
    fn model(edges: &[(u32, u32)], n: usize, width: usize) -> (StdVec<u8>, StdVec<u8>, u32) {
        let mut table = vec![(u32::MAX, 0u16); n * width];
        let mut deg = vec![0usize; n];
        for &(u, v) in edges {
            let (pu, pv) = (deg[u as usize], deg[v as usize]);
            table[u as usize * width + pu] = (v, pv as u16);
            table[v as usize * width + pv] = (u, pu as u16);
            deg[u as usize] += 1;
            deg[v as usize] += 1;
        }
        let mut bytes = StdVec::new();
        for &(peer, port) in &table {
            bytes.extend_from_slice(&peer.to_le_bytes());
            bytes.extend_from_slice(&port.to_le_bytes());
        }
        let mut dist = vec![u8::MAX; n];
        dist[0] = 0;
        let mut q = VecDeque::from([0usize]);
        while let Some(s) = q.pop_front() {
            for p in 0..deg[s] {
                let peer = table[s * width + p].0 as usize;
                if dist[peer] == u8::MAX {
                    dist[peer] = dist[s] + 1;
                    q.push_back(peer);
                }
            }
        }
        let crc = jumpnet_core::image::crc32::crc32(&bytes);
        (deg.iter().map(|&d| d as u8).collect(), dist, crc)
    }

    #[test]
    fn plain_ring_has_ring_distances() {
        let g = ring_with_chords(0, 7, 0).unwrap();
        assert_eq!(&g.degrees[..], &[2; 7]);
        assert_eq!(&g.distances_from_0[..], &[0, 1, 2, 3, 3, 2, 1]);
        assert_eq!(g.links, 7);
        assert_eq!(g.width, 2);
    }

    #[test]
    fn graph_summary_matches_an_independent_model() {
        for (seed, n, c) in [(1u64, 3u8, 0u8), (7, 16, 5), (99, 32, 32), (3, 5, 20)] {
            let edges: StdVec<_> = ring_with_chords_edges(seed, n, c).collect();
            assert_eq!(edges.len(), n as usize + c as usize);
            let (deg, dist, crc) = model(&edges, n as usize, 2 + c as usize);
            let g = ring_with_chords(seed, n, c).unwrap();
            assert_eq!(&g.degrees[..], &deg[..]);
            assert_eq!(&g.distances_from_0[..], &dist[..]);
            assert_eq!(g.port_table_crc, crc);
            assert_eq!(
                deg.iter().map(|&d| d as u32).sum::<u32>(),
                2 * g.links as u32
            );
        }
    }

    #[test]
    fn graph_limits_are_enforced() {
        for (n, c) in [(2u8, 0u8), (33, 0), (8, 33)] {
            assert_eq!(
                ring_with_chords(0, n, c),
                Err(Rejection::GraphOutOfRange {
                    switches: n,
                    chords: c
                })
            );
        }
    }

    #[test]
    fn handle_checks_the_version_and_dispatches() {
        let mut tables = std::boxed::Box::new(TableService::new());
        let mut req = Request::new(9, Command::Hello);
        let (resp, action) = call(&req, 4, &mut tables);
        assert_eq!(resp.id, 9);
        assert_eq!(
            resp.reply,
            Reply::Hello {
                wire_version: WIRE_VERSION,
                served: 4
            }
        );
        assert_eq!(action, Action::Continue);
        req.version = WIRE_VERSION + 1;
        let (resp, _) = call(&req, 0, &mut tables);
        assert!(matches!(
            resp.reply,
            Reply::Rejected(Rejection::UnsupportedVersion { .. })
        ));
        let (_, action) = call(&Request::new(1, Command::Shutdown), 0, &mut tables);
        assert_eq!(action, Action::Shutdown);
        let (_, action) = call(&Request::new(1, Command::Panic), 0, &mut tables);
        assert_eq!(action, Action::Panic);
    }
}
