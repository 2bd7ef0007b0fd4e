//! Shared fixtures of the device module's unit tests.
#![allow(clippy::unwrap_used)]

use crate::build::network::OwnedNetwork;
use crate::build::routing::{RouteAlgo, RouteOptions};
use crate::build::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use crate::build::topology::TopologySpec;

/// The image of switch 5 of `G(64, 6)` (NAF) with a 64-rank allreduce program.
pub(crate) fn g64_image() -> crate::device::image::BuiltImage {
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
    crate::device::image::build(&owned, 5, &opts, &[sched]).unwrap()
}
