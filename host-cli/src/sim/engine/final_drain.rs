//! BookSim2's end of a run (`TrafficManager::Run` after `_SingleSim`; docs/booksim.md §5),
//! for `jumpnet sim --booksim` runs that ended normally: no packet is created any more; a
//! terminal keeps the packet it is sending, or else the first one waiting, per traffic class
//! (BookSim2 creates a source's packets one at a time as they fall due, so that is all it
//! holds; the rest of jumpnet's source queue is dropped); the network runs until those
//! packets are delivered and then until every credit has come back. BookSim2's
//! `Time taken is … cycles` is the cycle this ends (`SimResult::cycles`), and its flit
//! latency samples the flits delivered meanwhile, its packet latency the measured packets
//! among them (a throughput-mode run's).

use crate::sim::engine::stats::DeadlockReport;
use crate::sim::engine::{SimError, State};
use crate::sim::network::terminal::Pending;

impl State<'_> {
    /// Runs BookSim2's final drain; the watchdog's report if the network stopped moving.
    pub(crate) fn final_drain(&mut self) -> Result<Option<DeadlockReport>, SimError> {
        self.generating = false;
        let mut dropped = 0;
        for t in &mut self.terms {
            dropped += keep_first(t.current.is_some(), &mut t.queue);
        }
        if let Some(cl) = self.classes.as_deref_mut() {
            dropped += cl.keep_first();
        }
        self.measured_outstanding -= dropped;
        while self.in_network > 0 || self.sources_busy() {
            self.cycle()?;
            // The watchdog, also for a terminal that holds a packet it can never send.
            if self.now - self.last_progress >= u64::from(self.cfg.watchdog_cycles) {
                return Ok(Some(self.deadlock_report()));
            }
        }
        // Credits still on their way back (nothing else is left on the wheel).
        while self.wheel.pending > 0 {
            self.cycle()?;
        }
        Ok(None)
    }

    /// Whether a terminal still holds a packet.
    fn sources_busy(&self) -> bool {
        self.terms
            .iter()
            .any(|t| t.current.is_some() || !t.queue.is_empty())
            || self.classes.as_deref().is_some_and(|cl| cl.busy())
    }
}

/// Drops the packets of a source queue BookSim2 would not have created yet: all when the
/// terminal is sending one or has chosen none (`none`), else all but the first. Returns how
/// many of the dropped ones were measured.
pub(super) fn keep_first(none: bool, queue: &mut std::collections::VecDeque<Pending>) -> u64 {
    let keep = usize::from(!none).min(queue.len());
    queue.drain(keep..).map(|p| u64::from(p.measured)).sum()
}
