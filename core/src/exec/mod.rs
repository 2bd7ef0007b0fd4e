//! Program executor and symbolic checker.
//!
//! [`Executor`] is the state machine a NIC (the simulator's, the firmware's, the Verilog
//! golden model's) runs over one rank's program (`collective::program`): feed it arriving
//! messages with [`Executor::on_receive`], ask it what to do next with [`Executor::poll`].
//! It never allocates and never panics; protocol violations come back as [`ExecError`].
//! [`check()`] runs all ranks' programs symbolically and verifies a collective's semantics.

pub mod check;
#[cfg(test)]
mod check_tests;
mod executor;
#[cfg(test)]
pub(crate) mod testutil;

pub use check::{check, CheckBuffers, CheckError, CheckOptions, CheckReport, CheckSizes};
pub use executor::{Action, ExecCursor, ExecError, Executor, OpStatus};
