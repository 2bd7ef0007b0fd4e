//! Golden traces of `hil --check` (JSON lines).

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = jumpnet::hil::trace::parse(std::path::Path::new("fuzz.jsonl"), text);
    }
}
