//! Engine loop: state of the whole network and the BookSim-style phases — warm-up
//! sample periods, measurement samples until the mean latency converges (or `max_samples`),
//! then drain until every measured packet has arrived. Per cycle: deliver the channel events
//! due, create packets, inject from terminals, step the active routers. Only routers holding
//! flits and terminals with packets are visited. With several router partitions the first
//! three run beside the router phase, with the same results (`beside`).
//!
//! The engine owns the terminals, the packet pool, the event wheel, the traffic driver, the
//! clock and the statistics; the routers are a router model (`sim::router`, chosen by the
//! `router` key) that the engine holds cut into partitions (`partition`) and reaches only
//! through its trait: one router phase per cycle, and what the statistics and the deadlock
//! watchdog ([`watchdog`]) read. [`Engine`] is the small public API for callers that reuse
//! one engine for many runs of explicit packets (the GA's simulated fitness).

mod beside;
mod booksim_rule;
pub mod classes;
mod counters;
mod delivery;
mod effects;
mod final_drain;
mod flit_time;
pub mod node_counts;
pub(crate) mod partition;
pub mod phases;
mod priority;
mod read_write;
mod reset;
mod reusable;
mod sources;
pub mod stats;
mod tuner;
pub mod watchdog;

#[cfg(test)]
mod class_batch_tests;
#[cfg(test)]
mod latency_tests;
#[cfg(test)]
pub(crate) mod partition_tests;
#[cfg(test)]
mod read_write_tests;
#[cfg(test)]
mod sizes_tests;

use std::sync::Arc;

use jumpnet_core::routing::{CongestionScope, PacketState, Routing, VcLayout};
use jumpnet_core::topology::Network;

use crate::sim::config::{Injection, Kind, SimConfig};
pub use crate::sim::error::SimError;
use crate::sim::network::terminal::{Packet, Pending, Route, Terminal, NO_TAG};
use crate::sim::network::{Event, Fabric, Flit, Wheel};
use crate::sim::router::Phase;
use crate::sim::workload::synthetic::Driver;
use beside::Beside;
use classes::Classes;
pub(crate) use counters::Counters;
use flit_time::LateFlits;
use node_counts::NodeCounts;
use partition::Routers;
use priority::PacketPriorities;
pub use reusable::{Delivery, Engine};
use stats::Recorder;

/// Whole simulation state.
pub(crate) struct State<'r> {
    cfg: SimConfig,
    /// The port map (shared with the router phase when it runs beside the cycle's serial
    /// part, `beside`).
    fabric: Arc<Fabric>,
    routing: &'r dyn Routing,
    /// The same routing, shareable between threads (set by [`State::set_threads`]).
    sync_routing: Option<&'r (dyn Routing + Sync)>,
    /// `routing.congestion_scope()`, looked up once.
    scope: CongestionScope,
    /// `routing.random_ties()`, looked up once: draw a coin per packet.
    random_ties: bool,
    /// The routers, cut into partitions (one per thread; [`State::set_threads`]).
    routers: Box<dyn Routers>,
    /// The wheel's events of the current cycle (taken in `deliver_events`, given back
    /// after the router phase).
    due: Vec<Event>,
    /// Physical VCs per channel.
    vcs: usize,
    /// Logical VCs of the routing.
    rvcs: u8,
    /// The routing's two VCs stand for the lower and upper half of the physical ones
    /// (`VcLayout::Halves`, docs/routing.md §2) instead of interleaved aliases.
    vc_halves: bool,
    // Terminals and packets.
    terms: Vec<Terminal>,
    active_terms: Vec<u32>,
    /// Scratch of BookSim2's source (`sources`): the terminals whose trials made a packet
    /// this cycle, with its date.
    fired: Vec<(u32, u64)>,
    packets: Vec<Packet>,
    /// The route records of the pool's packets (same ids as `packets`).
    routes: Vec<Route>,
    free: Vec<u32>,
    wheel: Wheel,
    driver: Driver,
    // Time and counters.
    now: u64,
    last_progress: u64,
    in_network: u64,
    measuring: bool,
    measured_outstanding: u64,
    violations: u64,
    /// Flits of the packets created since cycle 0.
    gen_flits: u64,
    total_packets: u64,
    total_flits: u64,
    last_eject: u64,
    /// Latency statistics.
    rec: Recorder,
    /// BookSim2's traffic classes (`classes > 1`; `None` with one class).
    classes: Option<Box<Classes>>,
    /// Flits and packets sent and received per class and terminal, and fragmentation.
    nodes: NodeCounts,
    /// Sources create packets (off in BookSim2's final drain, `final_drain`).
    generating: bool,
    /// Injection cycles of flits that lag their head by more than a byte holds.
    late: LateFlits,
    /// BookSim2's packet priorities (`priority`).
    pri: PacketPriorities,
    /// Tail ejections of tagged packets since they were last taken: `(tag, cycle)`
    /// (collective traffic, `sim::workload::collective`).
    tail_log: Vec<(u32, u64)>,
    /// The cycle's serial part beside the router phase (`beside`).
    beside: Beside,
}

impl std::fmt::Debug for State<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("now", &self.now)
            .field("in_network", &self.in_network)
            .field("partitions", &self.routers.partitions())
            .finish_non_exhaustive()
    }
}

impl<'r> State<'r> {
    pub(crate) fn new(
        net: &Network<'_>,
        routing: &'r dyn Routing,
        cfg: &SimConfig,
    ) -> Result<Self, SimError> {
        let fabric = Fabric::new(net, cfg).map_err(SimError::Config)?;
        let rvcs = routing.num_vcs().max(1);
        if cfg.num_vcs < rvcs {
            return Err(SimError::Config(format!(
                "num_vcs = {} but the routing needs {rvcs} VCs",
                cfg.num_vcs
            )));
        }
        if fabric.terminals < 2 {
            return Err(SimError::Config(
                "network needs at least 2 terminals".into(),
            ));
        }
        if cfg.extras.read_write.is_some() && (rvcs > 2 || !cfg.features.vc_alloc_stage) {
            return Err(SimError::Config(format!(
                "read/write traffic (docs/booksim.md §3.6) needs the VC allocation stage \
                 (vc_alloc_stage) and a routing of at most 2 VC classes; this routing has {rvcs}"
            )));
        }
        let vcs = usize::from(cfg.num_vcs);
        let driver = Driver::new(net, fabric.terminals, cfg).map_err(SimError::Config)?;
        let classes = Classes::new(net, fabric.terminals, cfg)
            .map_err(SimError::Config)?
            .map(Box::new);
        let nodes = NodeCounts::new(
            classes.as_ref().map_or(1, |c| c.len()),
            fabric.terminals as usize,
        );
        let terms = (0..fabric.terminals)
            .map(|_| Terminal {
                credits: vec![cfg.vc_buf_size; vcs],
                // The first packet of `inject_any_vc` starts on VC 0.
                last_vc: (vcs.max(1) - 1) as u8,
                ..Default::default()
            })
            .collect();
        // The wheel reaches over the longest channel (terminals' channels included, which
        // may differ by terminal: docs/booksim.md §3.2) with its pipeline and credit delays; a
        // flit or credit that waits in a port's queue behind a speedup may be scheduled
        // further ahead, and overflows (`Wheel`).
        let max_delay = u64::from(fabric.max_latency())
            + u64::from(cfg.st_delay.max(cfg.injection_delay))
            + u64::from(cfg.credit_delay)
            + 1;
        let routers = cfg.router.visit(partition::Build {
            fabric: &fabric,
            cfg,
            routing_vcs: rvcs,
            layout: routing.vc_layout(),
        });
        Ok(State {
            cfg: cfg.clone(),
            routing,
            sync_routing: None,
            scope: routing.congestion_scope(),
            random_ties: routing.random_ties(),
            routers,
            due: Vec::new(),
            vcs,
            rvcs,
            vc_halves: rvcs == 2 && routing.vc_layout() == VcLayout::Halves,
            terms,
            active_terms: Vec::with_capacity(fabric.terminals as usize),
            fired: Vec::new(),
            packets: Vec::with_capacity(1024),
            routes: Vec::with_capacity(1024),
            free: Vec::with_capacity(1024),
            wheel: Wheel::new(max_delay),
            driver,
            now: 0,
            last_progress: 0,
            in_network: 0,
            measuring: false,
            measured_outstanding: 0,
            violations: 0,
            gen_flits: 0,
            total_packets: 0,
            total_flits: 0,
            last_eject: 0,
            rec: Recorder::new(),
            classes,
            nodes,
            generating: true,
            late: LateFlits::default(),
            pri: PacketPriorities::new(cfg.extras.priority, fabric.terminals),
            tail_log: Vec::new(),
            beside: Beside::default(),
            fabric: Arc::new(fabric),
        })
    }

    /// The configuration.
    pub(crate) fn config(&self) -> &SimConfig {
        &self.cfg
    }

    /// Number of terminals.
    pub(crate) fn terminals(&self) -> u32 {
        self.fabric.terminals
    }

    /// The current cycle.
    pub(crate) fn now(&self) -> u64 {
        self.now
    }

    /// Cycle of the last ejection.
    pub(crate) fn last_eject(&self) -> u64 {
        self.last_eject
    }

    /// Measured packets not delivered yet.
    pub(crate) fn measured_outstanding(&self) -> u64 {
        self.measured_outstanding
    }

    /// Makes the packets created from now on measured or not; returns the previous setting.
    pub(crate) fn set_measuring(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.measuring, on)
    }

    /// Takes the tail ejections of tagged packets since the last call: `(tag, cycle)`.
    pub(crate) fn tails(&mut self) -> std::vec::Drain<'_, (u32, u64)> {
        self.tail_log.drain(..)
    }

    /// Packets waiting in terminal `t`'s source queue (not started).
    pub(crate) fn queued(&self, t: u32) -> usize {
        self.terms[t as usize].queue.len()
    }

    /// Queues a new packet at terminal `t`.
    pub(crate) fn create(&mut self, t: u32, dst: u32) {
        self.create_tagged(t, dst, NO_TAG);
    }

    /// Queues a new packet of message `tag` at terminal `t` (its tail's ejection is logged
    /// for [`State::tails`] unless `tag` is [`NO_TAG`]).
    pub(crate) fn create_tagged(&mut self, t: u32, dst: u32, tag: u32) {
        self.create_sized(t, dst, tag, self.cfg.packet_size);
    }

    /// Queues a packet of `len` flits (at least 1) of message `tag` at terminal `t`: the
    /// control packets of a collective's rendezvous are shorter than `packet_size`.
    pub(crate) fn create_sized(&mut self, t: u32, dst: u32, tag: u32, len: u16) {
        self.create_at(t, dst, tag, len, self.now);
    }

    /// [`State::create_sized`] with the creation cycle `created` (`≤ now`: BookSim2's batch
    /// source dates a packet back to its queue time).
    pub(crate) fn create_at(&mut self, t: u32, dst: u32, tag: u32, len: u16, created: u64) {
        let len = len.max(1);
        // In BookSim2's drain a packet dated before the drain's start is measured too
        // (`_GeneratePacket`; BookSim2's source dates its packets back, `booksim_draws`).
        let measured = self.measuring || self.driver.drain_time().is_some_and(|d| created < d);
        let term = &mut self.terms[t as usize];
        term.queue.push_back(Pending {
            dst,
            created,
            measured,
            tag,
            len,
            kind: Kind::Any,
            // With one class a source issues its packets in the order they start
            // (`start_packet`).
            seq: 0,
        });
        self.gen_flits += u64::from(len);
        if measured {
            self.measured_outstanding += 1;
        }
        if !term.active {
            term.active = true;
            self.active_terms.push(t);
        }
    }

    /// A destination for a new packet from `t`, drawn by the traffic pattern.
    pub(crate) fn draw_dest(&mut self, t: u32) -> u32 {
        self.driver.dest(t)
    }

    /// The size of a new packet: `packet_size`, or drawn from `extras.packet_sizes`.
    pub(crate) fn draw_packet_size(&mut self) -> u16 {
        self.driver.packet_size()
    }

    fn generate(&mut self) {
        match self.cfg.injection {
            Injection::Bernoulli if self.driver.booksim.is_none() => {}
            Injection::Batch => return,
            // BookSim2's sources (`draws = booksim`), on/off, BookSim2's batch.
            Injection::Bernoulli | Injection::OnOff | Injection::BookSimBatch => {
                return self.generate_process()
            }
        }
        for t in 0..self.fabric.terminals {
            if self.driver.bernoulli.fire(&mut self.driver.rng) {
                let d = self.driver.dest(t);
                if d != t || self.cfg.self_packets {
                    let len = self.driver.packet_size();
                    self.create_sized(t, d, NO_TAG, len);
                }
            }
        }
    }

    /// Routes packet `p` of class `class` and kind `kind` from terminal `t` (it starts
    /// now) and takes a pool slot for it: its id and its routing state at injection. With
    /// random ties the routing breaks them from bits drawn once per packet (BookSim2's
    /// random direction on a torus tie; docs/routing.md §2).
    fn admit(
        &mut self,
        t: u32,
        p: &Pending,
        class: u8,
        kind: Kind,
    ) -> Result<(u32, PacketState), SimError> {
        let mut state = self
            .routing
            .inject(t, p.dst)
            .map_err(|e| SimError::Routing(format!("inject {t}→{}: {e}", p.dst)))?;
        if self.random_ties {
            state.coin = self.driver.rng.next() as u8;
        }
        let packet = Packet {
            src: t,
            dst: p.dst,
            created: p.created,
            injected: self.now,
            received: 0,
            measured: p.measured,
            tag: p.tag,
            len: p.len,
            class,
            kind,
        };
        let route = Route {
            dst: p.dst,
            hops: 0,
            kind,
            state,
        };
        Ok((self.allocate(packet, route), state))
    }

    /// Puts packet `pkt` with its route record in the pool: a free slot or a new one.
    /// Returns its id.
    fn allocate(&mut self, pkt: Packet, route: Route) -> u32 {
        let id = match self.free.pop() {
            Some(id) => {
                self.packets[id as usize] = pkt;
                id
            }
            None => {
                self.packets.push(pkt);
                (self.packets.len() - 1) as u32
            }
        };
        if self.beside.active {
            // Written when the router phase beside this has ended (`beside`).
            self.beside.staged.push((id, route));
        } else {
            put_route(&mut self.routes, id, route);
        }
        id
    }

    /// Starts injecting the next queued packet of terminal `t` if it injects none.
    fn start_packet(&mut self, t: u32) -> Result<(), SimError> {
        let ti = t as usize;
        if self.terms[ti].current.is_some() || self.terms[ti].queue.is_empty() {
            return Ok(());
        }
        // BookSim2's terminals start a packet on the next VC with a credit, or wait; with
        // `wait_for_tail_credit`, on the next VC whose credits are all back
        // (`sim::router::input_queued::tail_credit`).
        let any_vc = if self.cfg.inject_any_vc {
            let term = &self.terms[ti];
            let n = term.credits.len();
            let (whole, full) = (self.cfg.features.wait_for_tail_credit, self.cfg.vc_buf_size);
            let next = (1..=n)
                .map(|i| (usize::from(term.last_vc) + i) % n)
                .find(|&v| term.credits[v] > 0 && (!whole || term.credits[v] == full));
            match next {
                Some(v) => Some(v as u8),
                None => return Ok(()),
            }
        } else {
            None
        };
        let Some(p) = self.terms[ti].queue.pop_front() else {
            return Ok(());
        };
        let (id, state) = self.admit(t, &p, 0, Kind::Any)?;
        if self.pri.mode().of_packets() {
            // With one class a source issues its packets in the order they start
            // (`priority`).
            let seq = self.pri.issue(t);
            self.pri.start(id, (p.created, seq, 0), self.now);
        }
        let vc = match any_vc {
            Some(v) => v,
            None => self.pick_vc(&self.terms[ti].credits, state.vc),
        };
        self.terms[ti].last_vc = vc;
        self.terms[ti].current = Some((id, 0, vc));
        Ok(())
    }

    fn inject(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let mut i = 0;
        while i < self.active_terms.len() {
            let t = self.active_terms[i];
            let ti = t as usize;
            self.start_packet(t)?;
            let term = &mut self.terms[ti];
            let Some((id, seq, vc)) = term.current else {
                term.active = false;
                self.active_terms.swap_remove(i);
                continue;
            };
            if term.credits[usize::from(vc)] == 0 {
                // Waits for a credit; the credit event re-activates it.
                term.active = false;
                self.active_terms.swap_remove(i);
                continue;
            }
            term.credits[usize::from(vc)] -= 1;
            let tail = seq + 1 == self.packets[id as usize].len;
            term.current = if tail { None } else { Some((id, seq + 1, vc)) };
            if seq == 0 {
                self.packets[id as usize].injected = now;
            }
            self.send_flit(ti, (id, seq, tail), vc, now);
            i += 1;
        }
        Ok(())
    }

    /// Sends flit `seq` of packet `id` (`tail`: its last) from terminal `ti` on injection VC
    /// `vc` at `now`, its credit taken: it reaches the switch's input VC after the
    /// injection delay and the injection channel.
    #[inline(always)]
    fn send_flit(&mut self, ti: usize, (id, seq, tail): (u32, u16, bool), vc: u8, now: u64) {
        let p = &self.packets[id as usize];
        let (head, class) = (p.injected, p.class);
        self.nodes.sent(class, ti, seq == 0);
        let lag = self.late.lag(id, seq, head, now);
        let (s, port) = self.fabric.terminal_port[ti];
        let pi = s as usize * self.fabric.radix + usize::from(port);
        let iv = (pi * self.vcs + usize::from(vc)) as u32;
        let flit = Flit {
            pkt: id,
            seq,
            tail,
            lag,
        };
        // The injection channel is as long as the terminal's port's ejection channel.
        let channel = u64::from(self.fabric.latency[pi]);
        let at = now + u64::from(self.cfg.injection_delay) + channel;
        let ev = Event::Arrive { iv, flit };
        if self.beside.active {
            // The wheel is the router phase's until the cycle ends (`beside`).
            self.beside.events.push((at, ev));
        } else {
            self.wheel.push(at, ev);
        }
        self.in_network += 1;
        self.last_progress = now;
    }

    /// Physical VC for logical VC `v`: among `v, v+R, v+2R, …` (or `v`'s half of the VCs
    /// with `vc_halves`) the one with most credits (lowest on ties).
    pub(crate) fn pick_vc(&self, credits: &[u16], v: u8) -> u8 {
        let (first, end, r) = match (self.vc_halves, v) {
            (true, 0) => (0, self.vcs - self.vcs / 2, 1),
            (true, _) => (self.vcs / 2, self.vcs, 1),
            (false, _) => (usize::from(v), self.vcs, usize::from(self.rvcs)),
        };
        let mut best = first;
        let mut k = best;
        while k < end {
            if credits[k] > credits[best] {
                best = k;
            }
            k += r;
        }
        best as u8
    }

    /// Steps the routers on `threads` threads (router partitions, `sim::engine::partition`): the
    /// statistics are the same for every `threads`. A routing whose choices read other
    /// routers' state (`CongestionScope::Remote`, UGAL-G) keeps one partition. Call before the
    /// first cycle.
    pub(crate) fn set_threads(&mut self, routing: &'r (dyn Routing + Sync), threads: usize) {
        let n = if self.scope == CongestionScope::Remote {
            1
        } else {
            threads
        };
        self.sync_routing = Some(routing);
        self.routers.set_partitions(n);
        self.beside.on = self.routers.partitions() > 1
            && self.classes.is_none()
            && !self.pri.mode().of_packets()
            && self.routers.arrivals_commute();
    }

    fn step_routers(&mut self) -> Result<(), SimError> {
        let ph = Phase {
            fabric: &self.fabric,
            routing: self.routing,
            adaptive: self.scope != CongestionScope::None,
            cycle: self.now,
            due: &self.due,
        };
        let packets = (&mut self.routes[..], self.pri.view(&self.late));
        let tally = self
            .routers
            .step(&ph, self.sync_routing, packets, &mut self.wheel)?;
        self.wheel
            .give_back(self.now, std::mem::take(&mut self.due));
        self.violations += tally.violations;
        if tally.moved {
            self.last_progress = self.now;
        }
        Ok(())
    }

    /// One cycle: channel events due, new packets, injection, the router phase.
    pub(crate) fn cycle(&mut self) -> Result<(), SimError> {
        // Several partitions: wake an idle worker now, so that it is awake when the router
        // phase starts (`Routers::prewake`).
        if self.beside.on {
            return self.cycle_beside();
        }
        self.routers.prewake();
        self.deliver_events();
        if self.classes.is_some() {
            self.classes_cycle()?;
        } else {
            if self.generating {
                self.generate();
            }
            self.inject()?;
        }
        self.step_routers()?;
        self.now += 1;
        Ok(())
    }

    /// Whether flits are in the network and none has moved for `watchdog_cycles`.
    pub(crate) fn stuck(&self) -> bool {
        self.in_network > 0 && self.now - self.last_progress >= u64::from(self.cfg.watchdog_cycles)
    }

    /// Runs cycles until every measured packet is delivered (`Ok(false)`) or the watchdog
    /// fires (`Ok(true)`).
    pub(crate) fn run_to_delivery(&mut self) -> Result<bool, SimError> {
        while self.measured_outstanding > 0 {
            self.cycle()?;
            if self.stuck() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// How a run ended, for [`State::finish`].
#[derive(Debug)]
pub(crate) struct Outcome {
    /// Cycles simulated.
    pub cycles: u64,
    /// Measurement samples taken.
    pub samples: u32,
    /// Whether the run was declared saturated.
    pub saturated: bool,
    /// The watchdog's report, if it fired.
    pub deadlock: Option<stats::DeadlockReport>,
}

/// Writes packet `id`'s route record: a pool slot's (`id` below the length) or the next new
/// one's (`id` the length).
fn put_route(routes: &mut Vec<Route>, id: u32, route: Route) {
    match routes.get_mut(id as usize) {
        Some(r) => *r = route,
        None => routes.push(route),
    }
}
