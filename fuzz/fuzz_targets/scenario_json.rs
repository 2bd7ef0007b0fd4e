//! Scenario JSON of `report --scenario`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = jumpnet::report::Scenario::from_json(text, "fuzz.json");
    }
});
