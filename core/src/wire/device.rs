//! Device commands (wire version 3): load a device image (`crate::image::device`) in
//! chunks, verify and activate it, report what is loaded, read it back, look up routes in
//! its table, run one of its programs on the device's `crate::exec::Executor`,
//! counters, reset.
//!
//! # Loading
//!
//! `LoadBegin { image_len }` opens a staging buffer (the active image is untouched);
//! `LoadChunk { offset, bytes }` appends bytes at `offset`, which must be the number of bytes
//! received so far — a chunk the device already has (a host retry after a lost reply) is
//! acknowledged again without change, a gap is [`Rejection::ChunkOutOfOrder`]. `Activate`
//! checks the complete staged image with `image::device::verify` against the device's
//! capacities and only then decodes it over the active one; a truncated, corrupt,
//! wrong-version or over-capacity image is [`Rejection::Image`] and the previous image stays
//! active. `ReadImage` returns the active image's bytes, in chunks, for a byte-exact
//! read-back.
//!
//! # Running a program
//!
//! `ExecStart { program, now }` starts program `program` of the active image; each
//! `ExecStep { now, arrivals }` hands the executor the messages that arrived
//! (`Executor::on_receive`, in order), then polls it at `now` until it waits or is done and
//! answers with the actions it issued (sends, deliveries, permutes), at most
//! [`MAX_ACTIONS`] per reply (`more` tells the host to step again without arrivals).
//!
//! [`Rejection::ChunkOutOfOrder`]: super::message::Rejection::ChunkOutOfOrder
//! [`Rejection::Image`]: super::message::Rejection::Image

use core::fmt;

use crate::collective::Blocks;
use crate::exec::{Action, ExecError};
use crate::image::device::DeviceHeader;
use crate::routing::RouteEntry;
use heapless::Vec;
use serde::{Deserialize, Serialize};

use super::route_table::ImageChunk;

/// Most image bytes in one [`DeviceCommand::LoadChunk`] (the largest request fits a frame).
pub const MAX_LOAD_CHUNK: usize = 384;
/// Most route entries in one [`DeviceReply::Routes`].
pub const MAX_ROUTES: usize = 64;
/// Most arrivals in one [`DeviceCommand::ExecStep`].
pub const MAX_ARRIVALS: usize = 16;
/// Most executor actions in one [`DeviceReply::Exec`].
pub const MAX_ACTIONS: usize = 12;

/// A device command (inside `Command::Device`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeviceCommand {
    /// Start loading an image of `image_len` bytes into the staging buffer.
    LoadBegin {
        /// Length of the whole image.
        image_len: u32,
    },
    /// Image bytes at `offset` (the bytes received so far).
    LoadChunk {
        /// Offset of `bytes` in the image.
        offset: u32,
        /// The bytes.
        bytes: Vec<u8, MAX_LOAD_CHUNK>,
    },
    /// Verify the staged image and make it the active one.
    Activate,
    /// Report what is loaded.
    Info,
    /// Bytes `offset ..` (at most `max_len`) of the active image.
    ReadImage {
        /// First byte wanted.
        offset: u32,
        /// Most bytes wanted (the device sends at most `MAX_IMAGE_CHUNK`).
        max_len: u16,
    },
    /// Route entries of destinations `first .. first + count` of the active table (at most
    /// [`MAX_ROUTES`] are answered; fewer at the end of the table).
    Routes {
        /// First destination.
        first: u32,
        /// Destinations wanted.
        count: u16,
    },
    /// Start program `program` of the active image.
    ExecStart {
        /// Program index in the image.
        program: u32,
        /// Current time.
        now: u64,
    },
    /// Deliver arrivals, then poll at `now`.
    ExecStep {
        /// Current time.
        now: u64,
        /// Messages that arrived since the last step, in order.
        arrivals: Vec<Arrival, MAX_ARRIVALS>,
    },
    /// Report the counters.
    Counters,
    /// Forget the staged and the active image, the running program and the counters.
    Reset,
}

/// A message that arrived at the device's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrival {
    /// Sender rank.
    pub peer: u32,
    /// Blocks it carries.
    pub blocks: Blocks,
}

/// A device reply (inside `Reply::Device`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeviceReply {
    /// Bytes staged so far.
    Loading {
        /// Bytes received.
        received: u32,
        /// Length announced by `LoadBegin`.
        image_len: u32,
    },
    /// The staged image is now active.
    Activated(ImageSummary),
    /// What is loaded.
    Info(DeviceInfo),
    /// Bytes of the active image.
    Image(ImageChunk),
    /// Route entries of destinations `first ..`.
    Routes {
        /// First destination.
        first: u32,
        /// Entries, in destination order.
        entries: Vec<RouteEntry, MAX_ROUTES>,
    },
    /// What the executor did.
    Exec(ExecReport),
    /// The counters.
    Counters(Counters),
    /// The device was reset.
    Reset,
}

/// The active image: its header, length and CRC-32 (the image's last four bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageSummary {
    /// Header of the image.
    pub header: DeviceHeader,
    /// Image length in bytes.
    pub image_len: u32,
    /// CRC-32 stored in the image.
    pub crc: u32,
}

/// Capacities of the device build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceLimits {
    /// Route-table runs.
    pub runs: u32,
    /// Programs.
    pub programs: u32,
    /// Ops of all programs.
    pub ops: u32,
    /// Image bytes.
    pub image_bytes: u32,
}

/// Answer to [`DeviceCommand::Info`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// The active image, if any.
    pub active: Option<ImageSummary>,
    /// The device's capacities.
    pub limits: DeviceLimits,
    /// Bytes staged of an image being loaded (0 when none).
    pub staged: u32,
    /// Program being run, if any.
    pub running: Option<u32>,
}

/// Answer to [`DeviceCommand::ExecStart`] and [`DeviceCommand::ExecStep`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecReport {
    /// Actions issued, in order (never `Wait` or `Done`).
    pub actions: Vec<Action, MAX_ACTIONS>,
    /// Every op of the program is done.
    pub done: bool,
    /// More actions are ready: step again.
    pub more: bool,
}

/// Counters since start or the last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Requests answered (rejections included).
    pub requests: u32,
    /// Requests answered with a rejection.
    pub rejected: u32,
    /// Frames that did not decode.
    pub bad_frames: u32,
    /// Images activated.
    pub images_activated: u32,
    /// Images rejected at activation.
    pub images_rejected: u32,
    /// Route entries looked up.
    pub lookups: u32,
    /// Sends issued by the executor.
    pub sends: u32,
    /// Deliveries issued by the executor.
    pub deliveries: u32,
    /// Permutes issued by the executor.
    pub permutes: u32,
    /// Heartbeats of the serving loop since start (not reset; see `jumpnet_firmware::link`).
    pub heartbeats: u32,
    /// Partial frames dropped after the inter-byte timeout.
    pub frame_timeouts: u32,
}

/// An `ExecError` on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExecFault {
    /// No pending receive expects a message from `peer`.
    UnexpectedMessage {
        /// Sender.
        peer: u32,
    },
    /// The message from `peer` carries other blocks than receive `op` expects.
    BlocksMismatch {
        /// The receive op.
        op: u32,
        /// Sender.
        peer: u32,
    },
    /// No progress since `since`; `op` is the first unfinished op.
    Stalled {
        /// First unfinished op.
        op: u32,
        /// Time of the last progress.
        since: u64,
    },
    /// The program does not fit the executor (a bug: images are checked).
    Invalid,
}

impl From<ExecError> for ExecFault {
    fn from(e: ExecError) -> Self {
        match e {
            ExecError::UnexpectedMessage { peer, .. } => ExecFault::UnexpectedMessage { peer },
            ExecError::BlocksMismatch { op, peer, .. } => ExecFault::BlocksMismatch { op, peer },
            ExecError::Stalled { op, since } => ExecFault::Stalled { op, since },
            _ => ExecFault::Invalid,
        }
    }
}

impl fmt::Display for ExecFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExecFault::UnexpectedMessage { peer } => {
                write!(f, "unexpected message from rank {peer}: no pending receive")
            }
            ExecFault::BlocksMismatch { op, peer } => write!(
                f,
                "message from rank {peer} carries other blocks than receive op {op} expects"
            ),
            ExecFault::Stalled { op, since } => {
                write!(f, "no progress since time {since}; op {op} is unfinished")
            }
            ExecFault::Invalid => f.write_str("the program does not fit the executor"),
        }
    }
}
