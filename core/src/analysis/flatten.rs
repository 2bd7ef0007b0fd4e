//! Flattening a collective schedule into the rank-space traffic of the mapping optimisers
//! (docs/mapping.md §2–§3: objectives score `Σ` over the messages of the collective).

use crate::collective::Schedule;
use crate::error::CapacityError;
use crate::mapping;

use super::error::AnalysisError;
use super::route::try_for_each_message;

/// Writes every message of `schedule` as a [`mapping::Message`] `(step, src_rank,
/// dst_rank)` into `out` (at least [`Schedule::num_messages`] entries), in the schedule's
/// ascending step order; returns the number written.
pub fn flatten<S: Schedule + ?Sized>(
    schedule: &S,
    out: &mut [mapping::Message],
) -> Result<usize, AnalysisError> {
    CapacityError::check("flattened messages", schedule.num_messages(), out.len())?;
    let mut len = 0usize;
    try_for_each_message(schedule, |m| {
        let available = out.len() as u64;
        let slot = out
            .get_mut(len)
            .ok_or(AnalysisError::Capacity(CapacityError {
                what: "flattened messages",
                needed: len as u64 + 1,
                available,
            }))?;
        *slot = mapping::Message {
            step: m.step,
            src_rank: m.src,
            dst_rank: m.dst,
        };
        len += 1;
        Ok(())
    })?;
    Ok(len)
}
