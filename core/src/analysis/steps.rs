//! Hop totals of a schedule, overall and per step (docs/mapping.md §2 "total hops";
//! \[DISS\] Tables 3.1/3.2 list hops per step; docs/routing.md §8 router-hop convention).
//!
//! [`HopSummary`] is the overall result; [`StepBuffers`] are optional caller buffers that
//! receive per-step values, indexed by step number (the schedules' steps start at 1, so
//! entry 0 stays 0 for them; a buffer needs `num_steps() + 1` entries).

use super::error::AnalysisError;
use crate::error::CapacityError;

/// Totals over all messages of a schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HopSummary {
    /// Messages of the schedule.
    pub messages: u64,
    /// Messages whose endpoints differ (distinct terminals, or distinct nodes for the
    /// distance-oracle analysis); the others never enter the network.
    pub network_messages: u64,
    /// Sum of router hops over all messages (the \[DISS\] total hop count).
    pub total_hops: u64,
    /// Largest router hop count of one message.
    pub max_hops: u32,
    /// Steps of the schedule ([`crate::collective::Schedule::num_steps`]).
    pub steps: u32,
}

/// Optional per-step outputs; entry `s` belongs to step `s`. Each given buffer needs at
/// least `num_steps() + 1` entries and is zeroed before use.
#[derive(Debug, Default)]
pub struct StepBuffers<'a> {
    /// Router hops summed over the messages of each step.
    pub hops: Option<&'a mut [u64]>,
    /// Largest router hop count of one message of each step.
    pub max_hops: Option<&'a mut [u32]>,
    /// Number of messages of each step.
    pub messages: Option<&'a mut [u64]>,
}

/// Accumulates a [`HopSummary`] and the per-step buffers.
#[derive(Debug)]
pub(crate) struct HopTally<'a> {
    pub summary: HopSummary,
    steps: StepBuffers<'a>,
}

impl<'a> HopTally<'a> {
    /// A tally for a schedule of `num_steps` steps; checks and zeroes the buffers.
    pub fn new(num_steps: u32, mut steps: StepBuffers<'a>) -> Result<Self, AnalysisError> {
        let needed = num_steps as u64 + 1;
        if let Some(b) = steps.hops.as_deref_mut() {
            CapacityError::check("per-step hops (num_steps + 1)", needed, b.len())?;
            b.fill(0);
        }
        if let Some(b) = steps.max_hops.as_deref_mut() {
            CapacityError::check("per-step largest hops (num_steps + 1)", needed, b.len())?;
            b.fill(0);
        }
        if let Some(b) = steps.messages.as_deref_mut() {
            CapacityError::check("per-step messages (num_steps + 1)", needed, b.len())?;
            b.fill(0);
        }
        Ok(HopTally {
            summary: HopSummary {
                steps: num_steps,
                ..HopSummary::default()
            },
            steps,
        })
    }

    /// Records one message of `step` with `hops` router hops; `network` tells whether its
    /// endpoints differ.
    pub fn record(&mut self, step: u32, hops: u32, network: bool) -> Result<(), AnalysisError> {
        let s = &mut self.summary;
        s.messages += 1;
        s.network_messages += network as u64;
        s.total_hops += hops as u64;
        s.max_hops = s.max_hops.max(hops);
        let i = step as usize;
        let needed = step as u64 + 1;
        if let Some(b) = self.steps.hops.as_deref_mut() {
            let len = b.len();
            *b.get_mut(i).ok_or(capacity("per-step hops", needed, len))? += hops as u64;
        }
        if let Some(b) = self.steps.max_hops.as_deref_mut() {
            let len = b.len();
            let slot = b
                .get_mut(i)
                .ok_or(capacity("per-step largest hops", needed, len))?;
            *slot = (*slot).max(hops);
        }
        if let Some(b) = self.steps.messages.as_deref_mut() {
            let len = b.len();
            *b.get_mut(i)
                .ok_or(capacity("per-step messages", needed, len))? += 1;
        }
        Ok(())
    }
}

fn capacity(what: &'static str, needed: u64, available: usize) -> AnalysisError {
    AnalysisError::Capacity(CapacityError {
        what,
        needed,
        available: available as u64,
    })
}
