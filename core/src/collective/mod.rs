//! Collective-communication send schedules (docs/collectives.md).
//!
//! Every algorithm is a [`Schedule`]: it yields its rank-space [`Message`]s without
//! allocating (ascending step order), knows its exact message and step counts, and writes
//! each rank's [`Op`] program into a caller buffer. Topology-aware algorithms take small
//! oracle traits and plain data and build a [`ListSchedule`] in caller storage.
//! [`crate::exec`] runs programs ([`crate::exec::Executor`]) and checks schedules
//! symbolically ([`crate::exec::check()`]).
//!
//! | algorithm | spec | entry point |
//! |---|---|---|
//! | binomial broadcast | §1 | [`Binomial`] |
//! | recursive-doubling allreduce | §2 | [`RecursiveDoubling`] |
//! | Bruck alltoall | §3 | [`Bruck`] |
//! | ring allgather / ring allreduce | §4 | [`RingAllgather`], [`RingAllreduce`] |
//! | scatter + allgather broadcast, MPICH selection | §5 | [`ScatterAllgather`], [`Broadcast::auto`] |
//! | Dragonfly TREE / LLF / GLF / FOREST, link formulas | §6 | [`Binomial`], [`dragonfly::broadcast`], [`dragonfly::formulas`], [`dragonfly::links`] |
//! | Galaxyfly RPC/RPD, SPC, SFATA, RFATA | §7 | [`rpc`], [`galaxyfly::spc::spc_tree`], [`galaxyfly::sfata::sfata`], [`galaxyfly::rfata::rfata`] |
//! | Dragonfly A2A, GFA2A / RFA2A | §8 | [`dragonfly::a2a::a2a`], [`dragonfly::all_to_all`] |
//! | CCO ordering | §9 | [`cco::bfs_tree`], [`cco::cco_order`] |

pub mod any;
pub mod bcast_select;
pub mod binomial;
pub mod blocks;
pub mod bruck;
pub mod byte_totals;
pub mod cco;
pub mod dragonfly;
pub mod galaxyfly;
pub mod list;
pub mod message;
pub mod program;
pub mod recursive_doubling;
pub mod ring_allgather;
pub mod ring_allreduce;
pub mod rpc;
pub mod scatter_allgather;
pub mod schedule;

#[cfg(test)]
mod proptests;

pub use any::AnySchedule;
pub use bcast_select::{BcastAlgorithm, Broadcast};
pub use binomial::Binomial;
pub use blocks::{Blocks, DataLayout, SlotSizing, Span};
pub use bruck::Bruck;
pub use byte_totals::{byte_totals, ByteTotals};
pub use list::{binomial_over, ListBuilder, ListSchedule};
pub use message::{Message, Rank};
pub use program::{Dep, Op, OpSink};
pub use recursive_doubling::RecursiveDoubling;
pub use ring_allgather::RingAllgather;
pub use ring_allreduce::RingAllreduce;
pub use rpc::{LowerMedian, Pivot};
pub use scatter_allgather::{AllgatherKind, ScatterAllgather};
pub use schedule::{Schedule, ScheduleError, Semantics};
