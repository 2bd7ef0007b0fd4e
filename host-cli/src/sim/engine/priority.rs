//! The engine's part of BookSim2's packet priorities (`priority = …`, docs/booksim.md §3.5;
//! the modes: `sim::router::priority`): the priority a packet gives its flits, kept per
//! packet beside the route records and read by the routers through `Effects::flit_pri`; the
//! issue numbers of `sequence`; and the priority of a class's next flit at its terminal.
//!
//! * `class`: the class's `class_priority`; `age`: `INT_MAX − t` of the packet's creation
//!   cycle (`Packet::created`: its queue time; a reply's is its request's arrival), as
//!   BookSim2's `_GeneratePacket` sets `f->pri`;
//! * `sequence`: `INT_MAX − n`, `n` the packet's number among the packets its source issued
//!   (`_packet_seq_no`, counted over every class, replies included). BookSim2 issues a class's
//!   packet when the class's previous one has left its source, which is not when jumpnet
//!   creates it: a packet gets its number when it becomes its class's next packet
//!   (`Pending::seq`; with one class, when it starts: the order is the same). BookSim2 counts
//!   afresh in each batch of `sim_type = batch`, whose packets never meet another batch's;
//!   jumpnet goes on counting, which orders them alike;
//! * `network_age`: `INT_MAX − t` of each flit's own injection cycle `t`: the packet keeps its
//!   head's injection cycle, and a flit's is that plus its position and its lag
//!   (`flit_time`; a late flit's from `LateFlits`). Before its injection a flit has priority
//!   0, as in every mode but `class`, `age` and `sequence`.

use crate::sim::engine::flit_time::{LateFlits, LATE};
use crate::sim::network::Flit;
use crate::sim::router::priority::{older_first, Priority};

/// The packet priorities of a run (empty but for the mode without `class`, `age`,
/// `sequence` and `network_age`).
#[derive(Debug, Default)]
pub(crate) struct PacketPriorities {
    mode: Priority,
    /// Per packet (pool id): its flits' priority (`class`, `age`, `sequence`) or its head's
    /// injection cycle (`network_age`).
    of: Vec<u32>,
    /// Per terminal: the packets it issued (`sequence`).
    issued: Vec<u32>,
}

impl PacketPriorities {
    /// The priorities of mode `mode` for `terminals` terminals.
    pub fn new(mode: Priority, terminals: u32) -> Self {
        PacketPriorities {
            mode,
            of: Vec::new(),
            issued: if mode == Priority::Sequence {
                vec![0; terminals as usize]
            } else {
                Vec::new()
            },
        }
    }

    /// The mode.
    #[inline]
    pub fn mode(&self) -> Priority {
        self.mode
    }

    /// The number of the next packet terminal `t` issues (from 1; `sequence` only, else 0).
    #[inline]
    pub fn issue(&mut self, t: u32) -> u32 {
        match self.issued.get_mut(t as usize) {
            Some(n) => {
                *n += 1;
                *n
            }
            None => 0,
        }
    }

    /// The priority of a packet's flits waiting at its source (module documentation): of a
    /// packet created at `created`, issued as number `seq`, of a class of priority
    /// `class_pri`.
    #[inline]
    pub fn at_source(&self, created: u64, seq: u32, class_pri: u32) -> u32 {
        match self.mode {
            Priority::Class => class_pri,
            Priority::Age => older_first(created),
            Priority::Sequence => older_first(u64::from(seq)),
            _ => 0,
        }
    }

    /// Packet `id` starts: created at `created`, issued as number `seq`, of a class of
    /// priority `class_pri`, its head injected now (`now`).
    #[inline]
    pub fn start(&mut self, id: u32, (created, seq, class_pri): (u64, u32, u32), now: u64) {
        let value = match self.mode {
            Priority::NetworkAge => now as u32,
            m if m.of_packets() => self.at_source(created, seq, class_pri),
            _ => return,
        };
        let i = id as usize;
        if i >= self.of.len() {
            self.of.resize(i + 1, 0);
        }
        self.of[i] = value;
    }

    /// The priority of packet `id`'s flits (`class`, `age`, `sequence`; the head's injection
    /// cycle with `network_age`; 0 in the other modes).
    #[inline]
    pub fn packet(&self, id: u32) -> u32 {
        self.of.get(id as usize).copied().unwrap_or(0)
    }

    /// What the routers read in one router phase.
    #[inline]
    pub fn view<'a>(&'a self, late: &'a LateFlits) -> PriorityView<'a> {
        PriorityView {
            mode: self.mode,
            of: &self.of,
            late,
        }
    }

    /// Forgets every packet and issue number (engine reuse).
    pub fn clear(&mut self) {
        self.of.clear();
        self.issued.fill(0);
    }
}

/// The packet priorities as the routers read them (`Effects::flit_pri`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PriorityView<'a> {
    mode: Priority,
    of: &'a [u32],
    late: &'a LateFlits,
}

impl<'a> PriorityView<'a> {
    /// The view of a run without the engine's priorities (`Priority::of_packets` false):
    /// every flit's is 0. `late` is not read.
    pub fn none(late: &'a LateFlits) -> Self {
        PriorityView {
            mode: Priority::None,
            of: &[],
            late,
        }
    }

    /// BookSim2's priority of `flit`, in the network (`class`, `age`, `sequence`,
    /// `network_age`; 0 in the other modes, which the routers compute themselves).
    #[inline]
    pub fn flit(&self, flit: Flit) -> u32 {
        let of = self.of.get(flit.pkt as usize).copied().unwrap_or(0);
        match self.mode {
            Priority::Class | Priority::Age | Priority::Sequence => of,
            Priority::NetworkAge => {
                let t = match flit.lag {
                    LATE => self.late.cycle(flit.pkt, flit.seq),
                    _ => None,
                };
                older_first(t.unwrap_or(u64::from(of) + u64::from(flit.seq) + u64::from(flit.lag)))
            }
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flit(pkt: u32, seq: u16, lag: u8) -> Flit {
        Flit {
            pkt,
            seq,
            tail: false,
            lag,
        }
    }

    #[test]
    fn a_flits_priority_by_mode() {
        let late = LateFlits::default();
        let max = i32::MAX as u32;
        // Packet 2 created at 10, issued third by its terminal, class priority 4, its head
        // injected at 25.
        let at = |mode| {
            let mut p = PacketPriorities::new(mode, 2);
            p.issue(1);
            p.issue(1);
            let seq = p.issue(1);
            p.start(2, (10, seq, 4), 25);
            (0..3u16)
                .map(|s| p.view(&late).flit(flit(2, s, 0)))
                .collect::<Vec<_>>()
        };
        assert_eq!(at(Priority::Class), [4, 4, 4]);
        assert_eq!(at(Priority::Age), [max - 10; 3]);
        assert_eq!(at(Priority::Sequence), [max - 3; 3]);
        // Each flit its own injection cycle: 25, 26, 27 back to back.
        assert_eq!(at(Priority::NetworkAge), [max - 25, max - 26, max - 27]);
        assert_eq!(at(Priority::HopCount), [0; 3]);
        // A flit that lagged: 3 cycles behind its place; one kept aside, exact.
        let mut p = PacketPriorities::new(Priority::NetworkAge, 1);
        p.start(0, (0, 0, 0), 100);
        assert_eq!(p.view(&late).flit(flit(0, 1, 3)), max - 104);
        let mut late = LateFlits::default();
        assert_eq!(late.lag(0, 2, 100, 1000), LATE);
        assert_eq!(p.view(&late).flit(flit(0, 2, LATE)), max - 1000);
    }

    #[test]
    fn issue_numbers_count_per_terminal_in_sequence_mode_only() {
        let mut p = PacketPriorities::new(Priority::Sequence, 2);
        assert_eq!([p.issue(0), p.issue(1), p.issue(0)], [1, 1, 2]);
        assert_eq!(p.at_source(7, 2, 9), i32::MAX as u32 - 2);
        let mut q = PacketPriorities::new(Priority::Age, 2);
        assert_eq!(q.issue(0), 0);
        assert_eq!(q.at_source(7, 2, 9), i32::MAX as u32 - 7);
    }
}
