//! Routing benchmarks (placeholder while the routing module is written).
fn main() {}
