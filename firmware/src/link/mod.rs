//! The host link's timing: a byte port polled with an embedded-hal 1.0 `DelayNs`, giving a
//! heartbeat and an inter-byte frame timeout, both counted in a [`LinkStatus`] that the
//! server reports in `Counters`.
//!
//! - [`heartbeat`]: whole periods counted from elapsed microseconds;
//! - [`timed_port`]: [`TimedPort`], an `embedded_io` port over a non-blocking one
//!   (`ReadReady`) and a `DelayNs`.

use core::cell::Cell;

pub mod heartbeat;
pub mod timed_port;

pub use heartbeat::Heartbeat;
pub use timed_port::{TimedPort, TimedPortError, Timing};

/// What the link counted, shared between the [`TimedPort`] that counts and the server that
/// reports it (single-threaded: plain `Cell`s).
#[derive(Debug, Default)]
pub struct LinkStatus {
    heartbeats: Cell<u32>,
    frame_timeouts: Cell<u32>,
}

impl LinkStatus {
    /// Nothing counted yet.
    pub const fn new() -> Self {
        LinkStatus {
            heartbeats: Cell::new(0),
            frame_timeouts: Cell::new(0),
        }
    }

    /// Heartbeats since start (never reset: the device's sign of life).
    pub fn heartbeats(&self) -> u32 {
        self.heartbeats.get()
    }

    /// Partial frames abandoned after the inter-byte timeout since start or the last reset.
    pub fn frame_timeouts(&self) -> u32 {
        self.frame_timeouts.get()
    }

    fn add_heartbeats(&self, n: u32) {
        self.heartbeats.set(self.heartbeats.get().wrapping_add(n));
    }

    fn add_frame_timeout(&self) {
        self.frame_timeouts
            .set(self.frame_timeouts.get().saturating_add(1));
    }

    /// Forgets the frame timeouts (a device `Reset`); the heartbeat keeps counting.
    pub fn reset(&self) {
        self.frame_timeouts.set(0);
    }
}
