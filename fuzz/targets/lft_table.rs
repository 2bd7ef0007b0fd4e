//! Forwarding tables (`route check --table`): LFT text, CSV and JSON, for a network of
//! 1..=64 switches with 1..=4 terminals each (the first two bytes).

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    let [a, b, rest @ ..] = data else {
        return;
    };
    let switches = 1 + u32::from(*a) % 64;
    let terminals = switches * (1 + u32::from(*b) % 4);
    if let Ok(text) = std::str::from_utf8(rest) {
        let _ = jumpnet::io::lft::parse_any(text, "fuzz.lft", switches, terminals);
    }
}
