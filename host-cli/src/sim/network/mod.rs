//! Channels of the simulated network: the port map of every switch with the
//! latency and link class of the channel leaving each port, and the event wheel that carries
//! flits and credits across channels with their latency.

pub mod class_latency;
pub mod layout_latency;
pub mod terminal;
mod wheel;

pub use wheel::Wheel;

use jumpnet_core::topology::{LinkClass, Port, PortUse, Topology};

use crate::sim::config::SimConfig;

/// What a switch port connects to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortKind {
    /// No cable.
    Unconnected,
    /// Terminal (injection / ejection channels).
    Terminal(u32),
    /// Network link to `peer`'s port `peer_port`.
    Link {
        /// Switch at the other end.
        peer: u32,
        /// Port of `peer` leading back.
        peer_port: u16,
    },
}

/// The port map: `ports[s·radix + p]`, with the latency and the link-class index of the
/// channel leaving each port.
#[derive(Debug)]
pub struct Fabric {
    /// Switches.
    pub switches: u32,
    /// Terminals.
    pub terminals: u32,
    /// Ports per switch.
    pub radix: usize,
    /// Port kinds.
    pub ports: Vec<PortKind>,
    /// Latency (cycles) of the channel leaving each port; at a terminal's port also of the
    /// terminal's injection channel, which enters it.
    pub latency: Vec<u16>,
    /// Index into [`Fabric::class_names`] of each port's channel.
    pub class: Vec<u8>,
    /// Link class names (`terminal` first).
    pub class_names: Vec<String>,
    /// `(switch, port)` where each terminal injects ([`Topology::injection_port`]: where
    /// it ejects, except at a butterfly's first stage; docs/topologies.md §11).
    pub terminal_port: Vec<(u32, u16)>,
    /// Which of each port's channels carry flits ([`Topology::port_use`]), `s·radix + p`;
    /// empty when every port is used both ways (every network but a butterfly).
    pub port_use: Vec<PortUse>,
}

fn class_name(c: LinkClass) -> String {
    match c {
        LinkClass::Terminal => "terminal".into(),
        LinkClass::Local => "local".into(),
        LinkClass::Global => "global".into(),
        LinkClass::Dim(i) => format!("dim{i}"),
        LinkClass::Up => "up".into(),
        LinkClass::Down => "down".into(),
        LinkClass::Shortcut => "shortcut".into(),
    }
}

/// The latency of the channels of a switch's `j`-th terminal: on a chip layout as long as
/// the terminal's distance from its switch (docs/booksim.md §3.2), else `terminal_latency`.
fn terminal_channel(cfg: &SimConfig, j: u32) -> u16 {
    cfg.switch_layout
        .map_or(cfg.terminal_latency, |layout| layout.node_latency(j))
}

impl Fabric {
    /// Reads the port map of `net` with channel latencies from `cfg`.
    pub fn new<T: Topology + ?Sized>(net: &T, cfg: &SimConfig) -> Result<Self, String> {
        let switches = net.num_switches();
        let terminals = net.num_terminals();
        let radix = usize::from(net.radix());
        let n = switches as usize * radix;
        let mut ports = vec![PortKind::Unconnected; n];
        let mut latency = vec![cfg.link_latency; n];
        let mut class = vec![0u8; n];
        let mut class_names = vec!["terminal".to_string()];
        // The class-latency keys of the links present.
        let mut used: Vec<&str> = Vec::new();
        for s in 0..switches {
            // The switch's terminals so far (a terminal's place in its switch's cell).
            let mut local = 0u32;
            for p in 0..radix {
                let i = s as usize * radix + p;
                match net.port(s, p as u16) {
                    Port::Unconnected => {}
                    Port::Terminal(t) => {
                        ports[i] = PortKind::Terminal(t);
                        latency[i] = terminal_channel(cfg, local);
                        local += 1;
                    }
                    Port::Link(l) => {
                        ports[i] = PortKind::Link {
                            peer: l.peer,
                            peer_port: l.peer_port,
                        };
                        if let Some((key, set)) = cfg.class_latency.of(l.class) {
                            if let Some(v) = set {
                                latency[i] = v;
                            }
                            if !used.contains(&key) {
                                used.push(key);
                            }
                        }
                        let name = class_name(l.class);
                        let idx = match class_names.iter().position(|c| *c == name) {
                            Some(k) => k,
                            None => {
                                class_names.push(name);
                                class_names.len() - 1
                            }
                        };
                        class[i] = idx as u8;
                        // Switches laid out on a chip: the channel's length (docs/booksim.md
                        // §3.2).
                        if let Some(layout) = &cfg.switch_layout {
                            latency[i] = layout.latency(s, l.peer).ok_or_else(|| {
                                format!(
                                    "switches {s} and {} share a cell of the layout {layout:?} \
                                     (or are more than 65535 cycles apart)",
                                    l.peer
                                )
                            })?;
                        }
                        // A latency of this channel's own (BookSim2's anynet) wins over its
                        // class's (docs/topologies.md §11).
                        if let Some(v) = net.port_latency(s, p as u16) {
                            latency[i] = v;
                        }
                    }
                }
            }
        }
        if let Some((key, v)) = cfg
            .class_latency
            .set_keys()
            .find(|(k, _)| !used.contains(k))
        {
            return Err(format!(
                "{key} = {v}, but the network has no such links; its links take {}",
                if used.is_empty() {
                    "no class latency".to_string()
                } else {
                    used.join(", ")
                }
            ));
        }
        let mut port_use = Vec::new();
        for s in 0..switches {
            for p in 0..radix {
                let u = net.port_use(s, p as u16);
                if u != PortUse::Both && port_use.is_empty() {
                    port_use = vec![PortUse::Both; n];
                }
                if let Some(slot) = port_use.get_mut(s as usize * radix + p) {
                    *slot = u;
                }
            }
        }
        let mut terminal_port = Vec::with_capacity(terminals as usize);
        for t in 0..terminals {
            let (s, p) = net
                .injection_port(t)
                .ok_or_else(|| format!("terminal {t} has no switch port"))?;
            terminal_port.push((s, p));
        }
        Ok(Fabric {
            switches,
            terminals,
            radix,
            ports,
            latency,
            class,
            class_names,
            terminal_port,
            port_use,
        })
    }

    /// Whether port `p` of switch `s` is an output of its switch ([`Fabric::port_use`]):
    /// every port but a butterfly's unused and input ports.
    #[inline]
    pub fn is_output(&self, s: usize, p: u16) -> bool {
        self.port_use
            .get(s * self.radix + usize::from(p))
            .is_none_or(|u| u.is_output())
    }

    /// Largest channel latency.
    pub fn max_latency(&self) -> u16 {
        self.latency.iter().copied().max().unwrap_or(1)
    }
}

/// A flit: packet id, sequence number in the packet, tail flag, injection lag (8 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, bytemuck::Zeroable)]
pub struct Flit {
    /// Packet pool index.
    pub pkt: u32,
    /// Position in the packet (0 = head).
    pub seq: u16,
    /// Last flit of the packet.
    pub tail: bool,
    /// Cycles the flit entered the network after its head's injection cycle + `seq`
    /// (`sim::engine::flit_time`; 255: kept aside).
    pub lag: u8,
}

/// One slot of an input-VC buffer: a flit and the cycle it becomes eligible.
#[derive(Clone, Copy, Debug, Default, bytemuck::Zeroable)]
pub struct Slot {
    /// First cycle the flit may take part in allocation.
    pub ready: u64,
    /// The flit.
    pub flit: Flit,
}

/// Something a channel delivers at a later cycle.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// Flit enters input VC `iv` (global index `(s·radix + p)·vcs + v`).
    Arrive {
        /// Input VC.
        iv: u32,
        /// The flit.
        flit: Flit,
    },
    /// Flit reaches terminal `term` through its ejection channel.
    Eject {
        /// Terminal.
        term: u32,
        /// The flit.
        flit: Flit,
    },
    /// Credit for output VC `ov` (same indexing as input VCs).
    Credit {
        /// Output VC.
        ov: u32,
    },
    /// Credit for terminal `term`'s injection VC `vc`.
    TermCredit {
        /// Terminal.
        term: u32,
        /// VC.
        vc: u8,
    },
}
