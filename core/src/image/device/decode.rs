//! Decoding and verifying a device image: every check of the module docs, in order.

use crate::collective::program::Op;
use crate::image::error::{Defect, ImageError, Resource};
use crate::image::frame::{self, ImageKind};
use crate::image::program::check_op;
use crate::routing::tables::run_table::{RouteEntry, Run, RunTable};

use super::{malformed, Capacities, DeviceBuffers, DeviceHeader, DeviceImage, ProgramEntry, Wire};

/// Checks `needed` of `what` against `capacity`.
fn fits(what: Resource, needed: u32, capacity: u32) -> Result<(), ImageError> {
    if needed > capacity {
        return Err(ImageError::OverCapacity {
            what,
            needed: needed as u64,
            capacity: capacity as u64,
        });
    }
    Ok(())
}

/// Where decoded items go: the caller's buffers, or nowhere ([`verify`]).
trait Sink {
    fn run(&mut self, i: usize, run: Run<RouteEntry>);
    fn program(&mut self, i: usize, p: ProgramEntry);
    fn op(&mut self, i: usize, op: Op);
}

struct Discard;

impl Sink for Discard {
    fn run(&mut self, _: usize, _: Run<RouteEntry>) {}
    fn program(&mut self, _: usize, _: ProgramEntry) {}
    fn op(&mut self, _: usize, _: Op) {}
}

impl Sink for DeviceBuffers<'_> {
    fn run(&mut self, i: usize, run: Run<RouteEntry>) {
        if let Some(slot) = self.runs.get_mut(i) {
            *slot = run;
        }
    }
    fn program(&mut self, i: usize, p: ProgramEntry) {
        if let Some(slot) = self.programs.get_mut(i) {
            *slot = p;
        }
    }
    fn op(&mut self, i: usize, op: Op) {
        if let Some(slot) = self.ops.get_mut(i) {
            *slot = op;
        }
    }
}

/// Every check of the module docs over `bytes`, handing decoded items to `sink`; returns
/// the header.
fn walk(
    bytes: &[u8],
    limits: Capacities,
    sink: &mut impl Sink,
) -> Result<DeviceHeader, ImageError> {
    let payload = frame::payload_of(bytes, ImageKind::Device)?;
    let (header, mut rest) = postcard::take_from_bytes::<DeviceHeader>(payload)
        .map_err(|_| malformed(Defect::DeviceHeader))?;
    let caps = header.capacities;
    fits(
        Resource::Destinations,
        caps.destinations,
        limits.destinations,
    )?;
    fits(Resource::TableRuns, caps.runs, limits.runs)?;
    fits(Resource::Programs, caps.programs, limits.programs)?;
    fits(Resource::ProgramOps, caps.ops, limits.ops)?;
    // Runs take at least 3 bytes, program headers 5, ops 4.
    let least = caps.runs as u64 * 3 + caps.programs as u64 * 5 + caps.ops as u64 * 4;
    if least > rest.len() as u64 {
        return Err(malformed(Defect::DeclaredCounts));
    }
    if (caps.destinations == 0) != (caps.runs == 0) {
        return Err(malformed(Defect::RunsNotCanonical));
    }
    let mut prev: Option<Run<RouteEntry>> = None;
    for i in 0..caps.runs as usize {
        let (run, r) = postcard::take_from_bytes::<Run<RouteEntry>>(rest)
            .map_err(|_| malformed(Defect::Run))?;
        let canonical = match prev {
            None => run.first == 0,
            Some(p) => run.first > p.first && run.value != p.value,
        };
        if !canonical || run.first >= caps.destinations {
            return Err(malformed(Defect::RunsNotCanonical));
        }
        prev = Some(run);
        sink.run(i, run);
        rest = r;
    }
    let program_bytes = rest;
    let mut total = 0u64;
    for i in 0..caps.programs as usize {
        let (w, r) = postcard::take_from_bytes::<Wire>(rest)
            .map_err(|_| malformed(Defect::ProgramHeader))?;
        if w.rank >= w.ranks {
            return Err(ImageError::RankOutOfRange {
                rank: w.rank,
                ranks: w.ranks,
            });
        }
        total += w.ops as u64;
        sink.program(i, ProgramEntry::from(&w));
        rest = r;
    }
    if total != caps.ops as u64 {
        return Err(malformed(Defect::OpCounts));
    }
    // Second pass over the program headers (already checked) to know each op's program.
    let mut headers = program_bytes;
    let mut op_index = 0usize;
    for _ in 0..caps.programs {
        let (w, r) = postcard::take_from_bytes::<Wire>(headers)
            .map_err(|_| malformed(Defect::ProgramHeader))?;
        headers = r;
        for local in 0..w.ops {
            let (op, r) =
                postcard::take_from_bytes::<Op>(rest).map_err(|_| malformed(Defect::Op))?;
            check_op(local, &op, w.rank, w.ranks)?;
            sink.op(op_index, op);
            op_index += 1;
            rest = r;
        }
    }
    if !rest.is_empty() {
        return Err(malformed(Defect::TrailingOpBytes));
    }
    Ok(header)
}

/// Checks a device image completely (module docs) against the capacities `limits` without
/// storing anything; returns its header. A device calls this on a newly loaded image before
/// it lets [`decode`] overwrite the buffers of the active one.
pub fn verify(bytes: &[u8], limits: Capacities) -> Result<DeviceHeader, ImageError> {
    walk(bytes, limits, &mut Discard)
}

/// Decodes a device image into `buffers` (module docs for the checks); an image needing more
/// than the buffers hold is [`ImageError::OverCapacity`], detected before any buffer is
/// written. On an error the buffers may hold part of the image: [`verify`] first to keep a
/// previous decoded image intact.
pub fn decode<'a>(
    bytes: &[u8],
    mut buffers: DeviceBuffers<'a>,
) -> Result<DeviceImage<'a>, ImageError> {
    let limits = buffers.capacities();
    let header = walk(bytes, limits, &mut buffers)?;
    let caps = header.capacities;
    let DeviceBuffers {
        runs,
        programs,
        ops,
    } = buffers;
    let runs: &'a [Run<RouteEntry>] = runs;
    let table = RunTable::new(
        runs.get(..caps.runs as usize).unwrap_or(&[]),
        caps.destinations,
    )
    .map_err(|_| malformed(Defect::RunsNotCanonical))?;
    let programs: &'a [ProgramEntry] = programs;
    let ops: &'a [Op] = ops;
    Ok(DeviceImage {
        table,
        programs: programs.get(..caps.programs as usize).unwrap_or(&[]),
        ops: ops.get(..caps.ops as usize).unwrap_or(&[]),
        header,
    })
}
