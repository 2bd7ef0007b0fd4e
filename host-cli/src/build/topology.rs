//! Topology specifications as users write them: `<family> key=value ...`.
//!
//! Examples: `gcirculant n=1024`, `circulant n=16 jumps=1,2,4,8`, `torus k=8,8`,
//! `dragonfly g=129 a=16 p=8 h=8 arrangement=palm-tree`, `random-shortcut n=1024 d=19 seed=1`,
//! `arbitrary edges=graph.txt`. Every family documents its keys in [`FAMILIES`]; unknown keys,
//! missing keys and malformed values are errors that say what is allowed.

use std::fmt;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use jumpnet_core::topology::galaxy::RouterAssignment;
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::{GlobalArrangement, TopologyError};
use serde::Serialize;

/// One family's command-line name, its keys and a one-line description.
#[derive(Debug)]
pub struct FamilyHelp {
    /// Name on the command line.
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// `(key, meaning, default)`; `None` default = required.
    pub keys: &'static [(&'static str, &'static str, Option<&'static str>)],
    /// Description.
    pub about: &'static str,
}

/// All families and their keys (used for parsing and for `--help` text).
pub const FAMILIES: &[FamilyHelp] = &[
    FamilyHelp {
        name: "ring",
        aliases: &[],
        keys: &[("n", "switches (one node each)", None)],
        about: "ring of n switches (spec/topologies.md §1)",
    },
    FamilyHelp {
        name: "circulant",
        aliases: &[],
        keys: &[
            ("n", "switches (one node each)", None),
            (
                "jumps",
                "jump sequence 1 = c1 < c2 < ... <= n/2, comma separated",
                None,
            ),
        ],
        about: "circulant C(n; jumps) (§2)",
    },
    FamilyHelp {
        name: "gcirculant",
        aliases: &["g", "circulant-g"],
        keys: &[("n", "switches, a power of two", None)],
        about: "circulant G(n, log2 n) with jumps 1, 2, 4, ..., n/2 (§2)",
    },
    FamilyHelp {
        name: "random-shortcut",
        aliases: &["random", "rsc"],
        keys: &[
            ("n", "switches (one node each)", None),
            ("d", "target degree", None),
            ("seed", "PRNG seed", Some("1")),
        ],
        about: "ring-based random shortcut topology (§3)",
    },
    FamilyHelp {
        name: "torus",
        aliases: &[],
        keys: &[
            ("k", "radix per dimension, comma separated (e.g. 8,8)", None),
            ("t", "terminals per switch", Some("1")),
        ],
        about: "k-ary n-cube torus (§4)",
    },
    FamilyHelp {
        name: "mesh",
        aliases: &[],
        keys: &[
            ("k", "radix per dimension, comma separated", None),
            ("t", "terminals per switch", Some("1")),
        ],
        about: "k-ary n-dimensional mesh (§4)",
    },
    FamilyHelp {
        name: "hypercube",
        aliases: &[],
        keys: &[
            ("dim", "dimension (2^dim switches)", None),
            ("t", "terminals per switch", Some("1")),
        ],
        about: "hypercube (§5)",
    },
    FamilyHelp {
        name: "fat-tree",
        aliases: &["fattree", "kary-ntree"],
        keys: &[("k", "arity", None), ("n", "levels", None)],
        about: "k-ary n-tree fat tree (§6)",
    },
    FamilyHelp {
        name: "dragonfly",
        aliases: &[],
        keys: &[
            ("g", "groups", None),
            ("a", "routers per group", None),
            ("p", "terminals per router", None),
            ("h", "global links per router", None),
            (
                "arrangement",
                "global links: consecutive (absolute) | palm-tree (relative) | relative-mirror",
                Some("consecutive"),
            ),
        ],
        about: "Dragonfly (§7)",
    },
    FamilyHelp {
        name: "hyperx",
        aliases: &[],
        keys: &[
            ("s", "size per dimension, comma separated (e.g. 12,8)", None),
            ("k", "parallel links (trunking)", Some("1")),
            ("t", "terminals per switch", Some("1")),
        ],
        about: "HyperX (§8)",
    },
    FamilyHelp {
        name: "slim-fly",
        aliases: &["slimfly"],
        keys: &[
            (
                "q",
                "prime or prime power, q = 4w + d with d in {-1, 0, 1} (e.g. 5, 8, 9)",
                None,
            ),
            (
                "p",
                "terminals per router (default ceil(k'/2))",
                Some("auto"),
            ),
        ],
        about: "Slim Fly MMS graph (§9)",
    },
    FamilyHelp {
        name: "galaxy",
        aliases: &[],
        keys: &[
            ("n", "clusters", None),
            ("q", "supernodes per cluster (prime)", None),
        ],
        about: "Galaxy graph at supernode level, one node per supernode (§10)",
    },
    FamilyHelp {
        name: "galaxyfly",
        aliases: &[],
        keys: &[
            ("n", "clusters", None),
            ("q", "supernodes per cluster (prime, or 1)", None),
            ("a", "routers per supernode", None),
            ("p", "terminals per router", Some("1")),
            (
                "h",
                "inter-supernode links per router (default ceil((hs+hg)/a))",
                Some("auto"),
            ),
            (
                "assignment",
                "which router carries which supernode link: round-robin | cluster-split (a = 2)",
                Some("round-robin"),
            ),
        ],
        about: "Galaxyfly (§10)",
    },
    FamilyHelp {
        name: "arbitrary",
        aliases: &["edges"],
        keys: &[
            ("edges", "edge-list file: one `u v` line per link", None),
            ("t", "terminals per switch", Some("1")),
        ],
        about: "arbitrary graph from an edge list (GraphGolf format)",
    },
];

/// Global-link arrangement of a Dragonfly, as written on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arrangement {
    /// Consecutive / absolute.
    Consecutive,
    /// Palm tree (the default meaning of "relative", spec/topologies.md §7).
    PalmTree,
    /// Mirror image of palm tree (`T = G + i + 1`).
    RelativeMirror,
}

/// Which Galaxyfly router carries which supernode-level link (spec/topologies.md §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Assignment {
    /// Edge `j` of a supernode on router `j mod a` (project default).
    RoundRobin,
    /// Router 0 intra-cluster, router 1 inter-cluster (the paper's `a = 2` layout).
    ClusterSplit,
}

/// A parsed topology specification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "family", rename_all = "kebab-case")]
pub enum TopologySpec {
    /// Ring.
    Ring {
        /// Switches.
        n: u32,
    },
    /// Circulant.
    Circulant {
        /// Switches.
        n: u32,
        /// Jump sequence.
        jumps: Vec<u32>,
    },
    /// G(n, log2 n).
    Gcirculant {
        /// Switches.
        n: u32,
    },
    /// Random shortcut.
    RandomShortcut {
        /// Switches.
        n: u32,
        /// Degree.
        d: u32,
        /// Seed.
        seed: u64,
    },
    /// Torus.
    Torus {
        /// Radices.
        k: Vec<u32>,
        /// Terminals per switch.
        t: u16,
    },
    /// Mesh.
    Mesh {
        /// Radices.
        k: Vec<u32>,
        /// Terminals per switch.
        t: u16,
    },
    /// Hypercube.
    Hypercube {
        /// Dimension.
        dim: u32,
        /// Terminals per switch.
        t: u16,
    },
    /// k-ary n-tree.
    FatTree {
        /// Arity.
        k: u32,
        /// Levels.
        n: u32,
    },
    /// Dragonfly.
    Dragonfly {
        /// Groups.
        g: u32,
        /// Routers per group.
        a: u32,
        /// Terminals per router.
        p: u32,
        /// Global links per router.
        h: u32,
        /// Arrangement.
        arrangement: Arrangement,
    },
    /// HyperX.
    Hyperx {
        /// Sizes.
        s: Vec<u32>,
        /// Trunking.
        k: u16,
        /// Terminals per switch.
        t: u16,
    },
    /// Slim Fly.
    SlimFly {
        /// Prime or prime-power q.
        q: u32,
        /// Terminals per router.
        p: Option<u16>,
    },
    /// Galaxy graph.
    Galaxy {
        /// Clusters.
        n: u32,
        /// Supernodes per cluster.
        q: u32,
    },
    /// Galaxyfly.
    Galaxyfly {
        /// Clusters.
        n: u32,
        /// Supernodes per cluster.
        q: u32,
        /// Routers per supernode.
        a: u32,
        /// Terminals per router.
        p: u32,
        /// Inter-supernode links per router.
        h: Option<u32>,
        /// Router assignment of supernode links.
        assignment: Assignment,
    },
    /// Arbitrary edge list.
    Arbitrary {
        /// File.
        edges: PathBuf,
        /// Terminals per switch.
        t: u16,
    },
}

impl TopologySpec {
    /// Parses `family key=value ...` (the words after the subcommand).
    pub fn parse(words: &[String]) -> Result<Self> {
        let Some((family, rest)) = words.split_first() else {
            bail!(
                "missing topology: give a family ({}) and its key=value parameters",
                family_names()
            );
        };
        let help = find_family(family)?;
        let kv = KeyValues::parse(help, rest)?;
        let spec = match help.name {
            "ring" => TopologySpec::Ring { n: kv.u32("n")? },
            "circulant" => TopologySpec::Circulant {
                n: kv.u32("n")?,
                jumps: kv.u32_list("jumps")?,
            },
            "gcirculant" => TopologySpec::Gcirculant { n: kv.u32("n")? },
            "random-shortcut" => TopologySpec::RandomShortcut {
                n: kv.u32("n")?,
                d: kv.u32("d")?,
                seed: kv.u64("seed")?,
            },
            "torus" => TopologySpec::Torus {
                k: kv.u32_list("k")?,
                t: kv.u16("t")?,
            },
            "mesh" => TopologySpec::Mesh {
                k: kv.u32_list("k")?,
                t: kv.u16("t")?,
            },
            "hypercube" => TopologySpec::Hypercube {
                dim: kv.u32("dim")?,
                t: kv.u16("t")?,
            },
            "fat-tree" => TopologySpec::FatTree {
                k: kv.u32("k")?,
                n: kv.u32("n")?,
            },
            "dragonfly" => TopologySpec::Dragonfly {
                g: kv.u32("g")?,
                a: kv.u32("a")?,
                p: kv.u32("p")?,
                h: kv.u32("h")?,
                arrangement: match kv.str("arrangement")? {
                    "consecutive" | "absolute" => Arrangement::Consecutive,
                    "palm-tree" | "palmtree" | "relative" => Arrangement::PalmTree,
                    "relative-mirror" => Arrangement::RelativeMirror,
                    other => bail!(
                        "arrangement = {other} is not known: use consecutive (= absolute), palm-tree (= relative) or relative-mirror"
                    ),
                },
            },
            "hyperx" => TopologySpec::Hyperx {
                s: kv.u32_list("s")?,
                k: kv.u16("k")?,
                t: kv.u16("t")?,
            },
            "slim-fly" => TopologySpec::SlimFly {
                q: kv.u32("q")?,
                p: kv.auto_u16("p")?,
            },
            "galaxy" => TopologySpec::Galaxy {
                n: kv.u32("n")?,
                q: kv.u32("q")?,
            },
            "galaxyfly" => TopologySpec::Galaxyfly {
                n: kv.u32("n")?,
                q: kv.u32("q")?,
                a: kv.u32("a")?,
                p: kv.u32("p")?,
                h: kv.auto_u32("h")?,
                assignment: match kv.str("assignment")? {
                    "round-robin" => Assignment::RoundRobin,
                    "cluster-split" => Assignment::ClusterSplit,
                    other => bail!(
                        "assignment = {other} is not known: use round-robin or cluster-split"
                    ),
                },
            },
            "arbitrary" => TopologySpec::Arbitrary {
                edges: PathBuf::from(kv.str("edges")?),
                t: kv.u16("t")?,
            },
            other => bail!("internal: family {other} has no parser"),
        };
        Ok(spec)
    }

    /// The core's description of a computed (structured) network, which
    /// `jumpnet_core::topology::spec::NetworkSpec::build` turns into a network; `None` for
    /// the families that need storage (random shortcut, arbitrary).
    pub fn network_spec(&self) -> Result<Option<NetworkSpec>, TopologyError> {
        Ok(Some(match self {
            TopologySpec::Ring { n } => NetworkSpec::Ring { n: *n },
            TopologySpec::Circulant { n, jumps } => NetworkSpec::circulant(*n, jumps)?,
            TopologySpec::Gcirculant { n } => NetworkSpec::CirculantG { n: *n },
            TopologySpec::Torus { k, t } => NetworkSpec::torus(k, *t)?,
            TopologySpec::Mesh { k, t } => NetworkSpec::mesh(k, *t)?,
            TopologySpec::Hypercube { dim, t } => NetworkSpec::Hypercube {
                dim: *dim,
                terminals_per_switch: *t,
            },
            TopologySpec::FatTree { k, n } => NetworkSpec::FatTree { k: *k, n: *n },
            TopologySpec::Dragonfly {
                g,
                a,
                p,
                h,
                arrangement,
            } => NetworkSpec::Dragonfly {
                g: *g,
                a: *a,
                p: *p,
                h: *h,
                arrangement: match arrangement {
                    Arrangement::Consecutive => GlobalArrangement::Consecutive,
                    Arrangement::PalmTree => GlobalArrangement::PalmTree,
                    Arrangement::RelativeMirror => GlobalArrangement::RelativeMirror,
                },
            },
            TopologySpec::Hyperx { s, k, t } => NetworkSpec::hyperx(s, *k, *t)?,
            TopologySpec::SlimFly { q, p } => NetworkSpec::SlimFly { q: *q, p: *p },
            TopologySpec::Galaxy { n, q } => NetworkSpec::Galaxy { n: *n, q: *q },
            TopologySpec::Galaxyfly {
                n,
                q,
                a,
                p,
                h,
                assignment,
            } => NetworkSpec::Galaxyfly {
                n: *n,
                q: *q,
                a: *a,
                p: *p,
                h: *h,
                assignment: match assignment {
                    Assignment::RoundRobin => RouterAssignment::RoundRobin,
                    Assignment::ClusterSplit => RouterAssignment::ClusterSplit,
                },
            },
            TopologySpec::RandomShortcut { .. } | TopologySpec::Arbitrary { .. } => {
                return Ok(None)
            }
        }))
    }

    /// Family name as written on the command line.
    pub fn family_name(&self) -> &'static str {
        match self {
            TopologySpec::Ring { .. } => "ring",
            TopologySpec::Circulant { .. } => "circulant",
            TopologySpec::Gcirculant { .. } => "gcirculant",
            TopologySpec::RandomShortcut { .. } => "random-shortcut",
            TopologySpec::Torus { .. } => "torus",
            TopologySpec::Mesh { .. } => "mesh",
            TopologySpec::Hypercube { .. } => "hypercube",
            TopologySpec::FatTree { .. } => "fat-tree",
            TopologySpec::Dragonfly { .. } => "dragonfly",
            TopologySpec::Hyperx { .. } => "hyperx",
            TopologySpec::SlimFly { .. } => "slim-fly",
            TopologySpec::Galaxy { .. } => "galaxy",
            TopologySpec::Galaxyfly { .. } => "galaxyfly",
            TopologySpec::Arbitrary { .. } => "arbitrary",
        }
    }
}

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

fn family_names() -> String {
    FAMILIES
        .iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn find_family(name: &str) -> Result<&'static FamilyHelp> {
    let lower = name.to_ascii_lowercase();
    FAMILIES
        .iter()
        .find(|f| f.name == lower || f.aliases.contains(&lower.as_str()))
        .ok_or_else(|| {
            anyhow!(
                "unknown topology family `{name}`: known families are {}",
                family_names()
            )
        })
}

/// Key/value pairs checked against a family's keys, with defaults applied.
struct KeyValues {
    family: &'static FamilyHelp,
    values: Vec<(&'static str, String)>,
}

impl KeyValues {
    fn parse(family: &'static FamilyHelp, words: &[String]) -> Result<Self> {
        let allowed = || {
            family
                .keys
                .iter()
                .map(|(k, _, _)| *k)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut values: Vec<(&'static str, String)> = Vec::new();
        for w in words {
            let Some((k, v)) = w.split_once('=') else {
                bail!(
                    "`{w}` is not a key=value parameter; {} takes {}",
                    family.name,
                    allowed()
                );
            };
            let Some(&(key, _, _)) = family.keys.iter().find(|(name, _, _)| *name == k) else {
                bail!(
                    "{} has no parameter `{k}`: allowed are {}",
                    family.name,
                    allowed()
                );
            };
            if values.iter().any(|(kk, _)| *kk == key) {
                bail!("parameter `{key}` given twice");
            }
            values.push((key, v.to_string()));
        }
        for &(key, meaning, default) in family.keys {
            if values.iter().any(|(k, _)| *k == key) {
                continue;
            }
            match default {
                Some(d) => values.push((key, d.to_string())),
                None => bail!("{} needs `{key}=` ({meaning})", family.name),
            }
        }
        Ok(KeyValues { family, values })
    }

    fn str(&self, key: &str) -> Result<&str> {
        self.values
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| anyhow!("internal: {} has no key {key}", self.family.name))
    }

    fn num<T: std::str::FromStr>(&self, key: &str, what: &str) -> Result<T> {
        let v = self.str(key)?;
        v.trim()
            .parse::<T>()
            .map_err(|_| anyhow!("{key} = `{v}` is not {what}"))
            .with_context(|| format!("in the parameters of {}", self.family.name))
    }

    fn u16(&self, key: &str) -> Result<u16> {
        self.num(key, "an integer in 0..=65535")
    }

    fn u32(&self, key: &str) -> Result<u32> {
        self.num(key, "a non-negative integer below 2^32")
    }

    fn u64(&self, key: &str) -> Result<u64> {
        self.num(key, "a non-negative 64-bit integer")
    }

    fn auto_u16(&self, key: &str) -> Result<Option<u16>> {
        if self.str(key)? == "auto" {
            Ok(None)
        } else {
            self.u16(key).map(Some)
        }
    }

    fn auto_u32(&self, key: &str) -> Result<Option<u32>> {
        if self.str(key)? == "auto" {
            Ok(None)
        } else {
            self.u32(key).map(Some)
        }
    }

    fn u32_list(&self, key: &str) -> Result<Vec<u32>> {
        let v = self.str(key)?;
        v.split(',')
            .map(|x| {
                x.trim().parse::<u32>().map_err(|_| {
                    anyhow!(
                        "{key} = `{v}`: `{x}` is not a non-negative integer (write e.g. {key}=8,8)"
                    )
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn arrangement_words_have_one_meaning() {
        // spec/topologies.md §7: "relative" is the palm tree (CAMINOS); the mirror image is
        // named relative-mirror on the command line and in core alike.
        let arrangement = |w: &str| {
            let spec = TopologySpec::parse(&words(&format!(
                "dragonfly g=9 a=4 p=2 h=2 arrangement={w}"
            )))
            .unwrap();
            match spec.network_spec().unwrap() {
                Some(NetworkSpec::Dragonfly { arrangement, .. }) => arrangement,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(arrangement("relative"), GlobalArrangement::PalmTree);
        assert_eq!(arrangement("palm-tree"), GlobalArrangement::PalmTree);
        assert_eq!(arrangement("absolute"), GlobalArrangement::Consecutive);
        // Every core arrangement's own name parses back to it.
        for a in [
            GlobalArrangement::Consecutive,
            GlobalArrangement::PalmTree,
            GlobalArrangement::RelativeMirror,
        ] {
            assert_eq!(arrangement(a.name()), a, "{}", a.name());
        }
        // The palm tree sends link i of group G to group (G − i − 1) mod g; the mirror to
        // (G + i + 1) mod g: group 0's link 0 reaches group 8 and group 1 respectively.
        let peer_group = |w: &str| {
            let spec = TopologySpec::parse(&words(&format!(
                "dragonfly g=9 a=4 p=2 h=2 arrangement={w}"
            )))
            .unwrap();
            let net = crate::build::network::OwnedNetwork::build(&spec).unwrap();
            let t = net.network();
            use jumpnet_core::topology::Topology;
            // Router 0 of group 0: ports 0..p terminals, then a − 1 local ports, then global.
            let link = t.port(0, 2 + 3).link().unwrap();
            link.peer / 4
        };
        assert_eq!(peer_group("relative"), 8);
        assert_eq!(peer_group("relative-mirror"), 1);
    }

    #[test]
    fn parses_and_prints_back() {
        for s in [
            "ring n=8",
            "circulant n=16 jumps=1,2,4,8",
            "gcirculant n=1024",
            "random-shortcut n=1024 d=19 seed=7",
            "torus k=8,8 t=1",
            "mesh k=4,3 t=2",
            "hypercube dim=6 t=1",
            "fat-tree k=4 n=3",
            "dragonfly g=9 a=4 p=2 h=2 arrangement=palm-tree",
            "hyperx s=12,8 k=1 t=7",
            "slim-fly q=5",
            "slim-fly q=5 p=3",
            "galaxy n=3 q=5",
            "galaxyfly n=3 q=5 a=4 p=1",
            "galaxyfly n=3 q=5 a=2 p=1 h=3 assignment=cluster-split",
            "arbitrary edges=g.txt t=1",
        ] {
            let spec = TopologySpec::parse(&words(s)).unwrap();
            assert_eq!(spec.to_string(), s);
            assert_eq!(
                TopologySpec::parse(&words(&spec.to_string())).unwrap(),
                spec
            );
        }
    }

    #[test]
    fn defaults_and_aliases() {
        assert_eq!(
            TopologySpec::parse(&words("g n=16")).unwrap(),
            TopologySpec::Gcirculant { n: 16 }
        );
        assert_eq!(
            TopologySpec::parse(&words("random n=64 d=5")).unwrap(),
            TopologySpec::RandomShortcut {
                n: 64,
                d: 5,
                seed: 1
            }
        );
    }

    #[test]
    fn errors_say_what_is_allowed() {
        let e = |s: &str| format!("{:#}", TopologySpec::parse(&words(s)).unwrap_err());
        assert!(e("moebius n=3").contains("known families are ring"));
        assert!(e("torus").contains("torus needs `k=`"));
        assert!(e("torus k=8,x").contains("`x` is not a non-negative integer"));
        assert!(e("ring n=8 m=3").contains("allowed are n"));
        assert!(e("ring 8").contains("not a key=value"));
        assert!(e("ring n=8 n=9").contains("given twice"));
        assert!(e("dragonfly g=9 a=4 p=2 h=2 arrangement=x").contains("palm-tree"));
        assert!(e("ring n=-1").contains("not a non-negative integer"));
        assert!(e("").contains("missing topology"));
    }
}
