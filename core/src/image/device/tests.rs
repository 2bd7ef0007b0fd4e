//! Tests of the device-image codec: documented layout, round trip, every named error.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::collective::{Blocks, Dep, RecursiveDoubling, Schedule};
use crate::image::crc32::crc32;
use crate::image::error::Resource;
use crate::image::frame::{self, CRC_LEN, HEADER_LEN};
use crate::routing::tables::run_table::RunTableBuilder;
use std::vec;
use std::vec::Vec;

const BLANK: Op = Op::Permute {
    reflect: false,
    shift: 0,
    after: Dep::None,
};

/// Switch 2 of a 4-ring: table `[1, 1, 2, 0]` (3 runs), rank 2 of a 4-rank
/// recursive-doubling allreduce (collective 7) and a one-op program (collective 9).
struct Sample {
    network: NetworkSpec,
    runs: Vec<Run<RouteEntry>>,
    programs: Vec<ProgramEntry>,
    ops: Vec<Op>,
}

fn sample() -> Sample {
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        4
    ];
    let mut b = RunTableBuilder::new(&mut runs);
    for port in [1, 1, 2, 0] {
        b.push(RouteEntry { port, vc: 0 }).unwrap();
    }
    let n = b.finish().runs().len();
    runs.truncate(n);
    let rd = RecursiveDoubling::new(4, 64).unwrap();
    let mut ops = vec![BLANK; rd.program_len(2)];
    let k = rd.program(2, &mut ops).unwrap();
    ops.truncate(k);
    ops.push(Op::Send {
        peer: 0,
        blocks: Blocks::Single(3),
        after: Dep::None,
    });
    let programs = vec![
        ProgramEntry {
            collective: 7,
            terminal: 2,
            rank: 2,
            ranks: 4,
            ops: k as u32,
        },
        ProgramEntry {
            collective: 9,
            terminal: 2,
            rank: 1,
            ranks: 2,
            ops: 1,
        },
    ];
    Sample {
        network: NetworkSpec::Ring { n: 4 },
        runs,
        programs,
        ops,
    }
}

fn image_of(s: &Sample) -> Vec<u8> {
    let content = DeviceContent {
        switch: 2,
        network: &s.network,
        algorithm: RoutingAlgorithm::CirculantGreedy,
        table: RunTable::new(&s.runs, 4).unwrap(),
        programs: &s.programs,
        ops: &s.ops,
    };
    let mut out = vec![0u8; max_image_len(s.runs.len(), s.programs.len(), s.ops.len())];
    let n = encode(&content, &mut out).unwrap();
    out.truncate(n);
    out
}

struct Bufs {
    runs: Vec<Run<RouteEntry>>,
    programs: Vec<ProgramEntry>,
    ops: Vec<Op>,
}

fn bufs(runs: usize, programs: usize, ops: usize) -> Bufs {
    Bufs {
        runs: vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            runs
        ],
        programs: vec![ProgramEntry::default(); programs],
        ops: vec![BLANK; ops],
    }
}

impl Bufs {
    fn decode<'a>(&'a mut self, bytes: &[u8]) -> Result<DeviceImage<'a>, ImageError> {
        decode(
            bytes,
            DeviceBuffers {
                runs: &mut self.runs,
                programs: &mut self.programs,
                ops: &mut self.ops,
            },
        )
    }
}

#[test]
fn image_bytes_are_the_documented_layout() {
    let s = sample();
    let img = image_of(&s);
    let mut payload: Vec<u8> = vec![
        2, // switch 2
        0, 4, // NetworkSpec::Ring (variant 0), n = 4
        4, // RoutingAlgorithm::CirculantGreedy (index 4)
        4, 3, 2, 5, // capacities: 4 destinations, 3 runs, 2 programs, 5 ops
        0, 1, 0, // run: first 0, port 1, vc 0
        2, 2, 0, // run: first 2, port 2, vc 0
        3, 0, 0, // run: first 3, port 0, vc 0
        7, 2, 2, 4, 4, // program: collective 7, terminal 2, rank 2 of 4, 4 ops
        9, 2, 1, 2, 1, // program: collective 9, terminal 2, rank 1 of 2, 1 op
    ];
    let mut op_bytes = [0u8; 64];
    for op in &s.ops {
        payload.extend_from_slice(postcard::to_slice(op, &mut op_bytes).unwrap());
    }
    let mut head = vec![b'J', b'N', b'I', b'M', 2, 4];
    head.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    head.extend_from_slice(&payload);
    assert_eq!(&img[..img.len() - CRC_LEN], &head[..]);
    assert_eq!(&img[img.len() - CRC_LEN..], &crc32(&head).to_le_bytes());
    assert_eq!(img.len(), 14 + payload.len());
    // The send of the second program: variant 0, peer 0, Blocks::Single (1) 3, Dep::None (0).
    assert_eq!(&payload[payload.len() - 5..], &[0, 0, 1, 3, 0]);
}

#[test]
fn round_trip_decodes_and_verifies() {
    let s = sample();
    let img = image_of(&s);
    let mut b = bufs(3, 2, 5);
    let d = b.decode(&img).unwrap();
    let header = DeviceHeader {
        switch: 2,
        network: NetworkSpec::Ring { n: 4 },
        algorithm: RoutingAlgorithm::CirculantGreedy,
        capacities: Capacities {
            destinations: 4,
            runs: 3,
            programs: 2,
            ops: 5,
        },
    };
    assert_eq!(d.header, header);
    assert_eq!(d.table.runs(), &s.runs[..]);
    assert_eq!(d.programs, &s.programs[..]);
    assert_eq!(d.ops, &s.ops[..]);
    assert_eq!(d.program(0), Some((&s.programs[0], &s.ops[..4])));
    assert_eq!(d.program(1), Some((&s.programs[1], &s.ops[4..])));
    assert_eq!(d.program(2), None);
    assert_eq!(d.table.lookup(2), Some(RouteEntry { port: 2, vc: 0 }));
    assert_eq!(verify(&img, b_caps(3, 2, 5)), Ok(header));
    // Re-encoding the decoded image gives the same bytes.
    let d = b.decode(&img).unwrap();
    let again = DeviceContent {
        switch: d.header.switch,
        network: &d.header.network,
        algorithm: d.header.algorithm,
        table: d.table,
        programs: d.programs,
        ops: d.ops,
    };
    let mut out = vec![0u8; img.len()];
    assert_eq!(encode(&again, &mut out), Ok(img.len()));
    assert_eq!(out, img);
}

fn b_caps(runs: u32, programs: u32, ops: u32) -> Capacities {
    Capacities {
        destinations: u32::MAX,
        runs,
        programs,
        ops,
    }
}

/// Re-seals `img` after editing its payload (length field and CRC).
fn reseal(payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; OVERHEAD + payload.len()];
    frame::encode(ImageKind::Device, &mut out, 0, |room| {
        room.get_mut(..payload.len())?.copy_from_slice(payload);
        Some(payload.len())
    })
    .unwrap();
    out
}

#[test]
fn truncated_corrupt_and_wrong_version_images_are_named() {
    let img = image_of(&sample());
    let mut b = bufs(8, 8, 8);
    let len = img.len();
    assert_eq!(
        b.decode(&img[..len - 1]).unwrap_err(),
        ImageError::Truncated {
            len: len - 1,
            needed: len
        }
    );
    assert_eq!(
        b.decode(&img[..5]).unwrap_err(),
        ImageError::Truncated { len: 5, needed: 14 }
    );
    let mut bad = img.clone();
    bad[HEADER_LEN + 3] ^= 0x01;
    let stored = u32::from_le_bytes(img[len - 4..].try_into().unwrap());
    assert_eq!(
        b.decode(&bad).unwrap_err(),
        ImageError::CrcMismatch {
            stored,
            computed: crc32(&bad[..len - 4])
        }
    );
    let mut bad = img.clone();
    bad[4] = 3;
    assert_eq!(
        b.decode(&bad).unwrap_err(),
        ImageError::UnsupportedVersion {
            found: 3,
            supported: 2
        }
    );
    // A program image is not a device image.
    let mut prog = [0u8; 64];
    let n = crate::image::program::encode(0, 2, &[], &mut prog).unwrap();
    assert_eq!(
        b.decode(&prog[..n]).unwrap_err(),
        ImageError::WrongKind {
            found: ImageKind::Program,
            expected: ImageKind::Device
        }
    );
}

#[test]
fn over_capacity_is_reported_before_decoding() {
    let img = image_of(&sample());
    for (caps, what, needed, capacity) in [
        ((2, 2, 5), Resource::TableRuns, 3, 2),
        ((3, 1, 5), Resource::Programs, 2, 1),
        ((3, 2, 4), Resource::ProgramOps, 5, 4),
    ] {
        let mut b = bufs(caps.0, caps.1, caps.2);
        let err = ImageError::OverCapacity {
            what,
            needed,
            capacity,
        };
        assert_eq!(b.decode(&img).unwrap_err(), err);
        // Nothing was written.
        assert!(b.runs.iter().all(|r| r.value == RouteEntry::NONE));
        assert!(b.ops.iter().all(|o| *o == BLANK));
        let limits = b_caps(caps.0 as u32, caps.1 as u32, caps.2 as u32);
        assert_eq!(verify(&img, limits).unwrap_err(), err);
    }
    let limits = Capacities {
        destinations: 3,
        ..b_caps(9, 9, 9)
    };
    assert_eq!(
        verify(&img, limits).unwrap_err(),
        ImageError::OverCapacity {
            what: Resource::Destinations,
            needed: 4,
            capacity: 3
        }
    );
    assert_eq!(
        std::format!("{}", verify(&img, limits).unwrap_err()),
        "image exceeds the device's capacity: 4 destinations needed, the device holds at most 3"
    );
}

#[test]
fn crc_valid_payload_errors_are_named() {
    let img = image_of(&sample());
    let payload = &img[HEADER_LEN..img.len() - CRC_LEN];
    let mut b = bufs(8, 8, 8);
    let m = |what| ImageError::Malformed {
        kind: ImageKind::Device,
        what,
    };
    // Offsets in the payload: 0 switch, 1-2 network, 3 algorithm, 4-7 capacities,
    // 8.. runs, 17.. programs, 27.. ops.
    let edit = |at: usize, v: u8| {
        let mut p = payload.to_vec();
        p[at] = v;
        reseal(&p)
    };
    assert_eq!(
        b.decode(&reseal(&payload[..3])).unwrap_err(),
        m(Defect::DeviceHeader)
    );
    assert_eq!(b.decode(&edit(3, 9)).unwrap_err(), m(Defect::DeviceHeader));
    assert_eq!(
        b.decode(&edit(5, 7)).unwrap_err(),
        m(Defect::DeclaredCounts)
    );
    // Run 1 starting at 0 again, or run 2 with run 1's value.
    assert_eq!(
        b.decode(&edit(11, 0)).unwrap_err(),
        m(Defect::RunsNotCanonical)
    );
    assert_eq!(
        b.decode(&edit(15, 2)).unwrap_err(),
        m(Defect::RunsNotCanonical)
    );
    // Run 2 starting at destination 4 of 4.
    assert_eq!(
        b.decode(&edit(14, 4)).unwrap_err(),
        m(Defect::RunsNotCanonical)
    );
    // Program 0 rank 4 of 4.
    assert_eq!(
        b.decode(&edit(19, 4)).unwrap_err(),
        ImageError::RankOutOfRange { rank: 4, ranks: 4 }
    );
    // Program 0 with 3 ops: the counts no longer add up to 5.
    assert_eq!(b.decode(&edit(21, 3)).unwrap_err(), m(Defect::OpCounts));
    // The last op (send to peer 0 of 2 by rank 1) naming peer 1: itself.
    let n = payload.len();
    assert_eq!(
        b.decode(&edit(n - 4, 1)).unwrap_err(),
        ImageError::SelfPeer { op: 0, rank: 1 }
    );
    assert_eq!(
        b.decode(&edit(n - 4, 2)).unwrap_err(),
        ImageError::PeerOutOfRange {
            op: 0,
            peer: 2,
            ranks: 2
        }
    );
    let mut long = payload.to_vec();
    long.push(0);
    assert_eq!(
        b.decode(&reseal(&long)).unwrap_err(),
        m(Defect::TrailingOpBytes)
    );
    assert_eq!(
        b.decode(&reseal(&payload[..n - 1])).unwrap_err(),
        m(Defect::Op)
    );
}

#[test]
fn encode_rejects_what_decode_would() {
    let s = sample();
    let table = RunTable::new(&s.runs, 4).unwrap();
    let mut out = [0u8; 512];
    let mut programs = s.programs.clone();
    programs[1].ops = 2;
    let content = DeviceContent {
        switch: 2,
        network: &s.network,
        algorithm: RoutingAlgorithm::Precomputed,
        table,
        programs: &programs,
        ops: &s.ops,
    };
    assert_eq!(
        encode(&content, &mut out),
        Err(ImageError::Malformed {
            kind: ImageKind::Device,
            what: Defect::OpCounts
        })
    );
    let mut ranked = s.programs.clone();
    ranked[1].rank = 2;
    let content = DeviceContent {
        programs: &ranked,
        ..content
    };
    assert_eq!(
        encode(&content, &mut out),
        Err(ImageError::RankOutOfRange { rank: 2, ranks: 2 })
    );
    let content = DeviceContent {
        programs: &s.programs,
        ..content
    };
    assert!(matches!(
        encode(&content, &mut out[..20]),
        Err(ImageError::BufferTooSmall {
            what: Resource::ImageBytes,
            available: 20,
            ..
        })
    ));
}

#[test]
fn largest_network_spec_fits_its_bound() {
    use crate::topology::circulant::MAX_JUMPS;
    let mut jumps = heapless::Vec::new();
    jumps.resize(MAX_JUMPS, u32::MAX).unwrap();
    let spec = NetworkSpec::Circulant { n: u32::MAX, jumps };
    let mut buf = [0u8; 512];
    assert!(postcard::to_slice(&spec, &mut buf).unwrap().len() <= MAX_NETWORK_LEN);
    for a in RoutingAlgorithm::ALL {
        assert_eq!(postcard::to_slice(&a, &mut buf).unwrap().len(), 1, "{a}");
    }
}
