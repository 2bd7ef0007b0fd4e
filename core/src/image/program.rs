//! Program images: one rank's collective program (`collective::program`, docs/collectives.md)
//! in the shared framing ([`super::frame`]), kind [`ImageKind::Program`] — what is flashed
//! onto a NIC or sent to the firmware. This is the only byte encoding of programs that core
//! exposes.
//!
//! Payload layout (postcard: unsigned integers wider than a byte are LEB128 varints, enum
//! variants are a varint index followed by their fields in declaration order):
//!
//! ```text
//! varint rank            the program's rank
//! varint ranks           ranks of the collective
//! varint ops             number of ops that follow
//! ops × postcard(Op)     Op { Send | Recv | RecvReduce { peer, blocks, after } | Permute { .. } }
//! ```
//!
//! Decoding checks the framing, then every op, and rejects programs no device may run:
//! a rank not below the rank count ([`ImageError::RankOutOfRange`]), a peer outside
//! `0..ranks` ([`ImageError::PeerOutOfRange`]), a peer equal to the own rank
//! ([`ImageError::SelfPeer`]) and a dependency on an op that is not an earlier one
//! ([`ImageError::DependencyOutOfRange`]). [`encode`] applies the same checks, so every image
//! it writes decodes. Nothing here panics on any input.
//!
//! # Examples
//!
//! ```
//! use jumpnet_core::collective::{Blocks, Dep, Op, RecursiveDoubling, Schedule};
//! use jumpnet_core::image::program::{decode, encode, max_image_len, DecodedProgram};
//!
//! // Rank 3's program of a recursive-doubling allreduce over 8 ranks.
//! let rd = RecursiveDoubling::new(8, 1024).expect("8 ranks are valid");
//! let blank = Op::Send { peer: 0, blocks: Blocks::All, after: Dep::None };
//! let mut ops = [blank; 16];
//! let n = rd.program(3, &mut ops).expect("16 ops hold the program");
//!
//! let mut image = [0u8; max_image_len(16)];
//! let len = encode(3, 8, &ops[..n], &mut image)?;
//!
//! let mut decoded = [blank; 16];
//! let d = decode(&image[..len], &mut decoded)?;
//! assert_eq!(d, DecodedProgram { rank: 3, ranks: 8, ops: n });
//! assert_eq!(decoded[..n], ops[..n]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::collective::message::Rank;
use crate::collective::program::{Dep, Op};

use super::error::{Defect, ImageError, Resource};
use super::frame::{self, ImageKind, OVERHEAD};

/// The payload's leading fields.
#[derive(Serialize, Deserialize)]
struct Header {
    rank: u32,
    ranks: u32,
    ops: u32,
}

/// Upper bound on the image length of a program of `ops` ops: the framing, three 5-byte
/// varints, and per op at most 33 bytes (variant 1, peer or shift 5, blocks 1 + 4 × 5,
/// dependency 1 + 5). A `const fn`, so devices can size static buffers with it.
pub const fn max_image_len(ops: usize) -> usize {
    OVERHEAD + 15 + ops * 33
}

/// A decoded program image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodedProgram {
    /// Rank the program belongs to (below `ranks`).
    pub rank: Rank,
    /// Ranks of the collective.
    pub ranks: u32,
    /// Number of ops written to the caller's buffer.
    pub ops: usize,
}

/// Checks op `index` of the program of `rank` among `ranks` (module docs).
pub(crate) fn check_op(index: u32, op: &Op, rank: Rank, ranks: u32) -> Result<(), ImageError> {
    if let Some((peer, _)) = op.as_send().or(op.as_recv()) {
        if peer >= ranks {
            return Err(ImageError::PeerOutOfRange {
                op: index,
                peer,
                ranks,
            });
        }
        if peer == rank {
            return Err(ImageError::SelfPeer { op: index, rank });
        }
    }
    if let Dep::Op(after) = op.after() {
        if after >= index {
            return Err(ImageError::DependencyOutOfRange { op: index, after });
        }
    }
    Ok(())
}

/// Checks rank and every op (module docs).
fn check_program(rank: Rank, ranks: u32, program: &[Op]) -> Result<(), ImageError> {
    if rank >= ranks {
        return Err(ImageError::RankOutOfRange { rank, ranks });
    }
    for (i, op) in program.iter().enumerate() {
        check_op(i as u32, op, rank, ranks)?;
    }
    Ok(())
}

/// Writes the image of `program` (rank `rank` of `ranks`) into `out`; returns the image
/// length. `out` should hold [`max_image_len`] of the program's ops. A program that breaks a
/// rule of the module docs gives the error decoding would give; a too small `out` is
/// [`ImageError::BufferTooSmall`].
pub fn encode(rank: Rank, ranks: u32, program: &[Op], out: &mut [u8]) -> Result<usize, ImageError> {
    check_program(rank, ranks, program)?;
    let header = Header {
        rank,
        ranks,
        ops: program.len() as u32,
    };
    frame::encode(
        ImageKind::Program,
        out,
        max_image_len(program.len()),
        |payload| {
            let mut pos = 0;
            frame::put(payload, &mut pos, &header)?;
            for op in program {
                frame::put(payload, &mut pos, op)?;
            }
            Some(pos)
        },
    )
}

/// Decodes a program image into `ops_out`. Framing errors are those of [`frame::parse`]
/// (plus [`ImageError::WrongKind`]); a payload that does not decode is
/// [`ImageError::Malformed`]; fields out of range are named by their own variants (module
/// docs); an `ops_out` too small for the program is [`ImageError::BufferTooSmall`].
pub fn decode(bytes: &[u8], ops_out: &mut [Op]) -> Result<DecodedProgram, ImageError> {
    let malformed = |what| ImageError::Malformed {
        kind: ImageKind::Program,
        what,
    };
    let payload = frame::payload_of(bytes, ImageKind::Program)?;
    let (header, mut rest) = postcard::take_from_bytes::<Header>(payload)
        .map_err(|_| malformed(Defect::ProgramHeader))?;
    let (rank, ranks) = (header.rank, header.ranks);
    if rank >= ranks {
        return Err(ImageError::RankOutOfRange { rank, ranks });
    }
    let n = header.ops as usize;
    // Every op takes at least four bytes (variant, two fields, dependency).
    if n > rest.len() / 4 {
        return Err(malformed(Defect::OpCount));
    }
    if n > ops_out.len() {
        return Err(ImageError::BufferTooSmall {
            what: Resource::DecodedOps,
            needed: n as u64,
            available: ops_out.len() as u64,
        });
    }
    for (i, slot) in ops_out.iter_mut().take(n).enumerate() {
        let (op, r) = postcard::take_from_bytes::<Op>(rest).map_err(|_| malformed(Defect::Op))?;
        check_op(i as u32, &op, rank, ranks)?;
        *slot = op;
        rest = r;
    }
    if !rest.is_empty() {
        return Err(malformed(Defect::TrailingOpBytes));
    }
    Ok(DecodedProgram {
        rank,
        ranks,
        ops: n,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::collective::{
        AllgatherKind, Binomial, Blocks, Broadcast, Bruck, RecursiveDoubling, RingAllgather,
        RingAllreduce, ScatterAllgather, Schedule,
    };
    use crate::image::crc32::crc32;
    use std::vec;
    use std::vec::Vec;

    const BLANK: Op = Op::Permute {
        reflect: false,
        shift: 0,
        after: Dep::None,
    };

    fn program_of<S: Schedule>(s: &S, r: Rank) -> Vec<Op> {
        let mut ops = vec![BLANK; s.program_len(r)];
        let n = s.program(r, &mut ops).unwrap();
        ops.truncate(n);
        ops
    }

    #[test]
    fn round_trip_and_bound() {
        let rd = RecursiveDoubling::new(1000, 4096).unwrap();
        let br = Bruck::new(37, 8).unwrap();
        for (rank, ops, ranks) in [
            (999, program_of(&rd, 999), 1000),
            (5, program_of(&br, 5), 37),
        ] {
            let mut buf = [0u8; 4096];
            let len = encode(rank, ranks, &ops, &mut buf).unwrap();
            assert!(len <= max_image_len(ops.len()));
            let mut back = [BLANK; 64];
            let d = decode(&buf[..len], &mut back).unwrap();
            assert_eq!(
                d,
                DecodedProgram {
                    rank,
                    ranks,
                    ops: ops.len()
                }
            );
            assert_eq!(back[..ops.len()], ops[..]);
        }
    }

    /// Every rank's program of every closed-form schedule passes the decoder's checks (they
    /// reject nothing a schedule generates).
    #[test]
    fn every_schedule_program_encodes_and_decodes() {
        fn all_ranks<S: Schedule>(s: &S) {
            for r in 0..s.ranks() {
                let ops = program_of(s, r);
                let mut buf = vec![0u8; max_image_len(ops.len())];
                let len = encode(r, s.ranks(), &ops, &mut buf).unwrap();
                let mut back = vec![BLANK; ops.len()];
                let d = decode(&buf[..len], &mut back).unwrap();
                assert_eq!((d.rank, d.ops), (r, ops.len()));
                assert_eq!(back, ops);
            }
        }
        for n in [1u32, 2, 3, 7, 16, 37] {
            all_ranks(&Binomial::new(n, n / 2, 8).unwrap());
            all_ranks(&RecursiveDoubling::new(n, 64).unwrap());
            all_ranks(&Bruck::new(n, 8).unwrap());
            all_ranks(&RingAllgather::new(n, 8).unwrap());
            all_ranks(&RingAllreduce::new(n, 4096, 4).unwrap());
            all_ranks(&ScatterAllgather::new(n, n - 1, 4096, AllgatherKind::Ring).unwrap());
            if n.is_power_of_two() {
                let kind = AllgatherKind::RecursiveDoubling;
                all_ranks(&ScatterAllgather::new(n, 0, 4096, kind).unwrap());
            }
            all_ranks(&Broadcast::auto(n, 0, 100_000).unwrap());
        }
    }

    #[test]
    fn corruption_is_detected_never_panics() {
        let rd = RecursiveDoubling::new(64, 8).unwrap();
        let ops = program_of(&rd, 3);
        let mut buf = [0u8; 1024];
        let len = encode(3, 64, &ops, &mut buf).unwrap();
        let mut out = [BLANK; 64];
        for i in 0..len {
            let mut bad = buf;
            bad[i] ^= 0x5A;
            assert!(decode(&bad[..len], &mut out).is_err(), "flip at {i}");
        }
        for cut in 0..len {
            assert!(decode(&buf[..cut], &mut out).is_err(), "cut at {cut}");
        }
        assert_eq!(
            decode(&buf[..len], &mut out[..2]),
            Err(ImageError::BufferTooSmall {
                what: Resource::DecodedOps,
                needed: ops.len() as u64,
                available: 2
            })
        );
        let mut tiny = [0u8; 8];
        assert_eq!(
            encode(3, 64, &ops, &mut tiny),
            Err(ImageError::BufferTooSmall {
                what: Resource::ImageBytes,
                needed: max_image_len(ops.len()) as u64,
                available: 8
            })
        );
    }

    /// A CRC-valid program image of `ops` for `rank` of `ranks`, written without the
    /// encoder's checks (what a faulty or hostile tool could produce).
    fn unchecked_image(rank: u32, ranks: u32, ops: &[Op]) -> Vec<u8> {
        let mut payload = vec![0u8; 1024];
        let mut pos = 0;
        let header = Header {
            rank,
            ranks,
            ops: ops.len() as u32,
        };
        frame::put(&mut payload, &mut pos, &header).unwrap();
        for op in ops {
            frame::put(&mut payload, &mut pos, op).unwrap();
        }
        let mut img = vec![b'J', b'N', b'I', b'M', 2, 3];
        img.extend_from_slice(&(pos as u32).to_le_bytes());
        img.extend_from_slice(&payload[..pos]);
        let crc = crc32(&img);
        img.extend_from_slice(&crc.to_le_bytes());
        img
    }

    fn send(peer: u32, after: Dep) -> Op {
        Op::Send {
            peer,
            blocks: Blocks::All,
            after,
        }
    }

    fn recv(peer: u32, after: Dep) -> Op {
        Op::RecvReduce {
            peer,
            blocks: Blocks::All,
            after,
        }
    }

    /// Decodes `img`, and checks that the encoder refuses the same program with the same
    /// error.
    fn rejected(rank: u32, ranks: u32, ops: &[Op]) -> ImageError {
        let img = unchecked_image(rank, ranks, ops);
        let mut out = [BLANK; 8];
        let err = decode(&img, &mut out).unwrap_err();
        let mut buf = [0u8; 1024];
        assert_eq!(encode(rank, ranks, ops, &mut buf), Err(err));
        err
    }

    #[test]
    fn valid_crc_with_out_of_range_fields_is_rejected() {
        // The same shape with valid fields decodes.
        let good = [send(1, Dep::None), recv(1, Dep::Op(0))];
        let mut out = [BLANK; 8];
        assert_eq!(
            decode(&unchecked_image(0, 2, &good), &mut out),
            Ok(DecodedProgram {
                rank: 0,
                ranks: 2,
                ops: 2
            })
        );
        // Rank not below the rank count (including a collective of zero ranks).
        assert_eq!(
            rejected(2, 2, &good),
            ImageError::RankOutOfRange { rank: 2, ranks: 2 }
        );
        assert_eq!(
            rejected(0, 0, &[]),
            ImageError::RankOutOfRange { rank: 0, ranks: 0 }
        );
        // Peer beyond the ranks, in a send and in a receive.
        assert_eq!(
            rejected(0, 4, &[send(1, Dep::None), send(4, Dep::None)]),
            ImageError::PeerOutOfRange {
                op: 1,
                peer: 4,
                ranks: 4
            }
        );
        assert_eq!(
            rejected(3, 4, &[recv(u32::MAX, Dep::None)]),
            ImageError::PeerOutOfRange {
                op: 0,
                peer: u32::MAX,
                ranks: 4
            }
        );
        // Peer equal to the own rank.
        assert_eq!(
            rejected(
                1,
                4,
                &[
                    send(0, Dep::None),
                    recv(2, Dep::None),
                    send(1, Dep::Earlier)
                ]
            ),
            ImageError::SelfPeer { op: 2, rank: 1 }
        );
        assert_eq!(
            rejected(
                2,
                3,
                &[Op::Recv {
                    peer: 2,
                    blocks: Blocks::Single(0),
                    after: Dep::None
                }]
            ),
            ImageError::SelfPeer { op: 0, rank: 2 }
        );
        // A dependency on itself or a later op.
        assert_eq!(
            rejected(0, 2, &[send(1, Dep::Op(0))]),
            ImageError::DependencyOutOfRange { op: 0, after: 0 }
        );
        assert_eq!(
            rejected(0, 2, &[send(1, Dep::None), recv(1, Dep::Op(5))]),
            ImageError::DependencyOutOfRange { op: 1, after: 5 }
        );
        // Permutations name no peer: any shift is fine.
        let permute = Op::Permute {
            reflect: true,
            shift: u32::MAX,
            after: Dep::None,
        };
        assert!(decode(&unchecked_image(0, 1, &[permute]), &mut out).is_ok());
    }

    #[test]
    fn errors_read_well() {
        assert_eq!(
            std::format!("{}", ImageError::SelfPeer { op: 2, rank: 1 }),
            "program image op 2 names its own rank 1 as peer"
        );
        assert_eq!(
            std::format!(
                "{}",
                ImageError::PeerOutOfRange {
                    op: 1,
                    peer: 4,
                    ranks: 4
                }
            ),
            "program image op 1 names peer 4, out of range: ranks are 0..4 (exclusive)"
        );
    }

    #[test]
    fn crc_valid_malformed_payloads_are_named() {
        let malformed = |what| ImageError::Malformed {
            kind: ImageKind::Program,
            what,
        };
        let img = unchecked_image(0, 2, &[send(1, Dep::None)]);
        let mut out = [BLANK; 8];
        // Cut the payload to its header and announce 1 op: the count check.
        let reseal = |payload: &[u8]| {
            let mut img = vec![b'J', b'N', b'I', b'M', 2, 3];
            img.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            img.extend_from_slice(payload);
            let crc = crc32(&img);
            img.extend_from_slice(&crc.to_le_bytes());
            img
        };
        let payload = &img[10..img.len() - 4];
        assert_eq!(
            decode(&reseal(&payload[..2]), &mut out),
            Err(malformed(Defect::ProgramHeader))
        );
        assert_eq!(
            decode(&reseal(&payload[..4]), &mut out),
            Err(malformed(Defect::OpCount))
        );
        let mut bad_variant = payload.to_vec();
        bad_variant[3] = 9; // op variant 9 does not exist
        assert_eq!(
            decode(&reseal(&bad_variant), &mut out),
            Err(malformed(Defect::Op))
        );
        let mut trailing = payload.to_vec();
        trailing.push(0);
        assert_eq!(
            decode(&reseal(&trailing), &mut out),
            Err(malformed(Defect::TrailingOpBytes))
        );
    }
}
