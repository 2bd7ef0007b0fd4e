//! Dragonfly routing (docs/routing.md §4): minimal and Valiant routing with BookSim's VC
//! schemes.

pub mod minimal;
pub mod ugal;
pub mod ugal_booksim;
pub mod valiant;
