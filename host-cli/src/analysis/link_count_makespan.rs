//! The makespan of a schedule in link-count units, the model of \[DF-BC\]'s preliminary
//! study (Fig. 2; docs/reference-results.md B3): a send lasts as many time units as the
//! links its message crosses (router hops plus the two terminal links) and its sender waits
//! for the message to arrive before it goes on; a receive waits for its message. No
//! contention, no router behaviour. Each rank runs its program in order; messages between
//! two ranks are matched first in, first out.

use std::collections::{HashMap, VecDeque};

use anyhow::{bail, Result};
use jumpnet_core::collective::{Op, Rank, Schedule};
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use crate::sim::workload::nic_calibration::route_hops;

/// The latest finish time of any rank of `schedule` with rank `r` on `terminals[r]`,
/// in link-count units (module documentation). Errors when a program waits for a message
/// no one sends.
pub fn link_count_makespan<S: Schedule>(
    net: &Network<'_>,
    routing: &dyn Routing,
    schedule: &S,
    terminals: &[u32],
) -> Result<u64> {
    let n = schedule.ranks() as usize;
    if terminals.len() != n {
        bail!("{} terminals for {n} ranks", terminals.len());
    }
    let mut programs = Vec::with_capacity(n);
    for r in 0..n {
        let len = schedule.program_len(r as Rank);
        let mut ops = vec![
            Op::Permute {
                reflect: false,
                shift: 0,
                after: jumpnet_core::collective::Dep::None,
            };
            len
        ];
        let used = schedule.program(r as Rank, &mut ops)?;
        ops.truncate(used);
        programs.push(ops);
    }
    let mut cursor = vec![0usize; n];
    let mut clock = vec![0u64; n];
    let mut inbox: HashMap<(usize, usize), VecDeque<u64>> = HashMap::new();
    let mut waiting: HashMap<(usize, usize), usize> = HashMap::new();
    let mut runnable: Vec<usize> = (0..n).collect();
    while let Some(r) = runnable.pop() {
        while let Some(op) = programs[r].get(cursor[r]) {
            match *op {
                Op::Send { peer, .. } => {
                    let d = peer as usize;
                    if d >= n {
                        bail!("rank {r} sends to rank {d}; ranks are 0..{n}");
                    }
                    let hops = route_hops(net, routing, terminals[r], terminals[d])
                        .map_err(anyhow::Error::msg)?;
                    clock[r] += u64::from(hops) + 2;
                    inbox.entry((r, d)).or_default().push_back(clock[r]);
                    if waiting.remove(&(r, d)).is_some() {
                        runnable.push(d);
                    }
                }
                Op::Recv { peer, .. } | Op::RecvReduce { peer, .. } => {
                    let s = peer as usize;
                    match inbox.get_mut(&(s, r)).and_then(VecDeque::pop_front) {
                        Some(t) => clock[r] = clock[r].max(t),
                        None => {
                            waiting.insert((s, r), r);
                            break;
                        }
                    }
                }
                Op::Permute { .. } => {}
            }
            cursor[r] += 1;
        }
    }
    if let Some(r) = (0..n).find(|&r| cursor[r] < programs[r].len()) {
        bail!(
            "rank {r} waits at op {} for a message no one sends",
            cursor[r]
        );
    }
    Ok(clock.into_iter().max().unwrap_or(0))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use jumpnet_core::collective::Binomial;
    use jumpnet_core::routing::{TorusDor, TorusVcs};
    use jumpnet_core::topology::Torus;

    /// A binomial broadcast over 4 ranks on terminals 0, 1, 2, 3 of a ring of 8: the root
    /// sends to rank 2 (2 hops: 4 units) and then to rank 1 (1 hop: 3 units, done at 7);
    /// rank 2 sends to rank 3 from 4 (1 hop: done at 7). The makespan is 7.
    #[test]
    fn binomial_on_a_ring_by_hand() {
        let ring = Torus::torus(&[8], 1).unwrap();
        let dor = TorusDor::new(&ring, TorusVcs::Dateline).unwrap();
        let net = Network::Torus(ring.clone());
        let b = Binomial::new(4, 0, 64).unwrap();
        assert_eq!(
            link_count_makespan(&net, &dor, &b, &[0, 1, 2, 3]).unwrap(),
            7
        );
        // Rank 1 far away (terminal 4, 4 hops: 6 units): the root finishes at 4 + 6.
        assert_eq!(
            link_count_makespan(&net, &dor, &b, &[0, 4, 2, 3]).unwrap(),
            10
        );
    }
}
