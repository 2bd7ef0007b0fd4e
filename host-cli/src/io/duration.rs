//! Time spans as people write them on the command line: `100us`, `2.5ms`, `40ns`, `1s`
//! (seconds, converted with the run's clock) or `5000` / `5000cycles` (cycles). Used by
//! `--background-mean`.

use serde::Serialize;

/// A time span in cycles or in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Span {
    /// Cycles (may be fractional: a mean).
    Cycles(f64),
    /// Seconds.
    Seconds(f64),
}

/// Units after the number, with the number of them in a second (`None`: cycles).
const UNITS: [(&str, Option<f64>); 6] = [
    ("cycles", None),
    ("ns", Some(1e9)),
    ("us", Some(1e6)),
    ("ms", Some(1e3)),
    ("s", Some(1.0)),
    ("", None),
];

impl Span {
    /// Cycles at a clock of `clock_ghz` GHz.
    pub fn cycles(self, clock_ghz: f64) -> f64 {
        match self {
            Span::Cycles(c) => c,
            Span::Seconds(s) => s * clock_ghz * 1e9,
        }
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Span::Cycles(c) => write!(f, "{c} cycles"),
            Span::Seconds(s) if s < 1e-6 => write!(f, "{}ns", s * 1e9),
            Span::Seconds(s) if s < 1e-3 => write!(f, "{}us", s * 1e6),
            Span::Seconds(s) if s < 1.0 => write!(f, "{}ms", s * 1e3),
            Span::Seconds(s) => write!(f, "{s}s"),
        }
    }
}

/// Parses a positive, finite span: a number followed by `ns`, `us`, `ms`, `s`, `cycles` or
/// nothing (cycles).
pub fn parse_span(text: &str) -> Result<Span, String> {
    let s = text.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || c == '+'))
        .unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    let forms = "a positive number of cycles (5000, 5000cycles) or a time with ns/us/ms/s (100us)";
    let Some(&(_, per_second)) = UNITS.iter().find(|(u, _)| *u == unit.trim()) else {
        return Err(format!(
            "'{text}' is not a time span: unknown unit '{unit}'; give {forms}"
        ));
    };
    let v: f64 = number
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0)
        .ok_or_else(|| format!("'{text}' is not a time span: give {forms}"))?;
    // Dividing by an exact power of ten rounds once: `100us` is the double nearest 1e-4.
    Ok(match per_second {
        Some(d) => Span::Seconds(v / d),
        None => Span::Cycles(v),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_times_and_cycles() {
        assert_eq!(parse_span("5000"), Ok(Span::Cycles(5000.0)));
        assert_eq!(parse_span("2.5cycles"), Ok(Span::Cycles(2.5)));
        assert_eq!(parse_span("100us"), Ok(Span::Seconds(100e-6)));
        assert_eq!(parse_span("40ns"), Ok(Span::Seconds(40e-9)));
        assert_eq!(parse_span("1s"), Ok(Span::Seconds(1.0)));
        // 100 µs at 0.78125 GHz (100 Gb/s, 16-byte flits) = 78,125 cycles.
        let c = parse_span("100us").unwrap().cycles(0.78125);
        assert!((c - 78_125.0).abs() < 1e-6, "{c}");
        for bad in ["", "0", "-3", "10 parsecs", "us", "1e400"] {
            assert!(parse_span(bad).is_err(), "{bad}");
        }
    }
}
