//! The one error of image encoding and decoding (every kind, framing and payload).
//!
//! Every variant names what is wrong with the bytes (or the buffer) and the values involved,
//! so a device or a host can report it without further context. Decoding never panics.
//! [`ImageError`] is plain data (serde): a device that rejects an image sends it to the host
//! as it is (the firmware wire protocol's `Rejection::Image`).

use core::fmt;

use serde::{Deserialize, Serialize};

use super::frame::{ImageKind, MAGIC, OVERHEAD};

/// What is wrong with a CRC-valid payload ([`ImageError::Malformed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Defect {
    /// A route-table payload's header does not decode.
    TableHeader,
    /// A route table declares more runs than its payload holds.
    RunCount,
    /// A run does not decode.
    Run,
    /// Bytes follow the last run.
    TrailingRunBytes,
    /// The runs are not in canonical run form.
    RunsNotCanonical,
    /// A program's header does not decode.
    ProgramHeader,
    /// A program declares more ops than its payload holds.
    OpCount,
    /// An op does not decode.
    Op,
    /// Bytes follow the last op.
    TrailingOpBytes,
    /// The programs' op counts do not add up to the ops.
    OpCounts,
    /// A device image declares more runs, programs or ops than its payload holds.
    DeclaredCounts,
    /// A device image's header does not decode.
    DeviceHeader,
}

impl Defect {
    /// What is wrong, in words.
    pub const fn text(self) -> &'static str {
        match self {
            Defect::TableHeader => "table header does not decode",
            Defect::RunCount => "run count larger than the payload",
            Defect::Run => "run does not decode",
            Defect::TrailingRunBytes => "trailing bytes after the last run",
            Defect::RunsNotCanonical => "runs are not in canonical form",
            Defect::ProgramHeader => "program header does not decode",
            Defect::OpCount => "op count larger than the payload",
            Defect::Op => "op does not decode",
            Defect::TrailingOpBytes => "trailing bytes after the last op",
            Defect::OpCounts => "program op counts do not add up to the ops",
            Defect::DeclaredCounts => "declared counts larger than the payload",
            Defect::DeviceHeader => "device header does not decode",
        }
    }
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// What runs out: of a caller buffer ([`ImageError::BufferTooSmall`]) or of a device
/// ([`ImageError::OverCapacity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Resource {
    /// Output bytes of an encoder.
    ImageBytes,
    /// Runs a decoder writes.
    DecodedRuns,
    /// Ops a decoder writes.
    DecodedOps,
    /// Destinations of a device's table.
    Destinations,
    /// Runs of a device's table.
    TableRuns,
    /// Programs of a device.
    Programs,
    /// Ops of a device's programs.
    ProgramOps,
}

impl Resource {
    /// Lower-case name ("image bytes", "table runs", ...).
    pub const fn name(self) -> &'static str {
        match self {
            Resource::ImageBytes => "image bytes",
            Resource::DecodedRuns => "decoded runs",
            Resource::DecodedOps => "decoded ops",
            Resource::Destinations => "destinations",
            Resource::TableRuns => "table runs",
            Resource::Programs => "programs",
            Resource::ProgramOps => "program ops",
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an image could not be written or read ([`super::frame`] for the framing,
/// [`super::route_table`] and [`super::program`] for the payloads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImageError {
    /// Fewer bytes than the image needs: shorter than the fixed parts
    /// ([`OVERHEAD`] bytes), or shorter than the header's payload length says.
    Truncated {
        /// Bytes present.
        len: usize,
        /// Bytes the image needs (header, declared payload, CRC).
        needed: usize,
    },
    /// The image does not start with [`MAGIC`] (`JNIM`): not a jumpnet image.
    BadMagic {
        /// The first four bytes.
        found: [u8; 4],
    },
    /// The image was written in a format version this build does not read (see the
    /// versioning policy in [`super`]); version-1 images (magic `JNRT`/`JNPG`, before the
    /// framing was shared) are reported with this error too.
    UnsupportedVersion {
        /// Version found in the image.
        found: u8,
        /// The version this build reads and writes ([`super::frame::VERSION`]).
        supported: u8,
    },
    /// The header's kind byte names no [`ImageKind`] this build knows.
    UnknownKind {
        /// Kind code found.
        found: u8,
    },
    /// The image is a valid image of another kind than the one requested.
    WrongKind {
        /// Kind of the image.
        found: ImageKind,
        /// Kind the caller decodes.
        expected: ImageKind,
    },
    /// More bytes follow the header than its payload length and the CRC account for.
    LengthMismatch {
        /// Payload length stored in the header.
        declared: u32,
        /// Payload bytes present (everything between header and the last four bytes).
        actual: usize,
    },
    /// The CRC-32 after the payload does not match header and payload.
    CrcMismatch {
        /// CRC stored in the image.
        stored: u32,
        /// CRC computed over header and payload.
        computed: u32,
    },
    /// The payload (CRC-valid) does not decode or breaks a rule of its canonical form.
    Malformed {
        /// Kind of the image.
        kind: ImageKind,
        /// What is wrong.
        what: Defect,
    },
    /// A caller buffer is too small: the output bytes when encoding, the decoded runs or ops
    /// when decoding.
    BufferTooSmall {
        /// What ran out (image bytes, decoded runs, decoded ops).
        what: Resource,
        /// Entries needed (for image bytes: an upper bound).
        needed: u64,
        /// Entries available.
        available: u64,
    },
    /// A program image's own rank is not below its rank count.
    RankOutOfRange {
        /// Rank of the program.
        rank: u32,
        /// Ranks of the collective.
        ranks: u32,
    },
    /// A program op names a peer outside `0..ranks`.
    PeerOutOfRange {
        /// Index of the op in the program.
        op: u32,
        /// Peer named.
        peer: u32,
        /// Ranks of the collective.
        ranks: u32,
    },
    /// A program op sends to or receives from the program's own rank.
    SelfPeer {
        /// Index of the op in the program.
        op: u32,
        /// The program's rank (and the peer named).
        rank: u32,
    },
    /// A device image needs more than the device (the decoder's buffers) holds: checked from
    /// the image header's capacities before anything is decoded.
    OverCapacity {
        /// What runs out (destinations, table runs, programs, program ops).
        what: Resource,
        /// What the image needs.
        needed: u64,
        /// What the device holds.
        capacity: u64,
    },
    /// A program op waits for an op that is not an earlier op of the program.
    DependencyOutOfRange {
        /// Index of the op in the program.
        op: u32,
        /// Index of the op it waits for.
        after: u32,
    },
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ImageError::Truncated { len, needed } => write!(
                f,
                "image truncated: {len} bytes present, the image needs {needed} \
                 (at least {OVERHEAD})"
            ),
            ImageError::BadMagic { found } => write!(
                f,
                "not a jumpnet image: magic is \"{}\", expected \"{}\"",
                found.escape_ascii(),
                MAGIC.escape_ascii()
            ),
            ImageError::UnsupportedVersion { found, supported } => write!(
                f,
                "image format version {found} is not supported (this build reads version \
                 {supported}); regenerate the image"
            ),
            ImageError::UnknownKind { found } => write!(
                f,
                "image kind {found} is unknown (known: 1 route table, 2 virtual layers, \
                 3 program, 4 device image)"
            ),
            ImageError::WrongKind { found, expected } => {
                write!(f, "image holds a {found}, expected a {expected}")
            }
            ImageError::LengthMismatch { declared, actual } => write!(
                f,
                "image length mismatch: header declares a {declared}-byte payload, \
                 {actual} bytes are present"
            ),
            ImageError::CrcMismatch { stored, computed } => write!(
                f,
                "image corrupt: CRC-32 of the content is {computed:#010x}, the image \
                 stores {stored:#010x}"
            ),
            ImageError::Malformed { kind, what } => write!(f, "malformed {kind} image: {what}"),
            ImageError::BufferTooSmall {
                what,
                needed,
                available,
            } => write!(
                f,
                "buffer too small: {what} needs {needed}, {available} available"
            ),
            ImageError::RankOutOfRange { rank, ranks } => write!(
                f,
                "program image rank {rank} is out of range: ranks are 0..{ranks} (exclusive)"
            ),
            ImageError::PeerOutOfRange { op, peer, ranks } => write!(
                f,
                "program image op {op} names peer {peer}, out of range: ranks are \
                 0..{ranks} (exclusive)"
            ),
            ImageError::SelfPeer { op, rank } => {
                write!(f, "program image op {op} names its own rank {rank} as peer")
            }
            ImageError::OverCapacity {
                what,
                needed,
                capacity,
            } => write!(
                f,
                "image exceeds the device's capacity: {needed} {what} needed, the device \
                 holds at most {capacity}"
            ),
            ImageError::DependencyOutOfRange { op, after } => write!(
                f,
                "program image op {op} waits for op {after}, which is not an earlier op"
            ),
        }
    }
}

impl core::error::Error for ImageError {}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::format;

    fn every_variant() -> [ImageError; 15] {
        [
            ImageError::Truncated {
                len: usize::MAX,
                needed: 14,
            },
            ImageError::BadMagic { found: *b"JNRT" },
            ImageError::UnsupportedVersion {
                found: 1,
                supported: 2,
            },
            ImageError::UnknownKind { found: 9 },
            ImageError::WrongKind {
                found: ImageKind::Program,
                expected: ImageKind::Device,
            },
            ImageError::LengthMismatch {
                declared: 7,
                actual: 8,
            },
            ImageError::CrcMismatch {
                stored: 1,
                computed: u32::MAX,
            },
            ImageError::Malformed {
                kind: ImageKind::Device,
                what: Defect::OpCounts,
            },
            ImageError::BufferTooSmall {
                what: Resource::DecodedOps,
                needed: u64::MAX,
                available: 0,
            },
            ImageError::RankOutOfRange { rank: 4, ranks: 4 },
            ImageError::PeerOutOfRange {
                op: 2,
                peer: 9,
                ranks: 8,
            },
            ImageError::SelfPeer { op: 0, rank: 3 },
            ImageError::OverCapacity {
                what: Resource::TableRuns,
                needed: 3,
                capacity: 2,
            },
            ImageError::DependencyOutOfRange { op: 1, after: 1 },
            ImageError::Malformed {
                kind: ImageKind::RouteTable,
                what: Defect::RunsNotCanonical,
            },
        ]
    }

    #[test]
    fn every_error_round_trips_through_postcard() {
        // A device sends its image errors to the host as they are.
        for e in every_variant() {
            let mut buf = [0u8; 64];
            let bytes = postcard::to_slice(&e, &mut buf).unwrap();
            assert_eq!(postcard::from_bytes::<ImageError>(bytes).unwrap(), e);
        }
    }

    #[test]
    fn details_read_as_before() {
        let all = every_variant();
        let (malformed, too_small, over, table) = (all[7], all[8], all[12], all[14]);
        assert_eq!(
            format!("{malformed}"),
            "malformed device image image: program op counts do not add up to the ops"
        );
        assert_eq!(
            format!("{table}"),
            "malformed route table image: runs are not in canonical form"
        );
        assert_eq!(
            format!("{too_small}"),
            "buffer too small: decoded ops needs 18446744073709551615, 0 available"
        );
        assert_eq!(
            format!("{over}"),
            "image exceeds the device's capacity: 3 table runs needed, the device holds at most 2"
        );
    }
}
