//! Shared helpers for jumpnet's cross-crate integration tests: owned storage for the core's
//! caller-buffer APIs, the symbolic checker with `Vec` buffers, and an independent
//! reference implementation of Dragonfly minimal routing (docs/routing.md §4).

use jumpnet::analysis::schedule::CheckStore;
use jumpnet_core::collective::{Blocks, Message, Schedule};
use jumpnet_core::exec::{check, CheckOptions, CheckReport};
use jumpnet_core::rng::Rng;
use jumpnet_core::routing::{DistanceMatrix, Hop, PacketState, Routing, RoutingError};
use jumpnet_core::topology::{
    random_shortcut, Dragonfly, Family, PortIndex, Slot, StoredGraph, SwitchId, TerminalId,
    Topology,
};

/// All-pairs switch distances of `t` (`n²` entries, row-major), by BFS.
pub fn distances<T: Topology>(t: &T) -> Vec<u16> {
    let n = t.num_switches() as usize;
    let mut buf = vec![0u16; n * n];
    let mut queue = vec![0u32; n];
    DistanceMatrix::compute(t, &mut buf, &mut queue).expect("distance matrix");
    buf
}

/// A ring-based random shortcut graph (docs/topologies.md §3) with owned port storage.
#[derive(Debug)]
pub struct Shortcut {
    /// Switches.
    pub n: u32,
    /// Target degree.
    pub d: u16,
    slots: Vec<Slot>,
}

impl Shortcut {
    /// Builds the graph of `n` switches and degree `d` from PRNG seed `seed`.
    pub fn build(n: u32, d: u16, seed: u64) -> Self {
        let need = random_shortcut::RandomShortcutSizes::of(n, d);
        let mut slots = vec![Slot::EMPTY; need.slots];
        let mut degree = vec![0u16; need.degree];
        let mut rng = Rng::new(seed);
        random_shortcut::build(n, d, &mut rng, &mut slots, &mut degree).expect("random shortcut");
        Shortcut { n, d, slots }
    }

    /// The graph (one terminal per switch, terminal id = switch id).
    pub fn graph(&self) -> StoredGraph<'_> {
        StoredGraph::from_slots(Family::RandomShortcut, self.n, self.d, 1, &self.slots)
            .expect("port table")
    }
}

/// Runs the symbolic checker (`exec::check`, strict: no redundant deliveries) on `s` with
/// freshly allocated buffers.
pub fn check_schedule<S: Schedule>(s: &S) -> CheckReport {
    let mut store = CheckStore::for_schedule(s);
    check(s, store.buffers(), CheckOptions::default())
        .unwrap_or_else(|e| panic!("schedule fails the symbolic check: {e}"))
}

/// A message list of `len` blank entries for the list-building collectives.
pub fn blank_messages(len: usize) -> Vec<Message> {
    vec![
        Message {
            step: 0,
            src: 0,
            dst: 0,
            blocks: Blocks::All,
            bytes: 0,
        };
        len
    ]
}

/// Dragonfly minimal routing written from docs/routing.md §4 (Kim et al.; BookSim
/// `dragonfly_port`) independently of the core's `routing::dragonfly::minimal`, as a
/// cross-check: same router → eject; same group → one
/// local hop; otherwise local hop to the router owning the global link toward the
/// destination group, the global hop, and a local hop to the destination router. Port
/// formulas of the consecutive arrangement with `g = a·h + 1`; VC 0 before the global hop,
/// VC 1 from the global channel on.
#[derive(Clone, Copy, Debug)]
pub struct ReferenceDragonflyMinimal<'a> {
    /// The network (consecutive arrangement, `g = a·h + 1`).
    pub df: &'a Dragonfly,
}

impl ReferenceDragonflyMinimal<'_> {
    fn locate(&self, t: TerminalId) -> Result<(SwitchId, PortIndex), RoutingError> {
        self.df
            .terminal_port(t)
            .ok_or(RoutingError::TerminalOutOfRange {
                terminal: t,
                terminals: self.df.num_terminals(),
            })
    }

    /// Local port of router offset `r` toward offset `j` (BookSim: `p + j − 1` if `j > r`,
    /// else `p + j`).
    fn local_port(&self, r: u32, j: u32) -> PortIndex {
        let p = self.df.p();
        (if j > r { p + j - 1 } else { p + j }) as PortIndex
    }
}

impl Routing for ReferenceDragonflyMinimal<'_> {
    fn num_vcs(&self) -> u8 {
        2
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        let (s, _) = self.locate(src)?;
        self.locate(dst)?;
        Ok(PacketState::new(s))
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let (t, tport) = self.locate(dst)?;
        if at == t {
            return Ok(Hop::Eject { port: tport });
        }
        let (a, h, p) = (self.df.a(), self.df.h(), self.df.p());
        let (g, r) = (at / a, at % a);
        let (gd, rd) = (t / a, t % a);
        if g == gd {
            return Ok(Hop::Forward {
                port: self.local_port(r, rd),
                vc: state.vc,
            });
        }
        let grp_output = if g > gd { gd } else { gd - 1 };
        let owner = grp_output / h;
        if owner != r {
            return Ok(Hop::Forward {
                port: self.local_port(r, owner),
                vc: state.vc,
            });
        }
        state.vc = 1;
        Ok(Hop::Forward {
            port: (p + a - 1 + grp_output % h) as PortIndex,
            vc: 1,
        })
    }
}
