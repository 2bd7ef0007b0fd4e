//! The host link over RTT (cargo feature `rtt`): wire frames on an RTT down and up channel,
//! the defmt log on up channel 0 (layout shared with the host: `jumpnet_core::wire::rtt`). A debug
//! probe reads and writes these ring buffers in RAM while the core runs (the host side is
//! `jumpnet::device::probe`).

use core::convert::Infallible;

use rtt_target::{rtt_init, ChannelMode, DownChannel, UpChannel};

use jumpnet_core::wire::rtt::{DEFMT_CHANNEL_BYTES, FRAME_CHANNEL_BYTES};

/// RTT frame channels as a byte port.
pub struct RttPort {
    up: UpChannel,
    down: DownChannel,
    peeked: Option<u8>,
}

impl core::fmt::Debug for RttPort {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RttPort")
            .field("peeked", &self.peeked)
            .finish_non_exhaustive()
    }
}

impl RttPort {
    /// Creates the RTT control block and channels and routes defmt to channel 0. Call once.
    pub fn take() -> Self {
        let channels = rtt_init! {
            up: {
                0: { size: DEFMT_CHANNEL_BYTES, mode: ChannelMode::NoBlockSkip, name: "defmt" }
                1: { size: FRAME_CHANNEL_BYTES, mode: ChannelMode::BlockIfFull, name: "jumpnet-frames" }
            }
            down: {
                0: { size: FRAME_CHANNEL_BYTES, name: "jumpnet-frames" }
            }
        };
        rtt_target::set_defmt_channel(channels.up.0);
        RttPort {
            up: channels.up.1,
            down: channels.down.0,
            peeked: None,
        }
    }

    fn poll(&mut self) -> Option<u8> {
        if self.peeked.is_none() {
            let mut b = [0u8; 1];
            if self.down.read(&mut b) == 1 {
                self.peeked = Some(b[0]);
            }
        }
        self.peeked
    }
}

impl embedded_io::ErrorType for RttPort {
    type Error = Infallible;
}

impl embedded_io::ReadReady for RttPort {
    fn read_ready(&mut self) -> Result<bool, Infallible> {
        Ok(self.poll().is_some())
    }
}

impl embedded_io::Read for RttPort {
    /// Blocks until one byte arrives and returns it.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        let Some(first) = buf.first_mut() else {
            return Ok(0);
        };
        loop {
            if let Some(b) = self.poll() {
                self.peeked = None;
                *first = b;
                return Ok(1);
            }
        }
    }
}

impl embedded_io::Write for RttPort {
    /// Blocks while the host has not read enough of the up channel.
    fn write(&mut self, buf: &[u8]) -> Result<usize, Infallible> {
        let mut rest = buf;
        while !rest.is_empty() {
            let n = self.up.write(rest);
            rest = rest.get(n..).unwrap_or_default();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        Ok(())
    }
}
