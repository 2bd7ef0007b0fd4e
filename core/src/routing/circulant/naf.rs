//! Optimal routing on `G(n, log2 n) = C(n; 1, 2, 4, ..., n/2)` by the non-adjacent form
//! (docs/routing.md §3).
//!
//! With offset `x = (t - u) mod n`: if `x = n/2`, take the jump `+n/2`; otherwise take the
//! lowest NAF digit of `x`: `b` = index of the lowest set bit, jump `+2^b` if
//! `(x >> b) & 3 == 1`, else `-2^b` (the carry into `2^k = n` is dropped by the modulus).
//! Recomputing at every switch takes the NAF digits lowest first, which is the route of the
//! spec. The number of jumps is the NAF weight of `x` (with the `n/2` rule), which equals
//! the BFS distance: the routing is minimal. O(1) per hop, one VC.

use crate::error::InvalidParam;
use crate::topology::Circulant;

use crate::routing::circulant::jump::{jump_routing, Jump};
use crate::routing::error::RoutingError;

/// NAF routing on `G(n, log2 n)` (docs/routing.md §3), one VC.
#[derive(Clone, Copy, Debug)]
pub struct CirculantNaf<'a> {
    circulant: &'a Circulant,
}

impl<'a> CirculantNaf<'a> {
    /// NAF routing on `circulant`, which must be `G(n, log2 n)`: `n` a power of two and
    /// jumps exactly `1, 2, 4, ..., n/2`.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::routing::paths::walk::walk;
    /// use jumpnet_core::routing::CirculantNaf;
    /// use jumpnet_core::topology::Circulant;
    ///
    /// let g = Circulant::g(16)?;
    /// let naf = CirculantNaf::new(&g)?;
    /// // Offset 11 = 16 − 4 − 1: its NAF digits, lowest first, are −1 and −4: 0 → 15 → 11.
    /// let (mut path, mut len) = ([0u32; 4], 0);
    /// let hops = walk(&g, &naf, 0, 11, 8, |step| {
    ///     path[len] = step.to;
    ///     len += 1;
    /// })?;
    /// assert_eq!((hops, &path[..len]), (2, &[15, 11][..]));
    /// // The offset n/2 = 8 is the single jump +8, and no route is longer than the diameter 2.
    /// assert_eq!(walk(&g, &naf, 3, 11, 8, |_| {})?, 1);
    /// assert!((1..16).all(|t| walk(&g, &naf, 0, t, 8, |_| {}).is_ok_and(|h| h <= 2)));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(circulant: &'a Circulant) -> Result<Self, RoutingError> {
        let n = circulant.n();
        if !n.is_power_of_two() {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "n",
                value: n as u64,
                rule: "NAF routing needs G(n, log2 n) with n a power of two",
            }));
        }
        let jumps = circulant.jumps();
        let powers = jumps.len() == n.trailing_zeros() as usize
            && jumps.iter().enumerate().all(|(i, &c)| c == 1 << i);
        if !powers {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "jumps",
                value: jumps.len() as u64,
                rule: "NAF routing needs G(n, log2 n): jumps exactly 1, 2, 4, ..., n/2",
            }));
        }
        Ok(CirculantNaf { circulant })
    }

    /// The topology.
    pub fn circulant(&self) -> &'a Circulant {
        self.circulant
    }

    /// The jump taken at offset `x = (t - u) mod n` (`x < n`): `+n/2` if `x = n/2`, else the
    /// lowest NAF digit of `x`; `None` when `x == 0`.
    pub fn jump(&self, x: u32) -> Result<Option<Jump>, RoutingError> {
        let n = self.circulant.n();
        if x >= n {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "offset",
                value: x as u64,
                rule: "a circulant offset must be below n",
            }));
        }
        if x == 0 {
            return Ok(None);
        }
        if 2 * x as u64 == n as u64 {
            return Ok(Some(Jump {
                index: n.trailing_zeros() as usize - 1,
                forward: true,
            }));
        }
        let b = x.trailing_zeros();
        Ok(Some(Jump {
            index: b as usize,
            forward: (x >> b) & 3 == 1,
        }))
    }
}

jump_routing!(CirculantNaf);
