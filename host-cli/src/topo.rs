//! `jumpnet topo`: structure, metrics and families of topologies, returned as data.

use anyhow::{bail, Result};
use serde::Serialize;

use jumpnet_core::topology::{Port, Symmetry, Topology};

use crate::export::class_name;
use crate::network::OwnedNetwork;
use crate::output::{Render, Section};
use crate::spec::FamilyHelp;

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
    let n = t.num_switches();
    let mut by_class: std::collections::BTreeMap<String, u64> = Default::default();
    let (mut dmin, mut dmax, mut dsum) = (u32::MAX, 0u32, 0u64);
    let mut links = 0u64;
    for s in 0..n {
        let mut d = 0u32;
        for p in 0..t.radix() {
            if let Port::Link(l) = t.port(s, p) {
                d += 1;
                if (s, p) < (l.peer, l.peer_port) {
                    links += 1;
                    *by_class.entry(class_name(l.class)).or_default() += 1;
                }
            }
        }
        dmin = dmin.min(d);
        dmax = dmax.max(d);
        dsum += d as u64;
    }
    Info {
        spec: net.spec().to_string(),
        family: t.family().name().into(),
        switches: n,
        terminals: t.num_terminals(),
        radix: t.radix(),
        links,
        links_by_class: by_class.into_iter().collect(),
        degree_min: if n == 0 { 0 } else { dmin },
        degree_max: dmax,
        degree_mean: if n == 0 { 0.0 } else { dsum as f64 / n as f64 },
        vertex_transitive: t.symmetry() == Symmetry::VertexTransitive,
        notes: net.notes().to_vec(),
    }
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
}

impl Render for Metrics {
    fn sections(&self) -> Vec<Section> {
        self.info.sections()
    }
}

/// Computes [`Metrics`].
pub fn metrics(net: &OwnedNetwork, check: bool, progress: bool) -> Result<Metrics> {
    let _ = (net, check, progress);
    bail!("topology metrics are not available yet")
}
