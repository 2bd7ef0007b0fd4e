//! Hop and link analysis of a schedule on a routed network: router hops (total, per step,
//! largest per step), messages per directed channel and link traversals per
//! [`crate::topology::LinkClass`] (docs/routing.md §8, docs/collectives.md §6 [DF-BC]
//! §III-E, docs/mapping.md §2).

use crate::collective::Schedule;
use crate::error::CapacityError;
use crate::routing::deadlock::channel::{channel_index, num_channels};
use crate::routing::Routing;
use crate::topology::{LinkClass, TerminalId, Topology};

use super::error::AnalysisError;
use super::link_totals::LinkTotals;
use super::route::{for_each_routed_message, RoutedNetwork};
use super::steps::{HopSummary, HopTally, StepBuffers};

/// Result of [`analyse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Messages and router hops.
    pub hops: HopSummary,
    /// Link traversals by class; `links.router_links() == hops.total_hops`.
    pub links: LinkTotals,
}

/// Optional caller buffers of [`analyse`].
#[derive(Debug, Default)]
pub struct Outputs<'a> {
    /// Per-step hops, largest hops and messages.
    pub steps: StepBuffers<'a>,
    /// Messages per directed channel (VCs merged), dense index
    /// [`channel_index`]`(radix, switch, port)` of the channel leaving `switch` on `port`;
    /// needs [`num_channels`] entries (`switches · radix`) and is zeroed first. Summarise it
    /// with [`crate::routing::paths::stats::load_summary`] or
    /// [`crate::routing::paths::stats::load_by_class`].
    pub channel_loads: Option<&'a mut [u64]>,
}

/// Routes every message of `schedule` with ranks on the terminals `placement[rank]` and
/// counts router hops, per-step values, channel loads and link classes.
///
/// Terminal links: 2 per message whose terminals differ, 0 otherwise (see
/// [`super::link_totals`]). Router hops are switch-to-switch channels (\[DISS\]).
pub fn analyse<T, R, S>(
    net: &RoutedNetwork<'_, T, R>,
    schedule: &S,
    placement: &[TerminalId],
    out: Outputs<'_>,
) -> Result<Analysis, AnalysisError>
where
    T: Topology,
    R: Routing + ?Sized,
    S: Schedule + ?Sized,
{
    let Outputs {
        steps,
        mut channel_loads,
    } = out;
    let mut tally = HopTally::new(schedule.num_steps(), steps)?;
    let radix = net.topo.radix();
    if let Some(loads) = channel_loads.as_deref_mut() {
        CapacityError::check("channel loads", num_channels(net.topo), loads.len())?;
        loads.fill(0);
    }
    let mut links = LinkTotals::default();
    let mut terminal = 0u64;
    for_each_routed_message(
        net,
        schedule,
        placement,
        |_, hop| {
            links.add(hop.class, 1);
            if let Some(loads) = channel_loads.as_deref_mut() {
                if let Some(l) = loads.get_mut(channel_index(radix, hop.from, hop.port)) {
                    *l += 1;
                }
            }
        },
        |m| {
            terminal += m.terminal_links as u64;
            tally.record(m.message.step, m.hops, m.src != m.dst)
        },
    )?;
    links.add(LinkClass::Terminal, terminal);
    Ok(Analysis {
        hops: tally.summary,
        links,
    })
}
