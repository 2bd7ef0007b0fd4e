//! Hardware-in-the-loop collective runs (`jumpnet hil`): the flit-level
//! simulator runs a whole collective ([`crate::sim::workload::collective`]) while the NIC engines of
//! chosen nodes run elsewhere — the firmware under QEMU (one instance per rank of the node,
//! flashed with the node's device image), the schedule-engine RTL under Verilator (feature
//! `rtl`), or the in-process executor over the image's program (`core`, no hardware) — fed
//! the same events ([`crate::sim::workload::nic_engine`]). Every action of those nodes' ranks is traced
//! ([`trace`]) and compared, event by event, with the run where they are in process: core's
//! `Executor` for device and core engines, core's cycle-stepped `TimedExecutor` (the timing
//! contract the RTL is held to) for RTL engines. The first divergence stops the run and is
//! reported with its context; a trace can be recorded and checked later.
//!
//! - [`run`]: the driver ([`run::run_hil`]); [`report`]: its result;
//! - [`trace`]: events, the recorder, the trace file (JSON lines); [`run_key`]: its header,
//!   the run it replays;
//! - [`suite`]: regression suites of many traces (`jumpnet hil suite`); [`junit`]: their
//!   JUnit XML;
//! - [`images`]: the nodes' device images and the programs read back from them;
//! - [`engines`]: the image-core and clocked engines; [`device_engine`]: the QEMU device;
//!   `rtl` (feature `rtl`): the Verilated engine;
//! - [`waveform`]: waveforms (VCD) of a diverging RTL engine (`--vcd`);
//! - [`switch_route`]: one switch's forwarding stage from its compiled table;
//!   `rtl_router` (feature `rtl`): that stage on the Verilated table router
//!   (`--rtl-router SWITCH`).

pub mod device_engine;
pub mod engines;
pub mod images;
pub mod junit;
pub mod manifest;
pub mod report;
#[cfg(feature = "rtl")]
pub mod rtl;
#[cfg(feature = "rtl")]
pub mod rtl_router;
pub mod run;
pub mod run_key;
pub mod suite;
pub mod switch_route;
pub mod trace;
pub mod waveform;

pub use report::{HilReport, RtlRouterSummary, RunSummary};
pub use run::{run_hil, EngineKind, HilRequest};
pub use run_key::{RunKey, Timing};
