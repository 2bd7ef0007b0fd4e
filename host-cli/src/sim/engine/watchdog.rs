//! Deadlock watchdog (issue 9): when flits are in flight and nothing has moved for
//! `watchdog_cycles`, build the wait-for graph of blocked input VCs — each blocked VC waits
//! for buffer space (credits) or a free output VC of exactly one downstream input VC — and
//! report a cycle of it as the channels that wait on each other, instead of hanging.

use crate::sim::engine::stats::{DeadlockReport, WaitingChannel};
use crate::sim::engine::{State, VcState};
use crate::sim::network::PortKind;

const NONE: u32 = u32::MAX;

impl State<'_> {
    /// Downstream input VC that blocked input VC `iv` of switch `s` waits for.
    fn waits_for(&self, s: usize, iv: usize) -> u32 {
        if self.ivs[iv].len == 0 {
            return NONE;
        }
        let radix = self.fabric.radix;
        let vcs = self.vcs;
        let (port, vc) = match self.ivs[iv].state {
            VcState::Routed { port, vc } => (port, vc),
            VcState::Active {
                port,
                vc,
                eject: false,
            } => {
                let ov = (s * radix + usize::from(port)) * vcs + usize::from(vc);
                if self.credits[ov] > 0 {
                    return NONE;
                }
                (port, vc)
            }
            _ => return NONE,
        };
        match self.fabric.ports[s * radix + usize::from(port)] {
            PortKind::Link { peer, peer_port } => {
                ((peer as usize * radix + usize::from(peer_port)) * vcs + usize::from(vc)) as u32
            }
            _ => NONE,
        }
    }

    /// The deadlock report at the current cycle: one cycle of the wait-for graph (empty if
    /// the blocked VCs form none).
    pub(crate) fn deadlock_report(&self) -> DeadlockReport {
        let radix = self.fabric.radix;
        let vcs = self.vcs;
        let n = self.ivs.len();
        let next: Vec<u32> = (0..n)
            .map(|iv| self.waits_for(iv / vcs / radix, iv))
            .collect();
        let mut mark = vec![NONE; n];
        let mut cycle = Vec::new();
        'search: for start in 0..n {
            let mut x = start as u32;
            while x != NONE && mark[x as usize] == NONE {
                mark[x as usize] = start as u32;
                x = next[x as usize];
            }
            if x != NONE && mark[x as usize] == start as u32 {
                let first = x;
                loop {
                    cycle.push(x as usize);
                    x = next[x as usize];
                    if x == first {
                        break 'search;
                    }
                }
            }
        }
        let channels = cycle
            .into_iter()
            .map(|iv| {
                let pi = iv / vcs;
                let s = (pi / radix) as u32;
                let vc = (iv % vcs) as u8;
                match self.fabric.ports[pi] {
                    PortKind::Link { peer, peer_port } => WaitingChannel {
                        switch: peer,
                        port: peer_port,
                        peer: s,
                        vc,
                    },
                    _ => WaitingChannel {
                        switch: s,
                        port: (pi % radix) as u16,
                        peer: s,
                        vc,
                    },
                }
            })
            .collect();
        DeadlockReport {
            cycle: self.now,
            flits_in_flight: self.in_network,
            channels,
        }
    }
}
