//! # jumpnet-core
//!
//! The allocation-free `#![no_std]` core of jumpnet. Everything that computes lives here:
//! topologies ([`topology`]), graph metrics ([`metrics`]), collective send schedules
//! ([`collective`]), their program executor and symbolic checker ([`exec`]) and the
//! deterministic PRNG ([`rng`]); [`image`] holds the byte images handed to devices (route
//! tables, programs: one framing, one CRC-32, one error) and [`wire`] the host ↔ device
//! messages and their frames; [`analysis`] puts them together (hops, link loads and the
//! makespan model of a collective on a routed network). All storage is provided by the
//! caller (slices or const-generic `heapless` containers), every fallible operation returns a
//! small error enum (buffer-too-small and bad-parameter failures read the same in every
//! module: the shared payloads of [`error`]), and no function panics on input. The same code builds for `thumbv7em-none-eabihf`
//! (firmware) and the host.
//!
//! Specifications live in the repository's `spec/` documents; each algorithm cites the
//! section it implements.
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
