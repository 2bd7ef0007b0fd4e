//! PARX path computation (docs/routing.md §7, Algorithm 1): for every destination terminal
//! and each of its 4 LIDs, DFSSSP's modified Dijkstra on the HyperX minus the links that rule
//! R1–R4 removes for that LID, followed by a channel-weight update.

use crate::topology::{HyperX, PortIndex, Topology};

use super::demand::DemandList;
use super::quadrant::{Quadrants, LIDS};
use crate::routing::dfsssp::paths::{
    count_terminals, init_weights, max_weight, route_destination, DestOut, PathBuffers,
};
use crate::routing::dfsssp::DfssspConfig;
use crate::routing::error::RoutingError;
use crate::routing::terminal_location;

/// Computes the next hops of every virtual destination `d · 4 + lid` into `next_port`
/// (`[(d · 4 + lid) · n + x]`) and its path tree into `tree`. Destinations listed in the
/// demands come first (ascending) and add, per path, the demand of the source terminals;
/// the others follow (ascending) and add +1 per source terminal. Returns the largest final
/// channel weight.
pub(crate) fn compute(
    hx: &HyperX,
    geo: &Quadrants,
    config: &DfssspConfig,
    demands: &DemandList<'_>,
    bufs: PathBuffers<'_>,
) -> Result<u64, RoutingError> {
    let n = hx.num_switches() as usize;
    let nt = hx.num_terminals() as usize;
    let lids = LIDS as usize;
    let (mut work, next_port, trees) = bufs.split(n, nt * lids * n);
    let base = init_weights(hx, config, work.weights);
    count_terminals(hx, work.sc.terms)?;
    for listed_pass in [true, false] {
        for d in 0..nt as u32 {
            let listed = demands.lists(d);
            if listed != listed_pass {
                continue;
            }
            let (t, tport) = terminal_location(hx, d)?;
            for lid in 0..LIDS {
                if listed {
                    work.sc.acc.fill(0);
                    for dem in demands.toward(d) {
                        let (s, _) = terminal_location(hx, dem.src)?;
                        if let Some(a) = work.sc.acc.get_mut(s as usize) {
                            *a = a.saturating_add(dem.weight as u32);
                        }
                    }
                } else {
                    work.sc.acc.copy_from_slice(work.sc.terms);
                }
                let vd = d as usize * lids + lid as usize;
                let rows = vd * n..(vd + 1) * n;
                let keep = |u, _: PortIndex, v| !geo.removed(lid, u, v);
                route_destination(
                    hx,
                    &keep,
                    (t, tport),
                    &mut work,
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
    Ok(max_weight(hx, work.weights, base))
}
