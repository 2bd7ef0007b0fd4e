//! Program executor and symbolic checker.
//!
//! [`Executor`] is the state machine a NIC (the simulator's, the firmware's, the Verilog
//! golden model's) runs over one rank's program (`collective::program`): feed it arriving
//! messages with [`Executor::on_receive`], ask it what to do next with [`Executor::poll`].
//! It never allocates and never panics; protocol violations come back as [`ExecError`].
//! [`check()`] runs all ranks' programs symbolically and verifies a collective's semantics.
//!
//! A host drives one executor per rank; here every message is delivered at once:
//!
//! ```
//! use jumpnet_core::collective::{Binomial, Blocks, Dep, Op, Schedule};
//! use jumpnet_core::exec::{Action, Executor, OpStatus};
//!
//! let bcast = Binomial::new(2, 0, 64).unwrap();
//! let blank = Op::Send { peer: 0, blocks: Blocks::All, after: Dep::None };
//! let (mut p0, mut p1) = ([blank; 4], [blank; 4]);
//! let n0 = bcast.program(0, &mut p0).unwrap();
//! let n1 = bcast.program(1, &mut p1).unwrap();
//! let (mut s0, mut s1) = ([OpStatus::Pending; 4], [OpStatus::Pending; 4]);
//! let mut root = Executor::new(&p0[..n0], &mut s0).unwrap();
//! let mut leaf = Executor::new(&p1[..n1], &mut s1).unwrap();
//!
//! assert_eq!(leaf.poll(0), Ok(Action::Wait));
//! let Ok(Action::Send { peer: 1, blocks, .. }) = root.poll(0) else { panic!() };
//! let op = leaf.on_receive(0, blocks).unwrap(); // keep the payload under `op`
//! assert_eq!(
//!     leaf.poll(1),
//!     Ok(Action::Deliver { op, peer: 0, blocks: Blocks::All, reduce: false })
//! );
//! assert_eq!((root.poll(1), leaf.poll(1)), (Ok(Action::Done), Ok(Action::Done)));
//! ```

pub mod check;
#[cfg(test)]
mod check_tests;
mod executor;
pub mod rtl_program;
#[cfg(test)]
pub(crate) mod testutil;
pub mod timing;

pub use check::{check, CheckBuffers, CheckError, CheckOptions, CheckReport, CheckSizes, DataFlow};
pub use executor::{match_receive, Action, ExecCursor, ExecError, Executor, OpStatus};
