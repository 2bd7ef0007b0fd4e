//! Command-line interface (clap derive). Each subcommand calls a library function that returns
//! data, then prints it in the chosen format.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, Parser, Subcommand};

use crate::build::network::OwnedNetwork;
use crate::build::placement::{MapStrategy, Optimiser, RankOrderChoice};
use crate::build::routing::{RouteAlgo, RouteOptions};
use crate::build::schedule::{self, Algorithm, CollectiveRequest, JobPlacement, OwnedSchedule};
use crate::build::topology::{TopologySpec, FAMILIES};
use crate::commands::{map, report, route, sched, topo};
use crate::io::export::ExportFormat;
use crate::io::output::{self, Format};

/// jumpnet: interconnection topologies, routing, process mappings and collective schedules.
#[derive(Debug, Parser)]
#[command(name = "jumpnet", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Top-level subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The main job: compare topologies on a scenario (default: the embedded N = 1,024,
    /// degree-19 comparison) — diameter, ASPL, cables, collective hop counts under several
    /// mappings and two-opt — written as Markdown + JSON + SVG charts, summary on stdout.
    Report {
        /// Scenario JSON file (default: the embedded scenario; see `--print-scenario`).
        #[arg(long, value_name = "FILE")]
        scenario: Option<PathBuf>,
        /// Output directory for report.md, results.json and the charts.
        #[arg(
            long,
            short = 'o',
            default_value = "jumpnet-report",
            value_name = "DIR"
        )]
        out: PathBuf,
        /// Override the scenario's two-opt iterations.
        #[arg(long)]
        iterations: Option<u64>,
        /// Print the embedded default scenario and exit.
        #[arg(long)]
        print_scenario: bool,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
        /// Output format of the summary.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Build a topology and inspect, measure or export it.
    Topo {
        /// Topology action.
        #[command(subcommand)]
        action: TopoAction,
    },
    /// Deterministic routing: tables, delivery/loop/deadlock checks, path statistics.
    Route {
        /// Routing action.
        #[command(subcommand)]
        action: RouteAction,
    },
    /// Process mapping: place a collective's ranks on nodes and optimise the placement; GA
    /// node mapping on a torus.
    Map {
        /// Mapping action.
        #[command(subcommand)]
        action: MapAction,
    },
    /// Collective send schedules: show, verify symbolically, export per-rank programs.
    Sched {
        /// Schedule action.
        #[command(subcommand)]
        action: SchedAction,
    },
}

/// Routing algorithm choice.
#[derive(Debug, Args, Clone, Copy)]
pub struct RouteArgs {
    /// Routing algorithm.
    #[arg(long, value_enum, default_value = "minimal")]
    pub algo: RouteAlgo,
    /// Virtual-layer limit of DFSSSP and PARX (InfiniBand hardware: 8; at most 16).
    #[arg(long, default_value_t = 8)]
    pub max_layers: u8,
    /// Seed of the Valiant intermediate-group hash.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl RouteArgs {
    /// Routing options.
    pub fn options(&self) -> RouteOptions {
        RouteOptions {
            algo: self.algo,
            max_layers: self.max_layers,
            seed: self.seed,
        }
    }
}

/// Output format of routing tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Runs of equal entries per switch.
    Table,
    /// JSON (runs per switch, image sizes, layers).
    Json,
    /// CSV: switch,destination,port,vc.
    Csv,
    /// OpenSM-style linear forwarding table dump (`destination port` lines per switch).
    Lft,
}

/// `jumpnet route ...` actions.
#[derive(Debug, Subcommand)]
pub enum RouteAction {
    /// Print or export the routing tables (destination -> port, VC) of every switch or one.
    Table {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// The routing.
        #[command(flatten)]
        route: RouteArgs,
        /// Only this switch.
        #[arg(long)]
        switch: Option<u32>,
        /// Output format.
        #[arg(long, short = 'f', value_enum, default_value = "table")]
        format: TableFormat,
        /// Write to this file instead of stdout (atomically).
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Check delivery, loop freedom, minimality and deadlock freedom; exit code 0 only when
    /// everything passes.
    Check {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// The routing (ignored with --table).
        #[command(flatten)]
        route: RouteArgs,
        /// Check this user-supplied LFT dump instead of an algorithm.
        #[arg(long, value_name = "FILE")]
        table: Option<PathBuf>,
        /// Fail when the routing needs more virtual channels than this.
        #[arg(long)]
        vcs: Option<u8>,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// All-to-all path statistics: hop histogram and channel loads by link class.
    Stats {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// The routing.
        #[command(flatten)]
        route: RouteArgs,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
}

/// `jumpnet map ...` actions.
#[derive(Debug, Subcommand)]
pub enum MapAction {
    /// Map the ranks of a rank-space collective onto a topology's nodes with a baseline
    /// strategy, optionally optimise the placement (two-opt / annealing) for total hops, and
    /// print the permutation with before/after statistics.
    Place {
        /// The topology (one compute node per switch).
        #[command(flatten)]
        topology: TopologyArgs,
        /// Collective whose messages are placed.
        #[arg(long, short = 'c', value_enum, default_value = "bcast")]
        collective: Algorithm,
        /// Number of ranks (default: all nodes).
        #[arg(long, short = 'n')]
        ranks: Option<u32>,
        /// Root rank of broadcasts.
        #[arg(long, default_value_t = 0)]
        root: u32,
        /// Baseline mapping.
        #[arg(long, short = 'm', value_enum, default_value = "ring")]
        mapping: MapStrategy,
        /// Rank order of the mapped nodes.
        #[arg(long, value_enum, default_value = "paper")]
        rank_order: RankOrderChoice,
        /// Placement optimiser.
        #[arg(long, value_enum, default_value = "two-opt")]
        optimise: Optimiser,
        /// Optimiser iterations (two-opt swaps; annealing temperature steps of m swaps each).
        #[arg(long, default_value_t = 200_000)]
        iterations: u64,
        /// Seed of the mapping and the optimiser.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the permutation (CSV `rank,node`) to this file.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Genetic node mapping on an n x n torus with dimension-order routing ([GA], spec/mapping.md §5).
    Ga {
        /// Torus side n (n x n nodes).
        #[arg(long, default_value_t = 8)]
        side: u16,
        /// Traffic patterns applied together: bcmp, brev, brot, shfl, trns, torn, rpar, rrng.
        #[arg(long, value_delimiter = ',', default_value = "bcmp,shfl,trns")]
        patterns: Vec<String>,
        /// Variant S00..S22 or S99 (random search).
        #[arg(long, default_value = "S03")]
        variant: String,
        /// Ranking: sc (duration first), ah (avg.hop first), ml (product).
        #[arg(long, default_value = "ml")]
        ranking: String,
        /// Population size.
        #[arg(long, default_value_t = 1000)]
        genes: u32,
        /// Generations.
        #[arg(long, default_value_t = 1000)]
        generations: u32,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
}

/// A collective schedule to build.
#[derive(Debug, Args, Clone)]
pub struct ScheduleArgs {
    /// Collective algorithm.
    #[arg(value_enum)]
    pub algorithm: Algorithm,
    /// Number of ranks (topology-aware broadcasts: job size, default all terminals).
    #[arg(long, short = 'n')]
    pub ranks: Option<u32>,
    /// Root rank of broadcasts (root supernode for sfata/rfata).
    #[arg(long, default_value_t = 0)]
    pub root: u32,
    /// Message size in bytes (per block for alltoall/allgather, whole buffer otherwise).
    #[arg(long, default_value_t = 8)]
    pub bytes: u64,
    /// Topology of topology-aware algorithms, quoted: --topology "dragonfly g=9 a=4 p=2 h=2".
    #[arg(long, value_name = "TOPOLOGY")]
    pub topology: Option<String>,
    /// Where the job's ranks run on the topology.
    #[arg(long, value_enum, default_value = "consecutive")]
    pub placement: JobPlacement,
    /// Seed of random placements.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl ScheduleArgs {
    /// Builds the schedule (and the topology when given).
    pub fn build(&self) -> Result<OwnedSchedule> {
        let net = match &self.topology {
            Some(t) => {
                let words: Vec<String> = t.split_whitespace().map(String::from).collect();
                Some(OwnedNetwork::build(&TopologySpec::parse(&words)?)?)
            }
            None => None,
        };
        schedule::build(
            &CollectiveRequest {
                algorithm: self.algorithm,
                ranks: self.ranks,
                root: self.root,
                bytes: self.bytes,
                placement: self.placement,
                seed: self.seed,
            },
            net.as_ref(),
        )
    }
}

/// `jumpnet sched ...` actions.
#[derive(Debug, Subcommand)]
pub enum SchedAction {
    /// Print the schedule: summary, messages (per step) and optionally one rank's program.
    Show {
        /// The schedule.
        #[command(flatten)]
        schedule: ScheduleArgs,
        /// Only messages of this step.
        #[arg(long)]
        step: Option<u32>,
        /// Print at most this many messages (default 200 in table form, all in JSON/CSV).
        #[arg(long)]
        limit: Option<u64>,
        /// Also print the program (ordered NIC operations) of this rank.
        #[arg(long)]
        rank: Option<u32>,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Execute every rank's program on tagged data and verify the collective's semantics.
    Verify {
        /// The schedule.
        #[command(flatten)]
        schedule: ScheduleArgs,
        /// Also check this many pseudo-random message interleavings.
        #[arg(long, default_value_t = 3)]
        interleavings: u32,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Write per-rank program images (versioned postcard + CRC-32) for devices.
    Export {
        /// The schedule.
        #[command(flatten)]
        schedule: ScheduleArgs,
        /// Only this rank's program, written to the file given by --output.
        #[arg(long)]
        rank: Option<u32>,
        /// Output file (with --rank) or a new directory (one rank-NNNNN.jnpg per rank).
        #[arg(long, short = 'o', value_name = "PATH")]
        output: PathBuf,
    },
}

/// Output-format flags shared by commands that print results.
#[derive(Debug, Args, Clone, Copy)]
pub struct FormatArgs {
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    pub csv: bool,
}

impl FormatArgs {
    /// The chosen format.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else if self.csv {
            Format::Csv
        } else {
            Format::Table
        }
    }
}

/// A topology given as `<family> key=value ...`.
#[derive(Debug, Args, Clone)]
pub struct TopologyArgs {
    /// Topology: a family followed by key=value parameters, e.g. `gcirculant n=1024`,
    /// `dragonfly g=9 a=4 p=2 h=2`, `torus k=8,8`, `random-shortcut n=1024 d=19 seed=1`,
    /// `arbitrary --edges FILE`. `jumpnet topo families` lists all families and keys.
    #[arg(required = true, num_args = 1.., value_name = "TOPOLOGY")]
    pub topology: Vec<String>,
    /// Edge-list file for the `arbitrary` family (same as `edges=FILE`).
    #[arg(long, value_name = "FILE")]
    pub edges: Option<PathBuf>,
}

impl TopologyArgs {
    /// Parses the specification.
    pub fn spec(&self) -> Result<TopologySpec> {
        let mut words = self.topology.clone();
        if let Some(e) = &self.edges {
            if words.iter().any(|w| w.starts_with("edges=")) {
                bail!("give the edge list either as --edges FILE or as edges=FILE, not both");
            }
            words.push(format!("edges={}", e.display()));
        }
        TopologySpec::parse(&words)
    }

    /// Parses and builds the network.
    pub fn build(&self) -> Result<OwnedNetwork> {
        OwnedNetwork::build(&self.spec()?)
    }
}

/// `jumpnet topo ...` actions.
#[derive(Debug, Subcommand)]
pub enum TopoAction {
    /// List the topology families and their parameters.
    Families,
    /// Structure: switches, terminals, ports, links by class, degrees.
    Info {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Distance metrics (diameter, ASPL, eccentricities, histogram), degrees, cable length.
    Metrics {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
        /// Also compute with the plain reference BFS and check both agree.
        #[arg(long)]
        check: bool,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Write the topology as DOT, GraphML or an edge list.
    Export {
        /// The topology.
        #[command(flatten)]
        topology: TopologyArgs,
        /// Export format.
        #[arg(long, short = 'f', value_enum, default_value = "edges")]
        format: ExportFormat,
        /// Output file (default: stdout). Written atomically.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Include terminal nodes and links (DOT and GraphML).
        #[arg(long)]
        terminals: bool,
    },
}

/// Runs the parsed command line; returns the process exit code (errors exit with 2).
pub fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Report {
            scenario,
            out,
            iterations,
            print_scenario,
            quiet,
            format,
        } => {
            if print_scenario {
                print!("{}", report::DEFAULT_SCENARIO);
                return Ok(0);
            }
            let sc = match scenario {
                Some(p) => {
                    let text = std::fs::read_to_string(&p).map_err(|e| {
                        anyhow::anyhow!("cannot read scenario {}: {e}", p.display())
                    })?;
                    report::Scenario::from_json(&text, &p.display().to_string())?
                }
                None => {
                    report::Scenario::from_json(report::DEFAULT_SCENARIO, "(embedded default)")?
                }
            };
            let mut rep = report::run(&sc, iterations, !quiet)?;
            rep.write(&out)?;
            output::print(&rep, format.format())?;
            Ok(0)
        }
        Command::Topo { action } => run_topo(action).map(|()| 0),
        Command::Route { action } => run_route(action),
        Command::Map { action } => run_map(action).map(|()| 0),
        Command::Sched { action } => run_sched(action).map(|()| 0),
    }
}

fn run_map(action: MapAction) -> Result<()> {
    match action {
        MapAction::Place {
            topology,
            collective,
            ranks,
            root,
            mapping,
            rank_order,
            optimise,
            iterations,
            seed,
            output: path,
            quiet,
            format,
        } => {
            let net = topology.build()?;
            let ranks = ranks.unwrap_or(jumpnet_core::topology::Topology::num_switches(
                &net.network(),
            ));
            let placed = map::place(
                &net,
                &map::PlaceRequest {
                    collective,
                    ranks,
                    root,
                    strategy: mapping,
                    order: rank_order,
                    optimiser: optimise,
                    iterations,
                    seed,
                    progress: !quiet,
                },
            )?;
            if let Some(p) = path {
                let mut csv = String::from("rank,node\n");
                for (r, n) in placed.placement.iter().enumerate() {
                    csv.push_str(&format!("{r},{n}\n"));
                }
                output::write_atomic(&p, csv.as_bytes())?;
            }
            output::print(&placed, format.format())
        }
        MapAction::Ga {
            side,
            patterns,
            variant,
            ranking,
            genes,
            generations,
            seed,
            quiet,
            format,
        } => {
            use jumpnet_core::mapping::ga::{Ranking, TrafficPattern, Variant};
            let pats = patterns
                .iter()
                .map(|p| {
                    TrafficPattern::from_name(p.trim()).ok_or_else(|| {
                        anyhow::anyhow!("unknown pattern `{p}`: use bcmp, brev, brot, shfl, trns, torn, rpar, rrng")
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let v = Variant::from_name(&variant).ok_or_else(|| {
                anyhow::anyhow!("unknown variant `{variant}`: use S00-S05, S10-S12, S20-S22 or S99")
            })?;
            let r = Ranking::from_name(&ranking)
                .ok_or_else(|| anyhow::anyhow!("unknown ranking `{ranking}`: use sc, ah or ml"))?;
            let res = map::ga(&map::GaRequest {
                side,
                patterns: pats,
                variant: v,
                ranking: r,
                genes,
                generations,
                seed,
                progress: !quiet,
            })?;
            output::print(&res, format.format())
        }
    }
}

fn write_or_print(text: &str, path: Option<&std::path::Path>) -> Result<()> {
    match path {
        Some(p) => output::write_atomic(p, text.as_bytes()),
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            Ok(out.flush()?)
        }
    }
}

fn run_route(action: RouteAction) -> Result<u8> {
    match action {
        RouteAction::Table {
            topology,
            route: r,
            switch,
            format,
            output: path,
        } => {
            let net = topology.build()?;
            let t = route::tables(&net, &r.options(), switch)?;
            let text = match format {
                TableFormat::Table => output::render_to_string(&t, Format::Table)?,
                TableFormat::Json => output::render_to_string(&t, Format::Json)?,
                TableFormat::Csv => route::tables_csv(&t),
                TableFormat::Lft => t.lft_dump(),
            };
            write_or_print(&text, path.as_deref())?;
            Ok(0)
        }
        RouteAction::Check {
            topology,
            route: r,
            table,
            vcs,
            format,
        } => {
            let net = topology.build()?;
            let v = match table {
                Some(path) => {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
                    route::check_table(&net, &text, &path.display().to_string(), vcs)?
                }
                None => route::check(&net, &r.options(), vcs)?,
            };
            output::print(&v, format.format())?;
            if !v.passed {
                eprintln!("route check FAILED");
            }
            Ok(if v.passed { 0 } else { 1 })
        }
        RouteAction::Stats {
            topology,
            route: r,
            format,
        } => {
            let net = topology.build()?;
            output::print(&route::path_stats(&net, &r.options())?, format.format())?;
            Ok(0)
        }
    }
}

fn run_sched(action: SchedAction) -> Result<()> {
    match action {
        SchedAction::Show {
            schedule,
            step,
            limit,
            rank,
            format,
        } => {
            let owned = schedule.build()?;
            let limit = limit.or((format.format() == Format::Table).then_some(200));
            output::print(&sched::show(&owned, step, limit, rank)?, format.format())
        }
        SchedAction::Verify {
            schedule,
            interleavings,
            format,
        } => {
            let owned = schedule.build()?;
            output::print(&sched::verify(&owned, interleavings)?, format.format())
        }
        SchedAction::Export {
            schedule,
            rank,
            output: path,
        } => {
            let owned = schedule.build()?;
            let (files, bytes) = sched::export_programs(&owned, rank, &path)?;
            eprintln!(
                "wrote {files} program image(s), {bytes} bytes, to {}",
                path.display()
            );
            Ok(())
        }
    }
}

fn run_topo(action: TopoAction) -> Result<()> {
    match action {
        TopoAction::Families => output::print(&topo::families(FAMILIES), Format::Table),
        TopoAction::Info { topology, format } => {
            let net = topology.build()?;
            output::print(&topo::info(&net), format.format())
        }
        TopoAction::Metrics {
            topology,
            format,
            check,
            quiet,
        } => {
            let net = topology.build()?;
            let m = topo::metrics(&net, check, !quiet)?;
            output::print(&m, format.format())
        }
        TopoAction::Export {
            topology,
            format,
            output: path,
            terminals,
        } => {
            let net = topology.build()?;
            let text = crate::io::export::export(
                &net.network(),
                format,
                &net.spec().to_string(),
                terminals,
            )?;
            match path {
                Some(p) => output::write_atomic(&p, text.as_bytes()),
                None => {
                    use std::io::Write;
                    let mut out = std::io::stdout().lock();
                    out.write_all(text.as_bytes())?;
                    Ok(out.flush()?)
                }
            }
        }
    }
}
