//! Engine reuse: putting a [`State`] back into the state [`State::new`] builds, without
//! freeing or allocating (the GA's simulated fitness runs one short batch per gene and
//! pattern, spec/mapping.md §5).

use crate::sim::engine::{InVc, State};

impl State<'_> {
    /// Empties the network, the terminals, the packet pool, the event wheel, the arbiters'
    /// pointers, every counter and statistic, and sets the clock to 0; buffers keep their
    /// capacity. The next run behaves exactly like one on a freshly built state (the
    /// traffic driver's PRNG is not rewound: runs that create their packets explicitly do
    /// not use it).
    pub(crate) fn reset(&mut self) {
        // Buffer slots need no clearing: an input VC's `len` (reset below) says which hold
        // flits.
        self.ivs.fill(InVc::default());
        self.credits.fill(self.cfg.vc_buf_size);
        self.busy.fill(false);
        self.buffered.fill(0);
        self.nonempty.fill(0);
        self.wake.fill(0);
        self.arb.reset();
        self.due.clear();
        for part in &mut self.parts {
            part.reset();
        }
        for t in &mut self.terms {
            t.queue.clear();
            t.current = None;
            t.credits.fill(self.cfg.vc_buf_size);
            t.active = false;
        }
        self.active_terms.clear();
        self.packets.clear();
        self.free.clear();
        self.wheel.clear();
        self.now = 0;
        self.last_progress = 0;
        self.in_network = 0;
        self.measuring = false;
        self.measured_outstanding = 0;
        self.violations = 0;
        self.channel_flits.fill(0);
        self.out_free.fill(0);
        self.cred_free.fill(0);
        self.gen_flits = 0;
        self.total_packets = 0;
        self.total_flits = 0;
        self.last_eject = 0;
        // Histograms are large; runs without measurement leave them empty.
        for h in [
            &mut self.plat,
            &mut self.nlat,
            &mut self.qlat,
            &mut self.flat,
            &mut self.hops,
        ] {
            if h.count() > 0 {
                h.clear();
            }
        }
        self.sample_sum = 0;
        self.sample_n = 0;
        self.warm_sum = 0;
        self.warm_n = 0;
        self.tail_log.clear();
    }
}
