//! Engine loop (issue 9): state of the whole network and the BookSim-style phases — warm-up
//! sample periods, measurement samples until the mean latency converges (or `max_samples`),
//! then drain until every measured packet has arrived. Per cycle: deliver the channel events
//! due, create packets, inject from terminals, step the active routers. Only routers holding
//! flits and terminals with packets are visited.

pub(crate) mod partition;
pub mod phases;
pub(crate) mod reset;
pub mod stats;
pub mod watchdog;

#[cfg(test)]
mod latency_tests;
#[cfg(test)]
pub(crate) mod partition_tests;

use jumpnet_core::routing::dragonfly::ugal::{DragonflyUgal, UgalMode};
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use crate::sim::config::{Injection, SimConfig};
use crate::sim::network::terminal::{Packet, Pending, Terminal, NO_TAG};
use crate::sim::network::{Event, Fabric, Flit, Slot, Wheel};
use crate::sim::router::allocator::Arbiters;
use crate::sim::router::input_queued::{self, Routers, Shared};
use crate::sim::workload::synthetic::Driver;
use partition::{Direct, Part};
use stats::Histogram;

/// Error that stops a simulation before it starts or in the middle.
#[derive(Debug)]
pub enum SimError {
    /// Configuration does not fit the network or routing.
    Config(String),
    /// The routing failed for a packet.
    Routing(String),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Config(s) => write!(f, "sim config: {s}"),
            SimError::Routing(s) => write!(f, "sim routing: {s}"),
        }
    }
}

impl std::error::Error for SimError {}

/// Division of `u32`s by a fixed divisor with a multiplication (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019: `⌊n/d⌋ = ⌊M·n / 2⁶⁴⌋` with
/// `M = ⌈2⁶⁴/d⌉`, exact for every 32-bit `n` and `d ≥ 2`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastDiv {
    m: u64,
    d: u32,
}

impl FastDiv {
    /// Divider by `d` (`d ≥ 1`).
    pub(crate) fn new(d: u32) -> Self {
        let d = d.max(1);
        FastDiv {
            m: if d == 1 {
                0
            } else {
                u64::MAX / u64::from(d) + 1
            },
            d,
        }
    }

    /// `n / d`.
    #[inline]
    pub(crate) fn div(self, n: u32) -> u32 {
        if self.d == 1 {
            n
        } else {
            ((u128::from(self.m) * u128::from(n)) >> 64) as u32
        }
    }
}

/// Per-input-VC route state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum VcState {
    /// Front flit is a head without a route.
    #[default]
    Idle,
    /// Routed to `port` on logical VC `vc`; needs an output VC.
    Routed { port: u16, vc: u8 },
    /// Holds output VC `vc` of `port` (or ejects through `port`).
    Active { port: u16, vc: u8, eject: bool },
}

/// Per-input-VC state read by every router scan.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct InVc {
    /// Ready cycle of the front flit.
    pub fready: u64,
    /// Ring-buffer head slot.
    pub head: u16,
    /// Flits buffered.
    pub len: u16,
    /// Route state of the front packet.
    pub state: VcState,
}

/// Whole simulation state.
pub(crate) struct State<'r> {
    pub cfg: SimConfig,
    pub fabric: Fabric,
    pub routing: &'r dyn Routing,
    /// The same routing, shareable between threads (set by [`State::set_threads`]).
    pub sync_routing: Option<&'r (dyn Routing + Sync)>,
    /// `routing.ugal()`, looked up once.
    pub ugal: Option<&'r DragonflyUgal<'r>>,
    /// Physical VCs per channel.
    pub vcs: usize,
    /// Logical VCs of the routing.
    pub rvcs: u8,
    pub buf: usize,
    /// Input-VC ring buffers (flat, `buf` slots per input VC): each flit with its ready
    /// cycle, so the router touches one cache line per flit.
    pub slots: Vec<Slot>,
    /// Per input VC: front flit's ready cycle, ring head, length and route state together
    /// (the router scan reads them all).
    pub ivs: Vec<InVc>,
    // Output VCs: credits and ownership.
    pub credits: Vec<u16>,
    pub busy: Vec<bool>,
    // Routers: buffered flits and the active list.
    pub buffered: Vec<u32>,
    /// Per router: bit `p·vcs + v` set iff input VC `v` of port `p` holds flits
    /// (`words` u64 per router).
    pub nonempty: Vec<u64>,
    pub words: usize,
    /// Per router: first cycle at which a step can change anything (a front flit becomes
    /// ready, or a ready flit was blocked); routers sleep until then.
    pub wake: Vec<u64>,
    pub arb: Arbiters,
    /// Router partitions (one per thread; [`State::set_threads`]).
    pub parts: Vec<Part>,
    /// The wheel's events of the current cycle (taken in `deliver_events`, given back
    /// after the router phase).
    pub due: Vec<Event>,
    /// `(port, vc)` of each of a router's input VCs `port·vcs + vc`.
    pub port_vc: Vec<(u16, u8)>,
    /// Input VC → router (division by `radix · vcs`).
    pub router_of: FastDiv,
    // Terminals and packets.
    pub terms: Vec<Terminal>,
    pub active_terms: Vec<u32>,
    pub packets: Vec<Packet>,
    pub free: Vec<u32>,
    pub wheel: Wheel,
    pub driver: Driver,
    // Time and counters.
    pub now: u64,
    pub last_progress: u64,
    pub in_network: u64,
    pub measuring: bool,
    pub measured_outstanding: u64,
    pub violations: u64,
    /// Flits sent on each channel since cycle 0 (the measurement window is the difference
    /// of two [`Counters`] snapshots).
    pub channel_flits: Vec<u64>,
    /// Per port: first cycle its output queue may send a flit / its credit queue a credit
    /// (internal speedup, `sim::router::input_queued`).
    pub out_free: Vec<u64>,
    pub cred_free: Vec<u64>,
    /// Flits of the packets created since cycle 0.
    pub gen_flits: u64,
    pub total_packets: u64,
    pub total_flits: u64,
    pub last_eject: u64,
    // Statistics.
    pub plat: Histogram,
    pub nlat: Histogram,
    pub qlat: Histogram,
    pub flat: Histogram,
    pub hops: Histogram,
    pub sample_sum: u64,
    pub sample_n: u64,
    /// Latency sum and count of every delivered packet (warm-up convergence).
    pub warm_sum: u64,
    pub warm_n: u64,
    /// Tail ejections of tagged packets since the last drain: `(tag, cycle)` (collective
    /// traffic, `sim::workload::collective`).
    pub tail_log: Vec<(u32, u64)>,
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
        let vcs = usize::from(cfg.num_vcs);
        let buf = usize::from(cfg.vc_buf_size);
        let nports = fabric.ports.len();
        let niv = nports * vcs;
        let driver = Driver::new(net, fabric.terminals, cfg).map_err(SimError::Config)?;
        let terms = (0..fabric.terminals)
            .map(|_| Terminal {
                credits: vec![cfg.vc_buf_size; vcs],
                ..Default::default()
            })
            .collect();
        // With speedup a flit or credit may wait in its port's queue: at most a VC buffer per
        // VC of them (the credits bound the queue; ejection queues are bounded to that).
        let queueing = if cfg.internal_speedup.is_one() {
            0
        } else {
            2 * u64::from(cfg.num_vcs) * u64::from(cfg.vc_buf_size) + 2
        };
        let max_delay = u64::from(fabric.max_latency().max(cfg.terminal_latency))
            + u64::from(cfg.st_delay)
            + u64::from(cfg.credit_delay)
            + 1
            + queueing;
        let switches = fabric.switches as usize;
        let radix = fabric.radix;
        let words = (radix * vcs).div_ceil(64);
        Ok(State {
            cfg: cfg.clone(),
            routing,
            sync_routing: None,
            ugal: routing.ugal(),
            vcs,
            rvcs,
            buf,
            slots: vec![Slot::default(); niv * buf],
            ivs: vec![InVc::default(); niv],
            credits: vec![cfg.vc_buf_size; niv],
            busy: vec![false; niv],
            buffered: vec![0; switches],
            nonempty: vec![0; switches * words],
            words,
            wake: vec![0; switches],
            due: Vec::new(),
            arb: Arbiters::new(cfg.allocator, switches, radix, cfg.num_vcs),
            parts: partition::cut(switches, 1, radix, vcs),
            port_vc: (0..radix * vcs)
                .map(|li| ((li / vcs) as u16, (li % vcs) as u8))
                .collect(),
            router_of: FastDiv::new((radix * vcs) as u32),
            terms,
            active_terms: Vec::with_capacity(fabric.terminals as usize),
            packets: Vec::with_capacity(1024),
            free: Vec::with_capacity(1024),
            wheel: Wheel::new(max_delay),
            driver,
            now: 0,
            last_progress: 0,
            in_network: 0,
            measuring: false,
            measured_outstanding: 0,
            violations: 0,
            channel_flits: vec![0; nports],
            out_free: vec![0; nports],
            cred_free: vec![0; nports],
            gen_flits: 0,
            total_packets: 0,
            total_flits: 0,
            last_eject: 0,
            plat: Histogram::new(),
            nlat: Histogram::new(),
            qlat: Histogram::new(),
            flat: Histogram::new(),
            hops: Histogram::new(),
            sample_sum: 0,
            sample_n: 0,
            warm_sum: 0,
            warm_n: 0,
            tail_log: Vec::new(),
            fabric,
        })
    }

    /// Queues a new packet at terminal `t`.
    pub(crate) fn create(&mut self, t: u32, dst: u32) {
        self.create_tagged(t, dst, NO_TAG);
    }

    /// Queues a new packet of message `tag` at terminal `t` (its tail's ejection is logged
    /// in `tail_log` unless `tag` is [`NO_TAG`]).
    pub(crate) fn create_tagged(&mut self, t: u32, dst: u32, tag: u32) {
        let term = &mut self.terms[t as usize];
        term.queue.push_back(Pending {
            dst,
            created: self.now,
            measured: self.measuring,
            tag,
        });
        self.gen_flits += u64::from(self.cfg.packet_size);
        if self.measuring {
            self.measured_outstanding += 1;
        }
        if !term.active {
            term.active = true;
            self.active_terms.push(t);
        }
    }

    /// Takes the events due now and delivers ejections and terminal credits; the flits and
    /// credits for routers are delivered in the router phase, by each router's partition.
    fn deliver_events(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let evs = self.wheel.take(now);
        for ev in &evs {
            match *ev {
                Event::Arrive { .. } | Event::Credit { .. } => {}
                Event::Eject { term, flit } => self.eject(term, flit),
                Event::TermCredit { term, vc } => {
                    self.terms[term as usize].credits[usize::from(vc)] += 1;
                    let t = &mut self.terms[term as usize];
                    if !t.active && t.current.is_some() {
                        t.active = true;
                        self.active_terms.push(term);
                    }
                }
            }
        }
        self.due = evs;
        Ok(())
    }

    fn eject(&mut self, term: u32, flit: Flit) {
        let now = self.now;
        let p = &mut self.packets[flit.pkt as usize];
        if p.dst != term || p.received != flit.seq {
            self.violations += 1;
        }
        p.received += 1;
        self.in_network -= 1;
        self.last_progress = now;
        self.last_eject = now;
        self.total_flits += 1;
        let p = *p;
        if p.measured {
            self.flat.add(now - p.created);
        }
        if flit.tail {
            if p.received != self.cfg.packet_size {
                self.violations += 1;
            }
            self.total_packets += 1;
            if p.tag != NO_TAG {
                self.tail_log.push((p.tag, now));
            }
            self.warm_sum += now - p.created;
            self.warm_n += 1;
            if p.measured {
                self.plat.add(now - p.created);
                self.nlat.add(now - p.injected);
                self.qlat.add(p.injected - p.created);
                self.hops.add(u64::from(p.hops));
                self.measured_outstanding -= 1;
                self.sample_sum += now - p.created;
                self.sample_n += 1;
            }
            self.free.push(flit.pkt);
        }
    }

    fn generate(&mut self) {
        if self.cfg.injection != Injection::Bernoulli {
            return;
        }
        for t in 0..self.fabric.terminals {
            if self.driver.bernoulli.fire(&mut self.driver.rng) {
                let d = self.driver.dest(t);
                if d != t {
                    self.create(t, d);
                }
            }
        }
    }

    fn inject(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let mut i = 0;
        while i < self.active_terms.len() {
            let t = self.active_terms[i];
            let ti = t as usize;
            if self.terms[ti].current.is_none() {
                if let Some(p) = self.terms[ti].queue.pop_front() {
                    let state = self
                        .routing
                        .inject(t, p.dst)
                        .map_err(|e| SimError::Routing(format!("inject {t}→{}: {e}", p.dst)))?;
                    let pkt = Packet {
                        src: t,
                        dst: p.dst,
                        created: p.created,
                        injected: now,
                        hops: 0,
                        received: 0,
                        measured: p.measured,
                        state,
                        tag: p.tag,
                    };
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
                    let vc = self.pick_vc(&self.terms[ti].credits, state.vc);
                    self.terms[ti].current = Some((id, 0, vc));
                }
            }
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
            let tail = seq + 1 == self.cfg.packet_size;
            term.current = if tail { None } else { Some((id, seq + 1, vc)) };
            if seq == 0 {
                self.packets[id as usize].injected = now;
            }
            let (s, port) = self.fabric.terminal_port[ti];
            let pi = s as usize * self.fabric.radix + usize::from(port);
            let iv = (pi * self.vcs + usize::from(vc)) as u32;
            let flit = Flit { pkt: id, seq, tail };
            self.wheel.push(
                now + u64::from(self.cfg.terminal_latency),
                Event::Arrive { iv, flit },
            );
            self.in_network += 1;
            self.last_progress = now;
            i += 1;
        }
        Ok(())
    }

    /// Physical VC for logical VC `v`: among `v, v+R, v+2R, …` the one with most credits
    /// (lowest on ties).
    pub(crate) fn pick_vc(&self, credits: &[u16], v: u8) -> u8 {
        let r = usize::from(self.rvcs);
        let mut best = usize::from(v);
        let mut k = best;
        while k < self.vcs {
            if credits[k] > credits[best] {
                best = k;
            }
            k += r;
        }
        best as u8
    }

    /// Steps the routers on `threads` threads (router partitions, `sim::engine::partition`): the
    /// statistics are the same for every `threads`. UGAL-G networks keep one partition (its
    /// decisions read other routers' credits). Call before the first cycle.
    pub(crate) fn set_threads(&mut self, routing: &'r (dyn Routing + Sync), threads: usize) {
        let global = self.ugal.is_some_and(|u| u.mode() == UgalMode::Global);
        let n = if global { 1 } else { threads };
        self.sync_routing = Some(routing);
        self.parts = partition::cut(
            self.fabric.switches as usize,
            n,
            self.fabric.radix,
            self.vcs,
        );
    }

    fn step_routers(&mut self) -> Result<(), SimError> {
        let shape = self.arb.shape();
        let sp = self.cfg.internal_speedup;
        let first = sp.first_step(self.now);
        let c = &self.cfg;
        let head_ready = [c.routing_delay, c.vc_alloc_delay, c.sw_alloc_delay]
            .into_iter()
            .fold(first, |k, d| sp.after_stage(k, u64::from(d)));
        let body_ready = sp.after_stage(first, u64::from(c.sw_alloc_delay));
        let vc_slots = self.vcs as u64 * self.buf as u64;
        macro_rules! shared {
            ($routing:expr) => {
                Shared {
                    fabric: &self.fabric,
                    cfg: &self.cfg,
                    routing: $routing,
                    ugal: self.ugal,
                    vcs: self.vcs,
                    rvcs: self.rvcs,
                    buf: self.buf,
                    words: self.words,
                    shape,
                    port_vc: &self.port_vc,
                    cycle: self.now,
                    first,
                    steps: sp.steps_in(self.now),
                    speedup: sp,
                    head_ready,
                    body_ready,
                    out_limit: self.cfg.output_buffer_size.map_or(u64::MAX, u64::from),
                    eject_limit: self
                        .cfg
                        .output_buffer_size
                        .map_or(vc_slots, |n| u64::from(n).min(vc_slots)),
                    router_of: self.router_of,
                    due: &self.due,
                }
            };
        }
        let mut r = Routers {
            lo: 0,
            hi: self.fabric.switches as usize,
            ivs: &mut self.ivs,
            slots: &mut self.slots,
            credits: &mut self.credits,
            busy: &mut self.busy,
            buffered: &mut self.buffered,
            nonempty: &mut self.nonempty,
            wake: &mut self.wake,
            channel_flits: &mut self.channel_flits,
            ptrs: self.arb.pointers_mut(),
            out_free: &mut self.out_free,
            cred_free: &mut self.cred_free,
        };
        match (self.parts.as_mut_slice(), self.sync_routing) {
            ([p], _) => {
                let mut fx = Direct {
                    packets: &mut self.packets,
                    wheel: &mut self.wheel,
                };
                input_queued::step_routers(&shared!(self.routing), &mut r, &mut p.work, &mut fx)?;
            }
            ([], _) => {}
            (parts, Some(sync)) => {
                partition::step_parallel(&shared!(sync), &self.packets, r, parts);
                partition::apply(parts, &mut self.packets, &mut self.wheel)?;
            }
            (_, None) => {
                return Err(SimError::Config(
                    "several router partitions need a routing shareable between threads".into(),
                ))
            }
        }
        self.wheel
            .give_back(self.now, std::mem::take(&mut self.due));
        for p in &mut self.parts {
            self.violations += std::mem::take(&mut p.work.violations);
            if std::mem::take(&mut p.work.moved) {
                self.last_progress = self.now;
            }
        }
        Ok(())
    }

    pub(crate) fn cycle(&mut self) -> Result<(), SimError> {
        self.deliver_events()?;
        self.generate();
        self.inject()?;
        self.step_routers()?;
        self.now += 1;
        Ok(())
    }

    pub(crate) fn stuck(&self) -> bool {
        self.in_network > 0 && self.now - self.last_progress >= u64::from(self.cfg.watchdog_cycles)
    }
}

/// Counter values at one instant; a measurement window is the difference of two.
#[derive(Clone, Debug)]
pub(crate) struct Counters {
    /// Cycle of the snapshot.
    pub cycle: u64,
    /// Flits of the packets created so far.
    pub gen: u64,
    /// Flits ejected so far.
    pub ejected: u64,
    /// Flits sent on each channel so far.
    pub channels: Vec<u64>,
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

impl State<'_> {
    /// The counters now.
    pub(crate) fn counters(&self) -> Counters {
        Counters {
            cycle: self.now,
            gen: self.gen_flits,
            ejected: self.total_flits,
            channels: self.channel_flits.clone(),
        }
    }

    /// The counters at cycle 0 (all zero).
    pub(crate) fn zero_counters(&self) -> Counters {
        Counters {
            cycle: 0,
            gen: 0,
            ejected: 0,
            channels: vec![0; self.channel_flits.len()],
        }
    }

    /// End of a run that lasts until its last packet is delivered (batch, trace): the
    /// cycle of the last ejection, or the watchdog's cycle after a deadlock.
    pub(crate) fn delivered_end(&self, deadlock: bool) -> Counters {
        let mut c = self.counters();
        if !deadlock {
            c.cycle = self.last_eject;
        }
        c
    }
}
