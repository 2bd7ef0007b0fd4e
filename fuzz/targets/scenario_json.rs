//! Scenario JSON of `report --scenario`.

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = jumpnet::report::Scenario::from_json(text, "fuzz.json");
    }
}
