//! [`TimedPort`]: reads from a non-blocking byte port, waiting with an embedded-hal 1.0
//! `DelayNs` between polls. The waiting time drives a [`Heartbeat`], and a frame whose next
//! byte does not come within [`Timing::frame_timeout_us`] is abandoned with
//! [`TimedPortError::FrameTimeout`] (the server then drops the partial frame, so a truncated
//! frame followed by silence does not swallow the next good one).
//!
//! Time is counted from the delays only, so the heartbeat measures the serving loop's idle
//! wait (its sign of life while it waits for the host), not wall-clock time.

use core::fmt;

use embedded_hal::delay::DelayNs;
use embedded_io::{ErrorKind, ErrorType, Read, ReadReady, Write};

use super::{Heartbeat, LinkStatus};
use jumpnet_core::wire::frame::TERMINATOR;

/// Poll interval, heartbeat period and frame timeout of a [`TimedPort`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Wait between two polls that found no byte, in µs.
    pub poll_us: u32,
    /// Heartbeat period, in µs of waiting.
    pub heartbeat_us: u32,
    /// Longest wait for the next byte of a started frame, in µs (0: no timeout).
    pub frame_timeout_us: u32,
}

impl Timing {
    /// The firmware's timing: 20 µs polls, a heartbeat every 100 ms, 50 ms frame timeout.
    pub const DEFAULT: Timing = Timing {
        poll_us: 20,
        heartbeat_us: 100_000,
        frame_timeout_us: 50_000,
    };
}

/// Errors of a [`TimedPort`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimedPortError<E> {
    /// The inner port failed.
    Port(E),
    /// A started frame got no byte within the frame timeout.
    FrameTimeout,
}

impl<E: fmt::Debug> fmt::Display for TimedPortError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimedPortError::Port(e) => write!(f, "port error: {e:?}"),
            TimedPortError::FrameTimeout => f.write_str("frame timed out between two bytes"),
        }
    }
}

impl<E: fmt::Debug> core::error::Error for TimedPortError<E> {}

impl<E: embedded_io::Error> embedded_io::Error for TimedPortError<E> {
    fn kind(&self) -> ErrorKind {
        match self {
            TimedPortError::Port(e) => e.kind(),
            TimedPortError::FrameTimeout => ErrorKind::TimedOut,
        }
    }
}

/// A byte port with a heartbeat and a frame timeout (see the module documentation).
#[derive(Debug)]
pub struct TimedPort<'a, P, D> {
    port: P,
    delay: D,
    timing: Timing,
    heartbeat: Heartbeat,
    link: &'a LinkStatus,
    in_frame: bool,
}

impl<'a, P, D> TimedPort<'a, P, D>
where
    P: Read + ReadReady + Write,
    D: DelayNs,
{
    /// Wraps `port`, waiting with `delay` and counting into `link`.
    pub fn new(port: P, delay: D, timing: Timing, link: &'a LinkStatus) -> Self {
        TimedPort {
            port,
            delay,
            timing,
            heartbeat: Heartbeat::new(timing.heartbeat_us),
            link,
            in_frame: false,
        }
    }

    /// Gives back the port and the delay.
    pub fn release(self) -> (P, D) {
        (self.port, self.delay)
    }

    /// Waits one poll interval and counts it.
    fn wait(&mut self) {
        self.delay.delay_us(self.timing.poll_us);
        let beats = self.heartbeat.advance(self.timing.poll_us);
        if beats > 0 {
            self.link.add_heartbeats(beats);
        }
    }
}

impl<P: ErrorType, D> ErrorType for TimedPort<'_, P, D> {
    type Error = TimedPortError<P::Error>;
}

impl<P, D> Read for TimedPort<'_, P, D>
where
    P: Read + ReadReady + Write,
    D: DelayNs,
{
    /// Waits for one byte (polling) and returns it; see [`TimedPortError::FrameTimeout`].
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        let Some(first) = buf.first_mut() else {
            return Ok(0);
        };
        let mut waited_us: u32 = 0;
        loop {
            if self.port.read_ready().map_err(TimedPortError::Port)? {
                let mut byte = [0u8; 1];
                let n = self.port.read(&mut byte).map_err(TimedPortError::Port)?;
                if n == 0 {
                    return Ok(0);
                }
                *first = byte[0];
                self.in_frame = byte[0] != TERMINATOR;
                return Ok(1);
            }
            self.wait();
            if self.in_frame && self.timing.frame_timeout_us > 0 {
                waited_us = waited_us.saturating_add(self.timing.poll_us);
                if waited_us >= self.timing.frame_timeout_us {
                    self.in_frame = false;
                    self.link.add_frame_timeout();
                    return Err(TimedPortError::FrameTimeout);
                }
            }
        }
    }
}

impl<P, D> Write for TimedPort<'_, P, D>
where
    P: Write,
{
    fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
        self.port.write(buf).map_err(TimedPortError::Port)
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.port.flush().map_err(TimedPortError::Port)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "timed_port_tests.rs"]
mod tests;
