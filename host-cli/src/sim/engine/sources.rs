//! Packet creation of the injection processes other than jumpnet's Bernoulli (on/off,
//! BookSim2's batch source, BookSim2's Bernoulli and on/off sources; docs/booksim.md §2,
//! §3.9, §5): each terminal asks the traffic driver whether it creates a packet this cycle,
//! and when it was created; and the drain of BookSim2's sources.

use crate::sim::engine::State;
use crate::sim::network::terminal::NO_TAG;

impl State<'_> {
    /// Creates this cycle's packets of the driver's process.
    pub(super) fn generate_process(&mut self) {
        let now = self.now;
        // BookSim2's source: every terminal's trials first (they draw from `RandomFloat`'s
        // stream), then the packets' draws (from `RandomInt`'s), each stream in BookSim2's
        // terminal order.
        let mut fired = std::mem::take(&mut self.fired);
        let terms = &self.terms;
        let idle = |t: u32| {
            let term = &terms[t as usize];
            term.current.is_none() && term.queue.is_empty()
        };
        if self.driver.booksim_trials(now, idle, &mut fired) {
            for &(t, created) in &fired {
                let (len, d) = self.driver.new_packet(t);
                if d != t || self.cfg.self_packets {
                    self.create_at(t, d, NO_TAG, len, created);
                }
            }
            fired.clear();
            self.fired = fired;
            return;
        }
        self.fired = fired;
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

impl State<'_> {
    /// BookSim2's drain starts now for BookSim2's sources of the run, its own or its
    /// classes' (`draws = booksim`, docs/booksim.md §3.9).
    pub(crate) fn start_source_drain(&mut self) {
        let now = self.now;
        self.driver.start_drain(now);
        if let Some(cl) = self.classes.as_deref_mut() {
            cl.start_drain(now);
        }
    }

    /// Whether a BookSim2 source still has terminals to catch up to the drain's start
    /// (BookSim2's drain waits for them, `_PacketsOutstanding`).
    pub(crate) fn sources_undrained(&self) -> bool {
        self.driver.undrained() || self.classes.as_deref().is_some_and(|cl| cl.undrained())
    }

    /// With BookSim2's sources: the run's offered load, flits per terminal and cycle (the
    /// configured rates; their packets fall short of it past saturation).
    pub(crate) fn booksim_offered(&self) -> Option<f64> {
        match self.classes.as_deref() {
            Some(cl) => cl.booksim_offered(),
            None => self.driver.booksim_offered(),
        }
    }
}
