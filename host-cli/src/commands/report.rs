//! `jumpnet report`: the main job. Compares topologies on a scenario (by default the embedded
//! \[DISS\] chapter-5 comparison at N = 1,024, degree 19): diameter, ASPL, cable length, and
//! total hop counts of broadcast, allreduce and alltoall under the ring, random, BFS-tree,
//! circulant and two-opt mappings; written as Markdown, JSON and SVG charts into an output
//! directory, with a summary on stdout.
//!
//! [`run_scenario`] computes a [`Report`]; [`ReportArgs`] and [`run`] are the command.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use jumpnet_core::collective::Schedule;
use jumpnet_core::topology::Topology;

use crate::build::network::OwnedNetwork;
use crate::build::placement::{self, MapStrategy, Optimiser, RankOrderChoice, Traffic};
use crate::build::routing;
use crate::build::schedule::Algorithm;
use crate::build::topology::TopologySpec;
use crate::commands::args::FormatArgs;
use crate::commands::map::rank_schedule;
use crate::commands::topo;
use crate::distances;
use crate::io::output::{self, Render, Section};
use crate::io::progress::Progress;
use crate::io::svg::{BarChart, LineChart};

/// The embedded default scenario.
pub const DEFAULT_SCENARIO: &str = include_str!("../../scenarios/default.json");

/// Marker file identifying a directory written by `jumpnet report`.
const MARKER: &str = ".jumpnet-report";

/// One topology of a scenario.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScenarioTopology {
    /// Label in tables and charts.
    pub label: String,
    /// Topology specification (`family key=value ...`).
    pub spec: String,
}

/// What a report compares.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Title.
    pub title: String,
    /// Topologies (one compute node per switch).
    pub topologies: Vec<ScenarioTopology>,
    /// Rank-space collectives (bcast, allreduce, alltoall, ...).
    pub collectives: Vec<String>,
    /// Job sizes.
    pub ranks: Vec<u32>,
    /// Baseline mappings (ring, random, tree, circulant).
    pub mappings: Vec<String>,
    /// Mappings two-opt starts from.
    pub two_opt_from: Vec<String>,
    /// Two-opt iterations.
    pub two_opt_iterations: u64,
    /// Seed of mappings and two-opt.
    pub seed: u64,
}

fn parse_value<T: clap::ValueEnum>(kind: &str, s: &str) -> Result<T> {
    T::from_str(s, true).map_err(|_| {
        let allowed: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        anyhow!(
            "scenario: unknown {kind} `{s}` (allowed: {})",
            allowed.join(", ")
        )
    })
}

impl Scenario {
    /// Parses a scenario from JSON.
    pub fn from_json(text: &str, name: &str) -> Result<Self> {
        let s: Scenario =
            serde_json::from_str(text).with_context(|| format!("reading scenario {name}"))?;
        if s.topologies.is_empty()
            || s.collectives.is_empty()
            || s.ranks.is_empty()
            || s.mappings.is_empty()
        {
            bail!("scenario {name}: topologies, collectives, ranks and mappings must not be empty");
        }
        Ok(s)
    }
}

/// Structural and distance facts of one topology.
#[derive(Clone, Debug, Serialize)]
pub struct TopologyRow {
    /// Label.
    pub label: String,
    /// Canonical spec.
    pub spec: String,
    /// Switches (= nodes).
    pub switches: u32,
    /// Links.
    pub links: u64,
    /// Smallest degree.
    pub degree_min: u32,
    /// Largest degree.
    pub degree_max: u32,
    /// Diameter.
    pub diameter: u32,
    /// ASPL.
    pub aspl: f64,
    /// `(distance, ordered pairs)`.
    pub distance_histogram: Vec<(u32, u64)>,
    /// Average cable, row-major cabinets, m.
    pub cable_avg_m: f64,
    /// Average cable, boustrophedon cabinets, m.
    pub cable_avg_boustrophedon_m: f64,
    /// Total cable, row-major, m.
    pub cable_total_m: f64,
    /// Construction notes.
    pub notes: Vec<String>,
}

/// Hop count of one (topology, collective, ranks, mapping).
#[derive(Clone, Debug, Serialize)]
pub struct HopRow {
    /// Topology label.
    pub topology: String,
    /// Collective name.
    pub collective: String,
    /// Ranks.
    pub ranks: u32,
    /// Baseline mapping.
    pub mapping: String,
    /// Messages (lower bound).
    pub messages: u64,
    /// Total hops of the baseline placement.
    pub total_hops: u64,
    /// Largest hop count of one message.
    pub max_hops: u32,
    /// Total hops after two-opt from this mapping (when requested).
    pub two_opt: Option<u64>,
}

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Scenario.
    pub scenario: Scenario,
    /// Topologies.
    pub topologies: Vec<TopologyRow>,
    /// Hop counts.
    pub hops: Vec<HopRow>,
    /// Seconds.
    pub seconds: f64,
    /// Output directory (when written).
    pub output: Option<PathBuf>,
}

struct Task {
    topo: usize,
    collective: Algorithm,
    ranks: u32,
    mapping: MapStrategy,
    two_opt: bool,
}

/// Runs a scenario.
pub fn run_scenario(
    scenario: &Scenario,
    iterations_override: Option<u64>,
    progress: bool,
) -> Result<Report> {
    let started = std::time::Instant::now();
    let iterations = iterations_override.unwrap_or(scenario.two_opt_iterations);
    let collectives: Vec<Algorithm> = parse_values("collective", &scenario.collectives)?;
    let mappings: Vec<MapStrategy> = parse_values("mapping", &scenario.mappings)?;
    let from: Vec<MapStrategy> = parse_values("mapping", &scenario.two_opt_from)?;
    let nets = build_networks(&scenario.topologies)?;
    // Structure, distances and all-pairs distance matrices (for the hop objective).
    let mut rows = Vec::new();
    let mut matrices = Vec::new();
    for (net, t) in nets.iter().zip(&scenario.topologies) {
        let (row, matrix) = measure_topology(net, &t.label)?;
        rows.push(row);
        matrices.push(matrix);
    }
    let tasks = plan_tasks(
        nets.len(),
        &collectives,
        &scenario.ranks,
        &mappings,
        &from,
        iterations,
    );
    let bar = Progress::new("report", tasks.len() as u64, progress);
    let done = AtomicU64::new(0);
    let hops: Vec<Result<HopRow>> = tasks
        .par_iter()
        .map(|task| {
            let row = count_hops(
                task,
                &nets[task.topo],
                &matrices[task.topo],
                &rows[task.topo].label,
                iterations,
                scenario.seed,
            );
            if row.is_ok() {
                bar.set(done.fetch_add(1, Ordering::Relaxed) + 1);
            }
            row
        })
        .collect();
    bar.finish();
    let hops = hops.into_iter().collect::<Result<Vec<_>>>()?;
    Ok(Report {
        scenario: Scenario {
            two_opt_iterations: iterations,
            ..scenario.clone()
        },
        topologies: rows,
        hops,
        seconds: started.elapsed().as_secs_f64(),
        output: None,
    })
}

/// Parses scenario names (`kind`: what they name, for the error message) into values.
fn parse_values<T: clap::ValueEnum>(kind: &str, names: &[String]) -> Result<Vec<T>> {
    names.iter().map(|s| parse_value::<T>(kind, s)).collect()
}

/// Builds every scenario topology, then checks each has one compute node per switch.
fn build_networks(topologies: &[ScenarioTopology]) -> Result<Vec<OwnedNetwork>> {
    let nets: Vec<OwnedNetwork> = topologies
        .iter()
        .map(|t| {
            let words: Vec<String> = t.spec.split_whitespace().map(String::from).collect();
            OwnedNetwork::build(&TopologySpec::parse(&words)?)
                .with_context(|| format!("scenario topology `{}`", t.label))
        })
        .collect::<Result<_>>()?;
    for (net, t) in nets.iter().zip(topologies) {
        placement::check_one_node_per_switch(&net.network())
            .with_context(|| format!("scenario topology `{}`", t.label))?;
    }
    Ok(nets)
}

/// Structure, distances and cables of one topology, and its all-pairs distance matrix.
fn measure_topology(net: &OwnedNetwork, label: &str) -> Result<(TopologyRow, Vec<u16>)> {
    let n = net.network();
    let info = topo::info(net);
    let d = distances::fast(&n, false)?;
    let cables = topo::cables(&n)?;
    let (mut dist, mut queue) = (Vec::new(), Vec::new());
    routing::distance_matrix(&n, &mut dist, &mut queue)?;
    let row = TopologyRow {
        label: label.to_string(),
        spec: net.spec().to_string(),
        switches: info.switches,
        links: info.links,
        degree_min: info.degree_min,
        degree_max: info.degree_max,
        diameter: d.summary.diameter,
        aspl: d.summary.aspl(),
        distance_histogram: d
            .summary
            .distance_histogram()
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| (k as u32, c))
            .collect(),
        cable_avg_m: cables[0].average_m,
        cable_avg_boustrophedon_m: cables[1].average_m,
        cable_total_m: cables[0].total_m,
        notes: info.notes.clone(),
    };
    Ok((row, dist))
}

/// One task per (topology, collective, ranks, mapping); the two-opt starting mappings are
/// added to the baseline mappings, and two-opt runs only from them (and only when
/// `iterations > 0`).
fn plan_tasks(
    topologies: usize,
    collectives: &[Algorithm],
    ranks: &[u32],
    mappings: &[MapStrategy],
    from: &[MapStrategy],
    iterations: u64,
) -> Vec<Task> {
    let mut tasks = Vec::new();
    for ti in 0..topologies {
        for &c in collectives {
            for &r in ranks {
                let mut maps: Vec<MapStrategy> = mappings.to_vec();
                for f in from {
                    if !maps.contains(f) {
                        maps.push(*f);
                    }
                }
                for &m in &maps {
                    tasks.push(Task {
                        topo: ti,
                        collective: c,
                        ranks: r,
                        mapping: m,
                        two_opt: from.contains(&m) && iterations > 0,
                    });
                }
            }
        }
    }
    tasks
}

/// Total hops of one task: the collective's schedule under the task's mapping on the
/// topology `net` (labelled `label`, all-pairs distances `matrix`), and the best total after
/// two-opt when the task asks for it.
fn count_hops(
    task: &Task,
    net: &OwnedNetwork,
    matrix: &[u16],
    label: &str,
    iterations: u64,
    seed: u64,
) -> Result<HopRow> {
    let net = net.network();
    let n = net.num_switches();
    let dm = jumpnet_core::routing::DistanceMatrix::new(n, matrix)?;
    let owned = rank_schedule(task.collective, task.ranks, 0)?;
    let schedule = owned.schedule()?;
    let mut pl = placement::initial(&net, task.mapping, RankOrderChoice::Paper, task.ranks, seed)
        .with_context(|| {
        format!(
            "{} mapping of {} ranks on {}",
            task.mapping.name(),
            task.ranks,
            label
        )
    })?;
    let before = placement::hop_stats(&dm, &schedule, &pl)?;
    let two_opt = if task.two_opt {
        let traffic = Traffic::of(&schedule)?;
        let out = placement::optimise(
            &dm,
            &traffic,
            &mut pl,
            Optimiser::TwoOpt,
            iterations,
            seed,
            &mut |_, _, _| {},
        )?;
        out.map(|o| o.best)
    } else {
        None
    };
    Ok(HopRow {
        topology: label.to_string(),
        collective: task.collective.name(),
        ranks: task.ranks,
        mapping: task.mapping.name().into(),
        messages: schedule.num_messages(),
        total_hops: before.total_hops,
        max_hops: before.max_hops,
        two_opt,
    })
}

impl Report {
    fn hop(&self, topo: &str, coll: &str, ranks: u32, mapping: &str) -> Option<&HopRow> {
        self.hops.iter().find(|h| {
            h.topology == topo && h.collective == coll && h.ranks == ranks && h.mapping == mapping
        })
    }

    /// Best two-opt total of a (topology, collective, ranks), and the mapping it started from.
    fn best_two_opt(&self, topo: &str, coll: &str, ranks: u32) -> Option<(u64, &str)> {
        self.hops
            .iter()
            .filter(|h| h.topology == topo && h.collective == coll && h.ranks == ranks)
            .filter_map(|h| h.two_opt.map(|v| (v, h.mapping.as_str())))
            .min()
    }

    fn hop_table(&self, ranks: u32) -> Section {
        let mut headers: Vec<String> =
            vec!["collective".into(), "topology".into(), "messages".into()];
        headers.extend(self.scenario.mappings.iter().cloned());
        if !self.scenario.two_opt_from.is_empty() {
            headers.push("two-opt (best)".into());
        }
        let mut sec = Section {
            title: format!("total hops, {ranks} ranks"),
            headers,
            rows: Vec::new(),
        };
        for c in &self.scenario.collectives {
            for t in &self.scenario.topologies {
                let mut row = vec![c.clone(), t.label.clone()];
                let msgs = self
                    .hop(&t.label, c, ranks, &self.scenario.mappings[0])
                    .map_or(0, |h| h.messages);
                row.push(msgs.to_string());
                for m in &self.scenario.mappings {
                    row.push(
                        self.hop(&t.label, c, ranks, m)
                            .map_or("-".into(), |h| h.total_hops.to_string()),
                    );
                }
                if !self.scenario.two_opt_from.is_empty() {
                    row.push(
                        self.best_two_opt(&t.label, c, ranks)
                            .map_or("-".into(), |(v, from)| format!("{v} (from {from})")),
                    );
                }
                sec.rows.push(row);
            }
        }
        sec
    }

    fn topology_table(&self) -> Section {
        let mut s = Section::new(
            "topologies",
            &[
                "topology",
                "switches",
                "links",
                "degree",
                "diameter",
                "ASPL",
                "cable avg m",
                "cable total m",
            ],
        );
        for t in &self.topologies {
            s.row([
                t.label.clone(),
                t.switches.to_string(),
                t.links.to_string(),
                if t.degree_min == t.degree_max {
                    t.degree_min.to_string()
                } else {
                    format!("{}-{}", t.degree_min, t.degree_max)
                },
                t.diameter.to_string(),
                format!("{:.4}", t.aspl),
                format!("{:.2}", t.cable_avg_m),
                format!("{:.0}", t.cable_total_m),
            ]);
        }
        s
    }

    /// The Markdown document.
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        md.push_str(&format!("# {}\n\n", self.scenario.title));
        md.push_str(&format!(
            "Generated by `jumpnet report` in {:.1} s. Hops are router hops of minimal paths (one compute node per switch, terminal links not counted); two-opt ran {} iterations per mapping (seed {}).\n\n",
            self.seconds, self.scenario.two_opt_iterations, self.scenario.seed
        ));
        md.push_str("## Topologies\n\n");
        md.push_str(&md_table(&self.topology_table()));
        md.push_str("\nCable lengths follow the Top-of-Rack layout of spec/mapping.md §6 (8 switches per cabinet, row-major cabinet order; boustrophedon averages in `results.json`).\n\n");
        for t in &self.topologies {
            for n in &t.notes {
                md.push_str(&format!("- {}: {n}\n", t.label));
            }
        }
        md.push_str("\n![distance distribution](distances.svg)\n\n");
        for &r in &self.scenario.ranks {
            md.push_str(&format!("## Collective hop counts, {r} ranks\n\n"));
            md.push_str(&md_table(&self.hop_table(r)));
            md.push('\n');
            for c in &self.scenario.collectives {
                md.push_str(&format!("![{c}, {r} ranks](hops-{c}-{r}.svg)\n"));
            }
            md.push('\n');
        }
        md.push_str("## Notes\n\n");
        md.push_str("- Collectives are MPICH's binomial broadcast, recursive-doubling allreduce and Bruck alltoall (spec/collectives.md §1–3); a message's hops are the BFS distance between the nodes of its ranks.\n");
        md.push_str("- Rank orders: random mapping in random order, hierarchical-tree (BFS) mapping in BFS order, ring and circulant mappings in traversal order. These are the orders whose totals match the dissertation's Tables 3.4–3.6 (reference-results.md A5); `jumpnet map place --rank-order ascending` gives the ascending-node-id variant.\n");
        md.push_str("- With all nodes of `G(n, log2 n)` and ring or circulant mapping every message is one hop, so the totals equal the message counts (reference-results.md A2: n − 1, n·log2 n, n·log2 n).\n");
        md.push_str("- The Dragonfly of the same degree has 64 groups of 16 routers and 4 global links per router; a·h = 64 > g − 1 = 63, so some surplus global ports stay unconnected (arrangement-dependent, spec/topologies.md §7).\n");
        md
    }

    /// Writes report.md, results.json and the SVG charts into `dir` (atomically: built in a
    /// temporary directory, then moved into place; an existing directory is replaced only
    /// if an earlier `jumpnet report` wrote it).
    pub fn write(&mut self, dir: &Path) -> Result<()> {
        if dir.exists() && !dir.join(MARKER).exists() {
            bail!(
                "{} exists and was not written by `jumpnet report`; choose another --out directory",
                dir.display()
            );
        }
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "report".into());
        let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        let old = parent.join(format!(".{name}.old-{}", std::process::id()));
        self.output = Some(dir.to_path_buf());
        let result = (|| -> Result<()> {
            std::fs::create_dir_all(&tmp)
                .with_context(|| format!("cannot create {}", tmp.display()))?;
            let write = |file: &str, text: &str| {
                std::fs::write(tmp.join(file), text)
                    .with_context(|| format!("cannot write {}", tmp.join(file).display()))
            };
            write(MARKER, "written by jumpnet report\n")?;
            write("report.md", &self.markdown())?;
            write(
                "results.json",
                &(serde_json::to_string_pretty(self)? + "\n"),
            )?;
            write("distances.svg", &self.distance_chart().render())?;
            for &r in &self.scenario.ranks {
                for c in &self.scenario.collectives {
                    write(&format!("hops-{c}-{r}.svg"), &self.hop_chart(c, r).render())?;
                }
            }
            if dir.exists() {
                std::fs::rename(dir, &old)?;
            }
            std::fs::rename(&tmp, dir)?;
            if old.exists() {
                std::fs::remove_dir_all(&old)?;
            }
            Ok(())
        })();
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
            if old.exists() && !dir.exists() {
                let _ = std::fs::rename(&old, dir);
            }
        }
        result.with_context(|| format!("writing the report to {}", dir.display()))
    }

    fn hop_chart(&self, coll: &str, ranks: u32) -> BarChart {
        let categories: Vec<String> = self
            .scenario
            .topologies
            .iter()
            .map(|t| t.label.clone())
            .collect();
        let mut series: Vec<(String, Vec<f64>)> = self
            .scenario
            .mappings
            .iter()
            .map(|m| {
                let v = self
                    .scenario
                    .topologies
                    .iter()
                    .map(|t| {
                        self.hop(&t.label, coll, ranks, m)
                            .map_or(0.0, |h| h.total_hops as f64)
                    })
                    .collect();
                (m.clone(), v)
            })
            .collect();
        if !self.scenario.two_opt_from.is_empty() {
            let v = self
                .scenario
                .topologies
                .iter()
                .map(|t| {
                    self.best_two_opt(&t.label, coll, ranks)
                        .map_or(0.0, |(x, _)| x as f64)
                })
                .collect();
            series.push(("two-opt (best)".into(), v));
        }
        BarChart {
            title: format!("{coll}: total hops, {ranks} ranks"),
            y_label: "total router hops".into(),
            categories,
            series,
        }
    }

    fn distance_chart(&self) -> LineChart {
        LineChart {
            title: "Distance distribution (fraction of ordered switch pairs)".into(),
            x_label: "distance (switch hops)".into(),
            y_label: "fraction of pairs".into(),
            series: self
                .topologies
                .iter()
                .map(|t| {
                    let total: u64 = t.distance_histogram.iter().map(|(_, c)| c).sum();
                    (
                        t.label.clone(),
                        t.distance_histogram
                            .iter()
                            .map(|&(d, c)| (d as f64, c as f64 / total.max(1) as f64))
                            .collect(),
                    )
                })
                .collect(),
        }
    }
}

fn md_table(s: &Section) -> String {
    let mut out = format!("| {} |\n", s.headers.join(" | "));
    out.push_str(&format!("|{}\n", "---|".repeat(s.headers.len())));
    for r in &s.rows {
        out.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    out
}

impl Render for Report {
    fn sections(&self) -> Vec<Section> {
        let mut v = vec![self.topology_table()];
        for &r in &self.scenario.ranks {
            v.push(self.hop_table(r));
        }
        let mut s = Section::key_values("report");
        s.kv("seconds", format!("{:.1}", self.seconds));
        if let Some(o) = &self.output {
            s.kv(
                "written to",
                format!("{}/report.md (+ results.json, SVG charts)", o.display()),
            );
        }
        v.push(s);
        v
    }
}

/// Arguments of `jumpnet report`.
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

/// Reads the scenario file at `path`, or the embedded default scenario.
pub fn load_scenario(path: Option<&Path>) -> Result<Scenario> {
    match path {
        Some(p) => {
            // A scenario is a few kilobytes of JSON; refuse anything far larger.
            let text = crate::io::read::read_text(p, 16 << 20)
                .with_context(|| format!("cannot read scenario {}", p.display()))?;
            Scenario::from_json(&text, &p.display().to_string())
        }
        None => Scenario::from_json(DEFAULT_SCENARIO, "(embedded default)"),
    }
}

/// Runs `jumpnet report`: runs the scenario, writes the report directory and prints the
/// summary; returns the exit code.
pub fn run(args: ReportArgs) -> Result<u8> {
    if args.print_scenario {
        output::print_text(DEFAULT_SCENARIO)?;
        return Ok(0);
    }
    let scenario = load_scenario(args.scenario.as_deref())?;
    let mut report = run_scenario(&scenario, args.iterations, !args.quiet)?;
    report.write(&args.out)?;
    output::print(&report, args.format.format())?;
    Ok(0)
}
