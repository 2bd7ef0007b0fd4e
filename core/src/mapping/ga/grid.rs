//! The `n × n` grid of physical positions a GA gene is laid out on (docs/mapping.md §5).

use super::Address;
use crate::error::InvalidParam;
use crate::mapping::MappingError;

/// Square grid of `side × side` physical positions; position `p = y·side + x`
/// (docs/topologies.md §4 node id of a 2-D torus). Coordinates wrap around in every helper, as on
/// the torus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    side: u16,
}

impl Grid {
    /// Largest supported side (`side²` addresses must fit below [`Address::MAX`]).
    pub const MAX_SIDE: u16 = 255;

    /// A `side × side` grid; `2 ≤ side ≤ 255`.
    pub fn new(side: u16) -> Result<Self, MappingError> {
        if !(2..=Self::MAX_SIDE).contains(&side) {
            return Err(MappingError::Invalid(InvalidParam {
                param: "side",
                value: side as u64,
                rule: "the GA grid needs 2 <= side <= 255",
            }));
        }
        Ok(Grid { side })
    }

    /// Side length `n`.
    #[inline]
    pub fn side(&self) -> u16 {
        self.side
    }

    /// Number of positions `N = n²`.
    #[inline]
    pub fn nodes(&self) -> usize {
        self.side as usize * self.side as usize
    }

    /// Position of `(x, y)`, both taken modulo the side.
    #[inline]
    pub fn pos(&self, x: u32, y: u32) -> usize {
        let n = self.side as u32;
        ((y % n) * n + (x % n)) as usize
    }

    /// Coordinates `(x, y)` of position `p`.
    #[inline]
    pub fn xy(&self, p: Address) -> (u32, u32) {
        let n = self.side as u32;
        (p as u32 % n, p as u32 / n)
    }
}
