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

/// Initial block state of every rank for the schedule's semantics.
pub(super) fn init_state<S: Schedule>(
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

    pub(super) fn snapshot(
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
    pub(super) fn apply(
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
