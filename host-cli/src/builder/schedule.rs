//! Building collective schedules from command-line choices: the closed-form MPICH algorithms
//! in rank space, and the topology-aware ones (Dragonfly, Galaxyfly) over a job placed on a
//! topology.

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use jumpnet_core::collective::{
    bcast_select::{self, BcastAlgorithm},
    byte_totals,
    dragonfly::{self, Placement},
    galaxyfly, AllgatherKind, AnySchedule, Binomial, Blocks, Bruck, ByteTotals, DataLayout, Dep,
    ListSchedule, LowerMedian, Message, Op, RecursiveDoubling, RingAllgather, RingAllreduce,
    ScatterAllgather, Schedule, ScheduleError, Semantics,
};
use jumpnet_core::error::InvalidParam;
use jumpnet_core::rng::Rng;
use jumpnet_core::topology::{Dragonfly, Galaxyfly, Network, Topology};

use crate::builder::network::OwnedNetwork;

const EMPTY_MESSAGE: Message = Message {
    step: 0,
    src: 0,
    dst: 0,
    blocks: Blocks::All,
    bytes: 0,
};

/// Collective algorithms selectable on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Binomial-tree broadcast (docs/collectives.md §1).
    #[value(alias = "binomial")]
    Bcast,
    /// Broadcast with MPICH's algorithm selection by size (§5).
    BcastAuto,
    /// Scatter + recursive-doubling allgather broadcast (§5, power-of-two ranks).
    BcastScatterRd,
    /// Scatter + ring allgather broadcast (§5).
    BcastScatterRing,
    /// Recursive-doubling allreduce (§2).
    #[value(alias = "recursive-doubling")]
    Allreduce,
    /// Ring allreduce: reduce-scatter + allgather (§4).
    AllreduceRing,
    /// Ring allgather (§4).
    AllgatherRing,
    /// Bruck alltoall (§3).
    #[value(alias = "bruck")]
    Alltoall,
    /// Dragonfly TREE: binomial broadcast over the job ranks (§6); needs --topology dragonfly.
    Tree,
    /// Dragonfly Local-Links-First broadcast (§6).
    Llf,
    /// Dragonfly Global-Links-First broadcast (§6).
    Glf,
    /// Dragonfly FOREST broadcast (§6).
    Forest,
    /// Dragonfly A2A all-to-all broadcast at router level (§8).
    DragonflyA2a,
    /// Group-first all-to-all broadcast (GLF from every router, §8).
    Gfa2a,
    /// Router-first all-to-all broadcast (LLF from every router, §8).
    Rfa2a,
    /// Galaxyfly supernode-first all-to-all broadcast (§7); needs --topology galaxyfly.
    Sfata,
    /// Galaxyfly router-first all-to-all broadcast (§7).
    Rfata,
}

impl Algorithm {
    /// Name as written on the command line.
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }

    /// Whether the algorithm needs a topology.
    pub fn needs_topology(self) -> bool {
        matches!(
            self,
            Algorithm::Tree
                | Algorithm::Llf
                | Algorithm::Glf
                | Algorithm::Forest
                | Algorithm::DragonflyA2a
                | Algorithm::Gfa2a
                | Algorithm::Rfa2a
                | Algorithm::Sfata
                | Algorithm::Rfata
        )
    }
}

/// Where the ranks of a topology-aware collective run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobPlacement {
    /// Rank r on terminal r.
    Consecutive,
    /// Ranks on distinct random terminals (seeded), rank order = ascending terminal id.
    Random,
    /// The terminals of `Random` (same seed, same set) in a random rank order (seeded):
    /// rank order independent of the topology, as a scheduler that lists nodes randomly.
    RandomOrder,
}

/// What to build.
#[derive(Clone, Debug, Serialize)]
pub struct CollectiveRequest {
    /// Algorithm.
    pub algorithm: Algorithm,
    /// Ranks (for topology-aware broadcasts: job size; default all terminals).
    pub ranks: Option<u32>,
    /// Root rank (broadcasts) or root supernode (SFATA/RFATA).
    pub root: u32,
    /// Message size in bytes (per block for alltoall/allgather, whole vector otherwise).
    pub bytes: u64,
    /// Bytes per element of reductions: ring allreduce cuts its vector of
    /// `bytes / elem_bytes` elements at element boundaries (docs/collectives.md §4).
    /// Recursive-doubling allreduce always sends the whole vector, so it does not chunk.
    pub elem_bytes: u32,
    /// Job placement on the topology.
    pub placement: JobPlacement,
    /// Seed for random placements.
    pub seed: u64,
}

/// A schedule with the storage it borrows.
#[derive(Debug)]
pub struct OwnedSchedule {
    inner: Inner,
    /// Terminal of each rank when the schedule was placed on a topology.
    pub terminals: Option<Vec<u32>>,
    /// Human description.
    pub description: String,
    /// Whether the algorithm delivers some blocks more than once by design (scatter +
    /// allgather broadcasts, RFATA), so the symbolic checker must allow redundant
    /// deliveries; every other algorithm is checked strictly. Set by each algorithm.
    pub allow_redundant: bool,
    /// The algorithm `bcast-auto` picked (MPICH selection, docs/collectives.md §5); `None`
    /// for every other algorithm.
    pub selected: Option<Algorithm>,
    /// Per-rank buffer bytes and the bytes of all messages, exact (checked when built).
    pub totals: ByteTotals,
}

#[derive(Debug)]
enum Inner {
    Closed(AnySchedule<'static>),
    List {
        ranks: u32,
        semantics: Semantics,
        layout: DataLayout,
        messages: Vec<Message>,
        own: Option<Vec<u32>>,
    },
}

impl OwnedSchedule {
    /// The schedule as a core value.
    pub fn schedule(&self) -> Result<AnySchedule<'_>> {
        Ok(match &self.inner {
            Inner::Closed(s) => *s,
            Inner::List {
                ranks,
                semantics,
                layout,
                messages,
                own,
            } => AnySchedule::List(
                ListSchedule::new(*ranks, *semantics, *layout, messages, own.as_deref())
                    .context("message list")?,
            ),
        })
    }

    /// A schedule as built by one algorithm, before its byte totals are checked.
    fn new(
        inner: Inner,
        terminals: Option<Vec<u32>>,
        description: String,
        allow_redundant: bool,
    ) -> Self {
        OwnedSchedule {
            inner,
            terminals,
            description,
            allow_redundant,
            selected: None,
            totals: ByteTotals {
                buffer: 0,
                messages: 0,
            },
        }
    }
}

/// Builds the requested schedule (`net` is required by topology-aware algorithms). Every
/// error says `building <algorithm>`; sizes whose byte totals reach 2^64 are errors.
pub fn build(req: &CollectiveRequest, net: Option<&OwnedNetwork>) -> Result<OwnedSchedule> {
    (|| -> Result<OwnedSchedule> {
        let mut owned = if req.algorithm.needs_topology() {
            let net = net.ok_or_else(|| {
                anyhow!(
                    "{} is topology-aware: give --topology (a dragonfly for tree/llf/glf/forest/dragonfly-a2a/gfa2a/rfa2a, a galaxyfly for sfata/rfata)",
                    req.algorithm.name()
                )
            })?;
            build_topology_aware(req, net)?
        } else {
            build_rank_space(req)?
        };
        owned.totals = checked_totals(&owned, req)?;
        Ok(owned)
    })()
    .with_context(|| format!("building {}", req.algorithm.name()))
}

/// The schedule's [`ByteTotals`], or an error naming `--bytes` when they reach 2^64.
fn checked_totals(owned: &OwnedSchedule, req: &CollectiveRequest) -> Result<ByteTotals> {
    let s = owned.schedule()?;
    byte_totals(&s).map_err(|e| match e {
        ScheduleError::Invalid(InvalidParam {
            param: "bytes",
            rule,
            ..
        }) => anyhow!(
            "--bytes {} is too large for {} over {} ranks: {rule} (--bytes must keep one rank's buffer and the sum of all message sizes below 2^64 bytes)",
            req.bytes,
            req.algorithm.name(),
            s.ranks()
        ),
        e => e.into(),
    })
}

/// The rank-space schedule of `collective` over `ranks` ranks rooted at `root`, 8 bytes
/// per message: the traffic whose hops process mappings count (`jumpnet map place`, the
/// report's hop comparison). Topology-aware collectives are refused.
pub fn rank_schedule(collective: Algorithm, ranks: u32, root: u32) -> Result<OwnedSchedule> {
    if collective.needs_topology() {
        bail!(
            "--collective {} is topology-aware; map places rank-space collectives (bcast, allreduce, alltoall, ...)",
            collective.name()
        );
    }
    build(
        &CollectiveRequest {
            algorithm: collective,
            ranks: Some(ranks),
            root,
            bytes: 8,
            elem_bytes: 4,
            placement: JobPlacement::Consecutive,
            seed: 0,
        },
        None,
    )
}

/// The program of `rank`.
pub fn program_of<S: Schedule>(s: &S, rank: u32) -> Result<Vec<Op>> {
    if rank >= s.ranks() {
        bail!("--rank {rank} is invalid: ranks are 0..{}", s.ranks());
    }
    let mut ops = vec![
        Op::Permute {
            reflect: false,
            shift: 0,
            after: Dep::None
        };
        s.program_len(rank)
    ];
    let n = s
        .program(rank, &mut ops)
        .with_context(|| format!("program of rank {rank}"))?;
    ops.truncate(n);
    Ok(ops)
}

/// The command-line algorithm MPICH's selection stands for.
pub fn bcast_pick(alg: BcastAlgorithm) -> Algorithm {
    match alg {
        BcastAlgorithm::Binomial => Algorithm::Bcast,
        BcastAlgorithm::ScatterRecursiveDoubling => Algorithm::BcastScatterRd,
        BcastAlgorithm::ScatterRing => Algorithm::BcastScatterRing,
    }
}

/// The rank-space (closed-form MPICH) algorithms.
fn build_rank_space(req: &CollectiveRequest) -> Result<OwnedSchedule> {
    use Algorithm as A;
    let n = req
        .ranks
        .ok_or_else(|| anyhow!("give --ranks N (number of ranks)"))?;
    let (s, what, allow_redundant) = match req.algorithm {
        A::Bcast => (
            AnySchedule::Binomial(Binomial::new(n, req.root, req.bytes)?),
            "binomial broadcast".to_string(),
            false,
        ),
        A::BcastAuto => {
            // MPICH's choice is built exactly as if it had been named, so it gets that
            // algorithm's checker rule.
            let picked = bcast_pick(bcast_select::select(req.bytes, n));
            let mut owned = build_rank_space(&CollectiveRequest {
                algorithm: picked,
                ..req.clone()
            })?;
            owned.description = format!(
                "MPICH selection for {} bytes over {n} ranks: {} ({})",
                req.bytes,
                picked.name(),
                owned.description,
            );
            owned.selected = Some(picked);
            return Ok(owned);
        }
        A::BcastScatterRd | A::BcastScatterRing => {
            let (kind, what) = if req.algorithm == A::BcastScatterRd {
                (AllgatherKind::RecursiveDoubling, "recursive-doubling")
            } else {
                (AllgatherKind::Ring, "ring")
            };
            (
                AnySchedule::ScatterAllgather(ScatterAllgather::new(n, req.root, req.bytes, kind)?),
                format!("scatter + {what} allgather broadcast"),
                // After the scatter a rank already holds its subtree's pieces; the
                // allgather delivers some of them again (MPICH behaviour).
                true,
            )
        }
        A::Allreduce => (
            AnySchedule::RecursiveDoubling(RecursiveDoubling::new(n, req.bytes)?),
            "recursive-doubling allreduce".to_string(),
            false,
        ),
        A::AllreduceRing => {
            let e = req.elem_bytes;
            if e == 0 {
                bail!("--elem-bytes 0 is invalid: an element has at least 1 byte");
            }
            let rest = req.bytes % e as u64;
            if rest != 0 {
                let below = req.bytes - rest;
                bail!(
                    "--bytes {} is not a multiple of --elem-bytes {e}: ring allreduce cuts the vector into chunks of whole {e}-byte elements; give --bytes as a multiple of {e} (e.g. {}) or another --elem-bytes",
                    req.bytes,
                    if below > 0 { below } else { e as u64 }
                );
            }
            let elements = req.bytes / e as u64;
            (
                AnySchedule::RingAllreduce(RingAllreduce::new(n, elements, e)?),
                format!("ring allreduce ({elements} elements of {e} bytes)"),
                false,
            )
        }
        A::AllgatherRing => (
            AnySchedule::RingAllgather(RingAllgather::new(n, req.bytes)?),
            "ring allgather".to_string(),
            false,
        ),
        A::Alltoall => (
            AnySchedule::Bruck(Bruck::new(n, req.bytes)?),
            "Bruck alltoall".to_string(),
            false,
        ),
        _ => bail!("internal: {:?} is topology-aware", req.algorithm),
    };
    Ok(OwnedSchedule::new(
        Inner::Closed(s),
        None,
        what,
        allow_redundant,
    ))
}

/// Chooses the job's terminals (rank → terminal).
pub fn place_job(
    t: &Network<'_>,
    ranks: u32,
    placement: JobPlacement,
    seed: u64,
) -> Result<Vec<u32>> {
    let total = t.num_terminals();
    if ranks == 0 || ranks > total {
        bail!("--ranks {ranks} is invalid: the topology has {total} terminals (use 1..={total})");
    }
    Ok(match placement {
        JobPlacement::Consecutive => (0..ranks).collect(),
        JobPlacement::Random | JobPlacement::RandomOrder => {
            let mut all: Vec<u32> = (0..total).collect();
            let mut rng = Rng::new(seed);
            rng.shuffle(&mut all);
            let mut chosen = all[..ranks as usize].to_vec();
            chosen.sort_unstable();
            if placement == JobPlacement::RandomOrder {
                rng.shuffle(&mut chosen);
            }
            chosen
        }
    })
}

/// The topology-aware algorithms (errors get their `building <algorithm>` context in
/// [`build`], whichever arm they come from).
fn build_topology_aware(req: &CollectiveRequest, net: &OwnedNetwork) -> Result<OwnedSchedule> {
    use Algorithm as A;
    let t = net.network();
    match (&t, req.algorithm) {
        (Network::Dragonfly(df), A::Tree | A::Llf | A::Glf | A::Forest) => {
            dragonfly_broadcast(req, &t, df)
        }
        (Network::Dragonfly(df), A::DragonflyA2a | A::Gfa2a | A::Rfa2a) => {
            dragonfly_all_to_all(req, &t, df)
        }
        (Network::Galaxyfly(gf), A::Sfata | A::Rfata) => galaxyfly_all_to_all(req, &t, gf),
        _ => bail!(
            "{} does not run on {}: tree/llf/glf/forest/dragonfly-a2a/gfa2a/rfa2a need a dragonfly, sfata/rfata a galaxyfly",
            req.algorithm.name(),
            net.spec().family_name()
        ),
    }
}

/// TREE, LLF, GLF and FOREST broadcasts over a job placed on a Dragonfly.
fn dragonfly_broadcast(
    req: &CollectiveRequest,
    t: &Network<'_>,
    df: &Dragonfly,
) -> Result<OwnedSchedule> {
    use Algorithm as A;
    let n = req.ranks.unwrap_or(t.num_terminals());
    let terminals = place_job(t, n, req.placement, req.seed)?;
    if req.root >= n {
        bail!("--root {} is invalid: ranks are 0..{n}", req.root);
    }
    if req.algorithm == A::Tree {
        let b = Binomial::new(n, req.root, req.bytes)?;
        return Ok(OwnedSchedule::new(
            Inner::Closed(AnySchedule::Binomial(b)),
            Some(terminals),
            "Dragonfly TREE (binomial over the job ranks)".into(),
            false,
        ));
    }
    let job: Vec<Placement> = terminals
        .iter()
        .map(|&term| {
            let s = t.terminal_switch(term).unwrap_or(0);
            Placement {
                group: df.group_of(s).unwrap_or(0),
                router: df.offset_in_group(s).unwrap_or(0),
            }
        })
        .collect();
    let alg = match req.algorithm {
        A::Llf => dragonfly::Algorithm::Llf,
        A::Glf => dragonfly::Algorithm::Glf,
        _ => dragonfly::Algorithm::Forest,
    };
    let mut msgs = vec![EMPTY_MESSAGE; n.saturating_sub(1) as usize];
    let mut scratch = vec![0u32; dragonfly::DragonflySizes::of_broadcast(n as usize).scratch];
    let buffers = dragonfly::DragonflyBuffers {
        msgs: &mut msgs,
        scratch: &mut scratch,
    };
    let s = dragonfly::broadcast(alg, &job, req.root, df, req.bytes, buffers)?;
    let (ranks, semantics, layout) = (s.ranks(), s.semantics(), s.layout());
    let used = s.messages().len();
    msgs.truncate(used);
    Ok(OwnedSchedule::new(
        Inner::List {
            ranks,
            semantics,
            layout,
            messages: msgs,
            own: None,
        },
        Some(terminals),
        format!(
            "Dragonfly {} broadcast",
            req.algorithm.name().to_uppercase()
        ),
        false,
    ))
}

/// The router-level all-to-all broadcasts on a Dragonfly: A2A, GFA2A and RFA2A.
fn dragonfly_all_to_all(
    req: &CollectiveRequest,
    t: &Network<'_>,
    df: &Dragonfly,
) -> Result<OwnedSchedule> {
    let (g, a) = (df.g(), df.a());
    let routers = g as usize * a as usize;
    let (msgs, description) = if req.algorithm == Algorithm::DragonflyA2a {
        let msgs = generate(
            dragonfly::a2a::message_count(g, a) as usize,
            dragonfly::DragonflySizes::of_a2a(g, a).scratch,
            |msgs, scratch| {
                let buffers = dragonfly::DragonflyBuffers { msgs, scratch };
                dragonfly::a2a::a2a(g, a, df, &LowerMedian, req.bytes, buffers).map(used)
            },
        )?;
        let what = "Dragonfly A2A all-to-all broadcast (router level)".to_string();
        (msgs, what)
    } else {
        let alg = if req.algorithm == Algorithm::Gfa2a {
            dragonfly::Algorithm::Glf
        } else {
            dragonfly::Algorithm::Llf
        };
        let msgs = generate(
            routers * routers.saturating_sub(1),
            dragonfly::DragonflySizes::of_all_to_all(g, a).scratch,
            |msgs, scratch| {
                let buffers = dragonfly::DragonflyBuffers { msgs, scratch };
                dragonfly::all_to_all(alg, g, a, df, req.bytes, buffers).map(used)
            },
        )?;
        let what = format!("{:?} all-to-all broadcast (router level)", req.algorithm);
        (msgs, what.to_uppercase())
    };
    Ok(OwnedSchedule::new(
        Inner::List {
            ranks: routers as u32,
            semantics: Semantics::Allgather,
            layout: DataLayout::uniform(routers as u32, req.bytes),
            messages: msgs,
            own: None,
        },
        Some(router_terminals(t, routers as u32)),
        description,
        false,
    ))
}

/// SFATA and RFATA on a Galaxyfly.
fn galaxyfly_all_to_all(
    req: &CollectiveRequest,
    t: &Network<'_>,
    gf: &Galaxyfly,
) -> Result<OwnedSchedule> {
    let s = gf.num_supernodes();
    let a = gf.a();
    let n = s as usize * a as usize;
    if req.root >= s {
        bail!(
            "--root {} is invalid for SFATA/RFATA: the root is a supernode in 0..{s}",
            req.root
        );
    }
    let mut own = vec![0u32; n];
    let (msgs, description, allow_redundant) = if req.algorithm == Algorithm::Sfata {
        let msgs = generate(
            2 * n.saturating_sub(1),
            galaxyfly::GalaxyflySizes::of_sfata(s, a).scratch,
            |msgs, scratch| {
                let buffers = galaxyfly::GalaxyflyBuffers {
                    msgs,
                    own: &mut own,
                    scratch,
                };
                galaxyfly::sfata::sfata(gf, req.root, &LowerMedian, req.bytes, buffers).map(used)
            },
        )?;
        // No router receives a packet twice ([GF-A2A] AvgPacket = 0).
        let what = "Galaxyfly SFATA all-to-all broadcast".to_string();
        (msgs, what, false)
    } else {
        let msgs = generate(
            galaxyfly::rfata::message_count(s, a) as usize,
            galaxyfly::GalaxyflySizes::of_rfata(s, a).scratch,
            |msgs, scratch| {
                let buffers = galaxyfly::GalaxyflyBuffers {
                    msgs,
                    own: &mut own,
                    scratch,
                };
                galaxyfly::rfata::rfata(gf, req.root, &LowerMedian, req.bytes, buffers).map(used)
            },
        )?;
        // Distribution resends a supernode's own subtree (spec §7: AvgPacket > 0).
        let what = "Galaxyfly RFATA all-to-all broadcast".to_string();
        (msgs, what, true)
    };
    Ok(OwnedSchedule::new(
        Inner::List {
            ranks: n as u32,
            semantics: Semantics::Allgather,
            layout: DataLayout::uniform(n as u32, req.bytes),
            messages: msgs,
            own: Some(own),
        },
        Some(router_terminals(t, n as u32)),
        description,
        allow_redundant,
    ))
}

/// Runs a core schedule generator on `capacity` message slots and `scratch_len` words of
/// scratch, and keeps the messages it wrote (`generator` returns how many it used).
fn generate(
    capacity: usize,
    scratch_len: usize,
    generator: impl FnOnce(
        &mut [Message],
        &mut [u32],
    ) -> Result<usize, jumpnet_core::collective::ScheduleError>,
) -> Result<Vec<Message>> {
    let mut msgs = vec![EMPTY_MESSAGE; capacity];
    let mut scratch = vec![0u32; scratch_len];
    let used = generator(&mut msgs, &mut scratch)?;
    msgs.truncate(used);
    Ok(msgs)
}

/// Number of messages of a generated schedule.
fn used(s: ListSchedule<'_>) -> usize {
    s.messages().len()
}

/// First terminal of every router (router-level collectives place rank r on router r).
fn router_terminals(t: &Network<'_>, routers: u32) -> Vec<u32> {
    let mut first = vec![u32::MAX; routers as usize];
    for term in (0..t.num_terminals()).rev() {
        if let Some(s) = t.terminal_switch(term) {
            if let Some(f) = first.get_mut(s as usize) {
                *f = term;
            }
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank_space(algorithm: Algorithm, ranks: u32, bytes: u64) -> OwnedSchedule {
        build(
            &CollectiveRequest {
                algorithm,
                ranks: Some(ranks),
                root: 0,
                bytes,
                elem_bytes: 4,
                placement: JobPlacement::Consecutive,
                seed: 0,
            },
            None,
        )
        .expect("builds")
    }

    #[test]
    fn redundancy_rule_is_the_algorithms_not_the_descriptions() {
        // MPICH picks binomial below 12288 bytes (spec §5): checked strictly, even though
        // the description of an auto-selected broadcast is free text.
        let small = rank_space(Algorithm::BcastAuto, 64, 12287);
        assert_eq!(small.selected, Some(Algorithm::Bcast));
        assert!(!small.allow_redundant);
        let medium = rank_space(Algorithm::BcastAuto, 64, 12288);
        assert_eq!(medium.selected, Some(Algorithm::BcastScatterRd));
        assert!(medium.allow_redundant);
        let long = rank_space(Algorithm::BcastAuto, 64, 524288);
        assert_eq!(long.selected, Some(Algorithm::BcastScatterRing));
        assert!(long.allow_redundant);
        for a in [
            Algorithm::Bcast,
            Algorithm::Allreduce,
            Algorithm::AllreduceRing,
            Algorithm::AllgatherRing,
            Algorithm::Alltoall,
        ] {
            let s = rank_space(a, 12, 64);
            assert!(!s.allow_redundant, "{a:?}");
            assert_eq!(s.selected, None);
        }
    }
}
