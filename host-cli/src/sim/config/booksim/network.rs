//! BookSim2's networks, routing functions and traffic names in jumpnet's terms
//! (docs/booksim.md §3): `topology` with `k`, `n`, `c` (and the keys `anynet`, `fly`,
//! `cmesh` read, [`irregular`]) as a [`TopologySpec`], the channel
//! latencies BookSim2's network classes set, `routing_function` as a [`RouteAlgo`].

use anyhow::{anyhow, bail, Result};
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::GlobalArrangement;

use super::irregular::{self, Layout};
use crate::builder::routing::RouteAlgo;
use crate::builder::topology::TopologySpec;

/// The network keys of a BookSim2 file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetKeys {
    /// `topology`.
    pub topology: String,
    /// `k`.
    pub k: u32,
    /// `n`.
    pub n: u32,
    /// `c`.
    pub c: u32,
    /// `x`, `y`, `xr`, `yr`.
    pub layout: Layout,
    /// `network_file` (anynet).
    pub network_file: String,
}

impl Default for NetKeys {
    /// BookSim2's defaults: an 8-ary 2-cube torus, one node per router.
    fn default() -> Self {
        NetKeys {
            topology: "torus".into(),
            k: 8,
            n: 2,
            c: 1,
            layout: Layout::default(),
            network_file: String::new(),
        }
    }
}

/// The BookSim2 keys a topology reads beyond `topology`, `k`, `n`, `c` (the others are
/// reported as without effect).
pub fn reads_key(topology: &str, key: &str) -> bool {
    match key {
        "network_file" => topology == "anynet",
        "x" | "y" | "xr" | "yr" => topology == "cmesh" || topology == "flatfly",
        _ => false,
    }
}

/// The jumpnet topology of BookSim2's network keys.
pub fn topology_spec(keys: &NetKeys) -> Result<TopologySpec> {
    let (topology, k, n, c) = (keys.topology.as_str(), keys.k, keys.n, keys.c);
    let dims = || -> Result<Vec<u32>> {
        if k < 2 || n == 0 || n > 8 {
            bail!("{topology} with k = {k}, n = {n}: need k >= 2 and 1 <= n <= 8");
        }
        Ok(vec![k; n as usize])
    };
    Ok(match topology {
        "torus" | "mesh" => {
            if c != 1 {
                bail!(
                    "{topology} with c = {c}: BookSim2's {topology} has one node per router (c = 1)"
                );
            }
            TopologySpec::Structured(if topology == "torus" {
                NetworkSpec::torus(&dims()?, 1)?
            } else {
                NetworkSpec::mesh(&dims()?, 1)?
            })
        }
        "flatfly" => TopologySpec::Structured(NetworkSpec::hyperx(
            &dims()?,
            1,
            u16::try_from(c)
                .ok()
                .filter(|&t| t >= 1)
                .ok_or_else(|| anyhow!("flatfly with c = {c}: need 1 <= c <= 65535"))?,
        )?),
        "dragonflynew" => {
            if n != 1 {
                bail!("{topology} with n = {n}: BookSim2's dragonflynew needs n = 1");
            }
            if k == 0 || k > 1000 {
                bail!("{topology} with k = {k}: need 1 <= k <= 1000 terminals per router");
            }
            let (p, a, h) = (k, 2 * k, k);
            TopologySpec::Structured(NetworkSpec::Dragonfly {
                g: a * h + 1,
                a,
                p,
                h,
                arrangement: GlobalArrangement::Consecutive,
            })
        }
        "fattree" => {
            // fattree.cpp: k^n nodes under n levels of k^(n-1) routers.
            if k < 2 || n == 0 {
                bail!("fattree with k = {k}, n = {n}: need k >= 2 and n >= 1");
            }
            TopologySpec::Structured(NetworkSpec::FatTree { k, n })
        }
        "anynet" => irregular::anynet(&keys.network_file)?,
        "fly" => irregular::fly(k, n)?,
        "qtree" => irregular::qtree(k, n)?,
        "cmesh" => irregular::cmesh(k, n, c, keys.layout)?,
        other => bail!(
            "BookSim2 topology '{other}' is not supported; allowed: torus, mesh, cmesh, flatfly, \
             dragonflynew, fattree, qtree, anynet, fly"
        ),
    })
}

/// The channel latencies BookSim2's network class of `topology` sets, as jumpnet simulator
/// keys: k-ary n-cubes (`kncube.cpp`) 2 cycles per torus link and 1 per mesh link with
/// `use_noc_latency = 1` (its default), else 1; `dragonflynew` (`dragonfly.cpp`) 10 cycles
/// on local and 100 on global channels; `fattree` (`fattree.cpp`) 1 cycle up and down
/// whatever `use_noc_latency` says; credits take the same time back (`flatfly`'s
/// on-chip lengths come from its layout instead, [`super::flatfly`]). Injection and
/// ejection channels take 1 cycle everywhere (the preset's `terminal_latency`).
pub fn channel_latencies(topology: &str, use_noc_latency: bool) -> Vec<(&'static str, u16)> {
    match topology {
        "torus" => vec![("dim_latency", if use_noc_latency { 2 } else { 1 })],
        "mesh" | "flatfly" => vec![("dim_latency", 1)],
        // cmesh.cpp: c / n = 2 cycles per channel with use_noc_latency (c = 4, n = 2).
        "cmesh" => vec![("dim_latency", if use_noc_latency { 2 } else { 1 })],
        "dragonflynew" => vec![("local_latency", 10), ("global_latency", 100)],
        "fattree" => vec![("up_latency", 1), ("down_latency", 1)],
        _ => Vec::new(),
    }
}

/// The routing functions jumpnet reads on `topology`, for error messages.
pub fn routing_names(topology: &str) -> &'static str {
    match topology {
        "torus" => "dim_order (or dim_order_torus, dor)",
        "mesh" => "dim_order (or dim_order_mesh, dor, dor_mesh)",
        "flatfly" => "dim_order / xyyx (dor), min / ran_min (minimal)",
        "cmesh" => "dor_no_express (dor)",
        "anynet" => "min (min-latency: BookSim2's anynet routing table)",
        "fly" => "dest_tag",
        "fattree" => "nca (nca: random up ports), anca (anca: the less occupied of two)",
        "qtree" => "nca (min-latency: a tree's only path)",
        _ => "min (df-minimal), valiant (df-valiant), ugal (df-ugal-booksim)",
    }
}

/// The jumpnet routing of BookSim2's `routing_function` on `topology` (BookSim2 appends the
/// topology name: `dim_order` on a torus is its `dim_order_torus`).
pub fn routing_algo(topology: &str, rf: &str) -> Result<RouteAlgo> {
    let algo = match (topology, rf) {
        ("torus", "dim_order" | "dim_order_torus" | "dor" | "dor_torus") => RouteAlgo::DorBookSim,
        ("mesh", "dim_order" | "dim_order_mesh" | "dor" | "dor_mesh") => RouteAlgo::Dor,
        ("flatfly", "dim_order" | "dor" | "xyyx" | "xyyx_flatfly") => RouteAlgo::Dor,
        ("flatfly", "min" | "ran_min" | "ran_min_flatfly") => RouteAlgo::Minimal,
        ("dragonflynew", "min" | "min_dragonflynew") => RouteAlgo::DfMinimal,
        ("cmesh", "dor_no_express" | "dor_no_express_cmesh") => RouteAlgo::Dor,
        ("anynet", "min" | "min_anynet") => RouteAlgo::MinLatency,
        // One router ejects where it injects; a butterfly's one shortest path from the first
        // stage to the last is BookSim2's destination-tag route.
        ("fly", "dest_tag" | "dest_tag_fly") => RouteAlgo::MinLatency,
        ("fattree", "nca" | "nca_fattree") => RouteAlgo::Nca,
        // A tree has one path between two routers: BookSim2's qtree_nca takes it.
        ("qtree", "nca" | "nca_qtree") => RouteAlgo::MinLatency,
        ("fattree", "anca" | "anca_fattree") => RouteAlgo::Anca,
        ("dragonflynew", "valiant") => RouteAlgo::DfValiant,
        ("dragonflynew", "ugal" | "ugal_dragonflynew") => RouteAlgo::DfUgalBookSim,
        _ => bail!(
            "routing_function = {rf} is not supported on {topology}; use {}",
            routing_names(topology)
        ),
    };
    Ok(algo)
}

/// BookSim2's traffic names jumpnet reads (`traffic.cpp`), each the same pattern as its
/// jumpnet `traffic=` word.
pub const TRAFFIC_ALLOWED: &str = "uniform, bitcomp, bitrev, shuffle, transpose, tornado, \
     neighbor, randperm, diagonal, asymmetric, taper64, hotspot({{nodes},{rates}}), bad_dragon";

/// The jumpnet `traffic=` word of BookSim2's traffic `name`, if jumpnet has it.
pub fn traffic_word(name: &str) -> Option<&'static str> {
    Some(match name {
        "uniform" => "uniform",
        "bitcomp" => "bitcomp",
        "bitrev" => "bitrev",
        "shuffle" => "shuffle",
        "transpose" => "transpose",
        "tornado" => "tornado",
        "neighbor" => "neighbor",
        "randperm" => "randperm",
        "diagonal" => "diagonal",
        "asymmetric" => "asymmetric",
        "taper64" => "taper64",
        _ => return None,
    })
}
