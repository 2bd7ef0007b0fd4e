//! Test-only helpers: run the checker with `Vec`-backed buffers.

use super::check::{check, CheckBuffers, CheckError, CheckOptions, CheckReport, CheckSizes};
use super::executor::{ExecCursor, OpStatus};
use crate::collective::{Blocks, Dep, Op, Schedule};
use std::vec;

/// Runs [`check`] on `s` with freshly allocated buffers.
pub fn run_check<S: Schedule>(s: &S, opts: CheckOptions) -> Result<CheckReport, CheckError> {
    let z = CheckSizes::of(s);
    let filler = Op::Send {
        peer: 0,
        blocks: Blocks::All,
        after: Dep::None,
    };
    let mut ops = vec![filler; z.ops];
    let mut status = vec![OpStatus::Pending; z.ops];
    let mut stage = vec![0u32; z.ops];
    let mut starts = vec![0u32; z.ranks + 1];
    let mut cursors = vec![ExecCursor::default(); z.ranks];
    let mut hashes = vec![0u64; 2 * z.ranks];
    let mut state = vec![0u64; z.state_words];
    let mut staging = vec![0u64; z.staging_words];
    check(
        s,
        CheckBuffers {
            ops: &mut ops,
            status: &mut status,
            stage: &mut stage,
            starts: &mut starts,
            cursors: &mut cursors,
            hashes: &mut hashes,
            state: &mut state,
            staging: &mut staging,
        },
        opts,
    )
}

/// [`run_check`] with strict options (no redundant deliveries).
pub fn strict<S: Schedule>(s: &S) -> Result<CheckReport, CheckError> {
    run_check(s, CheckOptions::default())
}
