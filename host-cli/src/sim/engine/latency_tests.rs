//! Channel latency per link class (`sim::network::class_latency`): single packets take exactly the
//! zero-load time summed link by link along the route the core routing takes, with each
//! link's latency looked up by its class in the topology; a latency for a class the network
//! lacks is refused by name.

use jumpnet_core::routing::{Hop, Routing};
use jumpnet_core::topology::{LinkClass, Network, Topology};

use crate::builder::routing::RouteAlgo;
use crate::sim::tests::with_net;
use crate::sim::*;

/// Router-to-router hops of `src → dst` with the sum of their link latencies, walked with the
/// core routing; `lat` gives a link class's latency.
fn route_latency(
    net: &Network<'_>,
    r: &dyn Routing,
    src: u32,
    dst: u32,
    lat: impl Fn(LinkClass) -> u64,
) -> (u64, u64) {
    let mut st = r.inject(src, dst).unwrap();
    let mut at = net.terminal_switch(src).unwrap();
    let (mut hops, mut sum) = (0, 0);
    loop {
        match r.next_hop(at, &mut st, dst).unwrap() {
            Hop::Forward { port, .. } => {
                let link = net.port(at, port).link().unwrap();
                sum += lat(link.class);
                at = link.peer;
                hops += 1;
            }
            Hop::Eject { .. } => return (hops, sum),
        }
    }
}

/// A topology, its routing and the class latencies set on it.
type Case = (&'static str, RouteAlgo, &'static [(&'static str, u64)]);

#[test]
fn zero_load_adds_each_links_class_latency() {
    let cases: [Case; 4] = [
        (
            "random-shortcut n=16 d=3",
            RouteAlgo::Dfsssp,
            &[("shortcut_latency", 3), ("local_latency", 2)],
        ),
        (
            "dragonfly g=5 a=2 p=2 h=2",
            RouteAlgo::DfMinimal,
            &[("global_latency", 5), ("local_latency", 2)],
        ),
        (
            "fat-tree k=2 n=3",
            RouteAlgo::Dmodk,
            &[("up_latency", 2), ("down_latency", 4)],
        ),
        ("torus k=4,4", RouteAlgo::DorDateline, &[("dim_latency", 3)]),
    ];
    for (words, algo, keys) in cases {
        with_net(words, algo, |net, r| {
            let mut cfg = SimConfig::booksim();
            cfg.packet_size = 4;
            cfg.num_vcs = cfg.num_vcs.max(r.num_vcs());
            for (k, v) in keys {
                cfg.set(k, &v.to_string()).unwrap();
            }
            let lat = |c: LinkClass| {
                let key = match c {
                    LinkClass::Local => "local_latency",
                    LinkClass::Global => "global_latency",
                    LinkClass::Shortcut => "shortcut_latency",
                    LinkClass::Dim(_) => "dim_latency",
                    LinkClass::Up => "up_latency",
                    LinkClass::Down => "down_latency",
                    LinkClass::Terminal => unreachable!("terminal channels are not links"),
                };
                keys.iter().find(|(k, _)| *k == key).map_or(1, |(_, v)| *v)
            };
            let n = net.num_terminals();
            let mut longer = false;
            let pairs = [(0, n - 1), (1, n / 2), (n / 3, 2), (n - 2, 0)];
            for (s, d) in pairs.into_iter().filter(|(s, d)| s != d) {
                let (h, links) = route_latency(net, r, s, d, lat);
                longer |= links > h;
                // Injection channel, H + 1 routers of 4 cycles, the links, ejection channel,
                // the body flits behind the head.
                let want = 1 + (h + 1) * 4 + links + 1 + 3;
                let res = run_trace(net, r, &cfg, &[(s, d, 3)]).unwrap();
                assert_eq!(res.packet_latency.max, want, "{words} {s}->{d} H={h}");
                assert_eq!(res.conservation_errors, 0);
            }
            // The pairs cross at least one link of a longer class.
            assert!(longer, "{words}");
        });
    }
}

#[test]
fn a_latency_for_a_class_the_network_lacks_is_refused() {
    with_net("torus k=4,4", RouteAlgo::DorDateline, |net, r| {
        let mut cfg = SimConfig::booksim();
        cfg.set("shortcut_latency", "3").unwrap();
        let e = run_trace(net, r, &cfg, &[(0, 1, 0)])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("shortcut_latency = 3") && e.contains("dim_latency"),
            "{e}"
        );
    });
}
