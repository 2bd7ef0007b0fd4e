//! `--chip NAME`: a chip from probe-rs's target registry. Names match like probe-rs's own:
//! case-insensitive, a lowercase `x` in a registry name stands for any character (so
//! `STM32F407VGT6` is the registry's `STM32F407VGTx`). An unknown name is an error that lists
//! the closest registry names.

use anyhow::{bail, Result};

/// Most close matches listed in an error.
const MAX_SUGGESTIONS: usize = 8;

/// Whether `query` names the registry chip `name`.
pub fn matches(name: &str, query: &str) -> bool {
    name.chars().count() == query.chars().count()
        && name
            .chars()
            .zip(query.chars())
            .all(|(n, q)| n == 'x' || n.eq_ignore_ascii_case(&q))
}

/// Levenshtein distance of the lowercased strings.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            row.push(substitute.min(prev[j + 1] + 1).min(row[j] + 1));
        }
        prev = row;
    }
    prev[b.len()]
}

/// Registry names close to `query`: names containing it first (shortest first), then names
/// within an edit distance of a third of its length; at most `MAX_SUGGESTIONS`.
pub fn close_matches<'a>(query: &str, names: &'a [String]) -> Vec<&'a str> {
    let q = query.to_lowercase();
    let mut scored: Vec<(usize, usize, &str)> = names
        .iter()
        .filter_map(|name| {
            let lower = name.to_lowercase();
            if !q.is_empty() && lower.contains(&q) {
                Some((0, name.len(), name.as_str()))
            } else {
                let d = distance(name, query);
                (d <= (query.len() / 3).max(1)).then_some((1, d, name.as_str()))
            }
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.2 == b.2);
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, n)| n)
        .collect()
}

/// The registry name that `query` names, or an error listing close matches.
pub fn resolve<'a>(query: &str, names: &'a [String]) -> Result<&'a str> {
    if let Some(name) = names.iter().find(|n| n.eq_ignore_ascii_case(query)) {
        return Ok(name);
    }
    let found: Vec<&str> = names
        .iter()
        .filter(|n| matches(n, query))
        .map(String::as_str)
        .collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => {
            let close = close_matches(query, names);
            if close.is_empty() {
                bail!(
                    "unknown chip `{query}`: not in probe-rs's target registry ({} chips) and \
                     no close match; give the full name, e.g. STM32F407VGTx or nRF52840_xxAA",
                    names.len()
                );
            }
            bail!(
                "unknown chip `{query}`: not in probe-rs's target registry; close matches: {}",
                close.join(", ")
            )
        }
        many => bail!(
            "chip `{query}` is ambiguous in probe-rs's target registry: {}",
            many.join(", ")
        ),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        [
            "STM32F407VGTx",
            "STM32F407VETx",
            "STM32F401RETx",
            "nRF52840_xxAA",
            "nRF52833_xxAA",
            "RP2040",
            "LPC55S69JBD100",
        ]
        .map(String::from)
        .to_vec()
    }

    #[test]
    fn exact_case_insensitive_and_wildcard_names_resolve() {
        let n = names();
        assert_eq!(resolve("stm32f407vgtx", &n).unwrap(), "STM32F407VGTx");
        assert_eq!(resolve("STM32F407VGT6", &n).unwrap(), "STM32F407VGTx");
        assert_eq!(resolve("nrf52840_QIAA", &n).unwrap(), "nRF52840_xxAA");
        assert_eq!(resolve("rp2040", &n).unwrap(), "RP2040");
        assert!(!matches("RP2040", "RP204"));
    }

    #[test]
    fn unknown_names_list_close_matches() {
        let n = names();
        let err = resolve("STM32F407", &n).unwrap_err().to_string();
        assert!(
            err.contains("unknown chip `STM32F407`")
                && err.contains("close matches: STM32F407VETx, STM32F407VGTx"),
            "{err}"
        );
        let err = resolve("RP2O40", &n).unwrap_err().to_string();
        assert!(err.ends_with("close matches: RP2040"), "{err}");
        let err = resolve("ESP32C3", &n).unwrap_err().to_string();
        assert!(
            err.contains("no close match") && err.contains("(7 chips)"),
            "{err}"
        );
    }

    #[test]
    fn distance_is_levenshtein() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("RP2040", "rp2040"), 0);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
    }

    #[test]
    fn wildcard_ambiguity_is_reported() {
        let n = ["ABCx".to_string(), "ABxD".to_string()];
        let err = resolve("ABCD", &n).unwrap_err().to_string();
        assert!(
            err.contains("ambiguous") && err.contains("ABCx, ABxD"),
            "{err}"
        );
    }
}
