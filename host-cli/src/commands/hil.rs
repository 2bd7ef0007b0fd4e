//! `jumpnet hil`: a collective on the flit-level simulator with the NIC engines of chosen
//! nodes on devices (firmware under QEMU), RTL (Verilator, feature `rtl`) or the image's
//! program in process, traced and compared with the in-process run ([`crate::hil`]);
//! [`HilArgs`] becomes a [`HilRequest`]; `--check FILE` replays the run the trace's header
//! describes; `--vcd FILE` writes a waveform of a diverging RTL engine
//! ([`crate::hil::waveform`]). `jumpnet hil suite` ([`super::hil_suite`]) replays or records
//! many traces. Exit status 1 on a divergence, 2 on an error (a device that stops answering,
//! an RTL error, bad arguments, a trace of another format, a waveform that cannot be
//! written).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;

use crate::commands::args::FormatArgs;
use crate::commands::hil_suite::SuiteArgs;
use crate::commands::sim::SetupArgs;
use crate::commands::sim_collective::CollectiveArgs;
use crate::hil::device_engine::{default_elf, DeviceFaults, DeviceSetup};
use crate::hil::waveform::{self, PendingFile, VcdWindow};
use crate::hil::{run_hil, trace, EngineKind, HilRequest, Timing};
use crate::io::output;
use crate::io::progress::Progress;

/// The arguments `--check` replaces with the trace header's run.
const RUN_ARGS: &[&str] = &[
    "words",
    "edges",
    "algo",
    "max_layers",
    "valiant_seed",
    "preset",
    "config",
    "booksim",
    "collective",
    "mapping",
    "permutation",
    "ranks",
    "root",
    "msg",
    "elem_bytes",
    "flit_bytes",
    "header_flits",
    "send_overhead",
    "recv_overhead",
    "reduce_cycles_per_byte",
    "link_gbps",
    "map_seed",
    "map_iterations",
    "no_check",
    "background_mean",
    "background_bytes",
    "background_seed",
    "nodes",
    "timing",
];

/// `jumpnet hil` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum HilAction {
    /// Regression suite: replay every golden trace under DIR (or listed by a manifest) on
    /// --engine, in parallel, with a summary table, JUnit XML and diffs of failures; or
    /// record the manifest's traces (--record). Exit 0 all match, 1 a divergence, 2 a setup
    /// error. Trace and manifest format: docs/toolchain.md, "HIL regression suites".
    Suite(Box<SuiteArgs>),
}

/// Hardware in the loop: a collective on the simulator with chosen nodes' NIC engines
/// on devices (firmware under QEMU) or RTL, traced and compared with the in-process
/// run; exit status 1 on a divergence.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct HilArgs {
    /// `jumpnet hil suite`.
    #[command(subcommand)]
    pub action: Option<HilAction>,
    /// Topology, routing and simulator keys (as `jumpnet sim`).
    #[command(flatten)]
    pub setup: SetupArgs,
    /// The collective (as `jumpnet sim --collective`).
    #[command(flatten)]
    pub collective: CollectiveArgs,
    /// Nodes (switches) whose ranks' NIC engines run on --engine, e.g. 3,7.
    #[arg(long, value_delimiter = ',', required_unless_present = "check")]
    pub nodes: Vec<u32>,
    /// What runs those engines.
    #[arg(long, value_enum, default_value = "device")]
    pub engine: EngineKind,
    /// Timing contract of the engines and the reference [default: untimed for device and
    /// core, clocked for rtl; core keeps either].
    #[arg(long, value_enum)]
    pub timing: Option<Timing>,
    /// Write the run's trace to FILE (JSON lines whose header holds the whole run;
    /// docs/toolchain.md, "HIL regression suites").
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    pub record: Option<PathBuf>,
    /// Replay the run the trace in FILE describes (its header: topology, routing, simulator
    /// keys, collective, nodes, timing) and compare with its events instead of the
    /// in-process run; the run's own arguments are not given then.
    #[arg(long, value_name = "FILE", conflicts_with_all = RUN_ARGS)]
    pub check: Option<PathBuf>,
    /// Firmware ELF for --engine device (default `$JUMPNET_FIRMWARE_ELF`, else
    /// target/thumbv7em-none-eabihf/release/selftest).
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
    /// Wall-clock limit of each QEMU instance in seconds (at least 1).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,
    /// Milliseconds to wait for a device's answer before asking again.
    #[arg(long, default_value_t = 2000)]
    pub device_timeout_ms: u64,
    /// Attempts per device request (at least 1).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub device_attempts: u32,
    /// Testing aid: damage this many of every 1000 bytes sent to the devices during the
    /// run (0..=1000; flashing the image is never damaged).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub fault_per_mille: u32,
    /// Testing aid: damage bytes only from this simulator cycle on (0: from the run's first
    /// step).
    #[arg(long, default_value_t = 0)]
    pub fault_from_cycle: u64,
    /// Testing aid: reset the devices (they forget image and program) at this cycle.
    #[arg(long, value_name = "CYCLE")]
    pub reset_at_cycle: Option<u64>,
    /// Testing aid: make the first node's program send to a wrong peer (must be caught).
    #[arg(long)]
    pub mutate_program: bool,
    /// Route head flits at this switch with the table router RTL loaded with the switch's
    /// compiled table (feature `rtl`; routings whose hop depends on switch and destination
    /// alone, e.g. dor, minimal, df-minimal-1vc).
    #[arg(long, value_name = "SWITCH")]
    pub rtl_router: Option<u32>,
    /// Testing aid: a wrong port in the --rtl-router switch's table (must be caught).
    #[arg(long, requires = "rtl_router")]
    pub mutate_rtl_table: bool,
    /// With --engine rtl: when the run diverges, run it again writing a waveform (VCD,
    /// Verilator's trace of the diverging rank's RTL engine; cycle c at c ns) of the cycles
    /// around the first divergence to FILE, for GTKWave; nothing is written when the run
    /// matches (docs/toolchain.md, "Waveforms of diverging RTL runs").
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
    /// Cycles the waveform holds before and after the first divergence (one number: both).
    #[arg(
        long,
        value_name = "BEFORE[,AFTER]",
        default_value = "200,50",
        value_parser = VcdWindow::parse,
        requires = "vcd"
    )]
    pub vcd_window: VcdWindow,
    /// Output format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// No progress spinner.
    #[arg(long, short)]
    pub quiet: bool,
}

impl HilArgs {
    /// The devices of `--engine device`.
    fn device(&self) -> Option<DeviceSetup> {
        (self.engine == EngineKind::Device).then(|| DeviceSetup {
            elf: default_elf(self.elf.as_deref()),
            limit_s: self.limit.max(1),
            timeout: Duration::from_millis(self.device_timeout_ms.max(1)),
            attempts: self.device_attempts.max(1),
            faults: DeviceFaults {
                per_mille: self.fault_per_mille,
                from_cycle: self.fault_from_cycle,
                reset_at: self.reset_at_cycle,
                seed: 1,
            },
            round_trips: Default::default(),
        })
    }

    /// The library's request (the setup resolved, its notes printed; the trace of
    /// `--check` read).
    fn request(&self) -> Result<HilRequest> {
        let (setup, collective, nodes, timing, expected) = match &self.check {
            Some(path) => {
                let t = trace::read(path)?;
                let (setup, collective) = t
                    .run
                    .replay()
                    .map_err(|e| anyhow::anyhow!("{}: {e:#}", path.display()))?;
                (
                    setup,
                    collective,
                    t.run.nodes.clone(),
                    t.run.timing,
                    Some(t),
                )
            }
            None => {
                let Some(collective) = self.collective.run() else {
                    bail!("--collective is required (e.g. --collective bcast)");
                };
                let timing = self.timing.unwrap_or_else(|| self.engine.default_timing());
                let setup = self.setup.resolve(false)?;
                (setup, collective, self.nodes.clone(), timing, None)
            }
        };
        let device = self.device();
        if self.engine != EngineKind::Device
            && (self.fault_per_mille > 0 || self.reset_at_cycle.is_some())
        {
            bail!("--fault-per-mille and --reset-at-cycle apply to --engine device only");
        }
        Ok(HilRequest {
            setup,
            collective,
            nodes,
            engine: self.engine,
            timing,
            device,
            expected,
            mutate: self.mutate_program,
            rtl_router: self.rtl_router,
            mutate_rtl_table: self.mutate_rtl_table,
            waveform: None,
        })
    }
}

/// Runs `jumpnet hil`; returns the exit code.
pub fn run(args: HilArgs) -> Result<u8> {
    if let Some(HilAction::Suite(suite)) = args.action {
        return crate::commands::hil_suite::run(*suite);
    }
    let req = args.request()?;
    // The waveform's file is created (under a temporary name) before anything runs.
    let vcd = match &args.vcd {
        Some(path) => {
            waveform::check_engine(req.engine)?;
            Some(PendingFile::create(path)?)
        }
        None => None,
    };
    let spinner = Progress::spinner("hardware-in-the-loop run", !args.quiet);
    let outcome = run_hil(&req).map(|r| match vcd {
        Some(file) if r.divergence.is_some() => {
            let w = waveform::write_waveform(req, &r, file, args.vcd_window);
            (r, Some(w))
        }
        _ => (r, None),
    });
    spinner.finish();
    let (mut report, wave) = outcome?;
    if let Some(Ok(w)) = &wave {
        report.waveform = Some(w.clone());
    }
    output::print(&report, args.format.format())?;
    if let Some(d) = &report.divergence {
        let expected = match &args.check {
            Some(path) => format!("expected {}", path.display()),
            None => format!("expected ({})", report.compared_with),
        };
        output::eprint_line(&format!(
            "jumpnet hil: the traces differ ({}):\n{d}\n{}",
            report.compared_with,
            d.unified_diff(
                &expected,
                &format!("actual ({} engine)", report.engine.name())
            )
        ))?;
        if let Some(w) = wave {
            output::eprint_line(&format!("jumpnet hil: wrote the {}", w?))?;
        }
        return Ok(1);
    }
    if let Some(path) = &args.vcd {
        output::eprint_line(&format!(
            "jumpnet hil: no divergence from the {}: no waveform needed, {} not written",
            report.compared_with,
            path.display()
        ))?;
    }
    if let Some(d) = report.hop_difference() {
        output::eprint_line(&format!(
            "jumpnet hil: the RTL router's hops differ from the in-process run's: {d}"
        ))?;
        return Ok(1);
    }
    if let Some(path) = &args.record {
        trace::write(path, &report.run, &report.trace)?;
        output::eprint_line(&format!(
            "recorded {} events -> {}",
            report.trace.len(),
            path.display()
        ))?;
    }
    Ok(0)
}
