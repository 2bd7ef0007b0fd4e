//! The host ↔ device wire format: frames ([`frame`]) carrying versioned messages
//! ([`message`]). Shared by the firmware and by host drivers, which link this crate.

pub mod frame;
pub mod message;

pub use frame::{FrameAccumulator, FrameError};
pub use message::{
    Command, GraphSummary, Rejection, Reply, Request, Response, MAX_FRAME_LEN, WIRE_VERSION,
};
