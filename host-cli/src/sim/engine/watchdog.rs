//! Deadlock watchdog: when flits are in flight and nothing has moved for
//! `watchdog_cycles`, build the wait-for graph of blocked input VCs — each blocked VC waits
//! for buffer space (credits) or a free output VC of exactly one downstream input VC, as the
//! router model says — and report a cycle of it as the channels that wait on each other,
//! instead of hanging.

use crate::sim::engine::stats::{DeadlockReport, WaitingChannel};
use crate::sim::engine::State;
use crate::sim::network::PortKind;

const NONE: u32 = u32::MAX;

impl State<'_> {
    /// The deadlock report at the current cycle: one cycle of the wait-for graph (empty if
    /// the blocked VCs form none).
    pub(crate) fn deadlock_report(&self) -> DeadlockReport {
        let radix = self.fabric.radix;
        let vcs = self.vcs;
        let n = self.routers.input_vcs();
        let next: Vec<u32> = (0..n)
            .map(|iv| {
                self.routers
                    .waits_for(&self.fabric, iv)
                    .map_or(NONE, |w| w as u32)
            })
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
