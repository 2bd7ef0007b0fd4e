//! # jumpnet-firmware
//!
//! Firmware that runs jumpnet-core on a Cortex-M device and talks to a host over a UART.
//!
//! - the wire format (postcard + CRC-32 + COBS frames, the versioned messages, the RTT
//!   channel layout) is `jumpnet_core::wire`, shared with host drivers through the core.
//! - [`selftest`]: the self-test application (PRNG streams, a stored graph built with
//!   `topology::stored::from_edges`), plain computation.
//! - [`tables`]: route tables computed on the device (one switch's forwarding table from a
//!   `NetworkSpec` and an algorithm) and served as canonical table images in chunks.
//! - [`device`]: the device image service (load, verify, activate, routes, program engine),
//!   capacities as const generics.
//! - [`asic`]: a driver that writes a route table into a switch ASIC's forwarding memory
//!   over an embedded-hal 1.0 `SpiDevice`, with a `DelayNs` timeout (register protocol
//!   documented there).
//! - [`link`]: the host link's timing: a port polled with a `DelayNs`, a heartbeat and an
//!   inter-byte frame timeout, reported in `Counters`.
//! - [`serve`]: the request loop, generic over `embedded_io::Read + Write`.
//! - `board` (bare-metal targets only): the QEMU `mps2-an386` board layer: CMSDK UART0,
//!   semihosting exit, defmt logging over semihosting, panic handler (exit status 101).
//!
//! Everything but `board` builds and is unit-tested on the host. The binaries in `src/bin/`
//! are only meaningful for `thumbv7em-none-eabihf` (`cargo xtask firmware`).
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(test)]
extern crate std;

pub mod asic;
#[cfg(target_os = "none")]
pub mod board;
pub mod device;
pub mod link;
pub mod selftest;
pub mod serve;
pub mod tables;
