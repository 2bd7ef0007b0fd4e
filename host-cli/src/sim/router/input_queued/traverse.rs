//! Switch traversal: a flit that won switch allocation leaves its input VC, crosses the
//! switch onto its output channel (through the output queue with internal speedup) and frees
//! its buffer slot, whose credit goes back upstream (through the input port's credit queue).

use jumpnet_core::routing::Routing;

use crate::sim::network::{Event, Flit};
use crate::sim::router::input_queued::links::LinkKind;
use crate::sim::router::input_queued::state::VcState;
use crate::sim::router::input_queued::step::Ctx;
use crate::sim::router::Effects;

impl<R: Routing + ?Sized, E: Effects> Ctx<'_, '_, '_, R, E> {
    /// Switch traversal of the front flit of input `p`, VC `v` of switch `s` onto its
    /// output channel, with the credit back upstream.
    pub(super) fn traverse(&mut self, s: usize, p: usize, v: usize) {
        let k = self.k;
        let ls = s - self.r.lo;
        let iv = (ls * k.radix + p) * k.vcs + v;
        let flit = self.pop_front(ls, iv);
        let VcState::Active { port, vc, eject } = self.r.ivs[iv].state() else {
            self.fx.violation();
            return;
        };
        self.send(s, flit, usize::from(port), usize::from(vc), eject);
        self.credit_back(s, p, v);
        if flit.tail {
            self.r.ivs[iv].set_state(VcState::Idle);
            self.restart_head(ls, iv);
        }
        self.fx.moved();
    }

    /// After a tail left (local) input VC `iv`, the next packet's head behind it starts route
    /// computation only now, as in BookSim2 (`_SWAllocUpdate` puts the VC back into its
    /// routing state and the route is evaluated in the next step): its route computation,
    /// VC and switch allocation stages count from this step, so it crosses the switch
    /// `routing_delay + vc_alloc_delay + sw_alloc_delay` steps after the tail (with the VC
    /// allocation stage, it is in VC allocation `routing_delay` steps after the tail).
    #[inline]
    fn restart_head(&mut self, ls: usize, iv: usize) {
        let k = self.k;
        let r = &mut *self.r;
        if r.ivs[iv].len == 0 {
            return;
        }
        let sp = self.clock.speedup;
        let ready = k
            .head_stages()
            .iter()
            .fold(self.now, |s, &d| sp.after_stage(s, u64::from(d)));
        if ready > r.ivs[iv].fready {
            r.ivs[iv].fready = ready;
        }
        r.wake[ls] = r.wake[ls].min(r.ivs[iv].fready);
        if k.vc_stage && r.ivs[iv].fready <= self.now {
            self.vc_allocation_now(ls, iv);
        }
    }

    /// Takes the front flit of (local) input VC `iv` of local router `ls`.
    #[inline]
    fn pop_front(&mut self, ls: usize, iv: usize) -> Flit {
        let k = self.k;
        let r = &mut *self.r;
        let li = iv - ls * k.per;
        let v = &mut r.ivs[iv];
        let flit = v.front;
        v.len -= 1;
        if v.len == 0 {
            // An empty buffer starts again at position 0 (`buffers`).
            v.head = 0;
            r.nonempty[ls * k.words + li / 64] &= !(1 << (li % 64));
        } else {
            let next = v.head + 1;
            v.head = if usize::from(next) == k.buf { 0 } else { next };
            let slot = r.slots[k.slot(ls, li, usize::from(v.head))];
            v.front = slot.flit;
            v.fready = slot.ready;
        }
        r.buffered[ls] -= 1;
        flit
    }

    /// Sends `flit` from switch `s` on output `port`, VC `vc` (or ejects it): onto the
    /// channel after switch traversal and the output queue, using a downstream credit.
    #[inline]
    fn send(&mut self, s: usize, flit: Flit, port: usize, vc: usize, eject: bool) {
        let k = self.k;
        let ls = s - self.r.lo;
        let opi = s * k.radix + port;
        let lopi = ls * k.radix + port;
        let now = self.now;
        // The cycle the flit goes onto its channel (+ the channel latency: its arrival).
        let sp = self.clock.speedup;
        let depart = if k.xbar_batches {
            self.xbar_depart(ls, lopi)
        } else if self.clock.one {
            now + k.st_delay
        } else {
            let q = sp.cycle_after(sp.after_stage(now, k.st_delay));
            let d = q.max(self.r.out_free[lopi]);
            self.r.out_free[lopi] = d + 1;
            d
        };
        let link = k.links[opi];
        let at = depart + u64::from(link.out_latency);
        if eject {
            if link.kind == LinkKind::Terminal {
                let term = link.peer;
                self.fx.push(at, Event::Eject { term, flit });
            }
            if k.eject_credits {
                self.eject_credit(opi, lopi * k.vcs + vc, at, flit.tail);
            } else if k.vc_stage && flit.tail {
                // The ejection VC of the VC allocation stage (`vc_stage`).
                self.r.busy[lopi * k.vcs + vc] = false;
            }
        } else {
            let ov = lopi * k.vcs + vc;
            match self.r.credits[ov].checked_sub(1) {
                Some(c) => self.r.credits[ov] = c,
                None => self.fx.violation(),
            }
            if link.kind == LinkKind::Link {
                let iv = link.peer + vc as u32;
                self.fx.push(at, Event::Arrive { iv, flit });
            }
            if flit.tail {
                self.tail_sent(ov);
            }
        }
        self.r.channel_flits[lopi] += 1;
    }

    /// The cycle a flit granted the switch now goes onto output port `lopi` of local router
    /// `ls` through BookSim2's crossbar of `d = st_delay > 1` cycles (`Params::xbar_batches`).
    /// BookSim2 keeps one queue of crossing flits per router and starts the waiting ones
    /// only when none is in flight (`IQRouter::_SwitchEvaluate` stops at the first flit that
    /// has started). Steps are BookSim2's internal steps (one a cycle without internal
    /// speedup): a flit granted here in step `now` is BookSim2's allocation of step
    /// `now − 1` (`step::usable_credit`), which queues it at that step's update; it starts in
    /// step `now`, or with the batch that starts then, or, while a batch crosses, in the
    /// step after the one whose update takes that batch out of the crossbar — the first
    /// step of cycle `c + d − 1`, `c` the batch's starting cycle. A batch started in cycle
    /// `c` reaches the output queue in cycle `c + d − 1` and an output sends one flit per
    /// cycle (two of a batch for one output, or of an output speedup's crossbar outputs,
    /// leave one after the other), at the end of the cycle: here the cycle after. With an
    /// internal speedup a batch leaves in the first step of its cycle and the next starts
    /// in that cycle's second step, if it has one. docs/booksim.md §5. Cold: most runs
    /// have a one-cycle crossbar, and `send`'s common path compiles tighter without it.
    #[cold]
    fn xbar_depart(&mut self, ls: usize, lopi: usize) -> u64 {
        let (d, sp, now) = (self.k.st_delay, self.clock.speedup, self.now);
        let last = self.r.xbar_start[ls];
        let start = if now <= last {
            last
        } else {
            // The step whose update takes the last batch out of the crossbar.
            let out = sp.first_step(sp.cycle_of(last) + d - 1);
            if last > 0 && now <= out {
                out + 1
            } else {
                now
            }
        };
        self.r.xbar_start[ls] = start;
        let depart = (sp.cycle_of(start) + d).max(self.r.out_free[lopi]);
        self.r.out_free[lopi] = depart + 1;
        depart
    }

    /// With `booksim_credits`: the flit ejected on (local) output VC `ov` of port `opi`,
    /// arriving at its terminal at `at`, takes a credit of the ejection VC, and the
    /// terminal returns it as a router would: BookSim2's terminal reads the flit a cycle
    /// after `at` and writes the credit back then; like a link's credit it arrives after
    /// the channel's latency and is usable by switch allocation a cycle later
    /// (`step::usable_credit`; docs/booksim.md §4).
    fn eject_credit(&mut self, opi: usize, ov: usize, at: u64, tail: bool) {
        let k = self.k;
        match self.r.credits[ov].checked_sub(1) {
            Some(c) => self.r.credits[ov] = c,
            None => self.fx.violation(),
        }
        let back = at + 1 + u64::from(k.links[opi].out_latency) + k.credit_delay;
        let global = self.r.lo * k.per + ov;
        self.fx.push(back, Event::Credit { ov: global as u32 });
        if tail {
            self.tail_sent(ov);
        }
    }

    /// Returns the credit of the slot a flit freed in input `p`, VC `v` of switch `s` to the
    /// channel's upstream end (a router's output VC or a terminal).
    #[inline]
    fn credit_back(&mut self, s: usize, p: usize, v: usize) {
        let k = self.k;
        let pi = s * k.radix + p;
        let lpi = (s - self.r.lo) * k.radix + p;
        let now = self.now;
        // The cycle the freed slot's credit goes back (+ latency and credit delay).
        let credit = if self.clock.one {
            now
        } else if self.r.cred_step[lpi] == now + 1 {
            // Another flit of this input port crossed in this step (input speedup): its
            // credit travels with the first one's.
            self.r.cred_free[lpi] - 1
        } else {
            let sp = self.clock.speedup;
            let d = sp.cycle_after(now).max(self.r.cred_free[lpi]);
            self.r.cred_free[lpi] = d + 1;
            self.r.cred_step[lpi] = now + 1;
            d
        };
        let link = k.links[pi];
        match link.kind {
            LinkKind::Link => {
                let at = credit + u64::from(link.in_latency) + k.credit_delay;
                let ov = link.peer + v as u32;
                self.fx.push(at, Event::Credit { ov });
            }
            LinkKind::Terminal => {
                // No `credit_delay`: BookSim2 delays the credits a router receives
                // (`IQRouter::_ReceiveCredits`), while its terminals take theirs at once
                // (`TrafficManager::_Step`).
                self.fx.push(
                    credit + u64::from(link.in_latency),
                    Event::TermCredit {
                        term: link.peer,
                        vc: v as u8,
                    },
                );
            }
            LinkKind::Unconnected => self.fx.violation(),
        }
    }
}
