//! Channel contention of a placed schedule (docs/mapping.md §2): every message routed hop
//! by hop, the messages of each step counted per directed channel, and per step the
//! busiest channel's count. For bandwidth-bound messages a step lasts about as long as its
//! busiest channel needs, so the sum over the steps is a lower bound of the makespan in
//! message times — a measure two-opt's hop objective does not see.

use std::collections::HashMap;

use anyhow::{anyhow, Result};
use jumpnet_core::collective::Schedule;
use jumpnet_core::routing::paths::walk::walk;
use jumpnet_core::routing::{default_hop_limit, Routing};
use jumpnet_core::topology::Network;
use serde::Serialize;

/// Hops and contention of a placed schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StepContention {
    /// Router-to-router hops of all messages, as routed.
    pub total_hops: u64,
    /// Per step, the most messages on one directed channel (terminal channels included).
    pub max_load_per_step: Vec<u32>,
    /// Sum of `max_load_per_step`.
    pub contention: u64,
}

/// Channels (switch, output port) of the route from terminal `src` to `dst` (core's
/// `paths::walk`), and the terminal channels at both ends as `(u32::MAX, src)` and
/// `(u32::MAX - 1, dst)`; returns the router hops.
pub(crate) fn channels(
    net: &Network<'_>,
    routing: &dyn Routing,
    src: u32,
    dst: u32,
    out: &mut Vec<(u32, u32)>,
) -> Result<u64> {
    out.clear();
    out.push((u32::MAX, src));
    let hops = walk(net, routing, src, dst, default_hop_limit(net), |s| {
        out.push((s.from, u32::from(s.port)))
    })
    .map_err(|e| anyhow!("route {src}→{dst}: {e}"))?;
    out.push((u32::MAX - 1, dst));
    Ok(u64::from(hops))
}

/// Hops and per-step channel contention of `schedule` with rank `r` on `terminals[r]`
/// (module documentation).
pub fn step_contention<S: Schedule>(
    net: &Network<'_>,
    routing: &dyn Routing,
    schedule: &S,
    terminals: &[u32],
) -> Result<StepContention> {
    let steps = schedule.num_steps() as usize;
    let mut loads: Vec<HashMap<(u32, u32), u32>> = vec![HashMap::new(); steps + 1];
    let mut total_hops = 0u64;
    let mut path = Vec::new();
    let mut failure = None;
    schedule.for_each_message(|m| {
        if failure.is_some() {
            return;
        }
        let (Some(&s), Some(&d)) = (terminals.get(m.src as usize), terminals.get(m.dst as usize))
        else {
            failure = Some(anyhow!(
                "message {}→{} has a rank without a terminal",
                m.src,
                m.dst
            ));
            return;
        };
        match channels(net, routing, s, d, &mut path) {
            Ok(h) => {
                total_hops += h;
                let step = (m.step as usize).min(steps);
                for c in &path {
                    *loads[step].entry(*c).or_insert(0) += 1;
                }
            }
            Err(e) => failure = Some(e),
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let max_load_per_step: Vec<u32> = loads
        .iter()
        .skip(1)
        .map(|l| l.values().copied().max().unwrap_or(0))
        .collect();
    Ok(StepContention {
        total_hops,
        contention: max_load_per_step.iter().map(|&x| u64::from(x)).sum(),
        max_load_per_step,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use jumpnet_core::collective::Binomial;
    use jumpnet_core::routing::{TorusDor, TorusVcs};
    use jumpnet_core::topology::Torus;

    /// A 4-rank binomial broadcast on a ring of 8: step 1 root → rank 2, step 2 root → rank
    /// 1 and rank 2 → rank 3. With ranks on 0, 1, 2, 3 every channel carries one message per
    /// step; with rank 3 on terminal 4 and rank 1 on terminal 3, step 2's messages 0 → 3
    /// and 2 → 4 share the channel 2 → 3.
    #[test]
    fn shared_channels_are_counted_per_step() {
        let ring = Torus::torus(&[8], 1).unwrap();
        let dor = TorusDor::new(&ring, TorusVcs::Dateline).unwrap();
        let net = Network::Torus(ring.clone());
        let b = Binomial::new(4, 0, 64).unwrap();
        let c = step_contention(&net, &dor, &b, &[0, 1, 2, 3]).unwrap();
        assert_eq!(c.max_load_per_step, [1, 1]);
        assert_eq!((c.total_hops, c.contention), (4, 2));
        let c = step_contention(&net, &dor, &b, &[0, 3, 2, 4]).unwrap();
        assert_eq!(c.max_load_per_step, [1, 2]);
        assert_eq!((c.total_hops, c.contention), (7, 3));
    }
}
