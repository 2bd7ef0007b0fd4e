//! A NIC engine on a device: the firmware's program engine (wire v3 `ExecStart` /
//! `ExecStep`, `jumpnet_firmware::device`) under QEMU, one QEMU instance per engine, flashed
//! with the device image of its node.
//!
//! The simulator polls an untimed engine until it waits; the device instead answers one
//! `ExecStep { now, arrivals }` with every action its executor issues at `now` after taking
//! the arrivals. [`DeviceEngine`] therefore sends the arrivals gathered since its last step
//! with the next poll at a new cycle, buffers the answer and hands it out one action at a
//! time; a poll with nothing new answers `Wait` without a round trip (the executor's state
//! cannot have changed). This equals polling the in-process executor as long as the
//! simulator does not interrupt a rank between two actions of one cycle, which it does only
//! for reductions that take time (`--reduce-cycles-per-byte` > 0, refused by `jumpnet hil`).
//!
//! Faults for tests ([`DeviceFaults`]): a byte-damaging link from a given cycle on
//! (`device::fault::FaultInjector`), and a device `Reset` before a given cycle. Both end in
//! an error naming the device and the cycle (the client gives up after its attempts), never
//! in a hang.

use std::cell::Cell;
use std::collections::VecDeque;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use anyhow::{Context, Result};
use jumpnet_core::collective::{Blocks, Op, Rank};
use jumpnet_core::exec::Action;
use jumpnet_core::wire::device::{Arrival, DeviceCommand};

use super::engines::OpProgress;
use crate::device::client::Step;
use crate::device::fault::FaultInjector;
use crate::device::qemu::Qemu;
use crate::device::Client;
use crate::sim::workload::nic_engine::{NicEngine, NicError, RecvMatcher};

/// Faults injected into a device engine's link (testing aids of `jumpnet hil`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceFaults {
    /// Damage this many of every 1000 bytes sent to the device (dropped, flipped or
    /// duplicated) ...
    pub per_mille: u32,
    /// ... from the first exec step at or after this cycle (0: from the run's first step).
    /// Flashing the image is setup, not part of the run, and is never damaged: a flash
    /// chunk of several hundred bytes would hardly ever get through at a useful rate
    /// (flashing through a faulty link is tested on its own, in `device::client`).
    pub from_cycle: u64,
    /// Reset the device before the first exec step at or after this cycle.
    pub reset_at: Option<u64>,
    /// Seed of the damage.
    pub seed: u64,
}

/// How to reach the devices.
#[derive(Debug, Clone)]
pub struct DeviceSetup {
    /// Firmware ELF run under QEMU.
    pub elf: std::path::PathBuf,
    /// Wall-clock limit of each QEMU instance in seconds.
    pub limit_s: u32,
    /// Longest wait for one answer before a request is sent again.
    pub timeout: Duration,
    /// Attempts per request.
    pub attempts: u32,
    /// Faults to inject.
    pub faults: DeviceFaults,
    /// Exec requests answered by all devices so far (shared by the engines).
    pub round_trips: Rc<Cell<u64>>,
}

/// One rank's program on a device under QEMU.
#[derive(Debug)]
pub struct DeviceEngine {
    name: String,
    client: Option<Client<FaultInjector<Qemu>>>,
    program: u32,
    faults: DeviceFaults,
    matcher: RecvMatcher,
    progress: OpProgress,
    arrivals: Vec<Arrival>,
    actions: VecDeque<Action>,
    started: bool,
    done: bool,
    round_trips: Rc<Cell<u64>>,
}

impl DeviceEngine {
    /// Starts QEMU on `setup.elf`, flashes `image` and prepares program `program` of it,
    /// which the host knows as `host_program` (to match arrivals); `name` names the device
    /// in errors.
    pub fn start(
        name: String,
        setup: &DeviceSetup,
        image: &[u8],
        program: u32,
        host_program: &[Op],
    ) -> Result<Self> {
        let qemu = Qemu::start(&setup.elf, setup.limit_s)
            .with_context(|| format!("{name}: start QEMU"))?;
        let link = FaultInjector::new(qemu, setup.faults.seed, 0);
        let mut client = Client::new(link);
        client.timeout = setup.timeout;
        client.attempts = setup.attempts;
        let mut engine = DeviceEngine {
            name,
            client: None,
            program,
            faults: setup.faults,
            matcher: RecvMatcher::new(host_program),
            progress: OpProgress::new(host_program.len()),
            arrivals: Vec::new(),
            actions: VecDeque::new(),
            started: false,
            done: false,
            round_trips: Rc::clone(&setup.round_trips),
        };
        let flashed = client.flash(image);
        engine.client = Some(client);
        flashed.with_context(|| format!("{}: flash the image", engine.name))?;
        Ok(engine)
    }

    fn step(&mut self, now: u64) -> Result<Step> {
        let client = self.client.as_mut().context("the device was shut down")?;
        if self.faults.per_mille > 0 && now >= self.faults.from_cycle {
            client.transport_mut().set_per_mille(self.faults.per_mille);
        }
        if self.faults.reset_at.is_some_and(|at| now >= at) {
            self.faults.reset_at = None;
            client
                .device(DeviceCommand::Reset)
                .context("reset the device")?;
        }
        self.round_trips.set(self.round_trips.get() + 1);
        if self.started {
            let arrivals = std::mem::take(&mut self.arrivals);
            client.exec_step(now, &arrivals)
        } else {
            self.started = true;
            client.exec_start(self.program, now)
        }
        .with_context(|| format!("exec at cycle {now}"))
    }
}

impl NicEngine for DeviceEngine {
    fn arrive(&mut self, _: u64, _: u64, peer: Rank, blocks: Blocks) -> Result<u32, NicError> {
        self.arrivals.push(Arrival { peer, blocks });
        Ok(self.matcher.arrive(peer, blocks)?)
    }

    fn poll(&mut self, now: u64) -> Result<Action, NicError> {
        if self.actions.is_empty() && !self.done && (!self.started || !self.arrivals.is_empty()) {
            let step = self
                .step(now)
                .map_err(|e| NicError::Engine(format!("{}: {e:#}", self.name)))?;
            self.actions.extend(step.actions);
            self.done = step.done;
        }
        let action = match self.actions.pop_front() {
            Some(a) => a,
            None if self.done => Action::Done,
            None => Action::Wait,
        };
        self.progress.note(&action);
        Ok(action)
    }

    fn first_pending(&self) -> u32 {
        self.progress.first_pending()
    }
}

impl Drop for DeviceEngine {
    fn drop(&mut self) {
        // QEMU keeps nothing between runs: stop it at once.
        if let Some(client) = self.client.take() {
            let _ = client.into_transport().into_inner().kill();
        }
    }
}

/// The firmware ELF of `jumpnet hil --engine device`: `--elf`, else
/// `$JUMPNET_FIRMWARE_ELF`, else the release self-test build.
pub fn default_elf(given: Option<&Path>) -> std::path::PathBuf {
    crate::device::qemu::firmware_elf(given)
}
