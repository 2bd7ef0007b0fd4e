//! Sweep axes: `key=a:b:step` ranges and `key=v1,v2,...` lists, and key aliases.

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::sim::config::SimConfig;

/// Short names accepted for keys on the sweep command line.
pub const ALIASES: &[(&str, &str)] = &[("rate", "injection_rate")];

/// The full key of `key` (aliases resolved).
pub fn canonical_key(key: &str) -> &str {
    ALIASES
        .iter()
        .find(|(a, _)| *a == key)
        .map_or(key, |(_, k)| k)
}

/// One swept parameter and its values (as text for [`SimConfig::set`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// [`SimConfig`] key.
    pub key: String,
    /// Values, in sweep order.
    pub values: Vec<String>,
}

impl Axis {
    /// Parses `key=a:b:step` or `key=v1,v2,...` (`key` a [`SimConfig`] key or `rate`).
    pub fn parse(word: &str) -> Result<Axis> {
        let (k, spec) = word
            .split_once('=')
            .ok_or_else(|| anyhow!("'{word}' is not key=a:b:step or key=v1,v2,..."))?;
        let key = canonical_key(k);
        if !SimConfig::KEYS.contains(&key) {
            bail!(
                "unknown sim key '{k}' in '{word}'; known keys: rate, {}",
                SimConfig::KEYS.join(", ")
            );
        }
        let values = if spec.contains(':') {
            range_values(spec).with_context(|| format!("in '{word}'"))?
        } else {
            spec.split(',').map(|v| v.trim().to_string()).collect()
        };
        if values.iter().any(|v| v.is_empty()) {
            bail!("'{word}' has an empty value");
        }
        let mut probe = SimConfig::booksim();
        for v in &values {
            probe.set(key, v)?;
        }
        Ok(Axis {
            key: key.to_string(),
            values,
        })
    }

    /// Whether a command-line word is an axis (its value has `:` or `,`).
    pub fn is_axis(word: &str) -> bool {
        word.split_once('=')
            .is_some_and(|(_, v)| v.contains(':') || v.contains(','))
    }
}

/// Decimal places of a number as written (`0.04` → 2, `1e-3` → 3, `5` → 0).
fn decimals(s: &str) -> usize {
    let s = s.trim();
    if let Some((m, e)) = s.split_once(['e', 'E']) {
        let exp: i64 = e.parse().unwrap_or(0);
        return (decimals(m) as i64 - exp).max(0) as usize;
    }
    s.split_once('.').map_or(0, |(_, f)| f.len())
}

/// The values of `a:b:step`: `a, a+step, …` up to and including `b` (within rounding),
/// printed with as many decimals as the most precise of the three.
pub fn range_values(spec: &str) -> Result<Vec<String>> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [a, b, step] = parts[..] else {
        bail!("a range is a:b:step, e.g. 0.02:0.5:0.04");
    };
    let num = |s: &str| -> Result<f64> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| anyhow!("'{s}' is not a number (range a:b:step)"))
    };
    let (x0, x1, dx) = (num(a)?, num(b)?, num(step)?);
    if dx <= 0.0 {
        bail!("step {step} must be positive (range a:b:step)");
    }
    if x1 < x0 {
        bail!("range end {b} is below its start {a} (range a:b:step)");
    }
    let n = ((x1 - x0) / dx + 1e-9).floor() as u64 + 1;
    if n > 100_000 {
        bail!("range {spec} has {n} values; at most 100000");
    }
    let places = decimals(a).max(decimals(b)).max(decimals(step));
    Ok((0..n)
        .map(|i| {
            let v = x0 + i as f64 * dx;
            let s = format!("{v:.places$}");
            // "-0.00" → "0.00"
            if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
                s[1..].to_string()
            } else {
                s
            }
        })
        .collect())
}
