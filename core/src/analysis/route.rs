//! Routing the messages of a schedule hop by hop (docs/routing.md §8 conventions,
//! docs/mapping.md §2 "route every message with the deterministic routing").
//!
//! A [`RoutedNetwork`] is a topology, any [`Routing`] over it and a hop limit.
//! [`for_each_routed_message`] places every rank-space message of a schedule on terminals
//! (`placement[rank]`) and follows its route with [`walk`], reporting every router hop and
//! every delivered message. The same code therefore works with minimal BFS routing,
//! dimension-order routing, Dragonfly minimal or Valiant routing, table routing, …; routing
//! failures (no route, a loop caught by the hop limit, a wrong eject port) come back as
//! [`AnalysisError::Route`] naming the message.
//!
//! Conventions: hops are router hops (switch-to-switch channels, the \[DISS\] convention);
//! a message crosses 2 terminal links when its terminals differ and none when both ranks
//! sit on one terminal, in which case it is not routed at all ([DF-BC] convention,
//! see [`super::LinkTotals`]).

use crate::collective::{Message, Schedule};
use crate::routing::paths::walk::{walk, Step};
use crate::routing::{default_hop_limit, Routing};
use crate::topology::{TerminalId, Topology};

use super::error::AnalysisError;

/// A topology with a routing and the hop limit that turns routing loops into errors.
#[derive(Clone, Copy, Debug)]
pub struct RoutedNetwork<'a, T, R: ?Sized> {
    /// The network.
    pub topo: &'a T,
    /// The routing used for every message.
    pub routing: &'a R,
    /// Largest number of router hops a message may take before the walk fails with
    /// [`crate::routing::RoutingError::HopLimit`].
    pub hop_limit: u32,
}

impl<'a, T: Topology, R: Routing + ?Sized> RoutedNetwork<'a, T, R> {
    /// `routing` over `topo` with the default hop limit (twice the number of switches,
    /// [`default_hop_limit`]).
    pub fn new(topo: &'a T, routing: &'a R) -> Self {
        RoutedNetwork {
            topo,
            routing,
            hop_limit: default_hop_limit(topo),
        }
    }

    /// The same network with hop limit `hop_limit`.
    pub fn with_hop_limit(self, hop_limit: u32) -> Self {
        RoutedNetwork { hop_limit, ..self }
    }
}

/// A schedule message placed on terminals and routed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoutedMessage {
    /// The rank-space message.
    pub message: Message,
    /// Terminal of the sending rank.
    pub src: TerminalId,
    /// Terminal of the receiving rank.
    pub dst: TerminalId,
    /// Router hops of its route (0 when both terminals share a switch or coincide).
    pub hops: u32,
    /// Terminal links crossed: 2 when `src ≠ dst`, else 0.
    pub terminal_links: u32,
}

impl RoutedMessage {
    /// Links crossed in total, terminal links included (the time units of the [DF-BC]
    /// makespan model, docs/collectives.md §6: terminal→router→router→terminal = 3).
    pub fn links(&self) -> u32 {
        self.hops + self.terminal_links
    }
}

/// Terminal (or node) of `rank` in `placement`.
#[inline]
pub(crate) fn placed(placement: &[u32], rank: u32) -> Result<u32, AnalysisError> {
    placement
        .get(rank as usize)
        .copied()
        .ok_or(AnalysisError::RankOutOfRange {
            rank,
            ranks: placement.len() as u32,
        })
}

/// Checks that `placement` has one entry per rank of a `ranks`-rank schedule.
pub(crate) fn check_placement<P>(placement: &[P], ranks: u32) -> Result<(), AnalysisError> {
    if placement.len() != ranks as usize {
        return Err(AnalysisError::Placement {
            ranks,
            entries: placement.len(),
        });
    }
    Ok(())
}

/// Calls `f` for every message of `schedule` (ascending step order), stopping at the first
/// error of `f` and failing with [`AnalysisError::StepOrder`] if the steps ever decrease.
pub(crate) fn try_for_each_message<S, F>(schedule: &S, mut f: F) -> Result<(), AnalysisError>
where
    S: Schedule + ?Sized,
    F: FnMut(&Message) -> Result<(), AnalysisError>,
{
    let mut result = Ok(());
    let mut previous = 0u32;
    schedule.for_each_message(|m| {
        if result.is_err() {
            return;
        }
        if m.step < previous {
            result = Err(AnalysisError::StepOrder {
                step: m.step,
                previous,
            });
            return;
        }
        previous = m.step;
        result = f(&m);
    });
    result
}

/// Routes one message from `placement[m.src]` to `placement[m.dst]`, calling `on_hop` for
/// every router hop.
pub fn route_message<T, R, H>(
    net: &RoutedNetwork<'_, T, R>,
    placement: &[TerminalId],
    m: &Message,
    mut on_hop: H,
) -> Result<RoutedMessage, AnalysisError>
where
    T: Topology,
    R: Routing + ?Sized,
    H: FnMut(&Step),
{
    let src = placed(placement, m.src)?;
    let dst = placed(placement, m.dst)?;
    let (hops, terminal_links) = if src == dst {
        (0, 0)
    } else {
        let hops = walk(net.topo, net.routing, src, dst, net.hop_limit, |s| {
            on_hop(s)
        })
        .map_err(|error| AnalysisError::Route {
            step: m.step,
            src_rank: m.src,
            dst_rank: m.dst,
            error,
        })?;
        (hops, 2)
    };
    Ok(RoutedMessage {
        message: *m,
        src,
        dst,
        hops,
        terminal_links,
    })
}

/// Routes every message of `schedule` with ranks placed on terminals by `placement`
/// (`placement[rank]`, exactly one entry per rank): `on_hop(message, hop)` for every router
/// hop, then `on_message(routed)` once the message is delivered. Messages come in the
/// schedule's ascending step order. Returns the number of messages.
pub fn for_each_routed_message<T, R, S, H, M>(
    net: &RoutedNetwork<'_, T, R>,
    schedule: &S,
    placement: &[TerminalId],
    mut on_hop: H,
    mut on_message: M,
) -> Result<u64, AnalysisError>
where
    T: Topology,
    R: Routing + ?Sized,
    S: Schedule + ?Sized,
    H: FnMut(&Message, &Step),
    M: FnMut(&RoutedMessage) -> Result<(), AnalysisError>,
{
    check_placement(placement, schedule.ranks())?;
    let mut count = 0u64;
    try_for_each_message(schedule, |m| {
        let routed = route_message(net, placement, m, |s| on_hop(m, s))?;
        count += 1;
        on_message(&routed)
    })?;
    Ok(count)
}
