//! The cycle's events for terminals: a flit's ejection (conservation checks, counters,
//! latency statistics, the packet's slot freed after its tail) and a terminal's credit.

use crate::sim::network::terminal::NO_TAG;
use crate::sim::network::{Event, Flit};

use super::State;

impl State<'_> {
    /// Takes the events due now and delivers ejections and terminal credits; the flits and
    /// credits for routers are delivered in the router phase, by each router's partition.
    pub(super) fn deliver_events(&mut self) {
        let evs = self.wheel.take(self.now);
        self.deliver_to_terminals(&evs);
        self.due = evs;
    }

    /// Delivers the ejections and terminal credits among the events `evs` due now.
    pub(super) fn deliver_to_terminals(&mut self, evs: &[Event]) {
        for ev in evs {
            match *ev {
                Event::Arrive { .. } | Event::Credit { .. } => {}
                Event::Eject { term, flit } => self.eject(term, flit),
                Event::TermCredit { term, vc } => {
                    self.terms[term as usize].credits[usize::from(vc)] += 1;
                    let t = &mut self.terms[term as usize];
                    if !t.active && (t.current.is_some() || !t.queue.is_empty()) {
                        t.active = true;
                        self.active_terms.push(term);
                    }
                }
            }
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
        let frag = self
            .nodes
            .accepted((flit.pkt, p.class), term as usize, (flit.seq, p.len), now);
        let injected = self.late.injected(&p, flit);
        self.rec.flit(&p, injected, now);
        // Beside the router phase the route records are the routers' until the cycle ends:
        // the tail's statistics wait for its hop count (`beside`; without classes).
        let tail = (flit.tail && !self.beside.active).then(|| {
            let hops = u32::from(self.routes[flit.pkt as usize].hops);
            (hops, frag.unwrap_or(0))
        });
        if let Some(cl) = self.classes.as_deref_mut() {
            cl.eject(&p, injected, now, tail);
        }
        if flit.tail {
            if p.received != p.len {
                self.violations += 1;
            }
            self.total_packets += 1;
            if p.tag != NO_TAG {
                self.tail_log.push((p.tag, now));
            }
            if self.beside.active {
                self.beside.tails.push((p, flit.pkt, frag.unwrap_or(0)));
            } else {
                self.rec.packet(&p, tail.unwrap_or_default(), now);
            }
            self.driver.delivered(p.src, now);
            if p.measured {
                self.measured_outstanding -= 1;
            }
            self.free.push(flit.pkt);
        }
    }
}
