//! Simulator TOML configuration files (`sim --config`).

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = jumpnet::sim::config::toml_file::ConfigFile::parse(text);
    }
}
