//! Printing a [`TopologySpec`] back in the form it parses from.

use std::fmt;

use super::*;

fn list(v: &[u32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for TopologySpec {
    /// The canonical command-line form (parses back to the same spec).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.family_name();
        match self {
            TopologySpec::Ring { n } | TopologySpec::Gcirculant { n } => write!(f, "{name} n={n}"),
            TopologySpec::Circulant { n, jumps } => {
                write!(f, "{name} n={n} jumps={}", list(jumps))
            }
            TopologySpec::RandomShortcut { n, d, seed } => {
                write!(f, "{name} n={n} d={d} seed={seed}")
            }
            TopologySpec::Torus { k, t } | TopologySpec::Mesh { k, t } => {
                write!(f, "{name} k={} t={t}", list(k))
            }
            TopologySpec::Hypercube { dim, t } => write!(f, "{name} dim={dim} t={t}"),
            TopologySpec::FatTree { k, n } => write!(f, "{name} k={k} n={n}"),
            TopologySpec::Dragonfly {
                g,
                a,
                p,
                h,
                arrangement,
            } => {
                let arr = match arrangement {
                    Arrangement::Consecutive => "consecutive",
                    Arrangement::PalmTree => "palm-tree",
                    Arrangement::RelativeMirror => "relative-mirror",
                };
                write!(f, "{name} g={g} a={a} p={p} h={h} arrangement={arr}")
            }
            TopologySpec::Hyperx { s, k, t } => write!(f, "{name} s={} k={k} t={t}", list(s)),
            TopologySpec::SlimFly { q, p } => match p {
                Some(p) => write!(f, "{name} q={q} p={p}"),
                None => write!(f, "{name} q={q}"),
            },
            TopologySpec::Galaxy { n, q } => write!(f, "{name} n={n} q={q}"),
            TopologySpec::Galaxyfly {
                n,
                q,
                a,
                p,
                h,
                assignment,
            } => {
                write!(f, "{name} n={n} q={q} a={a} p={p}")?;
                if let Some(h) = h {
                    write!(f, " h={h}")?;
                }
                if *assignment == Assignment::ClusterSplit {
                    write!(f, " assignment=cluster-split")?;
                }
                Ok(())
            }
            TopologySpec::Arbitrary { edges, t } => {
                write!(f, "{name} edges={} t={t}", edges.display())
            }
        }
    }
}
