//! Program images (`sched export`, kind 1): core's decoder with an op buffer of any size.

use jumpnet_core::collective::{Dep, Op};

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    let blank = Op::Permute {
        reflect: false,
        shift: 0,
        after: Dep::None,
    };
    let n = data.first().map_or(0, |&b| b as usize);
    let mut ops = vec![blank; n];
    let _ = jumpnet_core::image::program::decode(data, &mut ops);
}
