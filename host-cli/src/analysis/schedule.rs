//! Collective schedules as people read them (`jumpnet sched show`, [`show`]) and checked
//! symbolically (`jumpnet sched verify`, [`verify`], with the checker's heap storage
//! [`CheckStore`]); ops as printed ([`op_row`]).

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

use jumpnet_core::collective::{Blocks, Dep, Op, Schedule, Semantics};
use jumpnet_core::exec::{self, CheckBuffers, CheckOptions, CheckSizes, ExecCursor, OpStatus};

use crate::builder::network::OwnedNetwork;
use crate::builder::schedule::{program_of, Algorithm, CollectiveRequest, OwnedSchedule};
use crate::io::output::{Render, Section};

/// A message as printed.
#[derive(Debug, Serialize, Clone, PartialEq, Eq)]
pub struct MessageRow {
    /// Step (from 1).
    pub step: u32,
    /// Source rank.
    pub src: u32,
    /// Destination rank.
    pub dst: u32,
    /// Blocks carried.
    pub blocks: String,
    /// Payload bytes.
    pub bytes: u64,
}

/// One op of a rank's program as printed.
#[derive(Debug, Serialize, Clone)]
pub struct OpRow {
    /// Index in the program.
    pub index: usize,
    /// Operation.
    pub op: String,
    /// Peer rank (or rotation amount for permutations).
    pub peer: u32,
    /// Blocks.
    pub blocks: String,
    /// Dependency.
    pub after: String,
}

/// `sched show` result.
#[derive(Debug, Serialize)]
pub struct Show {
    /// Algorithm description.
    pub algorithm: String,
    /// The algorithm `bcast-auto` picked (MPICH selection), as named on the command line;
    /// `null` for every other algorithm.
    pub selected_algorithm: Option<Algorithm>,
    /// Whether the algorithm delivers some blocks more than once by design (what
    /// `sched verify` allows).
    pub redundant_allowed: bool,
    /// Collective semantics.
    pub semantics: String,
    /// Ranks.
    pub ranks: u32,
    /// Steps.
    pub steps: u32,
    /// Messages.
    pub messages: u64,
    /// Bytes of one rank's whole buffer.
    pub buffer_bytes: u64,
    /// Total payload bytes of all messages (exact: sizes reaching 2^64 are rejected).
    pub total_bytes: u64,
    /// Allgather-type schedules: the block each rank starts with (`start_blocks[r]` for
    /// rank `r`; for SFATA/RFATA the packet numbering of docs/collectives.md §7). `null`
    /// for other semantics.
    pub start_blocks: Option<Vec<u32>>,
    /// Largest program (ops).
    pub max_program_ops: usize,
    /// Messages listed (possibly filtered/limited).
    pub message_list: Vec<MessageRow>,
    /// Messages not listed because of the limit.
    pub omitted: u64,
    /// Program of the requested rank.
    pub program: Option<(u32, Vec<OpRow>)>,
}

/// Describes a block set compactly.
pub fn blocks_text(b: Blocks) -> String {
    match b {
        Blocks::All => "all".into(),
        Blocks::Single(i) => format!("{i}"),
        Blocks::Range { start, len } => format!("{start}..{}", start as u64 + len as u64),
        Blocks::TwoRanges(a, c) => format!(
            "{}..{},{}..{}",
            a.start,
            a.start as u64 + a.len as u64,
            c.start,
            c.start as u64 + c.len as u64
        ),
        Blocks::BitMask { bit } => format!("{{i : i & {} != 0}}", 1u64 << bit),
    }
}

fn semantics_text(s: Semantics) -> String {
    match s {
        Semantics::Broadcast { root } => format!("broadcast from rank {root}"),
        Semantics::Allgather => "allgather".into(),
        Semantics::Allreduce => "allreduce".into(),
        Semantics::Alltoall => "alltoall".into(),
    }
}

fn dep_text(d: Dep) -> String {
    match d {
        Dep::None => "-".into(),
        Dep::Op(i) => format!("op {i}"),
        Dep::Earlier => "earlier receives".into(),
    }
}

/// One op as printed (`sched show --rank`, `sched inspect`).
pub fn op_row(index: usize, op: &Op) -> OpRow {
    let (name, peer, blocks, after) = match *op {
        Op::Send {
            peer,
            blocks,
            after,
        } => ("send", peer, blocks_text(blocks), after),
        Op::Recv {
            peer,
            blocks,
            after,
        } => ("recv", peer, blocks_text(blocks), after),
        Op::RecvReduce {
            peer,
            blocks,
            after,
        } => ("recv+reduce", peer, blocks_text(blocks), after),
        Op::Permute {
            reflect,
            shift,
            after,
        } => (
            if reflect {
                "permute (reflect)"
            } else {
                "permute"
            },
            shift,
            String::from("-"),
            after,
        ),
    };
    OpRow {
        index,
        op: name.into(),
        peer,
        blocks,
        after: dep_text(after),
    }
}

/// Builds the `sched show` result: messages of `step` (or all), at most `limit` of them.
pub fn show(
    owned: &OwnedSchedule,
    step: Option<u32>,
    limit: Option<u64>,
    rank: Option<u32>,
) -> Result<Show> {
    let s = owned.schedule()?;
    if let Some(st) = step {
        if st == 0 || st > s.num_steps() {
            bail!("--step {st} is invalid: steps are 1..={}", s.num_steps());
        }
    }
    let mut list = Vec::new();
    let mut omitted = 0u64;
    s.for_each_message(|m| {
        if step.is_some_and(|st| st != m.step) {
            return;
        }
        if limit.is_some_and(|l| list.len() as u64 >= l) {
            omitted += 1;
            return;
        }
        list.push(MessageRow {
            step: m.step,
            src: m.src,
            dst: m.dst,
            blocks: blocks_text(m.blocks),
            bytes: m.bytes,
        });
    });
    let program = match rank {
        Some(r) => Some((
            r,
            program_of(&s, r)?
                .iter()
                .enumerate()
                .map(|(i, op)| op_row(i, op))
                .collect(),
        )),
        None => None,
    };
    Ok(Show {
        algorithm: owned.description.clone(),
        selected_algorithm: owned.selected,
        redundant_allowed: owned.allow_redundant,
        semantics: semantics_text(s.semantics()),
        ranks: s.ranks(),
        steps: s.num_steps(),
        messages: s.num_messages(),
        buffer_bytes: owned.totals.buffer,
        total_bytes: owned.totals.messages,
        start_blocks: (s.semantics() == Semantics::Allgather)
            .then(|| (0..s.ranks()).map(|r| s.own_block(r)).collect()),
        max_program_ops: (0..s.ranks()).map(|r| s.program_len(r)).max().unwrap_or(0),
        message_list: list,
        omitted,
        program,
    })
}

impl Render for Show {
    fn sections(&self) -> Vec<Section> {
        let mut sum = Section::key_values("schedule");
        sum.kv("algorithm", &self.algorithm);
        if let Some(a) = self.selected_algorithm {
            sum.kv("selected algorithm", a.name());
        }
        sum.kv("semantics", &self.semantics)
            .kv("ranks", self.ranks)
            .kv("steps", self.steps)
            .kv("messages", self.messages)
            .kv("buffer bytes (per rank)", self.buffer_bytes)
            .kv("total bytes", self.total_bytes)
            .kv(
                "redundant deliveries allowed",
                redundancy_text(self.redundant_allowed),
            )
            .kv("largest program (ops)", self.max_program_ops);
        let mut msgs = Section::new(
            if self.omitted > 0 {
                format!(
                    "messages (first {}, {} more; use --limit)",
                    self.message_list.len(),
                    self.omitted
                )
            } else {
                "messages".to_string()
            },
            &["step", "src", "dst", "blocks", "bytes"],
        );
        for m in &self.message_list {
            msgs.row([
                m.step.to_string(),
                m.src.to_string(),
                m.dst.to_string(),
                m.blocks.clone(),
                m.bytes.to_string(),
            ]);
        }
        let mut out = vec![sum, msgs];
        // Tables list start blocks only when they are not simply rank r → block r.
        let numbered = |b: &&Vec<u32>| b.iter().enumerate().any(|(r, &blk)| blk as usize != r);
        if let Some(blocks) = self.start_blocks.as_ref().filter(numbered) {
            let shown = self.message_list.len().max(STARTS_SHOWN);
            let mut b = Section::new(
                if blocks.len() > shown {
                    format!(
                        "start blocks (first {shown} ranks, {} more; use --json)",
                        blocks.len() - shown
                    )
                } else {
                    "start blocks".to_string()
                },
                &["rank", "block"],
            );
            for (r, blk) in blocks.iter().enumerate().take(shown) {
                b.row([r.to_string(), blk.to_string()]);
            }
            out.push(b);
        }
        if let Some((r, ops)) = &self.program {
            let mut p = Section::new(
                format!("program of rank {r}"),
                &["op", "kind", "peer/shift", "blocks", "after"],
            );
            for o in ops {
                p.row([
                    o.index.to_string(),
                    o.op.clone(),
                    o.peer.to_string(),
                    o.blocks.clone(),
                    o.after.clone(),
                ]);
            }
            out.push(p);
        }
        out
    }
}

/// Ranks whose start block a table lists at least.
const STARTS_SHOWN: usize = 32;

fn redundancy_text(allowed: bool) -> &'static str {
    if allowed {
        "yes (part of the algorithm)"
    } else {
        "no (checked strictly)"
    }
}

/// `sched verify` result.
#[derive(Debug, Serialize)]
pub struct Verify {
    /// Algorithm.
    pub algorithm: String,
    /// The algorithm `bcast-auto` picked (`null` for every other algorithm).
    pub selected_algorithm: Option<Algorithm>,
    /// Whether the check allowed redundant deliveries (only for algorithms that make them
    /// by design).
    pub redundant_allowed: bool,
    /// Semantics verified.
    pub semantics: String,
    /// Ranks.
    pub ranks: u32,
    /// Messages executed.
    pub messages: u64,
    /// Total payload bytes of all messages.
    pub total_bytes: u64,
    /// Message-passing rounds.
    pub rounds: u64,
    /// Deliveries that brought nothing new.
    pub redundant: u64,
    /// Interleaving seeds checked (0 = rank order).
    pub seeds: Vec<u64>,
}

impl Render for Verify {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values("symbolic check passed");
        s.kv("algorithm", &self.algorithm);
        if let Some(a) = self.selected_algorithm {
            s.kv("selected algorithm", a.name());
        }
        s.kv("semantics", &self.semantics)
            .kv("ranks", self.ranks)
            .kv("messages", self.messages)
            .kv("total bytes", self.total_bytes)
            .kv("rounds", self.rounds)
            .kv("redundant deliveries", self.redundant)
            .kv(
                "redundant deliveries allowed",
                redundancy_text(self.redundant_allowed),
            )
            .kv(
                "interleavings",
                self.seeds
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        vec![s]
    }
}

/// Heap storage for the symbolic checker (`exec::check`) of one schedule: the buffers
/// [`CheckSizes`] asks for, reusable across runs.
#[derive(Debug)]
pub struct CheckStore {
    ops: Vec<Op>,
    status: Vec<OpStatus>,
    stage: Vec<u32>,
    starts: Vec<u32>,
    cursors: Vec<ExecCursor>,
    hashes: Vec<u64>,
    state: Vec<u64>,
    staging: Vec<u64>,
}

impl CheckStore {
    /// The bytes of the buffers [`CheckStore::for_schedule`] allocates.
    pub fn bytes_for(z: &CheckSizes) -> u128 {
        use std::mem::size_of;
        let per_op = size_of::<Op>() + size_of::<OpStatus>() + size_of::<u32>();
        let per_rank = size_of::<u32>() + size_of::<ExecCursor>() + 2 * size_of::<u64>();
        z.ops as u128 * per_op as u128
            + (z.ranks as u128 + 1) * per_rank as u128
            + (z.state_words as u128 + z.staging_words as u128) * 8
    }

    /// Buffers sized for `schedule`, refused first when they do not fit the memory budget
    /// ([`crate::budget::check_memory`], naming the ranks).
    pub fn try_for_schedule<S: Schedule>(schedule: &S) -> Result<Self> {
        let z = CheckSizes::of(schedule);
        crate::budget::check_memory(
            &format!(
                "the symbolic check of {} ranks (--ranks / -n) and {} ops",
                z.ranks, z.ops
            ),
            Self::bytes_for(&z),
        )?;
        Ok(Self::for_schedule(schedule))
    }

    /// Buffers sized for `schedule`.
    pub fn for_schedule<S: Schedule>(schedule: &S) -> Self {
        let z = CheckSizes::of(schedule);
        let filler = Op::Send {
            peer: 0,
            blocks: Blocks::All,
            after: Dep::None,
        };
        CheckStore {
            ops: vec![filler; z.ops],
            status: vec![OpStatus::Pending; z.ops],
            stage: vec![0; z.ops],
            starts: vec![0; z.ranks + 1],
            cursors: vec![ExecCursor::default(); z.ranks],
            hashes: vec![0; 2 * z.ranks],
            state: vec![0; z.state_words],
            staging: vec![0; z.staging_words],
        }
    }

    /// The buffers, borrowed for one `exec::check` run.
    pub fn buffers(&mut self) -> CheckBuffers<'_> {
        CheckBuffers {
            ops: &mut self.ops,
            status: &mut self.status,
            stage: &mut self.stage,
            starts: &mut self.starts,
            cursors: &mut self.cursors,
            hashes: &mut self.hashes,
            state: &mut self.state,
            staging: &mut self.staging,
        }
    }
}

/// Refuses the symbolic check of `owned` (built from `req` on `net`) when its buffers
/// ([`CheckStore::bytes_for`]) exceed the memory budget ([`crate::budget::memory_budget`]):
/// the error names `--ranks`, the memory needed and the largest rank count that fits, found
/// by building the schedule for fewer ranks (counts the algorithm does not take, such as
/// non-powers of two, are skipped).
pub fn check_verify_memory(
    req: &CollectiveRequest,
    net: Option<&OwnedNetwork>,
    owned: &OwnedSchedule,
) -> Result<()> {
    let s = owned.schedule()?;
    let z = CheckSizes::of(&s);
    let (need, limit) = (
        CheckStore::bytes_for(&z),
        crate::budget::memory_budget() as u128,
    );
    if need <= limit {
        return Ok(());
    }
    let bytes_of = |n: u64| -> Option<u128> {
        let r = CollectiveRequest {
            ranks: Some(u32::try_from(n).ok()?),
            ..req.clone()
        };
        let o = crate::builder::schedule::build(&r, net).ok()?;
        Some(CheckStore::bytes_for(&CheckSizes::of(&o.schedule().ok()?)))
    };
    // Counts that cannot be built count as fitting in the search, then are skipped.
    let top = crate::budget::largest_fitting(s.ranks() as u64, limit, |n| bytes_of(n).unwrap_or(0));
    let fits = (1..=top)
        .rev()
        .take(1 << 22)
        .find(|&n| bytes_of(n).is_some_and(|b| b <= limit));
    bail!(
        "the symbolic check of {} ranks (--ranks / -n) and {} ops: {} needed, more than the \
         memory limit of {} (half the memory available, less under the process's limits): {}",
        z.ranks,
        z.ops,
        crate::budget::format_bytes(need),
        crate::budget::format_bytes(limit),
        match fits {
            Some(n) => format!("the largest --ranks that fits is {n}"),
            None => "no --ranks of this algorithm fits".to_string(),
        }
    )
}

/// Runs the symbolic checker in rank order and under `extra_seeds` random interleavings.
pub fn verify(owned: &OwnedSchedule, extra_seeds: u32) -> Result<Verify> {
    let s = owned.schedule()?;
    let mut store = CheckStore::try_for_schedule(&s)?;
    let seeds: Vec<u64> = std::iter::once(0)
        .chain((1..=extra_seeds as u64).map(|i| i * 0x9E37))
        .collect();
    let mut last = None;
    for &seed in &seeds {
        let report = exec::check(
            &s,
            store.buffers(),
            CheckOptions {
                allow_redundant: owned.allow_redundant,
                seed,
            },
        )
        .with_context(|| format!("verification FAILED ({})", owned.description))?;
        last = Some(report);
    }
    let r = last.ok_or_else(|| anyhow!("no check ran"))?;
    Ok(Verify {
        algorithm: owned.description.clone(),
        selected_algorithm: owned.selected,
        redundant_allowed: owned.allow_redundant,
        semantics: semantics_text(s.semantics()),
        ranks: s.ranks(),
        messages: r.messages,
        total_bytes: owned.totals.messages,
        rounds: r.rounds,
        redundant: r.redundant,
        seeds,
    })
}
