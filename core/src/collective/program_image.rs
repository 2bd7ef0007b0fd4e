//! Versioned, CRC-protected byte image of one rank's program — what is flashed onto a NIC or
//! sent to the firmware (ARCHITECTURE.md §3: plain data at the edges, postcard + CRC).
//!
//! Layout, version 1:
//!
//! ```text
//! postcard(Header { magic: b"JNPG", version: 1, rank, ranks, ops })
//! postcard(Op) × ops
//! CRC-32 (IEEE) of all preceding bytes, 4 bytes little-endian
//! ```
//!
//! postcard's varint encoding has one byte order, so a program gives the same bytes on every
//! target. Decoding checks the CRC, the header and every op; it never panics.

use core::fmt;

use serde::{Deserialize, Serialize};

use super::message::Rank;
use super::program::Op;
use crate::routing::crc32::crc32;

/// Image magic.
pub const MAGIC: [u8; 4] = *b"JNPG";
/// Format version written and read by this build.
pub const VERSION: u8 = 1;

#[derive(Serialize, Deserialize)]
struct Header {
    magic: [u8; 4],
    version: u8,
    rank: u32,
    ranks: u32,
    ops: u32,
}

/// Why a program image could not be written or read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramImageError {
    /// The output buffer is too small (`needed` is an upper bound).
    OutputTooSmall {
        /// Bytes needed at most.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// The image is shorter than its fixed parts.
    Truncated {
        /// Bytes present.
        len: usize,
    },
    /// Stored and computed CRC differ.
    Crc {
        /// CRC in the image.
        stored: u32,
        /// CRC of the content.
        computed: u32,
    },
    /// Not a program image (wrong magic).
    BadMagic,
    /// Unsupported version.
    Version {
        /// Version found.
        found: u8,
    },
    /// The decoded program does not fit the caller's op buffer.
    TooManyOps {
        /// Ops in the image.
        ops: u32,
        /// Buffer capacity.
        capacity: usize,
    },
    /// An op or the header does not decode, or bytes follow the last op.
    Malformed {
        /// What is wrong.
        what: &'static str,
    },
}

impl fmt::Display for ProgramImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ProgramImageError::OutputTooSmall { needed, available } => write!(
                f,
                "program image needs up to {needed} bytes, buffer has {available}"
            ),
            ProgramImageError::Truncated { len } => {
                write!(f, "program image truncated: only {len} bytes")
            }
            ProgramImageError::Crc { stored, computed } => write!(
                f,
                "program image CRC mismatch: stored {stored:#010x}, computed {computed:#010x}"
            ),
            ProgramImageError::BadMagic => write!(f, "not a program image (magic is not JNPG)"),
            ProgramImageError::Version { found } => write!(
                f,
                "program image version {found} is not supported (this build reads {VERSION})"
            ),
            ProgramImageError::TooManyOps { ops, capacity } => {
                write!(f, "program has {ops} ops, the buffer holds {capacity}")
            }
            ProgramImageError::Malformed { what } => write!(f, "malformed program image: {what}"),
        }
    }
}

/// Upper bound on the image size of a program of `ops` ops.
pub fn max_image_len(ops: usize) -> usize {
    // header: magic 4 + version 1 + 3 varints ≤ 5 each; op: tag + peer/shift varint 5 +
    // blocks ≤ 1 + 4 varints + dependency ≤ 1 + 5.
    4 + 1 + 15 + ops * 33 + 4
}

/// A decoded program image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodedProgram {
    /// Rank the program belongs to.
    pub rank: Rank,
    /// Ranks of the collective.
    pub ranks: u32,
    /// Number of ops written to the caller's buffer.
    pub ops: usize,
}

/// Writes the image of `program` (rank `rank` of `ranks`) into `out`; returns its length.
pub fn encode(
    rank: Rank,
    ranks: u32,
    program: &[Op],
    out: &mut [u8],
) -> Result<usize, ProgramImageError> {
    let too_small = ProgramImageError::OutputTooSmall {
        needed: max_image_len(program.len()),
        available: out.len(),
    };
    let header = Header {
        magic: MAGIC,
        version: VERSION,
        rank,
        ranks,
        ops: program.len() as u32,
    };
    let mut pos = postcard::to_slice(&header, out)
        .map_err(|_| too_small)?
        .len();
    for op in program {
        let rest = out.get_mut(pos..).ok_or(too_small)?;
        pos += postcard::to_slice(op, rest).map_err(|_| too_small)?.len();
    }
    let crc = crc32(out.get(..pos).unwrap_or(&[]));
    out.get_mut(pos..pos + 4)
        .ok_or(too_small)?
        .copy_from_slice(&crc.to_le_bytes());
    Ok(pos + 4)
}

/// Decodes an image into `ops_out`.
pub fn decode(bytes: &[u8], ops_out: &mut [Op]) -> Result<DecodedProgram, ProgramImageError> {
    if bytes.len() < 4 {
        return Err(ProgramImageError::Truncated { len: bytes.len() });
    }
    let (content, crc_bytes) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([crc_bytes[0], crc_bytes[1], crc_bytes[2], crc_bytes[3]]);
    let computed = crc32(content);
    if stored != computed {
        return Err(ProgramImageError::Crc { stored, computed });
    }
    let (header, mut rest) = postcard::take_from_bytes::<Header>(content)
        .map_err(|_| ProgramImageError::Truncated { len: bytes.len() })?;
    if header.magic != MAGIC {
        return Err(ProgramImageError::BadMagic);
    }
    if header.version != VERSION {
        return Err(ProgramImageError::Version {
            found: header.version,
        });
    }
    if header.ops as usize > ops_out.len() {
        return Err(ProgramImageError::TooManyOps {
            ops: header.ops,
            capacity: ops_out.len(),
        });
    }
    for slot in ops_out.iter_mut().take(header.ops as usize) {
        let (op, r) =
            postcard::take_from_bytes::<Op>(rest).map_err(|_| ProgramImageError::Malformed {
                what: "op does not decode",
            })?;
        *slot = op;
        rest = r;
    }
    if !rest.is_empty() {
        return Err(ProgramImageError::Malformed {
            what: "trailing bytes after the last op",
        });
    }
    Ok(DecodedProgram {
        rank: header.rank,
        ranks: header.ranks,
        ops: header.ops as usize,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::collective::{Bruck, RecursiveDoubling, Schedule};

    fn program_of<S: Schedule>(s: &S, r: Rank) -> ([Op; 64], usize) {
        let mut ops = [Op::Permute {
            reflect: false,
            shift: 0,
            after: crate::collective::Dep::None,
        }; 64];
        let n = s.program(r, &mut ops).unwrap();
        (ops, n)
    }

    #[test]
    fn round_trip_and_bound() {
        let rd = RecursiveDoubling::new(1000, 4096).unwrap();
        let br = Bruck::new(37, 8).unwrap();
        for (ops, n, ranks) in [
            {
                let (o, n) = program_of(&rd, 999);
                (o, n, 1000)
            },
            {
                let (o, n) = program_of(&br, 5);
                (o, n, 37)
            },
        ] {
            let mut buf = [0u8; 4096];
            let len = encode(7, ranks, &ops[..n], &mut buf).unwrap();
            assert!(len <= max_image_len(n));
            let mut back = [ops[0]; 64];
            let d = decode(&buf[..len], &mut back).unwrap();
            assert_eq!(
                d,
                DecodedProgram {
                    rank: 7,
                    ranks,
                    ops: n
                }
            );
            assert_eq!(back[..n], ops[..n]);
        }
    }

    #[test]
    fn corruption_is_detected_never_panics() {
        let rd = RecursiveDoubling::new(64, 8).unwrap();
        let (ops, n) = program_of(&rd, 3);
        let mut buf = [0u8; 1024];
        let len = encode(3, 64, &ops[..n], &mut buf).unwrap();
        let mut out = [ops[0]; 64];
        for i in 0..len {
            let mut bad = buf;
            bad[i] ^= 0x5A;
            assert!(decode(&bad[..len], &mut out).is_err(), "flip at {i}");
        }
        for cut in 0..len {
            assert!(decode(&buf[..cut], &mut out).is_err(), "cut at {cut}");
        }
        let mut small = [ops[0]; 2];
        assert!(matches!(
            decode(&buf[..len], &mut small),
            Err(ProgramImageError::TooManyOps { .. })
        ));
        let mut tiny = [0u8; 8];
        assert!(matches!(
            encode(3, 64, &ops[..n], &mut tiny),
            Err(ProgramImageError::OutputTooSmall { .. })
        ));
    }
}
