//! Building a core [`Network`] from a [`TopologySpec`], owning the storage that random and
//! arbitrary graphs need.

use anyhow::{anyhow, Context, Result};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::{self, random_shortcut, stored, Family, Network, Slot, StoredGraph};

use crate::build::topology::TopologySpec;
use crate::io::edgelist;

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
        let inner = match spec {
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
            computed => {
                let network = computed
                    .network_spec()
                    .map_err(err)?
                    .ok_or_else(|| anyhow!("{} is not a computed family", spec.family_name()))?;
                Inner::Structured(network.build().map_err(err)?)
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
    let need = random_shortcut::RandomShortcutSizes::of(n, d16);
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
