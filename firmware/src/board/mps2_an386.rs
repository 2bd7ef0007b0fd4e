//! QEMU `mps2-an386` (Arm MPS2 FPGA image AN386, Cortex-M4F).
//!
//! Memory: 4 MiB code SRAM at `0x0000_0000`, 4 MiB SSRAM at `0x2000_0000` (see `build.rs`).
//! UART0 is a CMSDK APB UART at `0x4000_4000`; QEMU connects it to the host chardev given
//! with `-serial`. Logs are defmt frames written to the semihosting console
//! (`-semihosting-config enable=on,target=native`), and the session ends with a semihosting
//! exit whose status QEMU returns: 0 for success, 101 after a panic.

use core::convert::Infallible;
use core::panic::PanicInfo;

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
#[cfg(not(feature = "rtt"))]
use defmt_semihosting as _;
use embedded_hal::delay::DelayNs;

/// Base address of UART0.
const UART0_BASE: usize = 0x4000_4000;
/// DATA register offset (read: received byte, write: byte to send).
const DATA: usize = 0x0;
/// STATE register offset (bit 0: TX full, bit 1: RX full).
const STATE: usize = 0x4;
/// CTRL register offset (bit 0: TX enable, bit 1: RX enable).
const CTRL: usize = 0x8;
/// BAUDDIV register offset (QEMU requires a value of at least 16).
const BAUDDIV: usize = 0x10;
const STATE_TX_FULL: u32 = 1 << 0;
const STATE_RX_FULL: u32 = 1 << 1;
const CTRL_TX_RX_ENABLE: u32 = 0b11;

/// Exit status reported after a panic (like a Rust test process).
pub const PANIC_EXIT_CODE: i32 = 101;

/// The CMSDK APB UART0 as a blocking byte port.
#[derive(Debug)]
pub struct Uart0 {
    _private: (),
}

#[allow(unsafe_code)]
fn reg_read(offset: usize) -> u32 {
    // SAFETY: UART0_BASE + offset is a 4-byte aligned register of the CMSDK UART, which is
    // always mapped on this board; reads have no side effect other than popping RX data.
    unsafe { core::ptr::read_volatile((UART0_BASE + offset) as *const u32) }
}

#[allow(unsafe_code)]
fn reg_write(offset: usize, value: u32) {
    // SAFETY: as in `reg_read`; only `Uart0` (a singleton, see `Uart0::take`) writes these.
    unsafe { core::ptr::write_volatile((UART0_BASE + offset) as *mut u32, value) }
}

impl Uart0 {
    /// Enables the transmitter and receiver. Call once; the firmware owns UART0 alone.
    pub fn take() -> Self {
        reg_write(BAUDDIV, 16);
        reg_write(CTRL, CTRL_TX_RX_ENABLE);
        Uart0 { _private: () }
    }
}

impl embedded_io::ErrorType for Uart0 {
    type Error = Infallible;
}

impl embedded_io::Read for Uart0 {
    /// Blocks until one byte arrives (the RX buffer holds a single byte) and returns it.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        let Some(first) = buf.first_mut() else {
            return Ok(0);
        };
        while reg_read(STATE) & STATE_RX_FULL == 0 {}
        *first = reg_read(DATA) as u8;
        Ok(1)
    }
}

impl embedded_io::ReadReady for Uart0 {
    fn read_ready(&mut self) -> Result<bool, Infallible> {
        Ok(reg_read(STATE) & STATE_RX_FULL != 0)
    }
}

impl embedded_io::Write for Uart0 {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Infallible> {
        for &b in buf {
            while reg_read(STATE) & STATE_TX_FULL != 0 {}
            reg_write(DATA, b as u32);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        while reg_read(STATE) & STATE_TX_FULL != 0 {}
        Ok(())
    }
}

/// Core clock of the board (QEMU models the AN386 FPGA image's 25 MHz), which clocks SysTick.
pub const SYSCLK_HZ: u32 = 25_000_000;

/// SysTick's external reference clock: 1 MHz on this board; a real board's `rtt` build sets
/// its own with `JUMPNET_SYSTICK_REF_HZ` at build time (e.g. 21000000 for an STM32F4 at
/// 168 MHz, whose reference is HCLK/8).
pub const REFCLK_HZ: u32 = parse_hz(option_env!("JUMPNET_SYSTICK_REF_HZ"), 1_000_000);

/// Parses a decimal frequency at compile time (a bad value fails the build).
const fn parse_hz(text: Option<&str>, default: u32) -> u32 {
    let Some(text) = text else {
        return default;
    };
    let bytes = text.as_bytes();
    assert!(!bytes.is_empty(), "JUMPNET_SYSTICK_REF_HZ is empty");
    let mut value: u32 = 0;
    let mut i = 0;
    while i < bytes.len() {
        let digit = bytes[i];
        assert!(
            digit.is_ascii_digit(),
            "JUMPNET_SYSTICK_REF_HZ must be a decimal number of Hz"
        );
        value = value * 10 + (digit - b'0') as u32;
        i += 1;
    }
    assert!(value > 0, "JUMPNET_SYSTICK_REF_HZ must be positive");
    value
}

/// An embedded-hal 1.0 `DelayNs` on SysTick: each delay programs SysTick (1 MHz reference
/// clock) for its length and sleeps with `WFI` until the SysTick interrupt. Sleeping, rather
/// than busy-polling the counter as `cortex_m::delay::Delay` does, lets QEMU's main loop run
/// its timers: a vCPU spinning on timer registers starves them and time crawls.
pub struct SysTickDelay {
    syst: SYST,
}

impl core::fmt::Debug for SysTickDelay {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SysTickDelay")
    }
}

/// Longest SysTick reload (24 bits).
const MAX_RELOAD: u32 = 0x00FF_FFFF;

impl SysTickDelay {
    /// Takes SysTick; it runs only during delays.
    pub fn new(mut syst: SYST) -> Self {
        syst.disable_counter();
        syst.set_clock_source(SystClkSource::External);
        SysTickDelay { syst }
    }

    fn sleep_ticks(&mut self, ticks: u32) {
        self.syst.set_reload(ticks.clamp(1, MAX_RELOAD));
        self.syst.clear_current();
        let _ = self.syst.has_wrapped();
        self.syst.enable_interrupt();
        self.syst.enable_counter();
        while !self.syst.has_wrapped() {
            cortex_m::asm::wfi();
        }
        self.syst.disable_counter();
        self.syst.disable_interrupt();
    }
}

impl DelayNs for SysTickDelay {
    fn delay_ns(&mut self, ns: u32) {
        let mut ticks = u64::from(ns) * u64::from(REFCLK_HZ) / 1_000_000_000;
        while ticks > 0 {
            let now = ticks.min(u64::from(MAX_RELOAD)) as u32;
            self.sleep_ticks(now);
            ticks -= u64::from(now);
        }
    }
}

/// The SysTick interrupt only wakes [`SysTickDelay`] from `WFI`.
#[cortex_m_rt::exception]
fn SysTick() {}

/// Ends the QEMU session with exit status `code` (semihosting `SYS_EXIT_EXTENDED`).
#[cfg(not(feature = "rtt"))]
pub fn exit(code: i32) -> ! {
    semihosting::process::exit(code)
}

/// Stops (RTT builds run on boards without a semihosting host): logs `code` and idles, so
/// the debug probe can still read the log.
#[cfg(feature = "rtt")]
pub fn exit(code: i32) -> ! {
    defmt::info!("exit {=i32}", code);
    loop {
        core::hint::spin_loop();
    }
}

#[panic_handler]
fn panic(info: &PanicInfo<'_>) -> ! {
    defmt::error!("panic: {}", defmt::Display2Format(info));
    exit(PANIC_EXIT_CODE)
}
