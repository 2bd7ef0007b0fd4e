//! The classes' BookSim2 sources (`draws = booksim`, docs/booksim.md §3.9): their drain
//! and their offered load, which is the configured rate.

use super::Classes;
use crate::sim::workload::synthetic::Driver;

impl Classes {
    /// BookSim2's drain starts at cycle `now` for every class's BookSim2 source.
    pub fn start_drain(&mut self, now: u64) {
        for d in &mut self.drivers {
            d.start_drain(now);
        }
    }

    /// Whether a class's BookSim2 source still has terminals to catch up to the drain's
    /// start.
    pub fn undrained(&self) -> bool {
        self.drivers.iter().any(Driver::undrained)
    }

    /// With BookSim2's sources: the classes' offered load together, flits per terminal and
    /// cycle (their configured rates).
    pub fn booksim_offered(&self) -> Option<f64> {
        self.draws.as_ref()?;
        self.drivers.iter().map(Driver::booksim_offered).sum()
    }

    /// With BookSim2's sources: class `c`'s offered load (its configured rate).
    pub fn class_booksim_offered(&self, c: usize) -> Option<f64> {
        self.draws.as_ref()?;
        self.drivers.get(c)?.booksim_offered()
    }
}
