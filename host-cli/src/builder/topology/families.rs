//! The topology families users can name, with their keys, defaults and help text.

use anyhow::{anyhow, Result};

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
        about: "ring of n switches (docs/topologies.md §1)",
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
        name: "anynet",
        aliases: &[],
        keys: &[
            (
                "file",
                "BookSim2 anynet network_file: `router R node N [LAT] router R2 [LAT] ...` lines",
                Some(""),
            ),
            (
                "crossbar",
                "instead of a file: one router with this many nodes",
                Some("0"),
            ),
            (
                "tree",
                "instead of a file: a tree of routers with this many children each and nodes per leaf",
                Some("0"),
            ),
            (
                "fly",
                "instead of a file: a k-ary butterfly (BookSim2's fly) of levels=N stages",
                Some("0"),
            ),
            (
                "levels",
                "levels of routers of tree=K, stages of fly=K",
                Some("0"),
            ),
        ],
        about: "BookSim2 anynet network: terminals and channel latencies as its file gives them",
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

pub(super) fn family_names() -> String {
    FAMILIES
        .iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn find_family(name: &str) -> Result<&'static FamilyHelp> {
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
