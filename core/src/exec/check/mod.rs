//! Symbolic checker: runs every rank's program through [`Executor`] on tagged data and
//! verifies the collective's semantics (docs/collectives.md; docs/architecture.md §5 layer 1).
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

mod data;
mod error;

pub use error::CheckError;

use super::executor::{Action, ExecCursor, ExecError, Executor, OpStatus};
use crate::collective::{Blocks, Op, Rank, Schedule};
use crate::error::CapacityError;
use crate::rng::{hash64, Rng};
use data::{width_of, BlockData, Ctx, Transfer};

/// Options of [`check`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Accept deliveries of blocks a rank already holds (count them instead of failing).
    pub allow_redundant: bool,
    /// 0: poll ranks in rank order, each until it waits. Otherwise a seed for a pseudo-random
    /// interleaving: every round visits the ranks in a random cyclic order with a random
    /// stride, taking one or more actions per visit, so messages arrive in other orders.
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
///
/// # Examples
///
/// Bruck's all-to-all over 5 ranks, run symbolically: every rank ends with exactly the block
/// each rank sent it, and nothing is delivered twice.
///
/// ```
/// use jumpnet_core::collective::{Blocks, Bruck, Dep, Op};
/// use jumpnet_core::exec::{check, CheckBuffers, CheckOptions, CheckSizes, ExecCursor, OpStatus};
///
/// let bruck = Bruck::new(5, 8)?;
/// let s = CheckSizes::of(&bruck);
/// let blank = Op::Send { peer: 0, blocks: Blocks::All, after: Dep::None };
/// let buffers = CheckBuffers {
///     ops: &mut vec![blank; s.ops],
///     status: &mut vec![OpStatus::Pending; s.ops],
///     stage: &mut vec![0; s.ops],
///     starts: &mut vec![0; s.ranks + 1],
///     cursors: &mut vec![ExecCursor::default(); s.ranks],
///     hashes: &mut vec![0; 2 * s.ranks],
///     state: &mut vec![0; s.state_words],
///     staging: &mut vec![0; s.staging_words],
/// };
/// let report = check(&bruck, buffers, CheckOptions::default())?;
/// // n·ceil(log2 n) = 5·3 messages.
/// assert_eq!((report.messages, report.redundant), (15, 0));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
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
    let slots = schedule.layout().slots;
    let ctx = Ctx {
        n,
        slots,
        w: width_of(sem, n),
        sem,
        opts,
    };
    CapacityError::check("starts", nu + 1, starts.len())?;
    CapacityError::check("cursors", nu, cursors.len())?;
    CapacityError::check("hashes", 2 * nu, hashes.len())?;
    CapacityError::check("state", nu * slots as usize * ctx.w, state.len())?;

    // 1. Programs.
    let total = load_programs(schedule, ops, starts)?;
    CapacityError::check("status", total, status.len())?;
    CapacityError::check("stage", total, stage.len())?;
    let ops = &ops[..total];
    // 2. Global message list fingerprints.
    fingerprint_messages(schedule, hashes)?;
    // 3. Programs against the list, payload offsets.
    let staged = match_programs(&ctx, ops, starts, hashes, stage)?;
    CapacityError::check("staging", staged, staging.len())?;
    // 4. Executors and initial data.
    let mut ranks = Ranks {
        ops,
        status,
        starts,
        cursors,
    };
    ranks.start(nu)?;
    ctx.init_state(schedule, state, hashes)?;
    // 5. Message passing until everyone is done.
    let mut run = Run {
        ctx: &ctx,
        ranks,
        stage,
        data: BlockData { state, staging },
        rng: Rng::new(opts.seed),
        report: CheckReport::default(),
    };
    run.until_done()?;
    ctx.verify(run.data.state)?;
    Ok(run.report)
}

/// Step 1: writes every rank's program into `ops`, rank `r`'s at `starts[r]..starts[r + 1]`;
/// returns the total number of ops.
fn load_programs<S: Schedule>(
    schedule: &S,
    ops: &mut [Op],
    starts: &mut [u32],
) -> Result<usize, CheckError> {
    CapacityError::check("ops", schedule.total_program_len(), ops.len())?;
    starts[0] = 0;
    let mut total = 0usize;
    for r in 0..schedule.ranks() {
        let out = ops.get_mut(total..).unwrap_or(&mut []);
        let len = schedule
            .program(r, out)
            .map_err(|error| CheckError::Schedule { rank: r, error })?;
        total += len;
        starts[r as usize + 1] = total as u32;
    }
    Ok(total)
}

/// Step 2: checks the global message list (step order and range, ranks, blocks, byte
/// counts, `num_messages`) and fingerprints it per rank: `hashes[r]` the ordered sends of
/// rank `r`, `hashes[n + r]` the multiset of its receives.
fn fingerprint_messages<S: Schedule>(schedule: &S, hashes: &mut [u64]) -> Result<(), CheckError> {
    let n = schedule.ranks();
    let nu = n as usize;
    let layout = schedule.layout();
    let slots = layout.slots;
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
    Ok(())
}

/// Step 3: compares every rank's program with the fingerprints of step 2 and gives every
/// receive op its payload offset in `stage` (`u32::MAX` for other ops); returns the
/// staging words needed.
fn match_programs(
    ctx: &Ctx,
    ops: &[Op],
    starts: &[u32],
    hashes: &[u64],
    stage: &mut [u32],
) -> Result<usize, CheckError> {
    let nu = ctx.n as usize;
    let (send_h, recv_h) = hashes.split_at(nu);
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
                off += blocks.count(ctx.slots) as usize * ctx.w;
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
    Ok(off)
}

/// Every rank's executor over its slice of the concatenated programs.
struct Ranks<'e> {
    ops: &'e [Op],
    status: &'e mut [OpStatus],
    starts: &'e [u32],
    cursors: &'e mut [ExecCursor],
}

impl Ranks<'_> {
    /// Op range of rank `r` in `ops` and `status`.
    fn span(&self, r: usize) -> (usize, usize) {
        (self.starts[r] as usize, self.starts[r + 1] as usize)
    }

    /// Step 4: creates the executors of ranks `0..n` (checking their dependencies).
    fn start(&mut self, n: usize) -> Result<(), CheckError> {
        for r in 0..n {
            let (a, b) = self.span(r);
            let ex = Executor::new(&self.ops[a..b], &mut self.status[a..b]).map_err(|error| {
                CheckError::Exec {
                    rank: r as u32,
                    error,
                }
            })?;
            self.cursors[r] = ex.cursor();
        }
        Ok(())
    }

    /// Polls rank `r`'s executor at time `now`.
    fn poll(&mut self, r: usize, now: u64) -> Result<Action, CheckError> {
        let (a, b) = self.span(r);
        let mut ex = Executor::resume(&self.ops[a..b], &mut self.status[a..b], self.cursors[r]);
        let act = ex.poll(now).map_err(|error| CheckError::Exec {
            rank: r as u32,
            error,
        })?;
        self.cursors[r] = ex.cursor();
        Ok(act)
    }

    /// Hands rank `d` a message from `src` carrying `blocks`; returns the index (in `d`'s
    /// program) of the receive op that takes it.
    fn receive(&mut self, d: Rank, src: Rank, blocks: Blocks) -> Result<u32, CheckError> {
        let du = d as usize;
        let (a, b) = self.span(du);
        let mut ex = Executor::resume(&self.ops[a..b], &mut self.status[a..b], self.cursors[du]);
        let j = ex
            .on_receive(src, blocks)
            .map_err(|error| CheckError::Exec { rank: d, error })?;
        self.cursors[du] = ex.cursor();
        Ok(j)
    }
}

/// Step 5: the message passing, round by round, with what it has found so far.
struct Run<'r> {
    ctx: &'r Ctx,
    ranks: Ranks<'r>,
    stage: &'r [u32],
    data: BlockData<'r>,
    rng: Rng,
    report: CheckReport,
}

impl Run<'_> {
    /// Runs rounds until every rank is done; a round in which nothing happens while some
    /// rank is unfinished is a deadlock.
    fn until_done(&mut self) -> Result<(), CheckError> {
        loop {
            let progress = self.round()?;
            let cursors = &*self.ranks.cursors;
            let stuck = (0..self.ctx.n as usize).find(|&r| cursors[r].remaining > 0);
            match stuck {
                None => return Ok(()),
                Some(r) if !progress => {
                    return Err(CheckError::Deadlock {
                        rank: r as u32,
                        op: cursors[r].done_prefix,
                    })
                }
                Some(_) => self.report.rounds += 1,
            }
        }
    }

    /// One round: visits every rank once, in rank order (seed 0) or in a random cyclic
    /// order with a random stride; returns whether anything happened.
    fn round(&mut self) -> Result<bool, CheckError> {
        let nu = self.ctx.n as usize;
        let (start, stride) = if self.ctx.opts.seed == 0 || nu < 2 {
            (0, 1)
        } else {
            let stride = loop {
                let c = 1 + self.rng.index(nu - 1);
                if gcd(c, nu) == 1 {
                    break c;
                }
            };
            (self.rng.index(nu), stride)
        };
        let mut progress = false;
        for i in 0..nu {
            progress |= self.visit((start + i * stride) % nu)?;
        }
        Ok(progress)
    }

    /// Polls rank `r` until it waits (seed 0), or for a random number (at least one) of
    /// polls; returns whether it acted.
    fn visit(&mut self, r: usize) -> Result<bool, CheckError> {
        let mut progress = false;
        for k in 0u64.. {
            if self.ctx.opts.seed != 0 && k > 0 && coin(&mut self.rng) {
                break;
            }
            let action = self.ranks.poll(r, self.report.rounds)?;
            if matches!(action, Action::Wait | Action::Done) {
                break;
            }
            progress = true;
            self.act(r as Rank, action)?;
        }
        Ok(progress)
    }

    /// Carries out `action` of rank `r`: a send hands the message to the receiver's
    /// executor and snapshots its blocks, a delivery applies them, a permutation permutes
    /// the rank's blocks.
    fn act(&mut self, r: Rank, action: Action) -> Result<(), CheckError> {
        match action {
            Action::Wait | Action::Done => {}
            Action::Send { op, peer, blocks } => {
                self.report.messages += 1;
                if peer >= self.ctx.n {
                    return Err(CheckError::Exec {
                        rank: r,
                        error: ExecError::UnexpectedMessage { peer, blocks },
                    });
                }
                let j = self.ranks.receive(peer, r, blocks)?;
                let (da, _) = self.ranks.span(peer as usize);
                let at = self.stage[da + j as usize] as usize;
                let t = Transfer {
                    rank: r,
                    op,
                    blocks,
                    at,
                };
                self.ctx.snapshot(&mut self.data, t)?;
            }
            Action::Deliver {
                op, blocks, reduce, ..
            } => {
                let (a, _) = self.ranks.span(r as usize);
                let at = self.stage[a + op as usize] as usize;
                let t = Transfer {
                    rank: r,
                    op,
                    blocks,
                    at,
                };
                self.report.redundant += self.ctx.apply(&mut self.data, t, reduce)?;
            }
            Action::Permute { reflect, shift, .. } => {
                self.ctx.permute(self.data.state, r, reflect, shift);
            }
        }
        Ok(())
    }
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

/// The checker's data model for hosts that run the executors themselves (the simulator's
/// NICs): feed it every [`Action`] a rank's executor returns, in the order they happen, and
/// [`DataFlow::verify`] tells whether every rank ends with exactly the blocks and
/// reductions [`check`] expects. Payloads travel in caller buffers of
/// [`DataFlow::payload_words`] words (one per message in flight).
#[derive(Debug)]
pub struct DataFlow<'a> {
    ctx: Ctx,
    state: &'a mut [u64],
}

impl core::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ctx")
            .field("n", &self.n)
            .field("slots", &self.slots)
            .field("w", &self.w)
            .finish()
    }
}

impl<'a> DataFlow<'a> {
    /// Initial block state of `schedule` in `state` (at least [`CheckSizes::of`]`.state_words`
    /// words); `scratch` needs `2 · ranks` words.
    pub fn new<S: Schedule>(
        schedule: &S,
        state: &'a mut [u64],
        scratch: &mut [u64],
        opts: CheckOptions,
    ) -> Result<Self, CheckError> {
        let n = schedule.ranks();
        let sem = schedule.semantics();
        let ctx = Ctx {
            n,
            slots: schedule.layout().slots,
            w: width_of(sem, n),
            sem,
            opts,
        };
        let words = n as usize * ctx.slots as usize * ctx.w;
        CapacityError::check("state", words, state.len())?;
        CapacityError::check("hashes", 2 * n as usize, scratch.len())?;
        ctx.init_state(schedule, state, scratch)?;
        Ok(DataFlow { ctx, state })
    }

    /// Words of the payload of a message carrying `blocks`.
    pub fn payload_words(&self, blocks: Blocks) -> usize {
        blocks.count(self.ctx.slots) as usize * self.ctx.w
    }

    /// Op `op` of `rank` sends `blocks`: snapshots them into `payload`
    /// ([`DataFlow::payload_words`] words); fails if the rank does not hold one of them.
    pub fn send(
        &mut self,
        rank: Rank,
        op: u32,
        blocks: Blocks,
        payload: &mut [u64],
    ) -> Result<(), CheckError> {
        CapacityError::check("payload", self.payload_words(blocks), payload.len())?;
        let t = Transfer {
            rank,
            op,
            blocks,
            at: 0,
        };
        let mut data = BlockData {
            state: self.state,
            staging: payload,
        };
        self.ctx.snapshot(&mut data, t)
    }

    /// Op `op` of `rank` delivers the message `payload` (as filled by [`DataFlow::send`]),
    /// overwriting or (with `reduce`) combining; returns the redundant block deliveries.
    pub fn deliver(
        &mut self,
        rank: Rank,
        op: u32,
        blocks: Blocks,
        reduce: bool,
        payload: &mut [u64],
    ) -> Result<u64, CheckError> {
        CapacityError::check("payload", self.payload_words(blocks), payload.len())?;
        let t = Transfer {
            rank,
            op,
            blocks,
            at: 0,
        };
        let mut data = BlockData {
            state: self.state,
            staging: payload,
        };
        self.ctx.apply(&mut data, t, reduce)
    }

    /// `rank` applies a local permutation (`Action::Permute`).
    pub fn permute(&mut self, rank: Rank, reflect: bool, shift: u32) {
        if rank < self.ctx.n {
            self.ctx.permute(self.state, rank, reflect, shift);
        }
    }

    /// Whether every rank holds what the schedule's semantics require.
    pub fn verify(&self) -> Result<(), CheckError> {
        self.ctx.verify(self.state)
    }
}
