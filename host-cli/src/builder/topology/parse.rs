//! Parsing `<family> key=value ...` into a [`TopologySpec`].

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};

use jumpnet_core::topology::galaxy::RouterAssignment;
use jumpnet_core::topology::GlobalArrangement;

use super::families::{family_names, find_family, FamilyHelp};
use super::*;

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
        // Lists longer than core's fixed capacity fail here, as the family's constructor
        // would ("invalid <family>: capacity exceeded: ...").
        let invalid = || format!("invalid {}", help.name);
        let structured = TopologySpec::Structured;
        let spec = match help.name {
            "ring" => structured(NetworkSpec::Ring { n: kv.u32("n")? }),
            "circulant" => structured(
                NetworkSpec::circulant(kv.u32("n")?, &kv.u32_list("jumps")?)
                    .with_context(invalid)?,
            ),
            "gcirculant" => structured(NetworkSpec::CirculantG { n: kv.u32("n")? }),
            "random-shortcut" => TopologySpec::RandomShortcut {
                n: kv.u32("n")?,
                d: kv.u32("d")?,
                seed: kv.u64("seed")?,
            },
            "torus" => structured(
                NetworkSpec::torus(&kv.u32_list("k")?, kv.u16("t")?).with_context(invalid)?,
            ),
            "mesh" => structured(
                NetworkSpec::mesh(&kv.u32_list("k")?, kv.u16("t")?).with_context(invalid)?,
            ),
            "hypercube" => structured(NetworkSpec::Hypercube {
                dim: kv.u32("dim")?,
                terminals_per_switch: kv.u16("t")?,
            }),
            "fat-tree" => structured(NetworkSpec::FatTree {
                k: kv.u32("k")?,
                n: kv.u32("n")?,
            }),
            "dragonfly" => structured(NetworkSpec::Dragonfly {
                g: kv.u32("g")?,
                a: kv.u32("a")?,
                p: kv.u32("p")?,
                h: kv.u32("h")?,
                arrangement: match kv.str("arrangement")? {
                    "consecutive" | "absolute" => GlobalArrangement::Consecutive,
                    "palm-tree" | "palmtree" | "relative" => GlobalArrangement::PalmTree,
                    "relative-mirror" => GlobalArrangement::RelativeMirror,
                    other => bail!(
                        "arrangement = {other} is not known: use consecutive (= absolute), palm-tree (= relative) or relative-mirror"
                    ),
                },
            }),
            "hyperx" => structured(
                NetworkSpec::hyperx(&kv.u32_list("s")?, kv.u16("k")?, kv.u16("t")?)
                    .with_context(invalid)?,
            ),
            "slim-fly" => structured(NetworkSpec::SlimFly {
                q: kv.u32("q")?,
                p: kv.auto_u16("p")?,
            }),
            "galaxy" => structured(NetworkSpec::Galaxy {
                n: kv.u32("n")?,
                q: kv.u32("q")?,
            }),
            "galaxyfly" => structured(NetworkSpec::Galaxyfly {
                n: kv.u32("n")?,
                q: kv.u32("q")?,
                a: kv.u32("a")?,
                p: kv.u32("p")?,
                h: kv.auto_u32("h")?,
                assignment: match kv.str("assignment")? {
                    "round-robin" => RouterAssignment::RoundRobin,
                    "cluster-split" => RouterAssignment::ClusterSplit,
                    other => bail!(
                        "assignment = {other} is not known: use round-robin or cluster-split"
                    ),
                },
            }),
            "anynet" => TopologySpec::AnyNet(anynet(&kv)?),
            "arbitrary" => TopologySpec::Arbitrary {
                edges: PathBuf::from(kv.str("edges")?),
                t: kv.u16("t")?,
            },
            other => bail!("internal: family {other} has no parser"),
        };
        Ok(spec)
    }
}

/// The source of an `anynet` topology: a file, a crossbar, a tree or a butterfly.
fn anynet(kv: &KeyValues) -> Result<AnyNetSource> {
    let (file, crossbar) = (kv.str("file")?, kv.u32("crossbar")?);
    let (tree, levels) = (kv.u32("tree")?, kv.u32("levels")?);
    let fly = kv.u32("fly")?;
    Ok(match (file.is_empty(), crossbar, tree) {
        _ if fly != 0 => {
            if !file.is_empty() || crossbar != 0 || tree != 0 || levels < 2 {
                bail!(
                    "anynet fly={fly} takes levels=N (N >= 2 stages) and no file, crossbar or tree"
                );
            }
            crate::builder::fly::check(fly, levels)?;
            AnyNetSource::Fly { k: fly, n: levels }
        }
        (false, 0, 0) => AnyNetSource::File(PathBuf::from(file)),
        (true, n, 0) if n >= 1 => AnyNetSource::Crossbar(n),
        (true, 0, k) if k >= 1 => {
            if levels == 0 {
                bail!("anynet tree={k} needs levels=N (N >= 1)");
            }
            AnyNetSource::Tree { k, levels }
        }
        _ => bail!(
            "anynet takes one of file=NETWORK_FILE (BookSim2's format), crossbar=NODES, \
             tree=K levels=N or fly=K levels=N"
        ),
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
