//! BookSim2's traffic classes in the engine (`classes > 1`, docs/booksim.md §3.5): every
//! terminal keeps a source queue per class, each class with its own traffic driver
//! (pattern, process, rate, packet size), and the injection channel carries one flit per
//! cycle, chosen among the classes as BookSim2's `TrafficManager::_Step` chooses:
//!
//! * the classes are visited round robin from the one after the class of the last flit
//!   sent, so the flits of packets of different classes interleave on the channel, each
//!   packet on its own VC;
//! * a class's next flit is ready when its packet holds a VC with a credit, or, for a
//!   head, when a VC is found: round robin from the class's own last VC, one that no other
//!   packet of the terminal holds and that has a credit (all its credits with
//!   `wait_for_tail_credit`);
//! * the first ready class is sent unless a later one has a strictly higher priority (its
//!   next flit's: `priority = class`, `age`, `sequence`, `super::priority`; otherwise every
//!   flit at a source has priority 0);
//! * with `hold_switch_for_packet` the last class's packet keeps the channel while it has
//!   a credit, unless a class of higher priority is ready.
//!
//! Every class draws its packets' sizes from its own driver (a fixed size or the class's
//! distribution, docs/booksim.md §3.5). In BookSim2's batch mode the classes of a terminal
//! share one batch source ([`PacedBatch`]): `batch_size` packets per terminal and batch over
//! all its classes, each class attempting when its own queue is empty, in class order.
//!
//! Statistics are kept per class as well as over all classes ([`ClassStats`]), and BookSim2's
//! stopping rule tests every class (`booksim_rule`). A run with one class does not use any
//! of this: its terminals keep their single queue — unless it runs BookSim2's read/write
//! traffic (`super::read_write`, docs/booksim.md §3.6), which this runs as one class.

mod booksim_sources;
mod stats;

use std::collections::VecDeque;

use jumpnet_core::rng::knuth_float::RanfStream;
use jumpnet_core::topology::Network;

use crate::sim::config::{Draws, Injection, Kind, SimConfig, TrafficClass};
use crate::sim::engine::read_write::{window_order, Replies};
use crate::sim::engine::stats::Recorder;
use crate::sim::engine::{SimError, State};
use crate::sim::network::terminal::{Packet, Pending, NO_TAG};
use crate::sim::router::priority::Priority;
use crate::sim::workload::booksim_draws::BookSimDraws;
use crate::sim::workload::paced_batch::PacedBatch;
use crate::sim::workload::synthetic::{Driver, Process};

pub use stats::ClassStats;

/// One class's source queue at one terminal.
#[derive(Debug, Default)]
struct Lane {
    /// Created packets not started.
    queue: VecDeque<Pending>,
    /// Packet being injected: pool id, next flit, VC.
    current: Option<(u32, u16, u8)>,
    /// VC found for the waiting head (kept until it is sent, as BookSim2 keeps it).
    head_vc: Option<u8>,
    /// VC of this class's last packet at this terminal (round robin); [`NO_VC`] before its
    /// first.
    last_vc: u8,
    /// Read/write traffic: the queue's front is the packet chosen to go next (kept until
    /// its head leaves, `State::stage_reply`).
    staged: bool,
}

/// [`Lane::last_vc`] before a class's first packet at a terminal: outside every VC range, so
/// that the head tries only the range's first VC, as BookSim2's does while its `_last_vc`
/// is −1 (every try of its round robin is then the range's first VC).
const NO_VC: u8 = u8::MAX;

/// The classes of a run: drivers, per-terminal queues and per-class statistics.
#[derive(Debug)]
pub(crate) struct Classes {
    drivers: Vec<Driver>,
    sizes: Vec<u16>,
    /// Priority of each class (all 0 without `priority = class`).
    prio: Vec<u32>,
    /// Terminal-major: `lanes[t · classes + c]`.
    lanes: Vec<Lane>,
    /// Per terminal: class of the last flit sent.
    last_class: Vec<u16>,
    /// Per terminal and VC: held by a packet of the terminal being injected.
    in_use: Vec<bool>,
    /// Per class: statistics of its packets.
    recs: Vec<Recorder>,
    /// Per class: flits created (those ejected are in the run's `NodeCounts`).
    gen: Vec<u64>,
    /// BookSim2's read/write traffic (`use_read_write`): its parameters and queued replies.
    replies: Option<Replies>,
    /// BookSim2's batch mode: the batch source of every class (the drivers draw
    /// destinations and sizes only; the read/write coin comes from `coin`).
    batch: Option<PacedBatch>,
    /// BookSim2's batch mode with read/write traffic: BookSim2's `RandomFloat` stream for
    /// `seed`, the only one its batch source draws the read/write coin from (docs/booksim.md
    /// §3.6), shared by every class in BookSim2's order of draws (terminal, then class).
    coin: Option<Box<RanfStream>>,
    /// With BookSim2's draws (`draws = booksim`, docs/booksim.md §3.9; not with read/write
    /// traffic): BookSim2's two generators, which every class's source and packets draw
    /// from, terminal by terminal and class by class, as BookSim2's `_Inject` does.
    draws: Option<Box<BookSimDraws>>,
    /// The run's classes are BookSim2's (`classes > 1`; `false` for read/write traffic
    /// run as one class, whose statistics are the run's own).
    listed: bool,
}

/// A class's thresholds of BookSim2's stopping rule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Thresholds {
    pub latency: f64,
    pub warmup: f64,
    pub acc_warmup: f64,
    pub stopping: f64,
    pub acc_stopping: f64,
}

impl Thresholds {
    fn of(cfg: &SimConfig) -> Self {
        Thresholds {
            latency: cfg.latency_thres,
            warmup: cfg.warmup_thres,
            acc_warmup: cfg.extras.acc_warmup_thres,
            stopping: cfg.stopping_thres,
            acc_stopping: cfg.extras.acc_stopping_thres,
        }
    }
}

impl Classes {
    /// The classes of `cfg` (`None` with one class, unless it runs read/write traffic,
    /// docs/booksim.md §3.6).
    pub fn new(net: &Network<'_>, nodes: u32, cfg: &SimConfig) -> Result<Option<Self>, String> {
        let rw = cfg.extras.read_write.as_ref();
        let one = [TrafficClass::of(cfg, 0)];
        let list = match (cfg.extras.classes.as_slice(), rw) {
            ([], None) => return Ok(None),
            ([], Some(_)) => &one[..],
            (l, _) => l,
        };
        let n = list.len();
        let batch = (cfg.injection == Injection::BookSimBatch)
            .then(|| PacedBatch::new(nodes, n, cfg.batch_size, cfg.extras.max_outstanding));
        let booksim = cfg.extras.draws == Draws::BookSim && rw.is_none();
        // BookSim2 draws on/off first states class after class, before it seeds.
        let mut unseeded = BookSimDraws::unseeded();
        let mut drivers = Vec::with_capacity(n);
        for (c, class) in list.iter().enumerate() {
            let mut cc = class.apply(cfg);
            // Each class draws from its own generator (with BookSim2's draws, what BookSim2
            // does not draw: e.g. a torus's ties).
            cc.seed = cfg.seed ^ (c as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let d = if booksim {
                Driver::for_class(net, nodes, &cc, &mut unseeded)
            } else {
                // BookSim2's draws with read/write traffic are not modelled.
                cc.extras.draws = Draws::Jumpnet;
                Driver::new(net, nodes, &cc)
            };
            let mut d = d.map_err(|e| format!("class {c}: {e}"))?;
            if batch.is_some() {
                // The classes' shared source creates the packets (a batch source of its
                // own draws nothing: the driver's draws are unchanged).
                d.process = Process::Plain;
            }
            drivers.push(d);
        }
        let vcs = usize::from(cfg.num_vcs);
        let prio: Vec<u32> = list
            .iter()
            .map(|c| {
                if cfg.extras.priority == Priority::Class {
                    c.priority
                } else {
                    0
                }
            })
            .collect();
        let lanes = (0..nodes as usize * n)
            .map(|_| Lane {
                last_vc: NO_VC,
                ..Lane::default()
            })
            .collect();
        Ok(Some(Classes {
            drivers,
            sizes: list.iter().map(|c| c.packet_size).collect(),
            prio,
            lanes,
            last_class: vec![0; nodes as usize],
            in_use: vec![false; nodes as usize * vcs],
            recs: (0..n).map(|_| Recorder::new()).collect(),
            gen: vec![0; n],
            replies: rw.map(|rw| {
                let per_class = match cfg.extras.classes.as_slice() {
                    [] => vec![Some(rw.clone())],
                    l => l.iter().map(|c| c.read_write.clone()).collect(),
                };
                Replies::new(per_class, nodes)
            }),
            coin: (batch.is_some() && rw.is_some())
                .then(|| Box::new(RanfStream::new(cfg.seed as i64))),
            draws: booksim.then(|| Box::new(BookSimDraws::new(cfg.seed))),
            batch,
            listed: !cfg.extras.classes.is_empty(),
        }))
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.sizes.len()
    }

    /// Every class's recorder.
    pub fn recorders(&mut self) -> impl Iterator<Item = &mut Recorder> {
        self.recs.iter_mut()
    }

    /// A flit of packet `p` (class `p.class`) injected at `injected` ejected at `now`; its
    /// tail after `hops` hops with its fragmentation if `tail` (`Recorder::packet`).
    #[inline]
    pub fn eject(&mut self, p: &Packet, injected: u64, now: u64, tail: Option<(u32, u64)>) {
        let c = usize::from(p.class);
        self.recs[c].flit(p, injected, now);
        if let Some(tail) = tail {
            self.recs[c].packet(p, tail, now);
            if let Some(r) = self.replies.as_mut() {
                r.arrived(p, now);
            }
            if let Some(b) = self.batch.as_mut() {
                // BookSim2's batch source counts a request outstanding until its reply
                // is back at the request's source, an ordinary packet until it arrives.
                match p.kind {
                    Kind::ReadReply | Kind::WriteReply => b.delivered(p.dst, now),
                    Kind::Any => b.delivered(p.src, now),
                    Kind::ReadRequest | Kind::WriteRequest => {}
                }
            }
        }
    }

    /// BookSim2's batch source of the classes (batch mode only).
    pub fn batch_mut(&mut self) -> Option<&mut PacedBatch> {
        self.batch.as_mut()
    }

    /// The read/write state (tests).
    #[cfg(test)]
    pub fn replies(&self) -> Option<&Replies> {
        self.replies.as_ref()
    }

    /// Stops every class's injection process (tests: drain what was created).
    #[cfg(test)]
    pub fn stop_injection(&mut self) {
        for d in &mut self.drivers {
            d.bernoulli = jumpnet_core::traffic::Bernoulli::from_f64(0.0);
            d.process = crate::sim::workload::synthetic::Process::Plain;
        }
    }

    /// BookSim2's final drain (`final_drain`): each lane keeps the packet it is sending or
    /// else its first waiting one (of a class with read/write traffic only one it has
    /// chosen: BookSim2 creates a packet when its source chooses it); returns how many
    /// measured packets were dropped.
    pub fn keep_first(&mut self) -> u64 {
        let n = self.len();
        let rw: Vec<bool> = (0..n)
            .map(|c| self.replies.as_ref().is_some_and(|r| r.uses(c)))
            .collect();
        self.lanes
            .iter_mut()
            .enumerate()
            .map(|(i, l)| {
                let none_chosen = l.current.is_some() || (rw[i % n] && !l.staged);
                super::final_drain::keep_first(none_chosen, &mut l.queue)
            })
            .sum()
    }

    /// Whether a lane still holds a packet.
    pub fn busy(&self) -> bool {
        self.lanes
            .iter()
            .any(|l| l.current.is_some() || !l.queue.is_empty())
    }

    /// Flits created per class so far.
    pub fn created(&self) -> Vec<u64> {
        self.gen.clone()
    }
}

impl State<'_> {
    /// Number of traffic classes (1 without [`Classes`]).
    pub(crate) fn class_count(&self) -> usize {
        self.classes.as_ref().map_or(1, |c| c.len())
    }

    /// The stopping thresholds of class `c`.
    pub(crate) fn class_thresholds(&self, cfg: &SimConfig, c: usize) -> Thresholds {
        match cfg.extras.classes.get(c) {
            Some(class) => Thresholds::of(&class.apply(cfg)),
            None => Thresholds::of(cfg),
        }
    }

    /// BookSim2's cumulative latency `(mean, count)` of class `c` (the run's own with one
    /// class; `Recorder::cumulative`).
    pub(crate) fn class_cumulative(&self, c: usize, measured: bool) -> (f64, u64) {
        match self.classes.as_deref() {
            Some(cl) => cl.recs[c].cumulative(measured),
            None => self.rec.cumulative(measured),
        }
    }

    /// Starts a warm-up period of every recorder.
    pub(crate) fn start_warmup_period(&mut self) {
        self.rec.start_warmup_period();
        if let Some(cl) = self.classes.as_deref_mut() {
            cl.recorders().for_each(|r| r.start_warmup_period());
        }
    }

    /// Makes every recorder sample every flit from now on.
    pub(crate) fn sample_every_flit(&mut self) {
        self.rec.sample_every_flit();
        if let Some(cl) = self.classes.as_deref_mut() {
            cl.recorders().for_each(|r| r.sample_every_flit());
        }
    }

    /// Creates this cycle's packets of every class, then sends one flit per terminal.
    pub(super) fn classes_cycle(&mut self) -> Result<(), SimError> {
        let Some(mut cl) = self.classes.take() else {
            return Ok(());
        };
        if self.generating {
            self.generate_classes(&mut cl);
        }
        if self.pri.mode() == Priority::Sequence {
            self.issue_classes(&mut cl);
        }
        let res = (0..self.fabric.terminals).try_for_each(|t| self.inject_class(&mut cl, t));
        self.classes = Some(cl);
        res
    }

    /// `priority = sequence` (`super::priority`): every class whose previous packet has left
    /// its source issues its next one, which gets the next number of its terminal, the
    /// classes of a terminal in class order — BookSim2's `_Inject`, which creates a class's
    /// packet (and counts it in `_packet_seq_no`) only when the class has none at the source.
    fn issue_classes(&mut self, cl: &mut Classes) {
        let n = cl.len();
        for t in 0..self.fabric.terminals {
            for lane in &mut cl.lanes[t as usize * n..(t as usize + 1) * n] {
                if lane.current.is_some() {
                    continue;
                }
                if let Some(p) = lane.queue.front_mut().filter(|p| p.seq == 0) {
                    p.seq = self.pri.issue(t);
                }
            }
        }
    }

    fn generate_classes(&mut self, cl: &mut Classes) {
        let (now, n) = (self.now, cl.len());
        for t in 0..self.fabric.terminals {
            for c in 0..n {
                let rw = cl.replies.as_ref().is_some_and(|r| r.uses(c));
                if cl.batch.is_some() {
                    self.batch_class(cl, t, c, rw);
                    continue;
                }
                let lane = &cl.lanes[t as usize * n + c];
                let idle = lane.current.is_none() && lane.queue.is_empty();
                let d = &mut cl.drivers[c];
                let created = match cl.draws.as_deref_mut() {
                    // BookSim2's source (`draws = booksim`): trials only while idle, a packet
                    // dated to its trial.
                    Some(draws) if d.is_booksim() => d.booksim_fire(t, now, idle, draws),
                    _ => {
                        let fire = match d.process_kind() {
                            Injection::OnOff => d.fire(t, now, idle).is_some(),
                            _ => d.bernoulli.fire(&mut d.rng),
                        };
                        fire.then_some(now)
                    }
                };
                if let Some(created) = created {
                    self.create_class_packet(cl, t, c, created);
                }
                if rw {
                    self.stage_reply(cl, t, c);
                }
            }
        }
    }

    /// BookSim2's batch source of class `c` at terminal `t` (`BatchTrafficManager::_IssuePacket`,
    /// docs/booksim.md §3.5, §3.6): an idle source of a class with read/write traffic sends
    /// its terminal's oldest queued reply, which counts among the batch's packets of the
    /// terminal; else the terminal's shared batch source makes the class's next attempt at a
    /// packet (a request with read/write traffic).
    fn batch_class(&mut self, cl: &mut Classes, t: u32, c: usize, rw: bool) {
        let now = self.now;
        if rw && self.stage_reply(cl, t, c) {
            if let Some(b) = cl.batch.as_mut() {
                b.reply_sent(t);
            }
        }
        let li = t as usize * cl.len() + c;
        let lane = &cl.lanes[li];
        let idle = lane.current.is_none() && lane.queue.is_empty();
        let Some(created) = cl.batch.as_mut().and_then(|b| b.fire(t, c, now, idle)) else {
            return;
        };
        if self.create_class_packet(cl, t, c, created) {
            cl.lanes[li].staged = rw;
        } else if let Some(b) = cl.batch.as_mut() {
            b.delivered(t, now);
        }
    }

    /// Creates a packet of class `c` at terminal `t`, created at cycle `created`: to the
    /// class's pattern's destination, of the class's size or one drawn from its distribution
    /// (a read or write request of its kind's size in a class with read/write traffic).
    /// `false` when the destination is `t` itself and self-addressed packets are not sent.
    fn create_class_packet(&mut self, cl: &mut Classes, t: u32, c: usize, created: u64) -> bool {
        let d = &mut cl.drivers[c];
        // BookSim2's draws: size, destination, subnetwork, in its order (`booksim_draws`).
        let (drawn_len, dst) = match cl.draws.as_deref_mut() {
            Some(draws) => {
                let (len, dst) = d.booksim_packet(t, draws, cl.batch.is_some());
                (Some(len), dst)
            }
            None => (None, d.dest(t)),
        };
        if dst == t && !self.cfg.self_packets {
            return false;
        }
        let (kind, len) = match cl.replies.as_ref() {
            Some(r) if r.uses(c) => {
                let u = match cl.coin.as_deref_mut() {
                    Some(coin) => coin.next_f64(),
                    None => d.rng.unit_f64(),
                };
                r.request(c, u)
            }
            _ => (Kind::Any, drawn_len.unwrap_or_else(|| d.packet_size())),
        };
        // In BookSim2's drain a packet dated before the drain's start is measured too.
        let measured = self.measuring || d.drain_time().is_some_and(|at| created < at);
        let li = t as usize * cl.len() + c;
        cl.lanes[li].queue.push_back(Pending {
            dst,
            created,
            measured,
            tag: NO_TAG,
            len,
            kind,
            // Numbered when issued (`issue_classes`).
            seq: 0,
        });
        cl.gen[c] += u64::from(len);
        self.gen_flits += u64::from(len);
        self.measured_outstanding += u64::from(measured);
        true
    }

    /// Read/write traffic: when class `c`'s source at terminal `t` is idle and has not
    /// chosen its next packet, it chooses the terminal's oldest reply queued before this
    /// cycle (with the class's size of its kind), else its oldest request
    /// (`super::read_write`). A reply is measured if chosen during the measurement or if
    /// its request was. `true` when a reply was chosen.
    fn stage_reply(&mut self, cl: &mut Classes, t: u32, c: usize) -> bool {
        let li = t as usize * cl.len() + c;
        let lane = &cl.lanes[li];
        if lane.current.is_some() || lane.staged {
            return false;
        }
        let reply = cl.replies.as_mut().and_then(|r| r.take(t, c, self.now));
        let lane = &mut cl.lanes[li];
        match reply {
            Some(mut r) => {
                r.measured |= self.measuring;
                lane.queue.push_front(r);
                cl.gen[c] += u64::from(r.len);
                self.gen_flits += u64::from(r.len);
                self.measured_outstanding += u64::from(r.measured);
                lane.staged = true;
                true
            }
            None => {
                lane.staged = !lane.queue.is_empty();
                false
            }
        }
    }
}

impl State<'_> {
    /// The class whose flit terminal `t` sends this cycle, and its VC (module documentation).
    fn pick_class(&self, cl: &mut Classes, t: u32) -> Option<(usize, u8)> {
        let (n, ti) = (cl.len(), t as usize);
        let credits = &self.terms[ti].credits;
        let last = usize::from(cl.last_class[ti]);
        let at_terminals = self.pri.mode().at_terminals();
        let pri = |cl: &Classes, c: usize| {
            if at_terminals {
                self.lane_priority(cl, t, c)
            } else {
                0
            }
        };
        let mut pick: Option<(usize, u8)> = None;
        let mut limit = n;
        if self.cfg.features.hold_switch_for_packet {
            if let Some((_, seq, vc)) = cl.lanes[ti * n + last].current {
                if seq > 0 && credits[usize::from(vc)] > 0 {
                    pick = Some((last, vc));
                    limit -= 1;
                }
            }
        }
        for i in 1..=limit {
            let c = (last + i) % n;
            let lane = &cl.lanes[ti * n + c];
            if lane.current.is_none() && lane.queue.is_empty() {
                continue;
            }
            if pick.is_some_and(|(p, _)| pri(cl, p) >= pri(cl, c)) {
                continue;
            }
            let vc = match lane.current {
                Some((_, _, vc)) => vc,
                None => match self.head_vc(cl, t, c) {
                    Some(vc) => vc,
                    None => continue,
                },
            };
            if credits[usize::from(vc)] > 0 {
                pick = Some((c, vc));
            }
        }
        pick
    }

    /// BookSim2's priority of the next flit of class `c` at terminal `t` (`super::priority`;
    /// the lane holds a packet): its packet in progress's, else its first waiting packet's.
    fn lane_priority(&self, cl: &Classes, t: u32, c: usize) -> u32 {
        let lane = &cl.lanes[t as usize * cl.len() + c];
        match (lane.current, lane.queue.front()) {
            (Some((id, _, _)), _) => self.pri.packet(id),
            (None, Some(p)) => self.pri.at_source(p.created, p.seq, cl.prio[c]),
            (None, None) => 0,
        }
    }

    /// The VC of class `c`'s waiting head at terminal `t`: the one found before (none while
    /// another packet holds it), else the next (round robin from the class's last VC; only
    /// the first VC before the class's first packet) that no packet of the terminal holds and
    /// that has a credit (all of them with `wait_for_tail_credit`); remembered until the head
    /// is sent.
    fn head_vc(&self, cl: &mut Classes, t: u32, c: usize) -> Option<u8> {
        let (ti, vcs) = (t as usize, self.vcs);
        let lane = &cl.lanes[ti * cl.len() + c];
        let in_use = &cl.in_use[ti * vcs..(ti + 1) * vcs];
        if let Some(v) = lane.head_vc {
            // Found in an earlier cycle, where a class of higher priority was sent instead:
            // BookSim2 keeps the VC, and the head waits while another packet of the
            // terminal holds it (which only a class of higher priority can make happen).
            return (!in_use[usize::from(v)]).then_some(v);
        }
        let credits = &self.terms[ti].credits;
        let (whole, full) = (self.cfg.features.wait_for_tail_credit, self.cfg.vc_buf_size);
        let usable = |&v: &usize| !in_use[v] && credits[v] > 0 && (!whole || credits[v] == full);
        let window = (cl.replies.as_ref())
            .zip(lane.queue.front())
            .and_then(|(r, p)| r.window(p.kind));
        // Read/write traffic: the kind's VCs only (`super::read_write`); else every VC.
        let w = window.unwrap_or((0, (vcs - 1) as u8));
        let v = window_order(w, lane.last_vc).find(usable)?;
        let n = cl.len();
        cl.lanes[ti * n + c].head_vc = Some(v as u8);
        Some(v as u8)
    }

    /// Sends terminal `t`'s flit of this cycle, if a class has one ready.
    fn inject_class(&mut self, cl: &mut Classes, t: u32) -> Result<(), SimError> {
        let Some((c, vc)) = self.pick_class(cl, t) else {
            return Ok(());
        };
        let (n, ti, now) = (cl.len(), t as usize, self.now);
        let li = ti * n + c;
        let (id, seq) = match cl.lanes[li].current {
            Some((id, seq, _)) => (id, seq),
            None => {
                let Some(p) = cl.lanes[li].queue.pop_front() else {
                    return Ok(());
                };
                let id = self.start_class_packet(t, c, p, cl.prio[c])?;
                let lane = &mut cl.lanes[li];
                lane.head_vc = None;
                lane.staged = false;
                lane.last_vc = vc;
                cl.in_use[ti * self.vcs + usize::from(vc)] = true;
                (id, 0)
            }
        };
        cl.last_class[ti] = c as u16;
        let tail = seq + 1 == self.packets[id as usize].len;
        cl.lanes[li].current = if tail {
            cl.in_use[ti * self.vcs + usize::from(vc)] = false;
            None
        } else {
            Some((id, seq + 1, vc))
        };
        self.terms[ti].credits[usize::from(vc)] -= 1;
        self.send_flit(ti, (id, seq, tail), vc, now);
        Ok(())
    }

    /// Puts the waiting packet `p` of class `c` at terminal `t` into the pool as it starts
    /// now; returns its id.
    fn start_class_packet(
        &mut self,
        t: u32,
        c: usize,
        p: Pending,
        class_pri: u32,
    ) -> Result<u32, SimError> {
        let (id, _) = self.admit(t, &p, c as u8, p.kind)?;
        if self.pri.mode().of_packets() {
            self.pri.start(id, (p.created, p.seq, class_pri), self.now);
        }
        Ok(id)
    }

    /// BookSim2's latency for class `c`'s threshold (all packets with one class): its
    /// delivered packets' latencies `(mean, count)` together with the age of every flit not
    /// yet delivered of its packets being injected or in the network, and of the first
    /// waiting packet of each of its sources that injects none (BookSim2 creates a source's
    /// next packet only when the previous one has left).
    pub(crate) fn class_mean_with_in_flight(&self, c: usize, (mean, count): (f64, u64)) -> f64 {
        let classes = self.classes.as_deref();
        let mut free = vec![false; self.packets.len()];
        for &f in &self.free {
            free[f as usize] = true;
        }
        let now = self.now;
        let (mut sum, mut n) = (mean * count as f64, count as f64);
        let of_class = |p: &Packet| classes.is_none() || usize::from(p.class) == c;
        for (p, _) in self
            .packets
            .iter()
            .zip(&free)
            .filter(|(p, &f)| !f && of_class(p))
        {
            let flits = f64::from(p.len - p.received);
            sum += flits * (now - p.created) as f64;
            n += flits;
        }
        let waiting: Vec<&Pending> = match classes {
            None => (self.terms.iter())
                .filter(|t| t.current.is_none())
                .filter_map(|t| t.queue.front())
                .collect(),
            Some(cl) => (cl.lanes.iter().skip(c).step_by(cl.len()))
                .filter(|l| l.current.is_none())
                .filter_map(|l| l.queue.front())
                .collect(),
        };
        for q in waiting {
            sum += f64::from(q.len) * (now - q.created) as f64;
            n += f64::from(q.len);
        }
        if n == 0.0 {
            0.0
        } else {
            sum / n
        }
    }
}
