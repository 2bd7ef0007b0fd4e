//! The router: the input-queued virtual-channel router ([`input_queued`]), its switch and VC
//! allocators ([`allocator`]) and the internal speedup's step numbering ([`speedup`]).

pub mod allocator;
pub mod input_queued;
pub mod speedup;

#[cfg(test)]
mod speedup_tests;
