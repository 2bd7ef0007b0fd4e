//! Deadlock analysis (docs/routing.md §2, §6): directed channels and their numbering
//! ([`channel`]), the channel dependency graph of a routing ([`cdg`]) and the cycle search
//! in caller buffers that finds a dependency cycle ([`cycle`]).

pub mod cdg;
pub mod channel;
pub mod cycle;
