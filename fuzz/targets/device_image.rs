//! Device images (`device image`, kind 4), as the firmware verifies and decodes them, into
//! buffers whose sizes come from the input too.

use jumpnet_core::collective::{Dep, Op};
use jumpnet_core::image::device::{self, DeviceBuffers, ProgramEntry};
use jumpnet_core::routing::{RouteEntry, Run};

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    let size = |i: usize| data.get(i).map_or(0, |&b| b as usize * 4);
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        size(0)
    ];
    let mut programs = vec![ProgramEntry::default(); size(1) / 4];
    let blank = Op::Permute {
        reflect: false,
        shift: 0,
        after: Dep::None,
    };
    let mut ops = vec![blank; size(2)];
    let buffers = DeviceBuffers {
        runs: &mut runs,
        programs: &mut programs,
        ops: &mut ops,
    };
    let _ = device::verify(data, buffers.capacities());
    let _ = device::decode(data, buffers);
}
