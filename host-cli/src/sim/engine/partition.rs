//! The routers of a run, cut into partitions for threads: the routers are
//! cut into contiguous ranges (partitions); in the router phase of a cycle every partition,
//! on its own thread (rayon), first delivers the flits and credits due to its routers this
//! cycle (it picks them from the cycle's events by index range) and then steps its active
//! routers, touching only its routers' slices of the router model's arrays and its own
//! active set. Whatever reaches outside — channel events, packet routing state, hop counts —
//! goes to the partition's log, and the engine applies the logs partition by partition after
//! the phase (the cycle boundary; `super::effects`, the channel events and the routing states
//! on two threads when the logs are long); the first partition's channel events, which come
//! first anyway, go straight onto the event wheel during the phase. Channel and credit latencies
//! are ≥ 1 cycle, so nothing a router does in a cycle is seen by another router in the same
//! cycle; deliveries to different input VCs commute; and the routers step in ascending
//! order in every partition: the logs in partition order are exactly what one thread
//! produces, and results are identical, byte for byte, for every number of threads. No
//! `unsafe`: the ranges are disjoint `split_at_mut` slices.
//!
//! The exception is an adaptive routing whose choice reads other routers' state
//! (`CongestionScope::Remote`, UGAL-G): its networks keep one partition.
//!
//! Where it can, the engine runs its own part of the cycle (ejections, sources, injection)
//! on its thread while the partitions but the last run on the others, and the last
//! partition after it ([`Routers::step_beside`], `super::beside`). The partitions' sizes
//! follow the time each takes ([`Balance`]): every 64 cycles they are cut anew so that each
//! takes as long as the others, the last one together with the engine's part. Where the cuts
//! fall changes no result (a router's state is the same whichever partition steps it, and
//! between two cycles a router is active exactly when it holds flits), so the routers also
//! step as one partition while that measures faster (`super::tuner`).
//!
//! [`Partitioned`] is the engine's side of a [`RouterModel`]: the model and its partitions,
//! behind the object-safe [`Routers`] the engine state holds (one dynamic call per router
//! phase; everything inside is static).

use std::time::{Duration, Instant};

use jumpnet_core::routing::{Routing, VcLayout};

use crate::sim::config::SimConfig;
use crate::sim::engine::priority::PriorityView;
use crate::sim::error::SimError;
use crate::sim::network::terminal::Route;
use crate::sim::network::{Fabric, Wheel};
use crate::sim::router::{ModelVisitor, Phase, RouterModel};

use super::effects::{apply, apply_split, Deferred, Direct, Log, Tally};
use super::tuner::Tuner;
pub(crate) use super::tuner::Way;

/// Smallest number of routers of a partition.
pub(crate) const MIN_ROUTERS: usize = 1;

/// One partition: routers from `lo` to the next partition's, the router model's scratch for
/// them, its log and the result of its last phase.
#[derive(Debug)]
pub(crate) struct Part<W> {
    pub lo: usize,
    pub work: W,
    pub log: Log,
    pub result: Result<(), SimError>,
    /// Time spent stepping the partition since the last balancing ([`Balance`]).
    pub busy: Duration,
}

/// Cuts `switches` routers into `n` contiguous ranges `(lo, hi)` of (nearly) equal size.
pub(crate) fn cut(switches: usize, n: usize) -> Vec<(usize, usize)> {
    let n = n.clamp(1, (switches / MIN_ROUTERS).clamp(1, 1024));
    (0..n)
        .map(|i| (switches * i / n, switches * (i + 1) / n))
        .collect()
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

    /// The router phase of every partition beside the cycle's serial part `serve`
    /// (`super::beside`), which runs on this thread before the last partition while the
    /// others run on the pool's other threads. Returns `serve`'s result and the phase's.
    /// Effects reach `routes` and `wheel` as in [`Routers::step`].
    fn step_beside(
        &mut self,
        ph: &Phase<'_, dyn Routing + Sync + '_>,
        packets: (&mut [Route], PriorityView<'_>),
        wheel: &mut Wheel,
        serve: &mut dyn FnMut() -> Result<(), SimError>,
    ) -> (Result<(), SimError>, Result<Tally, SimError>);

    /// Empties every router and partition (engine reuse), without allocating.
    fn reset(&mut self);

    /// Flits sent on each channel since cycle 0.
    fn channel_flits(&self) -> &[u64];

    /// Number of input VCs.
    fn input_vcs(&self) -> usize;

    /// The downstream input VC blocked input VC `iv` waits for.
    fn waits_for(&self, fabric: &Fabric, iv: usize) -> Option<usize>;

    /// Whether flits and credits delivered to a router's different input and output VCs
    /// in one cycle may be delivered in any order (the engine's `beside`).
    fn arrivals_commute(&self) -> bool;

    /// Cuts the routers anew into partitions of `sizes` routers (tests).
    #[cfg(test)]
    fn recut(&mut self, sizes: &[usize]);

    /// Router phases whose logs were applied on two threads (tests).
    #[cfg(test)]
    fn split_applies(&self) -> u64;

    /// Steps the routers `way` from the next cycle on, as the tuner does, and stops the
    /// tuner; returns the partitions' sizes before and after (tests).
    #[cfg(test)]
    fn go_way(&mut self, way: Way) -> (Vec<usize>, Vec<usize>);
}

/// No routers: what the engine holds while it lends its routers to a router phase
/// beside its own work (`super::beside`). Allocates nothing.
#[derive(Debug)]
pub(crate) struct Parked;

impl Routers for Parked {
    fn set_partitions(&mut self, _: usize) {}

    fn partitions(&self) -> usize {
        0
    }

    fn prewake(&self) {}

    fn step(
        &mut self,
        _: &Phase<'_, dyn Routing + '_>,
        _: Option<&(dyn Routing + Sync)>,
        _: (&mut [Route], PriorityView<'_>),
        _: &mut Wheel,
    ) -> Result<Tally, SimError> {
        Ok(Tally::default())
    }

    fn step_beside(
        &mut self,
        _: &Phase<'_, dyn Routing + Sync + '_>,
        _: (&mut [Route], PriorityView<'_>),
        _: &mut Wheel,
        serve: &mut dyn FnMut() -> Result<(), SimError>,
    ) -> (Result<(), SimError>, Result<Tally, SimError>) {
        (serve(), Ok(Tally::default()))
    }

    fn reset(&mut self) {}

    fn channel_flits(&self) -> &[u64] {
        &[]
    }

    fn input_vcs(&self) -> usize {
        0
    }

    fn waits_for(&self, _: &Fabric, _: usize) -> Option<usize> {
        None
    }

    fn arrivals_commute(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn recut(&mut self, _: &[usize]) {}

    #[cfg(test)]
    fn split_applies(&self) -> u64 {
        0
    }

    #[cfg(test)]
    fn go_way(&mut self, _: Way) -> (Vec<usize>, Vec<usize>) {
        (Vec::new(), Vec::new())
    }
}

/// A router model and its partitions.
#[derive(Debug)]
pub(crate) struct Partitioned<M: RouterModel> {
    model: M,
    parts: Vec<Part<M::Work>>,
    switches: usize,
    balance: Balance,
    /// Router phases whose logs were applied on two threads ([`apply_split`]; tests).
    split_applies: u64,
    /// Partitions the run asked for ([`Routers::set_partitions`]).
    wanted: usize,
    /// One partition while that is faster (`super::tuner`), with several partitions wanted.
    tuner: Tuner,
    /// The sizes of the partitions before the tuner went to one (restored after it).
    saved: Vec<usize>,
    /// The tuner decides (off in tests that cut the routers by hand).
    tuning: bool,
}

impl<M: RouterModel> Partitioned<M> {
    /// The routers of `fabric`, one partition.
    pub fn new(fabric: &Fabric, cfg: &SimConfig, routing_vcs: u8, layout: VcLayout) -> Self {
        let mut p = Partitioned {
            model: M::new(fabric, cfg, routing_vcs, layout),
            parts: Vec::new(),
            switches: fabric.switches as usize,
            balance: Balance::default(),
            split_applies: 0,
            wanted: 1,
            tuner: Tuner::default(),
            saved: Vec::new(),
            tuning: true,
        };
        p.set_partitions(1);
        p
    }
}

impl<M: RouterModel> Routers for Partitioned<M> {
    fn set_partitions(&mut self, n: usize) {
        let cuts = cut(self.switches, n);
        self.wanted = cuts.len();
        self.tuner = Tuner::default();
        self.set_cuts(&cuts);
        self.balance = Balance::default();
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
        packets: (&mut [Route], PriorityView<'_>),
        wheel: &mut Wheel,
    ) -> Result<Tally, SimError> {
        let t = (self.wanted > 1).then(Instant::now);
        let tally = self.step_now(ph, sync, packets, wheel);
        if let Some(t) = t {
            self.tune(t.elapsed());
        }
        tally
    }

    fn step_beside(
        &mut self,
        ph: &Phase<'_, dyn Routing + Sync + '_>,
        packets: (&mut [Route], PriorityView<'_>),
        wheel: &mut Wheel,
        serve: &mut dyn FnMut() -> Result<(), SimError>,
    ) -> (Result<(), SimError>, Result<Tally, SimError>) {
        let t = (self.wanted > 1).then(Instant::now);
        let out = self.step_beside_now(ph, packets, wheel, serve);
        if let Some(t) = t {
            self.tune(t.elapsed());
        }
        out
    }
    fn reset(&mut self) {
        self.model.reset();
        for p in &mut self.parts {
            M::reset_work(&mut p.work);
            p.log.clear();
            p.result = Ok(());
            p.busy = Duration::ZERO;
        }
        self.balance = Balance::default();
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

    fn arrivals_commute(&self) -> bool {
        self.model.arrivals_commute()
    }

    #[cfg(test)]
    fn recut(&mut self, sizes: &[usize]) {
        let cuts = cuts_of(sizes);
        assert_eq!(
            cuts.last().map(|c| c.1),
            Some(self.switches),
            "sizes {sizes:?}"
        );
        self.tuning = false;
        self.set_cuts(&cuts);
    }

    #[cfg(test)]
    fn go_way(&mut self, way: Way) -> (Vec<usize>, Vec<usize>) {
        self.tuning = false;
        let before = self.sizes_now();
        self.go(way);
        (before, self.sizes_now())
    }

    #[cfg(test)]
    fn split_applies(&self) -> u64 {
        self.split_applies
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
            let t = Instant::now();
            p.result = M::step(&mut range, ph, &mut p.work, &mut fx);
            p.busy += t.elapsed();
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

/// Cycles between two balancings of the partitions' sizes.
const BALANCE_CYCLES: u32 = 64;

/// The partitions' balance: with several partitions their sizes follow the time each takes
/// (`Partitioned::balance_after`). A partition's routers do not all cost alike (a mesh's
/// middle carries more than its rim), the first partition also pushes its events onto the
/// wheel, and beside the cycle's serial part (`super::beside`) the last partition runs on
/// the thread that ran the serial part first. Results do not depend on the cut.
#[derive(Debug, Default)]
struct Balance {
    /// Cycles since the last balancing.
    cycles: u32,
    /// Time of the serial part run before the last partition, since then.
    serial: Duration,
}

impl<M: RouterModel> Partitioned<M> {
    /// [`Routers::step`], untimed.
    fn step_now(
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
                let tally = apply(parts, routes, wheel);
                self.balance_after(Duration::ZERO);
                tally
            }
            (_, None) => Err(SimError::Config(
                "several router partitions need a routing shareable between threads".into(),
            )),
        }
    }

    /// [`Routers::step_beside`], untimed.
    fn step_beside_now(
        &mut self,
        ph: &Phase<'_, dyn Routing + Sync + '_>,
        (routes, pri): (&mut [Route], PriorityView<'_>),
        wheel: &mut Wheel,
        serve: &mut dyn FnMut() -> Result<(), SimError>,
    ) -> (Result<(), SimError>, Result<Tally, SimError>) {
        if self.parts.len() < 2 {
            // One partition: the serial order.
            let served = serve();
            let routing: &dyn Routing = ph.routing;
            return (
                served,
                self.step_now(
                    &ph.with_routing(routing),
                    Some(ph.routing),
                    (routes, pri),
                    wheel,
                ),
            );
        }
        let mut served = Ok(());
        let mut serial = Duration::ZERO;
        {
            let range = self.model.range();
            let Some((last, head)) = self.parts.split_last_mut() else {
                return (serve(), Ok(Tally::default()));
            };
            let (range_head, mut range_last) = M::split(range, last.lo);
            let shared: &[Route] = routes;
            let wheel = &mut *wheel;
            rayon::in_place_scope(|scope| {
                scope.spawn(move |_| {
                    step_parallel::<M>(ph, (shared, pri), range_head, head, Some(wheel));
                });
                let t = Instant::now();
                served = serve();
                serial = t.elapsed();
                let mut fx = Deferred {
                    routes: shared,
                    pri,
                    log: &mut last.log,
                    wheel: None,
                };
                let t = Instant::now();
                last.result = M::step(&mut range_last, ph, &mut last.work, &mut fx);
                last.busy += t.elapsed();
            });
        }
        let (tally, split) = apply_split(&mut self.parts, routes, wheel);
        self.split_applies += u64::from(split);
        self.balance_after(serial);
        (served, tally)
    }

    /// Counts a router phase that took `took` (with several partitions wanted): the tuner
    /// may go to one partition or back to the sizes it left.
    fn tune(&mut self, took: Duration) {
        if !self.tuning {
            return;
        }
        if let Some(way) = self.tuner.after(took) {
            self.go(way);
        }
    }

    /// Steps the routers `way` from the next cycle on.
    fn go(&mut self, way: Way) {
        match way {
            Way::Single => {
                self.saved = self.sizes_now();
                self.set_cuts(&[(0, self.switches)]);
                self.balance = Balance::default();
            }
            Way::Parallel => {
                let cuts = if self.saved.len() == self.wanted {
                    cuts_of(&self.saved)
                } else {
                    cut(self.switches, self.wanted)
                };
                self.set_cuts(&cuts);
                self.balance = Balance::default();
            }
        }
    }

    /// The partitions' sizes.
    fn sizes_now(&self) -> Vec<usize> {
        let ends = self
            .parts
            .iter()
            .skip(1)
            .map(|p| p.lo)
            .chain([self.switches]);
        self.parts
            .iter()
            .zip(ends)
            .map(|(p, hi)| hi - p.lo)
            .collect()
    }
}

impl<M: RouterModel> Partitioned<M> {
    /// Cuts the routers at `cuts` (contiguous ranges tiling `0..switches`): fresh scratch
    /// per partition, each marking its routers that hold flits (`RouterModel::refill`).
    fn set_cuts(&mut self, cuts: &[(usize, usize)]) {
        let mut parts: Vec<Part<M::Work>> = cuts
            .iter()
            .map(|&(lo, hi)| Part {
                lo,
                work: self.model.work(hi - lo),
                log: Log::default(),
                result: Ok(()),
                busy: Duration::ZERO,
            })
            .collect();
        fill_parts::<M>(self.model.range(), &mut parts);
        self.parts = parts;
    }

    /// After a router phase whose serial part before the last partition took `serial`:
    /// every [`BALANCE_CYCLES`] cycles, sizes the partitions so that each takes the same
    /// time, the last one with the serial part (`sizes`).
    fn balance_after(&mut self, serial: Duration) {
        let b = &mut self.balance;
        b.serial += serial;
        b.cycles += 1;
        if b.cycles < BALANCE_CYCLES {
            return;
        }
        let serial = std::mem::take(&mut b.serial).as_secs_f64();
        b.cycles = 0;
        let now: Vec<(usize, f64)> = self
            .sizes_now()
            .into_iter()
            .zip(&mut self.parts)
            .map(|(n, p)| (n, std::mem::take(&mut p.busy).as_secs_f64()))
            .collect();
        let Some(new) = sizes(&now, serial, self.switches) else {
            return;
        };
        if new.iter().zip(&now).all(|(&n, &(o, _))| n == o) {
            return;
        }
        self.set_cuts(&cuts_of(&new));
    }
}

/// The contiguous ranges `(lo, hi)` of partitions of `sizes` routers, from router 0.
fn cuts_of(sizes: &[usize]) -> Vec<(usize, usize)> {
    let mut lo = 0;
    sizes
        .iter()
        .map(|&n| {
            lo += n;
            (lo - n, lo)
        })
        .collect()
}

/// Marks, in each partition's scratch, its routers that hold flits.
fn fill_parts<M: RouterModel>(range: M::Range<'_>, parts: &mut [Part<M::Work>]) {
    match parts {
        [] => {}
        [p] => M::refill(&range, &mut p.work),
        [p, rest @ ..] => {
            let (a, b) = M::split(range, rest[0].lo);
            M::refill(&a, &mut p.work);
            fill_parts::<M>(b, rest);
        }
    }
}

/// New partition sizes from the last interval's `(routers, seconds)` per partition and the
/// `serial` seconds run before the last one: each partition's time per router kept, sizes
/// that give every partition (the last with `serial`) the same time, halfway from the old
/// sizes toward them (a step that does not overshoot on noise), at least one router each,
/// `switches` in all. `None` when a partition took no measurable time.
pub(crate) fn sizes(now: &[(usize, f64)], serial: f64, switches: usize) -> Option<Vec<usize>> {
    let n = now.len();
    if n < 2 || now.iter().any(|&(r, t)| r == 0 || t <= 0.0) {
        return None;
    }
    let total: f64 = now.iter().map(|&(_, t)| t).sum::<f64>() + serial;
    let target = total / n as f64;
    let mut want: Vec<f64> = now
        .iter()
        .enumerate()
        .map(|(i, &(r, t))| {
            let own = if i + 1 == n { target - serial } else { target };
            let ideal = (own.max(0.0) * r as f64 / t).max(1.0);
            (r as f64 + ideal) / 2.0
        })
        .collect();
    let sum: f64 = want.iter().sum();
    for w in &mut want {
        *w *= switches as f64 / sum;
    }
    // Rounded so that they add up to `switches`, at least one router each.
    let mut out = Vec::with_capacity(n);
    let (mut acc, mut given) = (0.0, 0usize);
    for (i, w) in want.iter().enumerate() {
        acc += w;
        let end = if i + 1 == n {
            switches
        } else {
            (acc.round() as usize).clamp(given + 1, switches - (n - 1 - i))
        };
        out.push(end - given);
        given = end;
    }
    Some(out)
}
