//! BookSim2's packet priorities (`priority = …`, docs/booksim.md §3.5, §4): what a flit's
//! priority is in each mode, and how BookSim2's allocators compare requests by it.
//!
//! BookSim2 gives every flit a priority `f->pri` (`trafficmanager.cpp`, `vc.cpp`), higher
//! winning, in one of these modes:
//!
//! * `none`: every flit 0 (BookSim2's default);
//! * `class`: the class's `class_priority`;
//! * `age`: `INT_MAX − t`, `t` the packet's creation cycle (its queue time; a reply's is its
//!   request's arrival) — the older packet wins;
//! * `sequence`: `INT_MAX − n`, `n` the packet's number among the packets its source issued
//!   (every class's, replies included; in batch mode counted per batch);
//! * `network_age`: 0 at the source; `INT_MAX − t` from the flit's own injection cycle `t`
//!   on (each flit its own);
//! * `local_age`: 0 at the source; in a router `INT_MAX − t`, `t` the cycle the flit entered
//!   the router's input buffer;
//! * `hop_count`: 0 at the source; in a router the routers the flit crossed before it;
//! * `queue_length`: every flit 0; an input VC's priority is the number of flits in its
//!   buffer.
//!
//! The first four are the packet's (the engine keeps them, `sim::engine::priority`), the
//! others the router's (`input_queued::priority`). A router's input VC has its front flit's
//! priority (BookSim2's `VC::GetPriority`), which enters three places: the VC that bids for
//! a crossbar cell when several VCs of an input want one output (every allocator, BookSim2's
//! `_SWAllocAddReq`), the switch allocator's arbiters ([`Priority`]-ranking allocators only)
//! and the VC allocator's output side (its requests' "out" priority; the "in" priority, the
//! routing function's, is 0 for every routing jumpnet models). A terminal's choice between
//! its classes compares the priorities of their next flits.
//!
//! BookSim2's `islip`, `pim`, `loa` and `max_size` ignore request priorities; its
//! `separable_input_first`, `separable_output_first`, `wavefront`, `rr_wavefront` and
//! `select` rank requests by them ([`ranks_priorities`]). A speculative switch request has
//! its priority plus `INT_MIN` (`spec_sw_allocator = prio`): below every non-speculative one,
//! in the same order among themselves ([`level`]).

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::sim::config::Allocator;

/// BookSim2's `priority` mode (module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Priority {
    /// Every flit 0 (BookSim2's default).
    #[default]
    None,
    /// The class's `class_priority`.
    Class,
    /// The packet's creation cycle, older first.
    Age,
    /// The flit's injection cycle, older first.
    NetworkAge,
    /// The cycle the flit entered the router's buffer, older first.
    LocalAge,
    /// The number of flits in the input VC's buffer.
    QueueLength,
    /// The routers the flit crossed before this one.
    HopCount,
    /// The packet's number at its source, lower first.
    Sequence,
}

impl Priority {
    /// Every mode with its BookSim2 name.
    pub const NAMES: [(Priority, &'static str); 8] = [
        (Priority::None, "none"),
        (Priority::Class, "class"),
        (Priority::Age, "age"),
        (Priority::NetworkAge, "network_age"),
        (Priority::LocalAge, "local_age"),
        (Priority::QueueLength, "queue_length"),
        (Priority::HopCount, "hop_count"),
        (Priority::Sequence, "sequence"),
    ];

    /// The mode BookSim2 calls `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(p, _)| *p)
    }

    /// BookSim2's name of the mode.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("none", |(_, n)| n)
    }

    /// Whether flits may differ in priority (every mode but `none`).
    #[inline]
    pub fn is_on(self) -> bool {
        self != Priority::None
    }

    /// Whether the packet decides its flits' priority (`class`, `age`, `sequence`) or the
    /// flit its own from its injection (`network_age`): the engine's part
    /// (`sim::engine::priority`). The others are the router's.
    pub fn of_packets(self) -> bool {
        matches!(
            self,
            Priority::Class | Priority::Age | Priority::Sequence | Priority::NetworkAge
        )
    }

    /// Whether a terminal's flits differ in priority (`class`, `age`, `sequence`); in the
    /// other modes every flit waiting at its source has priority 0.
    pub fn at_terminals(self) -> bool {
        matches!(self, Priority::Class | Priority::Age | Priority::Sequence)
    }
}

/// The JSON of [`crate::sim::config::Extras`] (flattened into it): nothing for `none`,
/// `"class_priority": true` for `class` (as before the other modes existed), else
/// `"priority": "<mode>"`.
impl Serialize for Priority {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match self {
            Priority::None => {}
            Priority::Class => m.serialize_entry("class_priority", &true)?,
            p => m.serialize_entry("priority", p.name())?,
        }
        m.end()
    }
}

/// BookSim2's `INT_MAX − t` of a cycle `t` (the age modes; 0 past `INT_MAX`).
#[inline]
pub fn older_first(t: u64) -> u32 {
    (i32::MAX as u64).saturating_sub(t) as u32
}

/// A request's priority as BookSim2's allocators compare it, as an unsigned number (higher
/// wins): a non-speculative request's priority `pri` (`0 ≤ pri ≤ INT_MAX`) above every
/// speculative one's, a speculative request's `pri + INT_MIN` below — BookSim2's signed
/// value plus 2³¹.
#[inline]
pub fn level(pri: u32, spec: bool) -> u32 {
    if spec {
        pri & !(1 << 31)
    } else {
        pri | 1 << 31
    }
}

/// Whether BookSim2's allocator `kind` ranks requests by their priorities (its arbiters or
/// its sweeps look at them): `separable_input_first`, `select` (BookSim2's
/// `separable_output_first` too, which `--booksim` runs as `select` with priorities),
/// `wavefront` and `rr_wavefront`. BookSim2's iSLIP, PIM, LOA and max-size allocators do
/// not.
pub fn ranks_priorities(kind: Allocator) -> bool {
    matches!(
        kind,
        Allocator::SeparableInputFirst
            | Allocator::Select
            | Allocator::Wavefront
            | Allocator::RrWavefront
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_json_keeps_class_priority() {
        for (p, n) in Priority::NAMES {
            assert_eq!((Priority::parse(n), p.name()), (Some(p), n));
        }
        assert_eq!(Priority::parse("oldest"), None);
        #[derive(Serialize)]
        struct S {
            a: u8,
            #[serde(flatten)]
            p: Priority,
            b: u8,
        }
        let json = |p| serde_json::to_string(&S { a: 1, p, b: 2 }).unwrap();
        assert_eq!(json(Priority::None), r#"{"a":1,"b":2}"#);
        assert_eq!(
            json(Priority::Class),
            r#"{"a":1,"class_priority":true,"b":2}"#
        );
        assert_eq!(
            json(Priority::HopCount),
            r#"{"a":1,"priority":"hop_count","b":2}"#
        );
    }

    #[test]
    fn speculative_requests_rank_below_every_other_in_their_own_order() {
        // BookSim2: `prio + INT_MIN` for a speculative request (prio ≥ 0).
        let booksim = |pri: u32, spec: bool| {
            let p = pri as i32;
            i64::from(if spec { p.wrapping_add(i32::MIN) } else { p })
        };
        let cases = [0u32, 1, 7, 1 << 20, i32::MAX as u32];
        for a in cases {
            for b in cases {
                for (sa, sb) in [(false, false), (false, true), (true, false), (true, true)] {
                    assert_eq!(
                        level(a, sa).cmp(&level(b, sb)),
                        booksim(a, sa).cmp(&booksim(b, sb)),
                        "{a} {sa} {b} {sb}"
                    );
                }
            }
        }
        assert_eq!(older_first(0), i32::MAX as u32);
        assert_eq!(older_first(10), i32::MAX as u32 - 10);
        assert_eq!(older_first(u64::MAX), 0);
    }
}
