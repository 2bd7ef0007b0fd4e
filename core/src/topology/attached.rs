//! Terminals and channel latencies given port by port, for a stored graph whose switches
//! have different numbers of terminals, numbered in any order, and whose channels have
//! latencies of their own (BookSim2's `anynet` networks, docs/booksim.md §3;
//! docs/topologies.md §11).
//!
//! A [`StoredGraph`](super::StoredGraph) with [`Attachments`] has
//! `terminals_per_switch` terminal ports per switch (the most any switch has); terminal port
//! `width + i` of switch `s` holds the terminal `port_terminal[s·tps + i]` or nothing
//! ([`NO_TERMINAL`]). The latency of the channel leaving port `p` of switch `s` is
//! `latency[s·radix + p]` (0: the latency of the link's class, as without attachments).
//!
//! A butterfly's links run one way, from a stage to the next ([`Attachments::one_way`]):
//! [`Topology::port_use`](super::Topology::port_use) then says which of a port's channels
//! carry flits, computed from the switch numbers and the terminals' ports.

use super::{Port, PortIndex, PortUse, SwitchId, TerminalId, TopologyError};
use crate::error::{CapacityError, InvalidParam};

/// Marks a terminal port without a terminal in [`Attachments::port_terminal`].
pub const NO_TERMINAL: TerminalId = TerminalId::MAX;

/// Where the terminals hang and how long each channel is (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Attachments<'a> {
    /// The terminal on each terminal port, `s·tps + i` (or [`NO_TERMINAL`]).
    pub port_terminal: &'a [TerminalId],
    /// Switch and port of every terminal `0..len` (where it ejects, and injects unless
    /// [`Attachments::injection_port`] says otherwise).
    pub terminal_port: &'a [(SwitchId, PortIndex)],
    /// Switch and port where every terminal injects, when that is not its
    /// [`Attachments::terminal_port`] (a butterfly's nodes inject at its first stage and
    /// eject at its last, docs/topologies.md §11); empty: each terminal injects where it
    /// ejects. A terminal then sits on both ports.
    pub injection_port: &'a [(SwitchId, PortIndex)],
    /// Latency of the channel leaving each port, `s·radix + p` (0: the class latency);
    /// empty for none.
    pub latency: &'a [u16],
    /// Every link carries flits only from its lower-numbered switch to its higher-numbered
    /// one, and a terminal's port only its own way (into the switch where it injects, out
    /// of the one where it ejects): a butterfly whose switches are numbered stage by stage
    /// (docs/topologies.md §11). `false`: every port is used both ways.
    pub one_way: bool,
}

fn invalid(param: &'static str, value: u64, rule: &'static str) -> TopologyError {
    TopologyError::Invalid(InvalidParam { param, value, rule })
}

impl Attachments<'_> {
    /// Checks the tables against a graph of `n` switches with `width` network ports and
    /// `tps` terminal ports each: sizes, and every terminal on exactly the port that names it.
    pub fn check(&self, n: u32, width: u16, tps: u16) -> Result<(), TopologyError> {
        let ports = n as u64 * tps as u64;
        if self.port_terminal.len() as u64 != ports {
            return Err(TopologyError::Capacity(CapacityError {
                what: "terminal port entries",
                needed: ports,
                available: self.port_terminal.len() as u64,
            }));
        }
        let radix = n as u64 * (width as u64 + tps as u64);
        if !self.latency.is_empty() && self.latency.len() as u64 != radix {
            return Err(TopologyError::Capacity(CapacityError {
                what: "port latencies",
                needed: radix,
                available: self.latency.len() as u64,
            }));
        }
        let terminals = self.terminal_port.len();
        if !self.injection_port.is_empty() && self.injection_port.len() != terminals {
            return Err(invalid(
                "injection ports",
                self.injection_port.len() as u64,
                "give one injection port per terminal, or none",
            ));
        }
        // Terminals injecting at a port of their own sit on two ports.
        let own = |t: usize| {
            self.injection_port
                .get(t)
                .filter(|&&q| Some(&q) != self.terminal_port.get(t))
        };
        let expected =
            terminals as u64 + (0..terminals).filter(|&t| own(t).is_some()).count() as u64;
        let mut placed = 0u64;
        for (i, &t) in self.port_terminal.iter().enumerate() {
            if t == NO_TERMINAL {
                continue;
            }
            let (s, p) = ((i / tps as usize) as u32, width + (i % tps as usize) as u16);
            if self.terminal_port.get(t as usize) != Some(&(s, p))
                && own(t as usize) != Some(&(s, p))
            {
                return Err(invalid(
                    "terminal",
                    t as u64,
                    "every terminal must sit on the terminal port (and the injection port) \
                     that names it",
                ));
            }
            placed += 1;
        }
        if placed != expected {
            return Err(invalid(
                "terminals",
                self.terminal_port.len() as u64,
                "every terminal must sit on a terminal port",
            ));
        }
        Ok(())
    }

    /// The terminal on terminal port `i` (`0..tps`) of switch `s`.
    #[inline]
    pub fn terminal_at(&self, s: SwitchId, i: u16, tps: u16) -> Option<TerminalId> {
        self.port_terminal
            .get(s as usize * tps as usize + i as usize)
            .copied()
            .filter(|&t| t != NO_TERMINAL)
    }

    /// With [`Attachments::one_way`], which of the channels of port `p` of switch `s`
    /// (connected to `port`) carry flits: a link's channel toward the higher-numbered switch,
    /// a terminal's injection channel on its injection port and its ejection channel on its
    /// terminal port; nothing on an unconnected port.
    pub fn use_of(&self, s: SwitchId, p: PortIndex, port: Port) -> PortUse {
        match port {
            Port::Link(l) if l.peer > s => PortUse::Out,
            Port::Link(l) if l.peer < s => PortUse::In,
            Port::Link(_) => PortUse::Both,
            Port::Terminal(t) => {
                let at = Some(&(s, p));
                let ejects = self.terminal_port.get(t as usize) == at;
                let injects = match self.injection_port.get(t as usize) {
                    Some(q) => Some(q) == at,
                    None => ejects,
                };
                match (injects, ejects) {
                    (true, true) => PortUse::Both,
                    (true, false) => PortUse::In,
                    (false, true) => PortUse::Out,
                    (false, false) => PortUse::Unused,
                }
            }
            Port::Unconnected => PortUse::Unused,
        }
    }

    /// The latency of the channel leaving port `p` of switch `s` (`None`: the class's).
    #[inline]
    pub fn latency_of(&self, s: SwitchId, p: PortIndex, radix: PortIndex) -> Option<u16> {
        self.latency
            .get(s as usize * radix as usize + p as usize)
            .copied()
            .filter(|&l| l != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::stored::{from_edges, Slot};
    use crate::topology::{Port, Topology};

    #[test]
    fn terminals_anywhere_and_latencies_per_port() {
        // Switches 0 – 1; switch 0 has terminals 2 and 0, switch 1 terminal 1.
        let mut slots = [Slot::EMPTY; 2];
        let mut deg = [0u16; 2];
        let g = from_edges(2, 1, 2, [(0, 1)], &mut slots, &mut deg).unwrap();
        let port_terminal = [2, 0, 1, NO_TERMINAL];
        let terminal_port = [(0, 2), (1, 1), (0, 1)];
        let latency = [5, 1, 1, 7, 1, 0];
        let a = Attachments {
            port_terminal: &port_terminal,
            terminal_port: &terminal_port,
            injection_port: &[],
            latency: &latency,
            one_way: false,
        };
        let g = g.with_attachments(a).unwrap();
        assert_eq!((g.num_terminals(), g.radix()), (3, 3));
        assert_eq!(g.port(0, 1), Port::Terminal(2));
        assert_eq!(g.port(1, 2), Port::Unconnected);
        assert_eq!(g.terminal_port(1), Some((1, 1)));
        assert_eq!(g.terminal_port(3), None);
        assert_eq!(
            (g.port_latency(0, 0), g.port_latency(1, 0)),
            (Some(5), Some(7))
        );
        assert_eq!(g.port_latency(1, 2), None);
        // A terminal named by a port that is not its own is refused.
        let wrong = [(0, 2), (1, 1), (0, 2)];
        let bad = Attachments {
            terminal_port: &wrong,
            ..a
        };
        assert!(g.with_attachments(bad).is_err());
        let short = Attachments {
            latency: &latency[..3],
            ..a
        };
        assert!(g.with_attachments(short).is_err());
        // Without injection ports a terminal injects where it ejects.
        let g2 = g.with_attachments(a).unwrap();
        assert_eq!(g2.injection_port(1), g2.terminal_port(1));
    }

    #[test]
    fn a_terminal_may_inject_at_a_port_of_its_own() {
        // Switches 0 – 1, one terminal port each: terminal 0 injects at switch 0 and ejects
        // at switch 1, so it sits on both ports.
        let mut slots = [Slot::EMPTY; 2];
        let mut deg = [0u16; 2];
        let g = from_edges(2, 1, 1, [(0, 1)], &mut slots, &mut deg).unwrap();
        let (port_terminal, terminal_port, injection_port) = ([0, 0], [(1, 1)], [(0, 1)]);
        let a = Attachments {
            port_terminal: &port_terminal,
            terminal_port: &terminal_port,
            injection_port: &injection_port,
            latency: &[],
            one_way: false,
        };
        let g2 = g.with_attachments(a).unwrap();
        assert_eq!(g2.injection_port(0), Some((0, 1)));
        assert_eq!(g2.injection_switch(0), Some(0));
        assert_eq!(g2.terminal_port(0), Some((1, 1)));
        assert_eq!(
            (g2.port(0, 1), g2.port(1, 1)),
            (Port::Terminal(0), Port::Terminal(0))
        );
        // Not on its injection port, or an injection table of the wrong length: refused.
        let half = [0, NO_TERMINAL];
        assert!(g
            .with_attachments(Attachments {
                port_terminal: &half,
                ..a
            })
            .is_err());
        let two = [(0, 1), (0, 1)];
        assert!(g
            .with_attachments(Attachments {
                injection_port: &two,
                ..a
            })
            .is_err());
    }

    #[test]
    fn one_way_links_and_terminals_say_which_channels_carry_flits() {
        // Switches 0 – 1 – 2 in a line with one terminal port each: terminal 0 injects at
        // switch 0 and ejects at switch 2, terminal 1 injects and ejects at switch 1; switch
        // 2's second network port is unconnected.
        let mut slots = [Slot::EMPTY; 6];
        let mut deg = [0u16; 3];
        let g = from_edges(3, 2, 1, [(0, 1), (1, 2)], &mut slots, &mut deg).unwrap();
        let port_terminal = [0, 1, 0];
        let (terminal_port, injection_port) = ([(2, 2), (1, 2)], [(0, 2), (1, 2)]);
        let a = Attachments {
            port_terminal: &port_terminal,
            terminal_port: &terminal_port,
            injection_port: &injection_port,
            latency: &[],
            one_way: true,
        };
        let g1 = g.with_attachments(a).unwrap();
        let uses = |g: &crate::topology::StoredGraph<'_>| {
            let mut u = [PortUse::Unused; 9];
            for (i, x) in u.iter_mut().enumerate() {
                *x = g.port_use((i / 3) as u32, (i % 3) as u16);
            }
            u
        };
        use PortUse::{Both, In, Out, Unused};
        assert_eq!(
            uses(&g1),
            [Out, Unused, In, In, Out, Both, In, Unused, Out],
            "switch 0: link to 1, none, injection; 1: from 0, to 2, both; 2: from 1, none, ejection"
        );
        assert!(In.is_input() && !In.is_output() && Out.is_output() && !Unused.is_input());
        // Without `one_way` every port is used both ways, connected or not.
        let g2 = g
            .with_attachments(Attachments {
                one_way: false,
                ..a
            })
            .unwrap();
        assert!(uses(&g2).iter().all(|&u| u == Both));
    }
}
