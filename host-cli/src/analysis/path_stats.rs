//! All-to-all path statistics of a routing (`jumpnet route stats`): hop histogram and
//! channel loads by link class.

use anyhow::Result;
use serde::Serialize;

use jumpnet_core::routing::{self, paths::stats};
use jumpnet_core::topology::Topology;

use crate::builder;
use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{RouteOptions, RouteStore, RoutingInfo};
use crate::io::export::class_name;
use crate::io::output::{Render, Section};

/// All-to-all path statistics of a routing.
#[derive(Debug, Serialize)]
pub struct PathStats {
    /// Topology.
    pub topology: String,
    /// Routing facts.
    pub routing: RoutingInfo,
    /// Ordered terminal pairs.
    pub pairs: u64,
    /// Total router hops.
    pub total_hops: u64,
    /// Mean hops.
    pub mean_hops: f64,
    /// Longest route.
    pub max_hops: u32,
    /// `(hops, pairs)`.
    pub hop_histogram: Vec<(u32, u64)>,
    /// Per link class: `(class, channels, total paths, max paths, mean paths)`.
    pub channel_load: Vec<(String, u64, u64, u64, f64)>,
}

impl Render for PathStats {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!(
            "all-to-all path statistics of --algo {} on {}",
            self.routing.algorithm, self.topology
        ));
        s.kv("ordered terminal pairs", self.pairs)
            .kv("total router hops", self.total_hops)
            .kv("mean hops", format!("{:.4}", self.mean_hops))
            .kv("max hops", self.max_hops)
            .kv("virtual channels / layers", self.routing.vcs);
        let mut h = Section::new("hop histogram", &["hops", "pairs"]);
        for (k, v) in &self.hop_histogram {
            h.row([k.to_string(), v.to_string()]);
        }
        let mut l = Section::new(
            "channel load (paths per directed channel; max = edge forwarding index)",
            &["class", "channels", "total", "max", "mean"],
        );
        for (c, ch, tot, max, mean) in &self.channel_load {
            l.row([
                c.clone(),
                ch.to_string(),
                tot.to_string(),
                max.to_string(),
                format!("{mean:.3}"),
            ]);
        }
        vec![s, h, l]
    }
}

/// All-to-all path statistics of `opts.algo` on `net`.
pub fn path_stats(net: &OwnedNetwork, opts: &RouteOptions) -> Result<PathStats> {
    let t = net.network();
    let mut store = RouteStore::default();
    let (routing, info) = builder::routing::build(&t, opts, &mut store)?;
    let limit = routing::default_hop_limit(&t);
    let mut loads = vec![0u64; t.num_switches() as usize * t.radix() as usize];
    let mut hist = vec![0u64; limit as usize + 1];
    let ps = stats::all_to_all(&t, routing.as_ref(), limit, &mut loads, &mut hist)?;
    let mut by_class = vec![
        (
            jumpnet_core::topology::LinkClass::Local,
            stats::LoadSummary::default()
        );
        64
    ];
    let used = stats::load_by_class(&t, &loads, &mut by_class)?;
    let all = stats::load_summary(&t, &loads, None);
    let mut channel_load = vec![(
        "all".to_string(),
        all.channels,
        all.total,
        all.max,
        all.mean(),
    )];
    for (c, l) in &by_class[..used] {
        channel_load.push((class_name(*c), l.channels, l.total, l.max, l.mean()));
    }
    Ok(PathStats {
        topology: net.spec().to_string(),
        routing: info,
        pairs: ps.pairs,
        total_hops: ps.total_hops,
        mean_hops: if ps.pairs == 0 {
            0.0
        } else {
            ps.total_hops as f64 / ps.pairs as f64
        },
        max_hops: ps.max_hops,
        hop_histogram: hist
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| (k as u32, c))
            .collect(),
        channel_load,
    })
}
