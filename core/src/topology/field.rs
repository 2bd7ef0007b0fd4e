//! Finite-field arithmetic for the Slim Fly MMS graph and the Galaxy graph
//! (docs/topologies.md §9, §10).
//!
//! Elements of `F_q` are the integers `0..q`.
//!
//! * Prime `q` ([`MmsField::new`]): integer arithmetic mod `q`; every product of two elements
//!   is formed in `u64` (both factors are below `2^32`).
//! * Prime power `q = p^k`, `k ≥ 2` ([`MmsField::prime_power`], Slim Fly only): real `GF(p^k)`
//!   arithmetic. Element `e` stands for the polynomial `Σ d_i·x^i` over `F_p` whose
//!   coefficients are the base-`p` digits of `e` (`e = Σ d_i·p^i`). Products are reduced
//!   modulo the *first primitive polynomial* `f(x) = x^k + c(x)`: the monic polynomial of
//!   degree `k` with the smallest encoding `c < q` (as an element) for which `x` has
//!   multiplicative order `q − 1`. Such an `f` is irreducible, and `ξ = x` (element `p`) is a
//!   primitive element; no smaller element can be one (the elements `0..p` are the prime
//!   field, of order dividing `p − 1`). This covers every `δ = 0` case (`q` a power of two).
//!
//! Nothing is stored beyond a few words, so results are the same on every target.
//!
//! [`MmsField`] bundles what both constructions need: the primitive element `ξ`,
//! `q = 4w + δ`, and the generator sets `X` and `X' = ξ·X` of docs/topologies.md §9, indexed
//! in the order the spec lists their exponents.

use super::TopologyError;
use crate::error::InvalidParam;

/// Whether `n` is prime (deterministic trial division; `n < 2` is not prime).
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    if n < 4 {
        return true;
    }
    if n.is_multiple_of(2) || n.is_multiple_of(3) {
        return false;
    }
    let mut d = 5u64;
    // d ≤ sqrt(n) without overflow: d ≤ n / d.
    while d <= n / d {
        if n.is_multiple_of(d) || n.is_multiple_of(d + 2) {
            return false;
        }
        d += 6;
    }
    true
}

/// `base^exp mod m` by square-and-multiply in `u64` (products of two residues below `2^32`
/// cannot overflow). Returns 0 when `m` is 0 or 1.
pub fn mod_pow(base: u64, exp: u64, m: u32) -> u64 {
    let m = m as u64;
    if m <= 1 {
        return 0;
    }
    let mut result = 1u64;
    let mut b = base % m;
    let mut e = exp;
    while e > 0 {
        if e & 1 == 1 {
            result = result * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    result
}

/// Whether `g` has multiplicative order exactly `q − 1` modulo the prime `q`, i.e.
/// `g^((q−1)/f) ≠ 1` for every prime factor `f` of `q − 1` (factors found by trial division,
/// nothing stored).
fn has_full_order(g: u64, q: u32) -> bool {
    let order = q as u64 - 1;
    let mut rest = order;
    let mut f = 2u64;
    while f <= rest / f {
        if rest.is_multiple_of(f) {
            if mod_pow(g, order / f, q) == 1 {
                return false;
            }
            while rest.is_multiple_of(f) {
                rest /= f;
            }
        }
        f += 1;
    }
    if rest > 1 && mod_pow(g, order / rest, q) == 1 {
        return false;
    }
    true
}

/// The smallest primitive element `ξ` of `F_q` (generator of the multiplicative group), or
/// `None` when `q` is not prime. For `q = 2` this is 1.
pub fn primitive_element(q: u32) -> Option<u32> {
    if !is_prime(q as u64) {
        return None;
    }
    if q == 2 {
        return Some(1);
    }
    (2..q).find(|&g| has_full_order(g as u64, q))
}

/// `(p, k)` with `q = p^k`, `p` prime and `k ≥ 1`, or `None` when `q` is not a prime power
/// (`q < 2` included).
pub fn prime_power_parts(q: u32) -> Option<(u32, u32)> {
    if q < 2 {
        return None;
    }
    // The smallest divisor > 1 of q is its only possible prime (q itself if none ≤ √q).
    let p = (2u32..)
        .take_while(|d| *d <= q / *d)
        .find(|d| q.is_multiple_of(*d))
        .unwrap_or(q);
    let mut rest = q;
    let mut k = 0;
    while rest.is_multiple_of(p) {
        rest /= p;
        k += 1;
    }
    (rest == 1).then_some((p, k))
}

/// `F_q` with the MMS generator sets `X`, `X'` (docs/topologies.md §9).
///
/// For `q = 4w + δ`, `δ ∈ {1, 0, −1}`:
/// * `δ = 1` and `δ = 0`: `X` index `i` is `ξ^(2i)`, `0 ≤ i < 2w`;
/// * `δ = −1`: `X` index `i < w` is `ξ^(2i)`, index `w + j` (`j < w`) is `ξ^(2w−1+2j)`;
/// * `X'` index `i` is `ξ · X_i` (so `X' = ξX` element by element).
///
/// `|X| = |X'| = (q − δ)/2`. Both sets are closed under negation; [`MmsField::neg_index`]
/// gives the index of `−X_i` (equally of `−X'_i`). The trivial field `q = 1`
/// ([`MmsField::trivial`]) has `X = X' = ∅` and is used by the Galaxyfly `q = 1`
/// (Dragonfly) case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmsField {
    q: u32,
    /// Characteristic `p` (`q = p^k`).
    p: u32,
    /// Extension degree `k`.
    k: u32,
    /// `p^(k−1)`: the place value of the leading coefficient.
    top: u32,
    /// Low coefficients `c` of the modulus `x^k + c(x)` (0 for prime `q`).
    modulus: u32,
    xi: u32,
    xi_inv: u32,
    xi_sq: u32,
    w: u32,
    delta: i8,
}

impl MmsField {
    /// The field `F_q` with its smallest primitive element and MMS generator sets.
    ///
    /// Errors: `q` not prime → [`TopologyError::NotPrime`]; `q = 2` (which is not `4w ± 1`)
    /// → [`TopologyError::Invalid`].
    pub fn new(q: u32) -> Result<Self, TopologyError> {
        if !is_prime(q as u64) {
            return Err(TopologyError::NotPrime {
                param: "q",
                value: q as u64,
            });
        }
        if q == 2 {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "q",
                value: 2,
                rule: "q must be an odd prime q = 4w ± 1 (q = 2 has no MMS generator sets)",
            }));
        }
        let xi = primitive_element(q).ok_or(TopologyError::NotPrime {
            param: "q",
            value: q as u64,
        })?;
        let (w, delta) = if q % 4 == 1 {
            (q / 4, 1)
        } else {
            (q.div_ceil(4), -1)
        };
        Ok(MmsField {
            q,
            p: q,
            k: 1,
            top: 1,
            modulus: 0,
            xi,
            xi_inv: mod_pow(xi as u64, q as u64 - 2, q) as u32,
            xi_sq: mod_pow(xi as u64, 2, q) as u32,
            w,
            delta,
        })
    }

    /// The field `GF(q)` for a prime or prime power `q ≥ 3` with the MMS generator sets
    /// (docs/topologies.md §9): [`MmsField::new`] for prime `q`, otherwise `GF(p^k)` modulo the
    /// first primitive polynomial with `ξ = x` (module docs). `q = 4w + δ` with `δ = 0` for
    /// powers of two, else `δ = ±1` by `q mod 4`.
    ///
    /// Errors: `q` neither prime nor a prime power, `q < 3` → [`TopologyError::Invalid`]
    /// naming `q`.
    pub fn prime_power(q: u32) -> Result<Self, TopologyError> {
        const RULE: &str = "q must be a prime or a prime power q = p^k ≥ 3 (e.g. 4, 5, 7, 8, 9)";
        let Some((p, k)) = prime_power_parts(q) else {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "q",
                value: q as u64,
                rule: RULE,
            }));
        };
        if k == 1 {
            return MmsField::new(q);
        }
        let mut field = MmsField {
            q,
            p,
            k,
            top: q / p,
            modulus: 0,
            xi: p,
            xi_inv: 0,
            xi_sq: 0,
            w: q / 4,
            delta: 0,
        };
        // The first c for which x generates the multiplicative group of F_p[x]/(x^k + c(x)).
        // A reducible modulus has fewer than q − 1 units, so no element has order q − 1:
        // the search only stops at a primitive (hence irreducible) polynomial, and one
        // exists for every prime power.
        let modulus = (0..q).find(|&c| {
            field.modulus = c;
            field.has_full_order(p)
        });
        let Some(modulus) = modulus else {
            return Err(TopologyError::Invalid(InvalidParam {
                param: "q",
                value: q as u64,
                rule: RULE,
            }));
        };
        field.modulus = modulus;
        field.xi_inv = field.pow(p, q as u64 - 2);
        field.xi_sq = field.mul(p, p);
        if p != 2 {
            (field.w, field.delta) = if q % 4 == 1 {
                (q / 4, 1)
            } else {
                (q.div_ceil(4), -1)
            };
        }
        Ok(field)
    }

    /// Whether `g` has multiplicative order exactly `q − 1`: `g^(q−1) = 1` and
    /// `g^((q−1)/f) ≠ 1` for every prime factor `f` of `q − 1`.
    fn has_full_order(&self, g: u32) -> bool {
        let order = self.q as u64 - 1;
        if self.pow(g, order) != 1 {
            return false;
        }
        let mut rest = order;
        let mut f = 2u64;
        while f <= rest / f {
            if rest.is_multiple_of(f) {
                if self.pow(g, order / f) == 1 {
                    return false;
                }
                while rest.is_multiple_of(f) {
                    rest /= f;
                }
            }
            f += 1;
        }
        !(rest > 1 && self.pow(g, order / rest) == 1)
    }

    /// `g^e` in the field (square and multiply).
    pub fn pow(&self, g: u32, e: u64) -> u32 {
        if self.k == 1 {
            return mod_pow(g as u64, e, self.q) as u32;
        }
        let mut result = 1;
        let mut b = g % self.q;
        let mut e = e;
        while e > 0 {
            if e & 1 == 1 {
                result = self.mul(result, b);
            }
            b = self.mul(b, b);
            e >>= 1;
        }
        result
    }

    /// Characteristic `p` of the field (`q = p^k`; `p = q` for prime `q`).
    pub fn characteristic(&self) -> u32 {
        self.p
    }

    /// Low coefficients `c` of the modulus `x^k + c(x)` as an element (base-`p` digits); 0 for
    /// prime `q`.
    pub fn modulus(&self) -> u32 {
        self.modulus
    }

    /// Extension degree `k` (`q = p^k`; 1 for prime `q`).
    pub fn degree(&self) -> u32 {
        self.k
    }

    /// Coefficient-wise combination `Σ ((d_i(a) + c·d_i(b)) mod p)·p^i` of two elements.
    fn digitwise(&self, a: u32, b: u32, c: u32) -> u32 {
        let p = self.p as u64;
        let (mut a, mut b) = (a as u64, b as u64);
        let (mut out, mut place) = (0u64, 1u64);
        for _ in 0..self.k {
            out += (a % p + c as u64 * (b % p)) % p * place;
            a /= p;
            b /= p;
            place *= p;
        }
        out as u32
    }

    /// `x · a` reduced modulo `x^k + c(x)`: shift the coefficients up and subtract the
    /// leading one times `c`.
    fn mul_x(&self, a: u32) -> u32 {
        let lead = a / self.top;
        let shifted = (a % self.top) * self.p;
        // − lead·c = (p − lead)·c coefficient-wise.
        self.digitwise(shifted, self.modulus, (self.p - lead) % self.p)
    }

    /// The one-element ring `q = 1` (`w = 0`, `δ = 1`, no generators; every value is 0).
    pub fn trivial() -> Self {
        MmsField {
            q: 1,
            p: 1,
            k: 1,
            top: 1,
            modulus: 0,
            xi: 0,
            xi_inv: 0,
            xi_sq: 0,
            w: 0,
            delta: 1,
        }
    }

    /// The field size `q`.
    pub fn q(&self) -> u32 {
        self.q
    }

    /// The primitive element `ξ` (smallest one; 0 for the trivial field).
    pub fn xi(&self) -> u32 {
        self.xi
    }

    /// `ξ^(−1) mod q`.
    pub fn xi_inv(&self) -> u32 {
        self.xi_inv
    }

    /// `w` in `q = 4w + δ`.
    pub fn w(&self) -> u32 {
        self.w
    }

    /// `δ` in `q = 4w + δ` (1, 0 or −1; 0 only for powers of two).
    pub fn delta(&self) -> i8 {
        self.delta
    }

    /// `|X| = |X'| = (q − δ)/2`.
    pub fn generator_count(&self) -> u32 {
        if self.delta >= 0 {
            2 * self.w
        } else {
            self.q.div_ceil(2)
        }
    }

    /// `a + b` in the field (`(a + b) mod q` for prime `q`), for elements `a, b < q`.
    #[inline]
    pub fn add(&self, a: u32, b: u32) -> u32 {
        if self.k == 1 {
            return ((a as u64 + b as u64) % self.q as u64) as u32;
        }
        self.digitwise(a, b, 1)
    }

    /// `a − b` in the field (`(a − b) mod q` for prime `q`), for elements `a, b < q`.
    #[inline]
    pub fn sub(&self, a: u32, b: u32) -> u32 {
        if self.k == 1 {
            return ((a as u64 + self.q as u64 - (b as u64 % self.q as u64)) % self.q as u64)
                as u32;
        }
        self.digitwise(a, b, self.p - 1)
    }

    /// `a · b` in the field (`a · b mod q` for prime `q`).
    #[inline]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        if self.k == 1 {
            return ((a as u64 % self.q as u64) * (b as u64 % self.q as u64) % self.q as u64)
                as u32;
        }
        // Horner over the coefficients of b, highest first: r = x·r + d_i(b)·a.
        let (a, b) = (a % self.q, b % self.q);
        let mut r = 0;
        let mut place = self.top;
        for _ in 0..self.k {
            r = self.mul_x(r);
            r = self.digitwise(r, a, b / place % self.p);
            place /= self.p;
        }
        r
    }

    /// The Galaxy isomorphism `H(x) = ξ·x mod q` (docs/topologies.md §10 step 2).
    #[inline]
    pub fn iso(&self, x: u32) -> u32 {
        self.mul(self.xi, x)
    }

    /// The inverse isomorphism `H^(−1)(x) = ξ^(−1)·x mod q`.
    #[inline]
    pub fn iso_inv(&self, x: u32) -> u32 {
        self.mul(self.xi_inv, x)
    }

    /// Exponent `e` with `X_i = ξ^e` (spec order), or `None` if `i ≥ |X|`.
    pub fn x_exponent(&self, i: u32) -> Option<u32> {
        if i >= self.generator_count() {
            return None;
        }
        if self.delta >= 0 || i < self.w {
            Some(2 * i)
        } else {
            Some(2 * self.w - 1 + 2 * (i - self.w))
        }
    }

    /// Generator `X_i`, or `None` if `i ≥ |X|`.
    pub fn x(&self, i: u32) -> Option<u32> {
        self.x_exponent(i).map(|e| self.pow(self.xi, e as u64))
    }

    /// Generator `X'_i = ξ·X_i`, or `None` if `i ≥ |X'|`.
    pub fn x_prime(&self, i: u32) -> Option<u32> {
        self.x(i).map(|v| self.iso(v))
    }

    /// Index of `−X_i` in `X` (equally of `−X'_i` in `X'`), or `None` if `i ≥ |X|`.
    /// Odd `q` uses `−1 = ξ^((q−1)/2)`: the exponent shifts by `(q−1)/2`; in characteristic 2
    /// (`δ = 0`) every element is its own negative.
    pub fn neg_index(&self, i: u32) -> Option<u32> {
        let count = self.generator_count();
        if i >= count {
            return None;
        }
        if self.delta == 0 {
            Some(i)
        } else if self.delta == 1 {
            Some((i + self.w) % count)
        } else if i < self.w {
            Some(i + self.w)
        } else {
            Some(i - self.w)
        }
    }

    /// The elements of `X` in index order (successive multiplication, O(1) per element).
    pub fn x_iter(&self) -> Generators {
        Generators {
            field: *self,
            index: 0,
            value: if self.q > 1 { 1 } else { 0 },
        }
    }

    /// The elements of `X'` in index order.
    pub fn x_prime_iter(&self) -> Generators {
        Generators {
            field: *self,
            index: 0,
            value: self.xi,
        }
    }

    /// Index of `d` in `X`, or `None` if `d ∉ X` (scan of `X`, O(|X|)).
    pub fn x_index_of(&self, d: u32) -> Option<u32> {
        self.x_iter().position(|v| v == d).map(|i| i as u32)
    }

    /// Index of `d` in `X'`, or `None` if `d ∉ X'` (scan of `X'`, O(|X'|)).
    pub fn x_prime_index_of(&self, d: u32) -> Option<u32> {
        self.x_prime_iter().position(|v| v == d).map(|i| i as u32)
    }
}

/// Iterator over `X` or `X'` in index order (see [`MmsField::x_iter`]).
#[derive(Clone, Debug)]
pub struct Generators {
    field: MmsField,
    index: u32,
    value: u32,
}

impl Iterator for Generators {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let f = &self.field;
        if self.index >= f.generator_count() {
            return None;
        }
        let out = self.value;
        self.index += 1;
        // δ = −1: the exponent steps by 1 from 2w−2 to 2w−1, otherwise by 2.
        let step = if f.delta == -1 && self.index == f.w {
            f.xi
        } else {
            f.xi_sq
        };
        self.value = f.mul(self.value, step);
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.field.generator_count().saturating_sub(self.index) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Generators {}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (common rules)
#[path = "field_tests.rs"]
mod tests;
