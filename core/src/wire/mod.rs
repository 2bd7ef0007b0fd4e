//! The host ↔ device wire format (UART or RTT): frames ([`frame`]) carrying versioned
//! messages ([`message`]); the route-table request and its chunked image answer
//! ([`route_table`]); the device commands: image loading, routes, program engine
//! ([`device`]); the RTT channel layout ([`rtt`]).
//!
//! Like [`crate::image`], this module only defines bytes: the encodings and the limits both
//! ends agree on, checked without panicking on any input. What a device does with a
//! request (the firmware's services and board code) lives in `jumpnet-firmware`; host
//! drivers (`jumpnet::device`) use this module directly.

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
