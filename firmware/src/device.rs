//! The device service: holds a device image (`jumpnet_core::image::device`) and serves the
//! device commands of [`crate::wire::device`] — chunked loading into a staging buffer,
//! verification and activation (the previous image stays active when the new one is
//! rejected), read-back, route lookups, the program engine, counters, reset.
//!
//! Capacities are const generics chosen per build, so a device is built for its network:
//! `RUNS` route-table runs, `PROGRAMS` programs, `OPS` program ops (all programs together)
//! and `IMAGE` image bytes (two buffers: staging and active). Size a build with
//! `image::device::max_image_len(RUNS, PROGRAMS, OPS)` for `IMAGE`.

use heapless::Vec;
use jumpnet_core::collective::{Blocks, Dep, Op};
use jumpnet_core::exec::{Action, ExecCursor, Executor, OpStatus};
use jumpnet_core::image::device::{
    self, program_ops, Capacities, DeviceBuffers, DeviceHeader, ProgramEntry, RoutingAlgorithm,
};
use jumpnet_core::routing::{RouteEntry, Run, RunTable};
use jumpnet_core::topology::spec::NetworkSpec;

use crate::wire::device::{
    Counters, DeviceCommand, DeviceInfo, DeviceLimits, DeviceReply, ExecFault, ExecReport,
    ImageSummary, MAX_ROUTES,
};
use crate::wire::message::Rejection;
use crate::wire::route_table::{ImageChunk, MAX_IMAGE_CHUNK};

/// Filler of the op buffers: variant 0 with zero fields, so a `DeviceService` is all zero
/// bytes and lands in `.bss` (no flash copy of its initial value).
const BLANK_OP: Op = Op::Send {
    peer: 0,
    blocks: Blocks::All,
    after: Dep::None,
};
const BLANK_PROGRAM: ProgramEntry = ProgramEntry {
    collective: 0,
    terminal: 0,
    rank: 0,
    ranks: 0,
    ops: 0,
};

/// The device commands' handler, as the request loop sees it (object safe, so the loop does
/// not carry the capacities).
pub trait DeviceHandler {
    /// Answers `command`; `frames` are the request loop's counts (requests answered,
    /// rejected, bad frames) for [`DeviceCommand::Counters`].
    fn handle(
        &mut self,
        command: &DeviceCommand,
        frames: Counters,
    ) -> Result<DeviceReply, Rejection>;
    /// Forgets everything ([`DeviceCommand::Reset`]).
    fn reset(&mut self);
}

/// A program being run: which one, and the executor's scalar state.
#[derive(Clone, Copy, Debug)]
struct Running {
    program: u32,
    cursor: ExecCursor,
}

/// An optional value stored as a flag and a value, so that an empty one is all zero bytes
/// (an `Option` of a type with a niche may encode `None` as non-zero bytes, which moves the
/// whole device state from `.bss` into `.data` and its initial value into flash).
#[derive(Clone, Copy, Debug)]
struct Held<T> {
    present: bool,
    value: T,
}

impl<T> Held<T> {
    fn get(&self) -> Option<&T> {
        self.present.then_some(&self.value)
    }
    fn put(&mut self, value: T) {
        self.value = value;
        self.present = true;
    }
    fn clear(&mut self) {
        self.present = false;
    }
}

/// The active image's decoded parts.
#[derive(Debug)]
struct Active {
    header: DeviceHeader,
    slot: usize,
    len: usize,
}

/// Program `index` of the active image (programs and ops are the decoded buffers).
fn active_program<'a>(
    active: Option<&Active>,
    programs: &'a [ProgramEntry],
    ops: &'a [Op],
    index: u32,
) -> Result<&'a [Op], Rejection> {
    let caps = active.ok_or(Rejection::NoActiveImage)?.header.capacities;
    let programs = programs.get(..caps.programs as usize).unwrap_or(&[]);
    let ops = ops.get(..caps.ops as usize).unwrap_or(&[]);
    program_ops(programs, ops, index as usize)
        .map(|(_, ops)| ops)
        .ok_or(Rejection::NoSuchProgram {
            program: index,
            programs: caps.programs,
        })
}

/// Device state for capacities `RUNS`, `PROGRAMS`, `OPS` and `IMAGE` (module docs).
#[derive(Debug)]
pub struct DeviceService<
    const RUNS: usize,
    const PROGRAMS: usize,
    const OPS: usize,
    const IMAGE: usize,
> {
    images: [[u8; IMAGE]; 2],
    /// Announced length and bytes received of the image being loaded (into the other slot).
    staging: Option<(u32, u32)>,
    active: Held<Active>,
    runs: [Run<RouteEntry>; RUNS],
    programs: [ProgramEntry; PROGRAMS],
    ops: [Op; OPS],
    status: [OpStatus; OPS],
    running: Held<Running>,
    counters: Counters,
}

impl<const RUNS: usize, const PROGRAMS: usize, const OPS: usize, const IMAGE: usize> Default
    for DeviceService<RUNS, PROGRAMS, OPS, IMAGE>
{
    fn default() -> Self {
        Self::new()
    }
}

fn sat(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<const RUNS: usize, const PROGRAMS: usize, const OPS: usize, const IMAGE: usize>
    DeviceService<RUNS, PROGRAMS, OPS, IMAGE>
{
    /// An empty device (a `const fn`, so it can live in `.bss`).
    pub const fn new() -> Self {
        DeviceService {
            images: [[0; IMAGE]; 2],
            staging: None,
            active: Held {
                present: false,
                value: Active {
                    header: DeviceHeader {
                        switch: 0,
                        network: NetworkSpec::Ring { n: 0 },
                        algorithm: RoutingAlgorithm::MinimalBfs,
                        capacities: Capacities {
                            destinations: 0,
                            runs: 0,
                            programs: 0,
                            ops: 0,
                        },
                    },
                    slot: 0,
                    len: 0,
                },
            },
            runs: [Run {
                first: 0,
                value: RouteEntry { port: 0, vc: 0 },
            }; RUNS],
            programs: [BLANK_PROGRAM; PROGRAMS],
            ops: [BLANK_OP; OPS],
            status: [OpStatus::Pending; OPS],
            running: Held {
                present: false,
                value: Running {
                    program: 0,
                    cursor: ExecCursor {
                        done_prefix: 0,
                        remaining: 0,
                        last_progress: 0,
                        progressed: false,
                        timeout: 0,
                        finished_at: 0,
                        scan_limit: 0,
                    },
                },
            },
            counters: Counters {
                requests: 0,
                rejected: 0,
                bad_frames: 0,
                images_activated: 0,
                images_rejected: 0,
                lookups: 0,
                sends: 0,
                deliveries: 0,
                permutes: 0,
            },
        }
    }

    /// The capacities of this build.
    pub const fn limits() -> DeviceLimits {
        DeviceLimits {
            runs: RUNS as u32,
            programs: PROGRAMS as u32,
            ops: OPS as u32,
            image_bytes: IMAGE as u32,
        }
    }

    /// Bytes of the active image.
    pub fn active_image(&self) -> Option<&[u8]> {
        let a = self.active.get()?;
        self.images.get(a.slot)?.get(..a.len)
    }

    fn staging_slot(&self) -> usize {
        self.active.get().map_or(0, |a| 1 - a.slot)
    }

    fn summary(&self) -> Option<ImageSummary> {
        let a = self.active.get()?;
        let bytes = self.active_image()?;
        let crc = bytes
            .get(bytes.len().saturating_sub(4)..)
            .and_then(|c| c.try_into().ok())
            .map_or(0, u32::from_le_bytes);
        Some(ImageSummary {
            header: a.header.clone(),
            image_len: sat(a.len),
            crc,
        })
    }

    fn table(&self) -> Result<RunTable<'_, RouteEntry>, Rejection> {
        let a = self.active.get().ok_or(Rejection::NoActiveImage)?;
        let caps = a.header.capacities;
        let runs = self.runs.get(..caps.runs as usize).unwrap_or(&[]);
        RunTable::new(runs, caps.destinations).map_err(|_| Rejection::NoActiveImage)
    }

    fn load_begin(&mut self, image_len: u32) -> Result<DeviceReply, Rejection> {
        if image_len as usize > IMAGE {
            self.staging = None;
            return Err(Rejection::ImageTooLarge {
                image_len,
                capacity: sat(IMAGE),
            });
        }
        self.staging = Some((image_len, 0));
        Ok(DeviceReply::Loading {
            received: 0,
            image_len,
        })
    }

    fn load_chunk(&mut self, offset: u32, bytes: &[u8]) -> Result<DeviceReply, Rejection> {
        let (image_len, received) = self.staging.ok_or(Rejection::NoLoadInProgress)?;
        let end = offset as u64 + bytes.len() as u64;
        if end > image_len as u64 {
            return Err(Rejection::ChunkOutOfRange { offset, image_len });
        }
        if end <= received as u64 {
            // Already have it (a retry after a lost reply): acknowledge again.
            return Ok(DeviceReply::Loading {
                received,
                image_len,
            });
        }
        if offset != received {
            return Err(Rejection::ChunkOutOfOrder {
                offset,
                expected: received,
            });
        }
        let slot = self.staging_slot();
        let dst = self
            .images
            .get_mut(slot)
            .and_then(|img| img.get_mut(offset as usize..end as usize))
            .ok_or(Rejection::ChunkOutOfRange { offset, image_len })?;
        dst.copy_from_slice(bytes);
        let received = end as u32;
        self.staging = Some((image_len, received));
        Ok(DeviceReply::Loading {
            received,
            image_len,
        })
    }

    fn activate(&mut self) -> Result<DeviceReply, Rejection> {
        let (image_len, received) = self.staging.ok_or(Rejection::NoLoadInProgress)?;
        if received != image_len {
            return Err(Rejection::ImageIncomplete {
                received,
                image_len,
            });
        }
        self.staging = None;
        let slot = self.staging_slot();
        let bytes = self
            .images
            .get(slot)
            .and_then(|img| img.get(..image_len as usize))
            .unwrap_or(&[]);
        let limits = Capacities {
            destinations: u32::MAX,
            runs: sat(RUNS),
            programs: sat(PROGRAMS),
            ops: sat(OPS),
        };
        if let Err(e) = device::verify(bytes, limits) {
            self.counters.images_rejected = self.counters.images_rejected.saturating_add(1);
            return Err(Rejection::Image(e.into()));
        }
        // Verified: decoding cannot fail now; it overwrites the previous image's parts.
        let buffers = DeviceBuffers {
            runs: &mut self.runs,
            programs: &mut self.programs,
            ops: &mut self.ops,
        };
        let header = match device::decode(bytes, buffers) {
            Ok(d) => d.header,
            Err(e) => {
                self.active.clear();
                self.counters.images_rejected = self.counters.images_rejected.saturating_add(1);
                return Err(Rejection::Image(e.into()));
            }
        };
        self.active.put(Active {
            header,
            slot,
            len: image_len as usize,
        });
        self.running.clear();
        self.counters.images_activated = self.counters.images_activated.saturating_add(1);
        self.summary()
            .map(DeviceReply::Activated)
            .ok_or(Rejection::NoActiveImage)
    }

    fn read_image(&self, offset: u32, max_len: u16) -> Result<DeviceReply, Rejection> {
        let bytes = self.active_image().ok_or(Rejection::NoActiveImage)?;
        let image_len = sat(bytes.len());
        let rest = bytes
            .get(offset as usize..)
            .ok_or(Rejection::ChunkOutOfRange { offset, image_len })?;
        let n = rest.len().min(max_len as usize).min(MAX_IMAGE_CHUNK);
        let chunk = Vec::from_slice(rest.get(..n).unwrap_or(&[]))
            .map_err(|_| Rejection::ChunkOutOfRange { offset, image_len })?;
        Ok(DeviceReply::Image(ImageChunk {
            image_len,
            offset,
            bytes: chunk,
        }))
    }

    fn routes(&mut self, first: u32, count: u16) -> Result<DeviceReply, Rejection> {
        let table = self.table()?;
        let destinations = table.len();
        if first >= destinations && !(first == destinations && count == 0) {
            return Err(Rejection::DestinationOutOfRange {
                destination: first,
                destinations,
            });
        }
        let mut entries = Vec::new();
        for d in (first..destinations).take((count as usize).min(MAX_ROUTES)) {
            let e = table.lookup(d).unwrap_or(RouteEntry::NONE);
            if entries.push(e).is_err() {
                break;
            }
        }
        let n = sat(entries.len());
        self.counters.lookups = self.counters.lookups.saturating_add(n);
        Ok(DeviceReply::Routes { first, entries })
    }

    fn exec_start(&mut self, index: u32, now: u64) -> Result<DeviceReply, Rejection> {
        self.running.clear();
        let Self {
            active,
            programs,
            ops,
            status,
            ..
        } = self;
        let program = active_program(active.get(), programs, ops, index)?;
        let exec = Executor::new(program, status)
            .map_err(|e| Rejection::Exec(ExecFault::from(e)))?
            .with_timeout(0, now);
        self.running.put(Running {
            program: index,
            cursor: exec.cursor(),
        });
        self.exec_step(now, &[])
    }

    fn exec_step(
        &mut self,
        now: u64,
        arrivals: &[crate::wire::device::Arrival],
    ) -> Result<DeviceReply, Rejection> {
        let running = *self.running.get().ok_or(Rejection::NotRunning)?;
        let Self {
            active,
            programs,
            ops,
            status,
            counters,
            ..
        } = self;
        let program = active_program(active.get(), programs, ops, running.program)?;
        let mut exec = Executor::resume(program, status, running.cursor);
        let mut result = Ok(());
        for a in arrivals {
            if let Err(e) = exec.on_receive(a.peer, a.blocks) {
                result = Err(Rejection::Exec(e.into()));
                break;
            }
        }
        let mut report = ExecReport {
            actions: Vec::new(),
            done: false,
            more: false,
        };
        if result.is_ok() {
            loop {
                if report.actions.is_full() {
                    report.more = true;
                    break;
                }
                match exec.poll(now) {
                    Ok(Action::Wait) => break,
                    Ok(Action::Done) => {
                        report.done = true;
                        break;
                    }
                    Ok(action) => {
                        match action {
                            Action::Send { .. } => {
                                counters.sends = counters.sends.saturating_add(1)
                            }
                            Action::Deliver { .. } => {
                                counters.deliveries = counters.deliveries.saturating_add(1)
                            }
                            _ => counters.permutes = counters.permutes.saturating_add(1),
                        }
                        let _ = report.actions.push(action);
                    }
                    Err(e) => {
                        result = Err(Rejection::Exec(e.into()));
                        break;
                    }
                }
            }
        }
        let cursor = exec.cursor();
        self.running.put(Running { cursor, ..running });
        result.map(|()| DeviceReply::Exec(report))
    }
}

impl<const RUNS: usize, const PROGRAMS: usize, const OPS: usize, const IMAGE: usize> DeviceHandler
    for DeviceService<RUNS, PROGRAMS, OPS, IMAGE>
{
    fn handle(
        &mut self,
        command: &DeviceCommand,
        frames: Counters,
    ) -> Result<DeviceReply, Rejection> {
        match command {
            &DeviceCommand::LoadBegin { image_len } => self.load_begin(image_len),
            DeviceCommand::LoadChunk { offset, bytes } => self.load_chunk(*offset, bytes),
            DeviceCommand::Activate => self.activate(),
            DeviceCommand::Info => Ok(DeviceReply::Info(DeviceInfo {
                active: self.summary(),
                limits: Self::limits(),
                staged: self.staging.map_or(0, |(_, r)| r),
                running: self.running.get().map(|r| r.program),
            })),
            &DeviceCommand::ReadImage { offset, max_len } => self.read_image(offset, max_len),
            &DeviceCommand::Routes { first, count } => self.routes(first, count),
            &DeviceCommand::ExecStart { program, now } => self.exec_start(program, now),
            DeviceCommand::ExecStep { now, arrivals } => self.exec_step(*now, arrivals),
            DeviceCommand::Counters => Ok(DeviceReply::Counters(Counters {
                requests: frames.requests,
                rejected: frames.rejected,
                bad_frames: frames.bad_frames,
                ..self.counters
            })),
            DeviceCommand::Reset => {
                self.reset();
                Ok(DeviceReply::Reset)
            }
        }
    }

    fn reset(&mut self) {
        self.staging = None;
        self.active.clear();
        self.running.clear();
        self.counters = Counters::default();
    }
}

/// Capacities of the self-test build (QEMU, 4 MiB RAM): 2,048 runs, 8 programs, 512 ops.
pub type SelftestDevice =
    DeviceService<2048, 8, 512, { jumpnet_core::image::device::max_image_len(2048, 8, 512) }>;

/// Capacities of the `device` binary: a switch of the 1,024-node circulant `G(1024, 10)`
/// holding its NAF route table and up to four programs of 1,024-rank collectives
/// (recursive-doubling allreduce: 20 ops per rank). Checked against the real images of
/// every switch's table by `g1024_images_fit_the_device_build`.
pub mod g1024 {
    /// Table runs (the largest NAF table of `G(1024, 10)` needs fewer, see the test).
    pub const RUNS: usize = 1024;
    /// Programs.
    pub const PROGRAMS: usize = 4;
    /// Ops of all programs.
    pub const OPS: usize = 80;
    /// Image bytes: the largest image of a switch's table and four allreduce programs, plus
    /// headroom (the worst-case bound `max_image_len` would be 3 times larger).
    pub const IMAGE: usize = 5 * 1024;
    /// The device of this build.
    pub type Device = super::DeviceService<RUNS, PROGRAMS, OPS, IMAGE>;
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::serve::{ServeError, Server};
    use crate::wire::device::{Arrival, ImageFault};
    use crate::wire::frame;
    use crate::wire::message::{Command, Reply, Request, Response, MAX_FRAME_LEN};
    use jumpnet_core::collective::{RecursiveDoubling, Schedule};
    use jumpnet_core::image::device::{DeviceContent, RoutingAlgorithm};
    use jumpnet_core::image::ImageError;
    use jumpnet_core::rng::Rng;
    use jumpnet_core::routing::RunTableBuilder;
    use jumpnet_core::topology::spec::NetworkSpec;
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
        std::println!(
            "G(1024, 10) NAF: at most {most_runs} runs, images of at most {longest} bytes"
        );
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
            Err(Rejection::Image(ImageFault::CrcMismatch {
                stored,
                computed
            }))
        );
        // Truncated: the length field announces more than is sent.
        assert_eq!(
            load(&mut dev, &other[..other.len() - 1]),
            Err(Rejection::Image(
                ImageError::Truncated {
                    len: other.len() - 1,
                    needed: other.len()
                }
                .into()
            ))
        );
        // Wrong version.
        let mut v = other.clone();
        v[4] = 9;
        assert_eq!(
            load(&mut dev, &v),
            Err(Rejection::Image(ImageFault::UnsupportedVersion {
                found: 9,
                supported: 2
            }))
        );
        // Over capacity: a device of 2 runs.
        let mut tiny = DeviceService::<2, 2, 16, 1024>::new();
        assert_eq!(
            load(&mut tiny, &good),
            Err(Rejection::Image(ImageFault::OverCapacity {
                resource: crate::wire::device::DeviceResource::Runs,
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
        raw.extend_from_slice(&[crate::wire::WIRE_VERSION, 77, 6, 99]);
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
            Reply::Rejected(Rejection::Frame(crate::wire::FrameError::BadMessage))
        );
    }
}
