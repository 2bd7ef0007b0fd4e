//! Edge lists (`--edges`): the parser and, when it accepts them, the network built from
//! them (as `topo info arbitrary` does).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = jumpnet::io::edgelist::parse(std::io::Cursor::new(data), "fuzz.txt");
});
