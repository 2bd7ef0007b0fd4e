//! Running the simulated cases of a scenario: placements, routing per worker thread, one
//! collective run per case.

use anyhow::{anyhow, Context, Result};
use rayon::prelude::*;

use jumpnet_core::collective::Schedule;
use jumpnet_core::topology::{Family, Topology};

use super::{verdict::verdicts, Inputs, MakespanRow, Makespans, Plan, SimMapping, MAX_LAYERS};
use crate::analysis::step_contention::step_contention;
use crate::builder::network::OwnedNetwork;
use crate::builder::placement::terminals_of_switches;
use crate::builder::placement::{self, RankOrderChoice};
use crate::builder::routing::{self, RouteAlgo, RouteOptions, RouteStore};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::io::progress::Progress;
use crate::report::scenario::{parse_routing, ScenarioTopology};
use crate::runs::collective::{CollectiveOptions, NicModel};
use crate::runs::collective_nic::nic_config;
use crate::sim::config::SimConfig;
use crate::sim::workload::collective::run_collective;

/// A topology's routing: the scenario's, else `df-minimal` on Dragonflies and DFSSSP.
fn route_options(t: &ScenarioTopology, net: &OwnedNetwork) -> Result<RouteOptions> {
    let algo = match &t.routing {
        Some(name) => parse_routing(name)?,
        None if net.network().family() == Family::Dragonfly => RouteAlgo::DfMinimal,
        None => RouteAlgo::Dfsssp,
    };
    Ok(RouteOptions {
        algo,
        max_layers: MAX_LAYERS,
        seed: 1,
    })
}

/// One run to do.
struct Run {
    collective: Algorithm,
    message: u64,
    mapping: SimMapping,
    terminals: Vec<u32>,
}

/// Runs every simulated case of the scenario.
pub(in crate::report) fn simulate(inp: &Inputs<'_>) -> Result<Makespans> {
    let plan = inp.sim.plan(inp.hop_ranks, inp.two_opt_from)?;
    let per_topology = plan.collectives.len() * plan.messages.len() * plan.mappings.len();
    let bar = Progress::new(
        "simulate",
        (per_topology * inp.nets.len()) as u64,
        inp.progress,
    );
    let mut rows = Vec::new();
    let mut reproduce = None;
    for (ti, (t, owned)) in inp.topologies.iter().zip(inp.nets).enumerate() {
        let runs = plan_runs(inp, &plan, ti)
            .with_context(|| format!("simulated makespans on `{}`", t.label))?;
        let opts = route_options(t, owned)?;
        let mut done = simulate_topology(owned, &opts, &plan, &runs, &bar)
            .with_context(|| format!("simulated makespans on `{}`", t.label))?;
        for r in &mut done {
            r.topology = t.label.clone();
        }
        if reproduce.is_none() {
            reproduce = command(inp, t, opts.algo, plan.nic, &done);
        }
        rows.extend(done);
    }
    bar.finish();
    let verdicts = verdicts(inp, &plan, &rows);
    let mapping_comparison = super::mapping_comparison::compare(inp, &plan, &rows);
    Ok(Makespans {
        ranks: inp.sim.ranks,
        scale: plan.scale,
        nic: plan.nic,
        rows,
        verdicts,
        mapping_comparison,
        reproduce,
    })
}

/// The `jumpnet sim` command of the first baseline-mapping cell of `rows` at its largest
/// message size on topology `t`, with the cell's makespan.
fn command(
    inp: &Inputs<'_>,
    t: &ScenarioTopology,
    algo: RouteAlgo,
    nic: NicModel,
    rows: &[MakespanRow],
) -> Option<(String, f64)> {
    let largest = rows.iter().map(|r| r.message_bytes).max()?;
    let r = rows
        .iter()
        .find(|r| r.message_bytes == largest && !r.mapping.starts_with("two-opt"))?;
    let sc = &inp.sim;
    Some((
        format!(
            "jumpnet sim {} --algo {} --max-layers {MAX_LAYERS} --collective {} --ranks {} --mapping {} --map-seed {} --msg {} --link-gbps {} --switch-ns {} --max-message-flits {} --min-flit-bytes {} --nic {}",
            t.spec,
            algo.name(),
            r.collective,
            sc.ranks,
            r.mapping,
            inp.seed,
            r.message_bytes,
            sc.link_gbps,
            sc.switch_latency_ns,
            sc.max_message_flits,
            sc.min_flit_bytes,
            nic.name()
        ),
        r.makespan_us,
    ))
}

/// The runs of topology `ti` with their placements, in (collective, message, mapping) order.
fn plan_runs(inp: &Inputs<'_>, plan: &Plan, ti: usize) -> Result<Vec<Run>> {
    let net = inp.nets[ti].network();
    let of = terminals_of_switches(&net)?;
    let ranks = inp.sim.ranks;
    let mut runs = Vec::new();
    for &c in &plan.collectives {
        let mut placements = Vec::new();
        for &m in &plan.mappings {
            let nodes = match m {
                SimMapping::Base(s) => {
                    placement::initial(&net, s, RankOrderChoice::Paper, ranks, inp.seed)?
                }
                SimMapping::TwoOpt => inp
                    .two_opt
                    .get(ti, &c.name(), ranks)
                    .ok_or_else(|| {
                        anyhow!("no two-opt placement of {} for {ranks} ranks", c.name())
                    })?
                    .to_vec(),
                SimMapping::TwoOptFrom(s) => inp
                    .two_opt
                    .get_from(ti, &c.name(), ranks, s)
                    .ok_or_else(|| {
                        anyhow!(
                            "no two-opt placement of {} for {ranks} ranks from {}",
                            c.name(),
                            s.name()
                        )
                    })?
                    .to_vec(),
            };
            let terminals = nodes
                .iter()
                .map(|&s| {
                    of.get(s as usize)
                        .copied()
                        .ok_or_else(|| anyhow!("node {s} has no terminal"))
                })
                .collect::<Result<Vec<u32>>>()?;
            placements.push((m, terminals));
        }
        for &message in &plan.messages {
            for (m, terminals) in &placements {
                runs.push(Run {
                    collective: c,
                    message,
                    mapping: *m,
                    terminals: terminals.clone(),
                });
            }
        }
    }
    Ok(runs)
}

/// Runs `runs` on one topology on every core, sharing one routing; the rows come back in
/// the order of `runs`.
fn simulate_topology(
    owned: &OwnedNetwork,
    opts: &RouteOptions,
    plan: &Plan,
    runs: &[Run],
    bar: &Progress,
) -> Result<Vec<MakespanRow>> {
    let net = owned.network();
    let mut store = RouteStore::default();
    let (routing, info) = routing::build(&net, opts, &mut store)?;
    runs.par_iter()
        .map(|run| {
            let row = simulate_run(&net, routing.as_ref(), &info.algorithm, info.vcs, plan, run)
                .with_context(|| {
                    format!(
                        "{} of {} bytes under the {} mapping",
                        run.collective.name(),
                        run.message,
                        run.mapping.name()
                    )
                })?;
            bar.inc(1);
            Ok(row)
        })
        .collect()
}

/// One run: the schedule with its message size, the time scale of its largest message, the
/// `booksim` router with that pipeline, and the collective on the simulator.
fn simulate_run(
    net: &jumpnet_core::topology::Network<'_>,
    routing: &dyn jumpnet_core::routing::Routing,
    routing_name: &str,
    routing_vcs: u8,
    plan: &Plan,
    run: &Run,
) -> Result<MakespanRow> {
    let req = CollectiveRequest {
        algorithm: run.collective,
        ranks: Some(run.terminals.len() as u32),
        root: 0,
        bytes: run.message,
        elem_bytes: 4,
        placement: JobPlacement::Consecutive,
        seed: 0,
    };
    let sched = schedule::build(&req, None)?;
    let s = sched.schedule()?;
    let mut largest = 0u64;
    s.for_each_message(|m| largest = largest.max(m.bytes));
    let scale = &plan.scale;
    let timing = scale.timing(largest).map_err(|e| anyhow!(e))?;
    let mut cfg = SimConfig::booksim();
    timing.configure(&mut cfg);
    cfg.num_vcs = cfg.num_vcs.max(routing_vcs);
    // The NIC as `jumpnet sim --collective --nic … --switch-ns` sets it up.
    let mut opts = CollectiveOptions {
        link_gbps: scale.link_gbps,
        time_scale: Some(*scale),
        ..CollectiveOptions::default()
    };
    plan.nic.defaults().apply(&mut opts);
    let nic = nic_config(&opts, Some(&timing), &mut cfg, sched.allow_redundant)?;
    let r =
        run_collective(net, routing, &cfg, &nic, &s, &run.terminals).map_err(|e| anyhow!("{e}"))?;
    let load = step_contention(net, routing, &s, &run.terminals)?;
    Ok(MakespanRow {
        topology: String::new(),
        routing: routing_name.to_string(),
        collective: run.collective.name(),
        message_bytes: run.message,
        mapping: run.mapping.name(),
        makespan_cycles: r.makespan_cycles,
        makespan_us: r.makespan_cycles as f64 * timing.cycle_ns / 1e3,
        flit_bytes: timing.flit_bytes,
        cycle_ns: timing.cycle_ns,
        hop_cycles: timing.hop_cycles,
        messages: r.messages,
        flits: r.flits,
        routed_hops: load.total_hops,
        contention: load.contention,
    })
}
