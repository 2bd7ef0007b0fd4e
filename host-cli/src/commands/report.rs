//! `jumpnet report`: the flags of the main job; [`crate::report`] computes and writes it.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::commands::args::FormatArgs;
use crate::io::outdir::OutDir;
use crate::io::output;
use crate::report::{load_scenario, run_scenario, DEFAULT_SCENARIO};

/// The main job: compare topologies on a scenario (default: the embedded N = 1,024,
/// degree-19 comparison) — diameter, ASPL, cables, collective hop counts under several
/// mappings and two-opt — written as Markdown + JSON + SVG charts, summary on stdout.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Scenario JSON file (default: the embedded scenario; see `--print-scenario`).
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// Output directory for report.md, results.json and the charts.
    #[arg(
        long,
        short = 'o',
        default_value = "jumpnet-report",
        value_name = "DIR"
    )]
    pub out: PathBuf,
    /// Override the scenario's two-opt iterations.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Skip the scenario's simulated makespans (hop counts only).
    #[arg(long)]
    pub no_simulation: bool,
    /// Print the embedded default scenario and exit.
    #[arg(long)]
    pub print_scenario: bool,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Output format of the summary.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Runs `jumpnet report`: runs the scenario, writes the report directory and prints the
/// summary; returns the exit code.
pub fn run(args: ReportArgs) -> Result<u8> {
    if args.print_scenario {
        output::print_text(DEFAULT_SCENARIO)?;
        return Ok(0);
    }
    let scenario = load_scenario(args.scenario.as_deref())?;
    let out = OutDir::claim(&args.out, "report", "--out")?;
    let mut report = run_scenario(&scenario, args.iterations, !args.no_simulation, !args.quiet)?;
    report.write(out)?;
    output::print(&report, args.format.format())?;
    Ok(0)
}
