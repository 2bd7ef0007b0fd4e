//! BookSim2's read/write traffic in the engine (`use_read_write = 1`, docs/booksim.md §3.6),
//! run by the class machinery (`classes`) with one class:
//!
//! * a packet the injection process creates is a write request with probability
//!   `write_fraction`, else a read request, of its kind's size;
//! * when a request's tail reaches its destination, a reply of the matching kind and size
//!   back to the request's source is queued at the destination, created at that cycle;
//! * a terminal whose source is idle (no packet being injected, none chosen to go next)
//!   chooses its next packet from the next cycle on: its oldest queued reply first, else
//!   its oldest request; the choice is kept until the head leaves;
//! * a reply is measured when it is chosen during the measurement or its request was
//!   measured, and it counts in every statistic as a request does;
//! * each kind has its own VC range, at the injection channel (the terminal's round robin
//!   runs within it, and starts at its first VC when the previous packet's VC lies outside)
//!   and at every router (`sim::router::input_queued`, split in two halves for a torus's
//!   wrap classes except at the destination's router).

use std::collections::VecDeque;

use crate::sim::config::{Kind, ReadWrite};
use crate::sim::network::terminal::{Packet, Pending, NO_TAG};

/// The read/write parameters of a run and the replies each terminal has queued.
#[derive(Debug)]
pub(crate) struct Replies {
    rw: ReadWrite,
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
    /// Packets whose length was not their kind's size.
    pub wrong_size: u64,
}

impl Replies {
    /// No replies yet at any of `nodes` terminals.
    pub fn new(rw: &ReadWrite, nodes: u32) -> Self {
        Replies {
            rw: rw.clone(),
            queues: vec![VecDeque::new(); nodes as usize],
            #[cfg(test)]
            ledger: Ledger {
                owed: vec![0; nodes as usize],
                ..Ledger::default()
            },
        }
    }

    /// The kind and size of a new request, from the draw `u` uniform in `[0, 1)`: a write
    /// when `u < write_fraction`.
    pub fn request(&self, u: f64) -> (Kind, u16) {
        let kind = if u < self.rw.write_fraction {
            Kind::WriteRequest
        } else {
            Kind::ReadRequest
        };
        (kind, self.rw.size(kind).unwrap_or(1))
    }

    /// Packet `p`'s tail reached its destination at `now`: a request's reply is queued
    /// there (created now, measured if the request was).
    pub fn arrived(&mut self, p: &Packet, now: u64) {
        #[cfg(test)]
        self.ledger.record(&self.rw, p);
        let Some(kind) = p.kind.reply() else {
            return;
        };
        self.queues[p.dst as usize].push_back(Pending {
            dst: p.src,
            created: now,
            measured: p.measured,
            tag: NO_TAG,
            len: self.rw.size(kind).unwrap_or(1),
            kind,
        });
    }

    /// Terminal `t`'s oldest reply queued before `now`, taken from its queue.
    pub fn take(&mut self, t: u32, now: u64) -> Option<Pending> {
        let q = &mut self.queues[t as usize];
        if q.front().is_some_and(|r| r.created < now) {
            q.pop_front()
        } else {
            None
        }
    }

    /// The VCs `(first, last)` of packets of kind `kind` (`None` for [`Kind::Any`]).
    pub fn window(&self, kind: Kind) -> Option<(u8, u8)> {
        kind.index().map(|i| self.rw.vcs[i])
    }

    /// Replies queued and not yet chosen, at every terminal.
    #[cfg(test)]
    pub fn queued(&self) -> usize {
        self.queues.iter().map(VecDeque::len).sum()
    }
}

#[cfg(test)]
impl Ledger {
    /// Packet `p` arrived: counted by kind, checked for its kind's size, and a request
    /// owes its source a reply that a reply's arrival pays.
    fn record(&mut self, rw: &ReadWrite, p: &Packet) {
        let Some(i) = p.kind.index() else {
            return;
        };
        self.packets[i] += 1;
        self.wrong_size += u64::from(rw.size(p.kind) != Some(p.len));
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
        let mut r = Replies::new(&rw, 4);
        assert_eq!(r.request(0.2), (Kind::WriteRequest, 4));
        assert_eq!(r.request(0.7), (Kind::ReadRequest, 1));
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
        assert!(r.take(3, 10).is_none(), "eligible from the next cycle");
        let q = r.take(3, 11).expect("queued");
        assert_eq!(
            (q.dst, q.len, q.kind, q.created),
            (1, 3, Kind::ReadReply, 10)
        );
        assert!(q.measured);
    }

    #[test]
    fn the_terminal_round_robin_stays_in_the_window() {
        let v: Vec<usize> = window_order((8, 13), 9).collect();
        assert_eq!(v, [10, 11, 12, 13, 8, 9]);
        let v: Vec<usize> = window_order((8, 13), 3).collect();
        assert_eq!(v, [8], "from outside: the first VC only");
    }
}
