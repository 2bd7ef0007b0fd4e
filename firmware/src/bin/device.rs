//! Device firmware sized for one network: a switch of the 1,024-node circulant
//! `G(1024, 10)` holding its NAF route table and allreduce programs, serving the device
//! commands (no on-device route-table computation, no self-test state). `cargo xtask bench`
//! reports its flash and static RAM from the ELF sections.
//!
//! Capacities (const generics of `DeviceService`, `jumpnet_firmware::device::g1024`):
//! 1,024 table runs (NAF changes port at almost every destination), 4 programs, 80 ops (a
//! 1,024-rank recursive-doubling allreduce has 20 ops per rank), and two 5 KiB image
//! buffers (staging and active; the largest image of this network is 4,426 bytes).
#![cfg_attr(target_os = "none", no_std)]
#![cfg_attr(target_os = "none", no_main)]

#[cfg(target_os = "none")]
mod device {
    use cortex_m as _;
    use cortex_m_rt::entry;
    use jumpnet_core::wire::WIRE_VERSION;
    use jumpnet_firmware::board::host_port;
    use jumpnet_firmware::board::mps2_an386::{exit, SysTickDelay};
    use jumpnet_firmware::device::g1024;
    use jumpnet_firmware::link::{LinkStatus, TimedPort, TimedPortError, Timing};
    use jumpnet_firmware::selftest::Action;
    use jumpnet_firmware::serve::{ServeError, Served, Server};

    #[entry]
    fn main() -> ! {
        static mut DEVICE: g1024::Device = g1024::Device::new();
        let link = LinkStatus::new();
        let mut server = Server::new(None, DEVICE).with_link(&link);
        let peripherals = cortex_m::Peripherals::take().expect("peripherals taken once");
        let mut port = TimedPort::new(
            host_port(),
            SysTickDelay::new(peripherals.SYST),
            Timing::DEFAULT,
            &link,
        );
        defmt::info!("jumpnet device up, wire version {=u8}", WIRE_VERSION);
        loop {
            match server.serve_one(&mut port) {
                Ok(Served::Request { id, action, .. }) => match action {
                    Action::Continue => {}
                    Action::Shutdown => exit(0),
                    Action::Panic => panic!("panic requested by the host (request {})", id),
                },
                Ok(Served::BadFrame(e)) => defmt::warn!("bad frame: {}", defmt::Debug2Format(&e)),
                Err(ServeError::EndOfInput) => exit(1),
                Err(ServeError::Encode(e)) => {
                    defmt::error!("response not encodable: {}", defmt::Debug2Format(&e));
                    exit(1)
                }
                Err(ServeError::Io(TimedPortError::FrameTimeout)) => {
                    defmt::warn!("partial frame dropped after the inter-byte timeout");
                    server.abandon_frame();
                }
                Err(ServeError::Io(TimedPortError::Port(never))) => match never {},
            }
        }
    }
}

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!("device is firmware for thumbv7em-none-eabihf (QEMU mps2-an386): run `cargo xtask firmware`");
    std::process::exit(2);
}
