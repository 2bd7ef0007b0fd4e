//! BookSim2 configuration files (`sim --booksim`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = jumpnet::sim::config::booksim::parse(text);
    }
});
