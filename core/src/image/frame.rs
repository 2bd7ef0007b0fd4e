//! The framing shared by every image: header, payload, CRC-32 (docs/architecture.md §3: every
//! image format has a version and a CRC).
//!
//! Byte layout, format version 2 (all multi-byte integers little-endian):
//!
//! ```text
//! offset        size  field
//! 0             4     magic "JNIM" (0x4A 0x4E 0x49 0x4D)
//! 4             1     format version (VERSION = 2)
//! 5             1     kind (ImageKind::code: 1 route table, 2 virtual layers, 3 program,
//!                     4 device image)
//! 6             4     payload length n (u32)
//! 10            n     payload (kind-specific postcard encoding, see route_table / program)
//! 10 + n        4     CRC-32/ISO-HDLC (crc32.rs) of bytes 0 .. 10 + n (u32)
//! ```
//!
//! An image is exactly `14 + n` bytes. [`parse`] checks, in this order: at least
//! [`OVERHEAD`] bytes ([`ImageError::Truncated`]), the magic ([`ImageError::BadMagic`]), the
//! version ([`ImageError::UnsupportedVersion`]; checked before anything whose position a
//! later version may move), the length against the bytes present
//! ([`ImageError::Truncated`] when fewer, [`ImageError::LengthMismatch`] when more), the
//! CRC ([`ImageError::CrcMismatch`]) and the kind code ([`ImageError::UnknownKind`]). Only
//! then does a payload codec see the payload, so a corrupted byte anywhere in header or
//! payload is reported as what it is. Nothing here panics on any input.

use core::fmt;

use serde::{Deserialize, Serialize};

use super::crc32::crc32;
use super::error::{ImageError, Resource};

/// Magic at offset 0 of every image.
pub const MAGIC: [u8; 4] = *b"JNIM";
/// Format version at offset 4, written and read by this build (versioning policy: [`super`]).
pub const VERSION: u8 = 2;
/// Bytes before the payload: magic 4, version 1, kind 1, payload length 4.
pub const HEADER_LEN: usize = 10;
/// Bytes of the CRC-32 after the payload.
pub const CRC_LEN: usize = 4;
/// Bytes an image adds to its payload ([`HEADER_LEN`] + [`CRC_LEN`]).
pub const OVERHEAD: usize = HEADER_LEN + CRC_LEN;

/// Magics of the version-1 formats (route table, program) that preceded this framing; they
/// had the version byte at offset 4 too, so [`parse`] reports them as an unsupported version.
const LEGACY_MAGICS: [[u8; 4]; 2] = [*b"JNRT", *b"JNPG"];

/// What an image holds: byte 5 of the header. Codes are stable across versions; new kinds
/// get new codes (code 4 is the device image that bundles a device's table and programs), and a build that does not know a code reports [`ImageError::UnknownKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ImageKind {
    /// One switch's forwarding table: runs of `RouteEntry` ([`super::route_table`]).
    RouteTable,
    /// One switch's virtual-layer table: runs of `u8` layers ([`super::route_table`]).
    VirtualLayers,
    /// One rank's collective program ([`super::program`]).
    Program,
    /// Everything one device holds: header, its switch's route table, the programs of its
    /// terminals ([`super::device`]).
    Device,
}

impl ImageKind {
    /// Every kind this build knows, in code order.
    pub const ALL: [ImageKind; 4] = [
        ImageKind::RouteTable,
        ImageKind::VirtualLayers,
        ImageKind::Program,
        ImageKind::Device,
    ];

    /// The kind's code in the header (byte 5).
    pub const fn code(self) -> u8 {
        match self {
            ImageKind::RouteTable => 1,
            ImageKind::VirtualLayers => 2,
            ImageKind::Program => 3,
            ImageKind::Device => 4,
        }
    }

    /// The kind with header code `code`, if this build knows it.
    pub const fn from_code(code: u8) -> Option<ImageKind> {
        match code {
            1 => Some(ImageKind::RouteTable),
            2 => Some(ImageKind::VirtualLayers),
            3 => Some(ImageKind::Program),
            4 => Some(ImageKind::Device),
            _ => None,
        }
    }

    /// Human-readable name ("route table", "virtual layer table", "program", "device image").
    pub const fn name(self) -> &'static str {
        match self {
            ImageKind::RouteTable => "route table",
            ImageKind::VirtualLayers => "virtual layer table",
            ImageKind::Program => "program",
            ImageKind::Device => "device image",
        }
    }
}

impl fmt::Display for ImageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A checked image: its kind and its payload (borrowed from the image bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Kind from the header.
    pub kind: ImageKind,
    /// The payload bytes (offset [`HEADER_LEN`], length from the header).
    pub payload: &'a [u8],
}

/// Checks the framing of `bytes` (module docs: every check, in order) and returns kind and
/// payload. Works for every kind, e.g. to find out what an image file holds.
///
/// # Examples
///
/// ```
/// use jumpnet_core::image::{frame, ImageError};
///
/// assert!(matches!(
///     frame::parse(b"not an image at all"),
///     Err(ImageError::BadMagic { found }) if &found == b"not "
/// ));
/// ```
pub fn parse(bytes: &[u8]) -> Result<Frame<'_>, ImageError> {
    let truncated = |needed| ImageError::Truncated {
        len: bytes.len(),
        needed,
    };
    if bytes.len() < OVERHEAD {
        return Err(truncated(OVERHEAD));
    }
    let (header, rest) = bytes.split_at(HEADER_LEN);
    let [m0, m1, m2, m3, version, kind, l0, l1, l2, l3] = header else {
        return Err(truncated(OVERHEAD));
    };
    let magic = [*m0, *m1, *m2, *m3];
    if magic != MAGIC {
        if LEGACY_MAGICS.contains(&magic) {
            return Err(ImageError::UnsupportedVersion {
                found: *version,
                supported: VERSION,
            });
        }
        return Err(ImageError::BadMagic { found: magic });
    }
    if *version != VERSION {
        return Err(ImageError::UnsupportedVersion {
            found: *version,
            supported: VERSION,
        });
    }
    let declared = u32::from_le_bytes([*l0, *l1, *l2, *l3]);
    let actual = rest.len() - CRC_LEN; // rest.len() >= CRC_LEN: bytes.len() >= OVERHEAD
    let needed = (declared as u64).saturating_add(OVERHEAD as u64);
    if (bytes.len() as u64) < needed {
        return Err(truncated(usize::try_from(needed).unwrap_or(usize::MAX)));
    }
    if actual as u64 != declared as u64 {
        return Err(ImageError::LengthMismatch { declared, actual });
    }
    let (payload, crc_bytes) = rest.split_at(actual);
    let [c0, c1, c2, c3] = crc_bytes else {
        return Err(truncated(OVERHEAD));
    };
    let stored = u32::from_le_bytes([*c0, *c1, *c2, *c3]);
    let computed = crc32(bytes.get(..HEADER_LEN + actual).unwrap_or(&[]));
    if stored != computed {
        return Err(ImageError::CrcMismatch { stored, computed });
    }
    let kind = ImageKind::from_code(*kind).ok_or(ImageError::UnknownKind { found: *kind })?;
    Ok(Frame { kind, payload })
}

/// [`parse`], then requires the kind to be `expected`; returns the payload.
///
/// # Examples
///
/// A route-table image round trip through the framing: the header names the kind, and the
/// CRC-32 catches any damaged byte.
///
/// ```
/// use jumpnet_core::image::{frame, route_table, ImageError, ImageKind};
/// use jumpnet_core::routing::{RouteEntry, Run, RunTableBuilder};
///
/// let mut runs = [Run { first: 0, value: RouteEntry::NONE }; 4];
/// let mut builder = RunTableBuilder::new(&mut runs);
/// for port in [0, 0, 1, 2] {
///     builder.push(RouteEntry { port, vc: 0 })?;
/// }
/// let mut bytes = [0u8; route_table::max_image_len(3)];
/// let len = route_table::encode(1, &builder.finish(), &mut bytes)?;
/// let image = &mut bytes[..len];
/// assert_eq!(&image[..4], b"JNIM");
/// assert!(frame::payload_of(image, ImageKind::RouteTable).is_ok());
/// assert!(matches!(
///     frame::payload_of(image, ImageKind::Program),
///     Err(ImageError::WrongKind { found: ImageKind::RouteTable, .. })
/// ));
/// image[12] ^= 0x40;
/// assert!(matches!(frame::parse(image), Err(ImageError::CrcMismatch { .. })));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn payload_of(bytes: &[u8], expected: ImageKind) -> Result<&[u8], ImageError> {
    let frame = parse(bytes)?;
    if frame.kind != expected {
        return Err(ImageError::WrongKind {
            found: frame.kind,
            expected,
        });
    }
    Ok(frame.payload)
}

/// Writes an image of `kind` into `out`: `write_payload` gets the room between header and CRC
/// and returns the payload length, or `None` when the payload does not fit; `needed` (an upper
/// bound of the image length) is reported in [`ImageError::BufferTooSmall`]. Returns the
/// image length.
pub(crate) fn encode(
    kind: ImageKind,
    out: &mut [u8],
    needed: usize,
    write_payload: impl FnOnce(&mut [u8]) -> Option<usize>,
) -> Result<usize, ImageError> {
    let too_small = ImageError::BufferTooSmall {
        what: Resource::ImageBytes,
        needed: needed as u64,
        available: out.len() as u64,
    };
    let room = out.len().checked_sub(OVERHEAD).ok_or(too_small)?;
    let room = out
        .get_mut(HEADER_LEN..HEADER_LEN + room)
        .ok_or(too_small)?;
    let payload_len = write_payload(room).ok_or(too_small)?;
    let declared = u32::try_from(payload_len).map_err(|_| too_small)?;
    let header = out.get_mut(..HEADER_LEN).ok_or(too_small)?;
    let (magic, rest) = header.split_at_mut(4);
    magic.copy_from_slice(&MAGIC);
    let (version_kind, len) = rest.split_at_mut(2);
    version_kind.copy_from_slice(&[VERSION, kind.code()]);
    len.copy_from_slice(&declared.to_le_bytes());
    let end = HEADER_LEN + payload_len;
    let crc = crc32(out.get(..end).ok_or(too_small)?);
    out.get_mut(end..end + CRC_LEN)
        .ok_or(too_small)?
        .copy_from_slice(&crc.to_le_bytes());
    Ok(end + CRC_LEN)
}

/// Serializes `value` with postcard at `*pos` in `out` and advances `*pos`; `None` when it
/// does not fit. Payload writers chain it inside [`encode`]'s closure.
pub(crate) fn put<T: serde::Serialize + ?Sized>(
    out: &mut [u8],
    pos: &mut usize,
    value: &T,
) -> Option<()> {
    let rest = out.get_mut(*pos..)?;
    *pos += postcard::to_slice(value, rest).ok()?.len();
    Some(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn image(kind: ImageKind, payload: &[u8]) -> Vec<u8> {
        let mut out = std::vec![0u8; OVERHEAD + payload.len()];
        let n = encode(kind, &mut out, OVERHEAD + payload.len(), |room| {
            room.get_mut(..payload.len())?.copy_from_slice(payload);
            Some(payload.len())
        })
        .unwrap();
        assert_eq!(n, out.len());
        out
    }

    #[test]
    fn bytes_are_the_documented_layout() {
        let img = image(ImageKind::Program, &[0xAA, 0xBB, 0xCC]);
        let head: &[u8] = &[b'J', b'N', b'I', b'M', 2, 3, 3, 0, 0, 0, 0xAA, 0xBB, 0xCC];
        assert_eq!(&img[..13], head);
        assert_eq!(&img[13..], &crc32(head).to_le_bytes());
        assert_eq!(
            parse(&img).unwrap(),
            Frame {
                kind: ImageKind::Program,
                payload: &[0xAA, 0xBB, 0xCC]
            }
        );
    }

    #[test]
    fn kind_codes_are_stable_and_round_trip() {
        for (k, code) in ImageKind::ALL.into_iter().zip(1u8..) {
            assert_eq!(k.code(), code);
            assert_eq!(ImageKind::from_code(code), Some(k));
        }
        assert_eq!(ImageKind::from_code(0), None);
        assert_eq!(ImageKind::from_code(4), Some(ImageKind::Device));
        assert_eq!(ImageKind::from_code(5), None);
    }

    /// Re-seals `img` with a valid CRC after editing it.
    fn reseal(img: &mut [u8]) {
        let end = img.len() - CRC_LEN;
        let crc = crc32(&img[..end]);
        img[end..].copy_from_slice(&crc.to_le_bytes());
    }

    #[test]
    fn every_framing_error_is_named() {
        let good = image(ImageKind::RouteTable, &[1, 2, 3, 4]);
        assert_eq!(
            parse(&good[..13]),
            Err(ImageError::Truncated {
                len: 13,
                needed: 14
            })
        );
        assert_eq!(
            parse(&good[..17]),
            Err(ImageError::Truncated {
                len: 17,
                needed: 18
            })
        );
        let mut long = good.clone();
        long.push(0);
        assert_eq!(
            parse(&long),
            Err(ImageError::LengthMismatch {
                declared: 4,
                actual: 5
            })
        );
        let mut bad = good.clone();
        bad[0] = b'X';
        assert_eq!(parse(&bad), Err(ImageError::BadMagic { found: *b"XNIM" }));
        let mut bad = good.clone();
        bad[4] = 3;
        assert_eq!(
            parse(&bad),
            Err(ImageError::UnsupportedVersion {
                found: 3,
                supported: 2
            })
        );
        let mut legacy = good.clone();
        legacy[..5].copy_from_slice(b"JNRT\x01");
        assert_eq!(
            parse(&legacy),
            Err(ImageError::UnsupportedVersion {
                found: 1,
                supported: 2
            })
        );
        let mut bad = good.clone();
        bad[11] ^= 0x40;
        let stored = u32::from_le_bytes(good[14..18].try_into().unwrap());
        assert_eq!(
            parse(&bad),
            Err(ImageError::CrcMismatch {
                stored,
                computed: crc32(&bad[..14])
            })
        );
        let mut bad = good.clone();
        bad[5] = 5;
        reseal(&mut bad);
        assert_eq!(parse(&bad), Err(ImageError::UnknownKind { found: 5 }));
        assert_eq!(
            payload_of(&good, ImageKind::Program),
            Err(ImageError::WrongKind {
                found: ImageKind::RouteTable,
                expected: ImageKind::Program
            })
        );
        assert_eq!(
            payload_of(&good, ImageKind::RouteTable),
            Ok(&[1, 2, 3, 4][..])
        );
        // A length field near u32::MAX is a truncation, not an overflow.
        let mut bad = good.clone();
        bad[6..10].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            parse(&bad),
            Err(ImageError::Truncated { len: 18, .. })
        ));
    }

    #[test]
    fn small_output_is_reported() {
        let mut out = [0u8; 13];
        assert_eq!(
            encode(ImageKind::Program, &mut out, 99, |_| Some(0)),
            Err(ImageError::BufferTooSmall {
                what: Resource::ImageBytes,
                needed: 99,
                available: 13
            })
        );
        let mut out = [0u8; 20];
        assert_eq!(
            encode(ImageKind::Program, &mut out, 99, |_| None),
            Err(ImageError::BufferTooSmall {
                what: Resource::ImageBytes,
                needed: 99,
                available: 20
            })
        );
    }
}
