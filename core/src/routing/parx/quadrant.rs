//! Quadrants and halves of a 2-D HyperX, and the link-removal rules R1–R4 of PARX
//! (docs/routing.md §7; \[HX\] §3.2.1).

use crate::error::InvalidParam;
use crate::topology::{HyperX, SwitchId};

use crate::routing::error::RoutingError;

/// Number of virtual destinations (LIDs) per endpoint: `2^LMC` with LMC = 2.
pub const LIDS: u8 = 4;

/// A quadrant of the 2-D HyperX (docs/routing.md §7): `Q0` = left-top, `Q1` = left-bottom,
/// `Q2` = right-bottom, `Q3` = right-top, where left = `x < S_0/2`, top = `y < S_1/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quadrant {
    /// Left-top.
    Q0,
    /// Left-bottom.
    Q1,
    /// Right-bottom.
    Q2,
    /// Right-top.
    Q3,
}

impl Quadrant {
    /// All quadrants in index order.
    pub const ALL: [Quadrant; 4] = [Quadrant::Q0, Quadrant::Q1, Quadrant::Q2, Quadrant::Q3];

    /// The quadrant on the given side of each middle.
    pub fn from_sides(left: bool, top: bool) -> Quadrant {
        match (left, top) {
            (true, true) => Quadrant::Q0,
            (true, false) => Quadrant::Q1,
            (false, false) => Quadrant::Q2,
            (false, true) => Quadrant::Q3,
        }
    }

    /// Index `0..4`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether the quadrant lies in the left half (`x < S_0/2`).
    pub fn is_left(self) -> bool {
        matches!(self, Quadrant::Q0 | Quadrant::Q1)
    }

    /// Whether the quadrant lies in the top half (`y < S_1/2`).
    pub fn is_top(self) -> bool {
        matches!(self, Quadrant::Q0 | Quadrant::Q3)
    }

    /// Whether `self` and `other` are diagonal (Q0↔Q2, Q1↔Q3): no half contains both.
    pub fn is_diagonal_to(self, other: Quadrant) -> bool {
        self.is_left() != other.is_left() && self.is_top() != other.is_top()
    }
}

/// A half of the 2-D HyperX; `LID_i` removes the links inside half `i` (rules R1–R4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Half {
    /// `x < S_0/2` (R1, `LID_0`).
    Left,
    /// `x ≥ S_0/2` (R2, `LID_1`).
    Right,
    /// `y < S_1/2` (R3, `LID_2`).
    Top,
    /// `y ≥ S_1/2` (R4, `LID_3`).
    Bottom,
}

impl Half {
    /// The half whose links are removed for `LID_lid` (R1–R4); `None` for `lid ≥ 4`.
    pub fn of_lid(lid: u8) -> Option<Half> {
        match lid {
            0 => Some(Half::Left),
            1 => Some(Half::Right),
            2 => Some(Half::Top),
            3 => Some(Half::Bottom),
            _ => None,
        }
    }

    /// Whether quadrant `q` lies in this half.
    pub fn contains(self, q: Quadrant) -> bool {
        match self {
            Half::Left => q.is_left(),
            Half::Right => !q.is_left(),
            Half::Top => q.is_top(),
            Half::Bottom => !q.is_top(),
        }
    }
}

/// Quadrant geometry of a 2-D HyperX with even sizes `S_0 × S_1` (switch id `x + S_0·y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quadrants {
    s0: u32,
    s1: u32,
}

impl Quadrants {
    /// Geometry of `hx`: it must have exactly 2 dimensions, both of even size (at least 2).
    pub fn new(hx: &HyperX) -> Result<Self, RoutingError> {
        let sizes = hx.sizes();
        if sizes.len() != 2 {
            return Err(RoutingError::Invalid(InvalidParam {
                param: "HyperX dimensions",
                value: sizes.len() as u64,
                rule: "PARX needs a 2-D HyperX",
            }));
        }
        for (i, &s) in sizes.iter().enumerate() {
            if s < 2 || s % 2 != 0 {
                return Err(RoutingError::Invalid(InvalidParam {
                    param: if i == 0 { "HyperX size S_0" } else { "HyperX size S_1" },
                    value: s as u64,
                    rule: "PARX needs even HyperX sizes (quadrants split each dimension at the middle)",
                }));
            }
        }
        Ok(Quadrants {
            s0: sizes[0],
            s1: sizes[1],
        })
    }

    /// Sizes `(S_0, S_1)`.
    pub fn sizes(&self) -> (u32, u32) {
        (self.s0, self.s1)
    }

    /// Quadrant of `switch`, or [`RoutingError::SwitchOutOfRange`].
    pub fn quadrant(&self, switch: SwitchId) -> Result<Quadrant, RoutingError> {
        let n = self.s0 * self.s1;
        if switch >= n {
            return Err(RoutingError::SwitchOutOfRange {
                switch,
                switches: n,
            });
        }
        let (x, y) = (switch % self.s0, switch / self.s0);
        Ok(Quadrant::from_sides(x < self.s0 / 2, y < self.s1 / 2))
    }

    /// Whether `switch` lies in `half` (false for switches out of range).
    #[inline]
    pub fn in_half(&self, half: Half, switch: SwitchId) -> bool {
        if switch >= self.s0 * self.s1 {
            return false;
        }
        let (x, y) = (switch % self.s0, switch / self.s0);
        match half {
            Half::Left => x < self.s0 / 2,
            Half::Right => x >= self.s0 / 2,
            Half::Top => y < self.s1 / 2,
            Half::Bottom => y >= self.s1 / 2,
        }
    }

    /// Whether the link between switches `u` and `v` is removed while routing toward
    /// `LID_lid` (rules R1–R4: both endpoints in the half; crossing links stay).
    #[inline]
    pub fn removed(&self, lid: u8, u: SwitchId, v: SwitchId) -> bool {
        match Half::of_lid(lid) {
            Some(h) => self.in_half(h, u) && self.in_half(h, v),
            None => false,
        }
    }
}
