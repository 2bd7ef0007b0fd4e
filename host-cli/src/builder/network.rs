//! Building a core [`Network`] from a [`TopologySpec`], owning the storage that random and
//! arbitrary graphs need.

use anyhow::{anyhow, bail, Context, Result};
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::galaxy::RouterAssignment;
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::{
    random_shortcut, stored, Family, Network, Port, Slot, StoredGraph, Topology,
};

use crate::builder::anynet::AnyNetStorage;
use crate::builder::topology::{AnyNetSource, TopologySpec};
use crate::io::anynet::{self, AnyNet};
use crate::io::edgelist;

pub use crate::budget::{check_alloc, check_memory};

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
    /// A BookSim2 anynet network: stored graph with terminals and latencies port by port.
    AnyNet(AnyNetStorage),
}

impl OwnedNetwork {
    /// Builds the network a spec describes (reads the edge list for `arbitrary`).
    pub fn build(spec: &TopologySpec) -> Result<Self> {
        let invalid = || format!("invalid {}", spec.family_name());
        let mut notes = Vec::new();
        let inner = match spec {
            TopologySpec::RandomShortcut { n, d, seed } => {
                build_random_shortcut(spec, *n, *d, *seed, &mut notes)?
            }
            TopologySpec::Arbitrary { edges, t } => {
                let list = edgelist::read(edges)?;
                check_alloc::<Slot>(
                    &format!(
                        "the adjacency table of {} ({} switches, up to {} links each)",
                        edges.display(),
                        list.n,
                        list.max_degree()
                    ),
                    list.n as u128 * list.max_degree() as u128,
                )?;
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
                .with_context(invalid)
                .with_context(|| format!("loading {}", edges.display()))?;
                Inner::Stored {
                    family: Family::Arbitrary,
                    n: list.n,
                    width,
                    terminals_per_switch: *t,
                    slots,
                }
            }
            TopologySpec::AnyNet(AnyNetSource::Fly { k, n }) => {
                Inner::AnyNet(crate::builder::fly::storage(*k, *n)?)
            }
            TopologySpec::AnyNet(source) => Inner::AnyNet(AnyNetStorage::new(&match source {
                AnyNetSource::File(file) => anynet::read(file)?,
                AnyNetSource::Crossbar(nodes) => AnyNet {
                    routers: 1,
                    nodes: vec![0; *nodes as usize],
                    links: Default::default(),
                },
                AnyNetSource::Tree { k, levels } => crate::builder::anynet_tree::tree(*k, *levels)?,
                AnyNetSource::Fly { .. } => bail!("internal: a butterfly is built above"),
            })?),
            TopologySpec::Structured(network) => {
                Inner::Structured(network.build().with_context(invalid)?)
            }
        };
        if let Inner::Structured(net) = &inner {
            structure_notes(spec, net, &mut notes);
        }
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
            Inner::AnyNet(storage) => match storage.graph() {
                Ok(g) => Network::Stored(g),
                // The tables were laid out consistently; re-opening them cannot fail.
                Err(e) => unreachable!("anynet graph re-open failed: {e:#}"),
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
    check_memory(
        &format!("the adjacency table of random-shortcut n={n} d={d}"),
        (need.slots as u128) * std::mem::size_of::<Slot>() as u128
            + (need.degree as u128) * std::mem::size_of::<u16>() as u128,
    )?;
    let mut slots = vec![Slot::EMPTY; need.slots];
    let mut degree = vec![0u16; need.degree];
    let mut rng = Rng::new(seed);
    let (_, info) = random_shortcut::build(n, d16, &mut rng, &mut slots, &mut degree)
        .with_context(|| format!("invalid {}", spec.family_name()))?;
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

/// Largest Galaxyfly (routers) whose router-level diameter is computed for the
/// assignment note of [`structure_notes`].
const GALAXYFLY_DIAMETER_CHECK_MAX: u32 = 1 << 15;

/// Remarks the user should see about a structured network (shown by `topo info`,
/// `topo metrics` and the report):
///
/// * a Galaxyfly with `a = 2`, `q > 1` and the round-robin router assignment whose
///   router-level diameter exceeds the 4 of docs/topologies.md §10 (cluster-split gives 4);
/// * a Dragonfly with `a·h > g − 1` (e.g. the [DISS] 64 × 16 × 4 network), whose surplus
///   global ports stay unconnected: how many.
fn structure_notes(spec: &TopologySpec, net: &Network<'_>, notes: &mut Vec<String>) {
    match (spec, net) {
        (
            TopologySpec::Structured(NetworkSpec::Galaxyfly {
                q,
                a: 2,
                assignment: RouterAssignment::RoundRobin,
                ..
            }),
            Network::Galaxyfly(_),
        ) if *q > 1 => {
            let routers = net.num_switches();
            if routers > GALAXYFLY_DIAMETER_CHECK_MAX {
                notes.push(format!(
                    "router-level diameter not checked ({routers} routers): with a = 2 the round-robin assignment can give diameter 5 instead of the 4 of docs/topologies.md §10 (q > 1, a = 2); assignment=cluster-split gives 4"
                ));
                return;
            }
            if let Ok(d) = crate::distances::fast(net, false) {
                if d.summary.connected && d.summary.diameter > 4 {
                    notes.push(format!(
                        "router-level diameter is {} with the round-robin router assignment, not the 4 of docs/topologies.md §10 (q > 1, a = 2): use assignment=cluster-split for diameter 4",
                        d.summary.diameter
                    ));
                }
            }
        }
        (_, Network::Dragonfly(df)) => {
            let (g, a, h) = (df.g() as u64, df.a() as u64, df.h() as u64);
            if a * h <= g.saturating_sub(1) {
                return;
            }
            let first = df.first_global_port();
            let mut unconnected = 0u64;
            for s in 0..df.num_switches() {
                for c in 0..df.h() {
                    let port = first as u32 + c;
                    if port <= u16::MAX as u32
                        && matches!(df.port(s, port as u16), Port::Unconnected)
                    {
                        unconnected += 1;
                    }
                }
            }
            let surplus = a * h - (g - 1);
            notes.push(format!(
                "a·h = {} > g − 1 = {}: every group has {surplus} global port(s) more than one link per other group; {unconnected} of the {} global ports are unconnected (surplus ports are used for second links where the arrangement allows; results are arrangement-dependent, docs/topologies.md §7)",
                a * h,
                g - 1,
                g * a * h
            ));
        }
        _ => {}
    }
}
