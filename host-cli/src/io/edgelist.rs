//! Edge lists: one `u v` line per link (the GraphGolf format), `#` comments and blank lines
//! allowed. Reading reports malformed lines with their line number, and refuses lines longer
//! than [`read::MAX_LINE_BYTES`], switch ids of
//! [`MAX_SWITCHES`] or more and more than [`MAX_LINKS`] links, before memory runs out.

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use jumpnet_core::topology::limits::MAX_SWITCHES;
use jumpnet_core::topology::{Port, Topology};

use super::read;

/// Most links an edge list may have (2^27).
pub const MAX_LINKS: usize = 1 << 27;

/// A parsed edge list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeList {
    /// Number of switches (largest id + 1).
    pub n: u32,
    /// Links in file order.
    pub edges: Vec<(u32, u32)>,
}

impl EdgeList {
    /// Largest number of links at one switch.
    pub fn max_degree(&self) -> u32 {
        let mut deg = vec![0u32; self.n as usize];
        for &(u, v) in &self.edges {
            deg[u as usize] += 1;
            deg[v as usize] += 1;
        }
        deg.into_iter().max().unwrap_or(0)
    }
}

/// Parses an edge list from a reader; `name` is used in error messages.
pub fn parse(reader: impl BufRead, name: &str) -> Result<EdgeList> {
    let mut edges = Vec::new();
    let mut n: u32 = 0;
    read::for_each_line(reader, name, read::MAX_LINE_BYTES, |lineno, line| {
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            return Ok(());
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        if fields.len() != 2 {
            bail!(
                "{name}:{lineno}: expected two switch ids `u v`, got `{content}` ({} fields)",
                fields.len()
            );
        }
        let mut ids = [0u32; 2];
        for (slot, f) in ids.iter_mut().zip(&fields) {
            *slot = f.parse::<u32>().map_err(|_| {
                anyhow::anyhow!(
                    "{name}:{lineno}: `{f}` is not a switch id (a non-negative integer below {MAX_SWITCHES})"
                )
            })?;
            if *slot >= MAX_SWITCHES {
                bail!("{name}:{lineno}: switch id {f} is too large: a network has at most {MAX_SWITCHES} switches (ids 0..{MAX_SWITCHES})");
            }
        }
        let [u, v] = ids;
        if u == v {
            bail!("{name}:{lineno}: self loop `{u} {v}`: a link must join two different switches");
        }
        if edges.len() >= MAX_LINKS {
            bail!("{name}:{lineno}: more than {MAX_LINKS} links: too large");
        }
        n = n.max(u + 1).max(v + 1);
        edges.push((u, v));
        Ok(())
    })?;
    if edges.is_empty() {
        bail!("{name}: no links found (expected one `u v` line per link)");
    }
    Ok(EdgeList { n, edges })
}

/// Reads and parses an edge-list file.
pub fn read(path: &Path) -> Result<EdgeList> {
    let f = std::fs::File::open(path)
        .with_context(|| format!("cannot open edge list {}", path.display()))?;
    parse(std::io::BufReader::new(f), &path.display().to_string())
}

/// Writes every link of `topo` once (`u v` with u < v, or u == v never), in switch and port
/// order; parallel links appear once per link.
pub fn write<T: Topology>(topo: &T, out: &mut dyn Write) -> Result<()> {
    for s in 0..topo.num_switches() {
        for p in 0..topo.radix() {
            if let Port::Link(l) = topo.port(s, p) {
                if (s, p) < (l.peer, l.peer_port) {
                    writeln!(out, "{s} {}", l.peer)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_with_comments() {
        let text = "# a triangle\n0 1\n\n1 2  # second\n2 0\n";
        let e = parse(text.as_bytes(), "t").unwrap();
        assert_eq!(e.n, 3);
        assert_eq!(e.edges, vec![(0, 1), (1, 2), (2, 0)]);
        assert_eq!(e.max_degree(), 2);
    }

    #[test]
    fn errors_carry_line_numbers() {
        let err = |t: &str| format!("{:#}", parse(t.as_bytes(), "g.txt").unwrap_err());
        assert!(err("0 1\n1 2 3\n").contains("g.txt:2: expected two switch ids"));
        assert!(err("0 1\n\n1 x\n").contains("g.txt:3: `x` is not a switch id"));
        assert!(err("0 1\n4 4\n").contains("g.txt:2: self loop"));
        assert!(err("0 -1\n").contains("g.txt:1:"));
        assert!(err("# nothing\n").contains("no links found"));
        assert!(err("0 4000000000\n").contains("g.txt:1: switch id 4000000000 is too large"));
        let long = format!("0 1\n{}\n", " ".repeat(100_000));
        assert!(err(&long).contains("g.txt:2: line is longer than"));
    }
}
