//! What to simulate: a topology, a routing and a simulator configuration ([`Setup`]),
//! resolved from the words and options people write ([`SetupRequest`], the library side of
//! `jumpnet sim`, `jumpnet sweep` and `jumpnet hil`).
//!
//! The words are the topology family, then `key=value` words: a key of the family goes to
//! the topology, a [`SimConfig`] key (or `rate` for `injection_rate`) to the simulator;
//! `sim.KEY=VALUE` always means the simulator (for `seed`, which `random-shortcut` also
//! has). Order of application: preset ([`SetupRequest::preset`], else the TOML file's, else
//! `booksim`), then the TOML file's keys, then the `key=value` words. With a BookSim2 file
//! the topology, routing and parameters come from the file; words with BookSim2 keys are
//! applied after it (as BookSim2's command line does), the others are simulator words.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use crate::builder::routing::{RouteAlgo, RouteOptions};
use crate::builder::topology::{TopologySpec, FAMILIES};
use crate::io::read::Limit;
use crate::sim::config::booksim;
use crate::sim::config::toml_file::{ConfigFile, Preset};
use crate::sim::config::traffic_class::CLASS_KEYS;
use crate::sim::config::SimConfig;
use crate::sim::sweep::{canonical_key, Axis};

/// A simulation as people describe it: words, a routing and where the configuration comes
/// from (what `jumpnet sim` and `jumpnet sweep` take before their own options).
#[derive(Clone, Debug, PartialEq)]
pub struct SetupRequest {
    /// The topology family and `key=value` words (topology keys and simulator keys).
    pub words: Vec<String>,
    /// Edge-list file of the `arbitrary` family.
    pub edges: Option<PathBuf>,
    /// Routing algorithm; required unless `booksim` is given (there it replaces the file's).
    pub algo: Option<RouteAlgo>,
    /// Virtual-layer limit of DFSSSP and PARX.
    pub max_layers: u8,
    /// Seed of the Valiant intermediate-group hash (the traffic seed is the `seed` key).
    pub valiant_seed: u64,
    /// Base configuration (default: the TOML file's preset, else booksim).
    pub preset: Option<Preset>,
    /// TOML configuration file.
    pub config: Option<PathBuf>,
    /// BookSim2 configuration file: topology, routing and parameters come from it.
    pub booksim: Option<PathBuf>,
}

impl Default for SetupRequest {
    /// No words, no routing, eight virtual layers, Valiant seed 1, no files.
    fn default() -> Self {
        SetupRequest {
            words: Vec::new(),
            edges: None,
            algo: None,
            max_layers: 8,
            valiant_seed: 1,
            preset: None,
            config: None,
            booksim: None,
        }
    }
}

/// A resolved simulation setup.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Topology.
    pub topology: TopologySpec,
    /// Routing options.
    pub route: RouteOptions,
    /// Simulator configuration (overrides applied, sweep axes not).
    pub config: SimConfig,
    /// Swept keys (sweeps only).
    pub axes: Vec<Axis>,
    /// Notes for the user (BookSim2 keys ignored, …).
    pub notes: Vec<String>,
}

fn read(path: &Path, limit: Limit) -> Result<String> {
    crate::io::read::read_text(path, limit)
}

/// Keys of a topology family (with `edges` for `arbitrary`).
fn family_keys(family: &str) -> Option<Vec<&'static str>> {
    let lower = family.to_ascii_lowercase();
    FAMILIES
        .iter()
        .find(|f| f.name == lower || f.aliases.contains(&lower.as_str()))
        .map(|f| f.keys.iter().map(|k| k.0).collect())
}

/// The topology of `words` (`<family> key=value ...`), with the edge list of the
/// `arbitrary` family given as a file (the same as an `edges=FILE` word).
pub fn topology_spec(words: &[String], edges: Option<&Path>) -> Result<TopologySpec> {
    let mut words = words.to_vec();
    if let Some(e) = edges {
        if words.iter().any(|w| w.starts_with("edges=")) {
            bail!("give the edge list either as --edges FILE or as edges=FILE, not both");
        }
        words.push(format!("edges={}", e.display()));
    }
    TopologySpec::parse(&words)
}

/// Topology, routing, base configuration and the simulator words still to apply.
struct Base {
    topology: TopologySpec,
    algo: RouteAlgo,
    config: SimConfig,
    sim_words: Vec<String>,
    notes: Vec<String>,
}

impl SetupRequest {
    /// Resolves the request; `sweep` allows `key=a:b:step` / `key=v1,v2` axes.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet::builder::routing::RouteAlgo;
    /// use jumpnet::sim::setup::SetupRequest;
    ///
    /// let words = ["torus", "k=4,4", "rate=0.1", "num_vcs=2"].map(String::from).to_vec();
    /// let setup = SetupRequest { words, algo: Some(RouteAlgo::DorDateline), ..SetupRequest::default() }
    ///     .resolve(false)
    ///     .unwrap();
    /// assert_eq!(setup.topology.to_string(), "torus k=4,4 t=1");
    /// assert_eq!(setup.config.injection_rate, 0.1);
    /// assert_eq!(setup.config.num_vcs, 2);
    /// assert!(setup.axes.is_empty() && setup.notes.is_empty());
    /// ```
    pub fn resolve(&self, sweep: bool) -> Result<Setup> {
        let base = match &self.booksim {
            Some(path) => self.base_of_booksim(path, sweep)?,
            None => self.base_of_words()?,
        };
        let Base {
            topology,
            algo,
            mut config,
            sim_words,
            notes,
        } = base;
        let axes = self.apply_sim_words(&topology, &sim_words, &mut config, sweep)?;
        Ok(Setup {
            topology,
            route: RouteOptions {
                algo,
                max_layers: self.max_layers,
                seed: self.valiant_seed,
            },
            config,
            axes,
            notes,
        })
    }

    /// Topology, routing and configuration from a BookSim2 file. A word whose key is a
    /// BookSim2 key is applied after the file's statements, as BookSim2's command line does
    /// (`routing_function=`, `k=`, `sim_type=` …); `sim.KEY=VALUE`, sweep axes and
    /// jumpnet-only keys (`dim_latency=` …) are simulator words.
    fn base_of_booksim(&self, path: &Path, sweep: bool) -> Result<Base> {
        if let Some(w) = self.words.iter().find(|w| !w.contains('=')) {
            bail!(
                "with --booksim the topology comes from the file: drop '{w}' (only key=value words may follow)"
            );
        }
        let (overrides, sim_words): (Vec<String>, Vec<String>) =
            self.words.iter().cloned().partition(|w| {
                let key = w.split_once('=').map_or(w.as_str(), |(k, _)| k);
                let simulator_word = key.starts_with("sim.") || (sweep && Axis::is_axis(w));
                !simulator_word && booksim::keys::find(key).is_some()
            });
        let b = booksim::parse_with(&read(path, Limit::BOOKSIM)?, &overrides)
            .with_context(|| format!("in BookSim2 config {}", path.display()))?;
        let mut notes = Vec::new();
        if !b.ignored.is_empty() {
            notes.push(format!(
                "BookSim2 keys without effect here: {}",
                b.ignored.join(", ")
            ));
        }
        Ok(Base {
            topology: b.topology,
            algo: self.algo.unwrap_or(b.algo),
            config: b.config,
            sim_words,
            notes,
        })
    }

    /// Topology from the words (family keys), routing from `algo`, configuration from the
    /// preset and the TOML file; the other words are simulator words.
    fn base_of_words(&self) -> Result<Base> {
        let Some((family, rest)) = self.words.split_first() else {
            bail!("missing topology: give a family and its key=value parameters, e.g. `jumpnet sim torus k=8,8 --algo dor-dateline injection_rate=0.1`, or --booksim FILE");
        };
        if family.contains('=') {
            bail!("the first word must be a topology family (e.g. torus), not '{family}'");
        }
        let keys = family_keys(family).unwrap_or_default();
        let mut topology_words = vec![family.clone()];
        let mut sim_words = Vec::new();
        for w in rest {
            let Some((k, _)) = w.split_once('=') else {
                bail!("'{w}' is not key=value");
            };
            if k.starts_with("sim.") || !keys.contains(&k) {
                sim_words.push(w.clone());
            } else {
                topology_words.push(w.clone());
            }
        }
        let topology = topology_spec(&topology_words, self.edges.as_deref())?;
        let Some(algo) = self.algo else {
            bail!("--algo is required (as for `jumpnet route`), e.g. --algo dor-dateline; `jumpnet sim --help` lists them");
        };
        let config = match &self.config {
            Some(path) => ConfigFile::parse(&read(path, Limit::CONFIG)?)
                .and_then(|f| f.config(self.preset))
                .map_err(|e| anyhow!("in config file {}: {e}", path.display()))?,
            None => self.preset.unwrap_or_default().config(),
        };
        Ok(Base {
            topology,
            algo,
            config,
            sim_words,
            notes: Vec::new(),
        })
    }

    /// Applies the simulator words to `config`; returns the sweep axes among them.
    fn apply_sim_words(
        &self,
        topology: &TopologySpec,
        sim_words: &[String],
        config: &mut SimConfig,
        sweep: bool,
    ) -> Result<Vec<Axis>> {
        let topo_keys = match topology {
            TopologySpec::Arbitrary { .. } => family_keys("arbitrary"),
            t => family_keys(t.family_name()),
        }
        .unwrap_or_default();
        let mut axes = Vec::new();
        for w in sim_words {
            let (k, v) = w.split_once('=').unwrap_or((w, ""));
            let bare = k.strip_prefix("sim.").unwrap_or(k);
            let key = canonical_key(bare);
            if !SimConfig::KEYS.contains(&key) {
                let topo_part = if self.booksim.is_some() {
                    String::new()
                } else {
                    format!(
                        "topology keys of {}: {}; ",
                        topology.family_name(),
                        topo_keys.join(", ")
                    )
                };
                bail!(
                    "unknown key '{bare}'; {topo_part}simulator keys: rate, {}",
                    SimConfig::KEYS.join(", ")
                );
            }
            let classes = config.extras.classes.len();
            if classes > 0 && CLASS_KEYS.contains(&key) {
                // Each class has its own value (docs/booksim.md §3.5): the word would change
                // none of them.
                bail!(
                    "'{w}': with classes = {classes} every traffic class has its own {key}; give \
                     it as a BookSim2 key after the file (a {{…}} list for one value per class, \
                     e.g. injection_rate={{0.1,0.05}}), not as a simulator word or sweep axis"
                );
            }
            if config.extras.read_write.is_some() && ["packet_size", "packet_sizes"].contains(&key)
            {
                // Read/write traffic sizes its packets by kind (docs/booksim.md §3.6).
                bail!(
                    "'{w}': with use_read_write = 1 every packet has its kind's size; give \
                     read_request_size, write_request_size, read_reply_size or \
                     write_reply_size after the file instead"
                );
            }
            if sweep && Axis::is_axis(w) {
                axes.push(Axis::parse(&format!("{key}={v}"))?);
            } else {
                config.set(key, v)?;
            }
        }
        Ok(axes)
    }
}
