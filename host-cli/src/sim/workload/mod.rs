//! What the terminals inject: synthetic traffic ([`synthetic`]), collectives run by the
//! terminals' NIC engines ([`collective`], [`nic_engine`]) and background traffic beside a
//! collective ([`background`]).

pub mod background;
pub mod collective;
pub mod collective_memory;
pub mod collective_result;
pub mod nic_engine;
pub mod synthetic;

#[cfg(test)]
mod collective_tests;
