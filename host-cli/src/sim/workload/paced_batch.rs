//! BookSim2's batch mode (`sim_type = batch`, docs/booksim.md §5) as a packet source: a
//! terminal creates a packet only when its previous one has left its queue, at most
//! `batch_size` per batch and, with `max_outstanding_requests > 0`, only while fewer than
//! that many of its packets are undelivered. Each terminal keeps a "queue time" that advances
//! by one per attempt: a packet is created with that time, so a terminal that could not keep
//! up (its injection channel busy) records the wait as queueing latency, as BookSim2's
//! `include_queuing` does. A delivery counts against the outstanding limit until the end of
//! its cycle: BookSim2 retires a packet after the cycle's packet creation
//! (`TrafficManager::_Step` reads the ejected flit, runs `_Inject`, then `_RetireFlit`), so
//! its source may create the next one a cycle later.
//!
//! With traffic classes (docs/booksim.md §3.5) the source is shared by a terminal's
//! classes, as BookSim2's `_packet_seq_no` and `_requestsOutstanding` are per node: the
//! `batch_size` packets of a batch and the outstanding limit count the packets of every
//! class, while each class keeps its own queue time (BookSim2's `_qtime[node][class]`) and
//! attempts when its own queue is empty, the classes in class order.

/// Per-terminal state of the batch source.
#[derive(Clone, Debug)]
pub struct PacedBatch {
    /// Packets per terminal and batch.
    size: u32,
    /// Undelivered packets a terminal may have, 0 = no limit.
    max_outstanding: u32,
    /// Traffic classes of a terminal (1 without BookSim2's classes).
    classes: usize,
    /// Queue time of each terminal's and class's next attempt (`t · classes + c`).
    qtime: Vec<u64>,
    /// Packets created in the current batch.
    sent: Vec<u32>,
    /// Packets created and not yet delivered.
    outstanding: Vec<u32>,
    /// Terminals whose packet was delivered in cycle `freed_at`, not yet counted off.
    freed: Vec<u32>,
    /// The cycle of the deliveries in `freed`.
    freed_at: u64,
}

impl PacedBatch {
    /// A source of `size` packets per terminal of `nodes` terminals with `classes` traffic
    /// classes each, at most `max_outstanding` undelivered (0: no limit); the first batch
    /// starts at cycle 0.
    pub fn new(nodes: u32, classes: usize, size: u32, max_outstanding: u32) -> Self {
        let n = nodes as usize;
        let classes = classes.max(1);
        PacedBatch {
            size,
            max_outstanding,
            classes,
            qtime: vec![0; n * classes],
            sent: vec![0; n],
            outstanding: vec![0; n],
            freed: Vec::new(),
            freed_at: 0,
        }
    }

    /// Starts a new batch: every terminal may create `size` packets again.
    pub fn start_batch(&mut self) {
        self.sent.iter_mut().for_each(|s| *s = 0);
    }

    /// Whether every terminal has created its packets of the batch.
    pub fn issued(&self) -> bool {
        self.sent.iter().all(|&s| s >= self.size)
    }

    /// Class `c` of terminal `t` at cycle `now`, `idle` when the class's queue is empty and
    /// it injects nothing: the creation time of a new packet, if it makes one. Attempts run
    /// from the class's queue time up to `now`; each that creates nothing still advances
    /// the queue time.
    pub fn fire(&mut self, t: u32, c: usize, now: u64, idle: bool) -> Option<u64> {
        self.count_off(now);
        if !idle {
            return None;
        }
        let (q_at, t) = (t as usize * self.classes + c, t as usize);
        while self.qtime[q_at] <= now {
            let q = self.qtime[q_at];
            self.qtime[q_at] += 1;
            let room = self.max_outstanding == 0 || self.outstanding[t] < self.max_outstanding;
            if self.sent[t] < self.size && room {
                self.sent[t] += 1;
                self.outstanding[t] += 1;
                return Some(q);
            }
        }
        None
    }

    /// Terminal `t` sent a reply (read/write traffic, docs/booksim.md §3.6): it counts
    /// among the batch's packets of the terminal (BookSim2 counts every packet it issues),
    /// not among its outstanding requests.
    pub fn reply_sent(&mut self, t: u32) {
        self.sent[t as usize] += 1;
    }

    /// A packet of terminal `t` was delivered (or dropped) in cycle `now`; it leaves the
    /// outstanding count after this cycle's attempts (module documentation).
    pub fn delivered(&mut self, t: u32, now: u64) {
        self.count_off(now);
        self.freed.push(t);
        self.freed_at = now;
    }

    /// Counts off the deliveries of cycles before `now`.
    fn count_off(&mut self, now: u64) {
        if self.freed_at < now {
            for &t in &self.freed {
                let o = &mut self.outstanding[t as usize];
                *o = o.saturating_sub(1);
            }
            self.freed.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_attempt_per_cycle_and_outstanding_limit() {
        let mut b = PacedBatch::new(2, 1, 3, 2);
        // Terminal 0 idle at cycles 0, 1: packets created at 0 and 1; then the limit of 2
        // undelivered holds it back until a delivery.
        assert_eq!(b.fire(0, 0, 0, true), Some(0));
        assert_eq!(b.fire(0, 0, 1, true), Some(1));
        assert_eq!(b.fire(0, 0, 2, true), None);
        // Delivered at 3: still outstanding for the attempt at 3, counted off at 4. The
        // failed attempts advanced the queue time: the next packet is created at 4.
        b.delivered(0, 3);
        assert_eq!(b.fire(0, 0, 3, true), None);
        assert_eq!(b.fire(0, 0, 4, true), Some(4));
        assert!(!b.issued());
        // Terminal 1 busy until cycle 5: its first packet still carries queue time 0, the
        // next one 1 (BookSim2's queueing latency).
        assert_eq!(b.fire(1, 0, 4, false), None);
        assert_eq!(b.fire(1, 0, 5, true), Some(0));
        b.delivered(1, 5);
        assert_eq!(b.fire(1, 0, 6, true), Some(1));
        b.delivered(1, 6);
        assert_eq!(b.fire(1, 0, 7, true), Some(2));
        assert!(b.issued());
        assert_eq!(b.fire(0, 0, 8, true), None);
        b.start_batch();
        assert!(!b.issued());
    }

    #[test]
    fn classes_share_the_batch_and_the_limit_but_not_the_queue_time() {
        // 2 classes, 3 packets per terminal and batch, at most 2 undelivered.
        let mut b = PacedBatch::new(1, 2, 3, 2);
        assert_eq!(b.fire(0, 0, 0, true), Some(0));
        assert_eq!(b.fire(0, 1, 0, false), None, "class 1 busy: no attempt");
        assert_eq!(b.fire(0, 0, 1, true), Some(1));
        // Two packets of the terminal undelivered: class 1's attempts from its own queue
        // time 0 up to now all fail on the terminal's limit, and advance its queue time.
        assert_eq!(b.fire(0, 1, 1, true), None);
        b.delivered(0, 2);
        assert_eq!(b.fire(0, 1, 3, true), Some(2));
        assert!(b.issued(), "3 packets of the terminal over both classes");
        assert_eq!(b.fire(0, 0, 3, true), None);
    }
}
