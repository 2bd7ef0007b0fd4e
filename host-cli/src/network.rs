//! Building a core [`Network`] from a [`TopologySpec`], owning the storage that random and
//! arbitrary graphs need.

use anyhow::{anyhow, Context, Result};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::{
    self, galaxy::RouterAssignment, random_shortcut, stored, Circulant, Dragonfly, Family, FatTree,
    Galaxyfly, GlobalArrangement, HyperX, Hypercube, Network, SlimFly, Slot, StoredGraph, Torus,
};

use crate::edgelist;
use crate::spec::{Arrangement, Assignment, TopologySpec};

/// A network together with the storage it borrows (for stored graphs).
#[derive(Debug)]
pub struct OwnedNetwork {
    spec: TopologySpec,
    inner: Inner,
    notes: Vec<String>,
}

#[derive(Debug)]
enum Inner {
    Structured(Network<'static>),
    Stored {
        family: Family,
        n: u32,
        width: u16,
        terminals_per_switch: u16,
        slots: Vec<Slot>,
    },
}

fn core_err(spec: &TopologySpec, e: topology::TopologyError) -> anyhow::Error {
    anyhow!("invalid {}: {e}", spec.family_name())
}

impl OwnedNetwork {
    /// Builds the network a spec describes (reads the edge list for `arbitrary`).
    pub fn build(spec: &TopologySpec) -> Result<Self> {
        let err = |e| core_err(spec, e);
        let mut notes = Vec::new();
        let structured = |n: Network<'static>| Inner::Structured(n);
        let inner = match spec {
            TopologySpec::Ring { n } => {
                structured(Network::Circulant(Circulant::ring(*n).map_err(err)?))
            }
            TopologySpec::Circulant { n, jumps } => {
                structured(Network::Circulant(Circulant::new(*n, jumps).map_err(err)?))
            }
            TopologySpec::Gcirculant { n } => {
                structured(Network::Circulant(Circulant::g(*n).map_err(err)?))
            }
            TopologySpec::Torus { k, t } => {
                structured(Network::Torus(Torus::torus(k, *t).map_err(err)?))
            }
            TopologySpec::Mesh { k, t } => {
                structured(Network::Torus(Torus::mesh(k, *t).map_err(err)?))
            }
            TopologySpec::Hypercube { dim, t } => {
                structured(Network::Hypercube(Hypercube::new(*dim, *t).map_err(err)?))
            }
            TopologySpec::FatTree { k, n } => {
                structured(Network::FatTree(FatTree::new(*k, *n).map_err(err)?))
            }
            TopologySpec::Dragonfly {
                g,
                a,
                p,
                h,
                arrangement,
            } => {
                let arr = match arrangement {
                    Arrangement::Consecutive => GlobalArrangement::Consecutive,
                    Arrangement::PalmTree => GlobalArrangement::PalmTree,
                    Arrangement::RelativeMirror => GlobalArrangement::Relative,
                };
                structured(Network::Dragonfly(
                    Dragonfly::new(*g, *a, *p, *h, arr).map_err(err)?,
                ))
            }
            TopologySpec::Hyperx { s, k, t } => {
                structured(Network::HyperX(HyperX::new(s, *k, *t).map_err(err)?))
            }
            TopologySpec::SlimFly { q, p } => {
                structured(Network::SlimFly(SlimFly::new(*q, *p).map_err(err)?))
            }
            TopologySpec::Galaxy { n, q } => {
                structured(Network::Galaxyfly(Galaxyfly::galaxy(*n, *q).map_err(err)?))
            }
            TopologySpec::Galaxyfly {
                n,
                q,
                a,
                p,
                h,
                assignment,
            } => {
                let assign = match assignment {
                    Assignment::RoundRobin => RouterAssignment::RoundRobin,
                    Assignment::ClusterSplit => RouterAssignment::ClusterSplit,
                };
                structured(Network::Galaxyfly(
                    Galaxyfly::with_assignment(*n, *q, *a, *p, *h, assign).map_err(err)?,
                ))
            }
            TopologySpec::RandomShortcut { n, d, seed } => {
                build_random_shortcut(spec, *n, *d, *seed, &mut notes)?
            }
            TopologySpec::Arbitrary { edges, t } => {
                let list = edgelist::read(edges)?;
                let width = u16::try_from(list.max_degree()).map_err(|_| {
                    anyhow!(
                        "{}: a switch has {} links, at most 65535 are supported",
                        edges.display(),
                        list.max_degree()
                    )
                })?;
                let mut slots = vec![Slot::EMPTY; list.n as usize * width as usize];
                let mut degree = vec![0u16; list.n as usize];
                stored::from_edges(
                    list.n,
                    width,
                    *t,
                    list.edges.iter().copied(),
                    &mut slots,
                    &mut degree,
                )
                .map_err(err)
                .with_context(|| format!("loading {}", edges.display()))?;
                Inner::Stored {
                    family: Family::Arbitrary,
                    n: list.n,
                    width,
                    terminals_per_switch: *t,
                    slots,
                }
            }
        };
        Ok(OwnedNetwork {
            spec: spec.clone(),
            inner,
            notes,
        })
    }

    /// The specification this network was built from.
    pub fn spec(&self) -> &TopologySpec {
        &self.spec
    }

    /// Remarks made while building (e.g. short nodes of a random shortcut graph).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The network as a core topology.
    pub fn network(&self) -> Network<'_> {
        match &self.inner {
            Inner::Structured(n) => n.clone(),
            Inner::Stored {
                family,
                n,
                width,
                terminals_per_switch,
                slots,
            } => match StoredGraph::from_slots(*family, *n, *width, *terminals_per_switch, slots) {
                Ok(g) => Network::Stored(g),
                // The table was validated when it was built; re-opening it cannot fail.
                Err(e) => unreachable!("stored graph re-open failed: {e}"),
            },
        }
    }
}

fn build_random_shortcut(
    spec: &TopologySpec,
    n: u32,
    d: u32,
    seed: u64,
    notes: &mut Vec<String>,
) -> Result<Inner> {
    let d16 = u16::try_from(d)
        .map_err(|_| anyhow!("invalid random-shortcut: d = {d} is too large (at most 65534)"))?;
    let need = random_shortcut::storage_needed(n, d16);
    let mut slots = vec![Slot::EMPTY; need.slots];
    let mut degree = vec![0u16; need.degree];
    let mut rng = Rng::new(seed);
    let (_, info) = random_shortcut::build(n, d16, &mut rng, &mut slots, &mut degree)
        .map_err(|e| core_err(spec, e))?;
    if info.short_nodes > 0 {
        notes.push(format!(
            "{} switch(es) below degree {d} ({} port(s) left unconnected): no addable pair was left",
            info.short_nodes, info.missing_ports
        ));
    }
    Ok(Inner::Stored {
        family: Family::RandomShortcut,
        n,
        width: d16,
        terminals_per_switch: 1,
        slots,
    })
}
