//! Dragonfly topology-aware collectives ([DF-BC] §III and Xiang & Ju's A2A;
//! docs/collectives.md §6, §8).
//!
//! Inputs are plain data: a job given as one [`Placement`] (group, router within the
//! group) per rank, and a [`GroupLinks`] oracle naming the routers that carry the global
//! link between two groups. The algorithms compose binomial sub-trees (§1) over ordered rank
//! lists and produce a [`ListSchedule`] in caller storage.
//!
//! **Project choices** (spec §6): "one process per router/group" is the lowest-rank job
//! process on that router/group unless a specific process is named; ordered lists are the
//! sub-root followed by the others sorted by rank (GLF's step-1 list is ordered by group id,
//! as the spec states). Steps are numbered one-port greedy (see [`crate::collective::list`]).
//! TREE, the non-topology-aware baseline, is [`crate::collective::Binomial`] over the job's
//! ranks.

pub mod a2a;
pub mod forest;
pub mod formulas;
pub mod glf;
pub mod links;
pub mod llf;
pub mod topology;

#[cfg(test)]
mod tests;

use super::blocks::{Blocks, DataLayout};
use super::list::{binomial_over, ListBuilder, ListSchedule, BUILDER_SCRATCH_PER_RANK};
use super::message::{Message, Rank};
use super::schedule::{check_rank, ScheduleError, Semantics};
use crate::error::{CapacityError, InvalidParam};
use serde::{Deserialize, Serialize};

/// Where a rank runs: its group and its router's index within the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    /// Group id.
    pub group: u32,
    /// Router index within the group.
    pub router: u32,
}

/// Connectivity oracle of a Dragonfly with one global link per group pair.
pub trait GroupLinks {
    /// The routers `(R1 in g1, R2 in g2)` (indices within their groups) that share the global
    /// link between groups `g1 ≠ g2`.
    fn link(&self, g1: u32, g2: u32) -> (u32, u32);
}

/// The topology-aware broadcasts of [DF-BC] §III.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Algorithm {
    /// Local-Links-First (Xiang & Liu "router first").
    Llf,
    /// Global-Links-First (Xiang & Liu "group first").
    Glf,
    /// LLF with parallel binomial trees across groups.
    Forest,
}

/// `u32` scratch entries per rank of [`broadcast`] and [`all_to_all`]: the sorted job and
/// the three [`RankLists`], then the list builder's.
const SCRATCH_PER_RANK: usize = 4 + BUILDER_SCRATCH_PER_RANK;

/// Entry counts of every [`DragonflyBuffers`] buffer of one Dragonfly collective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DragonflySizes {
    /// `msgs`: the messages of the schedule.
    pub msgs: usize,
    /// `scratch`.
    pub scratch: usize,
}

impl DragonflySizes {
    /// Sizes of [`broadcast`] over a job of `ranks` ranks: `ranks - 1` messages.
    pub fn of_broadcast(ranks: usize) -> Self {
        DragonflySizes {
            msgs: ranks.saturating_sub(1),
            scratch: SCRATCH_PER_RANK.saturating_mul(ranks),
        }
    }

    /// Sizes of [`all_to_all`] on `g` groups of `a` routers (`N = g·a`): `N(N - 1)`
    /// messages.
    pub fn of_all_to_all(g: u32, a: u32) -> Self {
        let n = g as usize * a as usize;
        DragonflySizes {
            msgs: n.saturating_mul(n.saturating_sub(1)),
            scratch: SCRATCH_PER_RANK.saturating_mul(n),
        }
    }

    /// Sizes of [`a2a::a2a`] on `g` groups of `a` routers: [`a2a::message_count`] messages;
    /// scratch for one router list (`a`) and the list builder.
    pub fn of_a2a(g: u32, a: u32) -> Self {
        let n = g as usize * a as usize;
        DragonflySizes {
            msgs: usize::try_from(a2a::message_count(g, a)).unwrap_or(usize::MAX),
            scratch: a as usize + BUILDER_SCRATCH_PER_RANK * n,
        }
    }
}

/// Caller storage of [`broadcast`], [`all_to_all`] and [`a2a::a2a`] (sizes from
/// [`DragonflySizes`]; longer is fine).
#[derive(Debug)]
pub struct DragonflyBuffers<'a, 's> {
    /// The schedule's messages.
    pub msgs: &'a mut [Message],
    /// Scratch (not borrowed by the schedule).
    pub scratch: &'s mut [u32],
}

/// Rank lists one broadcast works on (`n` entries each): the ordered list a binomial
/// sub-tree runs over, the holders after the root-group phase (LLF, FOREST) and the
/// receivers in the remote groups (FOREST).
pub(crate) struct RankLists<'w> {
    pub list: &'w mut [u32],
    pub holders: &'w mut [u32],
    pub receivers: &'w mut [u32],
}

/// Splits `scratch` (at least [`SCRATCH_PER_RANK`]` · n` entries) into the sorted job
/// order, the [`RankLists`] and the list builder's scratch.
fn split_scratch(scratch: &mut [u32], n: usize) -> (&mut [u32], RankLists<'_>, &mut [u32]) {
    let (order, rest) = scratch.split_at_mut(n);
    let (list, rest) = rest.split_at_mut(n);
    let (holders, rest) = rest.split_at_mut(n);
    let (receivers, rest) = rest.split_at_mut(n);
    let lists = RankLists {
        list,
        holders,
        receivers,
    };
    (order, lists, rest)
}

/// Builds the topology-aware broadcast `alg` of `bytes` bytes from `root` over the ranks of
/// `job` into `bufs` (sizes from [`DragonflySizes::of_broadcast`]).
pub fn broadcast<'a, L: GroupLinks>(
    alg: Algorithm,
    job: &[Placement],
    root: Rank,
    links: &L,
    bytes: u64,
    bufs: DragonflyBuffers<'a, '_>,
) -> Result<ListSchedule<'a>, ScheduleError> {
    let DragonflyBuffers { msgs, scratch } = bufs;
    let n = job.len();
    if n == 0 || n > u32::MAX as usize {
        return Err(ScheduleError::Invalid(InvalidParam {
            param: "job size",
            value: n as u64,
            rule: "a job needs 1 ..= 2^32 - 1 ranks",
        }));
    }
    check_rank(root as u64, n as u64)?;
    let sizes = DragonflySizes::of_broadcast(n);
    CapacityError::check("dragonfly scratch", sizes.scratch, scratch.len())?;
    let (order, mut lists, rest) = split_scratch(scratch, n);
    sort_job(job, order);
    let mut b = ListBuilder::new(n as u32, DataLayout::uniform(1, bytes), msgs, rest)?;
    let ctx = Ctx {
        job: Job::Slice(job),
        order,
        root,
        blocks: Blocks::All,
    };
    run(alg, &ctx, links, &mut b, &mut lists)?;
    b.finish(Semantics::Broadcast { root }, None)
}

/// One broadcast of `alg` as `ctx` describes it, into `b`.
fn run<L: GroupLinks>(
    alg: Algorithm,
    ctx: &Ctx<'_>,
    links: &L,
    b: &mut ListBuilder<'_, '_>,
    lists: &mut RankLists<'_>,
) -> Result<(), ScheduleError> {
    match alg {
        Algorithm::Llf => llf::build(ctx, links, b, lists),
        Algorithm::Glf => glf::build(ctx, b, lists.list),
        Algorithm::Forest => forest::build(ctx, links, b, lists),
    }
}

/// All-to-all broadcast at router level by running `alg` from every router in turn
/// (docs/collectives.md §8: GFA2A = [`Algorithm::Glf`], RFA2A = [`Algorithm::Llf`]; one
/// "process" per router, router `t` of group `G` is rank `G·a + t` and owns packet `G·a + t`).
/// `N = g·a` routers; sizes of `bufs` from [`DragonflySizes::of_all_to_all`].
pub fn all_to_all<'a, L: GroupLinks>(
    alg: Algorithm,
    g: u32,
    a: u32,
    links: &L,
    packet_bytes: u64,
    bufs: DragonflyBuffers<'a, '_>,
) -> Result<ListSchedule<'a>, ScheduleError> {
    let DragonflyBuffers { msgs, scratch } = bufs;
    let n = g as u64 * a as u64;
    if g == 0 || a == 0 || n >= u32::MAX as u64 {
        return Err(ScheduleError::Invalid(InvalidParam {
            param: "groups · routers",
            value: n,
            rule: "need at least one group of one router and fewer than 2^32 routers",
        }));
    }
    let nu = n as usize;
    let sizes = DragonflySizes::of_all_to_all(g, a);
    CapacityError::check("dragonfly scratch", sizes.scratch, scratch.len())?;
    let (order, mut lists, rest) = split_scratch(scratch, nu);
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u32; // rank order is (group, router) order
    }
    let mut b = ListBuilder::new(
        n as u32,
        DataLayout::uniform(n as u32, packet_bytes),
        msgs,
        rest,
    )?;
    for src in 0..n as u32 {
        let ctx = Ctx {
            job: Job::Grid { a },
            order,
            root: src,
            blocks: Blocks::Single(src),
        };
        run(alg, &ctx, links, &mut b, &mut lists)?;
    }
    b.finish(Semantics::Allgather, None)
}

/// Where ranks run: an explicit placement, or one rank per router (`rank = G·a + t`).
#[derive(Clone, Copy)]
pub(crate) enum Job<'j> {
    Slice(&'j [Placement]),
    Grid { a: u32 },
}

/// The job, its ranks sorted by `(group, router, rank)`, the root and the blocks every
/// message carries.
pub(crate) struct Ctx<'j> {
    pub job: Job<'j>,
    pub order: &'j [u32],
    pub root: Rank,
    pub blocks: Blocks,
}

impl Ctx<'_> {
    fn at(&self, r: u32) -> Placement {
        match self.job {
            Job::Slice(job) => job[r as usize],
            Job::Grid { a } => Placement {
                group: r / a,
                router: r % a,
            },
        }
    }

    /// Root group and router.
    pub fn root_place(&self) -> Placement {
        self.at(self.root)
    }

    /// Contiguous runs of `order` with the same group: `(group, slice)`, ascending group.
    pub fn groups(&self) -> impl Iterator<Item = (u32, &[u32])> + '_ {
        Runs {
            order: self.order,
            key: move |r: u32| self.at(r).group,
        }
        .map(move |s| (self.at(s[0]).group, s))
    }

    /// Router runs of a group slice: `(router, slice sorted by rank)`.
    pub fn routers<'s>(&'s self, group: &'s [u32]) -> impl Iterator<Item = (u32, &'s [u32])> + 's {
        Runs {
            order: group,
            key: move |r: u32| self.at(r).router,
        }
        .map(move |s| (self.at(s[0]).router, s))
    }

    /// The slice of group `g` (empty if unused).
    pub fn group(&self, g: u32) -> &[u32] {
        let lo = self.order.partition_point(|&r| self.at(r).group < g);
        let hi = self.order.partition_point(|&r| self.at(r).group <= g);
        &self.order[lo..hi]
    }

    /// `list = [head] + the lowest rank of every router of `group` other than `skip`,
    /// sorted by rank`; returns its length.
    pub fn router_reps(&self, list: &mut [u32], head: u32, group: &[u32], skip: u32) -> usize {
        list[0] = head;
        let mut len = 1;
        for (router, run) in self.routers(group) {
            if router != skip {
                list[len] = run[0];
                len += 1;
            }
        }
        list[1..len].sort_unstable();
        len
    }

    /// Last phase on every router of `group`: a binomial tree from the router's holder
    /// (`special` if it is on that router, else the lowest rank) over the router's other
    /// processes in rank order.
    pub fn router_phase(
        &self,
        b: &mut ListBuilder<'_, '_>,
        group: &[u32],
        special: u32,
        list: &mut [u32],
    ) -> Result<(), ScheduleError> {
        for (_, run) in self.routers(group) {
            let holder = if run.contains(&special) {
                special
            } else {
                run[0]
            };
            list[0] = holder;
            let mut len = 1;
            for &r in run.iter().filter(|&&r| r != holder) {
                list[len] = r;
                len += 1;
            }
            binomial_over(b, &list[..len], self.blocks)?;
        }
        Ok(())
    }

    /// LLF/FOREST steps 3–4 in a remote group whose data arrived at `receiver`.
    pub fn remote_group(
        &self,
        b: &mut ListBuilder<'_, '_>,
        group: &[u32],
        receiver: u32,
        list: &mut [u32],
    ) -> Result<(), ScheduleError> {
        let k = self.router_reps(list, receiver, group, self.at(receiver).router);
        binomial_over(b, &list[..k], self.blocks)?;
        self.router_phase(b, group, receiver, list)
    }

    /// LLF/FOREST receiver in a remote group: the lowest rank on the router `r2` that carries
    /// the global link from the root group, else the lowest rank of the group.
    pub fn receiver(&self, group: &[u32], r2: u32) -> u32 {
        self.routers(group)
            .find(|&(router, _)| router == r2)
            .map(|(_, run)| run[0])
            .unwrap_or_else(|| min_rank(group))
    }

    /// LLF/FOREST step 1: binomial tree from the root over one process per other router of
    /// the root group; leaves the holders (root + receivers) sorted by rank in `holders`
    /// and returns their number.
    pub fn root_group_phase(
        &self,
        b: &mut ListBuilder<'_, '_>,
        list: &mut [u32],
        holders: &mut [u32],
    ) -> Result<usize, ScheduleError> {
        let home = self.root_place();
        let k = self.router_reps(list, self.root, self.group(home.group), home.router);
        binomial_over(b, &list[..k], self.blocks)?;
        holders[..k].copy_from_slice(&list[..k]);
        holders[..k].sort_unstable();
        Ok(k)
    }
}

/// Lowest rank of a non-empty slice (0 if empty).
pub(crate) fn min_rank(s: &[u32]) -> u32 {
    s.iter().copied().min().unwrap_or(0)
}

fn sort_job(job: &[Placement], order: &mut [u32]) {
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u32;
    }
    order.sort_unstable_by_key(|&r| {
        let p = job[r as usize];
        (p.group, p.router, r)
    });
}

/// Maximal runs of equal keys in a slice.
struct Runs<'o, K> {
    order: &'o [u32],
    key: K,
}

impl<'o, K: Fn(u32) -> u32> Iterator for Runs<'o, K> {
    type Item = &'o [u32];
    fn next(&mut self) -> Option<&'o [u32]> {
        let first = *self.order.first()?;
        let k = (self.key)(first);
        let len = self
            .order
            .iter()
            .take_while(|&&r| (self.key)(r) == k)
            .count();
        let (run, rest) = self.order.split_at(len);
        self.order = rest;
        Some(run)
    }
}
