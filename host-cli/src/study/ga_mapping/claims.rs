//! \[GA\]'s qualitative claims (docs/reference-results.md C4) checked on a variants study.

use jumpnet_core::mapping::ga::{Ranking, Variant};

use super::VariantsStudy;
use crate::study::claim::Claim;

/// Variants whose mutations are neighbouring swaps only (or mostly: S03).
const NEIGHBOUR_VARIANTS: [Variant; 7] = [
    Variant::S03,
    Variant::S10,
    Variant::S11,
    Variant::S12,
    Variant::S20,
    Variant::S21,
    Variant::S22,
];

/// Checks, where the study ran the cells involved: ml ≤ ah < sc for every GA variant;
/// every neighbouring-swap variant below S05 (random swaps) per ranking; every variant
/// below S99 (random search) per ranking.
pub fn check(study: &VariantsStudy, variants: &[Variant], rankings: &[Ranking]) -> Vec<Claim> {
    let mut claims = Vec::new();
    let has = |r| rankings.contains(&r);
    let ga_variants = variants.iter().copied().filter(|&v| v != Variant::S99);
    if has(Ranking::DurationFirst) && has(Ranking::AvgHopFirst) && has(Ranking::Product) {
        let mut bad = Vec::new();
        for v in ga_variants.clone() {
            let m = |r| study.mean(v, r).unwrap_or(f64::NAN);
            let (sc, ah, ml) = (
                m(Ranking::DurationFirst),
                m(Ranking::AvgHopFirst),
                m(Ranking::Product),
            );
            if !(ml <= ah && ah < sc) {
                bad.push(format!("{} (sc {sc:.1}, ah {ah:.1}, ml {ml:.1})", v.name()));
            }
        }
        claims.push(Claim::unless("ml <= ah < sc for every GA variant", bad));
    }
    let below = |reference: Variant, candidates: &mut dyn Iterator<Item = Variant>| {
        let mut bad = Vec::new();
        for v in candidates {
            for &r in rankings {
                let (Some(a), Some(b)) = (study.mean(v, r), study.mean(reference, r)) else {
                    continue;
                };
                if a >= b {
                    bad.push(format!("{}-{} {a:.1} vs {b:.1}", v.name(), r.name()));
                }
            }
        }
        bad
    };
    if variants.contains(&Variant::S05) {
        let mut it = NEIGHBOUR_VARIANTS
            .into_iter()
            .filter(|v| variants.contains(v));
        claims.push(Claim::unless(
            "neighbouring-swap variants beat random swaps (S05)",
            below(Variant::S05, &mut it),
        ));
    }
    if variants.contains(&Variant::S99) {
        let mut it = ga_variants;
        claims.push(Claim::unless(
            "every GA variant beats random search (S99)",
            below(Variant::S99, &mut it),
        ));
    }
    claims
}
