//! Byte sizes as people write them: `65536`, `64KiB`, `1MiB`, `4GiB` (binary, 2^10 steps),
//! `64kB`, `1MB`, `4GB` (decimal, 10^3 steps) and powers of two `2^20`. Used by
//! `--bytes` (and meant for any other size option, e.g. a later `--msg 1MiB`).

/// Units accepted after a number, with their factors (matched case-sensitively, so that
/// `MB` and `MiB`, `kB` and `KiB` cannot be confused; `B` is plain bytes).
const UNITS: [(&str, u64); 9] = [
    ("B", 1),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
    ("kB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
];

const FORMS: &str = "a whole number of bytes (65536), a number with KiB/MiB/GiB/TiB (binary, 1MiB = 1048576) or kB/MB/GB/TB (decimal, 1MB = 1000000), or 2^k with k in 0..=63";

/// Parses a byte size (see the module documentation); the error names the accepted forms.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let s = text.trim();
    if let Some(k) = s.strip_prefix("2^") {
        let k: u32 = k
            .trim()
            .parse()
            .map_err(|_| format!("'{text}' is not a size: after 2^ give an exponent 0..=63"))?;
        return 1u64
            .checked_shl(k)
            .filter(|_| k < 64)
            .ok_or_else(|| format!("'{text}' is too large: sizes must be below 2^64 (k ≤ 63)"));
    }
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (number, unit) = s.split_at(digits);
    if number.is_empty() {
        return Err(format!("'{text}' is not a size: give {FORMS}"));
    }
    let unit = unit.trim();
    let factor = if unit.is_empty() {
        1
    } else {
        UNITS
            .iter()
            .find(|(u, _)| *u == unit)
            .map(|&(_, f)| f)
            .ok_or_else(|| format!("'{text}': unknown unit '{unit}'; give {FORMS}"))?
    };
    number
        .parse::<u64>()
        .ok()
        .and_then(|v| v.checked_mul(factor))
        .ok_or_else(|| format!("'{text}' is too large: sizes must be below 2^64 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_forms() {
        assert_eq!(parse_size("65536"), Ok(65536));
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("1MiB"), Ok(1_048_576));
        assert_eq!(parse_size("64KiB"), Ok(65536));
        assert_eq!(parse_size("3GiB"), Ok(3 * 1024 * 1024 * 1024));
        assert_eq!(parse_size("1 MiB"), Ok(1 << 20));
        assert_eq!(parse_size("64kB"), Ok(64_000));
        assert_eq!(parse_size("1MB"), Ok(1_000_000));
        assert_eq!(parse_size("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_size("100B"), Ok(100));
        assert_eq!(parse_size("2^0"), Ok(1));
        assert_eq!(parse_size("2^20"), Ok(1_048_576));
        assert_eq!(parse_size("2^63"), Ok(9_223_372_036_854_775_808));
        assert_eq!(parse_size("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn rejected_forms_say_what_is_allowed() {
        for bad in [
            "", "MiB", "1.5MiB", "-4", "1mib", "1KB", "1 M", "0x100", "2^", "2^x", "1e6",
        ] {
            let e = parse_size(bad).unwrap_err();
            assert!(e.contains(bad.trim()), "{bad}: {e}");
            assert!(
                e.contains("KiB") || e.contains("2^"),
                "{bad}: the error should list the accepted forms: {e}"
            );
        }
        for huge in ["2^64", "18446744073709551616", "17179869184GiB"] {
            let e = parse_size(huge).unwrap_err();
            assert!(e.contains("2^64"), "{huge}: {e}");
        }
    }
}
