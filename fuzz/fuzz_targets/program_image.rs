//! Program images (`sched export`, kind 1): core's decoder with an op buffer of any size.
#![no_main]

use jumpnet_core::collective::{Dep, Op};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let blank = Op::Permute {
        reflect: false,
        shift: 0,
        after: Dep::None,
    };
    let n = data.first().map_or(0, |&b| b as usize);
    let mut ops = vec![blank; n];
    let _ = jumpnet_core::image::program::decode(data, &mut ops);
});
