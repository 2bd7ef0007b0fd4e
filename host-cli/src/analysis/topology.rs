//! Families, structure, distance metrics and cables of topologies (`jumpnet topo`, the
//! report's topology table): [`families`], [`info`], [`metrics`], [`cables`].

use anyhow::{bail, Result};
use serde::Serialize;

use jumpnet_core::metrics::{
    cable_stats, degree_stats, network_cost, CabinetLayout, CabinetOrder, CostModel,
    LinkClassCounts,
};
use jumpnet_core::topology::{Symmetry, Topology};

use crate::builder::network::OwnedNetwork;
use crate::builder::topology::FamilyHelp;
use crate::distances;
use crate::io::output::{Render, Section};

/// The list of families and their keys.
#[derive(Debug, Serialize)]
pub struct Families {
    /// One entry per family.
    pub families: Vec<FamilyEntry>,
}

/// One family of [`Families`].
#[derive(Debug, Serialize)]
pub struct FamilyEntry {
    /// Name.
    pub name: String,
    /// Description.
    pub about: String,
    /// `key=default` or `key` (required) with meaning.
    pub keys: Vec<(String, String)>,
}

/// Lists the families.
pub fn families(all: &[FamilyHelp]) -> Families {
    Families {
        families: all
            .iter()
            .map(|f| FamilyEntry {
                name: f.name.into(),
                about: f.about.into(),
                keys: f
                    .keys
                    .iter()
                    .map(|(k, m, d)| {
                        let key = match d {
                            Some(d) => format!("{k}={d}"),
                            None => format!("{k}=<required>"),
                        };
                        (key, m.to_string())
                    })
                    .collect(),
            })
            .collect(),
    }
}

impl Render for Families {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::new(
            "topology families",
            &["family", "parameters", "description"],
        );
        for f in &self.families {
            let keys: Vec<&str> = f.keys.iter().map(|(k, _)| k.as_str()).collect();
            s.row([f.name.clone(), keys.join(" "), f.about.clone()]);
        }
        vec![s]
    }
}

/// Structural facts about a network.
#[derive(Debug, Serialize, PartialEq)]
pub struct Info {
    /// Canonical specification.
    pub spec: String,
    /// Family name.
    pub family: String,
    /// Switches.
    pub switches: u32,
    /// Terminals.
    pub terminals: u32,
    /// Port indices per switch.
    pub radix: u16,
    /// Network links (each counted once).
    pub links: u64,
    /// Links per class.
    pub links_by_class: Vec<(String, u64)>,
    /// Smallest switch degree (network ports).
    pub degree_min: u32,
    /// Largest switch degree.
    pub degree_max: u32,
    /// Mean switch degree.
    pub degree_mean: f64,
    /// Whether the switch graph is known to be vertex-transitive.
    pub vertex_transitive: bool,
    /// Remarks from construction.
    pub notes: Vec<String>,
}

/// Computes [`Info`].
pub fn info(net: &OwnedNetwork) -> Info {
    let t = net.network();
    let d = degree_stats(&t);
    Info {
        spec: net.spec().to_string(),
        family: t.family().name().into(),
        switches: d.switches,
        terminals: d.terminals,
        radix: t.radix(),
        links: d.links,
        links_by_class: class_counts(&d.by_class),
        degree_min: d.min_degree,
        degree_max: d.max_degree,
        degree_mean: d.mean_degree(),
        vertex_transitive: t.symmetry() == Symmetry::VertexTransitive,
        notes: net.notes().to_vec(),
    }
}

/// Non-zero link counts by class name (terminal links included).
pub fn class_counts(c: &LinkClassCounts) -> Vec<(String, u64)> {
    let mut v = vec![
        ("terminal".to_string(), c.terminal),
        ("local".to_string(), c.local),
        ("global".to_string(), c.global),
        ("shortcut".to_string(), c.shortcut),
        ("updown".to_string(), c.fat_tree),
    ];
    for (i, &n) in c.dims.iter().enumerate() {
        v.push((format!("dim{i}"), n));
    }
    v.push(("dim32+".to_string(), c.dim_beyond));
    v.retain(|(_, n)| *n > 0);
    v
}

impl Render for Info {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values(format!("topology {}", self.spec));
        s.kv("family", &self.family)
            .kv("switches", self.switches)
            .kv("terminals", self.terminals)
            .kv("radix (ports per switch)", self.radix)
            .kv("links", self.links)
            .kv("degree min", self.degree_min)
            .kv("degree max", self.degree_max)
            .kv("degree mean", format!("{:.4}", self.degree_mean))
            .kv("vertex-transitive", self.vertex_transitive);
        for note in &self.notes {
            s.kv("note", note);
        }
        let mut c = Section::new("links by class", &["class", "links"]);
        for (k, v) in &self.links_by_class {
            c.row([k.clone(), v.to_string()]);
        }
        vec![s, c]
    }
}

/// Distance and cable metrics of a network.
#[derive(Debug, Serialize)]
pub struct Metrics {
    /// Structure.
    pub info: Info,
    /// Whether the graph is connected.
    pub connected: bool,
    /// Diameter (switch hops).
    pub diameter: u32,
    /// Radius (smallest eccentricity).
    pub radius: u32,
    /// Average shortest-path length over ordered pairs of distinct switches.
    pub aspl: f64,
    /// Sum of distances over ordered pairs.
    pub distance_sum: u64,
    /// Ordered pairs of distinct switches that are reachable.
    pub pairs: u64,
    /// Ordered pairs of switches with no path.
    pub unreachable_pairs: u64,
    /// `(distance, ordered pairs)` for distance ≥ 1.
    pub distance_histogram: Vec<(u32, u64)>,
    /// `(eccentricity, switches)`.
    pub eccentricity_histogram: Vec<(u32, u64)>,
    /// Method used: single BFS (vertex-transitive) or bit-parallel all-pairs BFS.
    pub method: String,
    /// Reference BFS agreed (only with `--check`).
    pub reference_check: Option<bool>,
    /// Cable length for the two cabinet orders.
    pub cables: Vec<CableRow>,
    /// Seconds spent on distances.
    pub seconds: f64,
}

/// Cable statistics under one cabinet order (docs/mapping.md §6).
#[derive(Debug, Serialize)]
pub struct CableRow {
    /// Cabinet order.
    pub order: String,
    /// Cabinets.
    pub cabinets: u32,
    /// Links (cables).
    pub cables: u64,
    /// Cables inside one cabinet.
    pub intra_cabinet: u64,
    /// Average length, m.
    pub average_m: f64,
    /// Total length, m.
    pub total_m: f64,
    /// Longest cable, m.
    pub max_m: f64,
    /// Cost with the unverified Slim Fly price constants, $.
    pub cost_usd_unverified: f64,
}

impl Render for Metrics {
    fn sections(&self) -> Vec<Section> {
        let mut out = self.info.sections();
        let mut d = Section::key_values("distances (switch hops)");
        d.kv("connected", self.connected)
            .kv("diameter", self.diameter)
            .kv("radius", self.radius)
            .kv("ASPL", format!("{:.4}", self.aspl))
            .kv("ordered pairs", self.pairs)
            .kv("unreachable pairs", self.unreachable_pairs)
            .kv("method", &self.method)
            .kv("seconds", format!("{:.3}", self.seconds));
        if let Some(ok) = self.reference_check {
            d.kv("reference BFS agrees", ok);
        }
        out.push(d);
        let mut h = Section::new("distance histogram", &["distance", "ordered pairs"]);
        for (k, v) in &self.distance_histogram {
            h.row([k.to_string(), v.to_string()]);
        }
        out.push(h);
        let mut e = Section::new("eccentricities", &["eccentricity", "switches"]);
        for (k, v) in &self.eccentricity_histogram {
            e.row([
                if *k == u32::MAX {
                    "inf".into()
                } else {
                    k.to_string()
                },
                v.to_string(),
            ]);
        }
        out.push(e);
        let mut c = Section::new(
            "cables (8 switches per cabinet; cost constants unverified)",
            &[
                "order",
                "cabinets",
                "cables",
                "intra-cabinet",
                "average m",
                "total m",
                "max m",
                "cost $",
            ],
        );
        for r in &self.cables {
            c.row([
                r.order.clone(),
                r.cabinets.to_string(),
                r.cables.to_string(),
                r.intra_cabinet.to_string(),
                format!("{:.3}", r.average_m),
                format!("{:.1}", r.total_m),
                format!("{:.1}", r.max_m),
                format!("{:.0}", r.cost_usd_unverified),
            ]);
        }
        out.push(c);
        out
    }
}

/// Cable rows for both cabinet orders.
pub fn cables<T: Topology>(t: &T) -> Result<Vec<CableRow>> {
    let mut rows = Vec::new();
    for (name, order) in [
        ("row-major", CabinetOrder::RowMajor),
        ("boustrophedon", CabinetOrder::Boustrophedon),
    ] {
        let layout = CabinetLayout::new(t.num_switches(), order)?;
        let st = cable_stats(t, &layout)?;
        let cost = network_cost(t, &layout, &CostModel::SLIM_FLY_UNVERIFIED)?;
        rows.push(CableRow {
            order: name.into(),
            cabinets: layout.cabinets(),
            cables: st.links,
            intra_cabinet: st.intra_cabinet,
            average_m: st.average_m(),
            total_m: st.total_cm as f64 / 100.0,
            max_m: st.max_cm as f64 / 100.0,
            cost_usd_unverified: cost.total_usd(),
        });
    }
    Ok(rows)
}

/// Computes [`Metrics`]; `check` also runs the reference BFS and compares.
pub fn metrics(net: &OwnedNetwork, check: bool, progress: bool) -> Result<Metrics> {
    let t = net.network();
    let started = std::time::Instant::now();
    let fast = distances::fast(&t, progress)?;
    let seconds = started.elapsed().as_secs_f64();
    let reference_check = if check {
        let r = distances::reference(&t)?;
        let same = r.summary == fast.summary
            && r.eccentricities == fast.eccentricities
            && r.histogram == fast.histogram;
        if !same {
            bail!(
                "the fast and the reference distance computations disagree (diameter {} vs {}, sum {} vs {})",
                fast.summary.diameter,
                r.summary.diameter,
                fast.summary.sum,
                r.summary.sum
            );
        }
        Some(true)
    } else {
        None
    };
    let s = &fast.summary;
    let mut ecc: std::collections::BTreeMap<u32, u64> = Default::default();
    for &e in &fast.eccentricities {
        *ecc.entry(e).or_default() += 1;
    }
    // The whole histogram: no distance is folded into a last bin.
    let hist: Vec<(u32, u64)> = fast
        .histogram
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, &c)| c > 0)
        .map(|(k, &c)| (k as u32, c))
        .collect();
    Ok(Metrics {
        info: info(net),
        connected: s.connected,
        diameter: s.diameter,
        radius: if s.radius == u32::MAX { 0 } else { s.radius },
        aspl: s.aspl(),
        distance_sum: s.sum,
        pairs: s.pairs,
        unreachable_pairs: s.unreachable_pairs,
        distance_histogram: hist,
        eccentricity_histogram: ecc.into_iter().collect(),
        method: if fast.single_bfs {
            "single BFS (vertex-transitive)".into()
        } else {
            "bit-parallel all-pairs BFS".into()
        },
        reference_check,
        cables: cables(&t)?,
        seconds,
    })
}
