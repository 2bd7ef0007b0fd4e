//! Counter snapshots of a run (`Counters`): the cycle, flits created and ejected in total
//! and per traffic class (docs/booksim.md §3.5), flits per channel, flits and packets sent
//! and received per terminal; a measurement window is the difference of two.

use crate::sim::engine::classes::Classes;
use crate::sim::engine::State;

/// Counter values at one instant; a measurement window is the difference of two.
#[derive(Clone, Debug)]
pub(crate) struct Counters {
    /// Cycle of the snapshot.
    pub cycle: u64,
    /// Flits of the packets created so far.
    pub gen: u64,
    /// Flits ejected so far.
    pub ejected: u64,
    /// Flits sent on each channel so far.
    pub channels: Vec<u64>,
    /// Per traffic class: flits of the packets created so far (empty with one class).
    pub class_gen: Vec<u64>,
    /// Per class and terminal: flits and packets sent into the network and received
    /// (`NodeCounts`).
    pub nodes: Vec<[u64; 4]>,
}

impl State<'_> {
    /// The counters now.
    pub(crate) fn counters(&self) -> Counters {
        let class_gen = self
            .classes
            .as_deref()
            .map_or_else(Vec::new, Classes::created);
        Counters {
            cycle: self.now,
            gen: self.gen_flits,
            ejected: self.total_flits,
            channels: self.routers.channel_flits().to_vec(),
            class_gen,
            nodes: self.nodes.snapshot(),
        }
    }

    /// The counters at cycle 0 (all zero).
    pub(crate) fn zero_counters(&self) -> Counters {
        Counters {
            cycle: 0,
            gen: 0,
            ejected: 0,
            channels: vec![0; self.routers.channel_flits().len()],
            class_gen: self
                .classes
                .as_ref()
                .map_or_else(Vec::new, |c| vec![0; c.len()]),
            nodes: self.nodes.zero(),
        }
    }

    /// End of a run that lasts until its last packet is delivered (batch, trace): the
    /// cycle of the last ejection, or the watchdog's cycle after a deadlock.
    pub(crate) fn delivered_end(&self, deadlock: bool) -> Counters {
        let mut c = self.counters();
        if !deadlock {
            c.cycle = self.last_eject;
        }
        c
    }
}
