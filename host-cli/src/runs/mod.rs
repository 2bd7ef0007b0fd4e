//! Simulation runs as people ask for them, on a resolved [`crate::sim::setup::Setup`]: the
//! library side of `jumpnet sim`, `jumpnet sweep`, and of the studies, the report and HIL
//! runs that simulate collectives.
//!
//! - [`synthetic`]: one run under synthetic traffic ([`synthetic::simulate`] →
//!   [`synthetic::SimReport`]) and the sweep over the setup's axes ([`synthetic::sweep`]);
//! - [`collective`]: one collective run ([`collective::CollectiveRun`] →
//!   [`collective::CollectiveReport`]): schedule, placement, NIC parameters, background
//!   traffic;
//! - [`collective_nic`]: the NIC models of collective runs and the NIC configuration a
//!   run's options give;
//! - [`collective_sweep`]: collective runs over collective axes (message size, mapping,
//!   algorithm, ranks, seeds, routing, background) and simulator keys, on all cores.

pub mod booksim_stats;
pub mod collective;
pub mod collective_messages;
pub mod collective_nic;
pub mod collective_sweep;
pub mod synthetic;
