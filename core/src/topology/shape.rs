//! Mixed-radix coordinates of grid-like topologies: torus, mesh (docs/topologies.md §4) and
//! HyperX (§8).
//!
//! A shape has per-dimension sizes `k_0..k_{L-1}`; a point `(x_0, ..., x_{L-1})` with
//! `0 <= x_i < k_i` has id `Σ x_i · Π_{j<i} k_j` (dimension 0 least significant).

use crate::error::{CapacityError, InvalidParam};
use heapless::Vec;

use super::limits::{check_switches, MAX_DIMS};
use super::TopologyError;

/// Coordinates of one point, one entry per dimension.
pub type Coords = Vec<u32, MAX_DIMS>;

/// Per-dimension sizes and strides of a grid (docs/topologies.md §4 numbering).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    sizes: Vec<u32, MAX_DIMS>,
    strides: Vec<u32, MAX_DIMS>,
    count: u32,
    /// When every size is a power of two, per bit of a point id: its dimension, the
    /// dimension's first bit and its bit count, packed by [`bit_dim`]
    /// ([`Shape::first_difference`] then takes the lowest differing bit).
    bit_dims: Option<[u16; 32]>,
}

/// A [`Shape::bit_dims`] entry: dimension `dim` (below 16) in bits 0–3, its first bit
/// `shift` (below 32) in bits 4–8, its bit count `bits` (below 32) in bits 9–13.
fn bit_dim(dim: usize, shift: u32, bits: u32) -> u16 {
    (dim as u16) | (shift as u16) << 4 | (bits as u16) << 9
}

/// [`Shape::bit_dims`] of `sizes` with `strides`: `None` unless every size is a power of
/// two. Ids are below 2^30, so 32 entries cover every bit.
fn bit_dims(sizes: &[u32], strides: &[u32]) -> Option<[u16; 32]> {
    let mut dims = [0u16; 32];
    for (dim, (&k, &stride)) in sizes.iter().zip(strides).enumerate() {
        if !k.is_power_of_two() {
            return None;
        }
        let (lo, bits) = (stride.trailing_zeros(), k.trailing_zeros());
        for d in dims.iter_mut().skip(lo as usize).take(bits as usize) {
            *d = bit_dim(dim, lo, bits);
        }
    }
    Some(dims)
}

impl Shape {
    /// Validates `sizes` (named `param` in errors): at least one and at most
    /// [`MAX_DIMS`] dimensions, every size at least 1, and the product at most
    /// [`MAX_SWITCHES`](super::limits::MAX_SWITCHES).
    pub fn new(sizes: &[u32], param: &'static str) -> Result<Self, TopologyError> {
        if sizes.is_empty() {
            return Err(TopologyError::Invalid(InvalidParam {
                param,
                value: 0,
                rule: "at least one dimension is needed",
            }));
        }
        if sizes.len() > MAX_DIMS {
            return Err(TopologyError::Capacity(CapacityError {
                what: "dimensions",
                needed: sizes.len() as u64,
                available: MAX_DIMS as u64,
            }));
        }
        if let Some(&k) = sizes.iter().find(|&&k| k == 0) {
            return Err(TopologyError::Invalid(InvalidParam {
                param,
                value: k as u64,
                rule: "every dimension size must be at least 1",
            }));
        }
        let product = sizes
            .iter()
            .fold(1u64, |acc, &k| acc.saturating_mul(k as u64));
        let count = check_switches(product)?;
        // Every stride divides `count <= 2^30`, so none overflows.
        let mut strides = Vec::new();
        let mut stride = 1u32;
        for &k in sizes {
            let _ = strides.push(stride);
            stride = stride.saturating_mul(k);
        }
        let mut own = Vec::new();
        let _ = own.extend_from_slice(sizes);
        Ok(Shape {
            bit_dims: bit_dims(sizes, &strides),
            sizes: own,
            strides,
            count,
        })
    }

    /// Number of dimensions `L`.
    #[inline]
    pub fn dims(&self) -> usize {
        self.sizes.len()
    }

    /// The sizes `k_0..k_{L-1}`.
    #[inline]
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// Size of dimension `dim`, `None` when out of range.
    #[inline]
    pub fn size(&self, dim: usize) -> Option<u32> {
        self.sizes.get(dim).copied()
    }

    /// Stride `Π_{j<dim} k_j` of dimension `dim`, `None` when out of range.
    #[inline]
    pub fn stride(&self, dim: usize) -> Option<u32> {
        self.strides.get(dim).copied()
    }

    /// Number of points `Π k_i`.
    #[inline]
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Coordinate `x_dim` of point `id`; `None` when `id` or `dim` is out of range.
    #[inline]
    pub fn coord(&self, id: u32, dim: usize) -> Option<u32> {
        if id >= self.count {
            return None;
        }
        let k = self.size(dim)?;
        let stride = self.stride(dim)?;
        Some(id / stride % k)
    }

    /// All coordinates of point `id`; `None` when out of range.
    pub fn coords(&self, id: u32) -> Option<Coords> {
        if id >= self.count {
            return None;
        }
        let mut out = Coords::new();
        let mut rest = id;
        for &k in &self.sizes {
            let _ = out.push(rest % k);
            rest /= k;
        }
        Some(out)
    }

    /// Id of the point with coordinates `coords`; `None` when the number of coordinates
    /// differs from [`dims`](Self::dims) or a coordinate is out of range.
    pub fn id(&self, coords: &[u32]) -> Option<u32> {
        if coords.len() != self.dims() {
            return None;
        }
        let mut id = 0u32;
        for ((&x, &k), &stride) in coords.iter().zip(&self.sizes).zip(&self.strides) {
            if x >= k {
                return None;
            }
            id += x * stride;
        }
        Some(id)
    }

    /// Id of the point that equals `id` except for coordinate `dim`, which becomes `value`;
    /// `None` when any argument is out of range.
    #[inline]
    pub fn with_coord(&self, id: u32, dim: usize, value: u32) -> Option<u32> {
        let k = self.size(dim)?;
        if value >= k {
            return None;
        }
        let stride = self.stride(dim)?;
        let old = self.coord(id, dim)?;
        Some(id - old * stride + value * stride)
    }

    /// The lowest dimension where points `a` and `b` differ, with their coordinates there:
    /// `(dim, a_dim, b_dim, size_dim)`; `None` when `a == b` or either is out of range.
    #[inline]
    pub fn first_difference(&self, a: u32, b: u32) -> Option<(usize, u32, u32, u32)> {
        if a >= self.count || b >= self.count {
            return None;
        }
        if let Some(dims) = &self.bit_dims {
            // Routing asks this at every hop: with power-of-two sizes the lowest differing
            // bit names the dimension (the same values as the loop below).
            let diff = a ^ b;
            if diff == 0 {
                return None;
            }
            let entry = dims[diff.trailing_zeros() as usize];
            let (dim, shift, bits) = (entry & 15, entry >> 4 & 31, entry >> 9 & 31);
            let mask = (1u32 << bits) - 1;
            let (x, y) = ((a >> shift) & mask, (b >> shift) & mask);
            return Some((usize::from(dim), x, y, mask + 1));
        }
        let (mut a, mut b) = (a, b);
        for (dim, &k) in self.sizes.iter().enumerate() {
            // Routing asks this at every hop: a power-of-two radix takes a mask and a shift
            // instead of two divisions (the same values).
            let (x, y) = if k.is_power_of_two() {
                (a & (k - 1), b & (k - 1))
            } else {
                (a % k, b % k)
            };
            if x != y {
                return Some((dim, x, y, k));
            }
            if k.is_power_of_two() {
                let shift = k.trailing_zeros();
                a >>= shift;
                b >>= shift;
            } else {
                a /= k;
                b /= k;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn numbering_puts_dimension_zero_least_significant() {
        // docs/topologies.md §4: for a 2-D n×n torus id = y·n + x.
        let s = Shape::new(&[5, 5], "radices").unwrap();
        assert_eq!(s.id(&[3, 2]), Some(2 * 5 + 3));
        assert_eq!(s.coords(13).unwrap().as_slice(), &[3, 2]);
        let m = Shape::new(&[2, 3, 4], "radices").unwrap();
        assert_eq!(m.count(), 24);
        assert_eq!(m.id(&[1, 2, 3]), Some(1 + 2 * 2 + 3 * 6));
        assert_eq!(
            m.first_difference(m.id(&[1, 2, 3]).unwrap(), m.id(&[1, 0, 2]).unwrap()),
            Some((1, 2, 0, 3))
        );
        assert_eq!(m.first_difference(7, 7), None);
        assert_eq!(m.first_difference(7, 24), None);
        assert_eq!(
            m.with_coord(m.id(&[1, 2, 3]).unwrap(), 1, 0),
            m.id(&[1, 0, 3])
        );
    }

    #[test]
    fn out_of_range_queries_answer_none() {
        let s = Shape::new(&[3, 4], "radices").unwrap();
        assert_eq!(s.coord(12, 0), None);
        assert_eq!(s.coord(0, 2), None);
        assert_eq!(s.coords(12), None);
        assert_eq!(s.id(&[3, 0]), None);
        assert_eq!(s.id(&[0]), None);
        assert_eq!(s.with_coord(0, 1, 4), None);
        assert_eq!(s.with_coord(0, 2, 0), None);
    }

    #[test]
    fn invalid_shapes_are_rejected() {
        assert!(matches!(
            Shape::new(&[], "radices"),
            Err(TopologyError::Invalid(InvalidParam {
                param: "radices",
                value: 0,
                ..
            }))
        ));
        assert!(matches!(
            Shape::new(&[4, 0], "sizes"),
            Err(TopologyError::Invalid(InvalidParam {
                param: "sizes",
                value: 0,
                ..
            }))
        ));
        assert_eq!(
            Shape::new(&[2; 17], "radices"),
            Err(TopologyError::Capacity(CapacityError {
                what: "dimensions",
                needed: 17,
                available: 16
            }))
        );
        assert_eq!(
            Shape::new(&[u32::MAX; 16], "radices"),
            Err(TopologyError::Invalid(InvalidParam {
                param: "switches",
                value: u64::MAX,
                rule: "a network may have at most 2^30 switches"
            }))
        );
        assert!(Shape::new(&[1 << 15, 1 << 15], "radices").is_ok());
        assert!(Shape::new(&[1 << 15, (1 << 15) + 1], "radices").is_err());
    }

    proptest! {
        /// The lowest differing coordinate, against the coordinates themselves, on shapes
        /// mixing power-of-two radices (mask and shift) with others (division).
        #[test]
        fn first_difference_matches_the_coordinates(sizes in proptest::collection::vec(1u32..10, 1..5), pa in any::<u32>(), pb in any::<u32>()) {
            let s = Shape::new(&sizes, "radices").unwrap();
            let (a, b) = (pa % s.count(), pb % s.count());
            let (ca, cb) = (s.coords(a).unwrap(), s.coords(b).unwrap());
            let want = (0..sizes.len())
                .find(|&d| ca[d] != cb[d])
                .map(|d| (d, ca[d], cb[d], sizes[d]));
            prop_assert_eq!(s.first_difference(a, b), want);
        }

        /// The same on shapes of power-of-two sizes only (the lowest differing bit).
        #[test]
        fn first_difference_by_bits_matches_the_coordinates(logs in proptest::collection::vec(0u32..6, 1..6), pa in any::<u32>(), pb in any::<u32>()) {
            let sizes: std::vec::Vec<u32> = logs.iter().map(|&l| 1 << l).collect();
            let s = Shape::new(&sizes, "radices").unwrap();
            let (a, b) = (pa % s.count(), pb % s.count());
            let (ca, cb) = (s.coords(a).unwrap(), s.coords(b).unwrap());
            let want = (0..sizes.len())
                .find(|&d| ca[d] != cb[d])
                .map(|d| (d, ca[d], cb[d], sizes[d]));
            prop_assert_eq!(s.first_difference(a, b), want);
            prop_assert_eq!(s.first_difference(a, a), None);
        }

        #[test]
        fn coords_and_id_are_inverse(sizes in proptest::collection::vec(1u32..7, 1..5), pick in any::<u32>()) {
            let s = Shape::new(&sizes, "radices").unwrap();
            let id = pick % s.count();
            let c = s.coords(id).unwrap();
            prop_assert_eq!(s.id(&c), Some(id));
            for (d, &x) in c.iter().enumerate() {
                prop_assert_eq!(s.coord(id, d), Some(x));
            }
        }
    }
}
