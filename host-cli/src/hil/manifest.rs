//! HIL suite manifests and trace discovery (docs/toolchain.md, "HIL regression suites"): a
//! manifest ([`Manifest`], TOML) lists the cases of a suite, one `[[case]]` per trace kept
//! next to it as `NAME.jsonl`; a directory's suite is every `*.jsonl` trace under it.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;

use super::run_key::Timing;

use crate::builder::routing::RouteAlgo;
use crate::builder::schedule::Algorithm;
use crate::runs::collective::{CollectiveOptions, CollectiveRun, Mapping};
use crate::sim::setup::{Setup, SetupRequest};

/// The file name of a suite's manifest when a directory is given.
pub const MANIFEST_NAME: &str = "suite.toml";

/// A suite manifest (TOML): the cases, one `[[case]]` table each.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The cases.
    #[serde(rename = "case")]
    pub cases: Vec<ManifestCase>,
}

/// One case of a manifest: a `jumpnet hil` run as its flags name it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestCase {
    /// Case name: letters, digits, `-`, `_`, `.`; its trace is `NAME.jsonl`.
    pub name: String,
    /// Topology family and `key=value` words (topology and simulator keys), as `jumpnet hil`.
    pub words: Vec<String>,
    /// Routing (`--algo`).
    pub algo: String,
    /// Collective (`--collective`).
    pub collective: String,
    /// Traced nodes (`--nodes`).
    pub nodes: Vec<u32>,
    /// Timing contract (default untimed).
    #[serde(default)]
    pub timing: Option<Timing>,
    /// Message size (`--msg`, e.g. `64` or `1KiB`; default 1 KiB).
    #[serde(default)]
    pub msg: Option<String>,
    /// Placement (`--mapping`, default consecutive).
    #[serde(default)]
    pub mapping: Option<String>,
    /// `--ranks`.
    #[serde(default)]
    pub ranks: Option<u32>,
    /// `--root`.
    #[serde(default)]
    pub root: Option<u32>,
    /// `--map-seed`.
    #[serde(default)]
    pub map_seed: Option<u64>,
}

impl ManifestCase {
    /// The case's setup, collective and timing.
    pub(crate) fn run(&self) -> Result<(Setup, CollectiveRun, Timing)> {
        let algo: RouteAlgo = self.algo.parse().map_err(|_| {
            anyhow!(
                "algo `{}` is not a routing; allowed: {}",
                self.algo,
                RouteAlgo::ALL.map(|a| a.name()).join(", ")
            )
        })?;
        let setup = SetupRequest {
            words: self.words.clone(),
            algo: Some(algo),
            ..SetupRequest::default()
        }
        .resolve(false)?;
        let algorithm =
            <Algorithm as clap::ValueEnum>::from_str(&self.collective, false).map_err(|_| {
                anyhow!(
                    "collective `{}` is not a collective (as `jumpnet hil --collective`)",
                    self.collective
                )
            })?;
        let mut options = CollectiveOptions::default();
        if let Some(m) = &self.mapping {
            options.mapping = <Mapping as clap::ValueEnum>::from_str(m, false)
                .map_err(|_| anyhow!("mapping `{m}` is not a mapping (as `--mapping`)"))?;
        }
        if let Some(msg) = &self.msg {
            options.msg_bytes =
                crate::io::bytes::parse_size(msg).map_err(|e| anyhow!("msg: {e}"))?;
        }
        options.ranks = self.ranks;
        options.root = self.root.unwrap_or(options.root);
        options.map_seed = self.map_seed.unwrap_or(options.map_seed);
        Ok((
            setup,
            CollectiveRun { algorithm, options },
            self.timing.unwrap_or(Timing::Untimed),
        ))
    }
}

/// Reads a manifest; errors name the file and the field.
pub fn read_manifest(path: &Path) -> Result<Manifest> {
    let text = crate::io::read::read_text(path, crate::io::read::Limit::MANIFEST)?;
    let m: Manifest =
        toml::from_str(&text).map_err(|e| anyhow!("suite manifest {}: {e}", path.display()))?;
    let mut seen = std::collections::BTreeSet::new();
    for c in &m.cases {
        if c.name.is_empty()
            || !c
                .name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch))
        {
            bail!(
                "suite manifest {}: case name `{}` must be letters, digits, `-`, `_`, `.`",
                path.display(),
                c.name
            );
        }
        if !seen.insert(c.name.clone()) {
            bail!(
                "suite manifest {}: case name `{}` appears twice",
                path.display(),
                c.name
            );
        }
    }
    if m.cases.is_empty() {
        bail!("suite manifest {} has no [[case]]", path.display());
    }
    Ok(m)
}

/// Where a case's trace lives: `NAME.jsonl` next to the manifest.
pub fn case_trace_path(manifest: &Path, name: &str) -> PathBuf {
    manifest
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("{name}.jsonl"))
}

/// The traces of a suite: every `*.jsonl` under a directory (recursively, sorted), or the
/// cases of a manifest file. Returns (case name, trace path) pairs.
pub fn suite_traces(path: &Path) -> Result<Vec<(String, PathBuf)>> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read suite {}", path.display()))?;
    if meta.is_file() {
        let m = read_manifest(path)?;
        return Ok(m
            .cases
            .iter()
            .map(|c| (c.name.clone(), case_trace_path(path, &c.name)))
            .collect());
    }
    let mut found = Vec::new();
    collect_traces(path, &mut found)?;
    found.sort();
    if found.is_empty() {
        bail!(
            "suite directory {} holds no trace (*.jsonl); record one with `jumpnet hil suite \
             MANIFEST --record`",
            path.display()
        );
    }
    Ok(found
        .into_iter()
        .map(|p| {
            let name = p
                .strip_prefix(path)
                .unwrap_or(&p)
                .with_extension("")
                .display()
                .to_string();
            (name, p)
        })
        .collect())
}

fn collect_traces(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let p = entry
            .with_context(|| format!("cannot list {}", dir.display()))?
            .path();
        if p.is_dir() {
            collect_traces(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "jsonl") {
            out.push(p);
        }
    }
    Ok(())
}
