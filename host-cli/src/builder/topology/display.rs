//! Printing a [`TopologySpec`] back in the form it parses from, and as JSON
//! (`{"family": ..., key: value, ...}`): both from one list of its parameters.

use std::fmt;
use std::path::Path;

use jumpnet_core::topology::galaxy::RouterAssignment;
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::*;

/// One parameter value of a spec.
enum Param<'a> {
    /// A number.
    Num(u64),
    /// A comma-separated list.
    List(&'a [u32]),
    /// A number or `auto` (`None`: left out of the canonical form, `null` in JSON).
    Auto(Option<u64>),
    /// A word; `omitted` leaves it out of the canonical form (a default not written).
    Word { word: &'static str, omitted: bool },
    /// A file.
    Path(&'a Path),
}

impl TopologySpec {
    /// The parameters in command-line order, with their key names.
    fn params(&self) -> Vec<(&'static str, Param<'_>)> {
        use Param::*;
        let num = |v: u32| Num(v.into());
        let word = |word| Word {
            word,
            omitted: false,
        };
        match self {
            TopologySpec::Structured(spec) => match spec {
                NetworkSpec::Ring { n } | NetworkSpec::CirculantG { n } => vec![("n", num(*n))],
                NetworkSpec::Circulant { n, jumps } => vec![("n", num(*n)), ("jumps", List(jumps))],
                NetworkSpec::Torus {
                    radices,
                    terminals_per_switch: t,
                }
                | NetworkSpec::Mesh {
                    radices,
                    terminals_per_switch: t,
                } => vec![("k", List(radices)), ("t", Num((*t).into()))],
                NetworkSpec::Hypercube {
                    dim,
                    terminals_per_switch: t,
                } => vec![("dim", num(*dim)), ("t", Num((*t).into()))],
                NetworkSpec::FatTree { k, n } => vec![("k", num(*k)), ("n", num(*n))],
                NetworkSpec::Dragonfly {
                    g,
                    a,
                    p,
                    h,
                    arrangement,
                } => vec![
                    ("g", num(*g)),
                    ("a", num(*a)),
                    ("p", num(*p)),
                    ("h", num(*h)),
                    ("arrangement", word(arrangement.name())),
                ],
                NetworkSpec::HyperX {
                    sizes,
                    trunk,
                    terminals_per_switch: t,
                } => vec![
                    ("s", List(sizes)),
                    ("k", Num((*trunk).into())),
                    ("t", Num((*t).into())),
                ],
                NetworkSpec::SlimFly { q, p } => {
                    vec![("q", num(*q)), ("p", Auto(p.map(u64::from)))]
                }
                NetworkSpec::Galaxy { n, q } => vec![("n", num(*n)), ("q", num(*q))],
                NetworkSpec::Galaxyfly {
                    n,
                    q,
                    a,
                    p,
                    h,
                    assignment,
                } => vec![
                    ("n", num(*n)),
                    ("q", num(*q)),
                    ("a", num(*a)),
                    ("p", num(*p)),
                    ("h", Auto(h.map(u64::from))),
                    (
                        "assignment",
                        Word {
                            word: assignment.name(),
                            omitted: *assignment == RouterAssignment::RoundRobin,
                        },
                    ),
                ],
            },
            TopologySpec::RandomShortcut { n, d, seed } => {
                vec![("n", num(*n)), ("d", num(*d)), ("seed", Num(*seed))]
            }
            TopologySpec::AnyNet(AnyNetSource::File(file)) => vec![("file", Path(file))],
            TopologySpec::AnyNet(AnyNetSource::Crossbar(n)) => vec![("crossbar", num(*n))],
            TopologySpec::AnyNet(AnyNetSource::Tree { k, levels }) => {
                vec![("tree", num(*k)), ("levels", num(*levels))]
            }
            TopologySpec::AnyNet(AnyNetSource::Fly { k, n }) => {
                vec![("fly", num(*k)), ("levels", num(*n))]
            }
            TopologySpec::Arbitrary { edges, t } => {
                vec![("edges", Path(edges)), ("t", Num((*t).into()))]
            }
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
        f.write_str(self.family_name())?;
        for (key, value) in self.params() {
            match value {
                Param::Num(v) | Param::Auto(Some(v)) => write!(f, " {key}={v}")?,
                Param::List(v) => write!(f, " {key}={}", list(v))?,
                Param::Auto(None) | Param::Word { omitted: true, .. } => {}
                Param::Word { word, .. } => write!(f, " {key}={word}")?,
                Param::Path(p) => write!(f, " {key}={}", p.display())?,
            }
        }
        Ok(())
    }
}

impl Serialize for TopologySpec {
    /// `{"family": <family name>, <key>: <value>, ...}` with the command-line keys in their
    /// order; `auto` values are `null`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let params = self.params();
        let mut map = serializer.serialize_map(Some(1 + params.len()))?;
        map.serialize_entry("family", self.family_name())?;
        for (key, value) in &params {
            match value {
                Param::Num(v) => map.serialize_entry(key, v)?,
                Param::List(v) => map.serialize_entry(key, v)?,
                Param::Auto(v) => map.serialize_entry(key, v)?,
                Param::Word { word, .. } => map.serialize_entry(key, word)?,
                Param::Path(p) => map.serialize_entry(key, p)?,
            }
        }
        map.end()
    }
}
