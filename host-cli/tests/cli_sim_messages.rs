//! `jumpnet sim --collective`: the message log (`--messages FILE`) and the interleaving
//! NIC's packet size (`--mtu`), through the binary (docs/smpi.md §3–§4).

mod common;

use common::{json, jumpnet, tmpdir};

/// A recursive-doubling allreduce on the 4×4 torus with DOR: 16 ranks × 4 steps = 64
/// messages, each row's route as long as its hop count, DOR's distance for each pair, and
/// the run's makespan the latest delivery.
#[test]
fn message_log_lists_every_message_with_its_route() {
    let dir = tmpdir("messages-log");
    let csv = dir.join("m.csv");
    let csv_s = csv.to_str().unwrap();
    let (code, out, err) = jumpnet(&[
        "sim",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "packet_size=8",
        "--collective",
        "allreduce",
        "--msg",
        "1KiB",
        "--messages",
        csv_s,
        "--json",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("64 messages"), "{err}");
    let v = json(&out);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("src_rank,dst_rank,src_terminal,dst_terminal,bytes,packets,hops,send_op,recv_op,sent,arrived,delivered,route")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 64);
    let num = |r: &[&str], i: usize| -> u64 { r[i].parse().unwrap() };
    let mut latest = 0;
    for r in &rows {
        let (s, d) = (num(r, 2), num(r, 3));
        // Consecutive mapping on a 4×4 torus: terminal t at (t % 4, t / 4).
        let ring = |a: u64, b: u64| {
            let x = a.abs_diff(b);
            x.min(4 - x)
        };
        let dor = ring(s % 4, d % 4) + ring(s / 4, d / 4);
        assert_eq!(num(r, 6), dor, "hops of {s}→{d}");
        assert_eq!(
            r[12].split_whitespace().count() as u64,
            dor,
            "route {}",
            r[12]
        );
        assert_eq!(num(r, 4), 1024);
        assert!(num(r, 9) <= num(r, 10) && num(r, 10) < num(r, 11), "{r:?}");
        // Recursive doubling: each step a send and a reducing receive, in step order.
        let step = (s ^ d).trailing_zeros() as u64;
        assert_eq!((num(r, 7), num(r, 8)), (2 * step, 2 * step + 1), "{r:?}");
        latest = latest.max(num(r, 11));
    }
    assert_eq!(v["makespan_cycles"].as_u64(), Some(latest));
}

/// A broadcast of `msg` between two ranks of a 4×4 torus with the `mpi` NIC at 100 ns
/// switches, as JSON.
fn mpi_bcast_between_two_ranks(msg: &'static str) -> Vec<&'static str> {
    vec![
        "sim",
        "torus",
        "k=4,4",
        "--algo",
        "dor-dateline",
        "--collective",
        "bcast",
        "--ranks",
        "2",
        "--msg",
        msg,
        "--switch-ns",
        "100",
        "--nic",
        "mpi",
        "--json",
        "-q",
    ]
}

/// Two ranks, one 1 MiB broadcast at the report's time scale with the `mpi` NIC: 4 KiB
/// flits, so one-flit packets by default and `--mtu 64KiB` cuts the message into 16.
#[test]
fn mtu_sets_the_interleaving_nics_packets() {
    let mut base = mpi_bcast_between_two_ranks("1MiB");
    base.extend(["--rendezvous", "none", "--calibration", "none"]);
    for (mtu, packets) in [(None, 256), (Some("64KiB"), 16), (Some("5000"), 128)] {
        let mut args = base.clone();
        if let Some(m) = mtu {
            args.extend(["--mtu", m]);
        }
        let (code, out, err) = jumpnet(&args);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        assert_eq!(v["nic"]["flit_bytes"].as_u64(), Some(4096));
        assert_eq!(v["packets"].as_u64(), Some(packets), "--mtu {mtu:?}");
    }
    // Without an interleaving NIC at a time scale, or zero: refused by name.
    for extra in [
        &["--mtu", "4KiB", "--send-order", "fifo"][..],
        &["--mtu", "0"][..],
    ] {
        let mut args = base.clone();
        args.extend(extra);
        let (code, _, err) = jumpnet(&args);
        assert_ne!(code, 0);
        assert!(err.contains("--mtu"), "{err}");
    }
}

/// The `mpi` NIC simulates the rendezvous handshake only without SMPI's calibration, whose
/// latency factor holds its cost (docs/smpi.md §3); `--rendezvous` overrides either way.
#[test]
fn mpi_nic_simulates_the_handshake_only_uncalibrated() {
    let base = mpi_bcast_between_two_ranks("64KiB");
    for (extra, threshold, control) in [
        (&[][..], None, 0),
        (&["--calibration", "none"][..], Some(65_536), 2),
        (&["--rendezvous", "64KiB"][..], Some(65_536), 2),
        (
            &["--calibration", "none", "--rendezvous", "none"][..],
            None,
            0,
        ),
    ] {
        let mut args = base.clone();
        args.extend(extra);
        let (code, out, err) = jumpnet(&args);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        assert_eq!(
            v["nic"]["rendezvous_bytes"].as_u64(),
            threshold,
            "{extra:?}"
        );
        assert_eq!(v["control_packets"].as_u64(), Some(control), "{extra:?}");
    }
}
