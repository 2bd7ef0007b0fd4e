//! The run a golden trace belongs to ([`RunKey`], the trace file's header): everything
//! needed to replay it — topology, routing and its options, every simulator key, the
//! collective with all its options, placement, message size, traced nodes and the timing
//! contract the events follow — and the way back from a header to a run
//! ([`RunKey::replay`]). docs/toolchain.md ("HIL regression suites") describes the format.

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Result};
use jumpnet_core::collective::Rank;
use jumpnet_core::routing::RouteAlgo;
use serde::{Deserialize, Serialize};

use crate::builder::schedule::Algorithm;
use crate::builder::topology::TopologySpec;
use crate::io::duration::Span;
use crate::runs::collective::{CollectiveOptions, CollectiveRun, Mapping};
use crate::sim::config::{Draws, Extras, Pattern, SimConfig};
use crate::sim::network::class_latency::ClassLatency;
use crate::sim::router::features::RouterFeatures;
use crate::sim::setup::{Setup, SetupRequest};

/// The value of a class latency that is not set (the class takes `link_latency`).
pub const UNSET: &str = "unset";

/// The timing contract a trace's events follow, independent of the engine that produced
/// them: any engine that keeps the contract replays the trace.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Timing {
    /// core's `Executor`: an engine acts as soon as it can, several actions per cycle
    /// (device and core engines).
    Untimed,
    /// core's `TimedExecutor` (`jumpnet_core::exec::timing`): at most one action per cycle,
    /// cycle by cycle (RTL and core engines).
    Clocked,
}

impl Timing {
    /// The name in trace headers and tables.
    pub fn name(self) -> &'static str {
        match self {
            Timing::Untimed => "untimed",
            Timing::Clocked => "clocked",
        }
    }
}

/// Routing of the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingKey {
    /// Algorithm, as `--algo` names it.
    pub algo: String,
    /// Virtual-layer limit of DFSSSP and PARX (`--max-layers`).
    pub max_layers: u8,
    /// Seed of the Valiant intermediate-group hash (`--valiant-seed`).
    pub valiant_seed: u64,
    /// The built routing as its report names it (checked on replay).
    pub built: String,
}

/// Background traffic's mean inter-arrival time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum SpanKey {
    /// In cycles.
    Cycles(f64),
    /// In seconds (at the clock of `link_gbps`).
    Seconds(f64),
}

/// The collective and every option it runs with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectiveKey {
    /// Algorithm, as `--collective` names it.
    pub algorithm: String,
    /// The schedule's description (checked on replay).
    pub description: String,
    /// `--ranks` (`null`: the algorithm's default).
    #[serde(deserialize_with = "Option::deserialize")]
    pub ranks: Option<u32>,
    /// `--root`.
    pub root: u32,
    /// `--elem-bytes`.
    pub elem_bytes: u32,
    /// `--flit-bytes`.
    pub flit_bytes: u32,
    /// `--header-flits`.
    pub header_flits: u16,
    /// `--send-overhead`.
    pub send_overhead: u64,
    /// `--recv-overhead`.
    pub recv_overhead: u64,
    /// `--reduce-cycles-per-byte`.
    pub reduce_cycles_per_byte: f64,
    /// `--link-gbps`.
    pub link_gbps: f64,
    /// Data flow checked (not `--no-check`).
    pub check_data: bool,
    /// `--background-mean` (`null`: no background traffic).
    #[serde(deserialize_with = "Option::deserialize")]
    pub background_mean: Option<SpanKey>,
    /// `--background-bytes`.
    pub background_bytes: u64,
    /// `--background-seed`.
    pub background_seed: u64,
}

/// The rank → terminal placement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MappingKey {
    /// `--mapping`.
    pub kind: String,
    /// `--map-seed`.
    pub map_seed: u64,
    /// `--map-iterations`.
    pub map_iterations: u64,
}

/// The run a trace belongs to (the trace file's header): enough to replay it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunKey {
    /// Topology, canonical form (`jumpnet topo` words).
    pub topology: String,
    /// Routing and its options.
    pub routing: RoutingKey,
    /// Every simulator key ([`SimConfig::KEYS`]) with its value as `key=value` takes it;
    /// class latencies that are not set are [`UNSET`].
    pub sim: BTreeMap<String, String>,
    /// The collective and its options.
    pub collective: CollectiveKey,
    /// Placement.
    pub mapping: MappingKey,
    /// Message size in bytes (`--msg`).
    pub msg_bytes: u64,
    /// Traced nodes (switches).
    pub nodes: Vec<u32>,
    /// Traced ranks (the ranks of those nodes; checked on replay).
    pub ranks: Vec<Rank>,
    /// The timing contract of the events.
    pub timing: Timing,
}

/// Every simulator key of `c` with its value, as [`SimConfig::set`] reads it back.
pub fn sim_keys(c: &SimConfig) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    let mut put = |k: &str, v: String| {
        m.insert(k.to_string(), v);
    };
    put("num_vcs", c.num_vcs.to_string());
    put("vc_buf_size", c.vc_buf_size.to_string());
    put("packet_size", c.packet_size.to_string());
    put("routing_delay", c.routing_delay.to_string());
    put("vc_alloc_delay", c.vc_alloc_delay.to_string());
    put("sw_alloc_delay", c.sw_alloc_delay.to_string());
    put("st_delay", c.st_delay.to_string());
    put("terminal_latency", c.terminal_latency.to_string());
    put("link_latency", c.link_latency.to_string());
    for k in ClassLatency::KEYS {
        put(k, UNSET.to_string());
    }
    for (k, v) in c.class_latency.set_keys() {
        put(k, v.to_string());
    }
    put("credit_delay", c.credit_delay.to_string());
    put("internal_speedup", c.internal_speedup.to_string());
    put(
        "output_buffer_size",
        c.output_buffer_size
            .map_or_else(|| "-1".to_string(), |n| n.to_string()),
    );
    put("allocator", c.allocator.name().to_string());
    // Named only when it differs from the switch allocator, so traces recorded before it
    // existed keep their keys.
    if let Some(vc) = c.vc_allocator {
        put("vc_allocator", vc.name().to_string());
    }
    // BookSim2's router features are named only when one differs from its default, so
    // traces recorded before they existed keep their keys.
    let f = &c.features;
    if *f != RouterFeatures::default() {
        put("wait_for_tail_credit", f.wait_for_tail_credit.to_string());
        put(
            "hold_switch_for_packet",
            f.hold_switch_for_packet.to_string(),
        );
        put("input_speedup", f.input_speedup.to_string());
        put("output_speedup", f.output_speedup.to_string());
        put("alloc_iters", f.alloc_iters.to_string());
        if f.vc_alloc_stage {
            put("vc_alloc_stage", "true".to_string());
        }
        if f.speculative {
            put("speculative", "true".to_string());
        }
        if f.booksim_credits {
            put("booksim_credits", "true".to_string());
        }
        if f.exact_vcs {
            put("exact_vcs", "true".to_string());
        }
    }
    put("router", c.router.name().to_string());
    put("injection", c.injection.word().to_string());
    put("injection_rate", c.injection_rate.to_string());
    put("rate_in_flits", c.rate_in_flits.to_string());
    put("batch_size", c.batch_size.to_string());
    let traffic = Pattern::WORDS
        .iter()
        .find(|(p, _)| *p == c.traffic)
        .and_then(|(_, words)| words.first())
        .copied()
        .unwrap_or("uniform");
    put("traffic", traffic.to_string());
    put("hotspot_node", c.hotspot_node.to_string());
    put("hotspot_fraction", c.hotspot_fraction.to_string());
    put("seed", c.seed.to_string());
    put("warmup_periods", c.warmup_periods.to_string());
    put("sample_period", c.sample_period.to_string());
    put("max_samples", c.max_samples.to_string());
    put("latency_thres", c.latency_thres.to_string());
    put("warmup_thres", c.warmup_thres.to_string());
    put("stopping_thres", c.stopping_thres.to_string());
    put("drain", c.drain.to_string());
    put("watchdog_cycles", c.watchdog_cycles.to_string());
    put("self_packets", c.self_packets.to_string());
    put("injection_delay", c.injection_delay.to_string());
    put("inject_any_vc", c.inject_any_vc.to_string());
    // BookSim2's extra parameters are named only when one differs from its default, so
    // traces recorded before they existed keep their keys.
    let e = &c.extras;
    if e.is_default() {
        return m;
    }
    let hotspots: Vec<String> = e.hotspots.iter().map(|(n, w)| format!("{n}:{w}")).collect();
    put("hotspots", hotspots.join(","));
    put("bad_dragon_k", e.bad_dragon_k.to_string());
    put("burst_alpha", e.burst_alpha.to_string());
    put("burst_beta", e.burst_beta.to_string());
    put("burst_r1", e.burst_r1.to_string());
    put("stop_rule", e.stop_rule.word().to_string());
    put("acc_warmup_thres", e.acc_warmup_thres.to_string());
    put("acc_stopping_thres", e.acc_stopping_thres.to_string());
    put("batch_count", e.batch_count.to_string());
    put("max_outstanding", e.max_outstanding.to_string());
    // Named only when BookSim2's draw is on (traces of runs before it keep their keys).
    if let Some(s) = e.perm_seed {
        put("perm_seed", s.to_string());
    }
    // Named only with a size distribution (after `packet_size` in the map's order, so that
    // reading the keys back keeps it).
    if let Some(d) = &e.packet_sizes {
        put("packet_sizes", d.word());
    }
    // Named only with BookSim2's draws (traces of runs before them keep their keys).
    if e.draws != Draws::Jumpnet {
        put("draws", e.draws.word().to_string());
    }
    m
}

/// Checks that `sim` names every simulator key and nothing else.
fn check_sim_keys(sim: &BTreeMap<String, String>) -> Result<()> {
    // Extras, router features and a VC allocator of its own are named only when set.
    let required = |k: &&&str| {
        !Extras::KEYS.contains(k) && !RouterFeatures::KEYS.contains(k) && **k != "vc_allocator"
    };
    if let Some(missing) = SimConfig::KEYS
        .iter()
        .filter(required)
        .find(|k| !sim.contains_key(**k))
    {
        bail!(
            "header field run.sim lacks the simulator key `{missing}`: a trace names every \
             simulator key ({})",
            SimConfig::KEYS.join(", ")
        );
    }
    if let Some(unknown) = sim.keys().find(|k| !SimConfig::KEYS.contains(&k.as_str())) {
        bail!(
            "header field run.sim has the unknown simulator key `{unknown}`; allowed: {}",
            SimConfig::KEYS.join(", ")
        );
    }
    Ok(())
}

impl RunKey {
    /// The key of a run of `collective` on `setup` (the derived fields — built routing,
    /// schedule description, ranks — are given by the run). Refuses what a trace cannot
    /// describe by itself: an edge-list topology and a permutation file.
    #[allow(clippy::too_many_arguments)]
    pub fn of(
        setup: &Setup,
        collective: &CollectiveRun,
        built_routing: String,
        description: String,
        nodes: &[u32],
        ranks: &[Rank],
        timing: Timing,
    ) -> Result<Self> {
        if matches!(setup.topology, TopologySpec::Arbitrary { .. }) {
            bail!(
                "the `arbitrary` topology reads its edge list from a file, which a trace \
                 header cannot hold: golden traces need a topology family with parameters"
            );
        }
        let o = &collective.options;
        if let Some(p) = &o.permutation {
            bail!(
                "--permutation {} is a file a trace header cannot hold: golden traces need \
                 --mapping (consecutive, ring, random, …)",
                p.display()
            );
        }
        Ok(RunKey {
            topology: setup.topology.to_string(),
            routing: RoutingKey {
                algo: setup.route.algo.name().to_string(),
                max_layers: setup.route.max_layers,
                valiant_seed: setup.route.seed,
                built: built_routing,
            },
            sim: sim_keys(&setup.config),
            collective: CollectiveKey {
                algorithm: collective.algorithm.name(),
                description,
                ranks: o.ranks,
                root: o.root,
                elem_bytes: o.elem_bytes,
                flit_bytes: o.flit_bytes,
                header_flits: o.header_flits,
                send_overhead: o.send_overhead,
                recv_overhead: o.recv_overhead,
                reduce_cycles_per_byte: o.reduce_cycles_per_byte,
                link_gbps: o.link_gbps,
                check_data: o.check_data,
                background_mean: o.background_mean.map(|s| match s {
                    Span::Cycles(c) => SpanKey::Cycles(c),
                    Span::Seconds(s) => SpanKey::Seconds(s),
                }),
                background_bytes: o.background_bytes,
                background_seed: o.background_seed,
            },
            mapping: MappingKey {
                kind: o.mapping.name(),
                map_seed: o.map_seed,
                map_iterations: o.map_iterations,
            },
            msg_bytes: o.msg_bytes,
            nodes: nodes.to_vec(),
            ranks: ranks.to_vec(),
            timing,
        })
    }

    /// The setup and the collective this key describes (the derived fields are checked
    /// when the run is built, [`RunKey::differences`]). Every value is checked; an error
    /// names the header field.
    pub fn replay(&self) -> Result<(Setup, CollectiveRun)> {
        check_sim_keys(&self.sim)?;
        let algo: RouteAlgo = self.routing.algo.parse().map_err(|_| {
            anyhow!(
                "header field run.routing.algo: unknown routing `{}`",
                self.routing.algo
            )
        })?;
        let mut words: Vec<String> = self
            .topology
            .split_whitespace()
            .map(str::to_string)
            .collect();
        for (k, v) in &self.sim {
            if v != UNSET || !ClassLatency::KEYS.contains(&k.as_str()) {
                words.push(format!("sim.{k}={v}"));
            }
        }
        let setup = SetupRequest {
            words,
            algo: Some(algo),
            max_layers: self.routing.max_layers,
            valiant_seed: self.routing.valiant_seed,
            ..SetupRequest::default()
        }
        .resolve(false)
        .map_err(|e| anyhow!("header fields run.topology / run.sim: {e:#}"))?;
        let c = &self.collective;
        let algorithm =
            <Algorithm as clap::ValueEnum>::from_str(&c.algorithm, false).map_err(|_| {
                anyhow!(
                    "header field run.collective.algorithm: unknown collective `{}`",
                    c.algorithm
                )
            })?;
        let mapping =
            <Mapping as clap::ValueEnum>::from_str(&self.mapping.kind, false).map_err(|_| {
                anyhow!(
                    "header field run.mapping.kind: unknown mapping `{}`",
                    self.mapping.kind
                )
            })?;
        let options = CollectiveOptions {
            mapping,
            permutation: None,
            ranks: c.ranks,
            root: c.root,
            msg_bytes: self.msg_bytes,
            elem_bytes: c.elem_bytes,
            flit_bytes: c.flit_bytes,
            header_flits: c.header_flits,
            send_overhead: c.send_overhead,
            recv_overhead: c.recv_overhead,
            reduce_cycles_per_byte: c.reduce_cycles_per_byte,
            link_gbps: c.link_gbps,
            map_seed: self.mapping.map_seed,
            map_iterations: self.mapping.map_iterations,
            check_data: c.check_data,
            background_mean: c.background_mean.map(|s| match s {
                SpanKey::Cycles(c) => Span::Cycles(c),
                SpanKey::Seconds(s) => Span::Seconds(s),
            }),
            background_bytes: c.background_bytes,
            background_seed: c.background_seed,
            // HIL runs take the simple NIC model (hil::run refuses the others).
            ..CollectiveOptions::default()
        };
        Ok((setup, CollectiveRun { algorithm, options }))
    }

    /// The header fields where `self` (a trace's) differs from `now` (the run's), each as
    /// `field: trace … / now …`.
    pub fn differences(&self, now: &RunKey) -> Vec<String> {
        let (Ok(a), Ok(b)) = (serde_json::to_value(self), serde_json::to_value(now)) else {
            return vec!["(the keys do not serialise)".into()];
        };
        let mut out = Vec::new();
        diff_values("run", &a, &b, &mut out);
        out
    }
}

/// Appends the leaves where `a` and `b` differ, by path.
fn diff_values(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let (va, vb) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                diff_values(&format!("{path}.{k}"), va, vb, out);
            }
        }
        _ if a != b => out.push(format!("{path}: trace {a} / now {b}")),
        _ => {}
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn sim_keys_name_every_key_and_read_back_to_the_same_config() {
        for base in [SimConfig::booksim(), SimConfig::ga()] {
            let mut c = base.clone();
            c.set("global_latency", "7").unwrap();
            c.set("internal_speedup", "1.5").unwrap();
            c.set("output_buffer_size", "12").unwrap();
            c.set("hotspot_fraction", "0.125").unwrap();
            c.set("traffic", "tornado").unwrap();
            c.set("self_packets", "true").unwrap();
            c.set("injection_delay", "1").unwrap();
            c.set("inject_any_vc", "true").unwrap();
            c.set("stop_rule", "booksim").unwrap();
            c.set("alloc_iters", "2").unwrap();
            // Named only when on (traces of runs before them keep their keys).
            c.set("vc_alloc_stage", "true").unwrap();
            c.set("speculative", "true").unwrap();
            c.set("booksim_credits", "true").unwrap();
            c.set("exact_vcs", "true").unwrap();
            c.set("vc_allocator", "wavefront").unwrap();
            c.set("perm_seed", "-3").unwrap();
            c.set("packet_sizes", "1:3,4:1,8:1").unwrap();
            c.set("draws", "booksim").unwrap();
            let keys = sim_keys(&c);
            let mut names: Vec<&str> = keys.keys().map(String::as_str).collect();
            let mut all = SimConfig::KEYS.to_vec();
            names.sort_unstable();
            all.sort_unstable();
            assert_eq!(names, all);
            assert_eq!(keys["global_latency"], "7");
            assert_eq!(keys["local_latency"], UNSET);
            // Read back over the other preset: every key is set, so the result is `c`.
            let mut back = if base == SimConfig::ga() {
                SimConfig::booksim()
            } else {
                SimConfig::ga()
            };
            for (k, v) in &keys {
                if v != UNSET {
                    back.set(k, v).unwrap();
                }
            }
            assert_eq!(back, c);
        }
    }

    #[test]
    fn a_sim_map_without_a_key_or_with_a_foreign_one_is_refused() {
        let mut keys = sim_keys(&SimConfig::booksim());
        keys.remove("packet_size");
        let e = check_sim_keys(&keys).unwrap_err().to_string();
        assert!(e.contains("lacks the simulator key `packet_size`"), "{e}");
        keys.insert("packet_size".into(), "4".into());
        keys.insert("flux".into(), "1".into());
        let e = check_sim_keys(&keys).unwrap_err().to_string();
        assert!(e.contains("unknown simulator key `flux`"), "{e}");
        assert!(e.contains("num_vcs"), "{e}");
    }
}
