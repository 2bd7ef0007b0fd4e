//! A k-ary n-fly (BookSim2's `fly` with `n >= 2`, `networks/fly.cpp`; `anynet fly=K
//! levels=N`, docs/booksim.md §3.7) as an anynet network whose terminals inject at the first
//! stage and eject at the last (docs/topologies.md §11).
//!
//! `n` stages of `k^(n-1)` routers, router `stage·k^(n-1) + addr` (BookSim2's order). Node
//! `c` injects at terminal port `c mod k` of stage-0 router `c / k` and ejects at terminal
//! port `c mod k` of stage-`(n-1)` router `c / k`. Output `p` of router `(s, a)` feeds input
//! `q` of router `(s + 1, b)`, where `b` is `a` with its digit of weight `k^(n-s-2)`
//! replaced by `p` and `q` is that digit of `a` (BookSim2's `_InChannel` swaps the two
//! digits). Network port `q` (`0..k`) of a router is its input from the stage before,
//! port `k + p` its output to the stage after, so each router's inputs and outputs keep
//! BookSim2's order; every channel is 1 cycle. A link's reverse direction exists but no
//! route takes it: the one shortest path between a first- and a last-stage router is
//! BookSim2's destination-tag route (`dest_tag_fly`, `routefunc.cpp`). The tables say so
//! (`one_way`: `Topology::port_use`), so the simulator's allocators see BookSim2's `k`
//! inputs and `k` outputs of each router, not its `3k` ports (docs/booksim.md §3.7).

use anyhow::{anyhow, bail, Result};
use jumpnet_core::topology::attached::NO_TERMINAL;
use jumpnet_core::topology::{stored, Family, LinkClass, Slot};

use crate::builder::anynet::AnyNetStorage;

/// Most nodes of a generated butterfly.
pub const MAX_NODES: u64 = 1 << 20;

/// Checks `k` and `n` and returns the routers per stage, `k^(n-1)`.
pub fn check(k: u32, n: u32) -> Result<u32> {
    if k < 2 || n < 2 {
        bail!("fly with k = {k}, n = {n}: a butterfly needs k >= 2 and n >= 2 stages");
    }
    u64::from(k)
        .checked_pow(n)
        .filter(|&nodes| nodes <= MAX_NODES && 3 * u64::from(k) <= u64::from(u16::MAX))
        .map(|nodes| (nodes / u64::from(k)) as u32)
        .ok_or_else(|| anyhow!("fly with k = {k}, n = {n}: k^n nodes must be at most {MAX_NODES}"))
}

/// The stage-`(s + 1)` router and input port that output `p` of stage-`s` router `a` feeds.
pub fn next(k: u32, n: u32, s: u32, a: u32, p: u32) -> (u32, u32) {
    let shift = k.pow(n - s - 2);
    let digit = (a / shift) % k;
    (a - digit * shift + p * shift, digit)
}

/// The butterfly's tables.
pub fn storage(k: u32, n: u32) -> Result<AnyNetStorage> {
    let per_stage = check(k, n)?;
    let routers = n * per_stage;
    let (width, tps) = (2 * k as u16, k as u16);
    let radix = usize::from(width + tps);
    let mut slots = vec![Slot::EMPTY; routers as usize * usize::from(width)];
    let mut deg = vec![0u16; routers as usize];
    let mut latency = vec![0u16; routers as usize * radix];
    {
        let mut b = stored::StoredGraphBuilder::new(
            Family::Arbitrary,
            routers,
            width,
            tps,
            &mut slots,
            &mut deg,
        )?;
        for s in 0..n - 1 {
            for a in 0..per_stage {
                for p in 0..k {
                    let (u, v) = (s * per_stage + a, (s + 1) * per_stage);
                    let (b_addr, q) = next(k, n, s, a, p);
                    let (pu, pv) = ((k + p) as u16, q as u16);
                    b.add_link_at(u, pu, v + b_addr, pv, LinkClass::Local)?;
                    latency[u as usize * radix + usize::from(pu)] = 1;
                    latency[(v + b_addr) as usize * radix + usize::from(pv)] = 1;
                }
            }
        }
    }
    let nodes = (per_stage * k) as usize;
    let mut port_terminal = vec![NO_TERMINAL; routers as usize * usize::from(tps)];
    let mut terminal_port = Vec::with_capacity(nodes);
    let mut injection_port = Vec::with_capacity(nodes);
    let last = (n - 1) * per_stage;
    for c in 0..nodes as u32 {
        let (a, i) = (c / k, (c % k) as u16);
        port_terminal[(a * k) as usize + usize::from(i)] = c;
        port_terminal[((last + a) * k) as usize + usize::from(i)] = c;
        injection_port.push((a, width + i));
        terminal_port.push((last + a, width + i));
    }
    Ok(AnyNetStorage {
        n: routers,
        width,
        tps,
        slots,
        port_terminal,
        terminal_port,
        injection_port,
        latency,
        one_way: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::min_latency::MinLatency;
    use jumpnet_core::routing::{Hop, Routing};
    use jumpnet_core::topology::{Network, Port, Topology};

    const SHAPES: [(u32, u32); 5] = [(2, 2), (2, 3), (4, 2), (2, 4), (3, 3)];

    #[test]
    fn every_output_reaches_booksims_input() {
        for (k, n) in SHAPES {
            let st = storage(k, n).unwrap();
            let g = st.graph().unwrap();
            let ps = k.pow(n - 1);
            assert_eq!((g.num_switches(), g.num_terminals()), (n * ps, k * ps));
            // BookSim2's `_InChannel`, read from the input side: input `q` of router
            // `(s, b)` is fed by output `digit` of `(s - 1, b with that digit set to q)`.
            for s in 1..n {
                let shift = k.pow(n - s - 1);
                for b in 0..ps {
                    for q in 0..k {
                        let digit = (b / shift) % k;
                        let a = b - digit * shift + q * shift;
                        let link = g.port(s * ps + b, q as u16).link().unwrap();
                        assert_eq!(
                            (link.peer, link.peer_port),
                            ((s - 1) * ps + a, (k + digit) as u16),
                            "k={k} n={n} stage {s} router {b} input {q}"
                        );
                    }
                }
            }
            // First-stage inputs and last-stage outputs are the nodes, in node order.
            for c in 0..k * ps {
                let p = (2 * k + c % k) as u16;
                assert_eq!(g.injection_port(c), Some((c / k, p)));
                assert_eq!(g.terminal_port(c), Some(((n - 1) * ps + c / k, p)));
                assert_eq!(g.port(c / k, p), Port::Terminal(c));
                assert_eq!(g.port((n - 1) * ps + c / k, p), Port::Terminal(c));
            }
        }
    }

    #[test]
    fn routes_are_destination_tags_through_n_routers() {
        for (k, n) in SHAPES {
            let st = storage(k, n).unwrap();
            let net = Network::Stored(st.graph().unwrap());
            let r = MinLatency::new(&net).unwrap();
            let nodes = k.pow(n);
            for src in 0..nodes {
                for dst in 0..nodes {
                    let mut state = r.inject(src, dst).unwrap();
                    let mut at = state.src_switch;
                    assert_eq!(at, src / k);
                    let mut routers = 1;
                    loop {
                        let stage = at / k.pow(n - 1);
                        // BookSim2's dest_tag_fly: digit n-1-stage of the destination.
                        let tag = (dst / k.pow(n - 1 - stage)) % k;
                        match r.next_hop(at, &mut state, dst).unwrap() {
                            Hop::Forward { port, .. } => {
                                assert_eq!(u32::from(port), k + tag, "{src}->{dst} at {at}");
                                at = net.port(at, port).link().unwrap().peer;
                                routers += 1;
                            }
                            Hop::Eject { port } => {
                                assert_eq!(u32::from(port), 2 * k + tag);
                                assert_eq!(net.port(at, port), Port::Terminal(dst));
                                break;
                            }
                        }
                    }
                    assert_eq!(routers, n, "k={k} n={n} {src}->{dst}");
                }
            }
        }
    }

    #[test]
    fn each_router_has_booksims_k_inputs_and_k_outputs() {
        use jumpnet_core::topology::PortUse;
        for (k, n) in SHAPES {
            let st = storage(k, n).unwrap();
            let g = st.graph().unwrap();
            let ps = k.pow(n - 1);
            for r in 0..n * ps {
                let stage = r / ps;
                let (mut ins, mut outs) = (Vec::new(), Vec::new());
                for p in 0..g.radix() {
                    let u = g.port_use(r, p);
                    if u.is_input() {
                        ins.push(u32::from(p));
                    }
                    if u.is_output() {
                        outs.push(u32::from(p));
                    }
                    assert_ne!(u, PortUse::Both, "k={k} n={n} router {r} port {p}");
                }
                // BookSim2's input q: the injection of node `addr·k + q` at the first stage,
                // else network port q; output p: network port k + p, at the last stage the
                // ejection of node `addr·k + p`.
                let first_in = if stage == 0 { 2 * k } else { 0 };
                let first_out = if stage == n - 1 { 2 * k } else { k };
                assert_eq!(
                    ins,
                    (first_in..first_in + k).collect::<Vec<_>>(),
                    "{k} {n} {r}"
                );
                assert_eq!(
                    outs,
                    (first_out..first_out + k).collect::<Vec<_>>(),
                    "{k} {n} {r}"
                );
            }
        }
    }

    #[test]
    fn refusals() {
        assert!(check(1, 3).is_err());
        assert!(check(2, 1).is_err());
        assert!(check(2, 21).unwrap_err().to_string().contains("at most"));
        assert_eq!(check(4, 3).unwrap(), 16);
        // The command line's name for it reads back, and bad shapes name what is allowed.
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let spec = crate::builder::topology::TopologySpec::parse(&words("anynet fly=2 levels=3"));
        assert_eq!(spec.unwrap().to_string(), "anynet fly=2 levels=3");
        let e = crate::builder::topology::TopologySpec::parse(&words("anynet fly=2 levels=1"));
        assert!(e.unwrap_err().to_string().contains("N >= 2"));
    }
}
