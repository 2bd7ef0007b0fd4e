//! The route-table request: the host names a structured network, a routing algorithm and a
//! switch; the device computes that switch's forwarding table with jumpnet-core and answers
//! with its canonical table image (`crate::image::route_table`), in chunks.
//!
//! # Chunking
//!
//! An image can be larger than a frame ([`super::message::MAX_FRAME_LEN`]), so every
//! request names a byte range (`offset`, `max_len`) and the answer carries at most
//! [`MAX_IMAGE_CHUNK`] bytes of the image starting at `offset`, plus the whole image's
//! length. A host reads an image with requests at offsets `0, len0, len0 + len1, ...` until
//! it has `image_len` bytes. Requests are self-contained (each repeats network, algorithm
//! and switch), so a lost or corrupted frame is simply asked for again; the device keeps the
//! image it computed last and recomputes only when network, algorithm or switch change. The
//! image carries its own CRC-32, which the host checks when it decodes the assembled bytes.
//!
//! # Limits
//!
//! * at most [`MAX_TABLE_DESTINATIONS`] destinations (terminals) per table, so at most
//!   [`MAX_TABLE_RUNS`] runs and [`MAX_TABLE_IMAGE_LEN`] image bytes;
//! * minimal BFS routing (the only algorithm that needs per-switch scratch) at most
//!   [`MAX_BFS_SWITCHES`] switches;
//! * a chunk holds at most [`MAX_IMAGE_CHUNK`] bytes.
//!
//! Requests beyond these limits are answered with
//! [`Rejection::TableCapacity`](super::message::Rejection::TableCapacity), never computed
//! partially. Storage on the device: about 110 KiB of static buffers (runs, image, BFS
//! scratch).

use core::fmt;

use crate::image::device::RoutingAlgorithm;
use crate::image::route_table::max_image_len;
use crate::topology::spec::NetworkSpec;
use heapless::Vec;
use serde::{Deserialize, Serialize};

/// Most destinations (terminals) of a table the device computes.
pub const MAX_TABLE_DESTINATIONS: u32 = 4096;
/// Most runs of a table the device stores (a table never has more runs than destinations).
pub const MAX_TABLE_RUNS: usize = MAX_TABLE_DESTINATIONS as usize;
/// Largest image the device holds: [`max_image_len`] of [`MAX_TABLE_RUNS`] runs.
pub const MAX_TABLE_IMAGE_LEN: usize = max_image_len(MAX_TABLE_RUNS);
/// Most switches of a network whose table the device computes with minimal BFS routing.
pub const MAX_BFS_SWITCHES: u32 = 4096;
/// Most image bytes in one [`ImageChunk`] (the largest chunk response fits a frame).
pub const MAX_IMAGE_CHUNK: usize = 448;

/// Parameters of [`Command::RouteTable`](super::message::Command::RouteTable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteTableRequest {
    /// The network.
    pub network: NetworkSpec,
    /// The routing algorithm, one the device compiles into one switch's forwarding table
    /// (docs/routing.md): every one but `Precomputed` (answered with
    /// [`Rejection::AlgorithmNotApplicable`](super::message::Rejection::AlgorithmNotApplicable)).
    /// All of them choose the port from (switch, destination) alone; every table entry has
    /// VC 0 (the dateline VC rules of torus and Dragonfly routing are applied per packet on
    /// top of the port table).
    pub algorithm: RoutingAlgorithm,
    /// Switch whose forwarding table is wanted.
    pub switch: u32,
    /// First image byte wanted.
    pub offset: u32,
    /// Most bytes wanted (the device sends at most [`MAX_IMAGE_CHUNK`]).
    pub max_len: u16,
}

/// Answer to a [`RouteTableRequest`]: bytes `offset .. offset + bytes.len()` of the image.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageChunk {
    /// Length of the whole image.
    pub image_len: u32,
    /// Offset of `bytes` in the image (the request's offset).
    pub offset: u32,
    /// The bytes; empty only when `offset == image_len` or the request's `max_len` is 0.
    pub bytes: Vec<u8, MAX_IMAGE_CHUNK>,
}

/// What ran out when a table does not fit the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableResource {
    /// Destinations (terminals) of the table: [`MAX_TABLE_DESTINATIONS`].
    Destinations,
    /// Switches of the BFS scratch: [`MAX_BFS_SWITCHES`].
    BfsSwitches,
    /// Runs of the table: [`MAX_TABLE_RUNS`].
    Runs,
    /// Image bytes: [`MAX_TABLE_IMAGE_LEN`].
    ImageBytes,
}

impl fmt::Display for TableResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableResource::Destinations => "destinations",
            TableResource::BfsSwitches => "switches for minimal BFS routing",
            TableResource::Runs => "table runs",
            TableResource::ImageBytes => "image bytes",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_buffer_holds_the_largest_table() {
        // Framing 14 bytes (10-byte header, CRC), payload header ≤ 15 bytes, ≤ 9 bytes per
        // run (5-byte start, 3-byte port, 1-byte VC).
        assert_eq!(MAX_TABLE_IMAGE_LEN, 14 + 15 + 9 * 4096);
        assert!(MAX_TABLE_RUNS >= MAX_TABLE_DESTINATIONS as usize);
    }
}
