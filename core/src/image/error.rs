//! The one error of image encoding and decoding (every kind, framing and payload).
//!
//! Every variant names what is wrong with the bytes (or the buffer) and the values involved,
//! so a device or a host can report it without further context. Decoding never panics.

use core::fmt;

use super::frame::{ImageKind, MAGIC, OVERHEAD};

/// Why an image could not be written or read ([`super::frame`] for the framing,
/// [`super::route_table`] and [`super::program`] for the payloads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        what: &'static str,
    },
    /// A caller buffer is too small: the output bytes when encoding, the decoded runs or ops
    /// when decoding.
    BufferTooSmall {
        /// What ran out ("image bytes", "decoded runs", "decoded ops").
        what: &'static str,
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
        /// What runs out ("table runs", "programs", "program ops", "destinations").
        what: &'static str,
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
