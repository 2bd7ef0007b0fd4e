//! Signed jumps and offsets shared by the circulant routings (spec/routing.md §3): a hop of
//! a circulant `C(n; c1..ck)` follows one signed jump `±c_i`, and both algorithms decide
//! from the offset `x = (t - u) mod n` of the destination switch `t` seen from `u`.

use crate::topology::{Circulant, PortIndex, SwitchId};

use crate::routing::endpoint::check_switches;
use crate::routing::error::RoutingError;

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
    check_switches(n, at, t)?;
    Ok(((t as u64 + n as u64 - at as u64) % n as u64) as u32)
}

/// Output port of the next hop from switch `at` toward switch `t` of `c` by the signed
/// jump `jump` picks at the offset `(t - at) mod n`; `None` when `at == t`.
pub(crate) fn port_by_jump(
    c: &Circulant,
    at: SwitchId,
    t: SwitchId,
    jump: impl FnOnce(u32) -> Result<Option<Jump>, RoutingError>,
) -> Result<Option<PortIndex>, RoutingError> {
    let Some(j) = jump(offset(c, at, t)?)? else {
        return Ok(None);
    };
    c.jump_port(j.index, j.forward)
        .map(Some)
        .ok_or(RoutingError::Unreachable { from: at, to: t })
}
