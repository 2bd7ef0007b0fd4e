//! Linear forwarding table dumps in the style of OpenSM's `dump_lfts`: one block per switch,
//! one `destination port` line per destination terminal (an optional third column is the
//! VC). Readable by people and scripts, and read back by `jumpnet route check --table`.
//!
//! ```text
//! # jumpnet linear forwarding tables: torus k=4,4 t=1, algorithm dor
//! Switch 0
//! 0x0000 004
//! 0x0001 000
//! ...
//! ```
//! Destinations may be written in hex (`0x…`) or decimal; a port of `-` means "no route".

use std::fmt::Write as _;

use anyhow::{bail, Result};

/// Forwarding entries of every switch: `entries[switch][destination] = Some((port, vc))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lft {
    /// One table per switch, one entry per destination terminal.
    pub entries: Vec<Vec<Option<(u16, u8)>>>,
}

/// Writes the dump; `header` becomes the first comment line.
pub fn write(lft: &Lft, header: &str, with_vc: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {header}");
    for (s, table) in lft.entries.iter().enumerate() {
        let _ = writeln!(out, "Switch {s}");
        for (d, e) in table.iter().enumerate() {
            match e {
                Some((port, vc)) if with_vc => {
                    let _ = writeln!(out, "0x{d:04x} {port:03} {vc}");
                }
                Some((port, _)) => {
                    let _ = writeln!(out, "0x{d:04x} {port:03}");
                }
                None => {
                    let _ = writeln!(out, "0x{d:04x} -");
                }
            }
        }
        out.push('\n');
    }
    out
}

fn parse_num(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Parses a dump for a network of `switches` switches and `terminals` terminals; every
/// destination of every switch must be given exactly once. Errors name the file and line.
pub fn parse(text: &str, name: &str, switches: u32, terminals: u32) -> Result<Lft> {
    let mut entries: Vec<Vec<Option<(u16, u8)>>> = vec![Vec::new(); switches as usize];
    let mut seen: Vec<Vec<bool>> = vec![Vec::new(); switches as usize];
    let mut current: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields[0].eq_ignore_ascii_case("switch") {
            let Some(s) = fields.get(1).and_then(|f| parse_num(f)) else {
                bail!("{name}:{line_no}: expected `Switch N`, got `{line}`");
            };
            if s >= switches as u64 {
                bail!("{name}:{line_no}: switch {s} is out of range: the topology has switches 0..{switches}");
            }
            let s = s as usize;
            if !entries[s].is_empty() {
                bail!("{name}:{line_no}: switch {s} has a second block");
            }
            entries[s] = vec![None; terminals as usize];
            seen[s] = vec![false; terminals as usize];
            current = Some(s);
            continue;
        }
        let Some(s) = current else {
            bail!("{name}:{line_no}: entry before the first `Switch N` line");
        };
        if fields.len() < 2 || fields.len() > 3 {
            bail!("{name}:{line_no}: expected `destination port [vc]`, got `{line}`");
        }
        let Some(d) = parse_num(fields[0]).filter(|&d| d < terminals as u64) else {
            bail!(
                "{name}:{line_no}: destination `{}` is not a terminal id in 0..{terminals}",
                fields[0]
            );
        };
        let d = d as usize;
        if seen[s][d] {
            bail!("{name}:{line_no}: destination {d} appears twice in the table of switch {s}");
        }
        seen[s][d] = true;
        if fields[1] == "-" {
            continue;
        }
        let Some(port) = parse_num(fields[1]).filter(|&p| p < u16::MAX as u64) else {
            bail!(
                "{name}:{line_no}: port `{}` is not a port number (0..65534 or `-`)",
                fields[1]
            );
        };
        let vc = match fields.get(2) {
            Some(v) => match parse_num(v).filter(|&v| v < 16) {
                Some(v) => v as u8,
                None => bail!("{name}:{line_no}: VC `{v}` is not a virtual channel (0..15)"),
            },
            None => 0,
        };
        entries[s][d] = Some((port as u16, vc));
    }
    for (s, sn) in seen.iter().enumerate() {
        if sn.is_empty() {
            bail!("{name}: switch {s} has no `Switch {s}` block (every switch needs a table)");
        }
        if let Some(d) = sn.iter().position(|&b| !b) {
            bail!("{name}: the table of switch {s} has no line for destination {d} (write `0x{d:04x} -` for no route)");
        }
    }
    Ok(Lft { entries })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let lft = Lft {
            entries: vec![vec![Some((2, 0)), None], vec![Some((0, 1)), Some((3, 1))]],
        };
        let text = write(&lft, "test", true);
        assert_eq!(parse(&text, "x", 2, 2).unwrap(), lft);
        let no_vc = write(&lft, "test", false);
        assert!(no_vc.contains("0x0001 003\n"));
    }

    #[test]
    fn errors_name_the_line() {
        let e = |t: &str| format!("{:#}", parse(t, "t.lft", 2, 2).unwrap_err());
        assert!(e("0x0 1\n").contains("t.lft:1: entry before"));
        assert!(e("Switch 0\n0x0 1\n0x1 x\n").contains("t.lft:3: port `x`"));
        assert!(e("Switch 0\n0x0 1\n0x5 1\n").contains("t.lft:3: destination `0x5`"));
        assert!(e("Switch 0\n0x0 1\n0x0 2\n").contains("t.lft:3: destination 0 appears twice"));
        assert!(e("Switch 9\n").contains("t.lft:1: switch 9 is out of range"));
        assert!(e("Switch 0\n0x0 1\n0x1 1\n").contains("switch 1 has no `Switch 1` block"));
        assert!(e("Switch 0\n0x0 1\nSwitch 1\n0x1 1\n0x0 1 99\n").contains("t.lft:5: VC `99`"));
        assert!(e("Switch 0\n0x0 1\n0x1 1\nSwitch 1\n0x1 1\n")
            .contains("the table of switch 1 has no line for destination 0"));
    }
}
