//! `jumpnet hil suite`: [`SuiteArgs`] become a [`SuiteRequest`]; the library replays or
//! records the suite ([`crate::hil::suite`]), this module prints the summary table, the
//! diverging cases with their diffs, and writes the JUnit XML. Exit status 0 when every case
//! matches, 1 when one diverges, 2 on a setup error (a trace refused, a case that cannot
//! run, a waveform that cannot be written, bad arguments).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;

use crate::commands::args::FormatArgs;
use crate::hil::device_engine::default_elf;
use crate::hil::junit;
use crate::hil::suite::{self, DeviceOptions, Outcome, SuiteRequest, SuiteVcd};
use crate::hil::waveform::VcdWindow;
use crate::hil::EngineKind;
use crate::io::output;

/// `jumpnet hil suite` arguments.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// A directory (every *.jsonl trace under it) or a manifest file (TOML, one `[[case]]` per
    /// trace; docs/toolchain.md, "HIL regression suites").
    #[arg(value_name = "DIR|MANIFEST")]
    pub suite: PathBuf,
    /// What runs the traced nodes' engines (core: in process, device: firmware under QEMU,
    /// rtl: Verilator, feature `rtl`).
    #[arg(long, value_enum, default_value = "core")]
    pub engine: EngineKind,
    /// Cases at once [default: the machine's cores].
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// QEMU instances at once (--engine device; a case needs one per traced rank)
    /// [default: the machine's cores].
    #[arg(long)]
    pub qemu_instances: Option<usize>,
    /// Write JUnit XML (one testcase per trace) to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Record the manifest's traces (compared with the in-process run) instead of replaying.
    #[arg(long)]
    pub record: bool,
    /// With --record: replace traces that exist.
    #[arg(long, requires = "record")]
    pub update: bool,
    /// Firmware ELF for --engine device (default `$JUMPNET_FIRMWARE_ELF`, else
    /// target/thumbv7em-none-eabihf/release/selftest).
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
    /// Wall-clock limit of each QEMU instance in seconds.
    #[arg(long, default_value_t = 600)]
    pub limit: u32,
    /// Milliseconds to wait for a device's answer before asking again.
    #[arg(long, default_value_t = 2000)]
    pub device_timeout_ms: u64,
    /// Attempts per device request.
    #[arg(long, default_value_t = 5)]
    pub device_attempts: u32,
    /// With --engine rtl: for each diverging case, run it again writing a waveform (VCD) of
    /// the diverging rank's RTL engine around the first divergence to DIR/CASE.vcd (DIR is
    /// created; docs/toolchain.md, "Waveforms of diverging RTL runs").
    #[arg(long, value_name = "DIR", conflicts_with = "record")]
    pub vcd: Option<PathBuf>,
    /// Cycles each waveform holds before and after the first divergence (one number: both).
    #[arg(
        long,
        value_name = "BEFORE[,AFTER]",
        default_value = "200,50",
        value_parser = VcdWindow::parse,
        requires = "vcd"
    )]
    pub vcd_window: VcdWindow,
    /// Output format of the summary.
    #[command(flatten)]
    pub format: FormatArgs,
    /// No progress lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

impl SuiteArgs {
    /// The library's request.
    fn request(&self) -> Result<SuiteRequest> {
        if self.jobs == Some(0) || self.qemu_instances == Some(0) {
            bail!("--jobs and --qemu-instances must be at least 1");
        }
        let device = (self.engine == EngineKind::Device).then(|| DeviceOptions {
            elf: default_elf(self.elf.as_deref()),
            limit_s: self.limit.max(1),
            timeout: Duration::from_millis(self.device_timeout_ms.max(1)),
            attempts: self.device_attempts.max(1),
        });
        if let Some(d) = &device {
            if !d.elf.is_file() {
                bail!(
                    "firmware ELF {} not found: build it with `cargo xtask firmware`, or give \
                     --elf FILE or $JUMPNET_FIRMWARE_ELF",
                    d.elf.display()
                );
            }
        }
        Ok(SuiteRequest {
            engine: self.engine,
            jobs: self.jobs.unwrap_or_else(suite::cores),
            qemu_instances: self.qemu_instances.unwrap_or_else(suite::cores),
            device,
            vcd: self.vcd.clone().map(|dir| SuiteVcd {
                dir,
                window: self.vcd_window,
            }),
            progress: !self.quiet,
        })
    }
}

/// Runs `jumpnet hil suite`; returns the exit code.
pub fn run(args: SuiteArgs) -> Result<u8> {
    let req = args.request()?;
    let report = if args.record {
        suite::record_suite(&args.suite, &req, args.update)?
    } else {
        suite::replay_suite(&args.suite, &req)?
    };
    if let Some(path) = &args.junit {
        output::write_atomic(path, junit::junit_xml(&report).as_bytes())?;
    }
    output::print(&report, args.format.format())?;
    for c in &report.cases {
        match &c.outcome {
            Outcome::Diverged { diff, waveform, .. } => output::eprint_line(&format!(
                "jumpnet hil suite: {} ({}) diverges on the {} engine:\n{diff}{}",
                c.name,
                c.trace.display(),
                c.engine,
                waveform
                    .as_ref()
                    .map_or(String::new(), |w| format!("wrote the {w}\n"))
            ))?,
            Outcome::Error { message } => output::eprint_line(&format!(
                "jumpnet hil suite: {} ({}) could not run: {message}",
                c.name,
                c.trace.display()
            ))?,
            Outcome::Match | Outcome::Skipped { .. } => {}
        }
    }
    let bad: Vec<&str> = report
        .diverged()
        .chain(report.errors())
        .map(|c| c.name.as_str())
        .collect();
    if !bad.is_empty() {
        output::eprint_line(&format!(
            "jumpnet hil suite: {} of {} cases failed: {}",
            bad.len(),
            report.cases.len(),
            bad.join(", ")
        ))?;
        if args.record {
            output::eprint_line("jumpnet hil suite: no trace was written")?;
        }
    } else if args.record {
        output::eprint_line(&format!(
            "recorded {} traces from {}",
            report.cases.len(),
            args.suite.display()
        ))?;
    }
    Ok(report.exit_code())
}
