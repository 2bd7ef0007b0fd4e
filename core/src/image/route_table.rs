//! Route-table images: one switch's run table (`routing::tables::run_table`) in the shared framing
//! ([`super::frame`]), kind [`ImageKind::RouteTable`](super::ImageKind::RouteTable) for
//! forwarding entries and [`ImageKind::VirtualLayers`](super::ImageKind::VirtualLayers) for
//! per-destination virtual layers.
//!
//! Payload layout (postcard: unsigned integers wider than a byte are LEB128 varints, `u8` is
//! one raw byte):
//!
//! ```text
//! varint switch          switch the table belongs to
//! varint destinations    destinations 0..destinations the table covers
//! varint runs            number of runs that follow
//! runs × (varint first, value)     canonical run form, see routing::tables::run_table
//!   value of a route table:          varint port, u8 vc
//!   value of a virtual layer table:  u8 layer
//! ```
//!
//! postcard has one byte order, so the same table gives the same bytes on every target (the
//! device's images equal the host's, `host-cli/tests/qemu_route_table.rs`). Decoding checks
//! the framing, then every run and the canonical form; it never panics on any input.
//!
//! # Examples
//!
//! ```
//! use jumpnet_core::image::route_table::{decode, encode, max_image_len};
//! use jumpnet_core::routing::{RouteEntry, Run, RunTableBuilder};
//!
//! // Switch 5's table for 3 destinations: port 2 for 0 and 1, port 300 on VC 1 for 2.
//! let mut runs = [Run { first: 0, value: RouteEntry::NONE }; 3];
//! let mut builder = RunTableBuilder::new(&mut runs);
//! for (port, vc) in [(2, 0), (2, 0), (300, 1)] {
//!     builder.push(RouteEntry { port, vc })?;
//! }
//! let table = builder.finish();
//!
//! let mut image = [0u8; max_image_len(2)];
//! let len = encode(5, &table, &mut image)?;
//!
//! let mut decoded_runs = [Run { first: 0, value: RouteEntry::NONE }; 2];
//! let decoded = decode::<RouteEntry>(&image[..len], &mut decoded_runs)?;
//! assert_eq!(decoded.switch, 5);
//! assert_eq!(decoded.table.runs(), table.runs());
//! assert_eq!(decoded.table.lookup(2), Some(RouteEntry { port: 300, vc: 1 }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::routing::tables::run_table::{Run, RunTable, TableValue};
use crate::topology::SwitchId;

use super::error::{Defect, ImageError, Resource};
use super::frame::{self, OVERHEAD};

/// The payload's leading fields.
#[derive(Serialize, Deserialize)]
struct Header {
    switch: u32,
    destinations: u32,
    runs: u32,
}

/// Upper bound on the image length of a table of `runs` runs: the framing, three 5-byte
/// varints, and per run a 5-byte start and a value of at most 4 bytes (3-byte port varint,
/// 1-byte VC). A `const fn`, so devices can size static buffers with it.
pub const fn max_image_len(runs: usize) -> usize {
    OVERHEAD + 15 + runs * 9
}

/// Writes the image of `table` (the table of `switch`) into `out`; returns the image length.
/// `out` should hold [`max_image_len`] of the table's runs; a smaller buffer the image does
/// not fit is [`ImageError::BufferTooSmall`]. Layout: the module docs and [`super::frame`].
pub fn encode<V: TableValue>(
    switch: SwitchId,
    table: &RunTable<'_, V>,
    out: &mut [u8],
) -> Result<usize, ImageError> {
    let header = Header {
        switch,
        destinations: table.len(),
        runs: table.runs().len() as u32,
    };
    let needed = max_image_len(table.runs().len());
    frame::encode(V::KIND, out, needed, |payload| {
        let mut pos = 0;
        frame::put(payload, &mut pos, &header)?;
        for run in table.runs() {
            frame::put(payload, &mut pos, run)?;
        }
        Some(pos)
    })
}

/// A decoded table image.
#[derive(Clone, Copy, Debug)]
pub struct DecodedTable<'a, V> {
    /// Switch the table belongs to.
    pub switch: SwitchId,
    /// The table (runs in the caller's buffer).
    pub table: RunTable<'a, V>,
}

/// Decodes a table image of kind `V::KIND` into `runs_out`. Framing errors are those of
/// [`frame::parse`] (plus [`ImageError::WrongKind`]); a payload that does not decode or is
/// not in canonical run form is [`ImageError::Malformed`]; a `runs_out` too small for the
/// table is [`ImageError::BufferTooSmall`].
pub fn decode<'a, V: TableValue>(
    bytes: &[u8],
    runs_out: &'a mut [Run<V>],
) -> Result<DecodedTable<'a, V>, ImageError> {
    let malformed = |what| ImageError::Malformed {
        kind: V::KIND,
        what,
    };
    let payload = frame::payload_of(bytes, V::KIND)?;
    let (header, mut rest) =
        postcard::take_from_bytes::<Header>(payload).map_err(|_| malformed(Defect::TableHeader))?;
    let n = header.runs as usize;
    // Every run takes at least two bytes, so a larger count cannot be genuine.
    if n > rest.len() / 2 {
        return Err(malformed(Defect::RunCount));
    }
    if n > runs_out.len() {
        return Err(ImageError::BufferTooSmall {
            what: Resource::DecodedRuns,
            needed: n as u64,
            available: runs_out.len() as u64,
        });
    }
    for slot in runs_out.iter_mut().take(n) {
        let (run, r) =
            postcard::take_from_bytes::<Run<V>>(rest).map_err(|_| malformed(Defect::Run))?;
        *slot = run;
        rest = r;
    }
    if !rest.is_empty() {
        return Err(malformed(Defect::TrailingRunBytes));
    }
    let runs: &'a [Run<V>] = runs_out;
    let table = RunTable::new(runs.get(..n).unwrap_or(&[]), header.destinations)
        .map_err(|_| malformed(Defect::RunsNotCanonical))?;
    Ok(DecodedTable {
        switch: header.switch,
        table,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::image::crc32::crc32;
    use crate::image::ImageKind;
    use crate::routing::tables::run_table::{RouteEntry, RunTableBuilder};
    use std::vec;
    use std::vec::Vec;

    fn sample() -> ([Run<RouteEntry>; 3], usize) {
        let mut runs = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 3];
        let mut b = RunTableBuilder::new(&mut runs);
        for e in [(2u16, 0u8), (2, 0), (300, 1)] {
            b.push(RouteEntry { port: e.0, vc: e.1 }).unwrap();
        }
        let n = b.finish().runs().len();
        (runs, n)
    }

    #[test]
    fn image_bytes_are_the_documented_layout() {
        // Table of 3 destinations: port 2 for 0..2, port 300 on VC 1 for 2.
        let (runs, n) = sample();
        let t = RunTable::new(&runs[..n], 3).unwrap();
        let mut img = [0u8; 64];
        let len = encode(5, &t, &mut img).unwrap();
        let payload: &[u8] = &[
            5, 3, 2, // switch 5, 3 destinations, 2 runs (varints)
            0, 2, 0, // run 0: first 0, port 2, vc 0
            2, 0xAC, 0x02, 1, // run 1: first 2, port 300 = 0xAC 0x02, vc 1
        ];
        let mut body = vec![b'J', b'N', b'I', b'M', 2, 1, payload.len() as u8, 0, 0, 0];
        body.extend_from_slice(payload);
        assert_eq!(&img[..len - 4], &body[..]);
        assert_eq!(&img[len - 4..len], &crc32(&body).to_le_bytes());
        assert!(len <= max_image_len(n));
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
        assert_eq!(img[5], ImageKind::VirtualLayers.code());
        let mut out = [Run {
            first: 0,
            value: 0u8,
        }; 5];
        let dec = decode::<u8>(&img[..len], &mut out).unwrap();
        assert_eq!(dec.switch, 3);
        for (d, &l) in layers.iter().enumerate() {
            assert_eq!(dec.table.lookup(d as u32), Some(l));
        }
        // A layer table is not a route table.
        let mut entries = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 5];
        assert_eq!(
            decode::<RouteEntry>(&img[..len], &mut entries).unwrap_err(),
            ImageError::WrongKind {
                found: ImageKind::VirtualLayers,
                expected: ImageKind::RouteTable
            }
        );
        // Too small an image buffer or run buffer is a capacity error.
        assert_eq!(
            encode(3, &t, &mut img[..6]),
            Err(ImageError::BufferTooSmall {
                what: Resource::ImageBytes,
                needed: max_image_len(5) as u64,
                available: 6
            })
        );
        assert_eq!(
            decode::<u8>(&img[..len], &mut out[..4]).unwrap_err(),
            ImageError::BufferTooSmall {
                what: Resource::DecodedRuns,
                needed: 5,
                available: 4
            }
        );
    }

    /// A CRC-valid route-table image with `payload`.
    fn sealed(payload: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; OVERHEAD + payload.len()];
        frame::encode(ImageKind::RouteTable, &mut out, 0, |room| {
            room.get_mut(..payload.len())?.copy_from_slice(payload);
            Some(payload.len())
        })
        .unwrap();
        out
    }

    #[test]
    fn crc_valid_payload_errors_are_named() {
        let mut runs = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 8];
        let malformed = |what| ImageError::Malformed {
            kind: ImageKind::RouteTable,
            what,
        };
        // Header cut short.
        assert_eq!(
            decode::<RouteEntry>(&sealed(&[5, 3]), &mut runs).unwrap_err(),
            malformed(Defect::TableHeader)
        );
        // Two runs announced, one present.
        assert_eq!(
            decode::<RouteEntry>(&sealed(&[5, 3, 2, 0, 2, 0]), &mut runs).unwrap_err(),
            malformed(Defect::RunCount)
        );
        assert_eq!(
            decode::<RouteEntry>(&sealed(&[5, 3, 2, 0, 2, 0, 2, 0xAC]), &mut runs).unwrap_err(),
            malformed(Defect::Run)
        );
        assert_eq!(
            decode::<RouteEntry>(&sealed(&[5, 3, 1, 0, 2, 0, 9]), &mut runs).unwrap_err(),
            malformed(Defect::TrailingRunBytes)
        );
        // Neighbouring runs with equal values are not canonical.
        assert_eq!(
            decode::<RouteEntry>(&sealed(&[5, 3, 2, 0, 2, 0, 1, 2, 0]), &mut runs).unwrap_err(),
            malformed(Defect::RunsNotCanonical)
        );
        // The same bytes with distinct values decode.
        let ok = decode::<RouteEntry>(&sealed(&[5, 3, 2, 0, 2, 0, 1, 3, 0]), &mut runs).unwrap();
        assert_eq!(ok.table.lookup(2), Some(RouteEntry { port: 3, vc: 0 }));
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
            if len > OVERHEAD && rng.index(2) == 0 {
                // Valid framing over garbage payload: exercises the checks behind the CRC.
                bytes = sealed(&bytes[OVERHEAD..]);
            }
            let _ = decode::<RouteEntry>(&bytes, &mut out);
        }
    }
}
