//! The checker's data model: block state per rank, snapshots, delivery, permutation and
//! the final semantic check (see the parent module).

use super::CheckError;
use crate::collective::{Blocks, Rank, Schedule, ScheduleError, Semantics};
use crate::exec::CheckOptions;

/// Words per block for a collective over `n` ranks.
pub(super) fn width_of(sem: Semantics, n: u32) -> usize {
    match sem {
        Semantics::Allreduce => (n as usize).div_ceil(64).max(1),
        _ => 1,
    }
}

/// The block state of every rank (`state` of [`super::CheckBuffers`]) and the payloads of
/// the messages in flight (`staging`).
pub(super) struct BlockData<'d> {
    pub state: &'d mut [u64],
    pub staging: &'d mut [u64],
}

/// One movement of blocks: op `op` of `rank` sends (snapshots) or receives (applies)
/// `blocks`, whose payload sits at word `at` of the staging buffer.
#[derive(Clone, Copy)]
pub(super) struct Transfer {
    pub rank: Rank,
    pub op: u32,
    pub blocks: Blocks,
    pub at: usize,
}

/// The schedule's shape as the data model sees it: `n` ranks of `slots` blocks of `w`
/// words under `sem`, checked with `opts`.
pub(super) struct Ctx {
    pub n: u32,
    pub slots: u32,
    pub w: usize,
    pub sem: Semantics,
    pub opts: CheckOptions,
}

impl Ctx {
    fn slot_at(&self, r: Rank, s: u32) -> usize {
        (r as usize * self.slots as usize + s as usize) * self.w
    }

    /// Writes every rank's initial block state for the schedule's semantics into `state`;
    /// `scratch` (at least `n / 64` words) holds the bitmap of owned blocks under
    /// allgather.
    pub(super) fn init_state<S: Schedule>(
        &self,
        schedule: &S,
        state: &mut [u64],
        scratch: &mut [u64],
    ) -> Result<(), CheckError> {
        let (n, slots, w, sem) = (self.n, self.slots, self.w, self.sem);
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

    /// Copies the blocks `t.rank` sends into the staging buffer at `t.at`; fails if it does
    /// not hold one of them.
    pub(super) fn snapshot(&self, data: &mut BlockData<'_>, t: Transfer) -> Result<(), CheckError> {
        let Transfer {
            rank: r,
            op,
            blocks,
            mut at,
        } = t;
        let (state, staging) = (&*data.state, &mut *data.staging);
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

    /// Delivers the staged payload at `t.at` into `t.rank`'s blocks, overwriting or (with
    /// `reduce`) combining; returns the number of redundant deliveries.
    pub(super) fn apply(
        &self,
        data: &mut BlockData<'_>,
        t: Transfer,
        reduce: bool,
    ) -> Result<u64, CheckError> {
        let Transfer {
            rank: r,
            op,
            blocks,
            mut at,
        } = t;
        let (state, staging) = (&mut *data.state, &*data.staging);
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
    pub(super) fn permute(&self, state: &mut [u64], r: Rank, reflect: bool, shift: u32) {
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

    pub(super) fn verify(&self, state: &[u64]) -> Result<(), CheckError> {
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
