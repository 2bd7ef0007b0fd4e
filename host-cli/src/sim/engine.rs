//! Engine loop (issue 9): state of the whole network and the BookSim-style phases — warm-up
//! sample periods, measurement samples until the mean latency converges (or `max_samples`),
//! then drain until every measured packet has arrived. Per cycle: deliver the channel events
//! due, create packets, inject from terminals, step the active routers. Only routers holding
//! flits and terminals with packets are visited.

use jumpnet_core::routing::dragonfly::ugal::DragonflyUgal;
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use super::allocator::{Arbiters, Request};
use super::config::{Injection, SimConfig};
use super::network::{Event, Fabric, Flit, PortKind, Slot, Wheel};
use super::stats::{ClassUtilisation, Histogram, SimResult};
use super::terminal::{Packet, Pending, Terminal, NO_TAG};
use super::traffic::Driver;

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

/// Per-input-VC route state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum VcState {
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
pub(super) struct InVc {
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
pub(super) struct State<'r> {
    pub cfg: SimConfig,
    pub fabric: Fabric,
    pub routing: &'r dyn Routing,
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
    pub in_active: Vec<bool>,
    pub active: Vec<u32>,
    pub arb: Arbiters,
    pub reqs: Vec<Request>,
    pub wins: Vec<Request>,
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
    /// Flits of the packets created since cycle 0.
    pub gen_flits: u64,
    pub total_packets: u64,
    pub total_flits: u64,
    pub last_eject: u64,
    // Statistics.
    pub plat: Histogram,
    pub nlat: Histogram,
    pub flat: Histogram,
    pub hops: Histogram,
    pub sample_sum: u64,
    pub sample_n: u64,
    /// Latency sum and count of every delivered packet (warm-up convergence).
    pub warm_sum: u64,
    pub warm_n: u64,
    /// Tail ejections of tagged packets since the last drain: `(tag, cycle)` (collective
    /// traffic, `sim::collective`).
    pub tail_log: Vec<(u32, u64)>,
}

impl<'r> State<'r> {
    pub(super) fn new(
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
        if cfg.internal_speedup != 1 {
            return Err(SimError::Config(format!(
                "internal_speedup = {} is not modelled yet (only 1)",
                cfg.internal_speedup
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
        let max_delay = u64::from(fabric.max_latency().max(cfg.terminal_latency))
            + u64::from(cfg.st_delay)
            + u64::from(cfg.credit_delay)
            + 1;
        let switches = fabric.switches as usize;
        let radix = fabric.radix;
        let words = (radix * vcs).div_ceil(64);
        Ok(State {
            cfg: cfg.clone(),
            routing,
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
            in_active: vec![false; switches],
            active: Vec::with_capacity(switches),
            arb: Arbiters::new(cfg.allocator, switches, radix, cfg.num_vcs),
            reqs: Vec::with_capacity(radix * vcs),
            wins: Vec::with_capacity(radix),
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
            gen_flits: 0,
            total_packets: 0,
            total_flits: 0,
            last_eject: 0,
            plat: Histogram::new(),
            nlat: Histogram::new(),
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
    pub(super) fn create(&mut self, t: u32, dst: u32) {
        self.create_tagged(t, dst, NO_TAG);
    }

    /// Queues a new packet of message `tag` at terminal `t` (its tail's ejection is logged
    /// in `tail_log` unless `tag` is [`NO_TAG`]).
    pub(super) fn create_tagged(&mut self, t: u32, dst: u32, tag: u32) {
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

    fn deliver_events(&mut self) -> Result<(), SimError> {
        let now = self.now;
        let evs = self.wheel.take(now);
        for ev in &evs {
            match *ev {
                Event::Arrive { iv, flit } => self.arrive(iv as usize, flit),
                Event::Eject { term, flit } => self.eject(term, flit),
                Event::Credit { ov } => {
                    let c = &mut self.credits[ov as usize];
                    *c += 1;
                    if *c > self.cfg.vc_buf_size {
                        self.violations += 1;
                    }
                }
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
        self.wheel.give_back(now, evs);
        Ok(())
    }

    fn arrive(&mut self, iv: usize, flit: Flit) {
        let c = &self.cfg;
        let delay = if flit.seq == 0 {
            u64::from(c.routing_delay) + u64::from(c.vc_alloc_delay) + u64::from(c.sw_alloc_delay)
        } else {
            u64::from(c.sw_alloc_delay)
        };
        let l = usize::from(self.ivs[iv].len);
        if l >= self.buf {
            self.violations += 1;
            return;
        }
        // head < buf and l < buf: one conditional subtraction instead of a division.
        let mut pos = usize::from(self.ivs[iv].head) + l;
        if pos >= self.buf {
            pos -= self.buf;
        }
        let slot = iv * self.buf + pos;
        self.slots[slot] = Slot {
            ready: self.now + delay,
            flit,
        };
        if l == 0 {
            self.ivs[iv].fready = self.now + delay;
        }
        self.ivs[iv].len += 1;
        let per = self.vcs * self.fabric.radix;
        // 32-bit division (input-VC indices are u32).
        let s = (iv as u32 / per as u32) as usize;
        let li = iv - s * per;
        self.nonempty[s * self.words + li / 64] |= 1 << (li % 64);
        self.wake[s] = self.wake[s].min(self.now + delay);
        self.buffered[s] += 1;
        if !self.in_active[s] {
            self.in_active[s] = true;
            self.active.push(s as u32);
        }
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
    pub(super) fn pick_vc(&self, credits: &[u16], v: u8) -> u8 {
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

    fn step_routers(&mut self) -> Result<(), SimError> {
        let mut i = 0;
        while i < self.active.len() {
            let s = self.active[i] as usize;
            if self.wake[s] <= self.now {
                self.step_router(s)?;
            }
            i += 1;
        }
        let mut k = 0;
        while k < self.active.len() {
            let s = self.active[k] as usize;
            if self.buffered[s] == 0 {
                self.in_active[s] = false;
                self.active.swap_remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }

    pub(super) fn cycle(&mut self) -> Result<(), SimError> {
        self.deliver_events()?;
        self.generate();
        self.inject()?;
        self.step_routers()?;
        self.now += 1;
        Ok(())
    }

    pub(super) fn stuck(&self) -> bool {
        self.in_network > 0 && self.now - self.last_progress >= u64::from(self.cfg.watchdog_cycles)
    }
}

/// Counter values at one instant; a measurement window is the difference of two.
#[derive(Clone, Debug)]
pub(super) struct Counters {
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
pub(super) struct Outcome {
    /// Cycles simulated.
    pub cycles: u64,
    /// Measurement samples taken.
    pub samples: u32,
    /// Whether the run was declared saturated.
    pub saturated: bool,
    /// The watchdog's report, if it fired.
    pub deadlock: Option<super::stats::DeadlockReport>,
}

impl State<'_> {
    /// The counters now.
    pub(super) fn counters(&self) -> Counters {
        Counters {
            cycle: self.now,
            gen: self.gen_flits,
            ejected: self.total_flits,
            channels: self.channel_flits.clone(),
        }
    }

    /// The counters at cycle 0 (all zero).
    pub(super) fn zero_counters(&self) -> Counters {
        Counters {
            cycle: 0,
            gen: 0,
            ejected: 0,
            channels: vec![0; self.channel_flits.len()],
        }
    }

    /// End of a run that lasts until its last packet is delivered (batch, trace): the
    /// cycle of the last ejection, or the watchdog's cycle after a deadlock.
    fn delivered_end(&self, deadlock: bool) -> Counters {
        let mut c = self.counters();
        if !deadlock {
            c.cycle = self.last_eject;
        }
        c
    }
}

/// Runs the explicit packets `trace` (`(src, dst, created cycle)`, any order) instead of
/// synthetic traffic, until all are delivered (or a deadlock); every packet is measured.
/// Used for zero-load checks and by drivers of message traces. The measurement window is
/// the whole run: `measured_cycles = cycles` = the cycle of the last ejection (or of the
/// watchdog).
pub fn run_trace(
    net: &Network<'_>,
    routing: &dyn Routing,
    cfg: &SimConfig,
    trace: &[(u32, u32, u64)],
) -> Result<SimResult, SimError> {
    let mut c = cfg.clone();
    c.injection = Injection::Batch;
    c.batch_size = 0;
    let mut order: Vec<usize> = (0..trace.len()).collect();
    order.sort_by_key(|&i| (trace[i].2, i));
    let mut st = State::new(net, routing, &c)?;
    st.measuring = true;
    let start = st.zero_counters();
    let n = st.fabric.terminals;
    let mut next = 0;
    let mut deadlock = None;
    while next < order.len() || st.measured_outstanding > 0 {
        while next < order.len() && trace[order[next]].2 <= st.now {
            let (s, d, _) = trace[order[next]];
            if s >= n || d >= n || s == d {
                return Err(SimError::Config(format!("bad trace packet {s}→{d}")));
            }
            st.create(s, d);
            next += 1;
        }
        st.cycle()?;
        if st.stuck() {
            deadlock = Some(st.deadlock_report());
            break;
        }
    }
    let end = st.delivered_end(deadlock.is_some());
    let outcome = Outcome {
        cycles: end.cycle,
        samples: 1,
        saturated: false,
        deadlock,
    };
    Ok(st.finish(&c, &start, &end, outcome))
}

/// Runs one simulation of `cfg` on `net` with `routing` (every routing decision is a call to
/// `routing`). Returns the statistics; a deadlock stops the run and is reported in
/// [`SimResult::deadlock`].
///
/// Measurement window: batch runs measure the whole run (`measured_cycles = cycles` = the
/// cycle of the last ejection); Bernoulli runs measure the sample periods. A deadlock during
/// the measurement ends the window at the watchdog's cycle; a deadlock during the warm-up
/// (before any measurement) makes the window the whole run so far (`measured_cycles =
/// cycles`, offered and accepted over all cycles run, no latency samples).
pub fn run(
    net: &Network<'_>,
    routing: &dyn Routing,
    cfg: &SimConfig,
) -> Result<SimResult, SimError> {
    let mut st = State::new(net, routing, cfg)?;
    let period = u64::from(cfg.sample_period);
    let mut deadlock = None;
    let mut samples = 0u32;
    let mut saturated = false;
    let mut start: Option<Counters> = None;
    let mut end: Option<Counters> = None;
    if cfg.injection == Injection::Batch {
        st.measuring = true;
        start = Some(st.zero_counters());
        // Every packet draws its own destination (terminal-major order).
        for t in 0..st.fabric.terminals {
            for _ in 0..cfg.batch_size {
                let d = st.driver.dest(t);
                if d != t {
                    st.create(t, d);
                }
            }
        }
        while st.measured_outstanding > 0 {
            st.cycle()?;
            if st.stuck() {
                deadlock = Some(st.deadlock_report());
                break;
            }
        }
        end = Some(st.delivered_end(deadlock.is_some()));
        samples = 1;
    } else {
        // Warm-up.
        'run: {
            for _ in 0..u64::from(cfg.warmup_periods) * period {
                st.cycle()?;
                if st.stuck() {
                    deadlock = Some(st.deadlock_report());
                    break 'run;
                }
            }
            if cfg.warmup_periods == 0 {
                // BookSim2: without fixed warm-up periods, warm up until the mean latency of
                // successive periods changes by less than `warmup_thres` (at most
                // `max_samples` periods).
                let mut prev: Option<f64> = None;
                for _ in 0..cfg.max_samples {
                    st.warm_sum = 0;
                    st.warm_n = 0;
                    for _ in 0..period {
                        st.cycle()?;
                        if st.stuck() {
                            deadlock = Some(st.deadlock_report());
                            break 'run;
                        }
                    }
                    let mean = st.warm_sum as f64 / st.warm_n.max(1) as f64;
                    if mean > cfg.latency_thres {
                        break;
                    }
                    if let Some(p) = prev {
                        if p > 0.0 && ((mean - p) / p).abs() < cfg.warmup_thres {
                            break;
                        }
                    }
                    prev = Some(mean);
                }
            }
            st.measuring = true;
            start = Some(st.counters());
            let mut prev: Option<f64> = None;
            while samples < cfg.max_samples.max(1) {
                st.sample_sum = 0;
                st.sample_n = 0;
                for _ in 0..period {
                    st.cycle()?;
                    if st.stuck() {
                        deadlock = Some(st.deadlock_report());
                        break 'run;
                    }
                }
                samples += 1;
                let mean = if st.sample_n == 0 {
                    0.0
                } else {
                    st.sample_sum as f64 / st.sample_n as f64
                };
                if mean > cfg.latency_thres {
                    saturated = true;
                    break;
                }
                if let Some(p) = prev {
                    if p > 0.0 && ((mean - p) / p).abs() < cfg.stopping_thres {
                        break;
                    }
                }
                prev = Some(mean);
            }
            st.measuring = false;
            end = Some(st.counters());
            // Drain measured packets (not when saturated: they may never arrive).
            if cfg.drain && !saturated {
                let limit = st.now + 100 * period.max(1000);
                while st.measured_outstanding > 0 && st.now < limit {
                    st.cycle()?;
                    if st.stuck() {
                        deadlock = Some(st.deadlock_report());
                        break;
                    }
                }
                if st.measured_outstanding > 0 {
                    saturated = true;
                }
            }
        }
    }
    // A deadlock before the measurement: the window is the whole run; during it: the
    // window ends at the watchdog's cycle.
    let start = start.unwrap_or_else(|| st.zero_counters());
    let end = end.unwrap_or_else(|| st.counters());
    let cycles = if cfg.injection == Injection::Batch {
        end.cycle
    } else {
        st.now
    };
    let outcome = Outcome {
        cycles,
        samples,
        saturated,
        deadlock,
    };
    Ok(st.finish(cfg, &start, &end, outcome))
}

impl State<'_> {
    /// Statistics of the run so far.
    pub(super) fn finish(
        &self,
        cfg: &SimConfig,
        start: &Counters,
        end: &Counters,
        outcome: Outcome,
    ) -> SimResult {
        let Outcome {
            cycles,
            samples,
            mut saturated,
            deadlock,
        } = outcome;
        let st = self;
        let mcycles = end.cycle.saturating_sub(start.cycle).max(1);
        let nodes = f64::from(st.fabric.terminals);
        let offered = (end.gen - start.gen) as f64 / nodes / mcycles as f64;
        let accepted = (end.ejected - start.ejected) as f64 / nodes / mcycles as f64;
        if cfg.injection == Injection::Bernoulli && accepted < 0.9 * offered {
            saturated = true;
        }
        let channel_utilisation: Vec<f64> = end
            .channels
            .iter()
            .zip(&start.channels)
            .map(|(&e, &s)| (e - s) as f64 / mcycles as f64)
            .collect();
        let mut class_utilisation: Vec<ClassUtilisation> = st
            .fabric
            .class_names
            .iter()
            .map(|c| ClassUtilisation {
                class: c.clone(),
                channels: 0,
                utilisation: 0.0,
            })
            .collect();
        for (i, kind) in st.fabric.ports.iter().enumerate() {
            if *kind == PortKind::Unconnected {
                continue;
            }
            let c = &mut class_utilisation[usize::from(st.fabric.class[i])];
            c.channels += 1;
            c.utilisation += channel_utilisation[i];
        }
        for c in &mut class_utilisation {
            if c.channels > 0 {
                c.utilisation /= c.channels as f64;
            }
        }
        SimResult {
            packet_latency: st.plat.summary(),
            network_latency: st.nlat.summary(),
            flit_latency: st.flat.summary(),
            hops: st.hops.summary(),
            offered,
            accepted,
            channel_utilisation,
            class_utilisation,
            saturated,
            samples,
            cycles,
            measured_cycles: mcycles,
            packets_delivered: st.total_packets,
            flits_delivered: st.total_flits,
            conservation_errors: st.violations,
            deadlock,
        }
    }
}
