//! A router phase's effects outside its routers (`crate::sim::router::Effects`): applied at
//! once with one partition ([`Direct`]), or written to each partition's [`Log`] with several
//! ([`Deferred`]) and applied after the phase in partition order ([`apply`],
//! [`apply_split`]), which is the order one thread makes them (`super::partition`).

use jumpnet_core::routing::PacketState;

use crate::sim::engine::priority::PriorityView;
use crate::sim::error::SimError;
use crate::sim::network::terminal::Route;
use crate::sim::network::{Event, Flit, Wheel};
use crate::sim::router::Effects;

use super::partition::Part;

/// What a router phase reported besides its effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Conservation violations seen.
    pub violations: u64,
    /// Some flit moved.
    pub moved: bool,
}

impl Tally {
    pub(super) fn add(&mut self, other: Tally) {
        self.violations += other.violations;
        self.moved |= other.moved;
    }
}

/// What a partition's router phase does outside its routers, applied after the phase.
#[derive(Debug, Default)]
pub(crate) struct Log {
    /// Channel events `(cycle, event)` in the order they were scheduled.
    pub events: Vec<(u64, Event)>,
    /// New routing states `(packet, state)`.
    pub states: Vec<(u32, PacketState)>,
    /// Packets that made a router-to-router hop.
    pub hops: Vec<u32>,
    /// Violations and progress.
    pub tally: Tally,
}

impl Log {
    /// Pushes the channel events onto `wheel`, in the order scheduled.
    fn push_events(&self, wheel: &mut Wheel) {
        for &(at, ev) in &self.events {
            wheel.push(at, ev);
        }
    }

    /// Writes the routing states and hops into the route records.
    fn write_routes(&self, routes: &mut [Route]) {
        for &(id, state) in &self.states {
            routes[id as usize].state = state;
        }
        for &id in &self.hops {
            routes[id as usize].hops += 1;
        }
    }

    pub(super) fn clear(&mut self) {
        self.events.clear();
        self.states.clear();
        self.hops.clear();
        self.tally = Tally::default();
    }
}

/// Effects applied at once (one partition, on the engine's thread).
pub(super) struct Direct<'a> {
    /// Route records of the packets, written at once.
    pub routes: &'a mut [Route],
    /// Flit priorities.
    pub pri: PriorityView<'a>,
    /// The event wheel, pushed at once.
    pub wheel: &'a mut Wheel,
    /// Violations and progress.
    pub tally: &'a mut Tally,
}

impl Effects for Direct<'_> {
    #[inline]
    fn route(&self, id: u32) -> &Route {
        &self.routes[id as usize]
    }
    #[inline]
    fn flit_pri(&self, flit: Flit) -> u32 {
        self.pri.flit(flit)
    }
    #[inline]
    fn set_state(&mut self, id: u32, state: PacketState) {
        self.routes[id as usize].state = state;
    }
    #[inline]
    fn add_hop(&mut self, id: u32) {
        self.routes[id as usize].hops += 1;
    }
    #[inline]
    fn push(&mut self, at: u64, ev: Event) {
        self.wheel.push(at, ev);
    }
    #[inline]
    fn violation(&mut self) {
        self.tally.violations += 1;
    }
    #[inline]
    fn moved(&mut self) {
        self.tally.moved = true;
    }
}

/// Effects written to a partition's [`Log`] (several partitions in parallel). The first
/// partition also holds the event wheel and pushes its channel events straight onto it:
/// the wheel takes every partition's events after the first's, so the first's may go there
/// during the phase, in parallel with the others' logging. Routing states and hops always
/// go to the log (other partitions read `routes` meanwhile).
pub(super) struct Deferred<'a> {
    /// Route records of the packets, read only during the phase.
    pub routes: &'a [Route],
    /// Flit priorities.
    pub pri: PriorityView<'a>,
    /// The partition's log.
    pub log: &'a mut Log,
    /// The event wheel, for the first partition only.
    pub wheel: Option<&'a mut Wheel>,
}

impl Effects for Deferred<'_> {
    #[inline]
    fn route(&self, id: u32) -> &Route {
        &self.routes[id as usize]
    }
    #[inline]
    fn flit_pri(&self, flit: Flit) -> u32 {
        self.pri.flit(flit)
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
        match &mut self.wheel {
            Some(wheel) => wheel.push(at, ev),
            None => self.log.events.push((at, ev)),
        }
    }
    #[inline]
    fn violation(&mut self) {
        self.log.tally.violations += 1;
    }
    #[inline]
    fn moved(&mut self) {
        self.log.tally.moved = true;
    }
}

/// Applies the logs of `parts` in partition order (the order one thread would have made):
/// events to `wheel` (after the first partition's, already there), states and hops to
/// `routes`. Returns the partitions' tallies together, or the first partition's error.
pub(super) fn apply<W>(
    parts: &mut [Part<W>],
    routes: &mut [Route],
    wheel: &mut Wheel,
) -> Result<Tally, SimError> {
    let mut tally = Tally::default();
    for p in parts.iter_mut() {
        std::mem::replace(&mut p.result, Ok(()))?;
        p.log.write_routes(routes);
        p.log.push_events(wheel);
        tally.add(p.log.tally);
        p.log.clear();
    }
    Ok(tally)
}

/// Fewest channel events in the logs for [`apply_split`] to apply them on a second thread.
const SPLIT_MIN_EVENTS: usize = 256;

/// [`apply`] with the channel events pushed onto `wheel` on one thread while the routing
/// states and hops are written to `routes` on another (rayon), when the logs hold at least
/// [`SPLIT_MIN_EVENTS`] events: the two touch disjoint data, and each keeps the partitions'
/// order, so the result is [`apply`]'s. After the router phase beside the cycle's serial
/// part the pool's other thread is idle until the next cycle (32×32 torus at 0.1 on two
/// threads, ten alternating runs: median 1.29 → 1.19 s elapsed). Also returns whether it
/// split.
pub(super) fn apply_split<W: Sync>(
    parts: &mut [Part<W>],
    routes: &mut [Route],
    wheel: &mut Wheel,
) -> (Result<Tally, SimError>, bool) {
    let events: usize = parts.iter().map(|p| p.log.events.len()).sum();
    if events < SPLIT_MIN_EVENTS {
        return (apply(parts, routes, wheel), false);
    }
    let mut tally = Tally::default();
    for p in parts.iter_mut() {
        if let Err(e) = std::mem::replace(&mut p.result, Ok(())) {
            return (Err(e), false);
        }
        tally.add(p.log.tally);
    }
    let logs: &[Part<W>] = parts;
    rayon::join(
        || logs.iter().for_each(|p| p.log.push_events(wheel)),
        || logs.iter().for_each(|p| p.log.write_routes(routes)),
    );
    for p in parts.iter_mut() {
        p.log.clear();
    }
    (Ok(tally), true)
}
