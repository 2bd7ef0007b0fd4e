//! Symbolic checker: runs every rank's program through [`Executor`] on tagged data and
//! verifies the collective's semantics (spec/collectives.md; ARCHITECTURE.md §5 layer 1).
//!
//! Data model. Each rank holds `slots` blocks ([`crate::collective::DataLayout`]); each
//! block is `width` 64-bit words:
//! * broadcast / allgather: one word, non-zero when the rank holds the block (a block only
//!   ever moves into the slot of the same index, so holding slot `j` means holding block `j`);
//! * allreduce: a bitset of the `n` contributions the block has accumulated;
//! * alltoall: one word, `1 + src·n + dst` for the block sent by `src` to `dst` (0 = none).
//!
//! A send snapshots the sender's blocks (failing if it sends a block it does not hold) and
//! hands the message to the receiver's executor at once; the data lands when the receiver's
//! executor delivers it. A plain receive overwrites; a delivery that brings nothing new is
//! *redundant* (an error unless [`CheckOptions::allow_redundant`]); a reducing receive
//! that would count a contribution twice is an error. When no rank can make progress and some
//! are unfinished, the checker reports a deadlock. Before running it verifies that the
//! programs' sends (per rank, in order) and receives (per rank, as a multiset) are exactly the
//! schedule's global message list, that the list is in step order and that `num_messages`
//! and the message byte counts are right.

use super::executor::{Action, ExecCursor, ExecError, Executor, OpStatus};
use crate::collective::{Blocks, Message, Op, Rank, Schedule, ScheduleError, Semantics};
use crate::rng::{hash64, Rng};
use core::fmt;

/// Options of [`check`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Accept deliveries of blocks a rank already holds (count them instead of failing).
    pub allow_redundant: bool,
    /// 0: poll ranks in rank order, each until it waits. Otherwise a seed for a pseudo-random
    /// interleaving: every round visits the ranks in a random cyclic order with a random
    /// stride and takes one action per visit, so messages arrive in other orders.
    pub seed: u64,
}

/// Result of a successful [`check`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Messages sent during execution.
    pub messages: u64,
    /// Message-passing rounds until every rank finished.
    pub rounds: u64,
    /// Block deliveries that brought a rank nothing new.
    pub redundant: u64,
}

/// Buffer sizes [`check`] needs for a schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckSizes {
    /// Ranks `n` (`starts` needs `n + 1`, `cursors` `n`, `hashes` `2n` entries).
    pub ranks: usize,
    /// Program ops over all ranks (`ops`, `status` and `stage` entries).
    pub ops: usize,
    /// Words of block state (`n · slots · width`).
    pub state_words: usize,
    /// Words for message payloads in flight (one snapshot per message).
    pub staging_words: usize,
    /// Words per block.
    pub width: usize,
}

impl CheckSizes {
    /// The sizes `schedule` needs (iterates its messages once).
    pub fn of<S: Schedule>(schedule: &S) -> Self {
        let n = schedule.ranks() as usize;
        let width = width_of(schedule.semantics(), schedule.ranks());
        let slots = schedule.layout().slots;
        let mut staging = 0usize;
        schedule.for_each_message(|m| {
            staging = staging.saturating_add(m.blocks.count(slots) as usize * width)
        });
        CheckSizes {
            ranks: n,
            ops: schedule.total_program_len(),
            state_words: n.saturating_mul(slots as usize).saturating_mul(width),
            staging_words: staging,
            width,
        }
    }
}

/// Caller storage for [`check`] (sizes from [`CheckSizes::of`]).
#[derive(Debug)]
pub struct CheckBuffers<'a> {
    /// All programs, concatenated (`ops` entries).
    pub ops: &'a mut [Op],
    /// Executor op status (`ops` entries).
    pub status: &'a mut [OpStatus],
    /// Payload offset per receive op (`ops` entries).
    pub stage: &'a mut [u32],
    /// Program start per rank (`ranks + 1` entries).
    pub starts: &'a mut [u32],
    /// Executor state per rank (`ranks` entries).
    pub cursors: &'a mut [ExecCursor],
    /// Per-rank message-list fingerprints (`2 · ranks` entries).
    pub hashes: &'a mut [u64],
    /// Block state (`state_words` entries).
    pub state: &'a mut [u64],
    /// Message payloads (`staging_words` entries).
    pub staging: &'a mut [u64],
}

/// The first violation [`check`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// A buffer is too small.
    Capacity {
        /// Which buffer.
        what: &'static str,
        /// Entries needed.
        needed: u64,
        /// Entries given.
        available: u64,
    },
    /// Program generation failed.
    Schedule {
        /// Rank whose program failed.
        rank: Rank,
        /// The error.
        error: ScheduleError,
    },
    /// A rank's executor reported a protocol error.
    Exec {
        /// Rank.
        rank: Rank,
        /// The error.
        error: ExecError,
    },
    /// `num_messages()` differs from the number of messages listed.
    MessageCount {
        /// What `num_messages()` claims.
        claimed: u64,
        /// What `for_each_message` yields.
        listed: u64,
    },
    /// The global list is not in ascending step order, or a step is outside `1..=num_steps`.
    StepOrder {
        /// Offending message.
        message: Message,
    },
    /// A listed message names a rank or block out of range.
    BadMessage {
        /// Offending message.
        message: Message,
    },
    /// A listed message's byte count differs from the layout's size of its blocks.
    Bytes {
        /// Offending message.
        message: Message,
        /// Size computed from the layout.
        expected: u64,
    },
    /// The sends (`sends = true`, compared in order) or the receives (as a multiset) of
    /// `rank`'s program differ from the global message list.
    ProgramMismatch {
        /// Rank.
        rank: Rank,
        /// Whether the sends (else the receives) differ.
        sends: bool,
    },
    /// `rank` sends `block`, which it does not hold (op `op`).
    NotHeld {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
        /// Block.
        block: u32,
    },
    /// `rank` received `block`, which it already held (op `op`).
    Redundant {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
        /// Block.
        block: u32,
    },
    /// A reduction at `rank` would count `contribution` twice in `block` (op `op`).
    DoubleCount {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
        /// Block.
        block: u32,
        /// Rank whose contribution is duplicated.
        contribution: Rank,
    },
    /// A reducing receive in an alltoall (blocks cannot be combined there).
    InvalidReduce {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
    },
    /// No rank can make progress; `rank` is the first unfinished rank, `op` its first
    /// unfinished op.
    Deadlock {
        /// Rank.
        rank: Rank,
        /// Op index.
        op: u32,
    },
    /// Broadcast/allgather: `rank` ends without `block`.
    Missing {
        /// Rank.
        rank: Rank,
        /// Block.
        block: u32,
    },
    /// Allreduce: `rank`'s `block` lacks `contribution`.
    Incomplete {
        /// Rank.
        rank: Rank,
        /// Block.
        block: u32,
        /// Missing contribution.
        contribution: Rank,
    },
    /// Alltoall: slot `slot` of `rank` should hold the block sent by rank `slot` to `rank`
    /// but holds `found` (`(src, dst)`, or nothing).
    WrongBlock {
        /// Rank.
        rank: Rank,
        /// Slot.
        slot: u32,
        /// What it holds.
        found: Option<(Rank, Rank)>,
    },
    /// Allgather: the ranks' own blocks are not a permutation of the blocks (`rank` owns
    /// `block`, which is out of range or owned twice).
    OwnBlock {
        /// Rank.
        rank: Rank,
        /// Block.
        block: u32,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CheckError::*;
        match *self {
            Capacity { what, needed, available } => {
                write!(f, "checker buffer `{what}`: need {needed} entries, got {available}")
            }
            Schedule { rank, error } => write!(f, "program of rank {rank}: {error}"),
            Exec { rank, error } => write!(f, "rank {rank}: {error}"),
            MessageCount { claimed, listed } => {
                write!(f, "num_messages() says {claimed}, the message list has {listed}")
            }
            StepOrder { message } => {
                write!(f, "message {message:?} breaks ascending step order or the step range")
            }
            BadMessage { message } => write!(f, "message {message:?} names a rank or block out of range"),
            Bytes { message, expected } => {
                write!(f, "message {message:?} should carry {expected} bytes")
            }
            ProgramMismatch { rank, sends } => write!(
                f,
                "the {} of rank {rank}'s program differ from the global message list",
                if sends { "sends" } else { "receives" }
            ),
            NotHeld { rank, op, block } => {
                write!(f, "rank {rank} op {op} sends block {block}, which it does not hold")
            }
            Redundant { rank, op, block } => {
                write!(f, "rank {rank} op {op} receives block {block}, which it already holds")
            }
            DoubleCount { rank, op, block, contribution } => write!(
                f,
                "rank {rank} op {op} would count rank {contribution}'s contribution to block {block} twice"
            ),
            InvalidReduce { rank, op } => {
                write!(f, "rank {rank} op {op} reduces alltoall blocks, which cannot be combined")
            }
            Deadlock { rank, op } => write!(
                f,
                "deadlock: no rank can progress; rank {rank} is stuck at op {op}"
            ),
            Missing { rank, block } => write!(f, "rank {rank} ends without block {block}"),
            Incomplete { rank, block, contribution } => write!(
                f,
                "rank {rank} ends with block {block} lacking rank {contribution}'s contribution"
            ),
            WrongBlock { rank, slot, found } => match found {
                Some((s, d)) => write!(
                    f,
                    "rank {rank} slot {slot} holds the block {s}→{d}, expected {slot}→{rank}"
                ),
                None => write!(f, "rank {rank} slot {slot} is empty, expected the block {slot}→{rank}"),
            },
            OwnBlock { rank, block } => write!(
                f,
                "rank {rank} owns block {block}, which is out of range or owned by another rank"
            ),
        }
    }
}

fn width_of(sem: Semantics, n: u32) -> usize {
    match sem {
        Semantics::Allreduce => (n as usize).div_ceil(64).max(1),
        _ => 1,
    }
}

fn need(what: &'static str, needed: usize, available: usize) -> Result<(), CheckError> {
    if available < needed {
        Err(CheckError::Capacity {
            what,
            needed: needed as u64,
            available: available as u64,
        })
    } else {
        Ok(())
    }
}

fn blocks_hash(seed: u64, b: Blocks) -> u64 {
    let parts: [u64; 5] = match b {
        Blocks::All => [1, 0, 0, 0, 0],
        Blocks::Single(i) => [2, i as u64, 0, 0, 0],
        Blocks::Range { start, len } => [3, start as u64, len as u64, 0, 0],
        Blocks::TwoRanges(a, c) => [
            4,
            a.start as u64,
            a.len as u64,
            c.start as u64,
            c.len as u64,
        ],
        Blocks::BitMask { bit } => [5, bit as u64, 0, 0, 0],
    };
    parts.iter().fold(seed, |h, &p| hash64(h, p))
}

fn item_hash(peer: Rank, b: Blocks) -> u64 {
    blocks_hash(hash64(0x5eed, peer as u64), b)
}

/// Runs and verifies `schedule` (see the module documentation). `bufs` must be at least as
/// large as [`CheckSizes::of`] says.
pub fn check<S: Schedule>(
    schedule: &S,
    bufs: CheckBuffers<'_>,
    opts: CheckOptions,
) -> Result<CheckReport, CheckError> {
    let CheckBuffers {
        ops,
        status,
        stage,
        starts,
        cursors,
        hashes,
        state,
        staging,
    } = bufs;
    let n = schedule.ranks();
    let nu = n as usize;
    let sem = schedule.semantics();
    let layout = schedule.layout();
    let slots = layout.slots;
    let w = width_of(sem, n);
    need("starts", nu + 1, starts.len())?;
    need("cursors", nu, cursors.len())?;
    need("hashes", 2 * nu, hashes.len())?;
    need("state", nu * slots as usize * w, state.len())?;

    // 1. Programs.
    need("ops", schedule.total_program_len(), ops.len())?;
    starts[0] = 0;
    let mut total = 0usize;
    for r in 0..n {
        let out = ops.get_mut(total..).unwrap_or(&mut []);
        let len = schedule
            .program(r, out)
            .map_err(|error| CheckError::Schedule { rank: r, error })?;
        total += len;
        starts[r as usize + 1] = total as u32;
    }
    need("status", total, status.len())?;
    need("stage", total, stage.len())?;
    let ops = &ops[..total];

    // 2. Global message list fingerprints.
    let (send_h, recv_h) = hashes.split_at_mut(nu);
    send_h.fill(0);
    recv_h[..nu].fill(0);
    let mut listed = 0u64;
    let mut last_step = 0u32;
    let steps = schedule.num_steps();
    let mut bad: Option<CheckError> = None;
    schedule.for_each_message(|m| {
        listed += 1;
        if bad.is_some() {
            return;
        }
        if m.step < last_step || m.step == 0 || m.step > steps {
            bad = Some(CheckError::StepOrder { message: m });
        } else if m.src >= n || m.dst >= n || !m.blocks.fits(slots) {
            bad = Some(CheckError::BadMessage { message: m });
        } else if m.bytes != layout.bytes(m.blocks) {
            bad = Some(CheckError::Bytes {
                message: m,
                expected: layout.bytes(m.blocks),
            });
        } else {
            let s = &mut send_h[m.src as usize];
            *s = hash64(*s, item_hash(m.dst, m.blocks));
            let r = &mut recv_h[m.dst as usize];
            *r = r.wrapping_add(item_hash(m.src, m.blocks));
        }
        last_step = m.step;
    });
    if let Some(e) = bad {
        return Err(e);
    }
    if listed != schedule.num_messages() {
        return Err(CheckError::MessageCount {
            claimed: schedule.num_messages(),
            listed,
        });
    }

    // 3. Programs against the list, payload offsets.
    let mut off = 0usize;
    for r in 0..nu {
        let (a, b) = (starts[r] as usize, starts[r + 1] as usize);
        let (mut sh, mut rh) = (0u64, 0u64);
        for (i, op) in ops[a..b].iter().enumerate() {
            stage[a + i] = u32::MAX;
            if let Some((peer, blocks)) = op.as_send() {
                sh = hash64(sh, item_hash(peer, blocks));
            } else if let Some((peer, blocks)) = op.as_recv() {
                rh = rh.wrapping_add(item_hash(peer, blocks));
                stage[a + i] = off as u32;
                off += blocks.count(slots) as usize * w;
            }
        }
        if sh != send_h[r] {
            return Err(CheckError::ProgramMismatch {
                rank: r as u32,
                sends: true,
            });
        }
        if rh != recv_h[r] {
            return Err(CheckError::ProgramMismatch {
                rank: r as u32,
                sends: false,
            });
        }
    }
    need("staging", off, staging.len())?;

    // 4. Executors and initial data.
    for r in 0..nu {
        let (a, b) = (starts[r] as usize, starts[r + 1] as usize);
        let ex =
            Executor::new(&ops[a..b], &mut status[a..b]).map_err(|error| CheckError::Exec {
                rank: r as u32,
                error,
            })?;
        cursors[r] = ex.cursor();
    }
    init_state(schedule, sem, n, slots, w, state, hashes)?;

    // 5. Message passing until everyone is done.
    let mut report = CheckReport::default();
    let ctx = Ctx {
        n,
        slots,
        w,
        sem,
        opts,
    };
    let mut rng = Rng::new(opts.seed);
    loop {
        let mut progress = false;
        let (start, stride) = if opts.seed == 0 || nu < 2 {
            (0, 1)
        } else {
            let stride = loop {
                let c = 1 + rng.index(nu - 1);
                if gcd(c, nu) == 1 {
                    break c;
                }
            };
            (rng.index(nu), stride)
        };
        for i in 0..nu {
            let r = (start + i * stride) % nu;
            for k in 0u64.. {
                if opts.seed != 0 && k > 0 && coin(&mut rng) {
                    break;
                }
                let (a, b) = (starts[r] as usize, starts[r + 1] as usize);
                let action = {
                    let mut ex = Executor::resume(&ops[a..b], &mut status[a..b], cursors[r]);
                    let act = ex.poll(report.rounds).map_err(|error| CheckError::Exec {
                        rank: r as u32,
                        error,
                    })?;
                    cursors[r] = ex.cursor();
                    act
                };
                match action {
                    Action::Wait | Action::Done => break,
                    Action::Send { op, peer, blocks } => {
                        progress = true;
                        report.messages += 1;
                        if peer >= n {
                            return Err(CheckError::Exec {
                                rank: r as u32,
                                error: ExecError::UnexpectedMessage { peer, blocks },
                            });
                        }
                        let d = peer as usize;
                        let (da, db) = (starts[d] as usize, starts[d + 1] as usize);
                        let j = {
                            let mut ex =
                                Executor::resume(&ops[da..db], &mut status[da..db], cursors[d]);
                            let j = ex
                                .on_receive(r as u32, blocks)
                                .map_err(|error| CheckError::Exec { rank: peer, error })?;
                            cursors[d] = ex.cursor();
                            j
                        };
                        let at = stage[da + j as usize] as usize;
                        ctx.snapshot(state, staging, r as u32, op, blocks, at)?;
                    }
                    Action::Deliver {
                        op, blocks, reduce, ..
                    } => {
                        progress = true;
                        let at = stage[a + op as usize] as usize;
                        report.redundant +=
                            ctx.apply(state, staging, r as u32, op, blocks, reduce, at)?;
                    }
                    Action::Permute { reflect, shift, .. } => {
                        progress = true;
                        ctx.permute(state, r as u32, reflect, shift);
                    }
                }
            }
        }
        let stuck = (0..nu).find(|&r| cursors[r].remaining > 0);
        match stuck {
            None => break,
            Some(r) if !progress => {
                return Err(CheckError::Deadlock {
                    rank: r as u32,
                    op: cursors[r].done_prefix,
                })
            }
            Some(_) => report.rounds += 1,
        }
    }
    ctx.verify(state)?;
    Ok(report)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Random interleaving: after at least one poll, leave the current rank with probability 1/2.
fn coin(rng: &mut Rng) -> bool {
    rng.next() & 1 == 0
}

fn init_state<S: Schedule>(
    schedule: &S,
    sem: Semantics,
    n: u32,
    slots: u32,
    w: usize,
    state: &mut [u64],
    scratch: &mut [u64],
) -> Result<(), CheckError> {
    let (nu, su) = (n as usize, slots as usize);
    let state = &mut state[..nu * su * w];
    state.fill(0);
    match sem {
        Semantics::Broadcast { root } => {
            if root >= n {
                return Err(CheckError::Schedule {
                    rank: root,
                    error: ScheduleError::RankOutOfRange {
                        rank: root as u64,
                        n: n as u64,
                    },
                });
            }
            let base = root as usize * su;
            for s in 0..su {
                state[base + s] = 1;
            }
        }
        Semantics::Allgather => {
            // `scratch` (2n words) doubles as a bitmap of owned blocks.
            if slots != n {
                return Err(CheckError::OwnBlock {
                    rank: 0,
                    block: slots,
                });
            }
            let bitmap = &mut scratch[..nu.div_ceil(64)];
            bitmap.fill(0);
            for r in 0..n {
                let b = schedule.own_block(r);
                let (wi, bit) = (b as usize / 64, 1u64 << (b % 64));
                if b >= slots || bitmap[wi] & bit != 0 {
                    return Err(CheckError::OwnBlock { rank: r, block: b });
                }
                bitmap[wi] |= bit;
                state[r as usize * su + b as usize] = 1;
            }
        }
        Semantics::Allreduce => {
            for r in 0..nu {
                for s in 0..su {
                    state[(r * su + s) * w + r / 64] = 1 << (r % 64);
                }
            }
        }
        Semantics::Alltoall => {
            if slots != n {
                return Err(CheckError::WrongBlock {
                    rank: 0,
                    slot: slots,
                    found: None,
                });
            }
            for r in 0..nu {
                for j in 0..nu {
                    state[r * su + j] = 1 + (r * nu + j) as u64;
                }
            }
        }
    }
    Ok(())
}

struct Ctx {
    n: u32,
    slots: u32,
    w: usize,
    sem: Semantics,
    opts: CheckOptions,
}

impl Ctx {
    fn slot_at(&self, r: Rank, s: u32) -> usize {
        (r as usize * self.slots as usize + s as usize) * self.w
    }

    fn snapshot(
        &self,
        state: &[u64],
        staging: &mut [u64],
        r: Rank,
        op: u32,
        blocks: Blocks,
        mut at: usize,
    ) -> Result<(), CheckError> {
        let mut err = None;
        blocks.for_each(self.slots, |s| {
            if err.is_some() {
                return;
            }
            let src = &state[self.slot_at(r, s)..self.slot_at(r, s) + self.w];
            if src.iter().all(|&x| x == 0) {
                err = Some(CheckError::NotHeld {
                    rank: r,
                    op,
                    block: s,
                });
                return;
            }
            staging[at..at + self.w].copy_from_slice(src);
            at += self.w;
        });
        err.map_or(Ok(()), Err)
    }

    #[allow(clippy::too_many_arguments)]
    fn apply(
        &self,
        state: &mut [u64],
        staging: &[u64],
        r: Rank,
        op: u32,
        blocks: Blocks,
        reduce: bool,
        mut at: usize,
    ) -> Result<u64, CheckError> {
        let mut err = None;
        let mut redundant = 0u64;
        blocks.for_each(self.slots, |s| {
            if err.is_some() {
                return;
            }
            let i = self.slot_at(r, s);
            let dst = &mut state[i..i + self.w];
            let inc = &staging[at..at + self.w];
            at += self.w;
            if reduce {
                if self.sem == Semantics::Alltoall {
                    err = Some(CheckError::InvalidReduce { rank: r, op });
                    return;
                }
                for (k, (d, x)) in dst.iter_mut().zip(inc).enumerate() {
                    let both = *d & *x;
                    if both != 0 {
                        err = Some(CheckError::DoubleCount {
                            rank: r,
                            op,
                            block: s,
                            contribution: (k * 64) as u32 + both.trailing_zeros(),
                        });
                        return;
                    }
                    *d |= *x;
                }
            } else {
                let nothing_new = if self.sem == Semantics::Alltoall {
                    dst[0] == inc[0]
                } else {
                    dst.iter().zip(inc).all(|(d, x)| x & !d == 0)
                };
                if nothing_new {
                    if !self.opts.allow_redundant {
                        err = Some(CheckError::Redundant {
                            rank: r,
                            op,
                            block: s,
                        });
                        return;
                    }
                    redundant += 1;
                }
                dst.copy_from_slice(inc);
            }
        });
        err.map_or(Ok(redundant), Err)
    }

    fn reverse(&self, state: &mut [u64], r: Rank, lo: u32, hi: u32) {
        if hi <= lo {
            return;
        }
        let (mut i, mut j) = (lo, hi - 1);
        while i < j {
            for k in 0..self.w {
                state.swap(self.slot_at(r, i) + k, self.slot_at(r, j) + k);
            }
            i += 1;
            j -= 1;
        }
    }

    /// `new[i] = old[(shift ± i) mod S]` in place: rotate left by `shift`, then (for the
    /// reflected form) reverse slots `1..S`.
    fn permute(&self, state: &mut [u64], r: Rank, reflect: bool, shift: u32) {
        let s = self.slots;
        if s == 0 {
            return;
        }
        let k = shift % s;
        self.reverse(state, r, 0, k);
        self.reverse(state, r, k, s);
        self.reverse(state, r, 0, s);
        if reflect {
            self.reverse(state, r, 1, s);
        }
    }

    fn verify(&self, state: &[u64]) -> Result<(), CheckError> {
        let n = self.n;
        for r in 0..n {
            for s in 0..self.slots {
                let i = self.slot_at(r, s);
                let v = &state[i..i + self.w];
                match self.sem {
                    Semantics::Broadcast { .. } | Semantics::Allgather => {
                        if v[0] == 0 {
                            return Err(CheckError::Missing { rank: r, block: s });
                        }
                    }
                    Semantics::Allreduce => {
                        for c in 0..n {
                            if v[c as usize / 64] & (1 << (c % 64)) == 0 {
                                return Err(CheckError::Incomplete {
                                    rank: r,
                                    block: s,
                                    contribution: c,
                                });
                            }
                        }
                    }
                    Semantics::Alltoall => {
                        let want = 1 + s as u64 * n as u64 + r as u64;
                        if v[0] != want {
                            let found = (v[0] != 0).then(|| {
                                let t = v[0] - 1;
                                ((t / n as u64) as u32, (t % n as u64) as u32)
                            });
                            return Err(CheckError::WrongBlock {
                                rank: r,
                                slot: s,
                                found,
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
