//! The firmware HIL tests' view of a device under QEMU: a thin, panicking wrapper over the
//! library's QEMU transport (`jumpnet::device::qemu`), one request or response at a time.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use jumpnet::device::qemu::{self, Qemu as QemuTransport};
use jumpnet::device::Transport;
use jumpnet_core::wire::frame;
use jumpnet_core::wire::{Request, Response, MAX_FRAME_LEN};

pub use jumpnet::device::qemu::Finished;

/// Longest wait for one response.
const READ_TIMEOUT: Duration = Duration::from_secs(20);

/// The firmware ELF under test: `$JUMPNET_FIRMWARE_ELF` (set by `cargo xtask firmware`).
pub fn firmware_elf() -> PathBuf {
    let path = std::env::var_os("JUMPNET_FIRMWARE_ELF")
        .map(PathBuf::from)
        .expect(
            "JUMPNET_FIRMWARE_ELF is not set: run these tests with `cargo xtask firmware`, which \
             builds the firmware for thumbv7em-none-eabihf and sets it",
        );
    assert!(
        path.is_file(),
        "firmware ELF {} does not exist",
        path.display()
    );
    path
}

/// A running firmware under QEMU.
pub struct Qemu(QemuTransport);

impl Qemu {
    /// Starts QEMU on `elf` (killed after `qemu::DEFAULT_LIMIT_S` seconds).
    pub fn start(elf: &std::path::Path) -> Self {
        Qemu(QemuTransport::start(elf, qemu::DEFAULT_LIMIT_S).expect("start QEMU"))
    }

    /// Sends raw bytes on the UART.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.0.write_all(bytes).expect("write UART");
    }

    /// Sends one request frame.
    pub fn send(&mut self, request: &Request) {
        let mut buf = [0u8; MAX_FRAME_LEN];
        let bytes = frame::encode(request, &mut buf).expect("request fits a frame");
        self.send_raw(bytes);
    }

    /// Reads one response frame.
    pub fn receive(&mut self) -> Response {
        let mut frame_bytes = Vec::new();
        loop {
            match self.0.read_byte(READ_TIMEOUT).expect("read UART") {
                None => panic!("no response within {READ_TIMEOUT:?}"),
                Some(frame::TERMINATOR) if frame_bytes.is_empty() => {}
                Some(frame::TERMINATOR) => break,
                Some(b) => frame_bytes.push(b),
            }
        }
        frame::decode(&mut frame_bytes).expect("device response decodes")
    }

    /// Sends `request` and returns the device's response.
    pub fn call(&mut self, request: &Request) -> Response {
        self.send(request);
        self.receive()
    }

    /// Waits for QEMU to exit and decodes the defmt log.
    pub fn finish(self) -> Finished {
        self.0.finish().expect("finish QEMU")
    }
}

/// Request ids 1, 2, 3, … of one test.
pub struct Ids(pub u16);

impl Ids {
    /// The next id.
    pub fn next(&mut self) -> u16 {
        self.0 += 1;
        self.0
    }
}
