//! Compiling any destination-based [`Routing`] into route tables (and per-path virtual
//! layers), the InfiniBand way: one forwarding table per switch (LFT), plus per
//! (source switch, destination) layers beside it (SL/VL per path).
//!
//! The port a switch chooses must depend only on the switch and the destination (and, for
//! layered routings, the output VC only on the path's layer); routings whose port depends on
//! the packet's history (Valiant phases, torus datelines) cannot be expressed as such tables.
//! The result should be checked with [`crate::routing::paths::walk`] against the original routing.
//! [`switch_table`] compiles the table of one switch only (what a device needs for itself).

use crate::error::InvalidParam;
use crate::topology::{Port, PortIndex, SwitchId, Topology};

use crate::routing::error::RoutingError;
use crate::routing::tables::run_table::{RouteEntry, RunTableBuilder};
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::{terminal_location, Hop, PacketState, Routing};

/// Where the VC of a compiled route lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VcMode {
    /// The VC is part of the forwarding entry (a function of switch and destination).
    InTable,
    /// The VC is the path's virtual layer, stored per (source switch, destination) in layer
    /// tables; forwarding entries hold VC 0.
    PerPath,
}

/// The forwarding entry of switch `s` toward terminal `d`: the first hop of a packet
/// injected at `s` (fresh [`PacketState`]); unreachable destinations give
/// [`RouteEntry::NONE`].
fn compiled_entry<R: Routing + ?Sized>(
    routing: &R,
    s: SwitchId,
    d: u32,
    mode: VcMode,
) -> Result<RouteEntry, RoutingError> {
    let mut st = PacketState::new(s);
    match routing.next_hop(s, &mut st, d) {
        Ok(Hop::Forward { port, vc }) => Ok(RouteEntry {
            port,
            vc: if mode == VcMode::InTable { vc } else { 0 },
        }),
        Ok(Hop::Eject { port }) => Ok(RouteEntry { port, vc: 0 }),
        Err(RoutingError::Unreachable { .. }) | Err(RoutingError::NoRoute { .. }) => {
            Ok(RouteEntry::NONE)
        }
        Err(e) => Err(e),
    }
}

/// Compiles the forwarding table of switch `s` for all destinations into `out`.
fn compile_switch<T: Topology, R: Routing + ?Sized>(
    topo: &T,
    routing: &R,
    s: SwitchId,
    mode: VcMode,
    out: &mut TableSetBuilder<'_, RouteEntry>,
) -> Result<(), RoutingError> {
    for d in 0..topo.num_terminals() {
        out.push(compiled_entry(routing, s, d, mode)?)?;
    }
    Ok(())
}

/// Compiles the forwarding table of the single switch `s` (one entry per terminal, in
/// order) into `out`: the same entries [`compile_tables`] gives for `s`, with O(1) extra
/// storage, so a device can compile its own table from an arithmetic routing.
///
/// # Examples
///
/// Switch 0 of an 8 × 8 torus compiles its dimension-order table into a caller array of
/// runs (consecutive destinations with the same entry share one run). One run per terminal
/// always suffices; DOR needs 3 per row of the torus here: the row's `x = 0` destination
/// (the `y` port, or eject for the own row), `x = 1..=4` on `+x` (port 0, ties go `+`) and
/// `x = 5..=7` on `−x` (port 1).
///
/// ```
/// use jumpnet_core::routing::tables::compile::{switch_table, VcMode};
/// use jumpnet_core::routing::{Hop, Routing, RouteEntry, Run, RunTableBuilder, TorusDor, TorusVcs};
/// use jumpnet_core::topology::Torus;
///
/// let torus = Torus::torus(&[8, 8], 1)?;
/// let dor = TorusDor::new(&torus, TorusVcs::Single)?;
/// let mut runs = [Run { first: 0, value: RouteEntry::NONE }; 64];
/// let mut builder = RunTableBuilder::new(&mut runs);
/// switch_table(&torus, &dor, 0, VcMode::InTable, &mut builder)?;
/// let table = builder.finish();
/// assert_eq!((table.len(), table.runs().len()), (64, 24));
///
/// // The table answers as the routing does: to (6, 3) = terminal 30, first −x.
/// assert_eq!(table.lookup(30), Some(RouteEntry { port: 1, vc: 0 }));
/// let mut state = dor.inject(0, 30)?;
/// assert_eq!(dor.next_hop(0, &mut state, 30)?, Hop::Forward { port: 1, vc: 0 });
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn switch_table<T: Topology, R: Routing + ?Sized>(
    topo: &T,
    routing: &R,
    s: SwitchId,
    mode: VcMode,
    out: &mut RunTableBuilder<'_, RouteEntry>,
) -> Result<(), RoutingError> {
    let n = topo.num_switches();
    if s >= n {
        return Err(RoutingError::SwitchOutOfRange {
            switch: s,
            switches: n,
        });
    }
    for d in 0..topo.num_terminals() {
        out.push(compiled_entry(routing, s, d, mode)?)?;
    }
    Ok(())
}

/// First terminal attached to switch `s`, if any.
fn first_terminal<T: Topology>(topo: &T, s: SwitchId) -> Option<u32> {
    (0..topo.radix()).find_map(|p: PortIndex| match topo.port(s, p) {
        Port::Terminal(t) => Some(t),
        _ => None,
    })
}

/// Compiles `routing` into forwarding tables of every switch (`routes`) and, in
/// [`VcMode::PerPath`], into per-(source switch, destination) layer tables (`layers`,
/// required in that mode): the layer of a path is the one [`Routing::inject`] assigns to a
/// packet from the first terminal of the source switch (switches without terminals get
/// layer 0). Missing routes become [`RouteEntry::NONE`].
pub fn compile_tables<T: Topology, R: Routing + ?Sized>(
    topo: &T,
    routing: &R,
    mode: VcMode,
    routes: &mut TableSetBuilder<'_, RouteEntry>,
    mut layers: Option<&mut TableSetBuilder<'_, u8>>,
) -> Result<(), RoutingError> {
    if mode == VcMode::PerPath && layers.is_none() {
        return Err(RoutingError::Invalid(InvalidParam {
            param: "layers",
            value: 0,
            rule: "per-path VC mode needs layer tables",
        }));
    }
    for s in 0..topo.num_switches() {
        compile_switch(topo, routing, s, mode, routes)?;
        if let Some(lb) = layers.as_deref_mut() {
            let src = first_terminal(topo, s);
            for d in 0..topo.num_terminals() {
                terminal_location(topo, d)?;
                let layer = match src {
                    Some(src) if src != d => routing.inject(src, d)?.layer,
                    _ => 0,
                };
                lb.push(layer)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
    use crate::routing::tables::run_table::Run;
    use crate::routing::{TorusDor, TorusVcs};
    use crate::topology::{Dragonfly, GlobalArrangement, Torus};
    use std::vec;
    use std::vec::Vec;

    /// First hop of every destination from `s`, straight from `next_hop`.
    fn first_hops<T: Topology, R: Routing>(topo: &T, r: &R, s: SwitchId) -> Vec<RouteEntry> {
        (0..topo.num_terminals())
            .map(
                |d| match r.next_hop(s, &mut PacketState::new(s), d).unwrap() {
                    Hop::Forward { port, vc } => RouteEntry { port, vc },
                    Hop::Eject { port } => RouteEntry { port, vc: 0 },
                },
            )
            .collect()
    }

    #[test]
    fn switch_table_is_the_first_hop_and_matches_compile_tables() {
        // Dragonfly minimal with dateline VCs: a first hop on a global port takes VC 1.
        let df = Dragonfly::new(5, 2, 2, 2, GlobalArrangement::Consecutive).unwrap();
        let routing = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
        let (n, dests) = (df.num_switches(), df.num_terminals());
        let mut all = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            (n * dests) as usize
        ];
        let mut offsets = vec![0u32; n as usize + 1];
        let mut b = TableSetBuilder::new(n, dests, &mut all, &mut offsets).unwrap();
        compile_tables(&df, &routing, VcMode::InTable, &mut b, None).unwrap();
        let set = b.finish().unwrap();
        let mut saw_vc1 = false;
        for s in 0..n {
            let expected = first_hops(&df, &routing, s);
            for mode in [VcMode::InTable, VcMode::PerPath] {
                let mut runs = vec![
                    Run {
                        first: 0,
                        value: RouteEntry::NONE
                    };
                    dests as usize
                ];
                let mut one = RunTableBuilder::new(&mut runs);
                switch_table(&df, &routing, s, mode, &mut one).unwrap();
                let t = one.finish();
                assert_eq!(t.len(), dests);
                for (d, e) in expected.iter().enumerate() {
                    let want = match mode {
                        VcMode::InTable => *e,
                        VcMode::PerPath => RouteEntry { vc: 0, ..*e },
                    };
                    assert_eq!(t.lookup(d as u32), Some(want), "switch {s} dst {d}");
                    saw_vc1 |= e.vc == 1;
                }
                if mode == VcMode::InTable {
                    assert_eq!(t, set.table(s).unwrap(), "switch {s}");
                }
            }
        }
        assert!(saw_vc1, "a first hop on a global port takes VC 1");
    }

    #[test]
    fn switch_table_reports_bad_switch_and_full_buffer() {
        let torus = Torus::torus(&[4, 4], 1).unwrap();
        let dor = TorusDor::new(&torus, TorusVcs::Single).unwrap();
        let mut runs = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 2];
        let mut b = RunTableBuilder::new(&mut runs);
        assert_eq!(
            switch_table(&torus, &dor, 16, VcMode::InTable, &mut b),
            Err(RoutingError::SwitchOutOfRange {
                switch: 16,
                switches: 16
            })
        );
        assert!(matches!(
            switch_table(&torus, &dor, 0, VcMode::InTable, &mut b),
            Err(RoutingError::Capacity(..))
        ));
    }
}
