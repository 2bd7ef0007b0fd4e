//! The cycle's serial part beside the router phase. With several router partitions the
//! engine's own work of a cycle — the ejections and terminal credits due, new packets,
//! injection — runs on the engine's thread while the router partitions but the last run on
//! the others (`Routers::step_beside`), instead of before them; the last partition follows
//! it on the engine's thread. Neither side reads what the other writes in the cycle:
//!
//! * the routers read and write the route records of packets in flight and push channel
//!   events onto the wheel; the engine side makes new packets, whose records are kept aside
//!   ([`Beside::staged`]) and written after the phase, and injects their flits, whose
//!   arrivals are kept aside too ([`Beside::events`]) — no flit injected now reaches a
//!   router before the next cycle;
//! * an ejected tail's statistics need its packet's hop count from its record: they wait
//!   for the end of the phase ([`Beside::tails`]), and are taken before a new packet's
//!   record may reuse the slot.
//!
//! Results are identical to the serial order's, byte for byte: the wheel receives the
//! injected flits after the routers' events of the cycle rather than before, and the only
//! events whose order on the wheel matters are the terminals' ejections and credits, which
//! injection does not make. So it runs only where flits delivered to a router's different
//! input VCs commute (`Routers::arrivals_commute`), and not with BookSim2's traffic classes
//! or packet priorities, whose state both sides would read.

use jumpnet_core::routing::CongestionScope;

use crate::sim::error::SimError;
use crate::sim::network::terminal::{Packet, Route};
use crate::sim::network::Event;
use crate::sim::router::Phase;

use super::flit_time::LateFlits;
use super::partition::{Parked, Routers};
use super::priority::PriorityView;
use super::{put_route, State};

/// What the engine side of a cycle keeps aside until the router phase beside it ends.
#[derive(Debug, Default)]
pub(super) struct Beside {
    /// This run's cycles run their serial part beside the router phase
    /// ([`State::set_threads`]).
    pub on: bool,
    /// The engine side of a cycle is running: route records and the wheel are the routers'.
    pub active: bool,
    /// Route records of the packets made this cycle: `(id, record)`, in the order made.
    pub staged: Vec<(u32, Route)>,
    /// Tails ejected this cycle: the packet, its id and its fragmentation (cycles).
    pub tails: Vec<(Packet, u32, u64)>,
    /// Flits injected this cycle: `(cycle, arrival)`.
    pub events: Vec<(u64, Event)>,
}

impl Beside {
    /// Back to no cycle under way (engine reuse), keeping `on` and the capacity.
    pub fn clear(&mut self) {
        self.active = false;
        self.staged.clear();
        self.tails.clear();
        self.events.clear();
    }
}

impl State<'_> {
    /// Whether this run's cycles run their serial part beside the router phase (tests).
    #[cfg(test)]
    pub(crate) fn runs_beside(&self) -> bool {
        self.beside.on
    }

    /// The routers (tests cut them anew).
    #[cfg(test)]
    pub(crate) fn routers_mut(&mut self) -> &mut dyn Routers {
        &mut *self.routers
    }

    /// One cycle with its serial part beside the router phase (the module documentation).
    pub(super) fn cycle_beside(&mut self) -> Result<(), SimError> {
        let Some(sync) = self.sync_routing else {
            return Err(SimError::Config(
                "several router partitions need a routing shareable between threads".into(),
            ));
        };
        let now = self.now;
        let due = self.wheel.take(now);
        let mut routes = std::mem::take(&mut self.routes);
        let mut wheel = std::mem::take(&mut self.wheel);
        let mut routers: Box<dyn Routers> = std::mem::replace(&mut self.routers, Box::new(Parked));
        let fabric = std::sync::Arc::clone(&self.fabric);
        // No priority of the engine's (`set_threads`): every flit's is 0.
        let no_late = LateFlits::default();
        let view = PriorityView::none(&no_late);
        let ph = Phase {
            fabric: &fabric,
            routing: sync,
            adaptive: self.scope != CongestionScope::None,
            cycle: now,
            due: &due,
        };
        self.beside.active = true;
        let (served, routed) =
            routers.step_beside(&ph, (&mut routes[..], view), &mut wheel, &mut || {
                self.serve(&due)
            });
        self.beside.active = false;
        self.routes = routes;
        self.wheel = wheel;
        self.routers = routers;
        // The tails' statistics before any new packet's record takes their slots.
        for (p, id, frag) in self.beside.tails.drain(..) {
            let hops = u32::from(self.routes[id as usize].hops);
            self.rec.packet(&p, (hops, frag), now);
        }
        for (id, route) in self.beside.staged.drain(..) {
            put_route(&mut self.routes, id, route);
        }
        for (at, ev) in self.beside.events.drain(..) {
            self.wheel.push(at, ev);
        }
        self.wheel.give_back(now, due);
        // The engine side ran first in the serial order: its error first.
        served?;
        let tally = routed?;
        self.violations += tally.violations;
        if tally.moved {
            self.last_progress = now;
        }
        self.now += 1;
        Ok(())
    }

    /// The engine side of a cycle: ejections and terminal credits due, new packets,
    /// injection.
    fn serve(&mut self, due: &[Event]) -> Result<(), SimError> {
        self.deliver_to_terminals(due);
        if self.generating {
            self.generate();
        }
        self.inject()
    }
}
