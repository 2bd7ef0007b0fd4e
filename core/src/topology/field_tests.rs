//! Unit tests of [`super`] (field.rs), kept beside it.

use super::*;
use std::collections::BTreeSet;
use std::vec::Vec;

/// Independent primality by exhaustive division.
fn naive_prime(n: u64) -> bool {
    n >= 2 && (2..n).all(|d| !n.is_multiple_of(d))
}

/// Multiplicative order by repeated multiplication.
fn naive_order(g: u64, q: u64) -> u64 {
    let mut v = g % q;
    let mut k = 1;
    while v != 1 {
        v = v * g % q;
        k += 1;
    }
    k
}

fn set(v: &[u32]) -> BTreeSet<u32> {
    v.iter().copied().collect()
}

#[test]
fn primality_matches_exhaustive_division() {
    for n in 0..2000u64 {
        assert_eq!(is_prime(n), naive_prime(n), "n = {n}");
    }
    assert!(is_prime(4_294_967_291)); // largest prime below 2^32
    assert!(!is_prime(4_294_967_295));
    assert!(!is_prime(65_521 * 65_537));
}

#[test]
fn mod_pow_matches_repeated_multiplication() {
    for m in [1u32, 2, 7, 13, 97, 65_537] {
        for b in [0u64, 1, 2, 5, 96, 1_000_003] {
            let mut want = 1 % m as u64;
            for e in 0..40u64 {
                assert_eq!(mod_pow(b, e, m), want, "{b}^{e} mod {m}");
                want = want * (b % m as u64) % m as u64;
            }
        }
    }
    assert_eq!(mod_pow(3, 5, 0), 0);
    // Large modulus: Fermat's little theorem.
    assert_eq!(mod_pow(123_456_789, 4_294_967_290, 4_294_967_291), 1);
}

#[test]
fn primitive_element_is_smallest_of_full_order() {
    for q in (3..400u32).filter(|&q| naive_prime(q as u64)) {
        let xi = primitive_element(q).expect("prime");
        assert_eq!(naive_order(xi as u64, q as u64), q as u64 - 1, "q = {q}");
        for g in 2..xi {
            assert!(
                naive_order(g as u64, q as u64) < q as u64 - 1,
                "q = {q}, g = {g}"
            );
        }
    }
    // Known smallest primitive roots.
    assert_eq!(primitive_element(5), Some(2));
    assert_eq!(primitive_element(7), Some(3));
    assert_eq!(primitive_element(11), Some(2));
    assert_eq!(primitive_element(13), Some(2));
    assert_eq!(primitive_element(41), Some(6));
    assert_eq!(primitive_element(2), Some(1));
    assert_eq!(primitive_element(9), None);
    assert_eq!(primitive_element(1), None);
}

#[test]
fn spec_examples_of_generator_sets() {
    // docs/topologies.md §10: q = 5, ξ = 2, X = {1,4}, X' = {2,3}, H = (0,2,4,1,3).
    let f = MmsField::new(5).unwrap();
    assert_eq!((f.xi(), f.w(), f.delta()), (2, 1, 1));
    assert_eq!(f.x_iter().collect::<Vec<_>>(), [1, 4]);
    assert_eq!(f.x_prime_iter().collect::<Vec<_>>(), [2, 3]);
    assert_eq!(
        (0..5).map(|x| f.iso(x)).collect::<Vec<_>>(),
        [0, 2, 4, 1, 3]
    );
    // §9: q = 7: X ∩ X' = {1, 6}; q = 11: {1, 10}.
    for (q, both) in [(7u32, [1u32, 6]), (11, [1, 10])] {
        let f = MmsField::new(q).unwrap();
        assert_eq!(f.delta(), -1);
        let x = set(&f.x_iter().collect::<Vec<_>>());
        let xp = set(&f.x_prime_iter().collect::<Vec<_>>());
        assert_eq!(x.intersection(&xp).copied().collect::<Vec<_>>(), both);
    }
    // q = 7, ξ = 3: X = {ξ^0, ξ^2} ∪ {ξ^3, ξ^5} = {1, 2, 6, 5} in index order.
    let f = MmsField::new(7).unwrap();
    assert_eq!(f.x_iter().collect::<Vec<_>>(), [1, 2, 6, 5]);
}

#[test]
fn generator_sets_follow_the_spec_exponent_lists() {
    for q in (3..300u32).filter(|&q| naive_prime(q as u64)) {
        let f = MmsField::new(q).unwrap();
        let (w, delta) = (f.w(), f.delta() as i64);
        assert_eq!(4 * w as i64 + delta, q as i64);
        let xi = f.xi() as u64;
        let pw = |e: u32| {
            let mut v = 1u64;
            for _ in 0..e {
                v = v * xi % q as u64;
            }
            v as u32
        };
        // Exponent lists written out exactly as docs/topologies.md §9 gives them.
        let (ex, exp): (Vec<u32>, Vec<u32>) = if delta == 1 {
            (
                (0..=q - 3).step_by(2).collect(),
                (1..=q - 2).step_by(2).collect(),
            )
        } else {
            let mut ex: Vec<u32> = (0..=2 * w - 2).step_by(2).collect();
            ex.extend((2 * w - 1..=4 * w - 3).step_by(2));
            let mut exp: Vec<u32> = (1..=2 * w - 1).step_by(2).collect();
            exp.extend((2 * w..=4 * w - 2).step_by(2));
            (ex, exp)
        };
        let x: Vec<u32> = ex.iter().map(|&e| pw(e)).collect();
        let xp: Vec<u32> = exp.iter().map(|&e| pw(e)).collect();
        assert_eq!(f.x_iter().collect::<Vec<_>>(), x, "X, q = {q}");
        assert_eq!(f.x_prime_iter().collect::<Vec<_>>(), xp, "X', q = {q}");
        let n = f.generator_count();
        assert_eq!(n as usize, x.len());
        assert_eq!(2 * n as i64, q as i64 - delta, "|X| = (q-δ)/2");
        for i in 0..n {
            assert_eq!(f.x(i), Some(x[i as usize]));
            assert_eq!(f.x_prime(i), Some(xp[i as usize]));
            let j = f.neg_index(i).unwrap();
            assert_eq!(x[j as usize], (q - x[i as usize]) % q, "−X_i, q = {q}");
            assert_eq!(xp[j as usize], (q - xp[i as usize]) % q, "−X'_i, q = {q}");
            assert_eq!(f.x_index_of(x[i as usize]), Some(i));
            assert_eq!(f.x_prime_index_of(xp[i as usize]), Some(i));
        }
        assert_eq!(f.x(n), None);
        assert_eq!(f.neg_index(n), None);
        // Distinct elements; δ = 1 partitions F_q*.
        let sx = set(&x);
        assert_eq!(sx.len(), x.len());
        if delta == 1 {
            let sxp = set(&xp);
            assert!(sx.is_disjoint(&sxp));
            assert_eq!(sx.len() + sxp.len(), q as usize - 1);
        }
        assert_eq!(f.mul(f.xi(), f.xi_inv()), 1);
        for v in 0..q.min(50) {
            assert_eq!(f.iso_inv(f.iso(v)), v);
        }
    }
}

#[test]
fn invalid_fields_are_rejected() {
    assert_eq!(
        MmsField::new(9),
        Err(TopologyError::NotPrime {
            param: "q",
            value: 9
        })
    );
    assert!(matches!(
        MmsField::new(0),
        Err(TopologyError::NotPrime { .. })
    ));
    assert!(matches!(
        MmsField::new(1),
        Err(TopologyError::NotPrime { .. })
    ));
    let e = MmsField::new(2).unwrap_err();
    assert!(matches!(
        e,
        TopologyError::Invalid(InvalidParam { param: "q", .. })
    ));
    assert_eq!(
        std::format!("{}", MmsField::new(9).unwrap_err()),
        "q = 9 is not prime (only prime q is supported)"
    );
    let t = MmsField::trivial();
    assert_eq!(t.generator_count(), 0);
    assert_eq!(t.x_iter().count(), 0);
    assert_eq!(t.iso(0), 0);
}

/// Base-`p` digits (polynomial coefficients, lowest first) of `e`, `k` of them.
fn digits(e: u32, p: u32, k: u32) -> Vec<u32> {
    (0..k).map(|i| e / p.pow(i) % p).collect()
}

/// Independent `GF(p^k)` product: schoolbook polynomial product, then long division by
/// the monic modulus `x^k + c(x)`.
fn naive_mul(p: u32, k: u32, c: u32, a: u32, b: u32) -> u32 {
    let (da, db) = (digits(a, p, k), digits(b, p, k));
    let mut prod = std::vec![0u32; 2 * k as usize];
    for (i, x) in da.iter().enumerate() {
        for (j, y) in db.iter().enumerate() {
            prod[i + j] = (prod[i + j] + x * y) % p;
        }
    }
    let dc = digits(c, p, k);
    for top in (k as usize..2 * k as usize).rev() {
        let lead = prod[top];
        prod[top] = 0;
        // x^top = x^(top−k)·x^k = −x^(top−k)·c(x).
        for (i, ci) in dc.iter().enumerate() {
            let at = top - k as usize + i;
            prod[at] = (prod[at] + (p - lead) * ci) % p;
        }
    }
    (0..k as usize).map(|i| prod[i] * p.pow(i as u32)).sum()
}

/// Whether the monic `x^k + c(x)` over `F_p` has a monic factor of degree `1..=k/2`
/// (trial division by every such polynomial).
fn naive_reducible(p: u32, k: u32, c: u32) -> bool {
    let mut f = digits(c, p, k);
    f.push(1);
    (1..=k / 2).any(|d| {
        (0..p.pow(d)).any(|g| {
            let mut g = digits(g, p, d);
            g.push(1);
            let mut r = f.clone();
            for top in (d as usize..r.len()).rev() {
                let lead = r[top];
                for (i, gi) in g.iter().enumerate() {
                    let at = top - d as usize + i;
                    r[at] = (r[at] + (p - lead) * gi) % p;
                }
            }
            r.iter().all(|&v| v == 0)
        })
    })
}

#[test]
fn prime_power_parts_match_factorisation() {
    for q in 0u32..2_000 {
        let want = (2..=q).find(|p| naive_prime(*p as u64)).and_then(|_| {
            (2..=q).filter(|p| naive_prime(*p as u64)).find_map(|p| {
                (1..=11)
                    .find(|k| p.checked_pow(*k) == Some(q))
                    .map(|k| (p, k))
            })
        });
        assert_eq!(prime_power_parts(q), want, "q = {q}");
    }
    assert_eq!(prime_power_parts(1 << 31), Some((2, 31)));
    assert_eq!(prime_power_parts(3u32.pow(20)), Some((3, 20)));
    assert_eq!(prime_power_parts(4_294_967_291), Some((4_294_967_291, 1)));
    assert_eq!(prime_power_parts(u32::MAX), None);
}

#[test]
fn prime_power_fields_are_fields() {
    for q in [
        4u32, 8, 9, 16, 25, 27, 32, 49, 64, 81, 121, 125, 128, 243, 256,
    ] {
        let f = MmsField::prime_power(q).unwrap();
        let (p, k) = (f.characteristic(), f.degree());
        assert_eq!(p.pow(k), q);
        // The modulus is irreducible and the first one (in encoding order) whose x has
        // order q − 1.
        assert!(!naive_reducible(p, k, f.modulus()), "q = {q}");
        assert_eq!(f.xi(), p, "ξ = x");
        let mut seen = BTreeSet::new();
        let mut v = 1;
        for _ in 0..q - 1 {
            assert!(seen.insert(v), "q = {q}: ξ has order < q − 1");
            v = naive_mul(p, k, f.modulus(), v, f.xi());
        }
        assert_eq!(v, 1, "q = {q}: ξ^(q−1) = 1");
        // Products, sums, differences and inverses against the independent arithmetic.
        let step = (q / 40).max(1) as usize;
        for a in (0..q).step_by(step) {
            for b in 0..q {
                assert_eq!(f.mul(a, b), naive_mul(p, k, f.modulus(), a, b), "q = {q}");
                let s = f.add(a, b);
                assert_eq!(f.sub(s, b), a, "q = {q}");
                let ds = digits(s, p, k);
                let want: Vec<u32> = digits(a, p, k)
                    .iter()
                    .zip(digits(b, p, k))
                    .map(|(x, y)| (x + y) % p)
                    .collect();
                assert_eq!(ds, want, "q = {q}");
            }
            if a != 0 {
                assert_eq!(
                    f.mul(a, f.pow(a, q as u64 - 2)),
                    1,
                    "q = {q}: inverse of {a}"
                );
            }
        }
        assert_eq!(f.mul(f.xi(), f.xi_inv()), 1);
    }
    // Hand-checked moduli: GF(4) x²+x+1, GF(8) x³+x+1, GF(9) x²+x+2 (first primitive).
    let gf4 = MmsField::prime_power(4).unwrap();
    assert_eq!((gf4.modulus(), gf4.mul(2, 2)), (3, 3), "x·x = x + 1");
    assert_eq!(MmsField::prime_power(8).unwrap().modulus(), 3);
    let gf9 = MmsField::prime_power(9).unwrap();
    assert_eq!((gf9.modulus(), gf9.mul(3, 3)), (5, 7), "x·x = 2x + 1");
    // Primes go through the prime-field path unchanged.
    assert_eq!(MmsField::prime_power(13), MmsField::new(13));
}

#[test]
fn prime_power_generator_sets_follow_the_spec() {
    // docs/topologies.md §9: X from the exponent lists, X' = ξX, |X| = (q − δ)/2, X closed
    // under negation (neg_index), δ = 0 exactly for powers of two.
    for q in [4u32, 8, 9, 16, 25, 27, 32, 49, 81, 125] {
        let f = MmsField::prime_power(q).unwrap();
        let p = f.characteristic();
        let delta = if p == 2 {
            0
        } else if q % 4 == 1 {
            1
        } else {
            -1
        };
        assert_eq!(f.delta(), delta, "q = {q}");
        assert_eq!(4 * f.w() as i64 + delta as i64, q as i64);
        let w = f.w();
        let exps: Vec<u32> = match delta {
            1 => (0..=q - 3).step_by(2).collect(),
            0 => (0..=4 * w - 2).step_by(2).collect(),
            _ => (0..=2 * w - 2)
                .step_by(2)
                .chain((2 * w - 1..=4 * w - 3).step_by(2))
                .collect(),
        };
        let x: Vec<u32> = exps.iter().map(|&e| f.pow(f.xi(), e as u64)).collect();
        assert_eq!(f.x_iter().collect::<Vec<_>>(), x, "q = {q}");
        assert_eq!(f.generator_count() as i64, (q as i64 - delta as i64) / 2);
        let xp: Vec<u32> = x.iter().map(|&v| f.mul(f.xi(), v)).collect();
        assert_eq!(f.x_prime_iter().collect::<Vec<_>>(), xp, "q = {q}");
        for i in 0..f.generator_count() {
            let neg = f.neg_index(i).unwrap();
            assert_eq!(
                f.add(f.x(i).unwrap(), f.x(neg).unwrap()),
                0,
                "q = {q}, i = {i}"
            );
        }
    }
}

#[test]
fn non_prime_powers_are_rejected() {
    for q in [0u32, 1, 2, 6, 10, 12, 100, 1_000] {
        assert!(
            matches!(
                MmsField::prime_power(q),
                Err(TopologyError::Invalid(InvalidParam { param: "q", .. }))
            ),
            "q = {q}"
        );
    }
    assert_eq!(
        std::format!("{}", MmsField::prime_power(6).unwrap_err()),
        std::format!(
            "{}",
            TopologyError::Invalid(InvalidParam {
                param: "q",
                value: 6,
                rule: "q must be a prime or a prime power q = p^k ≥ 3 (e.g. 4, 5, 7, 8, 9)"
            })
        )
    );
}
