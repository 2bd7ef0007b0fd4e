//! The device service: holds a device image (`jumpnet_core::image::device`) and serves the
//! device commands of [`jumpnet_core::wire::device`] — chunked loading into a staging buffer,
//! verification and activation (the previous image stays active when the new one is
//! rejected), read-back, route lookups, the program engine, counters, reset.
//!
//! Capacities are const generics chosen per build, so a device is built for its network:
//! `RUNS` route-table runs, `PROGRAMS` programs, `OPS` program ops (all programs together)
//! and `IMAGE` image bytes (two buffers: staging and active). Size a build with
//! `image::device::max_image_len(RUNS, PROGRAMS, OPS)` for `IMAGE`.

mod engine;
mod held;
mod loading;
mod routes;
#[cfg(test)]
mod tests;

use jumpnet_core::collective::{Blocks, Dep, Op};
use jumpnet_core::exec::{ExecCursor, OpStatus};
use jumpnet_core::image::device::{Capacities, DeviceHeader, ProgramEntry, RoutingAlgorithm};
use jumpnet_core::routing::{RouteEntry, Run};
use jumpnet_core::topology::spec::NetworkSpec;

use engine::Running;
use held::Held;
use jumpnet_core::wire::device::{
    Counters, DeviceCommand, DeviceInfo, DeviceLimits, DeviceReply, ImageSummary,
};
use jumpnet_core::wire::message::Rejection;
use loading::Active;

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
                heartbeats: 0,
                frame_timeouts: 0,
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
                heartbeats: frames.heartbeats,
                frame_timeouts: frames.frame_timeouts,
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
