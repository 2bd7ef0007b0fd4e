//! The input of a collective run ([`super::collective`]): the network, routing, router and
//! NIC parameters, schedule and placement, and the check of the placement.

use jumpnet_core::collective::Schedule;
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::{Network, Topology};

use crate::sim::config::SimConfig;
use crate::sim::workload::collective_result::{CollectiveError, NicConfig};

/// A collective run: the network, its routing and router parameters, the NICs, the
/// schedule and the terminal of every rank (rank `r` on terminal `terminals[r]`); the
/// configuration's traffic settings are ignored and its `packet_size` is the packet length
/// in flits.
pub struct CollectiveInput<'a, S> {
    /// The network.
    pub net: &'a Network<'a>,
    /// Its routing.
    pub routing: &'a dyn Routing,
    /// Router and channel parameters.
    pub config: &'a SimConfig,
    /// NIC parameters.
    pub nic: &'a NicConfig,
    /// The collective's schedule.
    pub schedule: &'a S,
    /// The terminal of every rank (distinct).
    pub terminals: &'a [u32],
}

impl<S> Clone for CollectiveInput<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for CollectiveInput<'_, S> {}

impl<S> std::fmt::Debug for CollectiveInput<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CollectiveInput")
            .field("config", self.config)
            .field("nic", self.nic)
            .field("terminals", &self.terminals)
            .finish_non_exhaustive()
    }
}

/// Checks that the ranks' terminals are as many as the ranks, distinct and in the network;
/// returns which terminals the collective uses.
pub(crate) fn placement<S: Schedule>(
    run: &CollectiveInput<'_, S>,
) -> Result<Vec<bool>, CollectiveError> {
    let n = run.schedule.ranks();
    if run.terminals.len() != n as usize {
        return Err(CollectiveError::Config(format!(
            "{} terminals given for {n} ranks",
            run.terminals.len()
        )));
    }
    let nterm = run.net.num_terminals();
    let mut used = vec![false; nterm as usize];
    for (r, &t) in run.terminals.iter().enumerate() {
        if t >= nterm || std::mem::replace(&mut used[t as usize], true) {
            return Err(CollectiveError::Config(format!(
                "rank {r} on terminal {t}: terminals must be distinct and below {nterm}"
            )));
        }
    }
    Ok(used)
}
