//! Wire frames over RTT: [`RttLink`] turns three RTT channels (frames down, frames up,
//! defmt log up; layout in `jumpnet_core::wire::rtt`) into a [`Transport`]. RTT channels
//! are ring buffers in the device's RAM that accept or yield only what fits at the moment,
//! so writes are chunked to whatever the down channel takes and reads are polled; the log
//! channel is drained on every poll so a chatty device never blocks on a full log.
//!
//! The probe-rs backend (`device::probe`, cargo feature `probe`) implements
//! [`RttChannels`] on a real target; the tests use an in-memory mock with small buffers.

use std::collections::VecDeque;
use std::thread::sleep;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use super::Transport;

/// The device side's RTT channels as the host sees them.
pub trait RttChannels {
    /// Writes as much of `bytes` to the frame down channel as fits now; returns how many.
    fn write_down(&mut self, bytes: &[u8]) -> Result<usize>;
    /// Reads what the frame up channel holds (at most `buf.len()` bytes); returns how many.
    fn read_up(&mut self, buf: &mut [u8]) -> Result<usize>;
    /// Reads what the defmt up channel holds (at most `buf.len()` bytes); returns how many.
    fn read_log(&mut self, buf: &mut [u8]) -> Result<usize>;
}

/// A [`Transport`] over [`RttChannels`], collecting the defmt log on the side.
#[derive(Debug)]
pub struct RttLink<C> {
    channels: C,
    rx: VecDeque<u8>,
    log: Vec<u8>,
    /// Pause between two polls that moved nothing.
    pub poll: Duration,
    /// Longest time a write may wait for room in the down channel.
    pub write_timeout: Duration,
}

/// Bytes read from a channel per poll.
const READ_CHUNK: usize = 1024;

impl<C: RttChannels> RttLink<C> {
    /// A link over `channels` (1 ms polls, 2 s write timeout).
    pub fn new(channels: C) -> Self {
        RttLink {
            channels,
            rx: VecDeque::new(),
            log: Vec::new(),
            poll: Duration::from_millis(1),
            write_timeout: Duration::from_secs(2),
        }
    }

    /// Reads both up channels once; returns whether anything arrived.
    fn pull(&mut self) -> Result<bool> {
        let mut buf = [0u8; READ_CHUNK];
        let log = self.channels.read_log(&mut buf)?;
        self.log.extend_from_slice(&buf[..log.min(buf.len())]);
        let up = self.channels.read_up(&mut buf)?;
        self.rx.extend(&buf[..up.min(buf.len())]);
        Ok(log > 0 || up > 0)
    }

    /// Drains the log channel and returns the defmt bytes collected so far.
    pub fn take_log(&mut self) -> Result<Vec<u8>> {
        while self.pull()? {}
        Ok(std::mem::take(&mut self.log))
    }

    /// The channels.
    pub fn channels_mut(&mut self) -> &mut C {
        &mut self.channels
    }
}

impl<C: RttChannels> Transport for RttLink<C> {
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        let mut sent = 0;
        let mut waiting_since = Instant::now();
        while sent < bytes.len() {
            let n = self.channels.write_down(&bytes[sent..])?;
            if n > 0 {
                sent += n;
                waiting_since = Instant::now();
                continue;
            }
            // The device has not read the down channel yet: keep its up channels flowing
            // (it may be blocked writing an answer) and wait.
            self.pull()?;
            if waiting_since.elapsed() >= self.write_timeout {
                bail!(
                    "the device did not read the RTT down channel for {:?} ({} of {} bytes \
                     sent): is firmware built with `--features rtt` running?",
                    self.write_timeout,
                    sent,
                    bytes.len()
                );
            }
            sleep(self.poll);
        }
        Ok(())
    }

    fn read_byte(&mut self, timeout: Duration) -> Result<Option<u8>> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(b) = self.rx.pop_front() {
                return Ok(Some(b));
            }
            if !self.pull()? {
                if Instant::now() >= deadline {
                    return Ok(None);
                }
                sleep(self.poll);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "rtt_tests.rs"]
mod tests;
