//! `jumpnet route`: routing tables, delivery/loop/deadlock checks and path statistics,
//! returned as data ([`tables`], [`check`], [`check_table`], [`path_stats`]), and the
//! command's arguments ([`RouteAction`]) and [`run`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Subcommand;
use serde::Serialize;

use jumpnet_core::image::route_table as image;
use jumpnet_core::routing::{
    self, deadlock::cdg::Deadlock, deadlock::cycle::Frame, paths::stats, paths::walk,
    tables::compile::compile_tables, tables::compile::VcMode, Cdg, ChannelVc, RouteEntry, Routing,
    RoutingError, Run, TableRouting, TableSet, TableSetBuilder,
};
use jumpnet_core::topology::{Network, Topology};

use crate::build;
use crate::build::network::OwnedNetwork;
use crate::build::routing::{RouteAlgo, RouteOptions, RouteStore, RoutingInfo};
use crate::commands::args::{FormatArgs, RouteArgs, TopologyArgs};
use crate::io::export::class_name;
use crate::io::lft::{self, Lft};
use crate::io::output::{self, Format, Render, Section};

fn rerr(e: RoutingError) -> anyhow::Error {
    anyhow!("{e}")
}

/// Compiled forwarding (and optional layer) tables in owned buffers.
#[derive(Debug)]
pub struct OwnedTables {
    runs: Vec<Run<RouteEntry>>,
    offsets: Vec<u32>,
    layer_runs: Vec<Run<u8>>,
    layer_offsets: Vec<u32>,
    destinations: u32,
    layered: bool,
}

impl OwnedTables {
    /// Forwarding tables.
    pub fn routes(&self) -> Result<TableSet<'_, RouteEntry>> {
        TableSet::from_parts(&self.runs, &self.offsets, self.destinations).map_err(rerr)
    }

    /// Per-(source switch, destination) layers, for layered routings.
    pub fn layers(&self) -> Result<Option<TableSet<'_, u8>>> {
        if !self.layered {
            return Ok(None);
        }
        TableSet::from_parts(&self.layer_runs, &self.layer_offsets, self.destinations)
            .map(Some)
            .map_err(rerr)
    }
}

/// Compiles `routing` into tables, growing the run buffers until they fit.
pub fn compile<T: Topology>(topo: &T, routing: &dyn Routing, layered: bool) -> Result<OwnedTables> {
    let n = topo.num_switches();
    let d = topo.num_terminals();
    let full = n as usize * d as usize;
    let mut cap = (n as usize * 64).min(full).max(1);
    loop {
        let mut runs = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            cap
        ];
        let mut offsets = vec![0u32; n as usize + 1];
        let mut layer_runs = vec![
            Run {
                first: 0,
                value: 0u8
            };
            if layered { cap } else { 0 }
        ];
        let mut layer_offsets = vec![0u32; if layered { n as usize + 1 } else { 0 }];
        let res = {
            let mut rb = TableSetBuilder::new(n, d, &mut runs, &mut offsets).map_err(rerr)?;
            let mut lb = if layered {
                Some(
                    TableSetBuilder::new(n, d, &mut layer_runs, &mut layer_offsets)
                        .map_err(rerr)?,
                )
            } else {
                None
            };
            let mode = if layered {
                VcMode::PerPath
            } else {
                VcMode::InTable
            };
            compile_tables(topo, routing, mode, &mut rb, lb.as_mut())
                .and_then(|()| rb.finish().map(|t| t.total_runs()))
                .and_then(|used| match lb {
                    Some(l) => l.finish().map(|t| (used, t.total_runs())),
                    None => Ok((used, 0)),
                })
        };
        match res {
            Ok((used, lused)) => {
                runs.truncate(used);
                layer_runs.truncate(lused);
                return Ok(OwnedTables {
                    runs,
                    offsets,
                    layer_runs,
                    layer_offsets,
                    destinations: d,
                    layered,
                });
            }
            Err(RoutingError::Capacity(..)) if cap < full => cap = (cap * 4).min(full),
            Err(e) => return Err(rerr(e)),
        }
    }
}

/// One run of a table as printed.
#[derive(Debug, Serialize)]
pub struct RunRow {
    /// First destination terminal.
    pub first: u32,
    /// Last destination terminal.
    pub last: u32,
    /// Output port (`null` = no route).
    pub port: Option<u16>,
    /// VC.
    pub vc: u8,
}

/// Table of one switch.
#[derive(Debug, Serialize)]
pub struct SwitchTable {
    /// Switch.
    pub switch: u32,
    /// Runs of equal entries.
    pub runs: Vec<RunRow>,
    /// Size of the switch's table image (postcard + CRC-32), bytes.
    pub image_bytes: usize,
    /// Layer runs `(first, last, layer)` per source destination (layered routings).
    pub layers: Option<Vec<(u32, u32, u8)>>,
}

/// `route table` result.
#[derive(Debug, Serialize)]
pub struct Tables {
    /// Topology.
    pub topology: String,
    /// Routing facts.
    pub routing: RoutingInfo,
    /// Destinations per table.
    pub destinations: u32,
    /// Runs over all switches.
    pub total_runs: usize,
    /// Mean image bytes per switch.
    pub mean_image_bytes: f64,
    /// Largest image, bytes.
    pub max_image_bytes: usize,
    /// Tables (all switches, or the requested one).
    pub switches: Vec<SwitchTable>,
    /// Forwarding entries for the LFT dump.
    #[serde(skip)]
    pub lft: Lft,
}

fn runs_rows<V: Copy, F: Fn(V) -> R, R>(runs: &[Run<V>], len: u32, f: F) -> Vec<(u32, u32, R)> {
    runs.iter()
        .enumerate()
        .map(|(i, r)| {
            let last = runs.get(i + 1).map_or(len, |n| n.first) - 1;
            (r.first, last, f(r.value))
        })
        .collect()
}

/// Builds the tables of `net` under `opts` (all switches, or only `switch`).
pub fn tables(net: &OwnedNetwork, opts: &RouteOptions, switch: Option<u32>) -> Result<Tables> {
    if let Some((ports, rule)) = opts.algo.port_tables() {
        let mut t = tables(
            net,
            &RouteOptions {
                algo: ports,
                ..*opts
            },
            switch,
        )?;
        t.routing.algorithm = opts.algo.name();
        t.routing.vc_rule = Some(rule.to_string());
        return Ok(t);
    }
    if !opts.algo.destination_based() {
        bail!(
            "--algo {} is not destination-based (its VC depends on the packet's path), so it has no per-switch tables; use `jumpnet route check` or `route stats` — or --algo dor for the port tables",
            opts.algo.name()
        );
    }
    let t = net.network();
    if let Some(s) = switch {
        if s >= t.num_switches() {
            bail!(
                "--switch {s} is invalid: switches are 0..{}",
                t.num_switches()
            );
        }
    }
    let mut store = RouteStore::default();
    let (routing, info) = build::routing::build(&t, opts, &mut store)?;
    let layered = opts.algo == RouteAlgo::Dfsssp;
    let owned = compile(&t, routing.as_ref(), layered)?;
    let set = owned.routes()?;
    let layers = owned.layers()?;
    let d = set.destinations();
    let mut out = Vec::new();
    let mut lft = Lft {
        entries: Vec::new(),
    };
    let (mut total_img, mut max_img) = (0usize, 0usize);
    for s in 0..t.num_switches() {
        let table = set
            .table(s)
            .ok_or_else(|| anyhow!("missing table of switch {s}"))?;
        let mut buf = vec![0u8; image::max_image_len(table.runs().len())];
        let len = image::encode(s, &table, &mut buf).map_err(|e| anyhow!("{e}"))?;
        total_img += len;
        max_img = max_img.max(len);
        if switch.is_some_and(|x| x != s) {
            continue;
        }
        let mut entries = vec![None; d as usize];
        table.for_each(|dst, e: RouteEntry| {
            if e.is_route() {
                entries[dst as usize] = Some((e.port, e.vc));
            }
        });
        lft.entries.push(entries);
        out.push(SwitchTable {
            switch: s,
            runs: runs_rows(table.runs(), d, |e: RouteEntry| e)
                .into_iter()
                .map(|(first, last, e)| RunRow {
                    first,
                    last,
                    port: e.is_route().then_some(e.port),
                    vc: e.vc,
                })
                .collect(),
            image_bytes: len,
            layers: match &layers {
                Some(l) => l.table(s).map(|lt| runs_rows(lt.runs(), d, |v| v)),
                None => None,
            },
        });
    }
    let n = t.num_switches().max(1) as f64;
    Ok(Tables {
        topology: net.spec().to_string(),
        routing: info,
        destinations: d,
        total_runs: set.total_runs(),
        mean_image_bytes: total_img as f64 / n,
        max_image_bytes: max_img,
        switches: out,
        lft,
    })
}

impl Tables {
    /// OpenSM-style dump (ports only; layered routings' layers are in the JSON output).
    pub fn lft_dump(&self) -> String {
        let mut header = format!(
            "jumpnet linear forwarding tables: {}, algorithm {}",
            self.topology, self.routing.algorithm
        );
        if let Some(rule) = &self.routing.vc_rule {
            header.push_str(&format!(" ({rule})"));
        }
        let with_vc = self
            .switches
            .iter()
            .any(|s| s.runs.iter().any(|r| r.vc != 0));
        if self.switches.len() == 1 && self.lft.entries.len() == 1 {
            // A single switch: keep its real id in the block header.
            let text = lft::write(&self.lft, &header, with_vc);
            return text.replacen(
                "Switch 0\n",
                &format!("Switch {}\n", self.switches[0].switch),
                1,
            );
        }
        lft::write(&self.lft, &header, with_vc)
    }
}

impl Render for Tables {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!("routing tables of {}", self.topology));
        s.kv("algorithm", &self.routing.algorithm)
            .kv("virtual channels / layers", self.routing.vcs)
            .kv("destinations per table", self.destinations)
            .kv(
                "VCs",
                self.routing
                    .vc_rule
                    .as_deref()
                    .unwrap_or("as in the table entries"),
            )
            .kv("runs (all switches)", self.total_runs)
            .kv(
                "image bytes per switch (mean)",
                format!("{:.1}", self.mean_image_bytes),
            )
            .kv("image bytes per switch (max)", self.max_image_bytes);
        let mut out = vec![s];
        for t in &self.switches {
            let mut sec = Section::new(
                format!(
                    "switch {} ({} runs, {} image bytes)",
                    t.switch,
                    t.runs.len(),
                    t.image_bytes
                ),
                &["destinations", "port", "vc"],
            );
            for r in &t.runs {
                sec.row([
                    if r.first == r.last {
                        r.first.to_string()
                    } else {
                        format!("{}..={}", r.first, r.last)
                    },
                    r.port.map_or("-".into(), |p| p.to_string()),
                    r.vc.to_string(),
                ]);
            }
            out.push(sec);
        }
        out
    }
}

/// Expanded CSV rows `switch,destination,port,vc`.
pub fn tables_csv(t: &Tables) -> String {
    let mut s = String::from("switch,destination,port,vc\n");
    for (sw, entries) in t.switches.iter().zip(&t.lft.entries) {
        for (d, e) in entries.iter().enumerate() {
            match e {
                Some((p, vc)) => s.push_str(&format!("{},{d},{p},{vc}\n", sw.switch)),
                None => s.push_str(&format!("{},{d},,\n", sw.switch)),
            }
        }
    }
    s
}

/// A channel of a dependency cycle as printed.
#[derive(Debug, Serialize, Clone)]
pub struct CycleChannel {
    /// Switch the channel leaves.
    pub switch: u32,
    /// Output port.
    pub port: u16,
    /// VC.
    pub vc: u8,
    /// Switch it leads to.
    pub to: u32,
}

/// `route check` verdict.
#[derive(Debug, Serialize)]
pub struct Verdict {
    /// Topology.
    pub topology: String,
    /// What was checked (algorithm or table file).
    pub routing: String,
    /// Virtual channels the routing uses.
    pub vcs: u8,
    /// VC limit given with --vcs.
    pub vc_limit: Option<u8>,
    /// Ordered terminal pairs checked.
    pub pairs: u64,
    /// Every pair delivered without loops, on real links, within the VC range.
    pub delivery: bool,
    /// First delivery problem, if any.
    pub delivery_error: Option<String>,
    /// Pairs whose route is longer than the shortest path.
    pub non_minimal_pairs: u64,
    /// Longest route, router hops.
    pub max_hops: u32,
    /// Mean route length, router hops.
    pub mean_hops: f64,
    /// Channel dependency graph acyclic.
    pub deadlock_free: bool,
    /// One dependency cycle (channels in order), if any.
    pub cycle: Vec<CycleChannel>,
    /// DFSSSP layer facts.
    pub layers_needed: Option<u8>,
    /// Whether every check passed.
    pub passed: bool,
}

impl Render for Verdict {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!(
            "route check of {} on {}: {}",
            self.routing,
            self.topology,
            if self.passed { "PASSED" } else { "FAILED" }
        ));
        s.kv("pairs checked", self.pairs)
            .kv(
                "delivered, loop-free",
                if self.delivery { "yes" } else { "NO" },
            )
            .kv("non-minimal pairs", self.non_minimal_pairs)
            .kv("max hops", self.max_hops)
            .kv("mean hops", format!("{:.4}", self.mean_hops))
            .kv("virtual channels", self.vcs)
            .kv(
                "deadlock-free",
                if self.deadlock_free { "yes" } else { "NO" },
            );
        if let Some(l) = self.vc_limit {
            s.kv("VC limit", l);
        }
        if let Some(l) = self.layers_needed {
            s.kv("DFSSSP layers needed", l);
        }
        if let Some(e) = &self.delivery_error {
            s.kv("delivery problem", e);
        }
        let mut out = vec![s];
        if !self.cycle.is_empty() {
            let mut c = Section::new(
                format!("dependency cycle ({} channels)", self.cycle.len()),
                &["switch", "port", "vc", "to switch"],
            );
            for ch in &self.cycle {
                c.row([
                    ch.switch.to_string(),
                    ch.port.to_string(),
                    ch.vc.to_string(),
                    ch.to.to_string(),
                ]);
            }
            out.push(c);
        }
        out
    }
}

fn check_routing<T: Topology>(
    topo: &T,
    net: &Network<'_>,
    routing: &dyn Routing,
    minimal_expected: bool,
    vc_limit: Option<u8>,
) -> Result<Verdict> {
    let limit = routing::default_hop_limit(topo);
    let mut dist = Vec::new();
    let mut queue = Vec::new();
    let dm = build::routing::distance_matrix(net, &mut dist, &mut queue)?;
    let rep = walk::check_all(topo, routing, Some(&dm), false, limit);
    let (delivery, delivery_error, pairs, non_minimal, max_hops, mean) = match rep {
        Ok(r) => (
            true,
            None,
            r.pairs,
            r.non_minimal,
            r.max_hops,
            if r.pairs == 0 {
                0.0
            } else {
                r.total_hops as f64 / r.pairs as f64
            },
        ),
        Err(e) => (false, Some(e.to_string()), 0, 0, 0, 0.0),
    };
    let vcs = routing.num_vcs();
    let mut cycle = Vec::new();
    let mut deadlock_free = false;
    if delivery {
        let words = Cdg::words_needed(topo, vcs) as usize;
        let vertices = Cdg::vertices_needed(topo, vcs) as usize;
        let mut bits = vec![0u64; words];
        let mut cdg = Cdg::new(topo, vcs, &mut bits).map_err(rerr)?;
        cdg.add_routing(routing, limit).map_err(rerr)?;
        let mut marks = vec![0u32; vertices];
        let mut stack = vec![Frame::default(); vertices];
        let mut chans = vec![
            ChannelVc {
                switch: 0,
                port: 0,
                vc: 0
            };
            vertices
        ];
        match cdg
            .find_cycle(&mut marks, &mut stack, &mut chans)
            .map_err(rerr)?
        {
            Deadlock::Free => deadlock_free = true,
            Deadlock::Cycle(len) => {
                cycle = chans[..len]
                    .iter()
                    .map(|c| CycleChannel {
                        switch: c.switch,
                        port: c.port,
                        vc: c.vc,
                        to: topo
                            .port(c.switch, c.port)
                            .link()
                            .map_or(u32::MAX, |l| l.peer),
                    })
                    .collect()
            }
        }
    }
    let within_limit = vc_limit.is_none_or(|l| vcs <= l);
    let passed =
        delivery && deadlock_free && within_limit && (!minimal_expected || non_minimal == 0);
    Ok(Verdict {
        topology: String::new(),
        routing: String::new(),
        vcs,
        vc_limit,
        pairs,
        delivery,
        delivery_error,
        non_minimal_pairs: non_minimal,
        max_hops,
        mean_hops: mean,
        deadlock_free,
        cycle,
        layers_needed: None,
        passed,
    })
}

/// Checks `opts.algo` on `net`.
pub fn check(net: &OwnedNetwork, opts: &RouteOptions, vc_limit: Option<u8>) -> Result<Verdict> {
    let t = net.network();
    let mut store = RouteStore::default();
    let (routing, info) = build::routing::build(&t, opts, &mut store)?;
    let mut v = check_routing(&t, &t, routing.as_ref(), opts.algo.is_minimal(), vc_limit)?;
    v.topology = net.spec().to_string();
    v.routing = format!("--algo {}", info.algorithm);
    v.layers_needed = info.layers_needed;
    Ok(v)
}

/// Checks a user-supplied LFT dump (`text` read from `name`) on `net`.
pub fn check_table(
    net: &OwnedNetwork,
    text: &str,
    name: &str,
    vc_limit: Option<u8>,
) -> Result<Verdict> {
    let t = net.network();
    let lft = lft::parse(text, name, t.num_switches(), t.num_terminals())?;
    let n = t.num_switches();
    let d = t.num_terminals();
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (n as usize * d as usize).max(1)
    ];
    let mut offsets = vec![0u32; n as usize + 1];
    let mut b = TableSetBuilder::new(n, d, &mut runs, &mut offsets).map_err(rerr)?;
    let mut max_vc = 0u8;
    for table in &lft.entries {
        for e in table {
            let entry = match *e {
                Some((port, vc)) => {
                    max_vc = max_vc.max(vc);
                    RouteEntry { port, vc }
                }
                None => RouteEntry::NONE,
            };
            b.push(entry).map_err(rerr)?;
        }
    }
    let set = b.finish().map_err(rerr)?;
    let routing = TableRouting::new(&t, set, None, max_vc + 1).map_err(rerr)?;
    let mut v = check_routing(&t, &t, &routing, false, vc_limit)?;
    v.topology = net.spec().to_string();
    v.routing = format!("table {name}");
    Ok(v)
}

/// `route stats` result.
#[derive(Debug, Serialize)]
pub struct Stats {
    /// Topology.
    pub topology: String,
    /// Routing facts.
    pub routing: RoutingInfo,
    /// Ordered terminal pairs.
    pub pairs: u64,
    /// Total router hops.
    pub total_hops: u64,
    /// Mean hops.
    pub mean_hops: f64,
    /// Longest route.
    pub max_hops: u32,
    /// `(hops, pairs)`.
    pub hop_histogram: Vec<(u32, u64)>,
    /// Per link class: `(class, channels, total paths, max paths, mean paths)`.
    pub channel_load: Vec<(String, u64, u64, u64, f64)>,
}

impl Render for Stats {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!(
            "all-to-all path statistics of --algo {} on {}",
            self.routing.algorithm, self.topology
        ));
        s.kv("ordered terminal pairs", self.pairs)
            .kv("total router hops", self.total_hops)
            .kv("mean hops", format!("{:.4}", self.mean_hops))
            .kv("max hops", self.max_hops)
            .kv("virtual channels / layers", self.routing.vcs);
        let mut h = Section::new("hop histogram", &["hops", "pairs"]);
        for (k, v) in &self.hop_histogram {
            h.row([k.to_string(), v.to_string()]);
        }
        let mut l = Section::new(
            "channel load (paths per directed channel; max = edge forwarding index)",
            &["class", "channels", "total", "max", "mean"],
        );
        for (c, ch, tot, max, mean) in &self.channel_load {
            l.row([
                c.clone(),
                ch.to_string(),
                tot.to_string(),
                max.to_string(),
                format!("{mean:.3}"),
            ]);
        }
        vec![s, h, l]
    }
}

/// All-to-all path statistics of `opts.algo` on `net`.
pub fn path_stats(net: &OwnedNetwork, opts: &RouteOptions) -> Result<Stats> {
    let t = net.network();
    let mut store = RouteStore::default();
    let (routing, info) = build::routing::build(&t, opts, &mut store)?;
    let limit = routing::default_hop_limit(&t);
    let mut loads = vec![0u64; t.num_switches() as usize * t.radix() as usize];
    let mut hist = vec![0u64; limit as usize + 1];
    let ps = stats::all_to_all(&t, routing.as_ref(), limit, &mut loads, &mut hist).map_err(rerr)?;
    let mut by_class = vec![
        (
            jumpnet_core::topology::LinkClass::Local,
            stats::LoadSummary::default()
        );
        64
    ];
    let used = stats::load_by_class(&t, &loads, &mut by_class).map_err(rerr)?;
    let all = stats::load_summary(&t, &loads, None);
    let mut channel_load = vec![(
        "all".to_string(),
        all.channels,
        all.total,
        all.max,
        all.mean(),
    )];
    for (c, l) in &by_class[..used] {
        channel_load.push((class_name(*c), l.channels, l.total, l.max, l.mean()));
    }
    Ok(Stats {
        topology: net.spec().to_string(),
        routing: info,
        pairs: ps.pairs,
        total_hops: ps.total_hops,
        mean_hops: if ps.pairs == 0 {
            0.0
        } else {
            ps.total_hops as f64 / ps.pairs as f64
        },
        max_hops: ps.max_hops,
        hop_histogram: hist
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| (k as u32, c))
            .collect(),
        channel_load,
    })
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

/// Runs `jumpnet route ...`; returns the exit code (1 when a check fails).
pub fn run(action: RouteAction) -> Result<u8> {
    match action {
        RouteAction::Table {
            topology,
            route: r,
            switch,
            format,
            output: path,
        } => {
            let net = topology.build()?;
            let t = tables(&net, &r.options(), switch)?;
            let text = match format {
                TableFormat::Table => output::render_to_string(&t, Format::Table)?,
                TableFormat::Json => output::render_to_string(&t, Format::Json)?,
                TableFormat::Csv => tables_csv(&t),
                TableFormat::Lft => t.lft_dump(),
            };
            output::write_or_print(&text, path.as_deref())?;
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
                        .map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
                    check_table(&net, &text, &path.display().to_string(), vcs)?
                }
                None => check(&net, &r.options(), vcs)?,
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
            output::print(&path_stats(&net, &r.options())?, format.format())?;
            Ok(0)
        }
    }
}
