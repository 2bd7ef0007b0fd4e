//! The firmware's embedded-hal link timing under QEMU: the heartbeat (SysTick `DelayNs`
//! polling, `jumpnet_firmware::link`) advances while the device waits for the host, and a
//! truncated frame followed by silence is dropped after the inter-byte timeout, so the next
//! request is served (not merged into a bad frame).
//!
//! Ignored by default: `cargo xtask firmware` sets `JUMPNET_FIRMWARE_ELF` and runs it.

use std::path::PathBuf;
use std::thread::sleep;
use std::time::Duration;

use jumpnet::device::qemu::Qemu;
use jumpnet::device::{Client, Transport};
use jumpnet_core::wire::device::DeviceCommand;
use jumpnet_core::wire::frame;
use jumpnet_core::wire::{Command, Request, MAX_FRAME_LEN};
use jumpnet_firmware::link::Timing;

fn elf() -> PathBuf {
    std::env::var_os("JUMPNET_FIRMWARE_ELF")
        .map(PathBuf::from)
        .expect("JUMPNET_FIRMWARE_ELF is not set: run `cargo xtask firmware`")
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn heartbeat_advances_and_a_truncated_frame_times_out() {
    let q = Qemu::start(&elf(), 60).unwrap();
    let mut client = Client::new(q);
    let first = client.counters().unwrap();
    // Idle for several heartbeat periods: the device keeps polling and beating.
    sleep(Duration::from_micros(
        u64::from(Timing::DEFAULT.heartbeat_us) * 10,
    ));
    let second = client.counters().unwrap();
    assert!(
        second.heartbeats > first.heartbeats,
        "heartbeat did not advance: {} then {}",
        first.heartbeats,
        second.heartbeats
    );
    assert_eq!(second.frame_timeouts, 0);

    // Half a frame, then silence well past the frame timeout.
    let mut buf = [0u8; MAX_FRAME_LEN];
    let request = Request::new(999, Command::Device(DeviceCommand::Counters));
    let whole = frame::encode(&request, &mut buf).unwrap().to_vec();
    client
        .transport_mut()
        .write_all(&whole[..whole.len() / 2])
        .unwrap();
    sleep(Duration::from_micros(
        u64::from(Timing::DEFAULT.frame_timeout_us) * 10,
    ));
    let third = client.counters().unwrap();
    assert_eq!(third.frame_timeouts, 1, "the partial frame timed out");
    assert_eq!(
        third.bad_frames, second.bad_frames,
        "the next request was not merged with the partial frame"
    );
    assert!(third.heartbeats >= second.heartbeats);
    client.call(Command::Shutdown).unwrap();
    let done = client.into_transport().finish().unwrap();
    assert!(done.status.success(), "QEMU exit: {:?}", done.status);
    assert!(
        done.log
            .iter()
            .any(|l| l.contains("partial frame dropped after the inter-byte timeout")),
        "log: {:?}",
        done.log
    );
}
