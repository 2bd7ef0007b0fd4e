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
//!   varint algorithm           RoutingAlgorithm index (0 minimal … 7 df-minimal-1vc, 8 precomputed)
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
//! framing checks ([`frame::parse`](super::frame::parse)) it checks, in this order: the header decodes
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

use super::error::{Defect, ImageError};
use super::frame::{ImageKind, OVERHEAD};

mod decode;
mod encode;
mod routing_algorithm;
#[cfg(test)]
mod tests;

pub use decode::{decode, verify};
pub use encode::encode;
pub use routing_algorithm::RoutingAlgorithm;

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

pub(super) fn len_u32(n: usize) -> u32 {
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

/// Program header as written (without `Default` and with field order fixed here).
#[derive(Serialize, Deserialize)]
pub(super) struct Wire {
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

impl From<&Wire> for ProgramEntry {
    fn from(w: &Wire) -> Self {
        ProgramEntry {
            collective: w.collective,
            terminal: w.terminal,
            rank: w.rank,
            ranks: w.ranks,
            ops: w.ops,
        }
    }
}

pub(super) fn malformed(what: Defect) -> ImageError {
    ImageError::Malformed {
        kind: ImageKind::Device,
        what,
    }
}
