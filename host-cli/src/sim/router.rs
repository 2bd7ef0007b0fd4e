//! Input-queued virtual-channel router (issue 9): per input VC a FIFO of `vc_buf_size` flits;
//! a head flit becomes eligible `routing_delay + vc_alloc_delay + sw_alloc_delay` cycles
//! after it arrives, a body flit `sw_alloc_delay` cycles after; route computation calls the
//! core [`Routing`](jumpnet_core::routing::Routing), VC allocation takes a free physical
//! alias of the routing's VC on the output, switch allocation matches inputs to outputs
//! (one flit per input and per output per cycle) and switch traversal takes `st_delay`
//! cycles before the channel. Wormhole: the output VC stays with the packet until its tail
//! leaves; credit flow control: a flit leaves only with a credit of the downstream VC.

use jumpnet_core::routing::dragonfly::ugal::{DragonflyUgal, UgalMode};
use jumpnet_core::routing::Hop;

use super::engine::{SimError, State, VcState};
use super::network::{Event, PortKind};

impl State<'_> {
    /// One cycle of router `s`: route, allocate VCs, allocate the switch, traverse.
    pub(super) fn step_router(&mut self, s: usize) -> Result<(), SimError> {
        let radix = self.fabric.radix;
        let vcs = self.vcs;
        let now = self.now;
        let mut reqs = std::mem::take(&mut self.reqs);
        let mut wins = std::mem::take(&mut self.wins);
        reqs.clear();
        let mut next_wake = u64::MAX;
        for w in 0..self.words {
            let mut bits = self.nonempty[s * self.words + w];
            while bits != 0 {
                let li = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (p, v) = (
                    (li as u32 / vcs as u32) as usize,
                    (li as u32 % vcs as u32) as usize,
                );
                let iv = s * radix * vcs + li;
                let ready = self.ivs[iv].fready;
                if ready > now {
                    next_wake = next_wake.min(ready);
                    continue;
                }
                // A ready flit: moved or blocked, the router looks again next cycle.
                next_wake = now + 1;
                if self.ivs[iv].state == VcState::Idle {
                    let slot = iv * self.buf + usize::from(self.ivs[iv].head);
                    self.route(s, iv, slot)?;
                }
                if let VcState::Routed { port, vc } = self.ivs[iv].state {
                    let opi = s * radix + usize::from(port);
                    let r = usize::from(self.rvcs);
                    let mut best: Option<usize> = None;
                    let mut k = usize::from(vc);
                    while k < vcs {
                        let ov = opi * vcs + k;
                        if !self.busy[ov]
                            && best.is_none_or(|b| self.credits[ov] > self.credits[opi * vcs + b])
                        {
                            best = Some(k);
                        }
                        k += r;
                    }
                    if let Some(k) = best {
                        self.busy[opi * vcs + k] = true;
                        self.ivs[iv].state = VcState::Active {
                            port,
                            vc: k as u8,
                            eject: false,
                        };
                    }
                }
                if let VcState::Active { port, vc, eject } = self.ivs[iv].state {
                    let ov = (s * radix + usize::from(port)) * vcs + usize::from(vc);
                    if eject || self.credits[ov] > 0 {
                        reqs.push(super::allocator::Request {
                            input: p as u16,
                            vc: v as u8,
                            output: port,
                        });
                    }
                }
            }
        }
        self.wake[s] = next_wake;
        self.arb.allocate(s, &reqs, &mut wins);
        for w in &wins {
            self.traverse(s, usize::from(w.input), usize::from(w.vc));
        }
        self.reqs = reqs;
        self.wins = wins;
        Ok(())
    }

    /// Route computation for the head flit at `slot` of input VC `iv` of switch `s`.
    fn route(&mut self, s: usize, iv: usize, slot: usize) -> Result<(), SimError> {
        let flit = self.slots[slot].flit;
        if flit.seq != 0 {
            self.violations += 1;
        }
        if let Some(u) = self.ugal {
            self.ugal_decide(u, s, flit.pkt as usize)?;
        }
        let pkt = &mut self.packets[flit.pkt as usize];
        let dst = pkt.dst;
        let hop = self
            .routing
            .next_hop(s as u32, &mut pkt.state, dst)
            .map_err(|e| SimError::Routing(format!("at switch {s} to {dst}: {e}")))?;
        let radix = self.fabric.radix;
        self.ivs[iv].state = match hop {
            Hop::Forward { port, vc } => {
                match self.fabric.ports.get(s * radix + usize::from(port)) {
                    Some(PortKind::Link { .. }) => {}
                    _ => {
                        return Err(SimError::Routing(format!(
                            "switch {s} forwards to {dst} on port {port}, which is no link"
                        )))
                    }
                }
                if vc >= self.rvcs {
                    return Err(SimError::Routing(format!(
                        "switch {s} chose VC {vc} of {}",
                        self.rvcs
                    )));
                }
                VcState::Routed { port, vc }
            }
            Hop::Eject { port } => {
                if self.fabric.ports.get(s * radix + usize::from(port))
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
    /// at full speed, so its backlog is upstream).
    fn ugal_decide(&mut self, u: &DragonflyUgal<'_>, s: usize, pkt: usize) -> Result<(), SimError> {
        let mut state = self.packets[pkt].state;
        let dst = self.packets[pkt].dst;
        let Some(paths) = u
            .paths(s as u32, &state, dst)
            .map_err(|e| SimError::Routing(format!("UGAL at switch {s} to {dst}: {e}")))?
        else {
            return Ok(());
        };
        let used = |sw: u32, port: u16| -> u32 {
            let ov = (sw as usize * self.fabric.radix + usize::from(port)) * self.vcs;
            self.credits[ov..ov + self.vcs]
                .iter()
                .map(|&c| u32::from(self.cfg.vc_buf_size.saturating_sub(c)))
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
        u.commit(&mut state, u.decide(&paths, qmin, qval));
        self.packets[pkt].state = state;
        Ok(())
    }

    /// Switch traversal of the front flit of input `p`, VC `v` of switch `s` onto its
    /// output channel, with the credit back upstream.
    fn traverse(&mut self, s: usize, p: usize, v: usize) {
        let radix = self.fabric.radix;
        let vcs = self.vcs;
        let now = self.now;
        let st = u64::from(self.cfg.st_delay);
        let pi = s * radix + p;
        let iv = pi * vcs + v;
        let slot = iv * self.buf + usize::from(self.ivs[iv].head);
        let flit = self.slots[slot].flit;
        let next = self.ivs[iv].head + 1;
        self.ivs[iv].head = if usize::from(next) == self.buf {
            0
        } else {
            next
        };
        self.ivs[iv].len -= 1;
        if self.ivs[iv].len == 0 {
            let li = iv - s * radix * vcs;
            self.nonempty[s * self.words + li / 64] &= !(1 << (li % 64));
        } else {
            self.ivs[iv].fready = self.slots[iv * self.buf + usize::from(self.ivs[iv].head)].ready;
        }
        self.buffered[s] -= 1;
        let VcState::Active { port, vc, eject } = self.ivs[iv].state else {
            self.violations += 1;
            return;
        };
        let opi = s * radix + usize::from(port);
        let at = now + st + u64::from(self.fabric.latency[opi]);
        if eject {
            if let PortKind::Terminal(term) = self.fabric.ports[opi] {
                self.wheel.push(at, Event::Eject { term, flit });
            }
        } else {
            let ov = opi * vcs + usize::from(vc);
            match self.credits[ov].checked_sub(1) {
                Some(c) => self.credits[ov] = c,
                None => self.violations += 1,
            }
            if let PortKind::Link { peer, peer_port } = self.fabric.ports[opi] {
                let down = (peer as usize * radix + usize::from(peer_port)) * vcs + usize::from(vc);
                self.wheel.push(
                    at,
                    Event::Arrive {
                        iv: down as u32,
                        flit,
                    },
                );
            }
            if flit.seq == 0 {
                self.packets[flit.pkt as usize].hops += 1;
            }
            if flit.tail {
                self.busy[ov] = false;
            }
        }
        self.channel_flits[opi] += 1;
        let cd = u64::from(self.cfg.credit_delay);
        match self.fabric.ports[pi] {
            PortKind::Link { peer, peer_port } => {
                let up = peer as usize * radix + usize::from(peer_port);
                self.wheel.push(
                    now + u64::from(self.fabric.latency[up]) + cd,
                    Event::Credit {
                        ov: (up * vcs + v) as u32,
                    },
                );
            }
            PortKind::Terminal(term) => {
                self.wheel.push(
                    now + u64::from(self.cfg.terminal_latency) + cd,
                    Event::TermCredit { term, vc: v as u8 },
                );
            }
            PortKind::Unconnected => self.violations += 1,
        }
        if flit.tail {
            self.ivs[iv].state = VcState::Idle;
        }
        self.last_progress = now;
    }
}
