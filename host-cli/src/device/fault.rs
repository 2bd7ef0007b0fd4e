//! A transport wrapper that injects faults into what the host sends: each byte is dropped,
//! flipped (one random bit) or duplicated with probability `per_mille / 1000`, from a seeded
//! `jumpnet_core::rng::Rng` (smoltcp's `phy/fault_injector.rs` is the model).

use std::time::Duration;

use anyhow::Result;
use jumpnet_core::rng::Rng;

use super::Transport;

/// Wraps a transport and damages the bytes written through it.
#[derive(Debug)]
pub struct FaultInjector<T> {
    inner: T,
    rng: Rng,
    per_mille: u32,
    faults: u64,
}

impl<T: Transport> FaultInjector<T> {
    /// Damages about `per_mille` of every 1000 bytes written, deterministically from `seed`.
    pub fn new(inner: T, seed: u64, per_mille: u32) -> Self {
        FaultInjector {
            inner,
            rng: Rng::new(seed),
            per_mille,
            faults: 0,
        }
    }

    /// Faults injected so far.
    pub fn faults(&self) -> u64 {
        self.faults
    }

    /// Changes the fault rate.
    pub fn set_per_mille(&mut self, per_mille: u32) {
        self.per_mille = per_mille;
    }

    /// The wrapped transport.
    pub fn inner_mut(&mut self) -> &mut T {
        &mut self.inner
    }

    /// Unwraps the transport.
    pub fn into_inner(self) -> T {
        self.inner
    }
}

impl<T: Transport> Transport for FaultInjector<T> {
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        let mut out = Vec::with_capacity(bytes.len() + 8);
        for &b in bytes {
            if (self.rng.index(1000) as u32) < self.per_mille {
                self.faults += 1;
                match self.rng.index(3) {
                    0 => {}
                    1 => out.push(b ^ (1 << self.rng.index(8))),
                    _ => out.extend([b, b]),
                }
            } else {
                out.push(b);
            }
        }
        self.inner.write_all(&out)
    }

    fn read_byte(&mut self, timeout: Duration) -> Result<Option<u8>> {
        self.inner.read_byte(timeout)
    }
}
