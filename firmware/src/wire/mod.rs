//! The host ↔ device wire format: frames ([`frame`]) carrying versioned messages
//! ([`message`]); the route-table request and its chunked image answer ([`route_table`]);
//! the device commands: image loading, routes, program engine ([`device`]).
//! Shared by the firmware and by host drivers, which link this crate.

pub mod device;
pub mod frame;
pub mod message;
pub mod route_table;
pub mod rtt;

pub use frame::{FrameAccumulator, FrameError};
pub use message::{
    Command, GraphSummary, Rejection, Reply, Request, Response, MAX_FRAME_LEN, WIRE_VERSION,
};
pub use route_table::{ImageChunk, RouteTableRequest, TableResource};
