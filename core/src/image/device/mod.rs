//! Device images: everything one device (a switch with its terminals' NICs) holds, in the
//! shared framing ([`super::frame`]), kind [`ImageKind::Device`] (code 4).
//!
//! Payload layout (postcard: unsigned integers wider than a byte are LEB128 varints, enum
//! variants a varint index followed by their fields, `u8` one raw byte, `Option` a byte 0/1
//! followed by the value):
//!
//! ```text
//! header
//!   varint switch              the switch this device is
//!   NetworkSpec                topology::spec::NetworkSpec (postcard, variant index first)
//!   varint algorithm           RoutingAlgorithm index (0 minimal … 7 df-minimal, 8 precomputed)
//!   capacities                 what the device must hold (exact counts of what follows):
//!     varint destinations      destinations of the route table
//!     varint runs              runs of the route table
//!     varint programs          programs that follow
//!     varint ops               ops of all programs together
//! runs × (varint first, varint port, u8 vc)        the switch's route table, canonical runs
//! programs × (varint collective, varint terminal, varint rank, varint ranks, varint ops)
//! ops × postcard(Op)                               every program's ops, in program order
//! ```
//!
//! Decoding is in place into caller buffers ([`DeviceBuffers`]), without allocation. After the
//! framing checks ([`frame::parse`]) it checks, in this order: the header decodes
//! ([`ImageError::Malformed`]); the capacities fit the buffers ([`ImageError::OverCapacity`],
//! before any run or op is read); the declared counts are possible for the payload size; every
//! run decodes and the runs are canonical (first at 0, strictly increasing starts below
//! `destinations`, neighbours differ); every program header decodes, its rank is below its
//! rank count ([`ImageError::RankOutOfRange`]) and the program op counts add up to `ops`;
//! every op decodes and names peers in range, not itself, and earlier dependencies (the
//! checks of [`super::program`], op indices local to their program); no byte is left over.
//! [`verify`] makes every one of these checks without storing anything, so a device can
//! check a new image before it overwrites the decoded state of the active one.
//! Nothing here panics on any input.
//!
//! # Examples
//!
//! ```
//! use jumpnet_core::collective::{Blocks, Dep, Op, RecursiveDoubling, Schedule};
//! use jumpnet_core::image::device::{
//!     self, Capacities, DeviceBuffers, DeviceContent, ProgramEntry, RoutingAlgorithm,
//! };
//! use jumpnet_core::routing::{RouteEntry, Run, RunTableBuilder};
//! use jumpnet_core::topology::spec::NetworkSpec;
//!
//! // Switch 1 of a 4-ring: port 0 towards lower, port 1 towards higher switches.
//! let network = NetworkSpec::Ring { n: 4 };
//! let mut runs = [Run { first: 0, value: RouteEntry::NONE }; 4];
//! let mut builder = RunTableBuilder::new(&mut runs);
//! for port in [0, 2, 1, 1] {
//!     builder.push(RouteEntry { port, vc: 0 })?;
//! }
//! let table = builder.finish();
//! // Its terminal is rank 1 of a 4-rank recursive-doubling allreduce.
//! let rd = RecursiveDoubling::new(4, 64).expect("4 ranks");
//! let blank = Op::Send { peer: 0, blocks: Blocks::All, after: Dep::None };
//! let mut ops = [blank; 8];
//! let n = rd.program(1, &mut ops)?;
//! let programs = [ProgramEntry { collective: 0, terminal: 1, rank: 1, ranks: 4, ops: n as u32 }];
//! let content = DeviceContent {
//!     switch: 1,
//!     network: &network,
//!     algorithm: RoutingAlgorithm::CirculantGreedy,
//!     table,
//!     programs: &programs,
//!     ops: &ops[..n],
//! };
//! let mut image = [0u8; 256];
//! let len = device::encode(&content, &mut image)?;
//!
//! let (mut r, mut p, mut o) = ([runs[0]; 4], [programs[0]; 2], [blank; 8]);
//! let decoded = device::decode(&image[..len], DeviceBuffers { runs: &mut r, programs: &mut p, ops: &mut o })?;
//! assert_eq!(decoded.header.switch, 1);
//! assert_eq!(decoded.header.capacities, Capacities { destinations: 4, runs: 3, programs: 1, ops: n as u32 });
//! assert_eq!(decoded.table.lookup(1), Some(RouteEntry { port: 2, vc: 0 }));
//! assert_eq!(decoded.program(0).map(|(_, ops)| ops), Some(&ops[..n]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::collective::program::Op;
use crate::routing::tables::run_table::{RouteEntry, Run, RunTable};
use crate::topology::spec::NetworkSpec;
use crate::topology::SwitchId;

use super::error::ImageError;
use super::frame::{self, ImageKind, OVERHEAD};
use super::program::check_op;

/// The routing algorithm the device's table was computed with (spec/routing.md); recorded so
/// a device can report it and recompute or cross-check its table. `Precomputed` is a table
/// the host computed with an algorithm the device cannot run itself (e.g. DFSSSP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoutingAlgorithm {
    /// Minimal BFS routing, lowest port on ties (§1).
    MinimalBfs,
    /// Dimension-order routing on a torus or mesh (§2).
    TorusDor,
    /// E-cube routing on a hypercube (§2).
    Ecube,
    /// NAF routing on `G(n, log2 n)` (§3).
    CirculantNaf,
    /// Greedy largest-jump routing on a circulant (§3).
    CirculantGreedy,
    /// Dimension-order routing on a HyperX (§2).
    HyperXDor,
    /// D-mod-k routing on a fat tree (§5).
    FatTreeDmodK,
    /// Dragonfly minimal routing (§4).
    DragonflyMinimal,
    /// A table computed on the host by another algorithm.
    Precomputed,
}

impl RoutingAlgorithm {
    /// Every algorithm, in encoding order.
    pub const ALL: [RoutingAlgorithm; 9] = [
        RoutingAlgorithm::MinimalBfs,
        RoutingAlgorithm::TorusDor,
        RoutingAlgorithm::Ecube,
        RoutingAlgorithm::CirculantNaf,
        RoutingAlgorithm::CirculantGreedy,
        RoutingAlgorithm::HyperXDor,
        RoutingAlgorithm::FatTreeDmodK,
        RoutingAlgorithm::DragonflyMinimal,
        RoutingAlgorithm::Precomputed,
    ];

    /// Short lower-case name, as the host CLI spells it.
    pub const fn name(self) -> &'static str {
        match self {
            RoutingAlgorithm::MinimalBfs => "minimal",
            RoutingAlgorithm::TorusDor => "dor",
            RoutingAlgorithm::Ecube => "ecube",
            RoutingAlgorithm::CirculantNaf => "naf",
            RoutingAlgorithm::CirculantGreedy => "greedy",
            RoutingAlgorithm::HyperXDor => "hyperx-dor",
            RoutingAlgorithm::FatTreeDmodK => "dmodk",
            RoutingAlgorithm::DragonflyMinimal => "df-minimal",
            RoutingAlgorithm::Precomputed => "precomputed",
        }
    }
}

impl core::fmt::Display for RoutingAlgorithm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a device must hold for an image: exact counts of the image's content, stored in its
/// header so a device rejects an image it cannot hold before decoding it. As a device's
/// limits (the lengths of its [`DeviceBuffers`]) the same struct says what it can hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Capacities {
    /// Destinations (terminals) of the route table.
    pub destinations: u32,
    /// Runs of the route table.
    pub runs: u32,
    /// Programs (collectives of the switch's terminals).
    pub programs: u32,
    /// Ops of all programs together.
    pub ops: u32,
}

/// One program of a device image: which collective, which terminal, which rank, how many ops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProgramEntry {
    /// The host's number of the collective (several collectives per terminal).
    pub collective: u32,
    /// Terminal (NIC) of the switch that runs the program.
    pub terminal: u32,
    /// Rank of the program in its collective.
    pub rank: u32,
    /// Ranks of the collective.
    pub ranks: u32,
    /// Number of ops (they follow the previous programs' ops).
    pub ops: u32,
}

/// The header of a device image.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeviceHeader {
    /// The switch this device is.
    pub switch: SwitchId,
    /// The network the device is part of.
    pub network: NetworkSpec,
    /// The algorithm the table was computed with.
    pub algorithm: RoutingAlgorithm,
    /// Exact counts of what the image holds.
    pub capacities: Capacities,
}

/// What [`encode`] writes: borrowed parts of a device's content.
#[derive(Clone, Copy, Debug)]
pub struct DeviceContent<'a> {
    /// The switch this device is.
    pub switch: SwitchId,
    /// The network.
    pub network: &'a NetworkSpec,
    /// Algorithm of the table.
    pub algorithm: RoutingAlgorithm,
    /// The switch's route table.
    pub table: RunTable<'a, RouteEntry>,
    /// The programs, in order.
    pub programs: &'a [ProgramEntry],
    /// All programs' ops, concatenated in program order.
    pub ops: &'a [Op],
}

/// Caller buffers a device image decodes into; their lengths are the device's capacities.
#[derive(Debug)]
pub struct DeviceBuffers<'a> {
    /// Route-table runs.
    pub runs: &'a mut [Run<RouteEntry>],
    /// Program entries.
    pub programs: &'a mut [ProgramEntry],
    /// Ops of all programs.
    pub ops: &'a mut [Op],
}

impl DeviceBuffers<'_> {
    /// The capacities these buffers give (destinations are unbounded: a table of few runs
    /// may cover any number of destinations).
    pub fn capacities(&self) -> Capacities {
        Capacities {
            destinations: u32::MAX,
            runs: len_u32(self.runs.len()),
            programs: len_u32(self.programs.len()),
            ops: len_u32(self.ops.len()),
        }
    }
}

fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A decoded device image (header owned, table and programs in the caller's buffers).
#[derive(Clone, Debug)]
pub struct DeviceImage<'a> {
    /// The header.
    pub header: DeviceHeader,
    /// The switch's route table.
    pub table: RunTable<'a, RouteEntry>,
    /// The programs.
    pub programs: &'a [ProgramEntry],
    /// All programs' ops.
    pub ops: &'a [Op],
}

impl<'a> DeviceImage<'a> {
    /// Program `index` and its ops.
    pub fn program(&self, index: usize) -> Option<(&'a ProgramEntry, &'a [Op])> {
        program_ops(self.programs, self.ops, index)
    }
}

/// Program `index` of `programs` and its slice of `ops` (ops concatenated in program order).
pub fn program_ops<'a>(
    programs: &'a [ProgramEntry],
    ops: &'a [Op],
    index: usize,
) -> Option<(&'a ProgramEntry, &'a [Op])> {
    let entry = programs.get(index)?;
    let first: usize = programs.get(..index)?.iter().map(|p| p.ops as usize).sum();
    let slice = ops.get(first..first.checked_add(entry.ops as usize)?)?;
    Some((entry, slice))
}

/// Largest encoding of a [`NetworkSpec`]: variant index, and at most 33 five-byte varints
/// (a circulant's 32 jumps and its size, the largest variant).
pub const MAX_NETWORK_LEN: usize = 1 + 33 * 5 + 1;

/// Upper bound on the image length of a device image with `runs` runs, `programs` programs
/// and `ops` ops: framing, switch 5, network [`MAX_NETWORK_LEN`], algorithm 1, capacities
/// 4 × 5, per run 9 bytes, per program 25 bytes, per op 33 bytes. A `const fn`, so devices
/// can size their image buffers with it.
pub const fn max_image_len(runs: usize, programs: usize, ops: usize) -> usize {
    OVERHEAD + 5 + MAX_NETWORK_LEN + 1 + 20 + runs * 9 + programs * 25 + ops * 33
}

/// Writes the device image of `content` into `out`; returns the image length. The content is
/// checked as decoding would check it (program ranks and ops, op counts), so every image
/// written decodes; a too small `out` is [`ImageError::BufferTooSmall`] (size it with
/// [`max_image_len`]).
pub fn encode(content: &DeviceContent<'_>, out: &mut [u8]) -> Result<usize, ImageError> {
    let total: u64 = content.programs.iter().map(|p| p.ops as u64).sum();
    if total != content.ops.len() as u64 {
        return Err(malformed("program op counts do not add up to the ops"));
    }
    let mut first = 0usize;
    for p in content.programs {
        if p.rank >= p.ranks {
            return Err(ImageError::RankOutOfRange {
                rank: p.rank,
                ranks: p.ranks,
            });
        }
        let ops = content
            .ops
            .get(first..first + p.ops as usize)
            .unwrap_or(&[]);
        for (i, op) in ops.iter().enumerate() {
            check_op(i as u32, op, p.rank, p.ranks)?;
        }
        first += p.ops as usize;
    }
    let header = DeviceHeader {
        switch: content.switch,
        network: content.network.clone(),
        algorithm: content.algorithm,
        capacities: Capacities {
            destinations: content.table.len(),
            runs: len_u32(content.table.runs().len()),
            programs: len_u32(content.programs.len()),
            ops: len_u32(content.ops.len()),
        },
    };
    let needed = max_image_len(
        content.table.runs().len(),
        content.programs.len(),
        content.ops.len(),
    );
    frame::encode(ImageKind::Device, out, needed, |payload| {
        let mut pos = 0;
        frame::put(payload, &mut pos, &header)?;
        for run in content.table.runs() {
            frame::put(payload, &mut pos, run)?;
        }
        for p in content.programs {
            frame::put(payload, &mut pos, &Wire::from(p))?;
        }
        for op in content.ops {
            frame::put(payload, &mut pos, op)?;
        }
        Some(pos)
    })
}

/// Program header as written (without `Default` and with field order fixed here).
#[derive(Serialize, Deserialize)]
struct Wire {
    collective: u32,
    terminal: u32,
    rank: u32,
    ranks: u32,
    ops: u32,
}

impl From<&ProgramEntry> for Wire {
    fn from(p: &ProgramEntry) -> Self {
        Wire {
            collective: p.collective,
            terminal: p.terminal,
            rank: p.rank,
            ranks: p.ranks,
            ops: p.ops,
        }
    }
}

fn malformed(what: &'static str) -> ImageError {
    ImageError::Malformed {
        kind: ImageKind::Device,
        what,
    }
}

/// Checks `needed` of `what` against `capacity`.
fn fits(what: &'static str, needed: u32, capacity: u32) -> Result<(), ImageError> {
    if needed > capacity {
        return Err(ImageError::OverCapacity {
            what,
            needed: needed as u64,
            capacity: capacity as u64,
        });
    }
    Ok(())
}

/// Where decoded items go: the caller's buffers, or nowhere ([`verify`]).
trait Sink {
    fn run(&mut self, i: usize, run: Run<RouteEntry>);
    fn program(&mut self, i: usize, p: ProgramEntry);
    fn op(&mut self, i: usize, op: Op);
}

struct Discard;

impl Sink for Discard {
    fn run(&mut self, _: usize, _: Run<RouteEntry>) {}
    fn program(&mut self, _: usize, _: ProgramEntry) {}
    fn op(&mut self, _: usize, _: Op) {}
}

impl Sink for DeviceBuffers<'_> {
    fn run(&mut self, i: usize, run: Run<RouteEntry>) {
        if let Some(slot) = self.runs.get_mut(i) {
            *slot = run;
        }
    }
    fn program(&mut self, i: usize, p: ProgramEntry) {
        if let Some(slot) = self.programs.get_mut(i) {
            *slot = p;
        }
    }
    fn op(&mut self, i: usize, op: Op) {
        if let Some(slot) = self.ops.get_mut(i) {
            *slot = op;
        }
    }
}

/// Every check of the module docs over `bytes`, handing decoded items to `sink`; returns
/// the header.
fn walk(
    bytes: &[u8],
    limits: Capacities,
    sink: &mut impl Sink,
) -> Result<DeviceHeader, ImageError> {
    let payload = frame::payload_of(bytes, ImageKind::Device)?;
    let (header, mut rest) = postcard::take_from_bytes::<DeviceHeader>(payload)
        .map_err(|_| malformed("device header does not decode"))?;
    let caps = header.capacities;
    fits("destinations", caps.destinations, limits.destinations)?;
    fits("table runs", caps.runs, limits.runs)?;
    fits("programs", caps.programs, limits.programs)?;
    fits("program ops", caps.ops, limits.ops)?;
    // Runs take at least 3 bytes, program headers 5, ops 4.
    let least = caps.runs as u64 * 3 + caps.programs as u64 * 5 + caps.ops as u64 * 4;
    if least > rest.len() as u64 {
        return Err(malformed("declared counts larger than the payload"));
    }
    if (caps.destinations == 0) != (caps.runs == 0) {
        return Err(malformed("runs are not in canonical form"));
    }
    let mut prev: Option<Run<RouteEntry>> = None;
    for i in 0..caps.runs as usize {
        let (run, r) = postcard::take_from_bytes::<Run<RouteEntry>>(rest)
            .map_err(|_| malformed("run does not decode"))?;
        let canonical = match prev {
            None => run.first == 0,
            Some(p) => run.first > p.first && run.value != p.value,
        };
        if !canonical || run.first >= caps.destinations {
            return Err(malformed("runs are not in canonical form"));
        }
        prev = Some(run);
        sink.run(i, run);
        rest = r;
    }
    let program_bytes = rest;
    let mut total = 0u64;
    for i in 0..caps.programs as usize {
        let (w, r) = postcard::take_from_bytes::<Wire>(rest)
            .map_err(|_| malformed("program header does not decode"))?;
        if w.rank >= w.ranks {
            return Err(ImageError::RankOutOfRange {
                rank: w.rank,
                ranks: w.ranks,
            });
        }
        total += w.ops as u64;
        sink.program(
            i,
            ProgramEntry {
                collective: w.collective,
                terminal: w.terminal,
                rank: w.rank,
                ranks: w.ranks,
                ops: w.ops,
            },
        );
        rest = r;
    }
    if total != caps.ops as u64 {
        return Err(malformed("program op counts do not add up to the ops"));
    }
    // Second pass over the program headers (already checked) to know each op's program.
    let mut headers = program_bytes;
    let mut op_index = 0usize;
    for _ in 0..caps.programs {
        let (w, r) = postcard::take_from_bytes::<Wire>(headers)
            .map_err(|_| malformed("program header does not decode"))?;
        headers = r;
        for local in 0..w.ops {
            let (op, r) = postcard::take_from_bytes::<Op>(rest)
                .map_err(|_| malformed("op does not decode"))?;
            check_op(local, &op, w.rank, w.ranks)?;
            sink.op(op_index, op);
            op_index += 1;
            rest = r;
        }
    }
    if !rest.is_empty() {
        return Err(malformed("trailing bytes after the last op"));
    }
    Ok(header)
}

/// Checks a device image completely (module docs) against the capacities `limits` without
/// storing anything; returns its header. A device calls this on a newly loaded image before
/// it lets [`decode`] overwrite the buffers of the active one.
pub fn verify(bytes: &[u8], limits: Capacities) -> Result<DeviceHeader, ImageError> {
    walk(bytes, limits, &mut Discard)
}

/// Decodes a device image into `buffers` (module docs for the checks); an image needing more
/// than the buffers hold is [`ImageError::OverCapacity`], detected before any buffer is
/// written. On an error the buffers may hold part of the image: [`verify`] first to keep a
/// previous decoded image intact.
pub fn decode<'a>(
    bytes: &[u8],
    mut buffers: DeviceBuffers<'a>,
) -> Result<DeviceImage<'a>, ImageError> {
    let limits = buffers.capacities();
    let header = walk(bytes, limits, &mut buffers)?;
    let caps = header.capacities;
    let DeviceBuffers {
        runs,
        programs,
        ops,
    } = buffers;
    let runs: &'a [Run<RouteEntry>] = runs;
    let table = RunTable::new(
        runs.get(..caps.runs as usize).unwrap_or(&[]),
        caps.destinations,
    )
    .map_err(|_| malformed("runs are not in canonical form"))?;
    let programs: &'a [ProgramEntry] = programs;
    let ops: &'a [Op] = ops;
    Ok(DeviceImage {
        table,
        programs: programs.get(..caps.programs as usize).unwrap_or(&[]),
        ops: ops.get(..caps.ops as usize).unwrap_or(&[]),
        header,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::collective::{Blocks, Dep, RecursiveDoubling, Schedule};
    use crate::image::crc32::crc32;
    use crate::image::frame::{CRC_LEN, HEADER_LEN};
    use crate::routing::tables::run_table::RunTableBuilder;
    use std::vec;
    use std::vec::Vec;

    const BLANK: Op = Op::Permute {
        reflect: false,
        shift: 0,
        after: Dep::None,
    };

    /// Switch 2 of a 4-ring: table `[1, 1, 2, 0]` (3 runs), rank 2 of a 4-rank
    /// recursive-doubling allreduce (collective 7) and a one-op program (collective 9).
    struct Sample {
        network: NetworkSpec,
        runs: Vec<Run<RouteEntry>>,
        programs: Vec<ProgramEntry>,
        ops: Vec<Op>,
    }

    fn sample() -> Sample {
        let mut runs = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            4
        ];
        let mut b = RunTableBuilder::new(&mut runs);
        for port in [1, 1, 2, 0] {
            b.push(RouteEntry { port, vc: 0 }).unwrap();
        }
        let n = b.finish().runs().len();
        runs.truncate(n);
        let rd = RecursiveDoubling::new(4, 64).unwrap();
        let mut ops = vec![BLANK; rd.program_len(2)];
        let k = rd.program(2, &mut ops).unwrap();
        ops.truncate(k);
        ops.push(Op::Send {
            peer: 0,
            blocks: Blocks::Single(3),
            after: Dep::None,
        });
        let programs = vec![
            ProgramEntry {
                collective: 7,
                terminal: 2,
                rank: 2,
                ranks: 4,
                ops: k as u32,
            },
            ProgramEntry {
                collective: 9,
                terminal: 2,
                rank: 1,
                ranks: 2,
                ops: 1,
            },
        ];
        Sample {
            network: NetworkSpec::Ring { n: 4 },
            runs,
            programs,
            ops,
        }
    }

    fn image_of(s: &Sample) -> Vec<u8> {
        let content = DeviceContent {
            switch: 2,
            network: &s.network,
            algorithm: RoutingAlgorithm::CirculantGreedy,
            table: RunTable::new(&s.runs, 4).unwrap(),
            programs: &s.programs,
            ops: &s.ops,
        };
        let mut out = vec![0u8; max_image_len(s.runs.len(), s.programs.len(), s.ops.len())];
        let n = encode(&content, &mut out).unwrap();
        out.truncate(n);
        out
    }

    struct Bufs {
        runs: Vec<Run<RouteEntry>>,
        programs: Vec<ProgramEntry>,
        ops: Vec<Op>,
    }

    fn bufs(runs: usize, programs: usize, ops: usize) -> Bufs {
        Bufs {
            runs: vec![
                Run {
                    first: 0,
                    value: RouteEntry::NONE
                };
                runs
            ],
            programs: vec![ProgramEntry::default(); programs],
            ops: vec![BLANK; ops],
        }
    }

    impl Bufs {
        fn decode<'a>(&'a mut self, bytes: &[u8]) -> Result<DeviceImage<'a>, ImageError> {
            decode(
                bytes,
                DeviceBuffers {
                    runs: &mut self.runs,
                    programs: &mut self.programs,
                    ops: &mut self.ops,
                },
            )
        }
    }

    #[test]
    fn image_bytes_are_the_documented_layout() {
        let s = sample();
        let img = image_of(&s);
        let mut payload: Vec<u8> = vec![
            2, // switch 2
            0, 4, // NetworkSpec::Ring (variant 0), n = 4
            4, // RoutingAlgorithm::CirculantGreedy (index 4)
            4, 3, 2, 5, // capacities: 4 destinations, 3 runs, 2 programs, 5 ops
            0, 1, 0, // run: first 0, port 1, vc 0
            2, 2, 0, // run: first 2, port 2, vc 0
            3, 0, 0, // run: first 3, port 0, vc 0
            7, 2, 2, 4, 4, // program: collective 7, terminal 2, rank 2 of 4, 4 ops
            9, 2, 1, 2, 1, // program: collective 9, terminal 2, rank 1 of 2, 1 op
        ];
        let mut op_bytes = [0u8; 64];
        for op in &s.ops {
            payload.extend_from_slice(postcard::to_slice(op, &mut op_bytes).unwrap());
        }
        let mut head = vec![b'J', b'N', b'I', b'M', 2, 4];
        head.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        head.extend_from_slice(&payload);
        assert_eq!(&img[..img.len() - CRC_LEN], &head[..]);
        assert_eq!(&img[img.len() - CRC_LEN..], &crc32(&head).to_le_bytes());
        assert_eq!(img.len(), 14 + payload.len());
        // The send of the second program: variant 0, peer 0, Blocks::Single (1) 3, Dep::None (0).
        assert_eq!(&payload[payload.len() - 5..], &[0, 0, 1, 3, 0]);
    }

    #[test]
    fn round_trip_decodes_and_verifies() {
        let s = sample();
        let img = image_of(&s);
        let mut b = bufs(3, 2, 5);
        let d = b.decode(&img).unwrap();
        let header = DeviceHeader {
            switch: 2,
            network: NetworkSpec::Ring { n: 4 },
            algorithm: RoutingAlgorithm::CirculantGreedy,
            capacities: Capacities {
                destinations: 4,
                runs: 3,
                programs: 2,
                ops: 5,
            },
        };
        assert_eq!(d.header, header);
        assert_eq!(d.table.runs(), &s.runs[..]);
        assert_eq!(d.programs, &s.programs[..]);
        assert_eq!(d.ops, &s.ops[..]);
        assert_eq!(d.program(0), Some((&s.programs[0], &s.ops[..4])));
        assert_eq!(d.program(1), Some((&s.programs[1], &s.ops[4..])));
        assert_eq!(d.program(2), None);
        assert_eq!(d.table.lookup(2), Some(RouteEntry { port: 2, vc: 0 }));
        assert_eq!(verify(&img, b_caps(3, 2, 5)), Ok(header));
        // Re-encoding the decoded image gives the same bytes.
        let d = b.decode(&img).unwrap();
        let again = DeviceContent {
            switch: d.header.switch,
            network: &d.header.network,
            algorithm: d.header.algorithm,
            table: d.table,
            programs: d.programs,
            ops: d.ops,
        };
        let mut out = vec![0u8; img.len()];
        assert_eq!(encode(&again, &mut out), Ok(img.len()));
        assert_eq!(out, img);
    }

    fn b_caps(runs: u32, programs: u32, ops: u32) -> Capacities {
        Capacities {
            destinations: u32::MAX,
            runs,
            programs,
            ops,
        }
    }

    /// Re-seals `img` after editing its payload (length field and CRC).
    fn reseal(payload: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; OVERHEAD + payload.len()];
        frame::encode(ImageKind::Device, &mut out, 0, |room| {
            room.get_mut(..payload.len())?.copy_from_slice(payload);
            Some(payload.len())
        })
        .unwrap();
        out
    }

    #[test]
    fn truncated_corrupt_and_wrong_version_images_are_named() {
        let img = image_of(&sample());
        let mut b = bufs(8, 8, 8);
        let len = img.len();
        assert_eq!(
            b.decode(&img[..len - 1]).unwrap_err(),
            ImageError::Truncated {
                len: len - 1,
                needed: len
            }
        );
        assert_eq!(
            b.decode(&img[..5]).unwrap_err(),
            ImageError::Truncated { len: 5, needed: 14 }
        );
        let mut bad = img.clone();
        bad[HEADER_LEN + 3] ^= 0x01;
        let stored = u32::from_le_bytes(img[len - 4..].try_into().unwrap());
        assert_eq!(
            b.decode(&bad).unwrap_err(),
            ImageError::CrcMismatch {
                stored,
                computed: crc32(&bad[..len - 4])
            }
        );
        let mut bad = img.clone();
        bad[4] = 3;
        assert_eq!(
            b.decode(&bad).unwrap_err(),
            ImageError::UnsupportedVersion {
                found: 3,
                supported: 2
            }
        );
        // A program image is not a device image.
        let mut prog = [0u8; 64];
        let n = crate::image::program::encode(0, 2, &[], &mut prog).unwrap();
        assert_eq!(
            b.decode(&prog[..n]).unwrap_err(),
            ImageError::WrongKind {
                found: ImageKind::Program,
                expected: ImageKind::Device
            }
        );
    }

    #[test]
    fn over_capacity_is_reported_before_decoding() {
        let img = image_of(&sample());
        for (caps, what, needed, capacity) in [
            ((2, 2, 5), "table runs", 3, 2),
            ((3, 1, 5), "programs", 2, 1),
            ((3, 2, 4), "program ops", 5, 4),
        ] {
            let mut b = bufs(caps.0, caps.1, caps.2);
            let err = ImageError::OverCapacity {
                what,
                needed,
                capacity,
            };
            assert_eq!(b.decode(&img).unwrap_err(), err);
            // Nothing was written.
            assert!(b.runs.iter().all(|r| r.value == RouteEntry::NONE));
            assert!(b.ops.iter().all(|o| *o == BLANK));
            let limits = b_caps(caps.0 as u32, caps.1 as u32, caps.2 as u32);
            assert_eq!(verify(&img, limits).unwrap_err(), err);
        }
        let limits = Capacities {
            destinations: 3,
            ..b_caps(9, 9, 9)
        };
        assert_eq!(
            verify(&img, limits).unwrap_err(),
            ImageError::OverCapacity {
                what: "destinations",
                needed: 4,
                capacity: 3
            }
        );
        assert_eq!(
            std::format!("{}", verify(&img, limits).unwrap_err()),
            "image exceeds the device's capacity: 4 destinations needed, the device holds at most 3"
        );
    }

    #[test]
    fn crc_valid_payload_errors_are_named() {
        let img = image_of(&sample());
        let payload = &img[HEADER_LEN..img.len() - CRC_LEN];
        let mut b = bufs(8, 8, 8);
        let m = |what| ImageError::Malformed {
            kind: ImageKind::Device,
            what,
        };
        // Offsets in the payload: 0 switch, 1-2 network, 3 algorithm, 4-7 capacities,
        // 8.. runs, 17.. programs, 27.. ops.
        let edit = |at: usize, v: u8| {
            let mut p = payload.to_vec();
            p[at] = v;
            reseal(&p)
        };
        assert_eq!(
            b.decode(&reseal(&payload[..3])).unwrap_err(),
            m("device header does not decode")
        );
        assert_eq!(
            b.decode(&edit(3, 9)).unwrap_err(),
            m("device header does not decode")
        );
        assert_eq!(
            b.decode(&edit(5, 7)).unwrap_err(),
            m("declared counts larger than the payload")
        );
        // Run 1 starting at 0 again, or run 2 with run 1's value.
        assert_eq!(
            b.decode(&edit(11, 0)).unwrap_err(),
            m("runs are not in canonical form")
        );
        assert_eq!(
            b.decode(&edit(15, 2)).unwrap_err(),
            m("runs are not in canonical form")
        );
        // Run 2 starting at destination 4 of 4.
        assert_eq!(
            b.decode(&edit(14, 4)).unwrap_err(),
            m("runs are not in canonical form")
        );
        // Program 0 rank 4 of 4.
        assert_eq!(
            b.decode(&edit(19, 4)).unwrap_err(),
            ImageError::RankOutOfRange { rank: 4, ranks: 4 }
        );
        // Program 0 with 3 ops: the counts no longer add up to 5.
        assert_eq!(
            b.decode(&edit(21, 3)).unwrap_err(),
            m("program op counts do not add up to the ops")
        );
        // The last op (send to peer 0 of 2 by rank 1) naming peer 1: itself.
        let n = payload.len();
        assert_eq!(
            b.decode(&edit(n - 4, 1)).unwrap_err(),
            ImageError::SelfPeer { op: 0, rank: 1 }
        );
        assert_eq!(
            b.decode(&edit(n - 4, 2)).unwrap_err(),
            ImageError::PeerOutOfRange {
                op: 0,
                peer: 2,
                ranks: 2
            }
        );
        let mut long = payload.to_vec();
        long.push(0);
        assert_eq!(
            b.decode(&reseal(&long)).unwrap_err(),
            m("trailing bytes after the last op")
        );
        assert_eq!(
            b.decode(&reseal(&payload[..n - 1])).unwrap_err(),
            m("op does not decode")
        );
    }

    #[test]
    fn encode_rejects_what_decode_would() {
        let s = sample();
        let table = RunTable::new(&s.runs, 4).unwrap();
        let mut out = [0u8; 512];
        let mut programs = s.programs.clone();
        programs[1].ops = 2;
        let content = DeviceContent {
            switch: 2,
            network: &s.network,
            algorithm: RoutingAlgorithm::Precomputed,
            table,
            programs: &programs,
            ops: &s.ops,
        };
        assert_eq!(
            encode(&content, &mut out),
            Err(ImageError::Malformed {
                kind: ImageKind::Device,
                what: "program op counts do not add up to the ops"
            })
        );
        let mut ranked = s.programs.clone();
        ranked[1].rank = 2;
        let content = DeviceContent {
            programs: &ranked,
            ..content
        };
        assert_eq!(
            encode(&content, &mut out),
            Err(ImageError::RankOutOfRange { rank: 2, ranks: 2 })
        );
        let content = DeviceContent {
            programs: &s.programs,
            ..content
        };
        assert!(matches!(
            encode(&content, &mut out[..20]),
            Err(ImageError::BufferTooSmall {
                what: "image bytes",
                available: 20,
                ..
            })
        ));
    }

    #[test]
    fn largest_network_spec_fits_its_bound() {
        use crate::topology::circulant::MAX_JUMPS;
        let mut jumps = heapless::Vec::new();
        jumps.resize(MAX_JUMPS, u32::MAX).unwrap();
        let spec = NetworkSpec::Circulant { n: u32::MAX, jumps };
        let mut buf = [0u8; 512];
        assert!(postcard::to_slice(&spec, &mut buf).unwrap().len() <= MAX_NETWORK_LEN);
        for a in RoutingAlgorithm::ALL {
            assert_eq!(postcard::to_slice(&a, &mut buf).unwrap().len(), 1, "{a}");
        }
    }
}
