//! BookSim2 configuration files (`sim --booksim`).

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = jumpnet::sim::config::booksim::parse(text);
    }
}
