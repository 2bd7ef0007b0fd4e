//! Minimal routing on an arbitrary graph with deterministic ties (docs/routing.md §1).
//!
//! Reference: at switch `u` heading to destination switch `t`, take the lowest-index port
//! whose peer `v` has `dist(v, t) = dist(u, t) − 1`. Two ways to get there:
//!
//! * [`switch_table`] computes the table of one switch with O(n) scratch by running a BFS
//!   from each neighbour in port order (`dist(v, t)` for every `t`), keeping for each `t` the
//!   first port whose neighbour is closest — what a switch microcontroller can do for itself
//!   (O(degree · (n + m)) time).
//! * [`MinimalRouting`] answers hops from an all-pairs [`DistanceMatrix`] (host side), and
//!   [`all_tables`] builds every switch's table from it in O(n · (n · degree + T)).

pub mod distance;

use crate::error::{CapacityError, InvalidParam};
use crate::topology::{Port, PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::endpoint::inject_state;
use crate::routing::error::RoutingError;
use crate::routing::minimal::distance::{bfs_into, DistanceMatrix, UNREACHABLE};
use crate::routing::tables::run_table::{RouteEntry, RunTableBuilder};
use crate::routing::tables::table_set::TableSetBuilder;
use crate::routing::{terminal_location, Hop, PacketState, Routing};

/// Minimal BFS routing from an all-pairs distance matrix (docs/routing.md §1), one VC.
#[derive(Clone, Copy, Debug)]
pub struct MinimalRouting<'a, T> {
    topo: &'a T,
    dist: DistanceMatrix<'a>,
}

impl<'a, T: Topology> MinimalRouting<'a, T> {
    /// Routing over `topo` with its distance matrix (which must belong to `topo`).
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::routing::{DistanceMatrix, MinimalRouting};
    /// use jumpnet_core::topology::Circulant;
    ///
    /// // Ring of 6: port 0 leads to +1, port 1 to −1.
    /// let ring = Circulant::ring(6)?;
    /// let (mut d, mut queue) = ([0u16; 36], [0u32; 6]);
    /// let dist = DistanceMatrix::compute(&ring, &mut d, &mut queue)?;
    /// assert_eq!((dist.get(0, 3), dist.get(0, 5)), (3, 1));
    /// let min = MinimalRouting::new(&ring, dist)?;
    /// // Both ways to switch 3 take 3 hops: the tie goes to the lowest port.
    /// assert_eq!(min.port_toward(0, 3)?, 0);
    /// assert_eq!(min.port_toward(0, 4)?, 1);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(topo: &'a T, dist: DistanceMatrix<'a>) -> Result<Self, RoutingError> {
        if dist.switches() != topo.num_switches() {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "distance matrix switches",
                value: dist.switches() as u64,
                rule: "the distance matrix must have one row per switch of the topology",
            }));
        }
        Ok(MinimalRouting { topo, dist })
    }

    /// The distance matrix.
    pub fn distances(&self) -> DistanceMatrix<'a> {
        self.dist
    }

    /// Lowest port of `at` on a shortest path to switch `t` (docs/routing.md §1).
    pub fn port_toward(&self, at: SwitchId, t: SwitchId) -> Result<PortIndex, RoutingError> {
        let n = self.topo.num_switches();
        if at >= n {
            return Err(RoutingError::SwitchOutOfRange {
                switch: at,
                switches: n,
            });
        }
        // The graph is undirected, so dist(v, t) = dist(t, v); reading the rows of `at`
        // and its neighbours keeps consecutive destinations in consecutive memory.
        let du = self.dist.get(at, t);
        if du == UNREACHABLE {
            return Err(RoutingError::Unreachable { from: at, to: t });
        }
        for p in 0..self.topo.radix() {
            if let Port::Link(l) = self.topo.port(at, p) {
                if self.dist.get(l.peer, t).wrapping_add(1) == du {
                    return Ok(p);
                }
            }
        }
        Err(RoutingError::Unreachable { from: at, to: t })
    }
}

impl<T: Topology> Routing for MinimalRouting<'_, T> {
    fn num_vcs(&self) -> u8 {
        1
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_state(self.topo, src, dst)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        let (t, tport) = terminal_location(self.topo, dst)?;
        if at == t {
            return Ok(Hop::Eject { port: tport });
        }
        let port = self.port_toward(at, t)?;
        state.vc = 0;
        Ok(Hop::Forward { port, vc: 0 })
    }
}

/// Entries each buffer of [`SwitchTableBuffers`] needs: `n` (the number of switches) each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchTableSizes {
    /// Entries of `dist`, `queue`, `best_dist` and `best_port`.
    pub per_buffer: usize,
}

impl SwitchTableSizes {
    /// Buffer sizes [`switch_table`] needs for `topo`.
    pub fn of<T: Topology + ?Sized>(topo: &T) -> Self {
        SwitchTableSizes {
            per_buffer: topo.num_switches() as usize,
        }
    }
}

/// Scratch of [`switch_table`]: four arrays of `n` entries (O(n) words in total; sizes from
/// [`SwitchTableSizes::of`]).
#[derive(Debug)]
pub struct SwitchTableBuffers<'s> {
    /// BFS distances from the current neighbour (`n`).
    pub dist: &'s mut [u16],
    /// BFS queue (`n`).
    pub queue: &'s mut [u32],
    /// Best distance found so far per destination switch (`n`).
    pub best_dist: &'s mut [u16],
    /// Port achieving it (`n`).
    pub best_port: &'s mut [PortIndex],
}

/// Computes the minimal-routing table of switch `s` (docs/routing.md §1) into `out`, one
/// entry per terminal `0..T` in order: the terminal port at `s` for its own terminals, the
/// lowest port on a shortest path otherwise, [`RouteEntry::NONE`] when unreachable.
///
/// Runs one BFS per network port (from the neighbour), so it needs only the scratch arrays
/// of [`SwitchTableBuffers`]; identical to the table [`all_tables`] builds for `s`.
pub fn switch_table<T: Topology>(
    topo: &T,
    s: SwitchId,
    scratch: SwitchTableBuffers<'_>,
    out: &mut RunTableBuilder<'_, RouteEntry>,
) -> Result<(), RoutingError> {
    let n = topo.num_switches();
    if s >= n {
        return Err(RoutingError::SwitchOutOfRange {
            switch: s,
            switches: n,
        });
    }
    let nn = n as usize;
    CapacityError::check("best distances", n as u64, scratch.best_dist.len())?;
    CapacityError::check("best ports", n as u64, scratch.best_port.len())?;
    let best_dist = &mut scratch.best_dist[..nn];
    let best_port = &mut scratch.best_port[..nn];
    best_dist.fill(UNREACHABLE);
    best_port.fill(RouteEntry::NO_PORT);
    for p in 0..topo.radix() {
        if let Port::Link(l) = topo.port(s, p) {
            bfs_into(topo, l.peer, scratch.dist, scratch.queue)?;
            keep_closer(best_dist, best_port, scratch.dist, p);
        }
    }
    push_entries(topo, s, best_port, |e| out.push(e))
}

/// Port `p` leads to a neighbour at distances `row` (per destination switch): where it is
/// strictly closer than the best so far, it becomes the best (so ties keep the lowest port
/// when ports are offered in order).
fn keep_closer(best_dist: &mut [u16], best_port: &mut [PortIndex], row: &[u16], p: PortIndex) {
    for ((bd, bp), &d) in best_dist.iter_mut().zip(best_port.iter_mut()).zip(row) {
        if d < *bd {
            *bd = d;
            *bp = p;
        }
    }
}

/// Pushes switch `s`'s entry of every terminal in order: the terminal port at `s`, the best
/// port toward any other switch, [`RouteEntry::NONE`] where none reaches it.
fn push_entries<T: Topology>(
    topo: &T,
    s: SwitchId,
    best_port: &[PortIndex],
    mut push: impl FnMut(RouteEntry) -> Result<(), RoutingError>,
) -> Result<(), RoutingError> {
    for d in 0..topo.num_terminals() {
        let (t, tport) = terminal_location(topo, d)?;
        let entry = if t == s {
            RouteEntry { port: tport, vc: 0 }
        } else {
            match best_port.get(t as usize) {
                Some(&p) if p != RouteEntry::NO_PORT => RouteEntry { port: p, vc: 0 },
                _ => RouteEntry::NONE,
            }
        };
        push(entry)?;
    }
    Ok(())
}

/// Builds the minimal-routing tables of every switch (in order) from a distance matrix;
/// each equals [`switch_table`] of that switch. Unreachable destinations get
/// [`RouteEntry::NONE`]. `best_dist` and `best_port` are scratch of `n` entries.
///
/// Per switch, the rows of its neighbours are scanned in port order, keeping for every
/// destination switch the first port whose neighbour is closest (rows are contiguous, so
/// this streams through memory; the graph is undirected, so row `v` holds `dist(v, ·)`).
pub fn all_tables<T: Topology>(
    routing: &MinimalRouting<'_, T>,
    best_dist: &mut [u16],
    best_port: &mut [PortIndex],
    out: &mut TableSetBuilder<'_, RouteEntry>,
) -> Result<(), RoutingError> {
    let topo = routing.topo;
    let n = topo.num_switches();
    let nn = n as usize;
    CapacityError::check("best distances", n as u64, best_dist.len())?;
    CapacityError::check("best ports", n as u64, best_port.len())?;
    let best_dist = &mut best_dist[..nn];
    let best_port = &mut best_port[..nn];
    for s in 0..n {
        best_dist.fill(UNREACHABLE);
        best_port.fill(RouteEntry::NO_PORT);
        for p in 0..topo.radix() {
            if let Port::Link(l) = topo.port(s, p) {
                keep_closer(best_dist, best_port, routing.dist.row(l.peer), p);
            }
        }
        push_entries(topo, s, best_port, |e| out.push(e))?;
    }
    Ok(())
}
