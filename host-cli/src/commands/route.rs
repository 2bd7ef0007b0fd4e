//! `jumpnet route`: routing tables, delivery/loop/deadlock checks and path statistics,
//! returned as data ([`tables`], [`check`], [`check_table`], [`path_stats`]), and the
//! command's arguments ([`RouteAction`]) and [`run`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use serde::Serialize;

use jumpnet_core::image::route_table as image;
use jumpnet_core::routing::dimension_order::dateline;
use jumpnet_core::routing::dragonfly::minimal::MinimalVcs;
use jumpnet_core::routing::PacketState;
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
        Ok(TableSet::from_parts(
            &self.runs,
            &self.offsets,
            self.destinations,
        )?)
    }

    /// Per-(source switch, destination) layers, for layered routings.
    pub fn layers(&self) -> Result<Option<TableSet<'_, u8>>> {
        if !self.layered {
            return Ok(None);
        }
        Ok(Some(TableSet::from_parts(
            &self.layer_runs,
            &self.layer_offsets,
            self.destinations,
        )?))
    }
}

/// Compiles `routing` into tables, growing the run buffers until they fit.
pub fn compile<T: Topology>(topo: &T, routing: &dyn Routing, layered: bool) -> Result<OwnedTables> {
    let n = topo.num_switches();
    let d = topo.num_terminals();
    let full = n as usize * d as usize;
    let mut cap = (n as usize * 64).min(full).max(1);
    loop {
        build::network::check_alloc::<Run<RouteEntry>>(
            &format!("routing tables of {n} switches × {d} destinations"),
            cap as u128 * if layered { 2 } else { 1 },
        )?;
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
            let mut rb = TableSetBuilder::new(n, d, &mut runs, &mut offsets)?;
            let mut lb = if layered {
                Some(TableSetBuilder::new(
                    n,
                    d,
                    &mut layer_runs,
                    &mut layer_offsets,
                )?)
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
            Err(e) => return Err(e.into()),
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
    /// VC (tables without a VC rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc: Option<u8>,
    /// VC per input class `[class 0, class 1]` (tables with a VC rule, see
    /// `routing.vc_rule`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc_by_class: Option<[u8; 2]>,
}

/// Table of one switch.
#[derive(Debug, Serialize)]
pub struct SwitchTable {
    /// Switch.
    pub switch: u32,
    /// Runs of equal entries.
    pub runs: Vec<RunRow>,
    /// Size of the switch's table image (postcard + CRC-32), bytes. The image holds the
    /// ports only for tables with a VC rule.
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
        apply_vc_rule(net, opts, rule, &mut t)?;
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
        rule: None,
        switches: Vec::new(),
        entries: Vec::new(),
    };
    let (mut total_img, mut max_img) = (0usize, 0usize);
    for s in 0..t.num_switches() {
        let table = set
            .table(s)
            .ok_or_else(|| anyhow!("missing table of switch {s}"))?;
        let mut buf = vec![0u8; image::max_image_len(table.runs().len())];
        let len = image::encode(s, &table, &mut buf)?;
        total_img += len;
        max_img = max_img.max(len);
        if switch.is_some_and(|x| x != s) {
            continue;
        }
        let mut entries = vec![None; d as usize];
        table.for_each(|dst, e: RouteEntry| {
            if e.is_route() {
                entries[dst as usize] = Some(lft::Entry::fixed(e.port, e.vc));
            }
        });
        let runs = entry_runs(&entries, None);
        lft.entries.push(entries);
        lft.switches.push(s);
        out.push(SwitchTable {
            switch: s,
            runs,
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
        header.push_str(&format!(", {} VC(s)", self.routing.vcs));
        let with_vc = self
            .lft
            .entries
            .iter()
            .flatten()
            .flatten()
            .any(|e| e.vc != [0; 2]);
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
                "VC rule",
                match self.routing.vc_rule {
                    Some(r) => format!(
                        "{} ({}); the vc column gives the VC for input class 0/1",
                        r.name(),
                        r.describe()
                    ),
                    None => "none: the VC is in the table entries".into(),
                },
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
                    match (r.vc, r.vc_by_class) {
                        (_, Some([a, b])) => format!("{a}/{b}"),
                        (Some(v), None) => v.to_string(),
                        (None, None) => "-".into(),
                    },
                ]);
            }
            out.push(sec);
        }
        out
    }
}

/// Expanded CSV rows: `switch,destination,port,vc`, or
/// `switch,destination,port,vc_class0,vc_class1,vc_rule` for tables with a VC rule.
pub fn tables_csv(t: &Tables) -> String {
    lft::write_csv(&t.lft)
}

/// Runs of equal entries of one switch's expanded table, as printed (`rule`: VCs per input
/// class, else one VC).
fn entry_runs(entries: &[Option<lft::Entry>], rule: Option<lft::VcRule>) -> Vec<RunRow> {
    let mut rows: Vec<RunRow> = Vec::new();
    let mut prev: Option<Option<lft::Entry>> = None;
    for (d, e) in entries.iter().enumerate() {
        if prev == Some(*e) {
            if let Some(r) = rows.last_mut() {
                r.last = d as u32;
            }
            continue;
        }
        prev = Some(*e);
        rows.push(RunRow {
            first: d as u32,
            last: d as u32,
            port: e.map(|e| e.port),
            vc: match (e, rule) {
                (Some(e), None) => Some(e.vc[0]),
                (None, None) => Some(0),
                _ => None,
            },
            vc_by_class: match (e, rule) {
                (Some(e), Some(_)) => Some(e.vc),
                (None, Some(_)) => Some([0, 0]),
                _ => None,
            },
        });
    }
    rows
}

/// Turns the port tables of a routing with a VC rule into rule tables: every network-port
/// entry gets the VC of each input class as core's routing chooses it (the dateline rule of
/// `routing::dimension_order::dateline`, BookSim's `MinimalVcs::out_vc` for the Dragonfly), and the routing
/// facts say 2 VCs and name the rule.
fn apply_vc_rule(
    net: &OwnedNetwork,
    opts: &RouteOptions,
    rule: lft::VcRule,
    t: &mut Tables,
) -> Result<()> {
    let topo = net.network();
    let vcs = match (rule, &topo) {
        (lft::VcRule::Dateline, Network::Torus(torus)) => {
            let torus = torus.clone();
            Box::new(move |s: u32, port: u16| -> Result<[u8; 2]> {
                let mut vc = [0u8; 2];
                for (class, v) in vc.iter_mut().enumerate() {
                    // Class 0: a packet entering the port's dimension; class 1: one that
                    // crossed its dateline in that dimension before this hop.
                    let mut st = PacketState::new(s);
                    if class == 1 {
                        st.phase = ((port / 2) as u8 + 1) | dateline::CROSSED;
                    }
                    *v = dateline::dateline_hop(&torus, s, port, &mut st)?;
                }
                Ok(vc)
            }) as Box<dyn Fn(u32, u16) -> Result<[u8; 2]>>
        }
        (lft::VcRule::InputVc, Network::Dragonfly(df)) => {
            let first_global = df.first_global_port() as u32;
            let h = df.h();
            Box::new(move |_s: u32, port: u16| -> Result<[u8; 2]> {
                let global = (port as u32) >= first_global && (port as u32) < first_global + h;
                Ok([
                    MinimalVcs::Dateline.out_vc(0, global),
                    MinimalVcs::Dateline.out_vc(1, global),
                ])
            })
        }
        _ => bail!(
            "--algo {} has no VC rule for a {} network",
            opts.algo.name(),
            topo.family().name()
        ),
    };
    for (sw, table) in t.switches.iter_mut().zip(t.lft.entries.iter_mut()) {
        for e in table.iter_mut().flatten() {
            e.vc = match topo.port(sw.switch, e.port) {
                jumpnet_core::topology::Port::Link(_) => vcs(sw.switch, e.port)?,
                _ => [0, 0],
            };
        }
        sw.runs = entry_runs(table, Some(rule));
    }
    t.lft.rule = Some(rule);
    t.routing.algorithm = opts.algo.name();
    t.routing.vcs = lft::RULE_CLASSES as u8;
    t.routing.vc_rule = Some(rule);
    t.routing.vc_rule_text = Some(rule.describe().to_string());
    Ok(())
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
    /// What is wrong, for people (empty when the check passed).
    pub problems: Vec<String>,
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
        for p in &self.problems {
            s.kv("problem", p);
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
        let mut cdg = Cdg::new(topo, vcs, &mut bits)?;
        cdg.add_routing(routing, limit)?;
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
        match cdg.find_cycle(&mut marks, &mut stack, &mut chans)? {
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
        problems: Vec::new(),
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

/// Checks user-supplied tables (`text` read from `name`; LFT dump, CSV or the JSON of
/// `route table`) on `net`. Tables with a VC rule are routed by it; the others with the VC
/// of each entry.
pub fn check_table(
    net: &OwnedNetwork,
    text: &str,
    name: &str,
    vc_limit: Option<u8>,
) -> Result<Verdict> {
    let t = net.network();
    let lft = lft::parse_any(text, name, t.num_switches(), t.num_terminals())?;
    let n = t.num_switches();
    let d = t.num_terminals();
    let full = n as u128 * d as u128;
    build::network::check_alloc::<Run<RouteEntry>>(
        &format!("the tables of {n} switches × {d} destinations"),
        full,
    )?;
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        (full as usize).max(1)
    ];
    let mut offsets = vec![0u32; n as usize + 1];
    let mut b = TableSetBuilder::new(n, d, &mut runs, &mut offsets)?;
    for table in &lft.entries {
        for e in table {
            let entry = match *e {
                Some(e) if lft.rule.is_some() => RouteEntry {
                    port: e.port,
                    vc: build::routing::pack_class_vcs(e.vc),
                },
                Some(e) => RouteEntry {
                    port: e.port,
                    vc: e.vc[0],
                },
                None => RouteEntry::NONE,
            };
            b.push(entry)?;
        }
    }
    let set = b.finish()?;
    let vcs = lft.vcs();
    let mut v = match lft.rule {
        Some(rule) => {
            let routing = build::routing::RuleTableRouting::new(&t, rule, set)
                .with_context(|| name.to_string())?;
            check_routing(&t, &t, &routing, false, vc_limit)?
        }
        None => {
            let routing = TableRouting::new(&t, set, None, vcs)?;
            check_routing(&t, &t, &routing, false, vc_limit)?
        }
    };
    v.topology = net.spec().to_string();
    v.routing = match lft.rule {
        Some(r) => format!("table {name} (VC rule {})", r.name()),
        None => format!("table {name}"),
    };
    if v.delivery && !v.deadlock_free {
        v.problems.push(match lft.rule {
            None => format!(
                "the table declares no VC rule and uses {vcs} VC(s), and its routes close a channel dependency cycle: it deadlocks. Tables of routings that need 2 VCs (dor-dateline, df-minimal) must keep their `VCRule` line and VC columns"
            ),
            Some(r) => format!(
                "with the VCs the table gives under its VC rule {} its routes close a channel dependency cycle: it deadlocks",
                r.name()
            ),
        });
    }
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
    let ps = stats::all_to_all(&t, routing.as_ref(), limit, &mut loads, &mut hist)?;
    let mut by_class = vec![
        (
            jumpnet_core::topology::LinkClass::Local,
            stats::LoadSummary::default()
        );
        64
    ];
    let used = stats::load_by_class(&t, &loads, &mut by_class)?;
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
    /// CSV: switch,destination,port,vc (with a VC rule:
    /// switch,destination,port,vc_class0,vc_class1,vc_rule).
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
        /// Check these user-supplied tables instead of an algorithm: an LFT dump, CSV or the
        /// JSON of `route table` (a `VCRule` makes the VC depend on the input class).
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
                    let t = net.network();
                    // A table file holds at most a few dozen bytes per (switch, destination).
                    let max = (t.num_switches() as u64 * t.num_terminals() as u64)
                        .saturating_mul(64)
                        .saturating_add(1 << 20);
                    let text = crate::io::read::read_text(&path, max)?;
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
