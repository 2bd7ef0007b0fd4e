//! BookSim2's read/write traffic in the engine (`use_read_write = 1`, docs/booksim.md §3.6),
//! run by the class machinery (`classes`), with one class or with BookSim2's classes, each
//! with read/write traffic of its own write fraction and sizes or with ordinary packets:
//!
//! * a packet a read/write class's injection process creates is a write request with
//!   probability `write_fraction`, else a read request, of its kind's size in the class;
//! * when a request's tail reaches its destination, a reply of the matching kind back to
//!   the request's source is queued at the destination, created at that cycle, in one
//!   queue per terminal for all classes (BookSim2's `_repliesPending`);
//! * a source of a read/write class that is idle (no packet being injected, none chosen to
//!   go next) chooses its next packet from the next cycle on: its terminal's oldest queued
//!   reply first, else its own oldest request; the choice is kept until the head leaves.
//!   The classes choose in class order, so a reply goes with the first read/write class of
//!   its terminal that is idle, whatever the request's class, and has that class's size of
//!   its kind;
//! * a reply is measured when it is chosen during the measurement or its request was
//!   measured, and it counts in every statistic as a request does;
//! * each kind has its own VC range, at the injection channel (the terminal's round robin
//!   runs within it, and starts at its first VC when the previous packet's VC lies outside)
//!   and at every router (`sim::router::input_queued`, split in two halves for a torus's
//!   wrap classes except at the destination's router).

use std::collections::VecDeque;

use crate::sim::config::{Kind, ReadWrite};
use crate::sim::network::terminal::{Packet, Pending, NO_TAG};

/// The read/write parameters of a run's classes and the replies each terminal has queued.
#[derive(Debug)]
pub(crate) struct Replies {
    /// Per class: its write fraction and sizes (`None`: ordinary packets).
    classes: Vec<Option<ReadWrite>>,
    /// The VCs of each kind (every class's).
    vcs: [(u8, u8); 4],
    /// Per terminal: replies queued, oldest first.
    queues: Vec<VecDeque<Pending>>,
    /// What arrived, for the checks of the tests.
    #[cfg(test)]
    pub ledger: Ledger,
}

/// Packets of each kind that arrived, and per terminal the replies it is owed (tests).
#[cfg(test)]
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    /// Packets arrived per kind ([`Kind::index`] order).
    pub packets: [u64; 4],
    /// Per terminal: requests of its that arrived less replies to it that arrived.
    pub owed: Vec<i64>,
    /// Packets whose length was not their kind's size in their class.
    pub wrong_size: u64,
    /// Per class: packets arrived per kind (`Kind as usize`: ordinary packets first).
    pub by_class: Vec<[u64; 5]>,
}

impl Replies {
    /// No replies yet at any of `nodes` terminals; `classes` has each class's parameters
    /// (one at least with read/write traffic, whose VC ranges are every class's).
    pub fn new(classes: Vec<Option<ReadWrite>>, nodes: u32) -> Self {
        let vcs =
            (classes.iter().flatten().next()).map_or(ReadWrite::booksim_default().vcs, |rw| rw.vcs);
        Replies {
            classes,
            vcs,
            queues: vec![VecDeque::new(); nodes as usize],
            #[cfg(test)]
            ledger: Ledger {
                owed: vec![0; nodes as usize],
                ..Ledger::default()
            },
        }
    }

    /// Whether class `c` runs read/write traffic (docs/booksim.md §3.6, classes).
    #[inline]
    pub fn uses(&self, c: usize) -> bool {
        self.classes.get(c).is_some_and(Option::is_some)
    }

    /// The kind and size of a new request of class `c` (one with read/write traffic), from
    /// the draw `u` uniform in `[0, 1)`: a write when `u < write_fraction`.
    pub fn request(&self, c: usize, u: f64) -> (Kind, u16) {
        let Some(rw) = self.classes.get(c).and_then(Option::as_ref) else {
            return (Kind::Any, 1);
        };
        let kind = if u < rw.write_fraction {
            Kind::WriteRequest
        } else {
            Kind::ReadRequest
        };
        (kind, rw.size(kind).unwrap_or(1))
    }

    /// Packet `p`'s tail reached its destination at `now`: a request's reply is queued
    /// there (created now, measured if the request was; its size is that of the class
    /// that takes it, [`Replies::take`]).
    pub fn arrived(&mut self, p: &Packet, now: u64) {
        #[cfg(test)]
        self.ledger.record(&self.classes, p);
        let Some(kind) = p.kind.reply() else {
            return;
        };
        self.queues[p.dst as usize].push_back(Pending {
            dst: p.src,
            created: now,
            measured: p.measured,
            tag: NO_TAG,
            len: 1,
            kind,
            seq: 0,
        });
    }

    /// Terminal `t`'s oldest reply queued before `now`, taken from its queue by class `c`
    /// (one with read/write traffic), with the class's size of its kind.
    pub fn take(&mut self, t: u32, c: usize, now: u64) -> Option<Pending> {
        let rw = self.classes.get(c)?.as_ref()?;
        let q = &mut self.queues[t as usize];
        if q.front().is_none_or(|r| r.created >= now) {
            return None;
        }
        let mut r = q.pop_front()?;
        r.len = rw.size(r.kind).unwrap_or(1);
        Some(r)
    }

    /// The VCs `(first, last)` of packets of kind `kind` (`None` for [`Kind::Any`]).
    pub fn window(&self, kind: Kind) -> Option<(u8, u8)> {
        kind.index().map(|i| self.vcs[i])
    }

    /// Replies queued and not yet chosen, at every terminal.
    #[cfg(test)]
    pub fn queued(&self) -> usize {
        self.queues.iter().map(VecDeque::len).sum()
    }
}

#[cfg(test)]
impl Ledger {
    /// Packet `p` arrived: counted by kind, checked for its kind's size in its class, and
    /// a request owes its source a reply that a reply's arrival pays.
    fn record(&mut self, classes: &[Option<ReadWrite>], p: &Packet) {
        let c = usize::from(p.class);
        if self.by_class.len() <= c {
            self.by_class.resize(c + 1, [0; 5]);
        }
        self.by_class[c][p.kind as usize] += 1;
        let Some(i) = p.kind.index() else {
            return;
        };
        self.packets[i] += 1;
        let rw = classes.get(usize::from(p.class)).and_then(Option::as_ref);
        self.wrong_size += u64::from(rw.and_then(|rw| rw.size(p.kind)) != Some(p.len));
        match p.kind.reply() {
            Some(_) => self.owed[p.src as usize] += 1,
            None => self.owed[p.dst as usize] -= 1,
        }
    }
}

/// The VCs a terminal tries for a head of VC range `(first, last)` after the VC `last_vc`
/// of its previous packet: round robin from the one after it when it lies in the range,
/// else only the range's first VC.
pub(crate) fn window_order((first, last): (u8, u8), last_vc: u8) -> impl Iterator<Item = usize> {
    let (b, e, l) = (usize::from(first), usize::from(last), usize::from(last_vc));
    let count = e - b + 1;
    let inside = (b..=e).contains(&l);
    let n = if inside { count } else { 1 };
    (1..=n).map(move |i| if inside { b + (l - b + i) % count } else { b })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_come_back_to_the_source_with_their_size() {
        let mut rw = ReadWrite::booksim_default();
        rw.sizes = [1, 4, 3, 2];
        let mut r = Replies::new(vec![Some(rw)], 4);
        assert_eq!(r.request(0, 0.2), (Kind::WriteRequest, 4));
        assert_eq!(r.request(0, 0.7), (Kind::ReadRequest, 1));
        let p = Packet {
            src: 1,
            dst: 3,
            kind: Kind::ReadRequest,
            measured: true,
            ..Packet::default()
        };
        r.arrived(&p, 10);
        r.arrived(
            &Packet {
                kind: Kind::ReadReply,
                ..p
            },
            10,
        );
        assert_eq!(r.queued(), 1, "a reply gets no reply");
        assert!(r.take(3, 0, 10).is_none(), "eligible from the next cycle");
        let q = r.take(3, 0, 11).expect("queued");
        assert_eq!(
            (q.dst, q.len, q.kind, q.created),
            (1, 3, Kind::ReadReply, 10)
        );
        assert!(q.measured);
    }

    #[test]
    fn a_reply_has_the_size_of_the_class_that_takes_it() {
        let mut big = ReadWrite::booksim_default();
        big.sizes = [1, 3, 3, 1];
        big.write_fraction = 1.0;
        let mut r = Replies::new(vec![None, Some(ReadWrite::booksim_default()), Some(big)], 4);
        assert!(!r.uses(0) && r.uses(1) && r.uses(2));
        assert_eq!(r.request(2, 0.9), (Kind::WriteRequest, 3));
        let req = |class, kind| Packet {
            src: 0,
            dst: 2,
            kind,
            class,
            ..Packet::default()
        };
        // Class 2's read request, class 1's write request: one queue at terminal 2.
        r.arrived(&req(2, Kind::ReadRequest), 5);
        r.arrived(&req(1, Kind::WriteRequest), 5);
        assert!(r.take(2, 0, 6).is_none(), "class 0 has ordinary packets");
        let a = r.take(2, 1, 6).expect("the oldest reply");
        assert_eq!((a.kind, a.len, a.dst), (Kind::ReadReply, 1, 0));
        let b = r.take(2, 2, 6).expect("the next one");
        assert_eq!((b.kind, b.len), (Kind::WriteReply, 1));
        r.arrived(&req(1, Kind::ReadRequest), 6);
        let c = r.take(2, 2, 7).expect("queued");
        assert_eq!(
            (c.kind, c.len),
            (Kind::ReadReply, 3),
            "class 2's read reply size"
        );
    }

    #[test]
    fn the_terminal_round_robin_stays_in_the_window() {
        let v: Vec<usize> = window_order((8, 13), 9).collect();
        assert_eq!(v, [10, 11, 12, 13, 8, 9]);
        let v: Vec<usize> = window_order((8, 13), 3).collect();
        assert_eq!(v, [8], "from outside: the first VC only");
    }
}
