//! UART frame codec: `COBS(postcard(message) ‖ CRC-32) ‖ 0x00`.
//!
//! A frame carries one postcard-serialized message followed by the CRC-32/ISO-HDLC (the
//! zlib/Ethernet CRC) of the serialized bytes, little-endian, the whole COBS-encoded so that
//! `0x00` only appears as the frame terminator. The CRC is jumpnet-core's
//! (`crate::image::crc32`, the one that also protects every image). Encoding feeds
//! postcard's COBS flavor through [`CrcFlavor`] (the same bytes as postcard's own CRC
//! modifier with the `crc` crate's CRC-32/ISO-HDLC, used before, so the wire bytes did not
//! change); decoding undoes COBS in place, checks the CRC and rejects trailing bytes. The
//! message types of [`super::message`] carry the wire version.

use core::fmt;

use crate::image::crc32::{crc32, Crc32};
use postcard::ser_flavors::{Cobs, Flavor, Slice};
use serde::{Deserialize, Serialize};

/// Frame terminator byte.
pub const TERMINATOR: u8 = 0x00;

/// Bytes the CRC adds to a serialized message.
pub const CRC_LEN: usize = 4;

/// Why a frame could not be encoded or decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FrameError {
    /// The output buffer is too small for the encoded frame.
    BufferFull,
    /// More bytes arrived before a terminator than the receive buffer holds.
    Overflow,
    /// An empty frame (nothing between two terminators after decoding).
    Empty,
    /// The COBS encoding is invalid.
    BadCobs,
    /// The frame is shorter than a CRC.
    Truncated,
    /// The CRC does not match the payload.
    BadCrc,
    /// The payload is not a valid postcard message of the expected type.
    BadMessage,
    /// Bytes follow the message inside the frame.
    TrailingBytes,
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            FrameError::BufferFull => "frame buffer too small for the encoded message",
            FrameError::Overflow => {
                "frame longer than the receive buffer before its 0x00 terminator"
            }
            FrameError::Empty => "empty frame",
            FrameError::BadCobs => "frame is not valid COBS",
            FrameError::Truncated => "frame shorter than its 4-byte CRC",
            FrameError::BadCrc => "frame CRC-32 does not match its payload",
            FrameError::BadMessage => "frame payload is not a valid message",
            FrameError::TrailingBytes => "frame has bytes after its message",
        };
        f.write_str(text)
    }
}

/// A postcard flavor that feeds every serialized byte into core's CRC-32 and, on
/// finalization, appends the CRC (little-endian) to the inner flavor: the frame body
/// `postcard(message) ‖ CRC-32`.
#[derive(Debug)]
pub struct CrcFlavor<F> {
    inner: F,
    crc: Crc32,
}

impl<F: Flavor> CrcFlavor<F> {
    /// Wraps `inner` with a fresh CRC.
    pub fn new(inner: F) -> Self {
        CrcFlavor {
            inner,
            crc: Crc32::new(),
        }
    }
}

impl<F: Flavor> Flavor for CrcFlavor<F> {
    type Output = F::Output;

    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.crc.update(data);
        self.inner.try_extend(data)
    }

    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.crc.update(&[data]);
        self.inner.try_push(data)
    }

    fn finalize(mut self) -> postcard::Result<Self::Output> {
        self.inner.try_extend(&self.crc.finish().to_le_bytes())?;
        self.inner.finalize()
    }
}

/// Encodes `message` as one frame (including the `0x00` terminator) into `buf` and returns
/// the used prefix.
pub fn encode<'b, T: Serialize + ?Sized>(
    message: &T,
    buf: &'b mut [u8],
) -> Result<&'b mut [u8], FrameError> {
    let cobs = Cobs::try_new(Slice::new(buf)).map_err(|_| FrameError::BufferFull)?;
    postcard::serialize_with_flavor(message, CrcFlavor::new(cobs))
        .map_err(|_| FrameError::BufferFull)
}

/// Decodes one frame in place. `frame` is the bytes before the terminator (a trailing `0x00`
/// and anything after it are ignored); its contents are overwritten by the COBS decoding.
pub fn decode<'a, T: Deserialize<'a>>(frame: &'a mut [u8]) -> Result<T, FrameError> {
    let end = frame
        .iter()
        .position(|&b| b == TERMINATOR)
        .unwrap_or(frame.len());
    let frame = &mut frame[..end];
    if frame.is_empty() {
        return Err(FrameError::Empty);
    }
    let len = cobs::decode_in_place(frame).map_err(|_| FrameError::BadCobs)?;
    let payload = frame.get(..len).ok_or(FrameError::BadCobs)?;
    if payload.is_empty() {
        return Err(FrameError::Empty);
    }
    if payload.len() < CRC_LEN {
        return Err(FrameError::Truncated);
    }
    let (body, crc_bytes) = payload.split_at(payload.len() - CRC_LEN);
    let mut crc = [0u8; CRC_LEN];
    crc.copy_from_slice(crc_bytes);
    if crc32(body) != u32::from_le_bytes(crc) {
        return Err(FrameError::BadCrc);
    }
    let (message, rest) = postcard::take_from_bytes(body).map_err(|_| FrameError::BadMessage)?;
    if !rest.is_empty() {
        return Err(FrameError::TrailingBytes);
    }
    Ok(message)
}

/// Collects received bytes into frames: everything up to a `0x00` terminator.
///
/// Bytes beyond the capacity `N` are dropped and the frame is reported as
/// [`FrameError::Overflow`] when its terminator arrives, so a receiver resynchronizes on the
/// next frame. Lone terminators (idle line) are ignored.
#[derive(Debug)]
pub struct FrameAccumulator<const N: usize> {
    buf: [u8; N],
    len: usize,
    overflowed: bool,
}

impl<const N: usize> Default for FrameAccumulator<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> FrameAccumulator<N> {
    /// An empty accumulator.
    pub const fn new() -> Self {
        FrameAccumulator {
            buf: [0; N],
            len: 0,
            overflowed: false,
        }
    }

    /// Forgets the bytes of the frame being collected.
    pub fn clear(&mut self) {
        self.len = 0;
        self.overflowed = false;
    }

    /// Feeds one byte. Returns the completed frame (without its terminator) when `byte` ends
    /// one; the frame stays valid until the next call.
    pub fn push(&mut self, byte: u8) -> Option<Result<&mut [u8], FrameError>> {
        if byte != TERMINATOR {
            match self.buf.get_mut(self.len) {
                Some(slot) => {
                    *slot = byte;
                    self.len += 1;
                }
                None => self.overflowed = true,
            }
            return None;
        }
        let len = core::mem::take(&mut self.len);
        if core::mem::take(&mut self.overflowed) {
            return Some(Err(FrameError::Overflow));
        }
        if len == 0 {
            return None;
        }
        self.buf.get_mut(..len).map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Sample {
        a: u8,
        b: u64,
        c: [u8; 3],
    }

    /// Textbook CRC-32 (reflected, polynomial 0xEDB88320), bit by bit.
    fn crc32_reference(data: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &byte in data {
            crc ^= byte as u32;
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// Textbook COBS encoder (without terminator) for inputs whose zero-free runs are shorter
    /// than 254 bytes: each run becomes `len + 1` followed by the run.
    fn cobs_reference(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for run in data.split(|&b| b == 0) {
            assert!(run.len() < 254);
            out.push(run.len() as u8 + 1);
            out.extend_from_slice(run);
        }
        out
    }

    #[test]
    fn crc_is_the_standard_crc32() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32_reference(b"123456789"), 0xCBF4_3926);
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        assert_eq!(crc32(&data), crc32_reference(&data));
    }

    #[test]
    fn frames_match_postcards_own_cobs_encoding() {
        // The frame is `postcard::to_slice_cobs` of the message bytes with the CRC appended:
        // the bytes postcard's CRC modifier produced before core's CRC replaced it.
        let msg = Sample {
            a: 1,
            b: 1 << 40,
            c: [0, 0, 9],
        };
        let mut buf = [0u8; 64];
        let frame = encode(&msg, &mut buf).unwrap().to_vec();
        let mut body = [0u8; 64];
        let body = postcard::to_slice(&msg, &mut body).unwrap().to_vec();
        let mut with_crc = body.clone();
        with_crc.extend_from_slice(&crc32_reference(&body).to_le_bytes());
        let mut expected = [0u8; 64];
        let expected = postcard::to_slice_cobs(&RawBytes(&with_crc), &mut expected).unwrap();
        assert_eq!(frame, expected);
    }

    /// Serializes as its bytes, without a length prefix.
    struct RawBytes<'a>(&'a [u8]);

    impl Serialize for RawBytes<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeTuple;
            let mut t = s.serialize_tuple(self.0.len())?;
            for b in self.0 {
                t.serialize_element(b)?;
            }
            t.end()
        }
    }

    #[test]
    fn encoding_matches_an_independent_construction() {
        let msg = Sample {
            a: 0,
            b: 300,
            c: [0, 7, 0],
        };
        let mut buf = [0u8; 64];
        let frame = encode(&msg, &mut buf).unwrap().to_vec();
        // postcard: u8 raw, u64 as varint (300 = 0xAC 0x02), array bytes raw.
        let body = [0x00, 0xAC, 0x02, 0x00, 0x07, 0x00];
        let mut payload = body.to_vec();
        payload.extend_from_slice(&crc32_reference(&body).to_le_bytes());
        let mut expected = cobs_reference(&payload);
        expected.push(0);
        assert_eq!(frame, expected);
        assert_eq!(frame.iter().filter(|&&b| b == 0).count(), 1);
    }

    #[test]
    fn round_trip_and_every_single_byte_corruption_is_caught() {
        let msg = Sample {
            a: 9,
            b: u64::MAX - 5,
            c: [1, 0, 255],
        };
        let mut buf = [0u8; 64];
        let frame = encode(&msg, &mut buf).unwrap().to_vec();
        let mut copy = frame.clone();
        assert_eq!(decode::<Sample>(&mut copy), Ok(msg));
        let body_len = frame.len() - 1;
        for i in 0..body_len {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = frame.clone();
                bad[i] ^= flip;
                if bad[i] == 0 {
                    continue; // would split the frame; the accumulator handles that case
                }
                let r = decode::<Sample>(&mut bad[..body_len]);
                assert!(
                    r.is_err(),
                    "corruption at byte {i} (xor {flip:#x}) accepted"
                );
            }
        }
    }

    #[test]
    fn rejects_short_empty_and_trailing() {
        let mut empty: [u8; 0] = [];
        assert_eq!(decode::<u8>(&mut empty), Err(FrameError::Empty));
        // COBS of [0x05] (1 byte < CRC length).
        let mut short = [0x02, 0x05];
        assert_eq!(decode::<u8>(&mut short), Err(FrameError::Truncated));
        // A valid frame of two u8s decoded as one u8 leaves a trailing byte.
        let mut buf = [0u8; 16];
        let frame = encode(&(1u8, 2u8), &mut buf).unwrap();
        assert_eq!(decode::<u8>(frame), Err(FrameError::TrailingBytes));
        let mut buf = [0u8; 16];
        let frame = encode(&300u16, &mut buf).unwrap();
        assert_eq!(decode::<bool>(frame), Err(FrameError::BadMessage));
    }

    #[test]
    fn encode_reports_small_buffers() {
        let mut buf = [0u8; 4];
        assert_eq!(
            encode(&[7u8; 16], &mut buf).unwrap_err(),
            FrameError::BufferFull
        );
    }

    #[test]
    fn accumulator_splits_frames_and_recovers_from_overflow() {
        let mut acc = FrameAccumulator::<8>::new();
        let mut out: Vec<Result<Vec<u8>, FrameError>> = Vec::new();
        let stream = [0, 0, 1, 2, 3, 0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 4, 0];
        for b in stream {
            if let Some(r) = acc.push(b) {
                out.push(r.map(|f| f.to_vec()));
            }
        }
        assert_eq!(
            out,
            [Ok(vec![1, 2, 3]), Err(FrameError::Overflow), Ok(vec![4])]
        );
    }
}
