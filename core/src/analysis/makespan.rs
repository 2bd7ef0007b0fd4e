//! The link-count makespan model of [DF-BC] §IV-B (docs/collectives.md §6,
//! docs/routing.md §8).
//!
//! * A send lasts as many time units as links it crosses, terminal links included
//!   (terminal→router→router→terminal = 3; two ranks on one terminal: 0).
//! * A sender waits for the arrival of its send before it starts its next send.
//! * A rank forwards only what it has received: a send of step `s` starts no earlier than
//!   the arrival of every message the rank receives in steps before `s`.
//! * Receiving is free and unlimited; the makespan is the last arrival.
//!
//! The dependency rule is the rank programs' own: every program of
//! [`crate::collective`] (binomial, recursive doubling, Bruck, ring, the list schedules of
//! the Dragonfly algorithms) lets a send of step `s` run after all of the rank's earlier
//! operations, i.e. after its receives of steps `< s`, and never waits for a receive of
//! its own step (MPICH `sendrecv`). Messages are processed in the schedule's ascending step
//! order, so one pass suffices: O(messages) time, one [`RankClock`] per rank.

use crate::collective::{Message, Schedule};
use crate::error::CapacityError;
use crate::routing::Routing;
use crate::topology::{TerminalId, Topology};

use super::error::AnalysisError;
use super::route::{check_placement, route_message, try_for_each_message, RoutedNetwork};

/// Per-rank state of the makespan model (caller storage, one entry per rank).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankClock {
    /// Arrival time of the rank's latest send (when it may start the next one).
    free_at: u64,
    /// Latest arrival among the rank's receives of steps before `step`.
    ready_at: u64,
    /// Latest arrival among the rank's receives of step `step`.
    pending: u64,
    /// Step that `pending` belongs to.
    step: u32,
}

impl RankClock {
    /// Moves the clock to step `s`: receives of earlier steps become data the rank holds.
    #[inline]
    fn enter(&mut self, s: u32) {
        if self.step < s {
            self.ready_at = self.ready_at.max(self.pending);
            self.pending = 0;
            self.step = s;
        }
    }

    /// Arrival of the rank's latest send.
    pub fn free_at(&self) -> u64 {
        self.free_at
    }

    /// Latest arrival of a message to this rank.
    pub fn last_arrival(&self) -> u64 {
        self.ready_at.max(self.pending)
    }
}

/// Result of the makespan model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Makespan {
    /// Time of the last arrival, in link-crossing units.
    pub time: u64,
    /// Messages of the schedule.
    pub messages: u64,
    /// Sum of all message durations (links crossed by all messages).
    pub busy: u64,
    /// Receiver of the last arrival (`None` for a schedule without messages).
    pub last_rank: Option<u32>,
}

/// Runs the model with message durations from `duration(message)` (time units, e.g. links
/// crossed as counted by some other model). `clocks` needs one entry per rank and is reset.
pub fn makespan_with<S, F>(
    schedule: &S,
    clocks: &mut [RankClock],
    mut duration: F,
) -> Result<Makespan, AnalysisError>
where
    S: Schedule + ?Sized,
    F: FnMut(&Message) -> Result<u64, AnalysisError>,
{
    let n = schedule.ranks();
    CapacityError::check("rank clocks (one per rank)", n as u64, clocks.len())?;
    let clocks = &mut clocks[..n as usize];
    clocks.fill(RankClock::default());
    let mut out = Makespan::default();
    try_for_each_message(schedule, |m| {
        let cost = duration(m)?;
        let src = clocks
            .get_mut(m.src as usize)
            .ok_or(AnalysisError::RankOutOfRange {
                rank: m.src,
                ranks: n,
            })?;
        src.enter(m.step);
        let arrival = src.free_at.max(src.ready_at) + cost;
        src.free_at = arrival;
        let dst = clocks
            .get_mut(m.dst as usize)
            .ok_or(AnalysisError::RankOutOfRange {
                rank: m.dst,
                ranks: n,
            })?;
        dst.enter(m.step);
        dst.pending = dst.pending.max(arrival);
        out.messages += 1;
        out.busy += cost;
        if arrival >= out.time {
            out.time = arrival;
            out.last_rank = Some(m.dst);
        }
        Ok(())
    })?;
    Ok(out)
}

/// Runs the model on a routed network: each message lasts [`super::RoutedMessage::links`]
/// units (router hops of its route plus 2 terminal links when its terminals differ), with
/// ranks on the terminals `placement[rank]` (exactly one entry per rank).
pub fn makespan<T, R, S>(
    net: &RoutedNetwork<'_, T, R>,
    schedule: &S,
    placement: &[TerminalId],
    clocks: &mut [RankClock],
) -> Result<Makespan, AnalysisError>
where
    T: Topology,
    R: Routing + ?Sized,
    S: Schedule + ?Sized,
{
    check_placement(placement, schedule.ranks())?;
    makespan_with(schedule, clocks, |m| {
        route_message(net, placement, m, |_| {}).map(|r| r.links() as u64)
    })
}
