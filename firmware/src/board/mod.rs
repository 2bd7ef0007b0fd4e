//! Board support, compiled only for bare-metal targets (`target_os = "none"`).
//!
//! [`mps2_an386`] is the QEMU `mps2-an386` board (Cortex-M4F): CMSDK UART0 as the host link,
//! semihosting for the exit status, defmt logs over semihosting and the panic handler.

pub mod mps2_an386;
