//! Board support, compiled only for bare-metal targets (`target_os = "none"`).
//!
//! [`mps2_an386`] is the QEMU `mps2-an386` board (Cortex-M4F): CMSDK UART0 as the host link,
//! a SysTick `DelayNs`, semihosting for the exit status, defmt logs over semihosting and the
//! panic handler. With the cargo feature `rtt`, [`rtt`] replaces UART0 and semihosting: the
//! host link and the defmt log are RTT channels read by a debug probe, so the same binary
//! runs on a real Cortex-M4F board (memory map from `JUMPNET_MEMORY_X`, see `build.rs`).

pub mod mps2_an386;
#[cfg(feature = "rtt")]
pub mod rtt;

/// The byte port to the host: UART0, or RTT channels with the `rtt` feature.
#[cfg(not(feature = "rtt"))]
pub type HostPort = mps2_an386::Uart0;
/// The byte port to the host: UART0, or RTT channels with the `rtt` feature.
#[cfg(feature = "rtt")]
pub type HostPort = rtt::RttPort;

/// Takes the host port (call once, before logging: with `rtt` it also sets up the defmt
/// channel).
pub fn host_port() -> HostPort {
    HostPort::take()
}
