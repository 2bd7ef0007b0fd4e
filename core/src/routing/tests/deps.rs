//! Channel dependencies collected from walked routes, and an acyclicity check by Kahn's
//! algorithm — independent of routing::deadlock::cdg and routing::deadlock::cycle.

extern crate std;
use std::collections::{HashMap, HashSet};
use std::vec::Vec;

use crate::routing::deadlock::cdg::{Cdg, Deadlock};
use crate::routing::deadlock::channel::ChannelVc;
use crate::routing::deadlock::cycle::Frame;
use crate::routing::paths::walk::Step;
use crate::routing::{PacketState, Routing};
use crate::topology::Topology;

/// A channel on a VC: (switch, output port, VC).
pub type Chan = (u32, u16, u8);

/// Dependency pairs (channel used, next channel used).
pub type Deps = HashSet<(Chan, Chan)>;

fn chan(s: &Step) -> Chan {
    (s.from, s.port, s.vc)
}

/// Adds the dependencies of one walked route.
pub fn add_steps(deps: &mut Deps, steps: &[Step]) {
    for w in steps.windows(2) {
        deps.insert((chan(&w[0]), chan(&w[1])));
    }
}

/// Follows a route from an explicit initial state (`walk` only knows `inject`), collecting
/// its steps; panics on routing errors or after 1000 hops.
pub fn steps_from<T: Topology, R: Routing>(
    topo: &T,
    r: &R,
    mut st: PacketState,
    dst: u32,
) -> Vec<Step> {
    use crate::routing::Hop;
    let mut at = st.src_switch;
    let mut out = Vec::new();
    for _ in 0..1000 {
        match r.next_hop(at, &mut st, dst).unwrap() {
            Hop::Eject { port } => {
                assert_eq!(topo.port(at, port), crate::topology::Port::Terminal(dst));
                return out;
            }
            Hop::Forward { port, vc } => {
                let l = topo.port(at, port).link().unwrap();
                out.push(Step {
                    from: at,
                    port,
                    vc,
                    to: l.peer,
                    to_port: l.peer_port,
                    class: l.class,
                });
                at = l.peer;
            }
        }
    }
    panic!("route to {dst} not delivered within 1000 hops");
}

/// Whether the dependency pairs contain a cycle (Kahn's algorithm).
pub fn has_cycle(deps: &Deps) -> bool {
    let mut indeg: HashMap<Chan, usize> = HashMap::new();
    let mut succ: HashMap<Chan, Vec<Chan>> = HashMap::new();
    for &(a, b) in deps {
        indeg.entry(a).or_insert(0);
        *indeg.entry(b).or_insert(0) += 1;
        succ.entry(a).or_default().push(b);
    }
    let mut ready: Vec<Chan> = indeg
        .iter()
        .filter(|(_, &d)| d == 0)
        .map(|(&k, _)| k)
        .collect();
    let mut removed = 0;
    while let Some(v) = ready.pop() {
        removed += 1;
        for s in succ.get(&v).map(|v| v.as_slice()).unwrap_or(&[]) {
            let e = indeg.get_mut(s).unwrap();
            *e -= 1;
            if *e == 0 {
                ready.push(*s);
            }
        }
    }
    removed != indeg.len()
}

/// Runs the crate's CDG cycle search over the dependencies (with `vcs` VCs); returns the
/// cycle found, if any.
pub fn cdg_cycle<T: Topology>(topo: &T, vcs: u8, deps: &Deps) -> Option<Vec<Chan>> {
    let mut bits = std::vec![0u64; Cdg::words_needed(topo, vcs) as usize];
    let mut cdg = Cdg::new(topo, vcs, &mut bits).unwrap();
    let cv = |c: Chan| ChannelVc {
        switch: c.0,
        port: c.1,
        vc: c.2,
    };
    for &(a, b) in deps {
        cdg.add_dependency(cv(a), cv(b)).unwrap();
    }
    let v = Cdg::vertices_needed(topo, vcs) as usize;
    let mut marks = std::vec![0u32; v];
    let mut stack = std::vec![Frame::default(); v];
    let mut out = std::vec![ChannelVc::default(); v];
    match cdg.find_cycle(&mut marks, &mut stack, &mut out).unwrap() {
        Deadlock::Free => None,
        Deadlock::Cycle(len) => Some(
            out[..len]
                .iter()
                .map(|c| (c.switch, c.port, c.vc))
                .collect(),
        ),
    }
}
