//! `jumpnet sim`: one flit-level simulation of a topology and a routing, named as `jumpnet
//! route` names them, with the simulator configuration from a preset, a TOML file
//! (`--config`), a BookSim2 file (`--booksim`) and `key=value` overrides. [`SetupArgs`]
//! (shared with `jumpnet sweep` and `jumpnet hil`) becomes a [`SetupRequest`], resolved
//! into a [`Setup`]; [`synthetic::simulate`] runs it, or [`collective::simulate_compared`]
//! runs a collective on it (`--collective`).

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use crate::builder::routing::{algo_parser, RouteAlgo};
use crate::commands::args::FormatArgs;
use crate::io::output;
use crate::io::progress::Progress;
use crate::runs::{collective, synthetic};
use crate::sim::config::toml_file::Preset;
use crate::sim::setup::{Setup, SetupRequest};

/// What to simulate: topology, routing and simulator configuration (shared by `jumpnet sim`
/// and `jumpnet sweep`).
#[derive(Debug, Args, Clone)]
pub struct SetupArgs {
    /// Topology family and key=value words: topology keys (e.g. `torus k=8,8`) and simulator
    /// keys (e.g. `injection_rate=0.1 num_vcs=2`; `rate` = injection_rate; `sim.seed=3`
    /// forces a simulator key). `jumpnet topo families` lists the topology keys; the
    /// simulator keys are those of `--config` files.
    #[arg(num_args = 0.., value_name = "TOPOLOGY|KEY=VALUE")]
    pub words: Vec<String>,
    /// Edge-list file for the `arbitrary` family.
    #[arg(long, value_name = "FILE")]
    pub edges: Option<PathBuf>,
    /// Routing algorithm (as `jumpnet route --algo`); required unless --booksim (there it
    /// replaces the file's routing).
    #[arg(long, value_parser = algo_parser())]
    pub algo: Option<RouteAlgo>,
    /// Virtual-layer limit of DFSSSP and PARX.
    #[arg(long, default_value_t = 8)]
    pub max_layers: u8,
    /// Seed of the Valiant intermediate-group hash (the traffic seed is `seed=`).
    #[arg(long, default_value_t = 1)]
    pub valiant_seed: u64,
    /// Base configuration [default: the --config file's preset, else booksim].
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
    /// TOML configuration file: `preset = "booksim"|"ga"` and any simulator key.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// BookSim2 configuration file: topology, routing and parameters come from it, with
    /// BookSim2's defaults and meaning (docs/booksim.md). `key=value` words after it override
    /// any BookSim2 key (`routing_function=`, `k=`, `sim_type=` …) or a jumpnet simulator
    /// key; `--algo` replaces the file's routing (e.g. `dor-dateline`, jumpnet's + on ties,
    /// dateline VCs and interleaved VC aliases, instead of BookSim2's `dor-booksim`, whose
    /// wrap classes and contiguous VC halves are BookSim2's, docs/routing.md §2). `traffic = randperm` is BookSim2's permutation
    /// for its `perm_seed` (Knuth's generator, docs/booksim.md §3.8); without --booksim,
    /// `traffic=randperm` is jumpnet's own, drawn from `seed=` (BookSim2's with
    /// `perm_seed=N`). The traffic's random draws are BookSim2's (`draws=booksim`: Knuth's
    /// generators seeded with `seed`, BookSim2's source and order, so that a run
    /// on a mesh or odd torus prints BookSim2's block line for line, docs/booksim.md §3.9);
    /// `draws=jumpnet` gives jumpnet's own, the presets' choice.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["config", "preset", "edges"])]
    pub booksim: Option<PathBuf>,
}

impl SetupArgs {
    /// The library's request.
    pub fn request(&self) -> SetupRequest {
        SetupRequest {
            words: self.words.clone(),
            edges: self.edges.clone(),
            algo: self.algo,
            max_layers: self.max_layers,
            valiant_seed: self.valiant_seed,
            preset: self.preset,
            config: self.config.clone(),
            booksim: self.booksim.clone(),
        }
    }

    /// Resolves the arguments ([`SetupRequest::resolve`]) and prints the setup's notes on
    /// stderr; `sweep` allows sweep axes.
    pub fn resolve(&self, sweep: bool) -> Result<Setup> {
        let setup = self.request().resolve(sweep)?;
        for n in &setup.notes {
            output::eprint_line(&format!("note: {n}"))?;
        }
        Ok(setup)
    }
}

/// Flit-level simulation of a topology and routing: latency, throughput, utilisation;
/// exit status 1 on deadlock.
#[derive(Debug, Args, Clone)]
pub struct SimArgs {
    /// What to simulate.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Collective traffic instead of synthetic traffic.
    #[command(flatten)]
    pub collective: crate::commands::sim_collective::CollectiveArgs,
    /// Output format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// `booksim`: print BookSim2's statistics block (`Packet latency average = …`,
    /// `Accepted flit rate average = …`, `Time taken is … cycles`; hops as BookSim2 counts
    /// them, routers traversed) so scripts written for BookSim2 read jumpnet's results
    /// (synthetic traffic; docs/booksim.md §1).
    #[arg(long = "format", value_name = "FORMAT", value_parser = ["booksim"], conflicts_with_all = ["json", "csv"])]
    pub print_format: Option<String>,
    /// No progress spinner.
    #[arg(long, short)]
    pub quiet: bool,
    /// Threads that step the routers of this one simulation (0: all cores, at most one per
    /// 128 routers; synthetic traffic). The statistics are the same, byte for byte, for
    /// every value. With several, the run times itself and steps on one thread while that
    /// is faster (cores that slow each other down; docs/booksim.md §6).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// With --collective: also write this run's network, routes and rank placement as a
    /// SimGrid platform (`DIR/platform.xml`) and SMPI hostfile (`DIR/hostfile`), links at
    /// --link-gbps and switches at --switch-ns (default 100 ns), so `smpirun` runs an MPI
    /// program on the same network (docs/smpi.md §2).
    #[arg(long, value_name = "DIR", requires = "collective")]
    pub smpi_platform: Option<std::path::PathBuf>,
    /// With --collective: also write every message of the run to this CSV file (ranks,
    /// terminals, payload bytes, packets — with --calibration smpi, of the bytes SMPI's
    /// bandwidth factor makes it cost —, hops, the program ops that sent and received it,
    /// the cycles it was sent, arrived and was delivered, and its route as `switch:port`
    /// hops; docs/smpi.md §3–§4).
    #[arg(long, value_name = "FILE", requires = "collective")]
    pub messages: Option<std::path::PathBuf>,
}

/// Runs `jumpnet sim`: exit status 0, or 1 when the watchdog reports a deadlock (the report,
/// with the channel cycle, is printed and the cycle repeated on stderr).
pub fn run(args: SimArgs) -> Result<u8> {
    let setup = args.setup.resolve(false)?;
    if args.collective.collective.is_none() && args.collective.background_mean.is_some() {
        bail!("--background-mean adds background traffic to a collective run: give --collective ALGO too");
    }
    if args.print_format.is_some() && args.collective.collective.is_some() {
        bail!("--format booksim prints synthetic-traffic statistics; a --collective run prints a table, --json or --csv");
    }
    if let Some(run) = args.collective.run() {
        if let Some(dir) = &args.smpi_platform {
            let written = collective::write_smpi_platform(&setup, &run, dir)?;
            output::eprint_line(&format!(
                "wrote {} and {} ({} routes)",
                dir.join("platform.xml").display(),
                dir.join("hostfile").display(),
                written
            ))?;
        }
        let spinner = Progress::spinner("simulating the collective", !args.quiet);
        let report = collective::simulate_compared(&setup, &run, args.messages.as_deref());
        spinner.finish();
        let report = report?;
        if let Some(path) = &args.messages {
            let n = report.result.message_log.len();
            output::eprint_line(&format!("wrote {} ({n} messages)", path.display()))?;
        }
        output::print(&report, args.format.format())?;
        return Ok(0);
    }
    let spinner = Progress::spinner("simulating", !args.quiet);
    let report = synthetic::simulate(&setup, &setup.config, args.threads);
    spinner.finish();
    let report = report?;
    if args.print_format.as_deref() == Some("booksim") {
        output::print_text(&crate::runs::booksim_stats::booksim_block(&report))?;
    } else {
        output::print(&report, args.format.format())?;
    }
    match report.deadlock_line() {
        Some(line) => {
            output::eprint_line(&line)?;
            Ok(1)
        }
        None => Ok(0),
    }
}
