//! BookSim2's `anynet` network files (`network_file`, docs/booksim.md §3.1): reading them
//! as BookSim2's `AnyNet::readFile` does, and writing any jumpnet topology in the format.
//!
//! A line is `router R` followed by what the router connects to: `node N` (a terminal, with
//! 1-cycle channels) or `router R2 [LATENCY]` (the channel R → R2 takes LATENCY cycles,
//! default 1; the channel R2 → R exists too, with 1 cycle unless some line gives R2 → R a
//! latency). As in BookSim2, naming a connection again starts it over at 1 cycle, routers are
//! numbered `0..R` and nodes `0..N`, and a node hangs off one router. jumpnet also refuses
//! what BookSim2 would misread, crash or hang on: a latency after `node N` (BookSim2 gives it
//! to a channel from router R to a router numbered N), lines starting with `node` (BookSim2
//! takes the node's id for a router's), a router linked to itself, a network whose routers
//! are not all connected, words that are not `router`, `node` or a number, and a connection
//! without an id; each error names file:line.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use jumpnet_core::topology::limits::{MAX_SWITCHES, MAX_TERMINALS};
use jumpnet_core::topology::{Port, Topology};

use super::read;

/// A parsed anynet network.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnyNet {
    /// Routers `0..routers`.
    pub routers: u32,
    /// Router of every node `0..len`.
    pub nodes: Vec<u32>,
    /// Latency of every router-to-router channel `(from, to)`; both directions of a link
    /// are present.
    pub links: BTreeMap<(u32, u32), u16>,
}

impl AnyNet {
    /// The neighbours of router `r` with the latency of the channel towards each, in
    /// increasing router id (BookSim2's port order).
    pub fn neighbours(&self, r: u32) -> impl Iterator<Item = (u32, u16)> + '_ {
        self.links
            .range((r, 0)..=(r, u32::MAX))
            .map(|(&(_, v), &l)| (v, l))
    }
}

/// What a line has read so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    /// `router` first.
    Head,
    /// The router's id.
    HeadId,
    /// `router` or `node` (or a latency, after a connection).
    Body,
    /// The id of a connection of this kind.
    BodyId(Kind),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Router,
    Node,
}

/// Collects a file's statements.
#[derive(Default)]
struct Reader {
    /// The line being read.
    lineno: usize,
    routers: BTreeMap<u32, ()>,
    /// Router and line of each node.
    nodes: BTreeMap<u32, (u32, usize)>,
    links: BTreeMap<(u32, u32), u16>,
}

fn number(word: &str, what: &str, max: u32, at: &str) -> Result<u32> {
    word.parse::<u32>()
        .ok()
        .filter(|&v| v < max)
        .ok_or_else(|| anyhow!("{at}: `{word}` is not a {what} (an integer in 0..{max})"))
}

impl Reader {
    /// One line of the file (BookSim2's `readFile` state machine).
    fn line(&mut self, line: &str, at: &str) -> Result<()> {
        let mut want = Want::Head;
        let (mut head, mut last): (u32, Option<(Kind, u32, bool)>) = (0, None);
        for word in line.split_whitespace() {
            want = match (want, word) {
                (Want::Head, "router") => Want::HeadId,
                (Want::Head, "node") => bail!(
                    "{at}: a line starting with `node` is not read as it looks: BookSim2 takes the \
                     node's id for a router's too; write `router R node N` instead"
                ),
                (Want::Head, w) => bail!("{at}: a line starts with `router`, not `{w}`"),
                (Want::HeadId, w) => {
                    head = number(w, "router id", MAX_SWITCHES, at)?;
                    self.routers.insert(head, ());
                    Want::Body
                }
                (Want::Body, "router") => Want::BodyId(Kind::Router),
                (Want::Body, "node") => Want::BodyId(Kind::Node),
                (Want::Body, w) => {
                    let Some((kind, id, false)) = last else {
                        bail!(
                            "{at}: `{w}` is not `router`, `node` or a latency after a connection"
                        );
                    };
                    if kind == Kind::Node {
                        bail!(
                            "{at}: latency `{w}` after `node {id}`: BookSim2 gives it to a channel \
                             from router {head} to a router numbered {id} (anynet.cpp keys it by \
                             the line's head), not to the node's channels; node channels take 1 cycle"
                        );
                    }
                    let l = w.parse::<u16>().ok().filter(|&l| l >= 1).ok_or_else(|| {
                        anyhow!("{at}: latency `{w}` is not a number of cycles in 1..=65535")
                    })?;
                    self.connect(head, kind, id, l, at)?;
                    last = Some((kind, id, true));
                    Want::Body
                }
                (Want::BodyId(kind), w) => {
                    let id = match kind {
                        Kind::Router => number(w, "router id", MAX_SWITCHES, at)?,
                        Kind::Node => number(w, "node id", MAX_TERMINALS, at)?,
                    };
                    self.connect(head, kind, id, 1, at)?;
                    last = Some((kind, id, false));
                    Want::Body
                }
            };
        }
        match want {
            Want::Head | Want::Body => Ok(()),
            Want::HeadId => bail!("{at}: `router` without its id"),
            Want::BodyId(_) => bail!("{at}: a connection without its id"),
        }
    }

    /// Router `head` connects to `id` with latency `l` (a first naming sets 1 cycle).
    fn connect(&mut self, head: u32, kind: Kind, id: u32, l: u16, at: &str) -> Result<()> {
        match kind {
            Kind::Node => {
                if let Some(&(r, line)) = self.nodes.get(&id).filter(|n| n.0 != head) {
                    bail!(
                        "{at}: node {id} is already connected to router {r} (line {line}); a node \
                         hangs off one router"
                    );
                }
                self.nodes.insert(id, (head, self.lineno));
            }
            Kind::Router => {
                if id == head {
                    bail!("{at}: router {head} is linked to itself");
                }
                self.routers.insert(id, ());
                self.links.insert((head, id), l);
                self.links.entry((id, head)).or_insert(1);
            }
        }
        Ok(())
    }

    /// The network: routers and nodes numbered from 0 without gaps, all routers connected.
    fn finish(self, name: &str) -> Result<AnyNet> {
        let routers = self.routers.len() as u32;
        if routers == 0 {
            bail!("{name}: no routers (lines are `router R node N ... router R2 ...`)");
        }
        if let Some((i, (&r, _))) = self
            .routers
            .iter()
            .enumerate()
            .find(|(i, (&r, _))| r != *i as u32)
        {
            bail!(
                "{name}: routers must be numbered 0..{routers} without gaps (BookSim2 indexes \
                 them so), but router {i} is missing and router {r} is named"
            );
        }
        let nodes: Vec<u32> = self.nodes.values().map(|&(r, _)| r).collect();
        if let Some((i, &n)) = self.nodes.keys().enumerate().find(|(i, &n)| n != *i as u32) {
            bail!(
                "{name}: nodes must be numbered 0..{} without gaps (BookSim2's traffic manager \
                 assumes so), but node {i} is missing and node {n} is named",
                nodes.len()
            );
        }
        let net = AnyNet {
            routers,
            nodes,
            links: self.links,
        };
        refuse_disconnected(&net, name)?;
        Ok(net)
    }
}

/// Refuses a network some of whose routers cannot reach router 0 (BookSim2's routing table
/// construction would loop forever on it).
fn refuse_disconnected(net: &AnyNet, name: &str) -> Result<()> {
    let mut seen = vec![false; net.routers as usize];
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(r) = stack.pop() {
        for (v, _) in net.neighbours(r) {
            if !std::mem::replace(&mut seen[v as usize], true) {
                stack.push(v);
            }
        }
    }
    if let Some(r) = seen.iter().position(|s| !s) {
        bail!("{name}: the network is not connected: router {r} cannot reach router 0");
    }
    Ok(())
}

/// Parses an anynet file from a reader; `name` is used in error messages.
pub fn parse(reader: impl BufRead, name: &str) -> Result<AnyNet> {
    let mut r = Reader::default();
    read::for_each_line(reader, name, read::MAX_LINE_BYTES, |lineno, line| {
        r.lineno = lineno;
        r.line(line, &format!("{name}:{lineno}"))
    })?;
    r.finish(name)
}

/// Reads an anynet file. BookSim2 opens `network_file` as written, relative to the working
/// directory, and so does jumpnet.
pub fn read(path: &Path) -> Result<AnyNet> {
    let f = std::fs::File::open(path).with_context(|| {
        format!(
            "cannot open anynet network_file {} (BookSim2 opens it relative to the directory it \
             runs in, as jumpnet does; the working directory is {})",
            path.display(),
            std::env::current_dir().map_or("unknown".into(), |d| d.display().to_string())
        )
    })?;
    parse(std::io::BufReader::new(f), &path.display().to_string())
}

/// Writes `topo` as an anynet file: one line per router, its terminals (node = terminal id)
/// and every neighbour with the latency of the channel towards it when it is not 1 cycle.
/// `latency(s, p)` is the latency of the channel leaving port `p` of switch `s`. Parallel
/// links and terminal channels of other than 1 cycle have no anynet form and are refused.
pub fn write<T: Topology>(topo: &T, latency: impl Fn(u32, u16) -> u16) -> Result<String> {
    let mut out = String::new();
    for s in 0..topo.num_switches() {
        let mut peers: Vec<(u32, u16)> = Vec::new();
        let mut terminals: Vec<u32> = Vec::new();
        for p in 0..topo.radix() {
            match topo.port(s, p) {
                Port::Link(l) => {
                    if peers.iter().any(|&(v, _)| v == l.peer) {
                        bail!(
                            "switches {s} and {} have parallel links, which a BookSim2 anynet file \
                             cannot express (it keeps one channel per direction)",
                            l.peer
                        );
                    }
                    peers.push((l.peer, latency(s, p)));
                }
                Port::Terminal(t) => {
                    if latency(s, p) != 1 {
                        bail!(
                            "terminal {t} has {}-cycle channels; BookSim2's anynet files give \
                             node channels 1 cycle",
                            latency(s, p)
                        );
                    }
                    terminals.push(t);
                }
                Port::Unconnected => {}
            }
        }
        terminals.sort_unstable();
        peers.sort_unstable();
        write!(out, "router {s}")?;
        for t in terminals {
            write!(out, " node {t}")?;
        }
        for (v, l) in peers {
            write!(out, " router {v}")?;
            if l != 1 {
                write!(out, " {l}")?;
            }
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<AnyNet> {
        parse(text.as_bytes(), "net")
    }

    #[test]
    fn booksim2s_example_and_latency_semantics() {
        // BookSim2's example shape: three routers of three nodes each, a triangle.
        let n = p(
            "router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n\
                   router 2 node 6 node 7 node 8 router 1 router 0\n",
        )
        .unwrap();
        assert_eq!((n.routers, n.nodes.len()), (3, 9));
        assert_eq!(n.nodes[4], 1);
        assert_eq!(n.links.len(), 6);
        // Latencies are per direction; the reverse channel defaults to 1; naming a link
        // again starts it over at 1 cycle.
        let n = p("router 0 router 1 15 router 2  node 0\nrouter 2 router 1 4\n\nrouter 1 router 2 node 1\n")
            .unwrap();
        assert_eq!(n.links[&(0, 1)], 15);
        assert_eq!(n.links[&(1, 0)], 1);
        assert_eq!(n.links[&(2, 1)], 4);
        assert_eq!(n.links[&(1, 2)], 1);
        assert_eq!(n.nodes, [0, 1]);
        assert_eq!(n.neighbours(0).collect::<Vec<_>>(), [(1, 15), (2, 1)]);
        let n = p("router 0 router 1 7\nrouter 0 router 1\nrouter 1 node 0\n").unwrap();
        assert_eq!(n.links[&(0, 1)], 1);
    }

    #[test]
    fn bad_lines_are_named() {
        let e = |t: &str| format!("{:#}", p(t).unwrap_err());
        assert!(
            e("router 0 node 0\nnode 1 router 0\n").contains("net:2: a line starting with `node`")
        );
        assert!(e("router 0 nod 0\n").contains("net:1: `nod` is not"));
        assert!(e("router 0 node x\n").contains("net:1: `x` is not a node id"));
        assert!(e("router 0 router 1 0\n").contains("net:1: latency `0`"));
        assert!(e("router 0 node 0 5 router 1\n").contains("net:1: latency `5` after `node 0`"));
        assert!(e("router 0 router 1 2 3\n").contains("net:1: `3` is not"));
        assert!(e("router 0 router\n").contains("net:1: a connection without its id"));
        assert!(e("router 0 router 0\n").contains("net:1: router 0 is linked to itself"));
        assert!(e("router 0 node 0 router 1\nrouter 1 node 0\n")
            .contains("net:2: node 0 is already connected to router 0 (line 1)"));
        assert!(e("router 0 node 1 router 1\n").contains("node 0 is missing"));
        assert!(e("router 0 node 0 router 2\n").contains("router 1 is missing"));
        assert!(e("router 0 node 0 router 1\nrouter 2 node 1 router 3\n")
            .contains("router 2 cannot reach router 0"));
        assert!(e("\n").contains("no routers"));
    }
}
