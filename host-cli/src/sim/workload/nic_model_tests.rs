//! The MPI-like NIC on hand-computed cases (docs/smpi.md §3): two concurrent sends share
//! the injection channel, a rendezvous adds its handshake's round trip, overheads add per
//! message, the calibration adds SMPI's latency and link use, a blocking send
//! holds what depends on it until its message has arrived.

use jumpnet_core::collective::{Binomial, Bruck, Schedule};
use jumpnet_core::routing::{TorusDor, TorusVcs};
use jumpnet_core::topology::{Network, Torus};

use crate::sim::workload::collective::{
    run_collective, Calibration, CollectiveResult, LoggedMessage, NicConfig, SendOrder,
};
use crate::sim::SimConfig;

/// A binomial broadcast of `bytes` from rank 0 on terminal 0 of the ring `torus k=8` to
/// `ranks − 1` others on `terminals` under the `ga` preset (`T0 = H + L + 1`, L = 8, 16-byte
/// flits, one header flit: 112 payload bytes per packet).
fn bcast(ranks: u32, bytes: u64, terminals: &[u32], nic: &NicConfig) -> Vec<u64> {
    let ring = Torus::torus(&[8], 1).unwrap();
    let dor = TorusDor::new(&ring, TorusVcs::Dateline).unwrap();
    let net = Network::Torus(ring.clone());
    let b = Binomial::new(ranks, 0, bytes).unwrap();
    assert_eq!(b.ranks(), ranks);
    let r = run_collective(&net, &dor, &SimConfig::ga(), nic, &b, terminals).unwrap();
    assert_eq!(r.conservation_errors, 0);
    r.finish
}

/// Rank 0 sends to rank 2 (step 1) and rank 1 (step 2), both 3 hops away, P = 4 packets
/// each. FIFO: rank 2 has its message at `T0 + (P − 1)·L + 1`, rank 1 one message later.
/// Interleaved: the packets alternate, so rank 2's last packet leaves at `(2P − 2)·L` and
/// rank 1's at `(2P − 1)·L`: both finish at about twice the time one message takes alone.
#[test]
fn two_concurrent_sends_share_the_injection_channel() {
    let (l, p, h) = (8u64, 4u64, 3u64);
    let t0 = h + l + 1;
    let bytes = 4 * 112;
    let fifo = bcast(3, bytes, &[0, 3, 5], &NicConfig::default());
    let solo = t0 + (p - 1) * l + 1;
    assert_eq!(fifo, [0, solo + p * l, solo]);
    let nic = NicConfig {
        send_order: SendOrder::Interleave,
        ..NicConfig::default()
    };
    let inter = bcast(3, bytes, &[0, 3, 5], &nic);
    assert_eq!(
        inter,
        [0, (2 * p - 1) * l + t0 + 1, (2 * p - 2) * l + t0 + 1]
    );
    // Alone, a message takes `solo`; shared, each takes about twice its serialisation.
    assert!(inter[2] > solo + (p - 2) * l && inter[1] > solo + (p - 1) * l);
}

/// A rendezvous message waits for a one-flit request-to-send and clear-to-send, each
/// `T0(H, 1) + 1` cycles (ejection seen one cycle later), before its data leaves: the
/// handshake adds `2·(H + 1 + 1 + 1)` cycles; below the threshold nothing changes.
#[test]
fn rendezvous_adds_the_handshake_round_trip() {
    let (l, h) = (8u64, 3u64);
    let eager = bcast(2, 100, &[0, 3], &NicConfig::default());
    assert_eq!(eager, [0, h + l + 1 + 1]);
    let rdv = NicConfig {
        rendezvous_bytes: Some(100),
        ..NicConfig::default()
    };
    let handshake = 2 * ((h + 1 + 1) + 1);
    assert_eq!(bcast(2, 100, &[0, 3], &rdv), [0, eager[1] + handshake]);
    let above = NicConfig {
        rendezvous_bytes: Some(101),
        ..NicConfig::default()
    };
    assert_eq!(bcast(2, 100, &[0, 3], &above), eager);
}

/// Send and receive overheads add once per message on each message's path: over a chain of
/// two messages (root → rank 2 → rank 3 in a 4-rank broadcast) they add twice.
#[test]
fn overheads_add_per_message() {
    let plain = bcast(4, 100, &[0, 1, 2, 3], &NicConfig::default());
    let nic = NicConfig {
        send_overhead: 5,
        recv_overhead: 7,
        ..NicConfig::default()
    };
    let slow = bcast(4, 100, &[0, 1, 2, 3], &nic);
    // Rank 2 gets one message from the root; rank 3 gets it from rank 2.
    assert_eq!(slow[2], plain[2] + 12);
    assert_eq!(slow[3], plain[3] + 24);
}

/// The calibration hands the message to the network SMPI's latency difference later (in
/// cycles at the run's clock: 16-byte flits at 100 Gb/s are 0.78125 GHz) and sends the bytes
/// its bandwidth factor makes it cost: 100 B cost ceil(100 / 0.812084) = 124 B, two packets
/// of 112 payload bytes instead of one, so the tail arrives one packet (L = 8 cycles) later.
#[test]
fn calibration_adds_smpis_latency_and_link_use() {
    let plain = bcast(2, 100, &[0, 3], &NicConfig::default());
    let cal = Calibration {
        switch_ns: 100.0,
        gbps: 100.0,
    };
    let nic = NicConfig {
        calibration: Some(cal),
        ..NicConfig::default()
    };
    assert_eq!(cal.wire_bytes(100), 124);
    let delay = (cal.latency_ns(100, 3) * nic.clock_ghz()).ceil() as u64;
    assert!(delay > 300, "{delay}");
    assert_eq!(bcast(2, 100, &[0, 3], &nic), [0, plain[1] + delay + 8]);
}

/// Blocking sends of one step do not wait for each other (the broadcast's sends depend on
/// the receive only, as `MPI_Isend`s completed by one `MPI_Waitall`): rank 1 and rank 2
/// finish as before, and the root finishes when its last message has arrived, one cycle
/// after that message's ejection (as rank 1, which sees it then). Below the threshold
/// nothing changes.
#[test]
fn blocking_sends_of_a_step_overlap_and_the_sender_waits_for_them() {
    let bytes = 4 * 112;
    let plain = bcast(3, bytes, &[0, 3, 5], &NicConfig::default());
    let nic = NicConfig {
        blocking_bytes: Some(bytes),
        ..NicConfig::default()
    };
    assert_eq!(
        bcast(3, bytes, &[0, 3, 5], &nic),
        [plain[1], plain[1], plain[2]]
    );
    let above = NicConfig {
        blocking_bytes: Some(bytes + 1),
        ..NicConfig::default()
    };
    assert_eq!(bcast(3, bytes, &[0, 3, 5], &above), plain);
}

/// Bruck's alltoall on five ranks spread unevenly over a ring of 8 switches, so a rank's
/// own message of a step and the one it receives arrive at different times. Its program is
/// a chain (`Dep::Earlier`): send of step `k` at op `1 + 2k`, receive at op `2 + 2k`.
fn bruck_log(nic: &NicConfig) -> CollectiveResult {
    let ring = Torus::torus(&[8], 1).unwrap();
    let dor = TorusDor::new(&ring, TorusVcs::Dateline).unwrap();
    let net = Network::Torus(ring.clone());
    let b = Bruck::new(5, 300).unwrap();
    let r = run_collective(&net, &dor, &SimConfig::ga(), nic, &b, &[0, 1, 4, 6, 7]).unwrap();
    assert_eq!(r.conservation_errors, 0);
    r
}

/// Each step's send waits for the previous step's delivery; with blocking sends that
/// delivery also waits for the rank's own previous message to arrive (one cycle after its
/// ejection), as `MPI_Sendrecv` returns only when both halves are done. The rank finishes
/// no earlier than its last message's arrival.
#[test]
fn a_blocking_send_holds_the_next_step_until_its_message_arrived() {
    // A receive overhead: a rank woken by its own send's completion must still not see a
    // message before it is visible.
    let base = NicConfig {
        recv_overhead: 5,
        ..NicConfig::default()
    };
    let plain = bruck_log(&base);
    let nic = NicConfig {
        blocking_bytes: Some(1),
        ..base.clone()
    };
    let held = bruck_log(&nic);
    let find = |r: &CollectiveResult, f: &dyn Fn(&LoggedMessage) -> bool| {
        *r.message_log.iter().find(|m| f(m)).unwrap()
    };
    let mut waited = 0;
    for (res, blocking) in [(&plain, false), (&held, true)] {
        for rank in 0..5u32 {
            for k in 1..3u32 {
                let send = |k: u32| find(res, &|m| m.rec.src == rank && m.send_op == 1 + 2 * k);
                let recv = find(res, &|m| m.rec.dst == rank && m.recv_op == 2 + 2 * (k - 1));
                let (prev, next) = (send(k - 1), send(k));
                let own = if blocking {
                    prev.rec.arrived + 1
                } else {
                    prev.rec.sent
                };
                assert_eq!(
                    recv.rec.delivered,
                    recv.visible.max(own),
                    "rank {rank} step {k}"
                );
                assert_eq!(next.rec.sent, recv.rec.delivered, "rank {rank} step {k}");
                if blocking && own > recv.visible {
                    waited += 1;
                }
            }
            if blocking {
                let last = find(res, &|m| m.rec.src == rank && m.send_op == 5);
                assert!(res.finish[rank as usize] > last.rec.arrived);
            }
        }
    }
    assert!(
        waited > 0,
        "no rank waited for its own message: the case tests nothing"
    );
}
