//! Router phase on several threads (issue 9 "Speed"): the routers are cut into contiguous
//! ranges (partitions); in the router phase of a cycle every partition, on its own thread
//! (rayon), first delivers the flits and credits due to its routers this cycle (it picks
//! them from the cycle's events by index range) and then steps its active routers,
//! touching only its routers' slices of the engine's arrays and its own active set.
//! Whatever reaches outside — channel events, packet routing state, hop counts — goes to the
//! partition's log, and the engine applies the logs partition by partition after the phase
//! (the cycle boundary). Channel and credit latencies are ≥ 1 cycle, so nothing a router
//! does in a cycle is seen by another router in the same cycle; deliveries to different
//! input VCs commute; and the routers step in ascending order in every partition: the logs
//! in partition order are exactly what one thread produces, and results are identical,
//! byte for byte, for every number of threads. No `unsafe`: the ranges are disjoint
//! `split_at_mut` slices.
//!
//! The exception is UGAL-G, which reads the credits of other routers of the group while
//! deciding; its networks keep one partition.

use jumpnet_core::routing::{PacketState, Routing};

use crate::sim::engine::SimError;
use crate::sim::network::terminal::Packet;
use crate::sim::network::{Event, Wheel};
use crate::sim::router::input_queued::{step_routers, Effects, Routers, Shared, Work};

/// Smallest number of routers of a partition.
pub(crate) const MIN_ROUTERS: usize = 1;

/// What a partition's router phase does outside its routers, applied after the phase.
#[derive(Debug, Default)]
pub(crate) struct Log {
    /// Channel events `(cycle, event)` in the order they were scheduled.
    pub events: Vec<(u64, Event)>,
    /// New routing states `(packet, state)`.
    pub states: Vec<(u32, PacketState)>,
    /// Packets that made a router-to-router hop.
    pub hops: Vec<u32>,
}

/// One partition: routers `lo..hi`, their active set, deliveries and scratch, its log and
/// the result of its last phase.
#[derive(Debug)]
pub(crate) struct Part {
    pub lo: usize,
    pub hi: usize,
    pub work: Work,
    pub log: Log,
    pub result: Result<(), SimError>,
}

impl Part {
    /// Empties the active set, scratch, log and result (engine reuse, `State::reset`).
    pub fn reset(&mut self) {
        self.work.reset();
        self.log.events.clear();
        self.log.states.clear();
        self.log.hops.clear();
        self.result = Ok(());
    }
}

/// Cuts `switches` routers into `n` contiguous ranges of (nearly) equal size.
pub(crate) fn cut(switches: usize, n: usize, radix: usize, vcs: usize) -> Vec<Part> {
    let n = n.clamp(1, (switches / MIN_ROUTERS).clamp(1, 1024));
    (0..n)
        .map(|i| {
            let (lo, hi) = (switches * i / n, switches * (i + 1) / n);
            Part {
                lo,
                hi,
                work: Work::new(hi - lo, radix, vcs),
                log: Log::default(),
                result: Ok(()),
            }
        })
        .collect()
}

/// Effects applied at once (one partition, on the engine's thread).
pub(crate) struct Direct<'a> {
    pub packets: &'a mut [Packet],
    pub wheel: &'a mut Wheel,
}

impl Effects for Direct<'_> {
    #[inline]
    fn packet(&self, id: u32) -> &Packet {
        &self.packets[id as usize]
    }
    #[inline]
    fn set_state(&mut self, id: u32, state: PacketState) {
        self.packets[id as usize].state = state;
    }
    #[inline]
    fn add_hop(&mut self, id: u32) {
        self.packets[id as usize].hops += 1;
    }
    #[inline]
    fn push(&mut self, at: u64, ev: Event) {
        self.wheel.push(at, ev);
    }
}

/// Effects written to a partition's [`Log`] (several partitions in parallel).
struct Deferred<'a> {
    packets: &'a [Packet],
    log: &'a mut Log,
}

impl Effects for Deferred<'_> {
    #[inline]
    fn packet(&self, id: u32) -> &Packet {
        &self.packets[id as usize]
    }
    #[inline]
    fn set_state(&mut self, id: u32, state: PacketState) {
        self.log.states.push((id, state));
    }
    #[inline]
    fn add_hop(&mut self, id: u32) {
        self.log.hops.push(id);
    }
    #[inline]
    fn push(&mut self, at: u64, ev: Event) {
        self.log.events.push((at, ev));
    }
}

/// Router phase of `parts` (whose ranges tile `r`) in parallel: each half of the partitions
/// on its own rayon task. Each partition's outcome is left in [`Part::result`] and its
/// effects in [`Part::log`].
pub(crate) fn step_parallel<R: Routing + Sync + ?Sized>(
    sh: &Shared<'_, R>,
    packets: &[Packet],
    r: Routers<'_>,
    parts: &mut [Part],
) {
    match parts {
        [] => {}
        [p] => {
            debug_assert!(
                (r.lo, r.hi) == (p.lo, p.hi),
                "partition and routers disagree"
            );
            let mut r = r;
            let mut fx = Deferred {
                packets,
                log: &mut p.log,
            };
            p.result = step_routers(sh, &mut r, &mut p.work, &mut fx);
        }
        _ => {
            let (a, b) = parts.split_at_mut(parts.len() / 2);
            let (ra, rb) = r.split_at(b[0].lo, sh);
            rayon::join(
                || step_parallel(sh, packets, ra, a),
                || step_parallel(sh, packets, rb, b),
            );
        }
    }
}

/// Applies the logs of `parts` in partition order (the order one thread would have made):
/// events to `wheel`, states and hops to `packets`. Returns the first partition's error.
pub(crate) fn apply(
    parts: &mut [Part],
    packets: &mut [Packet],
    wheel: &mut Wheel,
) -> Result<(), SimError> {
    for p in parts.iter_mut() {
        std::mem::replace(&mut p.result, Ok(()))?;
        for &(id, state) in &p.log.states {
            packets[id as usize].state = state;
        }
        for &id in &p.log.hops {
            packets[id as usize].hops += 1;
        }
        for &(at, ev) in &p.log.events {
            wheel.push(at, ev);
        }
        p.log.states.clear();
        p.log.hops.clear();
        p.log.events.clear();
    }
    Ok(())
}
