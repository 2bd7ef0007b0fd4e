//! Packet creation of the injection processes other than jumpnet's Bernoulli (on/off,
//! BookSim2's batch source, BookSim2's Bernoulli source; docs/booksim.md §2, §3.9, §5): each
//! terminal asks the traffic driver whether it creates a packet this cycle, and when it was
//! created.

use crate::sim::engine::State;
use crate::sim::network::terminal::NO_TAG;

impl State<'_> {
    /// Creates this cycle's packets of the driver's process.
    pub(super) fn generate_process(&mut self) {
        let now = self.now;
        for t in 0..self.fabric.terminals {
            let term = &self.terms[t as usize];
            let idle = term.current.is_none() && term.queue.is_empty();
            let Some(created) = self.driver.fire(t, now, idle) else {
                continue;
            };
            let (len, d) = self.driver.new_packet(t);
            if d != t || self.cfg.self_packets {
                self.create_at(t, d, NO_TAG, len, created);
            } else {
                self.driver.delivered(t, now);
            }
        }
    }
}
