//! Hardware-in-the-loop tests of the self-test firmware under QEMU `mps2-an386`.
//!
//! The device computes with jumpnet-core on a Cortex-M4; this side computes the same with
//! jumpnet-core on the host (and with an independent xoshiro256** written here) and the
//! answers must be identical. Ignored by default because they need the firmware ELF:
//! `cargo xtask firmware` builds it and runs them.
#![cfg(not(target_os = "none"))]

mod firmware_support;

use firmware_support::{firmware_elf, Ids, Qemu};
use jumpnet_core::rng::Rng;
use jumpnet_core::wire::message::{MAX_GRAPH_SWITCHES, MAX_RNG_WORDS};
use jumpnet_core::wire::{Command, FrameError, Rejection, Reply, Request, Response, WIRE_VERSION};
use jumpnet_firmware::selftest;

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_matches_host_computation() {
    let mut q = Qemu::start(&firmware_elf());
    let mut ids = Ids(0);
    let hello = q.call(&Request::new(ids.next(), Command::Hello));
    assert_eq!(
        hello,
        Response::new(
            1,
            Reply::Hello {
                wire_version: WIRE_VERSION,
                served: 0
            }
        )
    );
    prng_words_match_the_host(&mut q, &mut ids);
    graphs_match_the_host(&mut q, &mut ids);
    bad_requests_are_rejected(&mut q, &mut ids);
    let id = ids.next();
    let bye = q.call(&Request::new(id, Command::Shutdown));
    assert_eq!(bye, Response::new(id, Reply::ShuttingDown));
    let done = q.finish();
    assert_eq!(
        done.status.code(),
        Some(0),
        "exit status; stderr: {}",
        done.stderr
    );
    assert!(
        done.log
            .iter()
            .any(|l| l.starts_with("jumpnet selftest up")),
        "log: {:?}",
        done.log
    );
    let served = id as u32; // requests 1..=id were all decoded and answered
    assert!(
        done.log
            .contains(&format!("shutdown after {served} requests")),
        "log: {:?}",
        done.log
    );
}

/// PRNG words fetched in chunks equal core's on the host.
fn prng_words_match_the_host(q: &mut Qemu, ids: &mut Ids) {
    // PRNG: 1024 outputs per seed, fetched in chunks, against core on the host (core's own
    // tests check it against the published xoshiro256** reference stream).
    const WORDS: usize = 1024;
    for seed in [0u64, 1, 0xDEAD_BEEF, u64::MAX] {
        let mut host = Rng::new(seed);
        let mut device = Vec::new();
        for chunk in 0..WORDS / MAX_RNG_WORDS {
            let id = ids.next();
            let r = q.call(&Request::new(
                id,
                Command::RngWords {
                    seed,
                    skip: (chunk * MAX_RNG_WORDS) as u32,
                    count: MAX_RNG_WORDS as u8,
                },
            ));
            assert_eq!(r.id, id);
            match r.reply {
                Reply::RngWords(words) => device.extend_from_slice(&words),
                other => panic!("seed {seed}: unexpected reply {other:?}"),
            }
        }
        let host: Vec<u64> = (0..WORDS).map(|_| host.next()).collect();
        assert_eq!(device, host, "seed {seed}: device vs host jumpnet-core");
    }
}

/// Stored graphs built on the device equal the host's.
fn graphs_match_the_host(q: &mut Qemu, ids: &mut Ids) {
    // Stored graphs built on the device with topology::stored::from_edges.
    for (seed, switches, chords) in [(1u64, 3u8, 0u8), (2, 12, 4), (3, 32, 32), (0xFEED, 17, 9)] {
        let id = ids.next();
        let r = q.call(&Request::new(
            id,
            Command::RingWithChords {
                seed,
                switches,
                chords,
            },
        ));
        let expected = selftest::ring_with_chords(seed, switches, chords).expect("valid params");
        let Reply::Graph(g) = r.reply else {
            panic!("unexpected reply {:?}", r.reply)
        };
        assert_eq!(
            g, expected,
            "graph seed {seed} n {switches} chords {chords}"
        );
        assert_eq!(g.degrees.len(), switches as usize);
        let degree_sum: u32 = g.degrees.iter().map(|&d| d as u32).sum();
        assert_eq!(degree_sum, 2 * (switches as u32 + chords as u32));
        assert!(g.distances_from_0.iter().all(|&d| d <= switches / 2));
    }
}

/// Parameters out of range, another wire version and a corrupted frame are rejected.
fn bad_requests_are_rejected(q: &mut Qemu, ids: &mut Ids) {
    // Rejections: parameters out of range, another wire version, a corrupted frame.
    let r = q.call(&Request::new(
        ids.next(),
        Command::RingWithChords {
            seed: 0,
            switches: MAX_GRAPH_SWITCHES as u8 + 1,
            chords: 0,
        },
    ));
    assert!(matches!(
        r.reply,
        Reply::Rejected(Rejection::GraphOutOfRange { .. })
    ));
    let mut old = Request::new(ids.next(), Command::Hello);
    old.version = WIRE_VERSION + 1;
    let r = q.call(&old);
    assert_eq!(
        r.reply,
        Reply::Rejected(Rejection::UnsupportedVersion {
            got: WIRE_VERSION + 1,
            supported: WIRE_VERSION
        })
    );
    let mut buf = [0u8; 64];
    let mut bytes = jumpnet_core::wire::frame::encode(&Request::new(7, Command::Hello), &mut buf)
        .expect("encode")
        .to_vec();
    let last_crc_byte = bytes.len() - 2;
    bytes[last_crc_byte] = bytes[last_crc_byte].wrapping_add(1).max(1);
    q.send_raw(&bytes);
    assert_eq!(
        q.receive(),
        Response::new(0, Reply::Rejected(Rejection::Frame(FrameError::BadCrc)))
    );
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_panic_exits_with_101_and_logs_the_message() {
    let mut q = Qemu::start(&firmware_elf());
    assert!(matches!(
        q.call(&Request::new(1, Command::Hello)).reply,
        Reply::Hello { .. }
    ));
    q.send(&Request::new(2, Command::Panic));
    let done = q.finish();
    assert_eq!(done.status.code(), Some(101), "stderr: {}", done.stderr);
    assert!(
        done.log
            .iter()
            .any(|l| l.contains("panic requested by the host (request 2)")),
        "log: {:?}",
        done.log
    );
}
