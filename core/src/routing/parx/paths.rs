//! PARX path computation (spec/routing.md §7, Algorithm 1): for every destination terminal
//! and each of its 4 LIDs, DFSSSP's modified Dijkstra on the HyperX minus the links that rule
//! R1–R4 removes for that LID, followed by a channel-weight update.

use crate::topology::{HyperX, PortIndex, Topology};

use super::super::dfsssp::paths::{
    count_terminals, init_weights, max_weight, route_destination, split_scratch, split_trees,
    DestOut,
};
use super::super::dfsssp::DfssspConfig;
use super::super::error::RoutingError;
use super::super::terminal_location;
use super::demand::DemandList;
use super::quadrant::{Quadrants, LIDS};

/// Computes the next hops of every virtual destination `d · 4 + lid` into `next_port`
/// (`[(d · 4 + lid) · n + x]`) and its path tree into `tree`. Destinations listed in the
/// demands come first (ascending) and add, per path, the demand of the source terminals;
/// the others follow (ascending) and add +1 per source terminal. Returns the largest final
/// channel weight.
#[allow(clippy::too_many_arguments)]
pub(crate) fn compute(
    hx: &HyperX,
    geo: &Quadrants,
    config: &DfssspConfig,
    demands: &DemandList<'_>,
    weights: &mut [u64],
    dist: &mut [u64],
    scratch: &mut [u32],
    next_port: &mut [PortIndex],
    tree: &mut [u32],
) -> Result<u64, RoutingError> {
    let n = hx.num_switches() as usize;
    let nt = hx.num_terminals() as usize;
    let lids = LIDS as usize;
    let base = init_weights(hx, config, weights);
    let mut sc = split_scratch(scratch, n);
    count_terminals(hx, sc.terms)?;
    let trees = split_trees(tree, nt * lids * n);
    for listed_pass in [true, false] {
        for d in 0..nt as u32 {
            let listed = demands.lists(d);
            if listed != listed_pass {
                continue;
            }
            let (t, tport) = terminal_location(hx, d)?;
            for lid in 0..LIDS {
                if listed {
                    sc.acc.fill(0);
                    for dem in demands.toward(d) {
                        let (s, _) = terminal_location(hx, dem.src)?;
                        if let Some(a) = sc.acc.get_mut(s as usize) {
                            *a = a.saturating_add(dem.weight as u32);
                        }
                    }
                } else {
                    sc.acc.copy_from_slice(sc.terms);
                }
                let vd = d as usize * lids + lid as usize;
                let rows = vd * n..(vd + 1) * n;
                let keep = |u, _: PortIndex, v| !geo.removed(lid, u, v);
                route_destination(
                    hx,
                    &keep,
                    t,
                    tport,
                    weights,
                    dist,
                    &mut sc,
                    DestOut {
                        row: &mut next_port[rows.clone()],
                        pre: &mut trees.pre[rows.clone()],
                        pos: &mut trees.pos[rows.clone()],
                        size: &mut trees.size[rows],
                    },
                )?;
            }
        }
    }
    Ok(max_weight(hx, weights, base))
}
