//! Each flit's injection cycle, for BookSim2's flit latency (`f->atime − f->itime`: from the
//! flit's own injection to its ejection; docs/booksim.md §5) without widening the flit: a
//! flit carries its *lag*, the cycles it entered the network after `head injection + seq`
//! (0 when the source sent the packet's flits back to back), in one byte; a flit that lags
//! more than 254 cycles has its exact injection cycle kept aside until it is ejected.

use std::collections::HashMap;

use crate::sim::network::terminal::Packet;
use crate::sim::network::Flit;

/// [`Flit::lag`] of a flit whose injection cycle is kept in [`LateFlits`].
pub(crate) const LATE: u8 = u8::MAX;

/// Injection cycles of the flits that lag [`LATE`] cycles or more, by (packet, position).
#[derive(Debug, Default)]
pub(crate) struct LateFlits(HashMap<(u32, u16), u64>);

impl LateFlits {
    /// The lag byte of flit `seq` of a packet whose head entered at `head`, entering now
    /// (`now`); a late flit's cycle is kept.
    pub fn lag(&mut self, pkt: u32, seq: u16, head: u64, now: u64) -> u8 {
        let lag = now
            .checked_sub(head + u64::from(seq))
            .and_then(|l| u8::try_from(l).ok());
        match lag {
            Some(l) if l < LATE => l,
            _ => {
                self.0.insert((pkt, seq), now);
                LATE
            }
        }
    }

    /// The injection cycle of `flit` of packet `p`, being ejected (a late flit's entry is
    /// dropped).
    pub fn injected(&mut self, p: &Packet, flit: Flit) -> u64 {
        if flit.lag == LATE {
            if let Some(t) = self.0.remove(&(flit.pkt, flit.seq)) {
                return t;
            }
        }
        p.injected + u64::from(flit.seq) + u64::from(flit.lag)
    }

    /// The injection cycle of flit `seq` of packet `pkt` if it is kept (a late flit in
    /// flight).
    pub fn cycle(&self, pkt: u32, seq: u16) -> Option<u64> {
        self.0.get(&(pkt, seq)).copied()
    }

    /// Forgets every kept cycle (engine reuse).
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flit_lagging_past_a_byte_keeps_its_exact_cycle() {
        let mut late = LateFlits::default();
        let p = Packet {
            injected: 100,
            ..Packet::default()
        };
        // Back to back: flit 3 enters at 103, lag 0.
        let l = late.lag(7, 3, 100, 103);
        let f = Flit {
            pkt: 7,
            seq: 3,
            tail: false,
            lag: l,
        };
        assert_eq!((l, late.injected(&p, f)), (0, 103));
        // Waited 254 cycles for credits: still in the byte.
        let l = late.lag(7, 3, 100, 357);
        assert_eq!(l, 254);
        let f = Flit { lag: l, ..f };
        assert_eq!(late.injected(&p, f), 357);
        // 255 and more: kept aside, exact, and dropped once ejected.
        for now in [358, 10_000] {
            let l = late.lag(7, 3, 100, now);
            assert_eq!(l, LATE);
            let f = Flit { lag: l, ..f };
            assert_eq!(late.injected(&p, f), now);
            assert!(late.0.is_empty());
        }
    }
}
