//! Byte totals of a schedule, checked: a message size or a sum of them that does not fit in
//! 64 bits is an error, never a wrapped or saturated number (docs/collectives.md §1: every
//! message carries `DataLayout::bytes` of its blocks).

use super::{Schedule, ScheduleError};
use crate::error::InvalidParam;

/// Per-rank buffer size and the bytes of all messages of `schedule`, both exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteTotals {
    /// Bytes of one rank's whole buffer ([`super::DataLayout::total_bytes`]).
    pub buffer: u64,
    /// Sum of the payload bytes of every message.
    pub messages: u64,
}

/// The [`ByteTotals`] of `schedule` (one pass over its messages).
///
/// Errors with [`ScheduleError::Invalid`] (`param: "bytes"`) when one rank's buffer (blocks ×
/// bytes per block, or elements × element size) or the sum over all messages reaches
/// `2^64` bytes.
pub fn byte_totals<S: Schedule>(schedule: &S) -> Result<ByteTotals, ScheduleError> {
    let layout = schedule.layout();
    let buffer = layout
        .total_bytes()
        .ok_or(ScheduleError::Invalid(InvalidParam {
            param: "bytes",
            value: layout.bytes(super::Blocks::Single(0)),
            rule: "one rank's data (blocks × bytes per block) must stay below 2^64 bytes",
        }))?;
    let mut messages = Some(0u64);
    schedule.for_each_message(|m| messages = messages.and_then(|t| t.checked_add(m.bytes)));
    let messages = messages.ok_or(ScheduleError::Invalid(InvalidParam {
        param: "bytes",
        value: buffer,
        rule: "the bytes of all messages together must stay below 2^64",
    }))?;
    Ok(ByteTotals { buffer, messages })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::collective::{Binomial, Bruck, RingAllreduce};

    #[test]
    fn exact_totals_of_small_schedules() {
        // Bruck over 8 ranks, 4-byte blocks: 3 steps of 4 blocks per rank (spec §3).
        let b = Bruck::new(8, 4).unwrap();
        assert_eq!(
            byte_totals(&b).unwrap(),
            ByteTotals {
                buffer: 32,
                messages: 8 * 3 * 16
            }
        );
        // Binomial broadcast of 100 bytes over 5 ranks: 4 messages of the whole buffer.
        let t = byte_totals(&Binomial::new(5, 0, 100).unwrap()).unwrap();
        assert_eq!(
            t,
            ByteTotals {
                buffer: 100,
                messages: 400
            }
        );
    }

    #[test]
    fn sizes_beyond_64_bits_are_errors_not_wrapped() {
        // 2^62-byte blocks: a Bruck message of n/2 = 4 blocks would be 2^64.
        let b = Bruck::new(8, 1 << 62).unwrap();
        assert!(matches!(
            byte_totals(&b),
            Err(ScheduleError::Invalid(InvalidParam { param: "bytes", .. }))
        ));
        // No message size wraps to a small number.
        b.for_each_message(|m| assert!(m.bytes >= 1 << 62));
        // Ring allreduce of 2^63 one-byte elements over 3 ranks: the buffer fits, but the
        // 2(n − 1) messages per rank add up past 2^64.
        let r = RingAllreduce::new(3, 1 << 63, 1).unwrap();
        assert!(matches!(
            byte_totals(&r),
            Err(ScheduleError::Invalid(InvalidParam { param: "bytes", .. }))
        ));
        // Elements × element size beyond 2^64.
        let r = RingAllreduce::new(3, 1 << 62, 8).unwrap();
        assert!(matches!(
            byte_totals(&r),
            Err(ScheduleError::Invalid(InvalidParam { param: "bytes", .. }))
        ));
    }
}
