//! Self-test firmware for QEMU `mps2-an386`: serves [`jumpnet_core::wire`] requests
//! (self-test computations, route tables and the device commands) on UART0 until the host sends `Shutdown`
//! (exit 0) or `Panic` (exit 101); logs with defmt.
//!
//! Built for the host it is only a stub that explains how to run it.
#![cfg_attr(target_os = "none", no_std)]
#![cfg_attr(target_os = "none", no_main)]

#[cfg(target_os = "none")]
mod device {
    use cortex_m as _;
    use cortex_m_rt::entry;
    use jumpnet_core::wire::WIRE_VERSION;
    use jumpnet_firmware::board::host_port;
    use jumpnet_firmware::board::mps2_an386::{exit, SysTickDelay};
    use jumpnet_firmware::device::SelftestDevice;
    use jumpnet_firmware::link::{LinkStatus, TimedPort, TimedPortError, Timing};
    use jumpnet_firmware::selftest::Action;
    use jumpnet_firmware::serve::{CommandKind, ServeError, Served, Server};
    use jumpnet_firmware::tables::TableService;

    #[entry]
    fn main() -> ! {
        // The route-table buffers (about 110 KiB) and the device image service: a
        // `static mut` at the top of the entry function is a safe `&'static mut` placed in
        // `.bss` by cortex-m-rt, never built on the stack.
        static mut TABLES: TableService = TableService::new();
        static mut DEVICE: SelftestDevice = SelftestDevice::new();
        let link = LinkStatus::new();
        let mut server = Server::new(Some(TABLES), DEVICE).with_link(&link);
        let server = &mut server;
        let peripherals = cortex_m::Peripherals::take().expect("peripherals taken once");
        let mut port = TimedPort::new(
            host_port(),
            SysTickDelay::new(peripherals.SYST),
            Timing::DEFAULT,
            &link,
        );
        defmt::info!("jumpnet selftest up, wire version {=u8}", WIRE_VERSION);
        loop {
            match server.serve_one(&mut port) {
                Ok(Served::Request {
                    id,
                    kind,
                    rejected,
                    action,
                }) => {
                    defmt::debug!("request {=u16} {} rejected={=bool}", id, kind, rejected);
                    if kind == CommandKind::RouteTable {
                        defmt::debug!("route tables computed: {=u32}", server.tables_computed());
                    }
                    match action {
                        Action::Continue => {}
                        Action::Shutdown => {
                            defmt::info!("shutdown after {=u32} requests", server.served());
                            exit(0)
                        }
                        Action::Panic => panic!("panic requested by the host (request {})", id),
                    }
                }
                Ok(Served::BadFrame(e)) => defmt::warn!("bad frame: {}", defmt::Debug2Format(&e)),
                Err(ServeError::EndOfInput) => {
                    defmt::error!("UART0 reached end of input");
                    exit(1)
                }
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
    eprintln!(
        "selftest is firmware for thumbv7em-none-eabihf (QEMU mps2-an386): run `cargo xtask firmware`"
    );
    std::process::exit(2);
}
