//! Size of the GA search space (docs/reference-results.md C1).

/// `N!` (the number of genes of `N` positions) in scientific notation `mantissa · 10^exponent`
/// with `1 ≤ mantissa < 10`, computed with `f64` basic operations only (identical on every
/// target). `64!` ≈ 1.27e89 (\[GA\] §3).
///
/// # Examples
///
/// ```
/// use jumpnet_core::mapping::ga::permutations_scientific;
///
/// // 64! ≈ 1.27e89 genes on the 8 × 8 torus (docs/reference-results.md C1).
/// let (mantissa, exponent) = permutations_scientific(64);
/// assert_eq!(((mantissa * 100.0).round(), exponent), (127.0, 89));
/// assert_eq!(permutations_scientific(5), (1.2, 2));
/// ```
pub fn permutations_scientific(nodes: u32) -> (f64, u32) {
    let mut mantissa = 1.0f64;
    let mut exponent = 0u32;
    for i in 2..=nodes {
        mantissa *= i as f64;
        while mantissa >= 10.0 {
            mantissa /= 10.0;
            exponent += 1;
        }
    }
    (mantissa, exponent)
}
