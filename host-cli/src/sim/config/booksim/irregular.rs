//! BookSim2's `anynet`, `fly`, `cmesh` and `qtree` networks in jumpnet's terms (docs/booksim.md
//! §3.1): the topology, and the traffic patterns whose node numbering agrees.
//!
//! * `anynet`: the `network_file` as jumpnet's `anynet` family (its terminals, channel
//!   latencies per direction, and `min` = BookSim2's routing table, jumpnet's
//!   `min-latency`).
//! * `fly` with `n = 1`: one router with `k` nodes (`anynet crossbar=k`); `dest_tag` ejects
//!   at once. With `n > 1`: the k-ary n-fly `anynet fly=k levels=n`
//!   ([`crate::builder::fly`]), whose nodes inject at the first stage and eject at the last;
//!   `dest_tag` is its one shortest path (`min-latency`).
//! * `cmesh` (`k`, `n = 2`, `c = 4`, `xr = yr = 2`, `x = y`, as BookSim2 asserts): jumpnet's
//!   `mesh k=k,k t=4`; channels `c / n = 2` cycles (`use_noc_latency = 1`) or 1;
//!   `dor_no_express` is `dor` (the express channels at the edges carry nothing then).
//!   BookSim2 numbers the nodes on a `2k × 2k` grid, jumpnet router by router; the two
//!   numberings put the same traffic on the routers for `uniform` and `bitcomp` (the
//!   complement of a node is on the complement router in both), so other patterns are
//!   refused.
//! * `qtree` (`k = 4`, `n = 3`, as BookSim2 asserts): `anynet tree=4 levels=3`, the same
//!   21 routers and 64 nodes; `nca` is `min-latency` (a tree has one path).
//! * `fattree` (mapped in [`super::network`]) and `qtree`: the node numbering is BookSim2's,
//!   but `tornado` and `neighbor` take BookSim2's digits of the `k^n` node ids, which
//!   jumpnet's patterns take from a network's dimensions: refused.

use anyhow::{bail, Result};
use jumpnet_core::topology::spec::NetworkSpec;

use crate::builder::topology::{AnyNetSource, TopologySpec};

/// BookSim2's layout keys (`x`, `y`: routers per row and column; `xr`, `yr`: nodes per
/// router in each direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `x`.
    pub x: u32,
    /// `y`.
    pub y: u32,
    /// `xr`.
    pub xr: u32,
    /// `yr`.
    pub yr: u32,
}

impl Default for Layout {
    /// BookSim2's defaults: `x = y = 8`, `xr = yr = 1`.
    fn default() -> Self {
        Layout {
            x: 8,
            y: 8,
            xr: 1,
            yr: 1,
        }
    }
}

/// `topology = anynet; network_file = FILE`.
pub fn anynet(network_file: &str) -> Result<TopologySpec> {
    if network_file.is_empty() || network_file == "\"\"" {
        bail!("topology = anynet needs network_file = FILE (BookSim2's anynet format)");
    }
    let file = network_file.trim_matches('"');
    Ok(TopologySpec::AnyNet(AnyNetSource::File(file.into())))
}

/// `topology = fly; k; n`: one router (`n = 1`) or a k-ary n-fly.
pub fn fly(k: u32, n: u32) -> Result<TopologySpec> {
    if k == 0 || n == 0 {
        bail!("fly with k = {k}, n = {n}: need k >= 1 nodes per router and n >= 1 stages");
    }
    if n == 1 {
        return Ok(TopologySpec::AnyNet(AnyNetSource::Crossbar(k)));
    }
    crate::builder::fly::check(k, n)?;
    Ok(TopologySpec::AnyNet(AnyNetSource::Fly { k, n }))
}

/// `topology = qtree; k = 4; n = 3` (BookSim2 asserts this one shape): the quad-tree of
/// 21 routers as `anynet tree=4 levels=3`.
pub fn qtree(k: u32, n: u32) -> Result<TopologySpec> {
    if k != 4 || n != 3 {
        bail!("qtree with k = {k}, n = {n}: BookSim2's qtree works only with k = 4, n = 3 (it asserts so)");
    }
    Ok(TopologySpec::AnyNet(AnyNetSource::Tree { k, levels: n }))
}

/// `topology = cmesh; k; n; c; x; y; xr; yr` with BookSim2's own restrictions.
pub fn cmesh(k: u32, n: u32, c: u32, l: Layout) -> Result<TopologySpec> {
    if n != 2 || c != 4 || l.xr != 2 || l.yr != 2 || l.x != l.y {
        bail!(
            "cmesh with n = {n}, c = {c}, xr = {}, yr = {}, x = {}, y = {}: BookSim2's cmesh \
             works only with n = 2, c = 4, xr = yr = 2 and x = y (it asserts so)",
            l.xr,
            l.yr,
            l.x,
            l.y
        );
    }
    if k < 2 {
        bail!("cmesh with k = {k}: need k >= 2");
    }
    Ok(TopologySpec::Structured(NetworkSpec::mesh(&[k, k], 4)?))
}

/// Refuses a traffic pattern whose destinations on `topology` would not be BookSim2's.
pub fn check_traffic(topology: &str, traffic: &str) -> Result<()> {
    let name = traffic.split('(').next().unwrap_or(traffic);
    if matches!(topology, "fattree" | "qtree") && (name == "tornado" || name == "neighbor") {
        bail!(
            "traffic = {traffic} on {topology} is not supported: BookSim2 takes its digits from \
             the k^n node ids, jumpnet from a network's dimensions, which a tree has not"
        );
    }
    let allowed: &[&str] = match topology {
        "cmesh" => &["uniform", "bitcomp"],
        "anynet" | "fly" => &[
            "uniform",
            "bitcomp",
            "bitrev",
            "shuffle",
            "transpose",
            "randperm",
        ],
        _ => return Ok(()),
    };
    if !allowed.contains(&traffic) {
        let why = if topology == "cmesh" {
            "BookSim2 numbers cmesh nodes on a 2k × 2k grid and jumpnet router by router; the \
             traffic agrees for"
        } else {
            "BookSim2 draws tornado and neighbor from k, n and xr, which do not describe this \
             network's nodes; supported are"
        };
        bail!(
            "traffic = {traffic} on {topology} is not supported: {why} {}",
            allowed.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_refusals() {
        assert_eq!(fly(10, 1).unwrap().to_string(), "anynet crossbar=10");
        assert_eq!(fly(4, 2).unwrap().to_string(), "anynet fly=4 levels=2");
        assert!(fly(1, 3).unwrap_err().to_string().contains("k >= 2"));
        assert!(fly(4, 0).unwrap_err().to_string().contains("n >= 1"));
        let l = Layout {
            x: 4,
            y: 4,
            xr: 2,
            yr: 2,
        };
        assert_eq!(cmesh(4, 2, 4, l).unwrap().to_string(), "mesh k=4,4 t=4");
        let e = cmesh(4, 2, 2, l).unwrap_err().to_string();
        assert!(e.contains("c = 4"), "{e}");
        assert!(anynet("").is_err());
        assert_eq!(
            anynet("net.txt").unwrap().to_string(),
            "anynet file=net.txt"
        );
        assert!(check_traffic("cmesh", "bitcomp").is_ok());
        assert!(check_traffic("cmesh", "transpose").is_err());
        assert!(check_traffic("anynet", "tornado").is_err());
        assert!(check_traffic("torus", "tornado").is_ok());
        assert!(check_traffic("fattree", "tornado").is_err());
        assert!(check_traffic("fattree", "neighbor").is_err());
        assert!(check_traffic("fattree", "transpose").is_ok());
        assert!(check_traffic("fattree", "hotspot({{0,9}})").is_ok());
        assert!(check_traffic("qtree", "tornado").is_err());
        assert_eq!(qtree(4, 3).unwrap().to_string(), "anynet tree=4 levels=3");
        assert!(qtree(4, 2)
            .unwrap_err()
            .to_string()
            .contains("k = 4, n = 3"));
    }
}
