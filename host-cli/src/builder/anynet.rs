//! The stored graph of a BookSim2 anynet network ([`AnyNet`], docs/topologies.md §11): its
//! port table, where its terminals hang and the latency of every channel.
//!
//! Router `r`'s network ports are its neighbours in increasing router id, its terminal ports
//! (after the widest router's network ports) its nodes in increasing node id — BookSim2's
//! order within each kind (BookSim2 puts the nodes first). Node `N` is jumpnet terminal `N`.

use anyhow::{anyhow, Context, Result};
use jumpnet_core::topology::attached::{Attachments, NO_TERMINAL};
use jumpnet_core::topology::{stored, Family, LinkClass, Slot, StoredGraph};

use crate::io::anynet::AnyNet;

/// The owned tables of an anynet network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyNetStorage {
    /// Routers.
    pub n: u32,
    /// Network ports per router (the highest degree).
    pub width: u16,
    /// Terminal ports per router (the most nodes a router has).
    pub tps: u16,
    /// Port table.
    pub slots: Vec<Slot>,
    /// Terminal of each terminal port ([`Attachments::port_terminal`]).
    pub port_terminal: Vec<u32>,
    /// Switch and port of each terminal.
    pub terminal_port: Vec<(u32, u16)>,
    /// Switch and port where each terminal injects, if not its [`Self::terminal_port`]
    /// (empty: where it ejects; a butterfly, [`crate::builder::fly`]).
    pub injection_port: Vec<(u32, u16)>,
    /// Latency of the channel leaving each port.
    pub latency: Vec<u16>,
    /// Links carry flits from the lower-numbered router to the higher only, terminals only
    /// into their injection port and out of their terminal port (a butterfly:
    /// [`Attachments::one_way`]); `false` for BookSim2's anynet files.
    pub one_way: bool,
}

impl AnyNetStorage {
    /// Lays out `net`.
    pub fn new(net: &AnyNet) -> Result<Self> {
        let n = net.routers;
        let mut nodes_of: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
        for (node, &r) in net.nodes.iter().enumerate() {
            nodes_of[r as usize].push(node as u32);
        }
        let degree = |r: u32| net.neighbours(r).count();
        let too_many = |what: &str, r: usize| {
            anyhow!("router {r} has more {what} than the 65535 ports a switch may have")
        };
        let width = (0..n).map(degree).max().unwrap_or(0);
        let width = u16::try_from(width).map_err(|_| too_many("links", 0))?;
        let tps = nodes_of.iter().map(Vec::len).max().unwrap_or(0);
        let tps = u16::try_from(tps)
            .ok()
            .filter(|&t| u32::from(t) + u32::from(width) <= u32::from(u16::MAX))
            .ok_or_else(|| too_many("ports", 0))?;
        let radix = usize::from(width) + usize::from(tps);
        crate::builder::network::check_alloc::<Slot>(
            &format!("the port table of an anynet network of {n} routers"),
            n as u128 * radix as u128,
        )?;
        let mut slots = vec![Slot::EMPTY; n as usize * usize::from(width)];
        let mut deg = vec![0u16; n as usize];
        let mut latency = vec![0u16; n as usize * radix];
        {
            let mut b = stored::StoredGraphBuilder::new(
                Family::Arbitrary,
                n,
                width,
                tps,
                &mut slots,
                &mut deg,
            )?;
            for u in 0..n {
                for (pu, (v, l)) in net.neighbours(u).enumerate() {
                    latency[u as usize * radix + pu] = l;
                    if u < v {
                        let pv = net.neighbours(v).position(|(w, _)| w == u);
                        let pv =
                            pv.ok_or_else(|| anyhow!("internal: link {u}-{v} one way only"))?;
                        b.add_link_at(u, pu as u16, v, pv as u16, LinkClass::Local)?;
                    }
                }
            }
        }
        let mut port_terminal = vec![NO_TERMINAL; n as usize * usize::from(tps)];
        let mut terminal_port = vec![(0u32, 0u16); net.nodes.len()];
        for (r, nodes) in nodes_of.iter().enumerate() {
            for (i, &node) in nodes.iter().enumerate() {
                let port = width + i as u16;
                port_terminal[r * usize::from(tps) + i] = node;
                terminal_port[node as usize] = (r as u32, port);
            }
        }
        Ok(AnyNetStorage {
            n,
            width,
            tps,
            slots,
            port_terminal,
            terminal_port,
            injection_port: Vec::new(),
            latency,
            one_way: false,
        })
    }

    /// The network as a core stored graph borrowing these tables.
    pub fn graph(&self) -> Result<StoredGraph<'_>> {
        StoredGraph::from_slots(Family::Arbitrary, self.n, self.width, self.tps, &self.slots)?
            .with_attachments(Attachments {
                port_terminal: &self.port_terminal,
                terminal_port: &self.terminal_port,
                injection_port: &self.injection_port,
                latency: &self.latency,
                one_way: self.one_way,
            })
            .context("anynet network tables")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jumpnet_core::topology::{Port, Topology};

    #[test]
    fn uneven_terminals_and_per_direction_latencies() {
        let text = "router 0 node 0 node 2 router 1 15\nrouter 1 node 1 router 2\nrouter 2\n";
        let net = crate::io::anynet::parse(text.as_bytes(), "t").unwrap();
        let s = AnyNetStorage::new(&net).unwrap();
        let g = s.graph().unwrap();
        assert_eq!((g.num_switches(), g.num_terminals(), g.radix()), (3, 3, 4));
        // Router 1: ports 0 → router 0, 1 → router 2, terminal port 2 → node 1, 3 empty.
        assert_eq!(g.port(1, 0).link().map(|l| l.peer), Some(0));
        assert_eq!(g.port(1, 2), Port::Terminal(1));
        assert_eq!(g.port(1, 3), Port::Unconnected);
        assert_eq!(g.port(2, 2), Port::Unconnected);
        assert_eq!(g.terminal_port(2), Some((0, 3)));
        assert_eq!(g.port_latency(0, 0), Some(15));
        assert_eq!(g.port_latency(1, 0), Some(1));
        // Terminal channels: the configuration's terminal latency.
        assert_eq!(g.port_latency(0, 2), None);
    }
}
