//! One module per `jumpnet` subcommand. Each computes its results in plain functions that
//! return data (printing is [`crate::io::output`]'s job).

pub mod map;
pub mod report;
pub mod route;
pub mod sched;
pub mod topo;
