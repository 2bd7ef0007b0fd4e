//! Communication demands for PARX (docs/routing.md §7; \[HX\] §3.2.2–3.2.3): per ordered
//! terminal pair, a weight `0..=255` that replaces DFSSSP's "+1 per path" in the channel
//! weight updates.

use crate::error::InvalidParam;
use crate::topology::TerminalId;

use crate::routing::error::RoutingError;

/// Demand of terminal `src` toward terminal `dst`: weight added to every channel of the
/// path from `src` to each LID of `dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Demand {
    /// Sending terminal.
    pub src: TerminalId,
    /// Receiving terminal.
    pub dst: TerminalId,
    /// Normalised demand `0..=255` (see [`normalise_demand`]).
    pub weight: u8,
}

/// Maps a byte count to the demand scale `0..=255` (docs/routing.md §7, project choice):
/// `0` for no traffic, else `ceil(255 · bytes / max_bytes)`, at most 255 (also when
/// `bytes > max_bytes`). Exact integer arithmetic.
pub fn normalise_demand(bytes: u64, max_bytes: u64) -> u8 {
    if bytes == 0 || max_bytes == 0 {
        return 0;
    }
    let scaled = (255u128 * bytes as u128).div_ceil(max_bytes as u128);
    scaled.min(255) as u8
}

/// Sorts demands into the order PARX requires (ascending destination, then source).
pub fn sort_demands(demands: &mut [Demand]) {
    demands.sort_unstable_by_key(|d| (d.dst, d.src));
}

/// A validated demand list: ascending (destination, source), no duplicate pair, terminals
/// in range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DemandList<'d> {
    list: &'d [Demand],
}

impl<'d> DemandList<'d> {
    /// Checks `list` against `terminals`.
    pub(crate) fn new(list: &'d [Demand], terminals: u32) -> Result<Self, RoutingError> {
        let mut prev: Option<(TerminalId, TerminalId)> = None;
        for (i, d) in list.iter().enumerate() {
            if d.src >= terminals || d.dst >= terminals {
                return Err(RoutingError::TerminalOutOfRange {
                    terminal: d.src.max(d.dst),
                    terminals,
                });
            }
            let key = (d.dst, d.src);
            if prev.is_some_and(|p| p >= key) {
                return Err(RoutingError::Invalid(InvalidParam {
                    param: "demand index",
                    value: i as u64,
                    rule: "demands must be sorted by (destination, source) without duplicate pairs (see sort_demands)",
                }));
            }
            prev = Some(key);
        }
        Ok(DemandList { list })
    }

    /// The demands toward `dst` (ascending source).
    pub(crate) fn toward(&self, dst: TerminalId) -> &'d [Demand] {
        let lo = self.list.partition_point(|d| d.dst < dst);
        let hi = self.list.partition_point(|d| d.dst <= dst);
        self.list.get(lo..hi).unwrap_or(&[])
    }

    /// Whether `dst` is listed as a destination ("n_d ∈ D" of Algorithm 1).
    pub(crate) fn lists(&self, dst: TerminalId) -> bool {
        !self.toward(dst).is_empty()
    }
}
