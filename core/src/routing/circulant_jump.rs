//! Signed jumps and offsets shared by the circulant routings (spec/routing.md §3): a hop of
//! a circulant `C(n; c1..ck)` follows one signed jump `±c_i`, and both algorithms decide
//! from the offset `x = (t - u) mod n` of the destination switch `t` seen from `u`.

use crate::topology::{Circulant, SwitchId};

use super::error::RoutingError;

/// A signed jump of a circulant: jump `c_{index+1}`, forward (`+c`) or backward (`-c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    /// Index of the jump in the jump sequence (0-based).
    pub index: usize,
    /// `true` for `+c`, `false` for `-c`.
    pub forward: bool,
}

/// Offset `(t - at) mod n` between two switches of `c`, after checking both.
pub(crate) fn offset(c: &Circulant, at: SwitchId, t: SwitchId) -> Result<u32, RoutingError> {
    let n = c.n();
    for s in [at, t] {
        if s >= n {
            return Err(RoutingError::SwitchOutOfRange {
                switch: s,
                switches: n,
            });
        }
    }
    Ok(((t as u64 + n as u64 - at as u64) % n as u64) as u32)
}
