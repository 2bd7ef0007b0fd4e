//! Shared fixtures of the device module's unit tests.
#![allow(clippy::unwrap_used)]

use std::collections::VecDeque;

use jumpnet_firmware::device::DeviceService;
use jumpnet_firmware::serve::Server;

use crate::builder::network::OwnedNetwork;
use crate::builder::routing::{RouteAlgo, RouteOptions};
use crate::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::builder::topology::TopologySpec;

/// The image of switch 5 of `G(64, 6)` (NAF) with a 64-rank allreduce program.
pub(crate) fn g64_image() -> crate::builder::image::BuiltImage {
    let spec = TopologySpec::parse(&["gcirculant".into(), "n=64".into()]).unwrap();
    let owned = OwnedNetwork::build(&spec).unwrap();
    let req = CollectiveRequest {
        algorithm: Algorithm::Allreduce,
        ranks: Some(64),
        root: 0,
        bytes: 1024,
        elem_bytes: 4,
        placement: JobPlacement::Consecutive,
        seed: 1,
    };
    let sched = schedule::build(&req, None).unwrap();
    let opts = RouteOptions {
        algo: RouteAlgo::Naf,
        max_layers: 8,
        seed: 1,
    };
    crate::builder::image::build(&owned, 5, &opts, &[sched]).unwrap()
}

/// Byte pipe feeding an in-process firmware server: it reads what the host wrote
/// (`input`) and writes its answers to `output`.
#[derive(Default)]
pub(crate) struct Pipe {
    /// Bytes for the server to read.
    pub input: VecDeque<u8>,
    /// Bytes the server wrote.
    pub output: VecDeque<u8>,
}

impl embedded_io::ErrorType for Pipe {
    type Error = core::convert::Infallible;
}
impl embedded_io::Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        match (self.input.pop_front(), buf.first_mut()) {
            (Some(b), Some(slot)) => {
                *slot = b;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}
impl embedded_io::Write for Pipe {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
        self.output.extend(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// The firmware's request loop over a fresh device service (leaked: tests only).
pub(crate) fn device_server() -> Server<'static> {
    let device = Box::leak(Box::new(DeviceService::<256, 4, 64, 4096>::new()));
    Server::new(None, device)
}
