//! The routers of a run, cut into partitions for threads: the routers are
//! cut into contiguous ranges (partitions); in the router phase of a cycle every partition,
//! on its own thread (rayon), first delivers the flits and credits due to its routers this
//! cycle (it picks them from the cycle's events by index range) and then steps its active
//! routers, touching only its routers' slices of the router model's arrays and its own
//! active set. Whatever reaches outside — channel events, packet routing state, hop counts —
//! goes to the partition's log, and the engine applies the logs partition by partition after
//! the phase (the cycle boundary); the first partition's channel events, which come first
//! anyway, go straight onto the event wheel during the phase. Channel and credit latencies
//! are ≥ 1 cycle, so nothing a router does in a cycle is seen by another router in the same
//! cycle; deliveries to different input VCs commute; and the routers step in ascending
//! order in every partition: the logs in partition order are exactly what one thread
//! produces, and results are identical, byte for byte, for every number of threads. No
//! `unsafe`: the ranges are disjoint `split_at_mut` slices.
//!
//! The exception is an adaptive routing whose choice reads other routers' state
//! (`CongestionScope::Remote`, UGAL-G): its networks keep one partition.
//!
//! [`Partitioned`] is the engine's side of a [`RouterModel`]: the model and its partitions,
//! behind the object-safe [`Routers`] the engine state holds (one dynamic call per router
//! phase; everything inside is static).

use jumpnet_core::routing::{PacketState, Routing, VcLayout};

use crate::sim::config::SimConfig;
use crate::sim::engine::priority::PriorityView;
use crate::sim::error::SimError;
use crate::sim::network::terminal::Route;
use crate::sim::network::{Event, Fabric, Flit, Wheel};
use crate::sim::router::{Effects, ModelVisitor, Phase, RouterModel};

/// Smallest number of routers of a partition.
pub(crate) const MIN_ROUTERS: usize = 1;

/// What a router phase reported besides its effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Conservation violations seen.
    pub violations: u64,
    /// Some flit moved.
    pub moved: bool,
}

impl Tally {
    fn add(&mut self, other: Tally) {
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
    fn clear(&mut self) {
        self.events.clear();
        self.states.clear();
        self.hops.clear();
        self.tally = Tally::default();
    }
}

/// One partition: routers from `lo` to the next partition's, the router model's scratch for
/// them, its log and the result of its last phase.
#[derive(Debug)]
pub(crate) struct Part<W> {
    pub lo: usize,
    pub work: W,
    pub log: Log,
    pub result: Result<(), SimError>,
}

/// Cuts `switches` routers into `n` contiguous ranges `(lo, hi)` of (nearly) equal size.
pub(crate) fn cut(switches: usize, n: usize) -> Vec<(usize, usize)> {
    let n = n.clamp(1, (switches / MIN_ROUTERS).clamp(1, 1024));
    (0..n)
        .map(|i| (switches * i / n, switches * (i + 1) / n))
        .collect()
}

/// Effects applied at once (one partition, on the engine's thread).
struct Direct<'a> {
    routes: &'a mut [Route],
    pri: PriorityView<'a>,
    wheel: &'a mut Wheel,
    tally: &'a mut Tally,
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
struct Deferred<'a> {
    routes: &'a [Route],
    pri: PriorityView<'a>,
    log: &'a mut Log,
    wheel: Option<&'a mut Wheel>,
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

/// The routers of a run as the engine holds them (object safe, so the engine does not
/// depend on the router design).
pub(crate) trait Routers: Send {
    /// Cuts the routers into `n` partitions (at most one per router; at least one).
    fn set_partitions(&mut self, n: usize);

    /// Number of partitions.
    fn partitions(&self) -> usize;

    /// With several partitions, wakes an idle thread of the current rayon pool (an empty
    /// task) at the start of a cycle. rayon's idle workers go to sleep after a few rounds
    /// of yielding, and on a large network a cycle's serial part (events, sources,
    /// injection) outlasts them: the router phase then waited for a sleeping worker to wake
    /// before its second half started. Woken here, the worker wakes while the serial part
    /// runs (32×32 torus at 0.1 on two threads, eight alternating runs: median 1.44 → 1.32 s
    /// elapsed).
    fn prewake(&self);

    /// The router phase of every partition: with one partition through `ph.routing` on this
    /// thread, with several through `sync` on the current rayon pool. Effects reach `routes`
    /// and `wheel` in the order one thread would make them; `pri` is read.
    fn step(
        &mut self,
        ph: &Phase<'_, dyn Routing + '_>,
        sync: Option<&(dyn Routing + Sync)>,
        packets: (&mut [Route], PriorityView<'_>),
        wheel: &mut Wheel,
    ) -> Result<Tally, SimError>;

    /// Empties every router and partition (engine reuse), without allocating.
    fn reset(&mut self);

    /// Flits sent on each channel since cycle 0.
    fn channel_flits(&self) -> &[u64];

    /// Number of input VCs.
    fn input_vcs(&self) -> usize;

    /// The downstream input VC blocked input VC `iv` waits for.
    fn waits_for(&self, fabric: &Fabric, iv: usize) -> Option<usize>;
}

/// A router model and its partitions.
#[derive(Debug)]
pub(crate) struct Partitioned<M: RouterModel> {
    model: M,
    parts: Vec<Part<M::Work>>,
    switches: usize,
}

impl<M: RouterModel> Partitioned<M> {
    /// The routers of `fabric`, one partition.
    pub fn new(fabric: &Fabric, cfg: &SimConfig, routing_vcs: u8, layout: VcLayout) -> Self {
        let mut p = Partitioned {
            model: M::new(fabric, cfg, routing_vcs, layout),
            parts: Vec::new(),
            switches: fabric.switches as usize,
        };
        p.set_partitions(1);
        p
    }
}

impl<M: RouterModel> Routers for Partitioned<M> {
    fn set_partitions(&mut self, n: usize) {
        let model = &self.model;
        self.parts = cut(self.switches, n)
            .into_iter()
            .map(|(lo, hi)| Part {
                lo,
                work: model.work(hi - lo),
                log: Log::default(),
                result: Ok(()),
            })
            .collect();
    }

    fn partitions(&self) -> usize {
        self.parts.len()
    }

    fn prewake(&self) {
        if self.parts.len() > 1 {
            rayon::spawn(|| {});
        }
    }

    fn step(
        &mut self,
        ph: &Phase<'_, dyn Routing + '_>,
        sync: Option<&(dyn Routing + Sync)>,
        (routes, pri): (&mut [Route], PriorityView<'_>),
        wheel: &mut Wheel,
    ) -> Result<Tally, SimError> {
        let range = self.model.range();
        match (self.parts.as_mut_slice(), sync) {
            ([p], _) => {
                let mut tally = Tally::default();
                let mut fx = Direct {
                    routes,
                    pri,
                    wheel,
                    tally: &mut tally,
                };
                let mut range = range;
                M::step(&mut range, ph, &mut p.work, &mut fx)?;
                Ok(tally)
            }
            ([], _) => Ok(Tally::default()),
            (parts, Some(sync)) => {
                step_parallel::<M>(
                    &ph.with_routing(sync),
                    (routes, pri),
                    range,
                    parts,
                    Some(&mut *wheel),
                );
                apply(parts, routes, wheel)
            }
            (_, None) => Err(SimError::Config(
                "several router partitions need a routing shareable between threads".into(),
            )),
        }
    }

    fn reset(&mut self) {
        self.model.reset();
        for p in &mut self.parts {
            M::reset_work(&mut p.work);
            p.log.clear();
            p.result = Ok(());
        }
    }

    fn channel_flits(&self) -> &[u64] {
        self.model.channel_flits()
    }

    fn input_vcs(&self) -> usize {
        self.model.input_vcs()
    }

    fn waits_for(&self, fabric: &Fabric, iv: usize) -> Option<usize> {
        self.model.waits_for(fabric, iv)
    }
}

/// Builds the boxed [`Partitioned`] routers of a design ([`crate::sim::router::RouterKind`]).
pub(crate) struct Build<'a> {
    pub fabric: &'a Fabric,
    pub cfg: &'a SimConfig,
    pub routing_vcs: u8,
    pub layout: VcLayout,
}

impl ModelVisitor for Build<'_> {
    type Output = Box<dyn Routers>;
    fn visit<M: RouterModel>(self) -> Box<dyn Routers> {
        Box::new(Partitioned::<M>::new(
            self.fabric,
            self.cfg,
            self.routing_vcs,
            self.layout,
        ))
    }
}

/// Router phase of `parts` (whose ranges tile `range`) in parallel: each half of the
/// partitions on its own rayon task. Each partition's outcome is left in [`Part::result`]
/// and its effects in [`Part::log`], except that the partition given `wheel` (the first)
/// pushes its channel events onto it ([`Deferred`]).
fn step_parallel<M: RouterModel>(
    ph: &Phase<'_, dyn Routing + Sync + '_>,
    (routes, pri): (&[Route], PriorityView<'_>),
    range: M::Range<'_>,
    parts: &mut [Part<M::Work>],
    wheel: Option<&mut Wheel>,
) {
    match parts {
        [] => {}
        [p] => {
            let mut range = range;
            let mut fx = Deferred {
                routes,
                pri,
                log: &mut p.log,
                wheel,
            };
            p.result = M::step(&mut range, ph, &mut p.work, &mut fx);
        }
        _ => {
            let (a, b) = parts.split_at_mut(parts.len() / 2);
            let (ra, rb) = M::split(range, b[0].lo);
            rayon::join(
                || step_parallel::<M>(ph, (routes, pri), ra, a, wheel),
                || step_parallel::<M>(ph, (routes, pri), rb, b, None),
            );
        }
    }
}

/// Applies the logs of `parts` in partition order (the order one thread would have made):
/// events to `wheel` (after the first partition's, already there), states and hops to
/// `routes`. Returns the partitions' tallies together, or the first partition's error.
fn apply<W>(
    parts: &mut [Part<W>],
    routes: &mut [Route],
    wheel: &mut Wheel,
) -> Result<Tally, SimError> {
    let mut tally = Tally::default();
    for p in parts.iter_mut() {
        std::mem::replace(&mut p.result, Ok(()))?;
        for &(id, state) in &p.log.states {
            routes[id as usize].state = state;
        }
        for &id in &p.log.hops {
            routes[id as usize].hops += 1;
        }
        for &(at, ev) in &p.log.events {
            wheel.push(at, ev);
        }
        tally.add(p.log.tally);
        p.log.clear();
    }
    Ok(tally)
}
