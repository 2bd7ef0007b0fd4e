//! Topology export: Graphviz DOT, GraphML, the GraphGolf edge list and BookSim2's anynet
//! network file ([`crate::io::anynet::write`], with channel latencies).

use std::fmt::Write as _;

use anyhow::Result;
use jumpnet_core::topology::{LinkClass, Port, Topology};

/// Export file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Graphviz DOT (`graph { u -- v }`).
    Dot,
    /// GraphML (XML) with switch/terminal nodes and link attributes.
    Graphml,
    /// One `u v` line per link (GraphGolf format; switches only).
    Edges,
    /// BookSim2's anynet `network_file` (routers, their nodes, channel latencies;
    /// docs/booksim.md §3.1).
    Anynet,
}

/// Name of a link class as written in exports and reports.
pub fn class_name(c: LinkClass) -> String {
    match c {
        LinkClass::Terminal => "terminal".into(),
        LinkClass::Local => "local".into(),
        LinkClass::Global => "global".into(),
        LinkClass::Dim(i) => format!("dim{i}"),
        LinkClass::Up | LinkClass::Down => "updown".into(),
        LinkClass::Shortcut => "shortcut".into(),
    }
}

/// Every link once, as `(u, port_u, v, port_v, class)` in switch/port order.
pub fn links<T: Topology>(t: &T) -> Vec<(u32, u16, u32, u16, LinkClass)> {
    let mut out = Vec::new();
    for s in 0..t.num_switches() {
        for p in 0..t.radix() {
            if let Port::Link(l) = t.port(s, p) {
                if (s, p) < (l.peer, l.peer_port) {
                    out.push((s, p, l.peer, l.peer_port, l.class));
                }
            }
        }
    }
    out
}

/// Renders `t` in `format`; `with_terminals` adds terminal nodes and links (DOT/GraphML).
pub fn export<T: Topology>(
    t: &T,
    format: ExportFormat,
    name: &str,
    with_terminals: bool,
) -> Result<String> {
    let mut out = String::new();
    match format {
        ExportFormat::Edges => {
            for (u, _, v, _, _) in links(t) {
                writeln!(out, "{u} {v}")?;
            }
        }
        ExportFormat::Anynet => {
            out = crate::io::anynet::write(t, |s, p| t.port_latency(s, p).unwrap_or(1))?;
        }
        ExportFormat::Dot => {
            writeln!(out, "graph \"{}\" {{", name.replace('"', "'"))?;
            writeln!(out, "  node [shape=circle];")?;
            for s in 0..t.num_switches() {
                writeln!(out, "  s{s} [label=\"{s}\"];")?;
            }
            for (u, pu, v, pv, c) in links(t) {
                writeln!(
                    out,
                    "  s{u} -- s{v} [class=\"{}\", tailport=\"{pu}\", headport=\"{pv}\"];",
                    class_name(c)
                )?;
            }
            if with_terminals {
                terminal_lines(t, &mut out, |out, term, s, p| {
                    writeln!(out, "  t{term} [shape=box, label=\"t{term}\"];")?;
                    writeln!(
                        out,
                        "  s{s} -- t{term} [class=\"terminal\", tailport=\"{p}\"];"
                    )
                })?;
            }
            writeln!(out, "}}")?;
        }
        ExportFormat::Graphml => {
            writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
            writeln!(
                out,
                r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns">"#
            )?;
            writeln!(
                out,
                r#"  <key id="kind" for="node" attr.name="kind" attr.type="string"/>"#
            )?;
            writeln!(
                out,
                r#"  <key id="class" for="edge" attr.name="class" attr.type="string"/>"#
            )?;
            writeln!(
                out,
                r#"  <key id="sport" for="edge" attr.name="source_port" attr.type="int"/>"#
            )?;
            writeln!(
                out,
                r#"  <key id="tport" for="edge" attr.name="target_port" attr.type="int"/>"#
            )?;
            writeln!(
                out,
                r#"  <graph id="{}" edgedefault="undirected">"#,
                xml_escape(name)
            )?;
            for s in 0..t.num_switches() {
                writeln!(
                    out,
                    r#"    <node id="s{s}"><data key="kind">switch</data></node>"#
                )?;
            }
            for (u, pu, v, pv, c) in links(t) {
                writeln!(
                    out,
                    r#"    <edge source="s{u}" target="s{v}"><data key="class">{}</data><data key="sport">{pu}</data><data key="tport">{pv}</data></edge>"#,
                    class_name(c)
                )?;
            }
            if with_terminals {
                terminal_lines(t, &mut out, |out, term, s, p| {
                    writeln!(
                        out,
                        r#"    <node id="t{term}"><data key="kind">terminal</data></node>"#
                    )?;
                    writeln!(
                        out,
                        r#"    <edge source="s{s}" target="t{term}"><data key="class">terminal</data><data key="sport">{p}</data><data key="tport">0</data></edge>"#
                    )
                })?;
            }
            writeln!(out, "  </graph>")?;
            writeln!(out, "</graphml>")?;
        }
    }
    Ok(out)
}

fn terminal_lines<T: Topology>(
    t: &T,
    out: &mut String,
    mut f: impl FnMut(&mut String, u32, u32, u16) -> std::fmt::Result,
) -> Result<()> {
    for term in 0..t.num_terminals() {
        if let Some((s, p)) = t.terminal_port(term) {
            f(out, term, s, p)?;
        }
    }
    Ok(())
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use jumpnet_core::topology::{stored, Slot};

    fn triangle() -> (Vec<Slot>, Vec<u16>) {
        (vec![Slot::EMPTY; 6], vec![0u16; 3])
    }

    #[test]
    fn edge_list_round_trips() {
        let (mut slots, mut deg) = triangle();
        let g =
            stored::from_edges(3, 2, 1, [(0, 1), (1, 2), (2, 0)], &mut slots, &mut deg).unwrap();
        let text = export(&g, ExportFormat::Edges, "tri", false).unwrap();
        let parsed = crate::io::edgelist::parse(text.as_bytes(), "x").unwrap();
        let mut e: Vec<(u32, u32)> = parsed
            .edges
            .iter()
            .map(|&(u, v)| (u.min(v), u.max(v)))
            .collect();
        e.sort();
        assert_eq!(e, vec![(0, 1), (0, 2), (1, 2)]);
    }

    #[test]
    fn dot_and_graphml_list_everything() {
        let (mut slots, mut deg) = triangle();
        let g =
            stored::from_edges(3, 2, 1, [(0, 1), (1, 2), (2, 0)], &mut slots, &mut deg).unwrap();
        let dot = export(&g, ExportFormat::Dot, "tri", true).unwrap();
        assert_eq!(dot.matches(" -- s").count(), 3);
        assert_eq!(dot.matches(" -- t").count(), 3);
        let gml = export(&g, ExportFormat::Graphml, "tri", false).unwrap();
        assert_eq!(gml.matches("<edge ").count(), 3);
        assert_eq!(gml.matches("<node ").count(), 3);
    }
}
