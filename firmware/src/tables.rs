//! Route tables computed on the device: builds the requested network from its
//! [`NetworkSpec`], compiles one switch's forwarding table with jumpnet-core into static
//! buffers and serves its canonical image (`image::route_table`) in chunks
//! ([`jumpnet_core::wire::route_table`] describes the request, the chunking and the limits).
//!
//! Per algorithm the device uses the per-switch path of the core, which needs no more than
//! O(switches) scratch:
//!
//! * minimal BFS: `routing::minimal::switch_table` (one BFS per network port);
//! * Dragonfly minimal: `DragonflyMinimal::switch_table`;
//! * the arithmetic routings (torus DOR, e-cube, NAF, greedy, HyperX DOR, D-mod-k):
//!   `routing::tables::compile::switch_table` (first hop of every destination).
//!
//! The host computes the same tables for whole networks (`compile_tables`, `all_tables`);
//! the images must be byte-identical (HIL test `host-cli/tests/qemu_route_table.rs`).

use jumpnet_core::error::CapacityError;
use jumpnet_core::image::device::RoutingAlgorithm;
use jumpnet_core::image::{route_table, ImageError};
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::minimal::{self, SwitchTableBuffers};
use jumpnet_core::routing::tables::compile::{self, VcMode};
use jumpnet_core::routing::{
    CirculantGreedy, CirculantNaf, FatTreeDmodK, HyperXDor, HypercubeEcube, RouteEntry,
    RoutingError, Run, RunTableBuilder, TorusDor, TorusVcs,
};
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::{Network, PortIndex, SwitchId, Topology};

use jumpnet_core::wire::message::Rejection;
use jumpnet_core::wire::route_table::{
    ImageChunk, RouteTableRequest, TableResource, MAX_BFS_SWITCHES, MAX_IMAGE_CHUNK,
    MAX_TABLE_DESTINATIONS, MAX_TABLE_IMAGE_LEN, MAX_TABLE_RUNS,
};

const BFS_LEN: usize = MAX_BFS_SWITCHES as usize;

/// Scratch of minimal BFS routing for up to [`MAX_BFS_SWITCHES`] switches.
#[derive(Debug)]
struct BfsBuffers {
    dist: [u16; BFS_LEN],
    queue: [u32; BFS_LEN],
    best_dist: [u16; BFS_LEN],
    best_port: [PortIndex; BFS_LEN],
}

/// The buffers one table computation needs (runs, image, BFS scratch).
#[derive(Debug)]
pub struct TableStorage {
    runs: [Run<RouteEntry>; MAX_TABLE_RUNS],
    image: [u8; MAX_TABLE_IMAGE_LEN],
    bfs: BfsBuffers,
}

impl Default for TableStorage {
    fn default() -> Self {
        Self::new()
    }
}

impl TableStorage {
    /// Zeroed buffers (a `const fn`, so the device can place them in `.bss`).
    pub const fn new() -> Self {
        TableStorage {
            runs: [Run {
                first: 0,
                value: RouteEntry { port: 0, vc: 0 },
            }; MAX_TABLE_RUNS],
            image: [0; MAX_TABLE_IMAGE_LEN],
            bfs: BfsBuffers {
                dist: [0; BFS_LEN],
                queue: [0; BFS_LEN],
                best_dist: [0; BFS_LEN],
                best_port: [0; BFS_LEN],
            },
        }
    }

    /// Computes the forwarding table of `switch` in `network` with `algorithm` and writes its
    /// image; returns the image bytes (a prefix of the storage's image buffer).
    ///
    /// Rejections: [`Rejection::InvalidNetwork`], [`Rejection::SwitchOutOfRange`],
    /// [`Rejection::TableCapacity`] (checked before any computation),
    /// [`Rejection::AlgorithmNotApplicable`], [`Rejection::RoutingFailed`].
    pub fn compute(
        &mut self,
        network: &NetworkSpec,
        algorithm: RoutingAlgorithm,
        switch: SwitchId,
    ) -> Result<&[u8], Rejection> {
        let net = network.build().map_err(|_| Rejection::InvalidNetwork)?;
        let switches = net.num_switches();
        if switch >= switches {
            return Err(Rejection::SwitchOutOfRange { switch, switches });
        }
        let destinations = net.num_terminals();
        if destinations > MAX_TABLE_DESTINATIONS {
            return Err(Rejection::TableCapacity {
                resource: TableResource::Destinations,
                needed: destinations as u64,
                available: MAX_TABLE_DESTINATIONS as u64,
            });
        }
        let mut builder = RunTableBuilder::new(&mut self.runs);
        build_table(&net, algorithm, switch, &mut self.bfs, &mut builder)?;
        let table = builder.finish();
        let len = route_table::encode(switch, &table, &mut self.image).map_err(|e| match e {
            ImageError::BufferTooSmall {
                needed, available, ..
            } => Rejection::TableCapacity {
                resource: TableResource::ImageBytes,
                needed,
                available,
            },
            _ => Rejection::RoutingFailed,
        })?;
        self.image.get(..len).ok_or(Rejection::TableCapacity {
            resource: TableResource::ImageBytes,
            needed: len as u64,
            available: MAX_TABLE_IMAGE_LEN as u64,
        })
    }
}

/// Maps a core error to a rejection; capacity errors name `resource`.
fn rejection(e: RoutingError, resource: TableResource) -> Rejection {
    match e {
        RoutingError::Capacity(CapacityError {
            needed, available, ..
        }) => Rejection::TableCapacity {
            resource,
            needed,
            available,
        },
        RoutingError::SwitchOutOfRange { switch, switches } => {
            Rejection::SwitchOutOfRange { switch, switches }
        }
        _ => Rejection::RoutingFailed,
    }
}

/// Pushes the entries of `switch`'s forwarding table into `out` (see the module docs for
/// the core function used per algorithm).
fn build_table(
    net: &Network<'_>,
    algorithm: RoutingAlgorithm,
    switch: SwitchId,
    bfs: &mut BfsBuffers,
    out: &mut RunTableBuilder<'_, RouteEntry>,
) -> Result<(), Rejection> {
    let not_applicable = Rejection::AlgorithmNotApplicable { algorithm };
    let mode = VcMode::InTable;
    let built = match (algorithm, net) {
        (RoutingAlgorithm::MinimalBfs, _) => {
            let switches = net.num_switches();
            if switches > MAX_BFS_SWITCHES {
                return Err(Rejection::TableCapacity {
                    resource: TableResource::BfsSwitches,
                    needed: switches as u64,
                    available: MAX_BFS_SWITCHES as u64,
                });
            }
            let scratch = SwitchTableBuffers {
                dist: &mut bfs.dist,
                queue: &mut bfs.queue,
                best_dist: &mut bfs.best_dist,
                best_port: &mut bfs.best_port,
            };
            minimal::switch_table(net, switch, scratch, out)
        }
        (RoutingAlgorithm::TorusDor, Network::Torus(t)) => TorusDor::new(t, TorusVcs::Single)
            .and_then(|r| compile::switch_table(t, &r, switch, mode, out)),
        (RoutingAlgorithm::Ecube, Network::Hypercube(c)) => {
            compile::switch_table(c, &HypercubeEcube::new(c), switch, mode, out)
        }
        (RoutingAlgorithm::CirculantNaf, Network::Circulant(c)) => {
            let r = CirculantNaf::new(c).map_err(|_| not_applicable)?;
            compile::switch_table(c, &r, switch, mode, out)
        }
        (RoutingAlgorithm::CirculantGreedy, Network::Circulant(c)) => {
            compile::switch_table(c, &CirculantGreedy::new(c), switch, mode, out)
        }
        (RoutingAlgorithm::HyperXDor, Network::HyperX(h)) => {
            compile::switch_table(h, &HyperXDor::new(h), switch, mode, out)
        }
        (RoutingAlgorithm::FatTreeDmodK, Network::FatTree(t)) => {
            compile::switch_table(t, &FatTreeDmodK::new(t), switch, mode, out)
        }
        (RoutingAlgorithm::DragonflyMinimal, Network::Dragonfly(df)) => {
            DragonflyMinimal::new(df, MinimalVcs::Single).switch_table(switch, out)
        }
        _ => return Err(not_applicable),
    };
    built.map_err(|e| rejection(e, TableResource::Runs))
}

/// Bytes of the postcard key (network, algorithm, switch) of the held image: enough for
/// every [`NetworkSpec`] (the largest key, a circulant with 32 jumps of 5-byte varints,
/// takes 173 bytes).
const KEY_CAPACITY: usize = 192;

/// The postcard bytes of (network, algorithm, switch) of `req`: postcard is canonical for
/// these types, so equal keys mean equal requests. `None` if they do not fit (never for
/// valid specs; such requests are simply recomputed every time).
fn image_key<'b>(req: &RouteTableRequest, buf: &'b mut [u8; KEY_CAPACITY]) -> Option<&'b [u8]> {
    postcard::to_slice(&(&req.network, req.algorithm, req.switch), buf)
        .ok()
        .map(|k| &*k)
}

/// Answers [`RouteTableRequest`]s: computes the image of the requested table once and serves
/// its chunks until another table is requested.
///
/// Every field starts as zero bytes, so a `static` of it (or of a [`crate::serve::Server`]
/// holding it) lands in `.bss`, not in flash.
#[derive(Debug)]
pub struct TableService {
    storage: TableStorage,
    /// Key of the held image ([`image_key`]); `key_len == 0`: no image held.
    key: [u8; KEY_CAPACITY],
    key_len: usize,
    image_len: usize,
    computations: u32,
}

impl Default for TableService {
    fn default() -> Self {
        Self::new()
    }
}

impl TableService {
    /// A service holding no image (a `const fn`: the device places it in static memory).
    pub const fn new() -> Self {
        TableService {
            storage: TableStorage::new(),
            key: [0; KEY_CAPACITY],
            key_len: 0,
            image_len: 0,
            computations: 0,
        }
    }

    /// Tables computed so far (requests for chunks of the held image compute nothing).
    pub fn computations(&self) -> u32 {
        self.computations
    }

    /// Answers one request with the chunk of the image at `req.offset` (at most
    /// `min(req.max_len, MAX_IMAGE_CHUNK)` bytes), computing the image first unless it is
    /// the one held.
    pub fn serve(&mut self, req: &RouteTableRequest) -> Result<ImageChunk, Rejection> {
        let mut buf = [0u8; KEY_CAPACITY];
        let key = image_key(req, &mut buf);
        let held = self.key.get(..self.key_len).filter(|k| !k.is_empty());
        if key.is_none() || held != key {
            self.key_len = 0;
            self.computations = self.computations.saturating_add(1);
            self.image_len = self
                .storage
                .compute(&req.network, req.algorithm, req.switch)?
                .len();
            if let Some(k) = key {
                if let Some(slot) = self.key.get_mut(..k.len()) {
                    slot.copy_from_slice(k);
                    self.key_len = k.len();
                }
            }
        }
        let image = self.storage.image.get(..self.image_len).unwrap_or(&[]);
        chunk(image, req.offset, req.max_len)
    }
}

/// Bytes `offset ..` of `image`, at most `min(max_len, MAX_IMAGE_CHUNK)` of them.
fn chunk(image: &[u8], offset: u32, max_len: u16) -> Result<ImageChunk, Rejection> {
    let image_len = image.len() as u32;
    let out_of_range = Rejection::ChunkOutOfRange { offset, image_len };
    let rest = image.get(offset as usize..).ok_or(out_of_range)?;
    let len = rest.len().min(max_len as usize).min(MAX_IMAGE_CHUNK);
    let bytes = rest
        .get(..len)
        .and_then(|b| heapless::Vec::from_slice(b).ok())
        .ok_or(out_of_range)?;
    Ok(ImageChunk {
        image_len,
        offset,
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jumpnet_core::image::route_table::decode;
    use jumpnet_core::routing::{Hop, PacketState, Routing};
    use jumpnet_core::topology::Torus;
    use std::boxed::Box;
    use std::vec;
    use std::vec::Vec;

    fn request(
        network: NetworkSpec,
        algorithm: RoutingAlgorithm,
        switch: u32,
    ) -> RouteTableRequest {
        RouteTableRequest {
            network,
            algorithm,
            switch,
            offset: 0,
            max_len: u16::MAX,
        }
    }

    /// Reads a whole image chunk by chunk, checking the chunk headers.
    fn fetch(tables: &mut TableService, req: &RouteTableRequest, max_len: u16) -> Vec<u8> {
        let mut image = Vec::new();
        loop {
            let mut r = req.clone();
            r.offset = image.len() as u32;
            r.max_len = max_len;
            let c = tables.serve(&r).unwrap();
            assert_eq!(c.offset, r.offset);
            assert!(c.bytes.len() <= (max_len as usize).min(MAX_IMAGE_CHUNK));
            image.extend_from_slice(&c.bytes);
            if image.len() == c.image_len as usize {
                return image;
            }
            assert!(!c.bytes.is_empty(), "no progress at offset {}", r.offset);
        }
    }

    #[test]
    fn chunks_assemble_the_image_computed_once() {
        let mut tables = Box::new(TableService::new());
        let torus = NetworkSpec::torus(&[8, 8], 1).unwrap();
        let req = request(torus.clone(), RoutingAlgorithm::TorusDor, 9);
        let whole = fetch(&mut tables, &req, u16::MAX);
        assert_eq!(tables.computations(), 1);
        for max_len in [1u16, 7, 100] {
            assert_eq!(fetch(&mut tables, &req, max_len), whole);
        }
        assert_eq!(tables.computations(), 1, "chunks of the held image");
        let other = request(torus, RoutingAlgorithm::TorusDor, 10);
        assert_ne!(fetch(&mut tables, &other, u16::MAX), whole);
        assert_eq!(fetch(&mut tables, &req, u16::MAX), whole);
        assert_eq!(tables.computations(), 3, "a new switch recomputes");

        // The image decodes to DOR's first hops (ports only, VC 0).
        let t = Torus::torus(&[8, 8], 1).unwrap();
        let dor = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
        let mut runs = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            64
        ];
        let decoded = decode::<RouteEntry>(&whole, &mut runs).unwrap();
        assert_eq!(decoded.switch, 9);
        assert_eq!(decoded.table.len(), 64);
        for d in 0..64 {
            let port = match dor.next_hop(9, &mut PacketState::new(9), d).unwrap() {
                Hop::Forward { port, .. } | Hop::Eject { port } => port,
            };
            assert_eq!(decoded.table.lookup(d), Some(RouteEntry { port, vc: 0 }));
        }

        // Offsets at and beyond the end.
        let mut end = req.clone();
        end.offset = whole.len() as u32;
        let c = tables.serve(&end).unwrap();
        assert!(c.bytes.is_empty());
        end.offset += 1;
        assert_eq!(
            tables.serve(&end),
            Err(Rejection::ChunkOutOfRange {
                offset: whole.len() as u32 + 1,
                image_len: whole.len() as u32
            })
        );
    }

    #[test]
    fn the_largest_request_has_a_key() {
        use jumpnet_core::topology::circulant::MAX_JUMPS;
        let mut jumps = heapless::Vec::new();
        jumps.resize(MAX_JUMPS, u32::MAX).unwrap();
        let req = request(
            NetworkSpec::Circulant { n: u32::MAX, jumps },
            RoutingAlgorithm::DragonflyMinimal,
            u32::MAX,
        );
        let mut buf = [0u8; KEY_CAPACITY];
        assert_eq!(
            image_key(&req, &mut buf).map(<[u8]>::len),
            Some(1 + 5 + 1 + 32 * 5 + 1 + 5)
        );
    }

    #[test]
    fn requests_beyond_the_device_are_rejected_before_computing() {
        let mut tables = Box::new(TableService::new());
        let big = request(
            NetworkSpec::CirculantG { n: 8192 },
            RoutingAlgorithm::CirculantNaf,
            0,
        );
        assert_eq!(
            tables.serve(&big),
            Err(Rejection::TableCapacity {
                resource: TableResource::Destinations,
                needed: 8192,
                available: MAX_TABLE_DESTINATIONS as u64
            })
        );
        // 8192 switches without terminals: fine for e-cube, too many for the BFS scratch.
        let cube = NetworkSpec::Hypercube {
            dim: 13,
            terminals_per_switch: 0,
        };
        assert!(tables
            .serve(&request(cube.clone(), RoutingAlgorithm::Ecube, 5))
            .is_ok());
        assert_eq!(
            tables.serve(&request(cube, RoutingAlgorithm::MinimalBfs, 5)),
            Err(Rejection::TableCapacity {
                resource: TableResource::BfsSwitches,
                needed: 8192,
                available: MAX_BFS_SWITCHES as u64
            })
        );
        // The largest table fits: 4096 destinations, one run each at worst.
        let g = request(
            NetworkSpec::CirculantG { n: 4096 },
            RoutingAlgorithm::CirculantNaf,
            4095,
        );
        let image = fetch(&mut tables, &g, u16::MAX);
        let mut runs = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            4096
        ];
        assert_eq!(
            decode::<RouteEntry>(&image, &mut runs).unwrap().table.len(),
            4096
        );
    }

    #[test]
    fn wrong_algorithm_network_and_switch_are_rejected() {
        let mut tables = Box::new(TableService::new());
        let torus = NetworkSpec::torus(&[4, 4], 1).unwrap();
        for (network, algorithm) in [
            (torus.clone(), RoutingAlgorithm::Ecube),
            (torus.clone(), RoutingAlgorithm::DragonflyMinimal),
            (
                NetworkSpec::circulant(16, &[1, 3]).unwrap(),
                RoutingAlgorithm::CirculantNaf,
            ),
            (
                NetworkSpec::FatTree { k: 2, n: 2 },
                RoutingAlgorithm::TorusDor,
            ),
        ] {
            assert_eq!(
                tables.serve(&request(network, algorithm, 0)),
                Err(Rejection::AlgorithmNotApplicable { algorithm })
            );
        }
        assert_eq!(
            tables.serve(&request(
                NetworkSpec::CirculantG { n: 12 },
                RoutingAlgorithm::MinimalBfs,
                0
            )),
            Err(Rejection::InvalidNetwork)
        );
        assert_eq!(
            tables.serve(&request(torus.clone(), RoutingAlgorithm::TorusDor, 16)),
            Err(Rejection::SwitchOutOfRange {
                switch: 16,
                switches: 16
            })
        );
        // A failed request leaves no image behind: chunks are recomputed, not stale.
        let ok = request(torus, RoutingAlgorithm::MinimalBfs, 3);
        let before = tables.computations();
        fetch(&mut tables, &ok, u16::MAX);
        assert_eq!(tables.computations(), before + 1);
    }
}
