//! From ranks on the terminals of a [`Dragonfly`] to the job description of the Dragonfly
//! collectives (docs/collectives.md §6: `(group, router)` per rank), so LLF/GLF/FOREST can
//! be built for ranks placed on real terminals (with the topology itself as the
//! [`crate::collective::dragonfly::GroupLinks`] oracle) and then analysed on the same
//! network.

use crate::collective::dragonfly::Placement;
use crate::error::CapacityError;
use crate::topology::{Dragonfly, TerminalId, Topology};

use super::error::AnalysisError;

/// Writes the `(group, router offset)` of every rank's terminal (`placement[rank]`) into
/// `out` (at least `placement.len()` entries).
pub fn dragonfly_placement(
    topo: &Dragonfly,
    placement: &[TerminalId],
    out: &mut [Placement],
) -> Result<(), AnalysisError> {
    CapacityError::check("Dragonfly placements", placement.len() as u64, out.len())?;
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
