//! Simulator TOML configuration files (`sim --config`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = jumpnet::sim::config::toml_file::ConfigFile::parse(text);
    }
});
