//! Unit tests of the device service (loading, activation, read-back, lookups, the program
//! engine against the in-process executor, a faulty link).
#![allow(clippy::unwrap_used)]

use super::*;
use crate::serve::{ServeError, Server};
use jumpnet_core::collective::{RecursiveDoubling, Schedule};
use jumpnet_core::exec::{Action, Executor};
use jumpnet_core::image::device::{self, DeviceContent, RoutingAlgorithm};
use jumpnet_core::image::ImageError;
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::RunTableBuilder;
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::wire::device::{Arrival, ExecFault};
use jumpnet_core::wire::frame;
use jumpnet_core::wire::message::{Command, Reply, Request, Response, MAX_FRAME_LEN};
use std::collections::VecDeque;
use std::vec;
use std::vec::Vec;

type Small = DeviceService<16, 2, 16, 1024>;

/// Device image of switch `switch` of an 8-ring (greedy table: shorter way round, port 0
/// clockwise, 1 counter-clockwise, 2 the terminal) with rank `switch` of an 8-rank
/// recursive-doubling allreduce.
fn ring_image(switch: u32) -> (Vec<u8>, Vec<RouteEntry>, Vec<Op>) {
    let n = 8u32;
    let entries: Vec<RouteEntry> = (0..n)
        .map(|d| {
            let fwd = (d + n - switch) % n;
            let port = if fwd == 0 {
                2
            } else if fwd <= n / 2 {
                0
            } else {
                1
            };
            RouteEntry { port, vc: 0 }
        })
        .collect();
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        8
    ];
    let mut b = RunTableBuilder::new(&mut runs);
    for e in &entries {
        b.push(*e).unwrap();
    }
    let table = b.finish();
    let rd = RecursiveDoubling::new(8, 64).unwrap();
    let mut ops = vec![BLANK_OP; rd.program_len(switch)];
    let k = rd.program(switch, &mut ops).unwrap();
    ops.truncate(k);
    let programs = [ProgramEntry {
        collective: 0,
        terminal: switch,
        rank: switch,
        ranks: 8,
        ops: k as u32,
    }];
    let network = NetworkSpec::Ring { n: 8 };
    let content = DeviceContent {
        switch,
        network: &network,
        algorithm: RoutingAlgorithm::CirculantGreedy,
        table,
        programs: &programs,
        ops: &ops,
    };
    let mut out = vec![0u8; 1024];
    let len = device::encode(&content, &mut out).unwrap();
    out.truncate(len);
    (out, entries, ops)
}

fn load(dev: &mut impl DeviceHandler, image: &[u8]) -> Result<DeviceReply, Rejection> {
    let c = Counters::default();
    dev.handle(
        &DeviceCommand::LoadBegin {
            image_len: image.len() as u32,
        },
        c,
    )?;
    for (i, chunk) in image.chunks(100).enumerate() {
        dev.handle(
            &DeviceCommand::LoadChunk {
                offset: (i * 100) as u32,
                bytes: heapless::Vec::from_slice(chunk).unwrap(),
            },
            c,
        )?;
    }
    dev.handle(&DeviceCommand::Activate, c)
}

fn read_back(dev: &mut impl DeviceHandler) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let r = dev
            .handle(
                &DeviceCommand::ReadImage {
                    offset: out.len() as u32,
                    max_len: 1000,
                },
                Counters::default(),
            )
            .unwrap();
        let DeviceReply::Image(c) = r else {
            panic!("{r:?}")
        };
        out.extend_from_slice(&c.bytes);
        if out.len() == c.image_len as usize {
            return out;
        }
    }
}

#[test]
fn g1024_images_fit_the_device_build() {
    use jumpnet_core::routing::tables::compile::{switch_table, VcMode};
    use jumpnet_core::routing::CirculantNaf;
    use jumpnet_core::topology::Circulant;
    let g = Circulant::g(1024).unwrap();
    let naf = CirculantNaf::new(&g).unwrap();
    let rd = RecursiveDoubling::new(1024, 1 << 20).unwrap();
    let network = NetworkSpec::CirculantG { n: 1024 };
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        1024
    ];
    let (mut most_runs, mut longest) = (0, 0);
    for s in [0u32, 1, 2, 3, 341, 511, 512, 1023] {
        let mut b = RunTableBuilder::new(&mut runs);
        switch_table(&g, &naf, s, VcMode::InTable, &mut b).unwrap();
        let table = b.finish();
        let mut ops = vec![BLANK_OP; rd.program_len(s) * 4];
        let k = rd.program(s, &mut ops).unwrap();
        for i in 1..4 {
            ops.copy_within(0..k, i * k);
        }
        ops.truncate(4 * k);
        let programs: Vec<ProgramEntry> = (0..4)
            .map(|c| ProgramEntry {
                collective: c,
                terminal: s,
                rank: s,
                ranks: 1024,
                ops: k as u32,
            })
            .collect();
        let content = DeviceContent {
            switch: s,
            network: &network,
            algorithm: RoutingAlgorithm::CirculantNaf,
            table,
            programs: &programs,
            ops: &ops,
        };
        let mut out = vec![0u8; 64 * 1024];
        let len = device::encode(&content, &mut out).unwrap();
        most_runs = most_runs.max(table.runs().len());
        longest = longest.max(len);
        let mut dev = g1024::Device::new();
        assert!(
            matches!(load(&mut dev, &out[..len]), Ok(DeviceReply::Activated(_))),
            "switch {s}"
        );
    }
    std::println!("G(1024, 10) NAF: at most {most_runs} runs, images of at most {longest} bytes");
    assert!(most_runs <= g1024::RUNS && longest <= g1024::IMAGE);
}

#[test]
fn load_activate_read_back_and_look_up() {
    let (img, entries, _) = ring_image(3);
    let mut dev = Small::new();
    let DeviceReply::Activated(summary) = load(&mut dev, &img).unwrap() else {
        panic!()
    };
    assert_eq!(summary.header.switch, 3);
    assert_eq!(summary.image_len, img.len() as u32);
    assert_eq!(
        summary.crc,
        u32::from_le_bytes(img[img.len() - 4..].try_into().unwrap())
    );
    assert_eq!(read_back(&mut dev), img);
    let r = dev
        .handle(
            &DeviceCommand::Routes {
                first: 2,
                count: 100,
            },
            Counters::default(),
        )
        .unwrap();
    assert_eq!(
        r,
        DeviceReply::Routes {
            first: 2,
            entries: heapless::Vec::from_slice(&entries[2..]).unwrap()
        }
    );
    assert_eq!(
        dev.handle(
            &DeviceCommand::Routes { first: 8, count: 1 },
            Counters::default()
        ),
        Err(Rejection::DestinationOutOfRange {
            destination: 8,
            destinations: 8
        })
    );
}

#[test]
fn bad_images_are_rejected_and_the_previous_stays_active() {
    let (good, entries, _) = ring_image(3);
    let (other, _, _) = ring_image(5);
    let mut dev = Small::new();
    load(&mut dev, &good).unwrap();
    // Corrupt: one payload bit flipped.
    let mut bad = other.clone();
    bad[20] ^= 0x10;
    let stored = u32::from_le_bytes(bad[bad.len() - 4..].try_into().unwrap());
    let computed = jumpnet_core::image::crc32::crc32(&bad[..bad.len() - 4]);
    assert_eq!(
        load(&mut dev, &bad),
        Err(Rejection::Image(ImageError::CrcMismatch {
            stored,
            computed
        }))
    );
    // Truncated: the length field announces more than is sent.
    assert_eq!(
        load(&mut dev, &other[..other.len() - 1]),
        Err(Rejection::Image(ImageError::Truncated {
            len: other.len() - 1,
            needed: other.len()
        }))
    );
    // Wrong version.
    let mut v = other.clone();
    v[4] = 9;
    assert_eq!(
        load(&mut dev, &v),
        Err(Rejection::Image(ImageError::UnsupportedVersion {
            found: 9,
            supported: 2
        }))
    );
    // Over capacity: a device of 2 runs.
    let mut tiny = DeviceService::<2, 2, 16, 1024>::new();
    assert_eq!(
        load(&mut tiny, &good),
        Err(Rejection::Image(ImageError::OverCapacity {
            what: jumpnet_core::image::Resource::TableRuns,
            needed: 3,
            capacity: 2
        }))
    );
    // Activation of an incomplete load.
    let c = Counters::default();
    dev.handle(&DeviceCommand::LoadBegin { image_len: 50 }, c)
        .unwrap();
    assert_eq!(
        dev.handle(&DeviceCommand::Activate, c),
        Err(Rejection::ImageIncomplete {
            received: 0,
            image_len: 50
        })
    );
    assert_eq!(
        dev.handle(&DeviceCommand::LoadBegin { image_len: 1025 }, c),
        Err(Rejection::ImageTooLarge {
            image_len: 1025,
            capacity: 1024
        })
    );
    // The first image is still active and answers.
    assert_eq!(read_back(&mut dev), good);
    let r = dev.handle(&DeviceCommand::Routes { first: 0, count: 8 }, c);
    assert_eq!(
        r,
        Ok(DeviceReply::Routes {
            first: 0,
            entries: heapless::Vec::from_slice(&entries).unwrap()
        })
    );
    let Ok(DeviceReply::Counters(k)) = dev.handle(&DeviceCommand::Counters, c) else {
        panic!()
    };
    assert_eq!(
        (k.images_activated, k.images_rejected, k.lookups),
        (1, 3, 8)
    );
    // A good image replaces it.
    load(&mut dev, &other).unwrap();
    assert_eq!(read_back(&mut dev), other);
    dev.handle(&DeviceCommand::Reset, c).unwrap();
    assert_eq!(
        dev.handle(&DeviceCommand::Routes { first: 0, count: 8 }, c),
        Err(Rejection::NoActiveImage)
    );
}

/// Runs rank `rank`'s program on the device and on an in-process executor, delivering
/// the same arrivals; the actions must be equal.
#[test]
fn device_program_matches_the_in_process_executor() {
    let (img, _, ops) = ring_image(3);
    let mut dev = Small::new();
    load(&mut dev, &img).unwrap();
    let mut status = vec![OpStatus::Pending; ops.len()];
    let mut local = Executor::new(&ops, &mut status).unwrap();
    let c = Counters::default();
    let mut now = 0u64;
    let mut reply = dev
        .handle(&DeviceCommand::ExecStart { program: 0, now }, c)
        .unwrap();
    let mut steps = 0;
    loop {
        let DeviceReply::Exec(report) = reply else {
            panic!("{reply:?}")
        };
        // The same polls in process.
        let mut expected = Vec::new();
        let done = loop {
            match local.poll(now).unwrap() {
                Action::Wait => break false,
                Action::Done => break true,
                a => expected.push(a),
            }
        };
        assert_eq!(&report.actions[..], &expected[..], "step {steps}");
        assert_eq!(report.done, done);
        if done {
            break;
        }
        // Every send's partner answers with the same blocks (recursive doubling exchanges).
        let mut arrivals = Vec::new();
        for a in &expected {
            if let Action::Send { peer, blocks, .. } = *a {
                arrivals.push(Arrival { peer, blocks });
                local.on_receive(peer, blocks).unwrap();
            }
        }
        now += 10;
        steps += 1;
        reply = dev
            .handle(
                &DeviceCommand::ExecStep {
                    now,
                    arrivals: heapless::Vec::from_slice(&arrivals).unwrap(),
                },
                c,
            )
            .unwrap();
    }
    assert_eq!(steps, 3, "log2(8) exchange steps");
    // An arrival nobody expects is a rejection, not a panic.
    assert_eq!(
        dev.handle(
            &DeviceCommand::ExecStep {
                now,
                arrivals: heapless::Vec::from_slice(&[Arrival {
                    peer: 1,
                    blocks: jumpnet_core::collective::Blocks::All
                }])
                .unwrap()
            },
            c
        ),
        Err(Rejection::Exec(ExecFault::UnexpectedMessage { peer: 1 }))
    );
}

/// A byte pipe from host to device that drops, flips and duplicates bytes.
struct FaultyLink {
    to_device: VecDeque<u8>,
    from_device: Vec<u8>,
    rng: Rng,
    /// Fault probability per byte, in 1/1000.
    per_mille: usize,
    faults: u32,
}

impl FaultyLink {
    fn send(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.rng.index(1000) < self.per_mille {
                self.faults += 1;
                match self.rng.index(3) {
                    0 => {}                                                      // dropped
                    1 => self.to_device.push_back(b ^ (1 << self.rng.index(8))), // flipped
                    _ => self.to_device.extend([b, b]),                          // duplicated
                }
            } else {
                self.to_device.push_back(b);
            }
        }
    }
}

impl embedded_io::ErrorType for FaultyLink {
    type Error = core::convert::Infallible;
}
impl embedded_io::Read for FaultyLink {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        match (self.to_device.pop_front(), buf.first_mut()) {
            (Some(b), Some(slot)) => {
                *slot = b;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}
impl embedded_io::Write for FaultyLink {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
        self.from_device.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// A host that retries: sends the request through the faulty link, lets the device serve
/// everything that arrived, and takes the reply with the request's id; on none (the frame
/// was damaged, or its terminator lost) it sends a lone terminator and tries again.
fn call(server: &mut Server<'_>, link: &mut FaultyLink, id: u16, cmd: DeviceCommand) -> Reply {
    let mut buf = [0u8; MAX_FRAME_LEN];
    let bytes = frame::encode(&Request::new(id, Command::Device(cmd)), &mut buf)
        .unwrap()
        .to_vec();
    for _attempt in 0..50 {
        link.send(&bytes);
        loop {
            match server.serve_one(link) {
                Ok(_) => {}
                Err(ServeError::EndOfInput) => break,
                Err(e) => panic!("{e}"),
            }
        }
        let out = core::mem::take(&mut link.from_device);
        let found = out
            .split(|&b| b == 0)
            .filter(|f| !f.is_empty())
            .filter_map(|f| frame::decode::<Response>(&mut f.to_vec()).ok())
            .find(|r| r.id == id);
        if let Some(r) = found {
            return r.reply;
        }
        link.to_device.push_back(0);
    }
    panic!("no reply to request {id} after 50 attempts");
}

#[test]
fn a_faulty_link_is_survived_and_the_image_arrives_intact() {
    let (img, entries, _) = ring_image(6);
    let mut dev = Small::new();
    let mut server = Server::new(None, &mut dev);
    let mut link = FaultyLink {
        to_device: VecDeque::new(),
        from_device: Vec::new(),
        rng: Rng::new(11),
        per_mille: 4,
        faults: 0,
    };
    let mut id = 1u16;
    let mut next = || {
        id += 1;
        id
    };
    let r = call(
        &mut server,
        &mut link,
        next(),
        DeviceCommand::LoadBegin {
            image_len: img.len() as u32,
        },
    );
    assert!(matches!(
        r,
        Reply::Device(DeviceReply::Loading { received: 0, .. })
    ));
    let mut offset = 0;
    while offset < img.len() {
        let end = (offset + 64).min(img.len());
        let r = call(
            &mut server,
            &mut link,
            next(),
            DeviceCommand::LoadChunk {
                offset: offset as u32,
                bytes: heapless::Vec::from_slice(&img[offset..end]).unwrap(),
            },
        );
        assert_eq!(
            r,
            Reply::Device(DeviceReply::Loading {
                received: end as u32,
                image_len: img.len() as u32
            })
        );
        offset = end;
    }
    let r = call(&mut server, &mut link, next(), DeviceCommand::Activate);
    assert!(
        matches!(r, Reply::Device(DeviceReply::Activated(_))),
        "{r:?}"
    );
    let r = call(
        &mut server,
        &mut link,
        next(),
        DeviceCommand::Routes { first: 0, count: 8 },
    );
    assert_eq!(
        r,
        Reply::Device(DeviceReply::Routes {
            first: 0,
            entries: heapless::Vec::from_slice(&entries).unwrap()
        })
    );
    let r = call(&mut server, &mut link, next(), DeviceCommand::Counters);
    let Reply::Device(DeviceReply::Counters(k)) = r else {
        panic!("{r:?}")
    };
    assert!(link.faults > 0, "the link injected faults");
    assert!(k.bad_frames > 0, "damaged frames were rejected: {k:?}");
    assert_eq!(k.images_activated, 1);
    // An unknown command (variant index 99 inside Command::Device) is a rejection too.
    let mut raw = Vec::new();
    raw.extend_from_slice(&[jumpnet_core::wire::WIRE_VERSION, 77, 6, 99]);
    let crc = jumpnet_core::image::crc32::crc32(&raw);
    raw.extend_from_slice(&crc.to_le_bytes());
    let mut enc = vec![0u8; 32];
    let n = cobs::encode(&raw, &mut enc);
    enc.truncate(n);
    enc.push(0);
    link.per_mille = 0;
    link.send(&enc);
    server.serve_one(&mut link).unwrap();
    let resp: Response = frame::decode(&mut link.from_device.clone()).unwrap();
    assert_eq!(
        resp.reply,
        Reply::Rejected(Rejection::Frame(jumpnet_core::wire::FrameError::BadMessage))
    );
}
