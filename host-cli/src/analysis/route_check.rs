//! Routing checks (`jumpnet route check`): delivery, loop freedom, minimality and deadlock
//! freedom of an algorithm ([`check`]) or of user-supplied tables ([`check_table`]).

use anyhow::{bail, Context, Result};
use serde::Serialize;

use jumpnet_core::routing::{
    self, deadlock::cdg::Deadlock, deadlock::cycle::Frame, paths::walk, Cdg, ChannelVc, RouteEntry,
    Routing, Run, TableRouting, TableSetBuilder,
};
use jumpnet_core::topology::{Network, Topology};

use crate::builder;
use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{RouteOptions, RouteStore};
use crate::io::lft;
use crate::io::output::{Render, Section};

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

/// What a routing check found.
#[derive(Debug, Serialize)]
pub struct RouteCheck {
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

impl Render for RouteCheck {
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
) -> Result<RouteCheck> {
    let limit = routing::default_hop_limit(topo);
    let mut dist = Vec::new();
    let mut queue = Vec::new();
    let dm = builder::routing::distance_matrix(net, &mut dist, &mut queue)?;
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
    Ok(RouteCheck {
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
pub fn check(net: &OwnedNetwork, opts: &RouteOptions, vc_limit: Option<u8>) -> Result<RouteCheck> {
    let t = net.network();
    let mut store = RouteStore::default();
    let (routing, info) = builder::routing::build(&t, opts, &mut store)?;
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
) -> Result<RouteCheck> {
    let t = net.network();
    let spec = net.spec().to_string();
    if let Some(written) = lft::written_for(text) {
        if written != spec {
            bail!(
                "{name} holds the tables of `{written}`, not of `{spec}`: check them on the \
                 topology they were written for"
            );
        }
    }
    let lft = lft::parse_any(text, name, t.num_switches(), t.num_terminals())?;
    let n = t.num_switches();
    let d = t.num_terminals();
    let full = n as u128 * d as u128;
    builder::network::check_alloc::<Run<RouteEntry>>(
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
                    vc: builder::routing::pack_class_vcs(e.vc),
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
            let routing = builder::routing::RuleTableRouting::new(&t, rule, set)
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
