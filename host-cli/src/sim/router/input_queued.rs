//! Input-queued virtual-channel router (issue 9): per input VC a FIFO of `vc_buf_size` flits;
//! a head flit becomes eligible `routing_delay + vc_alloc_delay + sw_alloc_delay` cycles
//! after it arrives, a body flit `sw_alloc_delay` cycles after; route computation calls the
//! core [`Routing`](jumpnet_core::routing::Routing), VC allocation takes a free physical
//! alias of the routing's VC on the output, switch allocation matches inputs to outputs
//! (one flit per input and per output per cycle) and switch traversal takes `st_delay`
//! cycles before the channel. Wormhole: the output VC stays with the packet until its tail
//! leaves; credit flow control: a flit leaves only with a credit of the downstream VC.
//!
//! A head flit's delays count from its arrival, also when it waits behind the previous
//! packet's tail in the same input VC; BookSim2 starts routing such a head only after the
//! tail has left, so back-to-back packets of one VC may leave a router up to
//! `routing_delay + vc_alloc_delay + sw_alloc_delay − 1` cycles (2 with BookSim2's
//! defaults) earlier here than in BookSim2; single packets, and packets on different VCs,
//! are timed alike.
//!
//! With an internal speedup `S` (`sim::router::speedup`) the router phase of a cycle runs the
//! cycle's internal steps, and the delays above follow BookSim2's step numbering: a flit
//! that arrives in cycle `c` enters the pipeline in the cycle's first step, each stage of
//! `d` cycles ends as [`Speedup::after_stage`] says, at most one flit per input and per
//! output crosses the switch per step, and a flit that left the switch waits in its
//! output's queue, which sends one flit per cycle (BookSim2 `_output_buffer`,
//! `_SendFlits`); the credits a port frees wait in its credit queue, which sends one per
//! cycle (`_credit_buffer`, `_SendCredits`). Neither queue needs storage here: a flit's or a
//! credit's departure cycle is known when it enters its FIFO, so it goes straight onto the
//! event wheel and the queue is one "free from cycle" number per port. With `S = 1` both
//! queues never hold more than the flit or credit of the current cycle and the timing is
//! the one above.
//!
//! A router step touches only its own router's state ([`Routers`]) and reaches the rest of
//! the simulation through [`Effects`] (packet pool, channel events), so a range of routers
//! can step on its own thread (`sim::engine::partition`).

use jumpnet_core::routing::dragonfly::ugal::{DragonflyUgal, UgalMode};
use jumpnet_core::routing::{Hop, PacketState, Routing};

use crate::sim::config::SimConfig;
use crate::sim::engine::{FastDiv, InVc, SimError, VcState};
use crate::sim::network::terminal::Packet;
use crate::sim::network::{Event, Fabric, Flit, PortKind, Slot};
use crate::sim::router::allocator::{Request, Scratch, Shape};
use crate::sim::router::speedup::Speedup;

/// Everything a router step reads and nobody writes during the router phase.
pub(crate) struct Shared<'a, R: ?Sized> {
    pub fabric: &'a Fabric,
    pub cfg: &'a SimConfig,
    pub routing: &'a R,
    pub ugal: Option<&'a DragonflyUgal<'a>>,
    /// Physical VCs per channel.
    pub vcs: usize,
    /// Logical VCs of the routing.
    pub rvcs: u8,
    /// Flits per input-VC buffer.
    pub buf: usize,
    /// `u64` words of a router's non-empty mask.
    pub words: usize,
    /// Allocator kind and shape.
    pub shape: Shape,
    /// `(port, vc)` of each of a router's input VCs `port·vcs + vc`.
    pub port_vc: &'a [(u16, u8)],
    /// Current cycle.
    pub cycle: u64,
    /// The cycle's internal steps: `first .. first + steps` (the cycle itself, once, without
    /// speedup).
    pub first: u64,
    pub steps: u64,
    /// The internal speedup (1: no output or credit queueing).
    pub speedup: Speedup,
    /// First step at which a head flit / a body flit arriving this cycle may take part in
    /// switch allocation (after route computation and VC allocation / after nothing).
    pub head_ready: u64,
    pub body_ready: u64,
    /// Most flits an output queue / an ejection queue may hold before its switch requests
    /// wait (with speedup only).
    pub out_limit: u64,
    pub eject_limit: u64,
    /// Input VC (or output VC) → router.
    pub router_of: FastDiv,
    /// The channel events due this cycle (each partition delivers the flits and credits
    /// of its routers).
    pub due: &'a [Event],
}

/// The mutable state of routers `lo..hi`: the slices of the engine's per-router,
/// per-port and per-VC arrays that belong to them (indices relative to router `lo`).
pub(crate) struct Routers<'a> {
    pub lo: usize,
    pub hi: usize,
    pub ivs: &'a mut [InVc],
    pub slots: &'a mut [Slot],
    pub credits: &'a mut [u16],
    pub busy: &'a mut [bool],
    pub buffered: &'a mut [u32],
    pub nonempty: &'a mut [u64],
    pub wake: &'a mut [u64],
    pub channel_flits: &'a mut [u64],
    pub ptrs: &'a mut [u16],
    /// Per port: first cycle its output queue may send a flit / its credit queue a credit.
    pub out_free: &'a mut [u64],
    pub cred_free: &'a mut [u64],
}

impl<'a> Routers<'a> {
    /// Splits into routers `lo..mid` and `mid..hi`.
    pub fn split_at<R: ?Sized>(self, mid: usize, sh: &Shared<'_, R>) -> (Self, Self) {
        let n = mid - self.lo;
        let ports = n * sh.fabric.radix;
        let ivs = ports * sh.vcs;
        let (ivs_a, ivs_b) = self.ivs.split_at_mut(ivs);
        let (slots_a, slots_b) = self.slots.split_at_mut(ivs * sh.buf);
        let (credits_a, credits_b) = self.credits.split_at_mut(ivs);
        let (busy_a, busy_b) = self.busy.split_at_mut(ivs);
        let (buffered_a, buffered_b) = self.buffered.split_at_mut(n);
        let (nonempty_a, nonempty_b) = self.nonempty.split_at_mut(n * sh.words);
        let (wake_a, wake_b) = self.wake.split_at_mut(n);
        let (cf_a, cf_b) = self.channel_flits.split_at_mut(ports);
        let (ptrs_a, ptrs_b) = self.ptrs.split_at_mut(n * sh.shape.pointers());
        let (of_a, of_b) = self.out_free.split_at_mut(ports);
        let (cr_a, cr_b) = self.cred_free.split_at_mut(ports);
        (
            Routers {
                lo: self.lo,
                hi: mid,
                ivs: ivs_a,
                slots: slots_a,
                credits: credits_a,
                busy: busy_a,
                buffered: buffered_a,
                nonempty: nonempty_a,
                wake: wake_a,
                channel_flits: cf_a,
                ptrs: ptrs_a,
                out_free: of_a,
                cred_free: cr_a,
            },
            Routers {
                lo: mid,
                hi: self.hi,
                ivs: ivs_b,
                slots: slots_b,
                credits: credits_b,
                busy: busy_b,
                buffered: buffered_b,
                nonempty: nonempty_b,
                wake: wake_b,
                channel_flits: cf_b,
                ptrs: ptrs_b,
                out_free: of_b,
                cred_free: cr_b,
            },
        )
    }
}

/// A range of routers' active set and deliveries, per-step scratch and the counters a
/// router phase accumulates.
#[derive(Debug)]
pub(crate) struct Work {
    /// Bit `s - lo` set iff router `s` of the range holds flits (the routers a cycle
    /// visits, ascending).
    active: Vec<u64>,
    reqs: Vec<Request>,
    wins: Vec<Request>,
    scratch: Scratch,
    /// Conservation violations seen.
    pub violations: u64,
    /// Some flit moved.
    pub moved: bool,
}

impl Work {
    /// State of `routers` routers of `radix` ports and `vcs` VCs.
    pub fn new(routers: usize, radix: usize, vcs: usize) -> Self {
        Work {
            active: vec![0; routers.div_ceil(64)],
            reqs: Vec::with_capacity(radix * vcs),
            wins: Vec::with_capacity(radix),
            scratch: Scratch::new(radix),
            violations: 0,
            moved: false,
        }
    }

    /// Back to the state of [`Work::new`], keeping the capacity.
    pub fn reset(&mut self) {
        self.active.fill(0);
        self.reqs.clear();
        self.wins.clear();
        self.scratch.reset();
        self.violations = 0;
        self.moved = false;
    }
}

/// What a router step does outside its routers: reads and updates packets, schedules
/// channel events.
pub(crate) trait Effects {
    /// Packet `id`.
    fn packet(&self, id: u32) -> &Packet;
    /// Sets packet `id`'s routing state.
    fn set_state(&mut self, id: u32, state: PacketState);
    /// Counts a router-to-router hop of packet `id`.
    fn add_hop(&mut self, id: u32);
    /// Schedules `ev` at cycle `at`.
    fn push(&mut self, at: u64, ev: Event);
}

/// The router phase of the routers of `r`: delivers their flits and credits due now
/// (`sh.due`), then, in each internal step of the cycle, steps the active routers
/// (ascending) whose wake-up step has come.
pub(crate) fn step_routers<R: Routing + ?Sized, E: Effects>(
    sh: &Shared<'_, R>,
    r: &mut Routers<'_>,
    work: &mut Work,
    fx: &mut E,
) -> Result<(), SimError> {
    let per = sh.vcs * sh.fabric.radix;
    // Input (and output) VCs of the range.
    let (first, end) = ((r.lo * per) as u32, (r.hi * per) as u32);
    let mut cx = Ctx {
        sh,
        r,
        work,
        fx,
        now: sh.first,
    };
    for ev in sh.due {
        match *ev {
            Event::Arrive { iv, flit } if (first..end).contains(&iv) => cx.arrive(iv, flit),
            Event::Credit { ov } if (first..end).contains(&ov) => cx.credit(ov),
            _ => {}
        }
    }
    let lo = cx.r.lo;
    for now in sh.first..sh.first + sh.steps {
        cx.now = now;
        for w in 0..cx.work.active.len() {
            let mut bits = cx.work.active[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let ls = w * 64 + b;
                if cx.r.wake[ls] <= now {
                    cx.step(lo + ls)?;
                    if cx.r.buffered[ls] == 0 {
                        // Emptied: leaves the active set.
                        cx.work.active[w] &= !(1 << b);
                    }
                }
            }
        }
    }
    Ok(())
}

/// One router phase: shared view, own routers, scratch, effects, and the internal step
/// being run.
struct Ctx<'x, 's, 'a, R: ?Sized, E> {
    sh: &'x Shared<'s, R>,
    r: &'x mut Routers<'a>,
    work: &'x mut Work,
    fx: &'x mut E,
    now: u64,
}

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// Flit `flit` enters input VC `iv` (global index) of one of the routers.
    fn arrive(&mut self, iv: u32, flit: Flit) {
        let sh = self.sh;
        let r = &mut *self.r;
        let per = sh.vcs * sh.fabric.radix;
        let s = sh.router_of.div(iv) as usize;
        let ls = s - r.lo;
        let li = iv as usize - s * per;
        let iv = ls * per + li;
        let ready = if flit.seq == 0 {
            sh.head_ready
        } else {
            sh.body_ready
        };
        let l = usize::from(r.ivs[iv].len);
        if l >= sh.buf {
            self.work.violations += 1;
            return;
        }
        // head < buf and l < buf: one conditional subtraction instead of a division.
        let mut pos = usize::from(r.ivs[iv].head) + l;
        if pos >= sh.buf {
            pos -= sh.buf;
        }
        r.slots[iv * sh.buf + pos] = Slot { ready, flit };
        if l == 0 {
            r.ivs[iv].fready = ready;
        }
        r.ivs[iv].len += 1;
        r.nonempty[ls * sh.words + li / 64] |= 1 << (li % 64);
        r.wake[ls] = r.wake[ls].min(ready);
        r.buffered[ls] += 1;
        self.work.active[ls / 64] |= 1 << (ls % 64);
    }

    /// A credit returns to output VC `ov` (global index) of one of the routers.
    fn credit(&mut self, ov: u32) {
        let base = self.r.lo * self.sh.fabric.radix * self.sh.vcs;
        let c = &mut self.r.credits[ov as usize - base];
        *c += 1;
        if *c > self.sh.cfg.vc_buf_size {
            self.work.violations += 1;
        }
    }

    /// One cycle of router `s`: route, allocate VCs, allocate the switch, traverse.
    fn step(&mut self, s: usize) -> Result<(), SimError> {
        let sh = self.sh;
        let radix = sh.fabric.radix;
        let vcs = sh.vcs;
        let now = self.now;
        let ls = s - self.r.lo;
        self.work.reqs.clear();
        let mut next_wake = u64::MAX;
        for w in 0..sh.words {
            let mut bits = self.r.nonempty[ls * sh.words + w];
            while bits != 0 {
                let li = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let iv = ls * radix * vcs + li;
                let ready = self.r.ivs[iv].fready;
                if ready > now {
                    next_wake = next_wake.min(ready);
                    continue;
                }
                // A ready flit: moved or blocked, the router looks again next cycle.
                next_wake = now + 1;
                if self.r.ivs[iv].state == VcState::Idle {
                    let slot = iv * sh.buf + usize::from(self.r.ivs[iv].head);
                    self.route(s, iv, slot)?;
                }
                if let VcState::Routed { port, vc } = self.r.ivs[iv].state {
                    let opi = ls * radix + usize::from(port);
                    let r = usize::from(sh.rvcs);
                    let mut best: Option<usize> = None;
                    let mut k = usize::from(vc);
                    while k < vcs {
                        let ov = opi * vcs + k;
                        if !self.r.busy[ov]
                            && best
                                .is_none_or(|b| self.r.credits[ov] > self.r.credits[opi * vcs + b])
                        {
                            best = Some(k);
                        }
                        k += r;
                    }
                    if let Some(k) = best {
                        self.r.busy[opi * vcs + k] = true;
                        self.r.ivs[iv].state = VcState::Active {
                            port,
                            vc: k as u8,
                            eject: false,
                        };
                    }
                }
                if let VcState::Active { port, vc, eject } = self.r.ivs[iv].state {
                    let lopi = ls * radix + usize::from(port);
                    let ov = lopi * vcs + usize::from(vc);
                    let room = sh.speedup.is_one() || {
                        // Flits in the output queue that have not left yet.
                        let queued = self.r.out_free[lopi].saturating_sub(sh.cycle + 1);
                        queued < if eject { sh.eject_limit } else { sh.out_limit }
                    };
                    if room && (eject || self.r.credits[ov] > 0) {
                        let (input, vc) = sh.port_vc[li];
                        self.work.reqs.push(Request {
                            input,
                            vc,
                            output: port,
                        });
                    }
                }
            }
        }
        self.r.wake[ls] = next_wake;
        let n = sh.shape.pointers();
        let work = &mut *self.work;
        let all = sh.shape.allocate(
            &mut self.r.ptrs[ls * n..(ls + 1) * n],
            &mut work.scratch,
            &work.reqs,
            &mut work.wins,
        );
        let won = if all {
            work.reqs.len()
        } else {
            work.wins.len()
        };
        for i in 0..won {
            let w = if all {
                self.work.reqs[i]
            } else {
                self.work.wins[i]
            };
            self.traverse(s, usize::from(w.input), usize::from(w.vc));
        }
        Ok(())
    }

    /// Route computation for the head flit at `slot` of (local) input VC `iv` of switch `s`.
    fn route(&mut self, s: usize, iv: usize, slot: usize) -> Result<(), SimError> {
        let sh = self.sh;
        let flit = self.r.slots[slot].flit;
        if flit.seq != 0 {
            self.work.violations += 1;
        }
        let mut state = self.fx.packet(flit.pkt).state;
        let dst = self.fx.packet(flit.pkt).dst;
        if let Some(u) = sh.ugal {
            self.ugal_decide(u, s, dst, &mut state)?;
        }
        let hop = sh
            .routing
            .next_hop(s as u32, &mut state, dst)
            .map_err(|e| SimError::Routing(format!("at switch {s} to {dst}: {e}")))?;
        self.fx.set_state(flit.pkt, state);
        let radix = sh.fabric.radix;
        self.r.ivs[iv].state = match hop {
            Hop::Forward { port, vc } => {
                match sh.fabric.ports.get(s * radix + usize::from(port)) {
                    Some(PortKind::Link { .. }) => {}
                    _ => {
                        return Err(SimError::Routing(format!(
                            "switch {s} forwards to {dst} on port {port}, which is no link"
                        )))
                    }
                }
                if vc >= sh.rvcs {
                    return Err(SimError::Routing(format!(
                        "switch {s} chose VC {vc} of {}",
                        sh.rvcs
                    )));
                }
                VcState::Routed { port, vc }
            }
            Hop::Eject { port } => {
                if sh.fabric.ports.get(s * radix + usize::from(port))
                    != Some(&PortKind::Terminal(dst))
                {
                    return Err(SimError::Routing(format!(
                        "switch {s} ejects {dst} on port {port}, which is not its terminal"
                    )));
                }
                VcState::Active {
                    port,
                    vc: 0,
                    eject: true,
                }
            }
        };
        Ok(())
    }

    /// UGAL at the source router (core [`DragonflyUgal`]). UGAL-L compares the source
    /// router's two first-hop output ports, each by the flits it has sent whose credits have
    /// not come back (buffered downstream or on the way), summed over its VCs (BookSim
    /// `GetUsedCredit`). UGAL-G compares the global channels by which the two paths leave
    /// the source group (Kim et al. ISCA 2008: UGAL-G knows the queues of every global
    /// channel of its group; the Valiant path's second global channel is in the intermediate
    /// group), each by its queue: those unreturned credits plus the flits waiting in its router's input
    /// VCs that are routed to it (a saturated global channel drains its downstream buffer
    /// at full speed, so its backlog is upstream). UGAL-G reads other routers' credits, so
    /// its routers step as one partition (`sim::engine::partition`).
    fn ugal_decide(
        &mut self,
        u: &DragonflyUgal<'_>,
        s: usize,
        dst: u32,
        state: &mut PacketState,
    ) -> Result<(), SimError> {
        let sh = self.sh;
        let Some(paths) = u
            .paths(s as u32, state, dst)
            .map_err(|e| SimError::Routing(format!("UGAL at switch {s} to {dst}: {e}")))?
        else {
            return Ok(());
        };
        let base = self.r.lo * sh.fabric.radix * sh.vcs;
        let credits = &*self.r.credits;
        let used = |sw: u32, port: u16| -> u32 {
            let ov = (sw as usize * sh.fabric.radix + usize::from(port)) * sh.vcs;
            credits
                .get(ov.wrapping_sub(base)..ov.wrapping_sub(base) + sh.vcs)
                .unwrap_or(&[])
                .iter()
                .map(|&c| u32::from(sh.cfg.vc_buf_size.saturating_sub(c)))
                .sum()
        };
        let (qmin, qval) = match u.mode() {
            UgalMode::Local => (
                used(s as u32, paths.min_port),
                used(s as u32, paths.val_port),
            ),
            UgalMode::Global => (
                used(paths.min_global.0, paths.min_global.1),
                paths
                    .val_globals
                    .iter()
                    .map(|&(sw, p)| used(sw, p))
                    .fold(0u32, u32::saturating_add),
            ),
        };
        u.commit(state, u.decide(&paths, qmin, qval));
        Ok(())
    }

    /// Switch traversal of the front flit of input `p`, VC `v` of switch `s` onto its
    /// output channel, with the credit back upstream.
    fn traverse(&mut self, s: usize, p: usize, v: usize) {
        let sh = self.sh;
        let radix = sh.fabric.radix;
        let vcs = sh.vcs;
        let buf = sh.buf;
        let now = self.now;
        let st = u64::from(sh.cfg.st_delay);
        let ls = s - self.r.lo;
        let pi = s * radix + p;
        let lpi = ls * radix + p;
        let iv = lpi * vcs + v;
        let r = &mut *self.r;
        let slot = iv * buf + usize::from(r.ivs[iv].head);
        let flit = r.slots[slot].flit;
        let next = r.ivs[iv].head + 1;
        r.ivs[iv].head = if usize::from(next) == buf { 0 } else { next };
        r.ivs[iv].len -= 1;
        if r.ivs[iv].len == 0 {
            let li = iv - ls * radix * vcs;
            r.nonempty[ls * sh.words + li / 64] &= !(1 << (li % 64));
        } else {
            r.ivs[iv].fready = r.slots[iv * buf + usize::from(r.ivs[iv].head)].ready;
        }
        r.buffered[ls] -= 1;
        let VcState::Active { port, vc, eject } = r.ivs[iv].state else {
            self.work.violations += 1;
            return;
        };
        let opi = s * radix + usize::from(port);
        let lopi = ls * radix + usize::from(port);
        // The cycle the flit goes onto its channel (+ the channel latency: its arrival).
        let depart = if sh.speedup.is_one() {
            now + st
        } else {
            let q = sh.speedup.cycle_after(sh.speedup.after_stage(now, st));
            let d = q.max(r.out_free[lopi]);
            r.out_free[lopi] = d + 1;
            d
        };
        let at = depart + u64::from(sh.fabric.latency[opi]);
        if eject {
            if let PortKind::Terminal(term) = sh.fabric.ports[opi] {
                self.fx.push(at, Event::Eject { term, flit });
            }
        } else {
            let ov = lopi * vcs + usize::from(vc);
            match r.credits[ov].checked_sub(1) {
                Some(c) => r.credits[ov] = c,
                None => self.work.violations += 1,
            }
            if let PortKind::Link { peer, peer_port } = sh.fabric.ports[opi] {
                let down = (peer as usize * radix + usize::from(peer_port)) * vcs + usize::from(vc);
                self.fx.push(
                    at,
                    Event::Arrive {
                        iv: down as u32,
                        flit,
                    },
                );
            }
            if flit.seq == 0 {
                self.fx.add_hop(flit.pkt);
            }
            if flit.tail {
                r.busy[ov] = false;
            }
        }
        r.channel_flits[lopi] += 1;
        let cd = u64::from(sh.cfg.credit_delay);
        // The cycle the freed slot's credit goes back (+ latency and credit delay).
        let credit = if sh.speedup.is_one() {
            now
        } else {
            let lpi = ls * radix + p;
            let d = sh.speedup.cycle_after(now).max(r.cred_free[lpi]);
            r.cred_free[lpi] = d + 1;
            d
        };
        match sh.fabric.ports[pi] {
            PortKind::Link { peer, peer_port } => {
                let up = peer as usize * radix + usize::from(peer_port);
                self.fx.push(
                    credit + u64::from(sh.fabric.latency[up]) + cd,
                    Event::Credit {
                        ov: (up * vcs + v) as u32,
                    },
                );
            }
            PortKind::Terminal(term) => {
                self.fx.push(
                    credit + u64::from(sh.cfg.terminal_latency) + cd,
                    Event::TermCredit { term, vc: v as u8 },
                );
            }
            PortKind::Unconnected => self.work.violations += 1,
        }
        if flit.tail {
            r.ivs[iv].state = VcState::Idle;
        }
        self.work.moved = true;
    }
}
