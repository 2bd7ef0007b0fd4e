//! What the terminals inject: synthetic traffic ([`synthetic`]), collectives run by the
//! terminals' NIC engines ([`collective`], [`nic_engine`], their send side [`nic_send`]) and background traffic beside a
//! collective ([`background`]).

pub mod background;
pub mod collective;
pub mod collective_memory;
pub mod collective_result;
pub mod nic_calibration;
pub mod nic_engine;
pub mod nic_send;
pub mod synthetic;

#[cfg(test)]
mod collective_tests;
#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod nic_model_tests;
