//! BookSim2's optional behaviours of its input-queued router (`iq_router.cpp`,
//! `buffer_state.cpp`, `allocators/`; docs/booksim.md §4), as simulator keys. Each is off at
//! BookSim2's default, and the router pays for it only when it is on:
//!
//! * `wait_for_tail_credit`: an output VC is free for another packet only when its tail has
//!   left and every credit of the VC has come back (`input_queued::tail_credit`);
//! * `hold_switch_for_packet`: a packet that won the switch keeps its crossbar input and
//!   output until its tail crosses, its buffer runs empty or its VC runs out of credits
//!   (`input_queued::hold`);
//! * `input_speedup`, `output_speedup`: the crossbar has that many inputs per input port
//!   (VC `v` uses input `v mod input_speedup`) and outputs per output port (input port `p`
//!   uses output `p mod output_speedup`), so a port may move several flits per cycle
//!   (`input_queued::crossbar`);
//! * `alloc_iters`: iterations of the iSLIP switch allocator (`islip_iters`; the separable
//!   allocator has one). BookSim2 itself builds its allocators with one iteration whatever
//!   `alloc_iters` says, so `--booksim` leaves this at 1 (docs/booksim.md §2);
//! * `vc_alloc_stage`: BookSim2's VC allocation stage — the VC allocator over (input VC →
//!   output VC) requests and its pipeline timing, a failed allocation retried
//!   `vc_alloc_delay` cycles later (`input_queued::vc_stage`); `--booksim` turns it on;
//! * `speculative`: with the VC allocation stage, a head bids for the switch while its VC
//!   allocation is under way (`input_queued::speculation`);
//! * `booksim_credits`: credits timed as BookSim2's routers and terminals time them — a
//!   credit reaches the upstream router a cycle after its channel's latency (written at the
//!   end of the cycle that freed its slot, read at the start of a later one), and a
//!   terminal returns a credit for every flit it ejects, so the ejection channel's VC
//!   buffers limit ejection as a link's do (`input_queued::traverse`); `--booksim` turns
//!   it on. Off, credits take the channel's latency and ejection is never short of them;
//! * `exact_vcs`: a head requests only the VC its routing names — on a link not its aliases
//!   `vc + R, vc + 2R, …` of a configuration with more VCs than the routing's `R`, at its
//!   ejection port only the VC the routing leaves in the packet's state (`PacketState::vc`)
//!   instead of any VC of the port. BookSim2's dragonfly routing functions (`min` and
//!   `ugal` on `dragonflynew`) name one VC per hop, ejection included; `--booksim` turns it
//!   on for them (docs/booksim.md §3). With the VC allocation stage only.

use serde::Serialize;

/// Largest `input_speedup`, `output_speedup` and `alloc_iters` accepted.
pub const MAX_FACTOR: u8 = 16;

/// BookSim2's optional router behaviours (module documentation); the default is
/// BookSim2's: all off, speedups and iterations 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RouterFeatures {
    /// A downstream VC is reallocated only after the credit of its packet's tail came back
    /// (BookSim2 `wait_for_tail_credit`).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub wait_for_tail_credit: bool,
    /// The switch is held for the whole packet (BookSim2 `hold_switch_for_packet`).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub hold_switch_for_packet: bool,
    /// Crossbar inputs per input port (BookSim2 `input_speedup`).
    #[serde(skip_serializing_if = "is_one")]
    pub input_speedup: u8,
    /// Crossbar outputs per output port (BookSim2 `output_speedup`).
    #[serde(skip_serializing_if = "is_one")]
    pub output_speedup: u8,
    /// iSLIP iterations of the switch allocator (BookSim2 `alloc_iters`).
    #[serde(skip_serializing_if = "is_one")]
    pub alloc_iters: u8,
    /// BookSim2's VC allocation stage: heads compete in a VC allocator and a failed
    /// allocation is retried `vc_alloc_delay` cycles later (off: a routed head takes the
    /// free output VC with most credits in the step it requests the switch).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub vc_alloc_stage: bool,
    /// Speculative switch allocation (BookSim2 `speculative`; with `vc_alloc_stage`, and
    /// `vc_alloc_delay = sw_alloc_delay = 1`).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub speculative: bool,
    /// Credits timed as BookSim2's (module documentation): one cycle more on a link, and
    /// ejection credits returned by the terminals.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub booksim_credits: bool,
    /// A head requests exactly its routing's VC, on a link and at its ejection port
    /// (module documentation; BookSim2's dragonfly routing functions).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub exact_vcs: bool,
}

fn is_one(v: &u8) -> bool {
    *v == 1
}

impl Default for RouterFeatures {
    fn default() -> Self {
        RouterFeatures {
            wait_for_tail_credit: false,
            hold_switch_for_packet: false,
            input_speedup: 1,
            output_speedup: 1,
            alloc_iters: 1,
            vc_alloc_stage: false,
            speculative: false,
            booksim_credits: false,
            exact_vcs: false,
        }
    }
}

impl RouterFeatures {
    /// The simulator keys of the features (BookSim2's names).
    pub const KEYS: [&'static str; 9] = [
        "wait_for_tail_credit",
        "hold_switch_for_packet",
        "input_speedup",
        "output_speedup",
        "alloc_iters",
        "vc_alloc_stage",
        "speculative",
        "booksim_credits",
        "exact_vcs",
    ];

    /// Sets feature `key` to `value`; the error is what the key allows.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), &'static str> {
        const BOOL: &str = "true/false/1/0";
        const FACTOR: &str = "an integer 1..=16";
        let boolean = || match value.trim() {
            "1" | "true" | "yes" => Ok(true),
            "0" | "false" | "no" => Ok(false),
            _ => Err(BOOL),
        };
        let factor = || {
            value
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|v| (1..=MAX_FACTOR).contains(v))
                .ok_or(FACTOR)
        };
        match key {
            "wait_for_tail_credit" => self.wait_for_tail_credit = boolean()?,
            "hold_switch_for_packet" => self.hold_switch_for_packet = boolean()?,
            "input_speedup" => self.input_speedup = factor()?,
            "output_speedup" => self.output_speedup = factor()?,
            "alloc_iters" => self.alloc_iters = factor()?,
            "vc_alloc_stage" => self.vc_alloc_stage = boolean()?,
            "speculative" => self.speculative = boolean()?,
            "booksim_credits" => self.booksim_credits = boolean()?,
            "exact_vcs" => self.exact_vcs = boolean()?,
            _ => return Err("one of wait_for_tail_credit, hold_switch_for_packet, input_speedup, output_speedup, alloc_iters, vc_alloc_stage, speculative, booksim_credits, exact_vcs"),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_and_refuse_out_of_range() {
        let mut f = RouterFeatures::default();
        for k in RouterFeatures::KEYS {
            f.set(k, "1").unwrap();
        }
        assert_eq!(f.alloc_iters, 1);
        f.set("input_speedup", "2").unwrap();
        f.set("hold_switch_for_packet", "0").unwrap();
        assert_eq!((f.input_speedup, f.hold_switch_for_packet), (2, false));
        assert_eq!(f.set("output_speedup", "0"), Err("an integer 1..=16"));
        assert_eq!(f.set("alloc_iters", "17"), Err("an integer 1..=16"));
        assert_eq!(f.set("wait_for_tail_credit", "2"), Err("true/false/1/0"));
        // Defaults are left out of the JSON.
        let json = serde_json::to_string(&RouterFeatures::default()).unwrap();
        assert_eq!(json, "{}");
    }
}
