//! Rank-space messages of a schedule (docs/collectives.md, preamble).

use super::blocks::Blocks;
use serde::{Deserialize, Serialize};

/// A communicator rank, `0..n`.
pub type Rank = u32;

/// One point-to-point message of a collective schedule.
///
/// Messages of the same `step` may proceed concurrently. `bytes` is the payload size for the
/// message size the schedule was built with (see [`super::DataLayout::bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Message {
    /// Step index, starting at 1.
    pub step: u32,
    /// Sending rank.
    pub src: Rank,
    /// Receiving rank.
    pub dst: Rank,
    /// Which blocks travel.
    pub blocks: Blocks,
    /// Payload size in bytes.
    pub bytes: u64,
}
