//! Following routes hop by hop, and checking a routing over all (source, destination)
//! terminal pairs: delivery, no loops (hop limit), VC range, eject port, and path length
//! against BFS distance (minimality, docs/routing.md §1).

use crate::topology::{LinkClass, Port, PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::error::RoutingError;
use crate::routing::minimal::distance::{DistanceMatrix, UNREACHABLE};
use crate::routing::{terminal_location, Hop, Routing, Vc};

/// One router hop of a route: channel `(from, port)` on VC `vc`, arriving at `to` on
/// `to_port`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Switch left.
    pub from: SwitchId,
    /// Output port of `from`.
    pub port: PortIndex,
    /// Virtual channel used.
    pub vc: Vc,
    /// Switch reached.
    pub to: SwitchId,
    /// Input port of `to`.
    pub to_port: PortIndex,
    /// Class of the link.
    pub class: LinkClass,
}

/// Follows the route from terminal `src` to terminal `dst`, calling `on_step` for every
/// router hop, and returns the number of router hops. Fails if a hop is not a link, uses a
/// VC outside `0..num_vcs`, ejects on a wrong port, or the packet is not delivered within
/// `hop_limit` hops.
pub fn walk<T, R, F>(
    topo: &T,
    routing: &R,
    src: TerminalId,
    dst: TerminalId,
    hop_limit: u32,
    mut on_step: F,
) -> Result<u32, RoutingError>
where
    T: Topology,
    R: Routing + ?Sized,
    F: FnMut(&Step),
{
    let (mut at, _) = terminal_location(topo, src)?;
    terminal_location(topo, dst)?;
    let mut state = routing.inject(src, dst)?;
    let num_vcs = routing.num_vcs();
    let mut hops = 0u32;
    loop {
        match routing.next_hop(at, &mut state, dst)? {
            Hop::Eject { port } => {
                return match topo.port(at, port) {
                    Port::Terminal(t) if t == dst => Ok(hops),
                    _ => Err(RoutingError::WrongEject {
                        switch: at,
                        port,
                        terminal: dst,
                    }),
                };
            }
            Hop::Forward { port, vc } => {
                let link = topo
                    .port(at, port)
                    .link()
                    .ok_or(RoutingError::NotALink { switch: at, port })?;
                if vc >= num_vcs {
                    return Err(RoutingError::VcOutOfRange {
                        switch: at,
                        port,
                        vc,
                        num_vcs,
                    });
                }
                if hops >= hop_limit {
                    return Err(RoutingError::HopLimit {
                        src,
                        dst,
                        limit: hop_limit,
                    });
                }
                hops += 1;
                on_step(&Step {
                    from: at,
                    port,
                    vc,
                    to: link.peer,
                    to_port: link.peer_port,
                    class: link.class,
                });
                at = link.peer;
            }
        }
    }
}

/// Result of [`check_all`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CheckReport {
    /// Ordered pairs of distinct terminals checked.
    pub pairs: u64,
    /// Sum of router hops over all pairs.
    pub total_hops: u64,
    /// Longest route in router hops.
    pub max_hops: u32,
    /// Pairs whose route is longer than the BFS distance (0 when no distances were given).
    pub non_minimal: u64,
}

/// Walks every ordered pair of distinct terminals and checks delivery within `hop_limit`,
/// link ports, VC range and eject port; with `distances`, also counts routes longer than the
/// shortest path (and fails on the first one if `require_minimal`).
pub fn check_all<T, R>(
    topo: &T,
    routing: &R,
    distances: Option<&DistanceMatrix<'_>>,
    require_minimal: bool,
    hop_limit: u32,
) -> Result<CheckReport, RoutingError>
where
    T: Topology,
    R: Routing + ?Sized,
{
    let mut rep = CheckReport::default();
    let nt = topo.num_terminals();
    for src in 0..nt {
        let (s, _) = terminal_location(topo, src)?;
        for dst in 0..nt {
            if src == dst {
                continue;
            }
            let hops = walk(topo, routing, src, dst, hop_limit, |_| {})?;
            rep.pairs += 1;
            rep.total_hops += hops as u64;
            rep.max_hops = rep.max_hops.max(hops);
            if let Some(dm) = distances {
                let (t, _) = terminal_location(topo, dst)?;
                let d = dm.get(s, t);
                if d != UNREACHABLE && hops > d as u32 {
                    rep.non_minimal += 1;
                    if require_minimal {
                        return Err(RoutingError::NonMinimal {
                            src,
                            dst,
                            hops,
                            distance: d as u32,
                        });
                    }
                }
            }
        }
    }
    Ok(rep)
}
