//! `jumpnet sched`: show and verify collective schedules ([`crate::analysis::schedule`]),
//! export per-rank program images ([`crate::builder::image::export_programs`]) and read
//! images back ([`crate::io::image`]): the command's arguments ([`SchedAction`]) and [`run`].

use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use crate::analysis::schedule::{check_verify_memory, show, verify};
use crate::builder::image::{export_program, export_programs};
use crate::commands::args::{FormatArgs, ScheduleArgs};
use crate::io::image::{inspect, InspectedImages};
use crate::io::outdir::OutDir;
use crate::io::output::{self, Format};

/// Collective send schedules: show, verify symbolically, export per-rank programs, read
/// images back.
#[derive(Debug, Subcommand)]
pub enum SchedAction {
    /// Print the schedule: summary, messages (per step) and optionally one rank's program.
    Show {
        /// The schedule.
        #[command(flatten)]
        schedule: ScheduleArgs,
        /// Only messages of this step.
        #[arg(long)]
        step: Option<u32>,
        /// Print at most this many messages (default 200 in table form, all in JSON/CSV).
        #[arg(long)]
        limit: Option<u64>,
        /// Also print the program (ordered NIC operations) of this rank.
        #[arg(long)]
        rank: Option<u32>,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Execute every rank's program on tagged data and verify the collective's semantics.
    Verify {
        /// The schedule.
        #[command(flatten)]
        schedule: ScheduleArgs,
        /// Also check this many pseudo-random message interleavings.
        #[arg(long, default_value_t = 3)]
        interleavings: u32,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Read images back (program images from `sched export`; route-table and virtual-layer
    /// images in core's image format) and show what a device would load; a corrupt,
    /// truncated or unsupported image is refused with the reason (exit 2). Device images
    /// (`device image`) are flashed and shown with `jumpnet device`.
    Inspect {
        /// Image files.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Output format.
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Write per-rank program images (versioned postcard + CRC-32) for devices.
    Export {
        /// The schedule.
        #[command(flatten)]
        schedule: ScheduleArgs,
        /// Only this rank's program, written to the file given by --output.
        #[arg(long)]
        rank: Option<u32>,
        /// Output file (with --rank) or a directory, one rank-NNNNN.jnpg per rank (a new or
        /// empty directory, or one jumpnet wrote, which is replaced whole).
        #[arg(long, short = 'o', value_name = "PATH")]
        output: PathBuf,
    },
}

/// Runs `jumpnet sched ...`; returns the exit code.
pub fn run(action: SchedAction) -> Result<u8> {
    match action {
        SchedAction::Show {
            schedule,
            step,
            limit,
            rank,
            format,
        } => {
            let owned = schedule.build()?;
            let limit = limit.or((format.format() == Format::Table).then_some(200));
            output::print(&show(&owned, step, limit, rank)?, format.format())?;
        }
        SchedAction::Verify {
            schedule,
            interleavings,
            format,
        } => {
            let (req, net) = schedule.request()?;
            let owned = crate::builder::schedule::build(&req, net.as_ref())?;
            check_verify_memory(&req, net.as_ref(), &owned)?;
            output::print(&verify(&owned, interleavings)?, format.format())?;
        }
        SchedAction::Inspect { files, format } => {
            let images = files
                .iter()
                .map(|f| inspect(f))
                .collect::<Result<Vec<_>>>()?;
            output::print(&InspectedImages(images), format.format())?;
        }
        SchedAction::Export {
            schedule,
            rank,
            output: path,
        } => {
            let owned = schedule.build()?;
            let (files, bytes) = match rank {
                Some(r) => (1, export_program(&owned, r, &path)?),
                None => export_programs(&owned, OutDir::claim(&path, "sched export", "-o")?)?,
            };
            output::eprint_line(&format!(
                "wrote {files} program image(s), {bytes} bytes, to {}",
                path.display()
            ))?;
        }
    }
    Ok(0)
}
