//! `jumpnet` command-line entry point (thin wrapper over the library).
fn main() {}
