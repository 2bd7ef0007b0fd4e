//! Engine reuse: putting a [`State`] back into the state [`State::new`] builds, without
//! freeing or allocating (the GA's simulated fitness runs one short batch per gene and
//! pattern, docs/mapping.md §5).

use crate::sim::engine::State;

impl State<'_> {
    /// Empties the network (the routers and their partitions), the terminals, the packet
    /// pool, the event wheel, every counter and statistic, and sets the clock to 0; buffers
    /// keep their capacity. The next run behaves exactly like one on a freshly built state
    /// (the traffic driver's PRNG is not rewound: runs that create their packets explicitly
    /// do not use it).
    pub(crate) fn reset(&mut self) {
        self.routers.reset();
        self.due.clear();
        for t in &mut self.terms {
            t.queue.clear();
            t.current = None;
            t.credits.fill(self.cfg.vc_buf_size);
            t.active = false;
        }
        self.active_terms.clear();
        self.packets.clear();
        self.routes.clear();
        self.free.clear();
        self.wheel.clear();
        self.now = 0;
        self.last_progress = 0;
        self.in_network = 0;
        self.measuring = false;
        self.measured_outstanding = 0;
        self.violations = 0;
        self.gen_flits = 0;
        self.total_packets = 0;
        self.total_flits = 0;
        self.last_eject = 0;
        self.rec.clear();
        self.nodes.clear();
        self.generating = true;
        self.late.clear();
        self.pri.clear();
        self.tail_log.clear();
        self.beside.clear();
    }
}
