//! Hardware-in-the-loop tests of the device commands (QEMU `mps2-an386`, the self-test
//! firmware's device service):
//!
//! 1. flash (load in chunks + activate) device images of switches of `G(64, 6)` (NAF), a
//!    4×4 torus (DOR) and a Dragonfly (g 9, a 4, p 2, h 2; minimal), read each back: equal
//!    bytes; every route the device looks up equals the host's table;
//! 2. corrupted and truncated images are rejected and the previous image stays active;
//!    damaged and unknown frames are rejected and the device keeps serving;
//! 3. rank 6's allreduce program runs on the device inside an in-process run of all 16
//!    ranks: step by step, the device issues exactly the actions of the in-process
//!    executor of rank 6;
//! 4. the UART round-trip time of a small request is printed (not asserted).
//!
//! Ignored by default: `cargo xtask firmware` builds the ELF and runs them.
#![cfg(not(target_os = "none"))]

mod firmware_support;

use std::time::Instant;

use firmware_support::{firmware_elf, Qemu};
use jumpnet_core::collective::{Blocks, Dep, Op, RecursiveDoubling, Schedule};
use jumpnet_core::exec::{Action, Executor, OpStatus};
use jumpnet_core::image::device::{self, DeviceContent, ProgramEntry, RoutingAlgorithm};
use jumpnet_core::image::ImageError;
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::tables::compile::{switch_table, VcMode};
use jumpnet_core::routing::{CirculantNaf, RouteEntry, Run, RunTableBuilder, TorusDor, TorusVcs};
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::{GlobalArrangement, Network, Topology};
use jumpnet_core::wire::device::{
    Arrival, DeviceCommand, DeviceReply, MAX_ARRIVALS, MAX_LOAD_CHUNK,
};
use jumpnet_core::wire::{Command, FrameError, Rejection, Reply, Request};

const BLANK: Op = Op::Send {
    peer: 0,
    blocks: Blocks::All,
    after: Dep::None,
};

/// A device image and the host's table it holds.
struct Built {
    image: Vec<u8>,
    table: Vec<RouteEntry>,
}

/// Builds the device image of `switch`: its table and rank `switch % 16`'s program of a
/// 16-rank recursive-doubling allreduce.
fn build(network: NetworkSpec, algorithm: RoutingAlgorithm, switch: u32) -> Built {
    let net = network.build().expect("network builds");
    let dests = net.num_terminals() as usize;
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        dests
    ];
    let mut b = RunTableBuilder::new(&mut runs);
    match &net {
        Network::Circulant(c) => switch_table(
            c,
            &CirculantNaf::new(c).unwrap(),
            switch,
            VcMode::InTable,
            &mut b,
        ),
        Network::Torus(t) => switch_table(
            t,
            &TorusDor::new(t, TorusVcs::Single).unwrap(),
            switch,
            VcMode::InTable,
            &mut b,
        ),
        Network::Dragonfly(df) => {
            DragonflyMinimal::new(df, MinimalVcs::Single).switch_table(switch, &mut b)
        }
        _ => unreachable!(),
    }
    .expect("table");
    let table = b.finish();
    let host: Vec<RouteEntry> = (0..dests as u32)
        .map(|d| table.lookup(d).unwrap())
        .collect();
    let rank = switch % 16;
    let rd = RecursiveDoubling::new(16, 1024).unwrap();
    let mut ops = vec![BLANK; rd.program_len(rank)];
    let n = rd.program(rank, &mut ops).unwrap();
    ops.truncate(n);
    let programs = [ProgramEntry {
        collective: 1,
        terminal: switch,
        rank,
        ranks: 16,
        ops: n as u32,
    }];
    let content = DeviceContent {
        switch,
        network: &network,
        algorithm,
        table,
        programs: &programs,
        ops: &ops,
    };
    let mut image = vec![0u8; device::max_image_len(table.runs().len(), 1, n)];
    let len = device::encode(&content, &mut image).unwrap();
    image.truncate(len);
    Built { image, table: host }
}

struct Host {
    q: Qemu,
    id: u16,
}

impl Host {
    fn call(&mut self, cmd: DeviceCommand) -> Result<DeviceReply, Rejection> {
        self.id = self.id.wrapping_add(1);
        let r = self.q.call(&Request::new(self.id, Command::Device(cmd)));
        assert_eq!(r.id, self.id);
        match r.reply {
            Reply::Device(d) => Ok(d),
            Reply::Rejected(e) => Err(e),
            other => panic!("unexpected reply {other:?}"),
        }
    }

    fn flash(&mut self, image: &[u8]) -> Result<DeviceReply, Rejection> {
        self.call(DeviceCommand::LoadBegin {
            image_len: image.len() as u32,
        })?;
        for (i, c) in image.chunks(MAX_LOAD_CHUNK).enumerate() {
            self.call(DeviceCommand::LoadChunk {
                offset: (i * MAX_LOAD_CHUNK) as u32,
                bytes: heapless::Vec::from_slice(c).unwrap(),
            })?;
        }
        self.call(DeviceCommand::Activate)
    }

    fn read_back(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        loop {
            let Ok(DeviceReply::Image(c)) = self.call(DeviceCommand::ReadImage {
                offset: out.len() as u32,
                max_len: u16::MAX,
            }) else {
                panic!("read back")
            };
            out.extend_from_slice(&c.bytes);
            if out.len() == c.image_len as usize {
                return out;
            }
        }
    }

    fn routes(&mut self, destinations: usize) -> Vec<RouteEntry> {
        let mut out = Vec::new();
        while out.len() < destinations {
            let Ok(DeviceReply::Routes { entries, .. }) = self.call(DeviceCommand::Routes {
                first: out.len() as u32,
                count: u16::MAX,
            }) else {
                panic!("routes")
            };
            out.extend_from_slice(&entries);
        }
        out
    }
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn images_flash_read_back_and_route_like_the_host() {
    let mut h = Host {
        q: Qemu::start(&firmware_elf()),
        id: 0,
    };
    let cases = [
        build(
            NetworkSpec::CirculantG { n: 64 },
            RoutingAlgorithm::CirculantNaf,
            5,
        ),
        build(
            NetworkSpec::torus(&[4, 4], 1).unwrap(),
            RoutingAlgorithm::TorusDor,
            6,
        ),
        build(
            NetworkSpec::Dragonfly {
                g: 9,
                a: 4,
                p: 2,
                h: 2,
                arrangement: GlobalArrangement::Consecutive,
            },
            RoutingAlgorithm::DragonflyMinimal,
            13,
        ),
    ];
    for case in &cases {
        let Ok(DeviceReply::Activated(s)) = h.flash(&case.image) else {
            panic!("flash")
        };
        assert_eq!(s.image_len as usize, case.image.len());
        assert_eq!(
            h.read_back(),
            case.image,
            "read back equals the flashed bytes"
        );
        assert_eq!(
            h.routes(case.table.len()),
            case.table,
            "device routes = host table"
        );
    }
    bad_images_and_frames_are_rejected(&mut h, &cases);
    round_trip_time(&mut h);

    assert_eq!(
        h.q.call(&Request::new(999, Command::Shutdown)).reply,
        Reply::ShuttingDown
    );
    let done = h.q.finish();
    assert!(done.status.success(), "QEMU failed: {}", done.stderr);
    assert!(
        done.log.iter().any(|l| l.contains("bad frame")),
        "the damaged frame is in the defmt log: {:?}",
        done.log
    );
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_program_runs_step_by_step_like_core_exec() {
    let mut h = Host {
        q: Qemu::start(&firmware_elf()),
        id: 0,
    };
    let device_rank = 6u32;
    let built = build(
        NetworkSpec::torus(&[4, 4], 1).unwrap(),
        RoutingAlgorithm::TorusDor,
        device_rank,
    );
    h.flash(&built.image).unwrap();
    // Every rank in process (rank 6 too, as the reference), rank 6 also on the device.
    let rd = RecursiveDoubling::new(16, 1024).unwrap();
    let programs: Vec<Vec<Op>> = (0..16)
        .map(|r| {
            let mut ops = vec![BLANK; rd.program_len(r)];
            let n = rd.program(r, &mut ops).unwrap();
            ops.truncate(n);
            ops
        })
        .collect();
    let mut status: Vec<Vec<OpStatus>> = programs
        .iter()
        .map(|p| vec![OpStatus::Pending; p.len()])
        .collect();
    let mut execs: Vec<Executor<'_, '_>> = programs
        .iter()
        .zip(status.iter_mut())
        .map(|(p, s)| Executor::new(p, s).unwrap())
        .collect();
    let mut inbox: Vec<Vec<(u32, Blocks)>> = vec![Vec::new(); 16];
    let mut device_sends = 0;
    for now in 0..64u64 {
        let delivered = std::mem::replace(&mut inbox, vec![Vec::new(); 16]);
        let mut all_done = true;
        for (r, exec) in execs.iter_mut().enumerate() {
            for &(peer, blocks) in &delivered[r] {
                exec.on_receive(peer, blocks).unwrap();
            }
            let mut actions = Vec::new();
            let done = loop {
                match exec.poll(now).unwrap() {
                    Action::Wait => break false,
                    Action::Done => break true,
                    a => actions.push(a),
                }
            };
            all_done &= done;
            for a in &actions {
                if let Action::Send { peer, blocks, .. } = *a {
                    inbox[peer as usize].push((r as u32, blocks));
                }
            }
            if r as u32 == device_rank {
                let (got, device_done) = device_step(&mut h, now, &delivered[r]);
                assert_eq!(
                    got, actions,
                    "time {now}: device actions = core::exec actions"
                );
                assert_eq!(device_done, done);
                device_sends += got
                    .iter()
                    .filter(|a| matches!(a, Action::Send { .. }))
                    .count();
            }
        }
        if all_done {
            break;
        }
    }
    assert!(execs.iter().all(|e| e.is_done()), "the allreduce completes");
    assert_eq!(device_sends, 4, "log2(16) exchanges");
    let Ok(DeviceReply::Counters(k)) = h.call(DeviceCommand::Counters) else {
        panic!()
    };
    assert_eq!((k.sends, k.deliveries), (4, 4));
    h.q.call(&Request::new(999, Command::Shutdown));
    assert!(h.q.finish().status.success());
}

/// One time step of the device's program engine: the arrivals of `now` in, every action of
/// the step out (the engine reports them in chunks), and whether the program is done.
fn device_step(h: &mut Host, now: u64, delivered: &[(u32, Blocks)]) -> (Vec<Action>, bool) {
    let arrivals: Vec<Arrival> = delivered
        .iter()
        .map(|&(peer, blocks)| Arrival { peer, blocks })
        .collect();
    assert!(arrivals.len() <= MAX_ARRIVALS);
    let cmd = if now == 0 {
        DeviceCommand::ExecStart { program: 0, now }
    } else {
        DeviceCommand::ExecStep {
            now,
            arrivals: heapless::Vec::from_slice(&arrivals).unwrap(),
        }
    };
    let mut got = Vec::new();
    let mut reply = h.call(cmd);
    let device_done = loop {
        let Ok(DeviceReply::Exec(report)) = reply else {
            panic!("{reply:?}")
        };
        got.extend_from_slice(&report.actions);
        if !report.more {
            break report.done;
        }
        reply = h.call(DeviceCommand::ExecStep {
            now,
            arrivals: heapless::Vec::new(),
        });
    };
    (got, device_done)
}

/// With the Dragonfly image active, a corrupted and a truncated image are rejected, as are
/// damaged frames; the device keeps serving the previous image.
fn bad_images_and_frames_are_rejected(h: &mut Host, cases: &[Built]) {
    // The Dragonfly image is active. A corrupted G(64, 6) image is rejected ...
    let active = &cases[2];
    let mut bad = cases[0].image.clone();
    bad[30] ^= 0x04;
    let stored = u32::from_le_bytes(bad[bad.len() - 4..].try_into().unwrap());
    let computed = jumpnet_core::image::crc32::crc32(&bad[..bad.len() - 4]);
    assert_eq!(
        h.flash(&bad),
        Err(Rejection::Image(ImageError::CrcMismatch {
            stored,
            computed
        }))
    );
    // ... a truncated one too (its length field announces one more byte than is sent) ...
    let cut = &cases[0].image[..cases[0].image.len() - 1];
    assert_eq!(
        h.flash(cut),
        Err(Rejection::Image(ImageError::Truncated {
            len: cut.len(),
            needed: cut.len() + 1
        }))
    );
    // ... and damaged or unknown frames get a frame rejection; the device keeps serving.
    h.q.send_raw(&[0x05, 0x11, 0x22, 0x33, 0x44, 0x00]);
    assert_eq!(
        h.q.receive().reply,
        Reply::Rejected(Rejection::Frame(FrameError::BadCrc))
    );
    // The previous image is still active.
    assert_eq!(h.read_back(), active.image);
    assert_eq!(h.routes(active.table.len()), active.table);
    let Ok(DeviceReply::Counters(k)) = h.call(DeviceCommand::Counters) else {
        panic!()
    };
    assert_eq!(
        (k.images_activated, k.images_rejected, k.bad_frames),
        (3, 2, 1)
    );
}

/// Prints the mean UART round trip of a small request.
fn round_trip_time(h: &mut Host) {
    // Round-trip time of a small request.
    let n = 50;
    let t = Instant::now();
    for _ in 0..n {
        h.call(DeviceCommand::Info).unwrap();
    }
    let rtt = t.elapsed() / n;
    println!("UART round trip (Info, mps2-an386 under QEMU): {rtt:?} mean over {n}");
}
