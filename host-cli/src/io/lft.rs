//! Forwarding tables as files: linear forwarding table dumps in the style of OpenSM's
//! `dump_lfts`, the same entries as CSV, and both read back (with the JSON of
//! `jumpnet route table -f json`) by `jumpnet route check --table`.
//!
//! ## LFT dump
//!
//! One block per switch, one `destination port` line per destination terminal:
//!
//! ```text
//! # jumpnet linear forwarding tables: torus k=4,4 t=1, algorithm dor
//! Switch 0
//! 0x0000 004
//! 0x0001 000
//! ...
//! ```
//! Destinations may be written in hex (`0x…`) or decimal; a port of `-` means "no route".
//! An optional third column is the VC of the entry (VC 0 when absent).
//!
//! ## VC rules
//!
//! Some routings choose the VC from the packet's history, not from (switch, destination)
//! alone: torus DOR with dateline VCs and minimal Dragonfly routing with BookSim's VCs
//! (docs/routing.md §2, §4). Their tables declare a [`VcRule`] in a `VCRule <name>` line
//! before the first switch, and every entry has **one VC column per input class**:
//! `destination port vc_class0 vc_class1`. A switch computes the packet's input class from
//! how the packet arrived (the rule) and sends it on the entry's port with the VC of that
//! class:
//!
//! * `VCRule dateline` (torus): class 1 iff the packet already crossed the dateline
//!   (wrap-around link) of the dimension of the entry's port and has not turned since —
//!   it arrived in that dimension on VC 1, or over that dimension's wrap-around link;
//!   class 0 otherwise (fresh from its terminal, or turning into the dimension).
//! * `VCRule input-vc`: the class is the VC the packet arrived on (0 from its terminal).
//!
//! ```text
//! # jumpnet linear forwarding tables: torus k=4,4 t=1, algorithm dor-dateline
//! VCRule dateline
//! Switch 0
//! 0x0000 004 0 0
//! 0x0001 000 0 1
//! ```
//!
//! ## CSV
//!
//! `switch,destination,port,vc` (plain tables) or, with a VC rule,
//! `switch,destination,port,vc_class0,vc_class1,vc_rule` (the rule name on every row).
//! An empty port means no route.

use std::fmt::Write as _;

use anyhow::{anyhow, bail, Context, Result};
use serde::Serialize;

/// Number of input classes of a [`VcRule`] (and VCs the rule tables use).
pub const RULE_CLASSES: usize = 2;

/// How a switch picks the VC of a table entry from the way the packet arrived (see the
/// module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VcRule {
    /// Torus dateline: class 1 iff the packet crossed the dateline of the dimension of the
    /// entry's port and has not turned since.
    Dateline,
    /// Class = the VC the packet arrived on (0 from its terminal).
    InputVc,
}

impl VcRule {
    /// Name as written in tables (`dateline`, `input-vc`).
    pub fn name(self) -> &'static str {
        match self {
            VcRule::Dateline => "dateline",
            VcRule::InputVc => "input-vc",
        }
    }

    /// The rule called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "dateline" => Some(VcRule::Dateline),
            "input-vc" => Some(VcRule::InputVc),
            _ => None,
        }
    }

    /// What the input class means, for people.
    pub fn describe(self) -> &'static str {
        match self {
            VcRule::Dateline => {
                "input class 1 iff the packet crossed the dateline (wrap-around link) of the dimension of the entry's port and has not turned since (it arrived in that dimension on VC 1 or over its wrap-around link), else 0"
            }
            VcRule::InputVc => "input class = the VC the packet arrived on (0 from its terminal)",
        }
    }
}

/// One forwarding entry: the port, and the VC per input class (`vc[0] == vc[1]` in tables
/// without a VC rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Output port.
    pub port: u16,
    /// VC for input class 0 and 1.
    pub vc: [u8; RULE_CLASSES],
}

impl Entry {
    /// An entry with one VC for every input class.
    pub fn fixed(port: u16, vc: u8) -> Self {
        Entry {
            port,
            vc: [vc; RULE_CLASSES],
        }
    }
}

/// Forwarding entries of some switches: `entries[i][destination]` is the entry of switch
/// `switches[i]` (`None` = no route).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lft {
    /// The VC rule the entries follow; `None`: every entry has one VC.
    pub rule: Option<VcRule>,
    /// Switch ids of the tables.
    pub switches: Vec<u32>,
    /// One table per switch, one entry per destination terminal.
    pub entries: Vec<Vec<Option<Entry>>>,
}

impl Lft {
    /// VCs the tables use: [`RULE_CLASSES`] with a rule, else the largest VC + 1.
    pub fn vcs(&self) -> u8 {
        if self.rule.is_some() {
            return RULE_CLASSES as u8;
        }
        self.entries
            .iter()
            .flatten()
            .flatten()
            .map(|e| e.vc[0])
            .max()
            .unwrap_or(0)
            + 1
    }
}

/// Writes the dump; `header` becomes the first comment line. Without a rule, the VC column
/// is written when `with_vc`.
pub fn write(lft: &Lft, header: &str, with_vc: bool) -> String {
    let mut out = String::new();
    out.push_str(&format!("# {header}\n"));
    if let Some(rule) = lft.rule {
        out.push_str(&format!(
            "# VC rule {}: {}; columns: destination port vc_class0 vc_class1\n",
            rule.name(),
            rule.describe()
        ));
        out.push_str(&format!("VCRule {}\n", rule.name()));
    }
    for (s, table) in lft.switches.iter().zip(&lft.entries) {
        out.push_str(&format!("Switch {s}\n"));
        for (d, e) in table.iter().enumerate() {
            let line = match (e, lft.rule) {
                (Some(e), Some(_)) => format!("0x{d:04x} {:03} {} {}", e.port, e.vc[0], e.vc[1]),
                (Some(e), None) if with_vc => format!("0x{d:04x} {:03} {}", e.port, e.vc[0]),
                (Some(e), None) => format!("0x{d:04x} {:03}", e.port),
                (None, _) => format!("0x{d:04x} -"),
            };
            out.push_str(&line);
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// Writes the entries as CSV (module docs).
pub fn write_csv(lft: &Lft) -> String {
    let mut s = String::new();
    match lft.rule {
        Some(_) => s.push_str("switch,destination,port,vc_class0,vc_class1,vc_rule\n"),
        None => s.push_str("switch,destination,port,vc\n"),
    }
    for (sw, entries) in lft.switches.iter().zip(&lft.entries) {
        for (d, e) in entries.iter().enumerate() {
            // Writing into a String cannot fail.
            let _ = match (e, lft.rule) {
                (Some(e), Some(r)) => writeln!(
                    s,
                    "{sw},{d},{},{},{},{}",
                    e.port,
                    e.vc[0],
                    e.vc[1],
                    r.name()
                ),
                (None, Some(r)) => writeln!(s, "{sw},{d},,,,{}", r.name()),
                (Some(e), None) => writeln!(s, "{sw},{d},{},{}", e.port, e.vc[0]),
                (None, None) => writeln!(s, "{sw},{d},,"),
            };
        }
    }
    s
}

fn parse_num(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Collects the entries of a complete set of tables (every switch, every destination
/// exactly once) and checks VC values against the rule.
struct Collector<'a> {
    name: &'a str,
    switches: u32,
    terminals: u32,
    rule: Option<VcRule>,
    entries: Vec<Vec<Option<Entry>>>,
    seen: Vec<Vec<bool>>,
}

impl<'a> Collector<'a> {
    fn new(name: &'a str, switches: u32, terminals: u32) -> Self {
        Collector {
            name,
            switches,
            terminals,
            rule: None,
            entries: vec![Vec::new(); switches as usize],
            seen: vec![Vec::new(); switches as usize],
        }
    }

    fn set_rule(&mut self, at: &str, rule: &str) -> Result<()> {
        let Some(r) = VcRule::from_name(rule) else {
            bail!(
                "{}{at}: unknown VC rule `{rule}` (known: dateline, input-vc)",
                self.name
            );
        };
        if self.rule.is_some_and(|old| old != r) {
            bail!(
                "{}{at}: a second, different VC rule `{rule}` (the tables declare one rule)",
                self.name
            );
        }
        self.rule = Some(r);
        Ok(())
    }

    fn switch(&mut self, at: &str, s: u64, allow_repeat: bool) -> Result<usize> {
        let name = self.name;
        if s >= self.switches as u64 {
            bail!(
                "{name}{at}: switch {s} is out of range: the topology has switches 0..{}",
                self.switches
            );
        }
        let s = s as usize;
        if self.entries[s].is_empty() {
            self.entries[s] = vec![None; self.terminals as usize];
            self.seen[s] = vec![false; self.terminals as usize];
        } else if !allow_repeat {
            bail!("{name}{at}: switch {s} has a second block");
        }
        Ok(s)
    }

    /// Records destination `d` of switch `s`: `port` (`None` = no route) and the VC
    /// columns given.
    fn entry(&mut self, at: &str, s: usize, d: u64, port: Option<u64>, vcs: &[u64]) -> Result<()> {
        let name = self.name;
        let terminals = self.terminals;
        let Some(d) = Some(d).filter(|&d| d < terminals as u64) else {
            bail!("{name}{at}: destination {d} is not a terminal id in 0..{terminals}");
        };
        let d = d as usize;
        if self.seen[s][d] {
            bail!("{name}{at}: destination {d} appears twice in the table of switch {s}");
        }
        self.seen[s][d] = true;
        let Some(port) = port else {
            return Ok(());
        };
        if port >= u16::MAX as u64 {
            bail!("{name}{at}: port {port} is not a port number (0..65534)");
        }
        let vc = match (self.rule, vcs) {
            (None, []) => [0; RULE_CLASSES],
            (None, [v]) => [check_vc(name, at, *v, 16)?; RULE_CLASSES],
            (None, _) => bail!(
                "{name}{at}: {} VC columns, but the tables declare no VC rule (one VC column, or a `VCRule` line and one column per input class)",
                vcs.len()
            ),
            (Some(_), [a, b]) => [
                check_vc(name, at, *a, RULE_CLASSES as u64)?,
                check_vc(name, at, *b, RULE_CLASSES as u64)?,
            ],
            (Some(r), _) => bail!(
                "{name}{at}: the VC rule {} needs {RULE_CLASSES} VC columns (the VC for input class 0 and 1), got {}: the VC rule is missing from this entry",
                r.name(),
                vcs.len()
            ),
        };
        self.entries[s][d] = Some(Entry {
            port: port as u16,
            vc,
        });
        Ok(())
    }

    fn finish(self) -> Result<Lft> {
        let name = self.name;
        for (s, sn) in self.seen.iter().enumerate() {
            if sn.is_empty() {
                bail!("{name}: switch {s} has no table (every switch needs one)");
            }
            if let Some(d) = sn.iter().position(|&b| !b) {
                bail!("{name}: the table of switch {s} has no entry for destination {d} (write `0x{d:04x} -` for no route)");
            }
        }
        Ok(Lft {
            rule: self.rule,
            switches: (0..self.switches).collect(),
            entries: self.entries,
        })
    }
}

fn check_vc(name: &str, at: &str, v: u64, limit: u64) -> Result<u8> {
    if v >= limit {
        bail!(
            "{name}{at}: VC {v} is out of range: {} (0..{})",
            if limit == RULE_CLASSES as u64 {
                "tables with a VC rule use 2 VCs"
            } else {
                "a virtual channel is"
            },
            limit - 1
        );
    }
    Ok(v as u8)
}

/// The topology a table file says it was written for: the `# jumpnet linear forwarding
/// tables: TOPOLOGY, algorithm …` header of an LFT dump, or the `topology` of `route table`'s
/// JSON (`None`: CSV, or a file written by another tool).
pub fn written_for(text: &str) -> Option<String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        #[derive(serde::Deserialize)]
        struct Head {
            topology: Option<String>,
        }
        return serde_json::from_str::<Head>(trimmed).ok()?.topology;
    }
    let first = trimmed.lines().next()?;
    let rest = first.strip_prefix("# jumpnet linear forwarding tables: ")?;
    Some(rest.split(", algorithm").next()?.trim().to_string())
}

/// Parses a dump for a network of `switches` switches and `terminals` terminals; every
/// destination of every switch must be given exactly once. Errors name the file and line.
pub fn parse(text: &str, name: &str, switches: u32, terminals: u32) -> Result<Lft> {
    let mut c = Collector::new(name, switches, terminals);
    let mut current: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let at = format!(":{}", i + 1);
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields[0].eq_ignore_ascii_case("vcrule") {
            if current.is_some() || fields.len() != 2 {
                bail!("{name}{at}: expected `VCRule <name>` once, before the first `Switch N` line, got `{line}`");
            }
            c.set_rule(&at, fields[1])?;
            continue;
        }
        if fields[0].eq_ignore_ascii_case("switch") {
            let Some(s) = fields.get(1).and_then(|f| parse_num(f)) else {
                bail!("{name}{at}: expected `Switch N`, got `{line}`");
            };
            current = Some(c.switch(&at, s, false)?);
            continue;
        }
        let Some(s) = current else {
            bail!("{name}{at}: entry before the first `Switch N` line");
        };
        if fields.len() < 2 || fields.len() > 2 + RULE_CLASSES {
            bail!("{name}{at}: expected `destination port [vc ...]`, got `{line}`");
        }
        let Some(d) = parse_num(fields[0]) else {
            bail!(
                "{name}{at}: destination `{}` is not a terminal id",
                fields[0]
            );
        };
        let port = if fields[1] == "-" {
            None
        } else {
            Some(parse_num(fields[1]).ok_or_else(|| {
                anyhow!(
                    "{name}{at}: port `{}` is not a port number (0..65534 or `-`)",
                    fields[1]
                )
            })?)
        };
        let mut vcs = Vec::new();
        for v in &fields[2..] {
            vcs.push(
                parse_num(v)
                    .ok_or_else(|| anyhow!("{name}{at}: VC `{v}` is not a virtual channel"))?,
            );
        }
        if port.is_none() && !vcs.is_empty() {
            bail!("{name}{at}: an entry without a route (`-`) has no VC");
        }
        c.entry(&at, s, d, port, &vcs)?;
    }
    c.finish()
}

/// Parses the CSV of [`write_csv`].
pub fn parse_csv(text: &str, name: &str, switches: u32, terminals: u32) -> Result<Lft> {
    let mut c = Collector::new(name, switches, terminals);
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        bail!("{name}: empty table");
    };
    let header: Vec<&str> = header.split(',').map(str::trim).collect();
    let with_rule = match header.as_slice() {
        ["switch", "destination", "port", "vc"] => false,
        ["switch", "destination", "port", "vc_class0", "vc_class1", "vc_rule"] => true,
        _ => bail!("{name}:1: expected the header `switch,destination,port,vc` or `switch,destination,port,vc_class0,vc_class1,vc_rule`"),
    };
    for (i, line) in lines {
        let at = format!(":{}", i + 1);
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != header.len() {
            bail!(
                "{name}{at}: expected {} fields, got {}",
                header.len(),
                f.len()
            );
        }
        let num = |v: &str, what: &str| {
            parse_num(v).ok_or_else(|| anyhow!("{name}{at}: {what} `{v}` is not a number"))
        };
        if with_rule {
            c.set_rule(&at, f[5])?;
        }
        let s = c.switch(&at, num(f[0], "switch")?, true)?;
        let d = num(f[1], "destination")?;
        let port = if f[2].is_empty() {
            None
        } else {
            Some(num(f[2], "port")?)
        };
        let mut vcs = Vec::new();
        for v in &f[3..if with_rule { 5 } else { 4 }] {
            if !v.is_empty() {
                vcs.push(num(v, "VC")?);
            }
        }
        if port.is_some() || !vcs.is_empty() {
            c.entry(&at, s, d, port, &vcs)?;
        } else {
            c.entry(&at, s, d, None, &[])?;
        }
    }
    c.finish()
}

/// Parses the JSON of `jumpnet route table -f json` (every switch; runs of entries).
pub fn parse_json(text: &str, name: &str, switches: u32, terminals: u32) -> Result<Lft> {
    let v: serde_json::Value =
        serde_json::from_str(text).with_context(|| format!("{name}: not valid JSON"))?;
    let mut c = Collector::new(name, switches, terminals);
    if let Some(r) = v.pointer("/routing/vc_rule").and_then(|r| r.as_str()) {
        c.set_rule("", r)?;
    }
    let tables = v
        .get("switches")
        .and_then(|s| s.as_array())
        .ok_or_else(|| anyhow!("{name}: no `switches` array"))?;
    for (i, t) in tables.iter().enumerate() {
        let at = format!(" (switches[{i}])");
        let s = t
            .get("switch")
            .and_then(|s| s.as_u64())
            .ok_or_else(|| anyhow!("{name}{at}: no `switch` id"))?;
        let s = c.switch(&at, s, false)?;
        let runs = t
            .get("runs")
            .and_then(|r| r.as_array())
            .ok_or_else(|| anyhow!("{name}{at}: no `runs` array"))?;
        for (j, r) in runs.iter().enumerate() {
            let at = format!(" (switches[{i}].runs[{j}])");
            let field = |k: &str| r.get(k).and_then(|x| x.as_u64());
            let (Some(first), Some(last)) = (field("first"), field("last")) else {
                bail!("{name}{at}: a run needs `first` and `last`");
            };
            if last < first || last >= terminals as u64 {
                bail!(
                    "{name}{at}: run {first}..={last} is not a range of terminals 0..{terminals}"
                );
            }
            let port = match r.get("port") {
                None | Some(serde_json::Value::Null) => None,
                Some(p) => Some(
                    p.as_u64()
                        .ok_or_else(|| anyhow!("{name}{at}: `port` is not a number"))?,
                ),
            };
            let vcs: Vec<u64> = match (r.get("vc_by_class"), field("vc")) {
                (Some(serde_json::Value::Array(a)), _) => a
                    .iter()
                    .map(|x| {
                        x.as_u64()
                            .ok_or_else(|| anyhow!("{name}{at}: `vc_by_class` holds a non-number"))
                    })
                    .collect::<Result<_>>()?,
                (_, Some(vc)) => vec![vc],
                _ => Vec::new(),
            };
            let vcs = if port.is_none() { Vec::new() } else { vcs };
            for d in first..=last {
                c.entry(&at, s, d, port, &vcs)?;
            }
        }
    }
    c.finish()
}

/// Parses tables in any of the three formats, recognised by their first line: JSON (`{`),
/// CSV (`switch,`), else an LFT dump.
pub fn parse_any(text: &str, name: &str, switches: u32, terminals: u32) -> Result<Lft> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if first.starts_with('{') {
        parse_json(text, name, switches, terminals)
    } else if first.starts_with("switch,") {
        parse_csv(text, name, switches, terminals)
    } else {
        parse(text, name, switches, terminals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> Lft {
        Lft {
            rule: None,
            switches: vec![0, 1],
            entries: vec![
                vec![Some(Entry::fixed(2, 0)), None],
                vec![Some(Entry::fixed(0, 1)), Some(Entry::fixed(3, 1))],
            ],
        }
    }

    fn ruled() -> Lft {
        Lft {
            rule: Some(VcRule::Dateline),
            switches: vec![0, 1],
            entries: vec![
                vec![Some(Entry::fixed(2, 0)), None],
                vec![
                    Some(Entry {
                        port: 0,
                        vc: [0, 1],
                    }),
                    Some(Entry::fixed(3, 1)),
                ],
            ],
        }
    }

    #[test]
    fn round_trip() {
        let lft = plain();
        let text = write(&lft, "test", true);
        assert_eq!(parse(&text, "x", 2, 2).unwrap(), lft);
        assert_eq!(parse_any(&write_csv(&lft), "x", 2, 2).unwrap(), lft);
        let no_vc = write(&lft, "test", false);
        assert!(no_vc.contains("0x0001 003\n"));
        assert_eq!(lft.vcs(), 2);
    }

    #[test]
    fn round_trip_with_rule() {
        let lft = ruled();
        let text = write(&lft, "test", false);
        assert!(text.contains("VCRule dateline\n"));
        assert!(text.contains("0x0000 000 0 1\n"));
        assert_eq!(parse(&text, "x", 2, 2).unwrap(), lft);
        let csv = write_csv(&lft);
        assert!(csv.starts_with("switch,destination,port,vc_class0,vc_class1,vc_rule\n"));
        assert!(csv.contains("\n1,0,0,0,1,dateline\n"));
        assert_eq!(parse_any(&csv, "x", 2, 2).unwrap(), lft);
        assert_eq!(lft.vcs(), 2);
    }

    #[test]
    fn rule_needs_its_columns() {
        let e = |t: &str| format!("{:#}", parse(t, "t.lft", 1, 2).unwrap_err());
        assert!(e("VCRule dateline\nSwitch 0\n0x0 1 0 1\n0x1 1\n")
            .contains("t.lft:4: the VC rule dateline needs 2 VC columns"));
        assert!(e("Switch 0\n0x0 1 0 1\n0x1 1\n")
            .contains("t.lft:2: 2 VC columns, but the tables declare no VC rule"));
        assert!(e("VCRule dateline\nSwitch 0\n0x0 1 0 2\n0x1 1 0 0\n")
            .contains("t.lft:3: VC 2 is out of range"));
        assert!(e("VCRule sideways\n").contains("unknown VC rule `sideways`"));
        assert!(e("Switch 0\nVCRule dateline\n").contains("before the first `Switch N`"));
    }

    #[test]
    fn errors_name_the_line() {
        let e = |t: &str| format!("{:#}", parse(t, "t.lft", 2, 2).unwrap_err());
        assert!(e("0x0 1\n").contains("t.lft:1: entry before"));
        assert!(e("Switch 0\n0x0 1\n0x1 x\n").contains("t.lft:3: port `x`"));
        assert!(e("Switch 0\n0x0 1\n0x5 1\n").contains("t.lft:3: destination 5 is not a terminal"));
        assert!(e("Switch 0\n0x0 1\n0x0 2\n").contains("t.lft:3: destination 0 appears twice"));
        assert!(e("Switch 9\n").contains("t.lft:1: switch 9 is out of range"));
        assert!(e("Switch 0\n0x0 1\n0x1 1\n").contains("switch 1 has no table"));
        assert!(e("Switch 0\n0x0 1\nSwitch 1\n0x1 1\n0x0 1 99\n").contains("t.lft:5: VC 99"));
        assert!(e("Switch 0\n0x0 1\n0x1 1\nSwitch 1\n0x1 1\n")
            .contains("the table of switch 1 has no entry for destination 0"));
    }
}
