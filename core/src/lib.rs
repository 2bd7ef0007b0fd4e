//! # jumpnet-core
//!
//! The allocation-free `#![no_std]` core of jumpnet: interconnection-network topologies,
//! deterministic routing, process mappings and collective send schedules, computed by the
//! same code on the host, on a switch or NIC microcontroller (`thumbv7em-none-eabihf`) and
//! as the golden model of the Verilog engines.
//!
//! The modules, in data-flow order:
//!
//! * [`topology`]: network families — ring, circulants and `G(n, log2 n)`, random shortcut,
//!   torus and mesh, hypercube, fat tree, Dragonfly, HyperX, Slim Fly, Galaxyfly — with
//!   ordered ports and terminals, answered arithmetically (docs/topologies.md §0–§10).
//! * [`routing`]: next-hop functions and route tables with virtual channels and layers,
//!   deadlock analysis on the channel dependency graph (docs/routing.md §1–§8).
//! * [`mapping`]: which nodes a job gets and which rank each plays, the two-opt and
//!   annealing optimisers, GA node mapping (docs/mapping.md §1–§5).
//! * [`traffic`]: synthetic traffic a device can also run — destination patterns and
//!   injection processes in fixed point (docs/mapping.md §5).
//! * [`collective`]: send schedules in rank space and the per-rank programs a NIC executes
//!   (docs/collectives.md §1–§10).
//! * [`exec`]: the program executor, its cycle-level timing contract and the symbolic checker
//!   of a collective's result.
//! * [`metrics`]: diameter, ASPL and distance histograms, degrees and links by class, cable
//!   length and cost (docs/routing.md §1, docs/mapping.md §6).
//! * [`analysis`]: a collective on a routed network — hops, link loads by class, the
//!   link-count makespan model (docs/routing.md §8, docs/collectives.md §6).
//! * [`image`]: the versioned, CRC-protected byte images handed to devices — route tables,
//!   programs, device images.
//! * [`wire`]: the UART frames and messages between a host and a device (postcard, COBS,
//!   CRC-32), next to [`image`].
//! * [`rng`]: the one deterministic PRNG of jumpnet (xoshiro256**), beside Knuth's
//!   `ran_array` for BookSim2's `randperm` draw (docs/booksim.md §3.8) and its `ranf_array`
//!   for BookSim2's batch read/write coin (§3.6), and [`error`]: the
//!   error payloads every module shares.
//!
//! All storage is provided by the caller (slices or const-generic `heapless` containers),
//! every fallible operation returns a small error enum (buffer-too-small and bad-parameter
//! failures read the same in every module: the shared payloads of [`error`]), and no
//! function panics on input (docs/architecture.md §3).
//!
//! The algorithms are described in the repository's `docs/` folder: every item cites the
//! section it implements (e.g. docs/routing.md §2), and the paper numbers the tests
//! reproduce are listed by row in docs/reference-results.md.
//!
//! # Examples
//!
//! The whole flow on `G(16, 4)` with rank `r` on terminal `r`: every message of the three
//! collectives of the dissertation is one hop, so the hop totals equal the message counts
//! `n − 1`, `n·log2 n`, `n·log2 n` (docs/collectives.md §10, docs/reference-results.md A2).
//!
//! ```
//! use jumpnet_core::analysis::{analyse, Outputs, RoutedNetwork};
//! use jumpnet_core::collective::{Binomial, Bruck, RecursiveDoubling};
//! use jumpnet_core::routing::CirculantNaf;
//! use jumpnet_core::topology::Circulant;
//!
//! let g = Circulant::g(16)?;
//! let naf = CirculantNaf::new(&g)?;
//! let net = RoutedNetwork::new(&g, &naf);
//! let placement: [u32; 16] = core::array::from_fn(|r| r as u32);
//! let bcast = analyse(&net, &Binomial::new(16, 0, 1024)?, &placement, Outputs::default())?;
//! let allreduce =
//!     analyse(&net, &RecursiveDoubling::new(16, 1024)?, &placement, Outputs::default())?;
//! let alltoall = analyse(&net, &Bruck::new(16, 64)?, &placement, Outputs::default())?;
//! let hops = [bcast, allreduce, alltoall].map(|a| (a.hops.messages, a.hops.total_hops));
//! assert_eq!(hops, [(15, 15), (64, 64), (64, 64)]);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

#[cfg(test)]
extern crate std;

pub mod analysis;
pub mod collective;
pub mod error;
pub mod exec;
pub mod image;
pub mod mapping;
pub mod metrics;
pub mod rng;
pub mod routing;
pub mod topology;
pub mod traffic;
pub mod wire;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod robustness_tests;
