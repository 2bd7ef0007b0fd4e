//! Edge lists: one `u v` line per link (the GraphGolf format), `#` comments and blank lines
//! allowed. Reading reports malformed lines with their line number, and refuses lines longer
//! than [`read::MAX_LINE_BYTES`], switch ids of
//! [`MAX_SWITCHES`] or more and more than [`MAX_LINKS`] links, before memory runs out. A
//! link listed twice is refused (a slip of the editor would otherwise become a second
//! parallel link) unless the repeated line is marked `# parallel`, as [`write()`] marks the
//! parallel links of a topology; a list whose switches are not all connected is refused
//! (every switch id below the largest one is a switch of the network).

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
    // Line number of each link and whether it is marked `# parallel`.
    let mut lines: Vec<(usize, bool)> = Vec::new();
    let mut n: u32 = 0;
    read::for_each_line(reader, name, read::MAX_LINE_BYTES, |lineno, line| {
        let (content, comment) = line.split_once('#').unwrap_or((line, ""));
        let content = content.trim();
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
        lines.push((lineno, comment.trim() == "parallel"));
        Ok(())
    })?;
    if edges.is_empty() {
        bail!("{name}: no links found (expected one `u v` line per link)");
    }
    refuse_repeated_links(&edges, &lines, name)?;
    let list = EdgeList { n, edges };
    refuse_disconnected(&list, name)?;
    Ok(list)
}

/// Refuses a link listed twice unless the later line is marked `# parallel`.
fn refuse_repeated_links(edges: &[(u32, u32)], lines: &[(usize, bool)], name: &str) -> Result<()> {
    let mut order: Vec<usize> = (0..edges.len()).collect();
    let key = |i: usize| {
        let (u, v) = edges[i];
        (u.min(v), u.max(v), i)
    };
    order.sort_unstable_by_key(|&i| key(i));
    for w in order.windows(2) {
        let (a, b) = (key(w[0]), key(w[1]));
        if (a.0, a.1) == (b.0, b.1) && !lines[b.2].1 {
            bail!(
                "{name}:{}: link `{} {}` is listed again (first on line {}): mark the line \
                 `# parallel` if the switches have a second link",
                lines[b.2].0,
                a.0,
                a.1,
                lines[a.2].0
            );
        }
    }
    Ok(())
}

/// Refuses an edge list whose switches `0..n` are not all connected.
fn refuse_disconnected(list: &EdgeList, name: &str) -> Result<()> {
    let n = list.n as usize;
    if list.edges.len() + 1 < n {
        bail!(
            "{name}: switch ids go up to {} but there are only {} links: at least {} switches \
             are not connected (a network's switches are 0..{} and must all be connected)",
            n - 1,
            list.edges.len(),
            n - 1 - list.edges.len(),
            n
        );
    }
    crate::budget::check_alloc::<u32>(&format!("the connectivity check of {name}"), n as u128)?;
    let mut parent: Vec<u32> = (0..list.n).collect();
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    }
    for &(u, v) in &list.edges {
        let (a, b) = (root(&mut parent, u), root(&mut parent, v));
        if a != b {
            parent[a.max(b) as usize] = a.min(b);
        }
    }
    let zero = root(&mut parent, 0);
    if let Some(s) = (1..list.n).find(|&s| root(&mut parent, s) != zero) {
        bail!(
            "{name}: the network is not connected: switch {s} cannot reach switch 0 (a \
             network's switches are 0..{n} and must all be connected)"
        );
    }
    Ok(())
}

/// Reads and parses an edge-list file.
pub fn read(path: &Path) -> Result<EdgeList> {
    let f = std::fs::File::open(path)
        .with_context(|| format!("cannot open edge list {}", path.display()))?;
    parse(std::io::BufReader::new(f), &path.display().to_string())
}

/// Writes every link of `topo` once (`u v` with u < v, or u == v never), in switch and port
/// order; parallel links appear once per link, the second and later marked `# parallel`.
pub fn write<T: Topology>(topo: &T, out: &mut dyn Write) -> Result<()> {
    let mut written = Vec::new();
    for s in 0..topo.num_switches() {
        written.clear();
        for p in 0..topo.radix() {
            if let Port::Link(l) = topo.port(s, p) {
                if (s, p) < (l.peer, l.peer_port) {
                    if written.contains(&l.peer) {
                        writeln!(out, "{s} {} # parallel", l.peer)?;
                    } else {
                        writeln!(out, "{s} {}", l.peer)?;
                        written.push(l.peer);
                    }
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
        assert!(err("0 1\n1 2\n2 1\n").contains(
            "g.txt:3: link `1 2` is listed again (first on line 2): mark the line `# parallel`"
        ));
        assert_eq!(
            parse("0 1\n1 0 # parallel\n".as_bytes(), "g.txt")
                .unwrap()
                .edges,
            [(0, 1), (1, 0)]
        );
        assert_eq!(
            err("0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n"),
            "g.txt: the network is not connected: switch 3 cannot reach switch 0 (a network's \
             switches are 0..6 and must all be connected)"
        );
        assert_eq!(
            err("0 1\n5 12000000\n"),
            "g.txt: switch ids go up to 12000000 but there are only 2 links: at least 11999998 \
             switches are not connected (a network's switches are 0..12000001 and must all be \
             connected)"
        );
        assert!(err(&long).contains("g.txt:2: line is longer than"));
    }
}
