//! Collective traffic: every rank's NIC runs its program with
//! `jumpnet_core::exec::Executor` over the flit-level network of [`crate::sim::engine`].
//!
//! # NIC timing model
//!
//! * A message of `B` bytes is cut into `P = max(1, ceil(B / payload))` packets of the
//!   engine's fixed `packet_size = L` flits, `payload = (L − header_flits) · flit_bytes`
//!   bytes per packet (the last packet is padded to `L` flits).
//! * A send the executor returns at cycle `T` queues its `P` packets at the rank's terminal
//!   at cycle `T + send_overhead`; the NIC goes on with its program at once (sends complete
//!   when handed to the NIC, as in the program semantics). The terminal injects queued
//!   packets one flit per cycle in FIFO order, so serialisation is the network's.
//! * A *blocking* send (messages of at least `blocking_bytes`, docs/smpi.md §3) stays open
//!   until its message has arrived (cycle `E` below): the ops that depend on it run from
//!   `E + 1` on, and the sender finishes no earlier, as after a blocking `MPI_Send`.
//! * A message has arrived when the tail flit of its last packet is ejected, at cycle `E`;
//!   the receiving NIC sees it (`Executor::on_receive`) at cycle `E + 1 + recv_overhead`
//!   and delivers it then or, when the receive is not ready yet, when its dependency is.
//! * A reducing delivery of `B` bytes occupies the NIC for
//!   `ceil(B · reduce_cycles_per_byte)` cycles: the rank's next op runs no earlier.
//!   Plain deliveries and permutations take no time.
//! * A rank finishes at the cycle of its last op (the end of its last reduction); ranks
//!   without ops finish at 0. The makespan is the latest finish time.
//!
//! Hence a single message of one packet between two ranks `H` router-to-router hops apart
//! takes `makespan = send_overhead + T0(H, L) + 1 + recv_overhead` cycles, with the
//! engine's zero-load latency `T0 = 5H + L + 5` under the `booksim`/`ga` pipelines
//! (`SimConfig::booksim`); `P` packets back to back add `(P − 1) · L` cycles when credits
//! do not stall the injection and the routers have no pipeline delay (with one, a head that
//! waits behind a tail starts its route computation after the tail leaves,
//! docs/booksim.md §4).
//!
//! Optional background traffic on the unused terminals ([`crate::sim::workload::background`]) shares the
//! network; its packets carry their own tags and never reach the NICs.
//!
//! # Data flow
//!
//! Every send snapshots its blocks and every delivery applies them through core's
//! [`DataFlow`] (the data model of `exec::check`), so a run also proves that the simulated
//! execution leaves every rank with exactly the blocks and reductions `sched verify`
//! expects.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use jumpnet_core::collective::{Blocks, DataLayout, Rank, Schedule};
use jumpnet_core::exec::{Action, CheckOptions, CheckSizes, DataFlow, ExecError};
use jumpnet_core::routing::Routing;
use jumpnet_core::topology::{Network, Topology};

use crate::sim::config::{Injection, SimConfig};
use crate::sim::engine::State;
use crate::sim::workload::background::{
    is_background, Background, BackgroundConfig, BackgroundStats,
};
pub use crate::sim::workload::collective_result::{
    Calibration, CollectiveError, CollectiveResult, FinishSummary, LoggedMessage, MessageRecord,
    NicConfig, SendOrder,
};
use crate::sim::workload::critical_path::critical_path;
use crate::sim::workload::nic_calibration::route_hops;
use crate::sim::workload::nic_engine::{
    nic_error, ActionObserver, CoreEngines, NicError, NicSet, RunHooks,
};
use crate::sim::workload::nic_send::{is_control, SendPath};

use crate::sim::workload::collective_input::placement;
pub use crate::sim::workload::collective_input::CollectiveInput;

/// Runs `schedule` with rank `r` on terminal `terminals[r]` over `net` with `routing` and
/// the router parameters of `cfg` (its traffic settings are ignored; `packet_size` is the
/// packet length in flits). See the module documentation for the timing model.
///
/// # Examples
///
/// A broadcast of 64 bytes between two ranks on a ring of 8 switches with the `ga` preset:
/// one message of one 8-flit packet (7 payload flits of 16 bytes), which takes the engine's
/// zero-load time `T0 = H + L + 1` from its send to its tail's ejection and one more cycle
/// to be seen by the receiving NIC (see the module documentation).
///
/// ```
/// use jumpnet::sim::{run_collective, NicConfig, SimConfig};
/// use jumpnet_core::collective::Binomial;
/// use jumpnet_core::routing::{TorusDor, TorusVcs};
/// use jumpnet_core::topology::{Network, Torus};
///
/// let ring = Torus::torus(&[8], 1)?;
/// let dor = TorusDor::new(&ring, TorusVcs::Dateline)?;
/// let net = Network::Torus(ring.clone());
/// // Rank 0 on terminal 0, rank 1 on terminal 3: H = 3 router-to-router hops.
/// let bcast = Binomial::new(2, 0, 64)?;
/// let nic = NicConfig::default();
/// let res = run_collective(&net, &dor, &SimConfig::ga(), &nic, &bcast, &[0, 3])?;
/// assert_eq!((res.messages, res.packets, res.flits), (1, 1, 8));
/// let t0 = 3 + 8 + 1;
/// assert_eq!(res.makespan_cycles, t0 + 1);
/// assert_eq!(res.finish, [0, t0 + 1]);
/// assert!(res.data_checked);
/// assert_eq!(res.conservation_errors, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_collective<S: Schedule>(
    net: &Network<'_>,
    routing: &dyn Routing,
    cfg: &SimConfig,
    nic: &NicConfig,
    schedule: &S,
    terminals: &[u32],
) -> Result<CollectiveResult, CollectiveError> {
    let run = CollectiveInput {
        net,
        routing,
        config: cfg,
        nic,
        schedule,
        terminals,
    };
    run_collective_with(&run, RunHooks::default())
}

/// [`run_collective`] with optional background traffic on the terminals the collective
/// does not use ([`crate::sim::workload::background`]).
pub fn run_collective_with_background<S: Schedule>(
    run: &CollectiveInput<'_, S>,
    background: Option<&BackgroundConfig>,
) -> Result<CollectiveResult, CollectiveError> {
    let hooks = RunHooks {
        background,
        ..RunHooks::default()
    };
    run_collective_with(run, hooks)
}

/// [`run_collective`] with the engines of some ranks replaced, an observer of every
/// action and background traffic ([`RunHooks`]). A clocked engine is polled once per cycle
/// while busy (see [`crate::sim::workload::nic_engine`]).
pub fn run_collective_with<S: Schedule>(
    run: &CollectiveInput<'_, S>,
    hooks: RunHooks<'_, '_>,
) -> Result<CollectiveResult, CollectiveError> {
    let n = run.schedule.ranks();
    let used = placement(run)?;
    let mut c = run.config.clone();
    c.injection = Injection::Batch;
    c.batch_size = 0;
    let mut st = State::new(run.net, run.routing, &c)?;
    st.set_measuring(true);
    let mut progs = NicSet::new(CoreEngines::load(run.schedule)?);
    for (r, engine) in hooks.engines {
        if r >= n {
            return Err(CollectiveError::Config(format!(
                "engine for rank {r}: ranks are 0..{n}"
            )));
        }
        progs.replace(r, engine);
    }
    let mut bg = hooks
        .background
        .map(|b| {
            run.nic
                .packets(b.bytes, c.packet_size)
                .and_then(|np| Background::new(b, &used, np))
        })
        .transpose()
        .map_err(CollectiveError::Config)?;
    let sizes = CheckSizes::of(run.schedule);
    let check = run.nic.check_data;
    let mut state_words = vec![0u64; if check { sizes.state_words } else { 0 }];
    let mut scratch = vec![0u64; 2 * n as usize];
    let flow = if check {
        let opts = CheckOptions {
            allow_redundant: run.nic.allow_redundant,
            seed: 0,
        };
        Some(DataFlow::new(
            run.schedule,
            &mut state_words,
            &mut scratch,
            opts,
        )?)
    } else {
        None
    };
    let mut nics = Nics::new(run, progs, hooks.observer, flow, c.packet_size);
    nics.sends = SendPath::new(run.nic.send_params(), run.net.num_terminals());
    loop {
        let now = st.now();
        // 1. NICs.
        nics.poll(now)?;
        // 2. Packets due.
        nics.queue_packets(&mut st, now)?;
        if let Some(b) = bg.as_mut() {
            b.inject(&mut st, now);
        }
        if nics.finished() {
            break;
        }
        nics.check_progress(now)?;
        // 3. One network cycle.
        st.cycle()?;
        if st.stuck() {
            return Err(CollectiveError::NetworkDeadlock(Box::new(
                st.deadlock_report(),
            )));
        }
        // 4. Arrivals.
        for (id, e) in st.tails() {
            if is_background(id) {
                if let Some(b) = bg.as_mut() {
                    b.on_tail(id, e);
                }
            } else if is_control(id) {
                nics.sends.control_arrived(id, e);
            } else {
                nics.arrived(id, e)?;
            }
        }
    }
    if let Some(f) = nics.flow.as_ref() {
        f.verify()?;
    }
    Ok(nics.result(&st, &c, bg.as_ref().map(Background::stats)))
}

/// A message in flight.
struct Msg {
    rec: MessageRecord,
    remaining: u64,
    /// Cycle the receiver could first deliver it (set when its last packet arrives).
    visible: u64,
    /// The sender's op that sent it, the receiver's op that took it (`u32::MAX` until then).
    ops: (u32, u32),
    /// The sender's op stays open until the message has arrived (a blocking send).
    blocking: bool,
    payload: Vec<u64>,
}

/// The bytes of one message's record in a run (its payload snapshot apart), for
/// [`crate::sim::workload::collective_memory`].
pub(crate) const MESSAGE_BYTES: usize = std::mem::size_of::<Msg>();

/// The NICs of a collective run: their engines, what they sent and delivered, and when each
/// rank acts next.
struct Nics<'a, 'h, 'e, 'f, S> {
    run: &'a CollectiveInput<'a, S>,
    layout: DataLayout,
    packet_size: u16,
    progs: NicSet<'e>,
    observer: Option<&'h mut dyn ActionObserver>,
    flow: Option<DataFlow<'f>>,
    /// Per op (global index): the message it holds for delivery.
    held: Vec<u32>,
    /// Cycle each clocked engine was last polled (clocked engines act once per cycle).
    polled_at: Vec<u64>,
    msgs: Vec<Msg>,
    finish: Vec<u64>,
    busy_until: Vec<u64>,
    done: Vec<bool>,
    ndone: usize,
    /// Per rank: (delivery cycle, message) in order, for the critical path.
    deliveries: Vec<Vec<(u64, u32)>>,
    wake: BinaryHeap<Reverse<(u64, u32)>>,
    /// Arrived messages for in-process engines, by the cycle they become visible (then
    /// matched, so that no poll before it can deliver them).
    unseen: BinaryHeap<Reverse<(u64, u32)>>,
    sends: SendPath,
    in_flight: u64,
    redundant: u64,
    received_blocks: Vec<u64>,
    redundant_blocks: Vec<u64>,
}

impl<'a, 'h, 'e, 'f, S: Schedule> Nics<'a, 'h, 'e, 'f, S> {
    fn new(
        run: &'a CollectiveInput<'a, S>,
        progs: NicSet<'e>,
        observer: Option<&'h mut dyn ActionObserver>,
        flow: Option<DataFlow<'f>>,
        packet_size: u16,
    ) -> Self {
        let n = run.schedule.ranks();
        let nu = n as usize;
        Nics {
            run,
            layout: run.schedule.layout(),
            packet_size,
            held: vec![u32::MAX; progs.core.total_ops()],
            progs,
            observer,
            flow,
            polled_at: vec![u64::MAX; nu],
            msgs: Vec::new(),
            finish: vec![0; nu],
            busy_until: vec![0; nu],
            done: vec![false; nu],
            ndone: 0,
            deliveries: vec![Vec::new(); nu],
            wake: (0..n).map(|r| Reverse((0, r))).collect(),
            unseen: BinaryHeap::new(),
            sends: SendPath::new(run.nic.send_params(), 0),
            in_flight: 0,
            redundant: 0,
            received_blocks: vec![0; nu],
            redundant_blocks: vec![0; nu],
        }
    }

    /// Every rank is done and nothing is on its way.
    fn finished(&self) -> bool {
        self.ndone == self.done.len()
            && self.in_flight == 0
            && self.unseen.is_empty()
            && self.sends.idle()
    }

    /// A protocol deadlock: no rank will act again and nothing is on its way.
    fn check_progress(&mut self, now: u64) -> Result<(), CollectiveError> {
        if self.wake.is_empty()
            && self.unseen.is_empty()
            && self.in_flight == 0
            && self.sends.idle()
        {
            let r = self.done.iter().position(|&d| !d).unwrap_or(0) as Rank;
            return Err(CollectiveError::ProtocolDeadlock {
                rank: r,
                op: self.progs.first_pending(r),
                cycle: now,
            });
        }
        Ok(())
    }

    /// Lets every rank whose wake-up time has come act.
    fn poll(&mut self, now: u64) -> Result<(), CollectiveError> {
        while let Some(&Reverse((t, id))) = self.unseen.peek() {
            if t > now {
                break;
            }
            self.unseen.pop();
            self.match_arrival(id)?;
        }
        while let Some(&Reverse((t, r))) = self.wake.peek() {
            if t > now {
                break;
            }
            self.wake.pop();
            let ru = r as usize;
            if self.done[ru] {
                continue;
            }
            if self.busy_until[ru] > now {
                self.wake.push(Reverse((self.busy_until[ru], r)));
                continue;
            }
            let clocked = self.progs.clocked(r);
            if clocked && std::mem::replace(&mut self.polled_at[ru], now) == now {
                continue;
            }
            loop {
                let action = self.progs.poll(r, now).map_err(|e| nic_error(r, e))?;
                if let Some(o) = self.observer.as_mut() {
                    o.action(now, r, &action)
                        .map_err(CollectiveError::Stopped)?;
                }
                if self.act(r, now, action, clocked)? {
                    break;
                }
                if clocked {
                    // One action per cycle: poll again in the next one.
                    self.wake.push(Reverse((now + 1, r)));
                    break;
                }
            }
        }
        Ok(())
    }

    /// Carries out rank `r`'s action; `true` when the rank stops acting this cycle.
    fn act(
        &mut self,
        r: Rank,
        now: u64,
        action: Action,
        clocked: bool,
    ) -> Result<bool, CollectiveError> {
        let ru = r as usize;
        match action {
            Action::Wait => {
                if clocked && self.progs.busy(r) {
                    self.wake.push(Reverse((now + 1, r)));
                }
                return Ok(true);
            }
            Action::Done => {
                self.done[ru] = true;
                self.ndone += 1;
                return Ok(true);
            }
            Action::Send { op, peer, blocks } => self.send(r, now, op, peer, blocks)?,
            Action::Deliver {
                op,
                peer,
                blocks,
                reduce,
            } => return self.deliver(r, now, op, peer, blocks, reduce),
            Action::Permute { reflect, shift, .. } => {
                if let Some(f) = self.flow.as_mut() {
                    f.permute(r, reflect, shift);
                }
                self.finish[ru] = now;
            }
        }
        Ok(false)
    }

    /// Rank `r` sends `blocks` to `peer` in its op `op`: the message's packets go to the
    /// send queue, due after the send overhead.
    fn send(
        &mut self,
        r: Rank,
        now: u64,
        op: u32,
        peer: Rank,
        blocks: Blocks,
    ) -> Result<(), CollectiveError> {
        if peer >= self.run.schedule.ranks() {
            return Err(CollectiveError::Exec {
                rank: r,
                error: ExecError::UnexpectedMessage { peer, blocks },
            });
        }
        let bytes = self.layout.bytes(blocks);
        let terminals = self.run.terminals;
        let route = (terminals[r as usize], terminals[peer as usize]);
        // The calibration sends the bytes SMPI's bandwidth factor makes the message cost
        // on every link, after the latency its latency factor adds (module documentation
        // of `nic_calibration`).
        let (wire_bytes, delay) = match &self.run.nic.calibration {
            Some(c) => {
                let hops = route_hops(self.run.net, self.run.routing, route.0, route.1)
                    .map_err(CollectiveError::Config)?;
                let delay = (c.latency_ns(bytes, hops) * self.run.nic.clock_ghz()).ceil();
                (c.wire_bytes(bytes), delay as u64)
            }
            None => (bytes, 0),
        };
        let np = self
            .run
            .nic
            .packets(wire_bytes, self.packet_size)
            .map_err(CollectiveError::Config)?;
        let mut payload = Vec::new();
        if let Some(f) = self.flow.as_mut() {
            payload = vec![0; f.payload_words(blocks)];
            f.send(r, op, blocks, &mut payload)?;
        }
        let id = self.msgs.len() as u32;
        self.msgs.push(Msg {
            visible: 0,
            ops: (op, u32::MAX),
            blocking: false,
            rec: MessageRecord {
                src: r,
                dst: peer,
                blocks,
                bytes,
                packets: np,
                sent: now,
                arrived: 0,
                delivered: 0,
            },
            remaining: np,
            payload,
        });
        if route.0 == route.1 {
            return Err(CollectiveError::Config(format!("rank {r} sends to itself")));
        }
        self.sends
            .post(now + delay, id, route, bytes, np)
            .map_err(CollectiveError::Config)?;
        self.in_flight += 1;
        self.finish[r as usize] = now;
        if self.run.nic.blocking_bytes.is_some_and(|t| bytes >= t) {
            let held = self.progs.hold_send(r, op).map_err(|e| nic_error(r, e))?;
            self.msgs[id as usize].blocking = held;
        }
        Ok(())
    }

    /// Rank `r` delivers the message its op `op` holds (from `peer`, `blocks`, reducing or
    /// not); `true` when a reduction keeps the NIC busy.
    fn deliver(
        &mut self,
        r: Rank,
        now: u64,
        op: u32,
        peer: Rank,
        blocks: Blocks,
        reduce: bool,
    ) -> Result<bool, CollectiveError> {
        let ru = r as usize;
        let held = &mut self.held;
        let id = self
            .progs
            .core
            .global_index(r, op)
            .map_or(u32::MAX, |gi| std::mem::replace(&mut held[gi], u32::MAX));
        let Some(m) = self.msgs.get_mut(id as usize) else {
            return Err(nic_error(
                r,
                NicError::Engine(format!(
                    "delivered op {op} (from rank {peer}), which holds no message"
                )),
            ));
        };
        m.rec.delivered = now;
        self.deliveries[ru].push((now, id));
        self.received_blocks[ru] += u64::from(blocks.count(self.layout.slots));
        if let Some(f) = self.flow.as_mut() {
            let extra = f.deliver(r, op, blocks, reduce, &mut m.payload)?;
            self.redundant += extra;
            self.redundant_blocks[ru] += extra;
            m.payload = Vec::new();
        }
        self.finish[ru] = now;
        if reduce {
            let cost = (m.rec.bytes as f64 * self.run.nic.reduce_cycles_per_byte).ceil() as u64;
            if cost > 0 {
                self.busy_until[ru] = now + cost;
                self.finish[ru] = now + cost;
                self.wake.push(Reverse((now + cost, r)));
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Queues the packets due by cycle `now` at their terminals.
    fn queue_packets(&mut self, st: &mut State<'_>, now: u64) -> Result<(), CollectiveError> {
        self.sends.queue(st, now);
        Ok(())
    }

    /// The tail of a packet of message `id` was ejected at cycle `e`; after its last packet
    /// the receiver sees the message `1 + recv_overhead` cycles later.
    fn arrived(&mut self, id: u32, e: u64) -> Result<(), CollectiveError> {
        let m = &mut self.msgs[id as usize];
        m.remaining -= 1;
        if m.remaining > 0 {
            return Ok(());
        }
        m.rec.arrived = e;
        self.in_flight -= 1;
        let (src, dst) = (m.rec.src, m.rec.dst);
        if m.blocking {
            // The sender's blocking send completes; it sees that in the next cycle.
            let op = m.ops.0;
            self.progs
                .send_completed(src, op)
                .map_err(|err| nic_error(src, err))?;
            let su = src as usize;
            self.finish[su] = self.finish[su].max(e + 1);
            self.wake.push(Reverse((e + 1, src)));
        }
        let m = &mut self.msgs[id as usize];
        let visible = e + 1 + self.run.nic.recv_overhead;
        m.visible = visible;
        if self.progs.is_replaced(dst) {
            // Replaced engines take the message now and hold it until `visible` themselves.
            return self.match_arrival(id);
        }
        self.unseen.push(Reverse((visible, id)));
        Ok(())
    }

    /// Matches the arrived message `id` to its receiver's receive op and wakes the receiver
    /// when the message is visible.
    fn match_arrival(&mut self, id: u32) -> Result<(), CollectiveError> {
        let m = &self.msgs[id as usize];
        let (src, dst, blocks) = (m.rec.src, m.rec.dst, m.rec.blocks);
        let (e, visible) = (m.rec.arrived, m.visible);
        let j = self
            .progs
            .arrive(dst, e, visible, src, blocks)
            .map_err(|err| nic_error(dst, err))?;
        let gi = self.progs.core.global_index(dst, j).ok_or_else(|| {
            nic_error(
                dst,
                NicError::Engine(format!(
                    "matched a message from rank {src} to op {j}, which it does not have"
                )),
            )
        })?;
        self.held[gi] = id;
        self.msgs[id as usize].ops.1 = j;
        self.wake.push(Reverse((visible, dst)));
        Ok(())
    }

    /// The result of the finished run on `st` (configured `c`).
    fn result(
        self,
        st: &State<'_>,
        c: &SimConfig,
        background: Option<BackgroundStats>,
    ) -> CollectiveResult {
        let nu = self.finish.len();
        let makespan = self.finish.iter().copied().max().unwrap_or(0);
        // The whole collective is the measurement window: cycle 0 to the makespan.
        let start = st.zero_counters();
        let mut end = st.counters();
        end.cycle = makespan.max(1);
        let outcome = crate::sim::engine::Outcome {
            cycles: makespan.max(1),
            samples: 1,
            saturated: false,
            deadlock: None,
        };
        let sim = st.finish(c, &start, &end, outcome);
        let mut sorted = self.finish.clone();
        sorted.sort_unstable();
        let finish_summary = FinishSummary {
            min: sorted.first().copied().unwrap_or(0),
            mean: sorted.iter().map(|&x| x as f64).sum::<f64>() / nu.max(1) as f64,
            median: sorted.get(nu / 2).copied().unwrap_or(0),
            max: makespan,
        };
        let clock = self.run.nic.clock_ghz();
        let message_log: Vec<LoggedMessage> = self
            .msgs
            .iter()
            .map(|m| LoggedMessage {
                rec: m.rec,
                send_op: m.ops.0,
                recv_op: m.ops.1,
                visible: m.visible,
                blocking: m.blocking,
            })
            .collect();
        CollectiveResult {
            ranks: self.run.schedule.ranks(),
            makespan_cycles: makespan,
            makespan_seconds: makespan as f64 / (clock * 1e9),
            clock_ghz: clock,
            finish_summary,
            class_utilisation: sim.class_utilisation,
            messages: self.msgs.len() as u64,
            packets: self.sends.packets - self.sends.control_packets,
            control_packets: self.sends.control_packets,
            flits: sim.flits_delivered,
            redundant: self.redundant,
            data_checked: self.run.nic.check_data,
            conservation_errors: sim.conservation_errors,
            hops_mean: sim.hops.mean,
            received_blocks: self.received_blocks,
            redundant_blocks: self.redundant_blocks,
            background,
            critical_path: critical_path(&self.finish, &self.deliveries, &message_log),
            message_log,
            finish: self.finish,
        }
    }
}
