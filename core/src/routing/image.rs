//! Canonical byte image of one switch's table (ARCHITECTURE.md §3: plain data at the edges,
//! postcard + CRC, versioned).
//!
//! Layout, version 1:
//!
//! ```text
//! postcard(Header { magic: b"JNRT", version: 1, kind, switch, destinations, runs })
//! postcard(Run { first, value }) × runs        (canonical run form, see routing::table)
//! CRC-32 (IEEE) of all preceding bytes, 4 bytes little-endian
//! ```
//!
//! postcard encodes integers as LEB128 varints with a fixed byte order, so the same table
//! gives the same bytes on every target. Decoding checks the CRC first, then every field and
//! the canonical run form; it never panics on any input.

use crate::error::CapacityError;
use serde::{Deserialize, Serialize};

use crate::topology::SwitchId;

use super::crc32::crc32;
use super::error::{ImageError, RoutingError};
use super::table::{Run, RunTable, TableValue};

/// Image magic.
pub const MAGIC: [u8; 4] = *b"JNRT";
/// Image format version written and read by this build.
pub const VERSION: u8 = 1;

#[derive(Serialize, Deserialize)]
struct Header {
    magic: [u8; 4],
    version: u8,
    kind: u8,
    switch: u32,
    destinations: u32,
    runs: u32,
}

/// Upper bound on the image size of a table of `runs` runs (varints at their widest).
pub const fn max_image_len(runs: usize) -> usize {
    // header: 4 magic + 1 + 1 + 3 × 5-byte varints; run: 5-byte start + value (≤ 3 + 1).
    21 + runs * 9 + 4
}

/// Writes the image of `table` (the table of `switch`) into `out`; returns the bytes
/// written. `out` should hold [`max_image_len`] bytes.
pub fn encode<V: TableValue>(
    switch: SwitchId,
    table: &RunTable<'_, V>,
    out: &mut [u8],
) -> Result<usize, RoutingError> {
    let available = out.len() as u64;
    let too_small = || {
        RoutingError::Capacity(CapacityError {
            what: "image bytes",
            needed: max_image_len(table.runs().len()) as u64,
            available,
        })
    };
    let header = Header {
        magic: MAGIC,
        version: VERSION,
        kind: V::KIND,
        switch,
        destinations: table.len(),
        runs: table.runs().len() as u32,
    };
    let mut pos = postcard::to_slice(&header, out)
        .map_err(|_| too_small())?
        .len();
    for r in table.runs() {
        let rest = out.get_mut(pos..).ok_or_else(too_small)?;
        pos += postcard::to_slice(r, rest).map_err(|_| too_small())?.len();
    }
    let crc = crc32(out.get(..pos).unwrap_or(&[]));
    let tail = out.get_mut(pos..pos + 4).ok_or_else(too_small)?;
    tail.copy_from_slice(&crc.to_le_bytes());
    Ok(pos + 4)
}

/// A decoded table image.
#[derive(Clone, Copy, Debug)]
pub struct Decoded<'a, V> {
    /// Switch the table belongs to.
    pub switch: SwitchId,
    /// The table (runs in the caller's buffer).
    pub table: RunTable<'a, V>,
}

/// Decodes an image into `runs_out`. Corrupt, truncated or foreign bytes give
/// [`RoutingError::Image`]; a `runs_out` too small for the table gives
/// [`RoutingError::Capacity`].
pub fn decode<'a, V: TableValue>(
    bytes: &[u8],
    runs_out: &'a mut [Run<V>],
) -> Result<Decoded<'a, V>, RoutingError> {
    let malformed = |what| RoutingError::Image(ImageError::Malformed { what });
    if bytes.len() < 4 {
        return Err(ImageError::Truncated { len: bytes.len() }.into());
    }
    let (content, crc_bytes) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([crc_bytes[0], crc_bytes[1], crc_bytes[2], crc_bytes[3]]);
    let computed = crc32(content);
    if stored != computed {
        return Err(ImageError::Crc { stored, computed }.into());
    }
    let (header, mut rest) = postcard::take_from_bytes::<Header>(content)
        .map_err(|_| RoutingError::Image(ImageError::Truncated { len: bytes.len() }))?;
    if header.magic != MAGIC {
        return Err(ImageError::BadMagic.into());
    }
    if header.version != VERSION {
        return Err(ImageError::Version {
            found: header.version,
            supported: VERSION,
        }
        .into());
    }
    if header.kind != V::KIND {
        return Err(ImageError::Kind {
            found: header.kind,
            expected: V::KIND,
        }
        .into());
    }
    let n = header.runs as usize;
    if n > rest.len() {
        return Err(malformed("run count larger than the image"));
    }
    if n > runs_out.len() {
        return Err(RoutingError::Capacity(CapacityError {
            what: "decoded runs",
            needed: n as u64,
            available: runs_out.len() as u64,
        }));
    }
    for slot in runs_out.iter_mut().take(n) {
        let (run, r) = postcard::take_from_bytes::<Run<V>>(rest)
            .map_err(|_| malformed("run does not decode"))?;
        *slot = run;
        rest = r;
    }
    if !rest.is_empty() {
        return Err(malformed("trailing bytes after the last run"));
    }
    let runs: &'a [Run<V>] = runs_out;
    let table = RunTable::new(runs.get(..n).unwrap_or(&[]), header.destinations)
        .map_err(|_| malformed("runs are not in canonical form"))?;
    Ok(Decoded {
        switch: header.switch,
        table,
    })
}
