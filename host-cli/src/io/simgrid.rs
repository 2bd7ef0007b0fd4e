//! SimGrid platforms of a collective run (docs/smpi.md §2): the network, its routes and
//! the ranks' hosts written as a SimGrid platform (XML, version 4.1) and an SMPI hostfile,
//! so `smpirun` runs an MPI program on the same network as `jumpnet sim --collective`.
//!
//! # The mapping
//!
//! * Every rank's terminal is a host `t<terminal>`; the hostfile's line `r` names rank `r`'s
//!   host.
//! * Every directed channel is a link of its own (full duplex: the two directions never
//!   share bandwidth), all with the run's link bandwidth: `up<t>` from terminal `t` to its
//!   switch, `down<t>` back, `s<switch>p<port>` out of a switch's port.
//! * A switch's latency sits on the links leaving it (`s…p…` and `down…`; `up…` has none),
//!   so a route over `H` router-to-router hops crosses `H + 1` switches and has latency
//!   `(H + 1) · switch_ns`.
//! * Routes are given explicitly between every ordered pair of the ranks' hosts (zone
//!   routing `Full`), hop by hop as jumpnet's routing takes them (ties broken with coin 0),
//!   so both simulators use the same paths.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use anyhow::{anyhow, bail, Result};
use jumpnet_core::routing::paths::walk::walk;
use jumpnet_core::routing::{default_hop_limit, Routing};
use jumpnet_core::topology::Network;

/// Physical parameters of the exported links.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkParams {
    /// Bandwidth of every link, Gb/s.
    pub gbps: f64,
    /// Latency of one switch, ns.
    pub switch_ns: f64,
}

/// A SimGrid platform and SMPI hostfile (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Platform {
    /// The platform XML.
    pub xml: String,
    /// The hostfile: one host per line, rank order.
    pub hostfile: String,
    /// Routes written (ordered pairs of distinct hosts).
    pub routes: u64,
}

/// The switch-to-switch channels of the route from terminal `src` to terminal `dst`, as
/// `(switch, output port)` (core's `paths::walk`).
fn route(net: &Network<'_>, routing: &dyn Routing, src: u32, dst: u32) -> Result<Vec<(u32, u16)>> {
    let mut hops = Vec::new();
    walk(net, routing, src, dst, default_hop_limit(net), |s| {
        hops.push((s.from, s.port))
    })
    .map_err(|e| anyhow!("route {src}→{dst}: {e}"))?;
    Ok(hops)
}

/// The platform of `terminals` (rank `r` on `terminals[r]`) on `net` routed by `routing`.
pub fn platform(
    net: &Network<'_>,
    routing: &dyn Routing,
    terminals: &[u32],
    params: LinkParams,
) -> Result<Platform> {
    if !(params.gbps.is_finite() && params.gbps > 0.0) {
        bail!("link bandwidth {} Gb/s: must be positive", params.gbps);
    }
    if !(params.switch_ns.is_finite() && params.switch_ns >= 0.0) {
        bail!(
            "switch latency {} ns: must be zero or positive",
            params.switch_ns
        );
    }
    let mut routes = String::new();
    let mut channels = BTreeSet::new();
    let mut count = 0u64;
    for &a in terminals {
        for &b in terminals {
            if a == b {
                continue;
            }
            let hops = route(net, routing, a, b)?;
            write!(
                routes,
                "<route src=\"t{a}\" dst=\"t{b}\" symmetrical=\"NO\"><link_ctn id=\"up{a}\"/>"
            )?;
            for &(s, p) in &hops {
                write!(routes, "<link_ctn id=\"s{s}p{p}\"/>")?;
                channels.insert((s, p));
            }
            writeln!(routes, "<link_ctn id=\"down{b}\"/></route>")?;
            count += 1;
        }
    }
    let bw = format!("{}Gbps", params.gbps);
    let lat = format!("{}ns", params.switch_ns);
    let mut xml = String::new();
    writeln!(xml, "<?xml version='1.0'?>")?;
    writeln!(
        xml,
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
    )?;
    writeln!(xml, "<!-- written by jumpnet (docs/smpi.md §2) -->")?;
    writeln!(xml, "<platform version=\"4.1\">")?;
    writeln!(xml, "<zone id=\"jumpnet\" routing=\"Full\">")?;
    let mut hostfile = String::new();
    for &t in terminals {
        writeln!(xml, "<host id=\"t{t}\" speed=\"1Gf\"/>")?;
        writeln!(
            xml,
            "<link id=\"up{t}\" bandwidth=\"{bw}\" latency=\"0ns\"/>"
        )?;
        writeln!(
            xml,
            "<link id=\"down{t}\" bandwidth=\"{bw}\" latency=\"{lat}\"/>"
        )?;
        writeln!(hostfile, "t{t}")?;
    }
    for (s, p) in channels {
        writeln!(
            xml,
            "<link id=\"s{s}p{p}\" bandwidth=\"{bw}\" latency=\"{lat}\"/>"
        )?;
    }
    xml.push_str(&routes);
    writeln!(xml, "</zone>")?;
    writeln!(xml, "</platform>")?;
    Ok(Platform {
        xml,
        hostfile,
        routes: count,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use jumpnet_core::routing::{TorusDor, TorusVcs};
    use jumpnet_core::topology::Torus;

    /// A 4-ring with DOR: terminal 0 → 2 goes + over two channels, 3 → 0 one channel +
    /// (shortest way, wrap-around), and every link, host and route is written once.
    #[test]
    fn ring_routes_follow_dimension_order() {
        let ring = Torus::torus(&[4], 1).unwrap();
        let dor = TorusDor::new(&ring, TorusVcs::Dateline).unwrap();
        let net = Network::Torus(ring.clone());
        let p = platform(
            &net,
            &dor,
            &[0, 2, 3],
            LinkParams {
                gbps: 100.0,
                switch_ns: 100.0,
            },
        )
        .unwrap();
        assert_eq!(p.routes, 6);
        assert_eq!(p.hostfile, "t0\nt2\nt3\n");
        let r02 = p
            .xml
            .lines()
            .find(|l| l.starts_with("<route src=\"t0\" dst=\"t2\""))
            .unwrap();
        // Two router-to-router hops: up, two switch channels, down.
        assert_eq!(r02.matches("<link_ctn").count(), 4);
        let r30 = p
            .xml
            .lines()
            .find(|l| l.starts_with("<route src=\"t3\" dst=\"t0\""))
            .unwrap();
        assert_eq!(r30.matches("<link_ctn").count(), 3);
        assert_eq!(p.xml.matches("<host ").count(), 3);
        assert!(p
            .xml
            .contains("<link id=\"down2\" bandwidth=\"100Gbps\" latency=\"100ns\"/>"));
        assert!(p
            .xml
            .contains("<link id=\"up2\" bandwidth=\"100Gbps\" latency=\"0ns\"/>"));
    }
}
