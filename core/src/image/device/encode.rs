//! Encoding a device image (payload layout in the module docs).

use crate::image::error::{Defect, ImageError};
use crate::image::frame::{self, ImageKind};
use crate::image::program::check_op;

use super::{len_u32, malformed, max_image_len, Capacities, DeviceContent, DeviceHeader, Wire};

/// Writes the device image of `content` into `out`; returns the image length. The content is
/// checked as decoding would check it (program ranks and ops, op counts), so every image
/// written decodes; a too small `out` is [`ImageError::BufferTooSmall`] (size it with
/// [`max_image_len`]).
pub fn encode(content: &DeviceContent<'_>, out: &mut [u8]) -> Result<usize, ImageError> {
    let total: u64 = content.programs.iter().map(|p| p.ops as u64).sum();
    if total != content.ops.len() as u64 {
        return Err(malformed(Defect::OpCounts));
    }
    let mut first = 0usize;
    for p in content.programs {
        if p.rank >= p.ranks {
            return Err(ImageError::RankOutOfRange {
                rank: p.rank,
                ranks: p.ranks,
            });
        }
        let ops = content
            .ops
            .get(first..first + p.ops as usize)
            .unwrap_or(&[]);
        for (i, op) in ops.iter().enumerate() {
            check_op(i as u32, op, p.rank, p.ranks)?;
        }
        first += p.ops as usize;
    }
    let header = DeviceHeader {
        switch: content.switch,
        network: content.network.clone(),
        algorithm: content.algorithm,
        capacities: Capacities {
            destinations: content.table.len(),
            runs: len_u32(content.table.runs().len()),
            programs: len_u32(content.programs.len()),
            ops: len_u32(content.ops.len()),
        },
    };
    let needed = max_image_len(
        content.table.runs().len(),
        content.programs.len(),
        content.ops.len(),
    );
    frame::encode(ImageKind::Device, out, needed, |payload| {
        let mut pos = 0;
        frame::put(payload, &mut pos, &header)?;
        for run in content.table.runs() {
            frame::put(payload, &mut pos, run)?;
        }
        for p in content.programs {
            frame::put(payload, &mut pos, &Wire::from(p))?;
        }
        for op in content.ops {
            frame::put(payload, &mut pos, op)?;
        }
        Some(pos)
    })
}
