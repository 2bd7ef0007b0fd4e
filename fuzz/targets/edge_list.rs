//! Edge lists (`--edges`): the parser and, when it accepts them, the network built from
//! them (as `topo info arbitrary` does).

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    let _ = jumpnet::io::edgelist::parse(std::io::Cursor::new(data), "fuzz.txt");
}
