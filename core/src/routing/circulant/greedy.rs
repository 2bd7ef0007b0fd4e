//! Greedy routing by largest jump on any circulant `C(n; c1..ck)` (docs/routing.md §3).
//!
//! With offset `x = (t - u) mod n` from the current switch `u` to the destination switch
//! `t`, the next hop takes the signed jump `z = ±c_i` that minimises the remaining circular
//! distance `min(x', n - x')` of `x' = (x - z) mod n`; ties go to the larger `c_i`, then to
//! `+`. Recomputing the choice at every switch gives exactly the spec's repeated choice,
//! so the route is a function of (switch, destination). O(k) per hop.
//!
//! The route is not always minimal for arbitrary jump sets (e.g. `C(17; 1, 3)` from 0 to 8:
//! greedy `+3 +3 +3 -1`, 4 hops, while `-3 -3 -3` takes 3); use minimal BFS routing
//! (docs/routing.md §1) when minimality matters. Loop guard: a hop that does not reduce the
//! circular distance is an error, never a cycle. With `c1 = 1` (required by
//! [`Circulant`]) the jump `±1` always makes progress, so the guard only protects against
//! inconsistent parameters.

use crate::error::InvalidParam;
use crate::topology::Circulant;

use crate::routing::circulant::jump::{jump_routing, Jump};
use crate::routing::error::RoutingError;

/// Greedy largest-jump routing on a circulant (docs/routing.md §3), one VC.
#[derive(Clone, Copy, Debug)]
pub struct CirculantGreedy<'a> {
    circulant: &'a Circulant,
}

impl<'a> CirculantGreedy<'a> {
    /// Greedy routing on `circulant` (any jump set, ring included).
    pub fn new(circulant: &'a Circulant) -> Self {
        CirculantGreedy { circulant }
    }

    /// The topology.
    pub fn circulant(&self) -> &'a Circulant {
        self.circulant
    }

    /// The signed jump greedy takes at offset `x = (t - u) mod n` (`x < n`); `None` when
    /// `x == 0`. Fails when `x >= n` or when no jump reduces the circular distance.
    pub fn jump(&self, x: u32) -> Result<Option<Jump>, RoutingError> {
        let n = self.circulant.n() as u64;
        let x = x as u64;
        if x >= n {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "offset",
                value: x,
                rule: "a circulant offset must be below n",
            }));
        }
        if x == 0 {
            return Ok(None);
        }
        let circ = |y: u64| y.min(n - y);
        let mut best: Option<(u64, Jump)> = None;
        // Largest jump first and `+` before `-`; only a strictly better distance replaces
        // the choice, which implements the tie order (larger c_i, then `+`).
        for (index, &c) in self.circulant.jumps().iter().enumerate().rev() {
            let c = c as u64;
            if c >= n {
                continue; // not a jump of this circulant (jumps are at most n/2)
            }
            for forward in [true, false] {
                // (x - c) mod n and (x + c) mod n without a division per candidate.
                let rest = if forward {
                    if x >= c {
                        x - c
                    } else {
                        x + n - c
                    }
                } else if x + c >= n {
                    x + c - n
                } else {
                    x + c
                };
                let d = circ(rest);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, Jump { index, forward }));
                }
            }
        }
        match best {
            Some((d, j)) if d < circ(x) => Ok(Some(j)),
            _ => Err(RoutingError::Invalid(InvalidParam {
                param: "offset",
                value: x,
                rule: "greedy circulant routing needs a jump that reduces the circular distance",
            })),
        }
    }
}

jump_routing!(CirculantGreedy);
