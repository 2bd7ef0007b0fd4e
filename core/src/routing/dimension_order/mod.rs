//! Dimension-order routing (docs/routing.md §2): torus and mesh DOR with dateline virtual
//! channels, e-cube on the hypercube, and DOR on HyperX. Arithmetic, no tables: O(dimensions)
//! per hop.

pub mod dateline;
pub mod hypercube;
pub mod hyperx;
pub mod torus;
