//! Devices: the transports that carry firmware frames (smoltcp's `phy/`: a small trait and
//! wrappers around any implementation) and the client that speaks the device commands of
//! `jumpnet_core::wire::device` over them.
//!
//! - [`Transport`]: a byte channel to one device, with a read timeout;
//! - [`qemu`]: the firmware under `qemu-system-arm -M mps2-an386`, UART0 on a Unix socket,
//!   defmt log from semihosting decoded with `defmt-decoder`;
//! - `probe` (cargo feature `probe`): a real board through probe-rs: flash the ELF, then
//!   frames and the defmt log over RTT ([`rtt`]); [`chip`] checks `--chip` against probe-rs's
//!   target registry, [`probe_selector`] parses `--probe VID:PID[:SERIAL]` and picks a probe;
//! - [`link`]: a transport whose session ends with the device's decoded defmt log (QEMU,
//!   probe-rs);
//! - [`fault`]: a wrapper that drops, flips and duplicates bytes (seeded), for tests;
//! - [`client`]: requests with ids, retries after damaged or lost frames, chunked image
//!   flashing and read-back, route and program-engine calls.

use std::time::Duration;

use anyhow::Result;

pub mod chip;
pub mod client;
pub mod fault;
pub mod link;
#[cfg(feature = "probe")]
pub mod probe;
pub mod probe_selector;
pub mod qemu;
pub mod rtt;
#[cfg(test)]
mod test_support;

pub use client::Client;

/// A byte channel to one device.
pub trait Transport {
    /// Sends `bytes`.
    fn write_all(&mut self, bytes: &[u8]) -> Result<()>;
    /// Reads one byte; `None` when nothing arrived within `timeout`.
    fn read_byte(&mut self, timeout: Duration) -> Result<Option<u8>>;
}

impl<T: Transport + ?Sized> Transport for &mut T {
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).write_all(bytes)
    }
    fn read_byte(&mut self, timeout: Duration) -> Result<Option<u8>> {
        (**self).read_byte(timeout)
    }
}
