//! Routing tables: a routing compiled into owned forwarding (and layer) tables
//! ([`compile`]), and the per-switch tables as people read them ([`tables`], `jumpnet route
//! table`): runs, JSON, CSV or an LFT dump, with the VC rule applied to port tables.

use anyhow::{anyhow, bail, Result};
use serde::Serialize;

use jumpnet_core::image::route_table as image;
use jumpnet_core::routing::dimension_order::dateline;
use jumpnet_core::routing::dragonfly::minimal::MinimalVcs;
use jumpnet_core::routing::PacketState;
use jumpnet_core::routing::{
    tables::compile::compile_tables, tables::compile::VcMode, RouteEntry, Routing, RoutingError,
    Run, TableSet, TableSetBuilder,
};
use jumpnet_core::topology::{Network, Topology};

use crate::builder;
use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{RouteAlgo, RouteOptions, RouteStore, RoutingInfo};
use crate::io::lft::{self, Lft};
use crate::io::output::{Render, Section};

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
        builder::network::check_alloc::<Run<RouteEntry>>(
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
    if let Some((ports, rule)) = crate::builder::routing::port_tables(opts.algo) {
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
    let (routing, info) = builder::routing::build(&t, opts, &mut store)?;
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
    t.routing.algorithm = opts.algo.name().to_string();
    t.routing.vcs = lft::RULE_CLASSES as u8;
    t.routing.vc_rule = Some(rule);
    t.routing.vc_rule_text = Some(rule.describe().to_string());
    Ok(())
}
