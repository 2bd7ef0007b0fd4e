//! Bridges from a [`Dragonfly`] topology to the inputs of the Dragonfly collectives
//! (spec/collectives.md §6: the job as `(group, router)` per rank and the connectivity
//! oracle `link(G1, G2) -> (R1, R2)`), so LLF/GLF/FOREST can be built for ranks placed on
//! real terminals and then analysed on the same network.

use crate::collective::dragonfly::{GroupLinks, Placement};
use crate::topology::{Dragonfly, TerminalId, Topology};

use super::error::{need, AnalysisError};

/// The [`GroupLinks`] oracle of a Dragonfly topology: the routers (offsets within their
/// groups) at the ends of the global link between two groups, from
/// [`Dragonfly::global_link`] (the lowest-indexed link when a pair has several).
#[derive(Clone, Copy, Debug)]
pub struct DragonflyLinks<'a>(pub &'a Dragonfly);

impl GroupLinks for DragonflyLinks<'_> {
    /// For `g1 == g2` or a group out of range (which the collectives never ask) the answer
    /// is `(0, 0)`.
    fn link(&self, g1: u32, g2: u32) -> (u32, u32) {
        let a = self.0.a();
        match self.0.global_link(g1, g2) {
            Some((r1, _, r2, _)) => (r1 % a, r2 % a),
            None => (0, 0),
        }
    }
}

/// Writes the `(group, router offset)` of every rank's terminal (`placement[rank]`) into
/// `out` (at least `placement.len()` entries).
pub fn dragonfly_placement(
    topo: &Dragonfly,
    placement: &[TerminalId],
    out: &mut [Placement],
) -> Result<(), AnalysisError> {
    need("Dragonfly placements", placement.len() as u64, out.len())?;
    for (slot, &t) in out.iter_mut().zip(placement) {
        let switch = topo
            .terminal_switch(t)
            .ok_or(AnalysisError::TerminalOutOfRange {
                terminal: t,
                terminals: topo.num_terminals(),
            })?;
        *slot = Placement {
            group: switch / topo.a(),
            router: switch % topo.a(),
        };
    }
    Ok(())
}
