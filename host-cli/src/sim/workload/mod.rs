//! What the terminals inject: synthetic traffic ([`synthetic`], BookSim2's batch source
//! [`paced_batch`]), collectives run by the
//! terminals' NIC engines ([`collective`], [`nic_engine`], their send side [`nic_send`]) and background traffic beside a
//! collective ([`background`]).

pub mod background;
pub mod booksim_draws;
pub mod collective;
pub mod collective_input;
pub mod collective_memory;
pub mod collective_result;
pub mod critical_path;
pub mod nic_calibration;
pub mod nic_engine;
pub mod nic_send;
pub mod paced_batch;
pub mod synthetic;

#[cfg(test)]
mod collective_tests;
#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod nic_model_tests;
