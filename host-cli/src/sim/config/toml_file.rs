//! TOML simulator configuration files (`jumpnet sim --config FILE`): a preset as the base,
//! then any [`SimConfig`] key.
//!
//! ```toml
//! # every key of SimConfig::KEYS may appear; `preset` picks the base (default booksim)
//! preset = "booksim"
//! num_vcs = 2
//! packet_size = 4
//! injection_rate = 0.05
//! rate_in_flits = true
//! traffic = "tornado"
//! ```
//!
//! Values may be TOML integers, floats, booleans or strings; each is handed to
//! [`SimConfig::set`] as text, so the same values as on the command line are accepted.
//! Unknown keys, tables and arrays are errors that name the key and list the allowed keys.

use std::fmt;

use serde::Serialize;

use crate::sim::config::SimConfig;

/// A named base configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// BookSim2's input-queued router with its default delays (`SimConfig::booksim`).
    #[default]
    Booksim,
    /// The idealised router of docs/mapping.md §5 (`SimConfig::ga`), with jumpnet's
    /// `allocator = separable_vc` (input arbiters choose among VCs; BookSim2's
    /// `separable_input_first` chooses among outputs, docs/booksim.md §4).
    Ga,
}

impl Preset {
    /// The preset's configuration.
    pub fn config(self) -> SimConfig {
        match self {
            Preset::Booksim => SimConfig::booksim(),
            Preset::Ga => SimConfig::ga(),
        }
    }

    /// Name as written in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Booksim => "booksim",
            Preset::Ga => "ga",
        }
    }

    /// Parses `booksim` or `ga`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "booksim" => Some(Preset::Booksim),
            "ga" => Some(Preset::Ga),
            _ => None,
        }
    }
}

/// A parsed TOML configuration file.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigFile {
    /// The preset named in the file (`None`: not given).
    pub preset: Option<Preset>,
    /// `(key, value)` settings in file order, values as text for [`SimConfig::set`].
    pub settings: Vec<(String, String)>,
}

/// Error of [`ConfigFile::parse`] and [`ConfigFile::apply`].
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigFileError {
    /// Not valid TOML.
    Syntax(String),
    /// A key that is neither `preset` nor a [`SimConfig`] key.
    UnknownKey(String),
    /// A value of a type that cannot be a setting (table, array, date).
    BadType {
        /// The key.
        key: String,
        /// TOML type found.
        found: &'static str,
    },
    /// `preset` is not `booksim` or `ga`.
    BadPreset(String),
    /// [`SimConfig::set`] refused the value.
    Value(String),
}

impl fmt::Display for ConfigFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigFileError::Syntax(e) => write!(f, "not valid TOML: {}", e.trim_end()),
            ConfigFileError::UnknownKey(k) => write!(
                f,
                "unknown key '{k}'; allowed keys: preset, {}",
                SimConfig::KEYS.join(", ")
            ),
            ConfigFileError::BadType { key, found } => write!(
                f,
                "key '{key}' has a {found} value; use a number, boolean or string"
            ),
            ConfigFileError::BadPreset(p) => {
                write!(f, "unknown preset '{p}'; allowed presets: booksim, ga")
            }
            ConfigFileError::Value(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ConfigFileError {}

impl ConfigFile {
    /// Parses the text of a TOML configuration file.
    pub fn parse(text: &str) -> Result<Self, ConfigFileError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ConfigFileError::Syntax(e.to_string()))?;
        let mut preset = None;
        let mut settings = Vec::new();
        for (key, value) in &table {
            let text = match value {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(x) => x.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    if key != "preset" && !SimConfig::KEYS.contains(&key.as_str()) {
                        return Err(ConfigFileError::UnknownKey(key.clone()));
                    }
                    return Err(ConfigFileError::BadType {
                        key: key.clone(),
                        found: other.type_str(),
                    });
                }
            };
            if key == "preset" {
                preset = Some(Preset::parse(&text).ok_or(ConfigFileError::BadPreset(text))?);
            } else if SimConfig::KEYS.contains(&key.as_str()) {
                settings.push((key.clone(), text));
            } else {
                return Err(ConfigFileError::UnknownKey(key.clone()));
            }
        }
        Ok(ConfigFile { preset, settings })
    }

    /// Applies the file's settings to `cfg` in order.
    pub fn apply(&self, cfg: &mut SimConfig) -> Result<(), ConfigFileError> {
        for (k, v) in &self.settings {
            cfg.set(k, v)
                .map_err(|e| ConfigFileError::Value(e.to_string()))?;
        }
        Ok(())
    }

    /// The configuration this file describes: `preset` (or the file's preset, or
    /// `booksim`) with the file's settings applied. A `preset` argument replaces the file's.
    pub fn config(&self, preset: Option<Preset>) -> Result<SimConfig, ConfigFileError> {
        let mut cfg = preset.or(self.preset).unwrap_or_default().config();
        self.apply(&mut cfg)?;
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::config::Pattern;
    use jumpnet_core::topology::LinkClass;

    #[test]
    fn preset_then_keys() {
        let f = ConfigFile::parse(
            "preset = \"ga\"\nnum_vcs = 2\ninjection_rate = 0.25\ndrain = false\ntraffic = \"tornado\"\n",
        )
        .unwrap();
        assert_eq!(f.preset, Some(Preset::Ga));
        let c = f.config(None).unwrap();
        let mut want = SimConfig::ga();
        want.num_vcs = 2;
        want.injection_rate = 0.25;
        want.drain = false;
        want.traffic = Pattern::Tornado;
        assert_eq!(c, want);
        // A preset given by the caller replaces the file's base, keys still apply.
        let c = f.config(Some(Preset::Booksim)).unwrap();
        assert_eq!((c.num_vcs, c.routing_delay), (2, 1));
        // No preset: booksim.
        let c = ConfigFile::parse("seed = 7").unwrap().config(None).unwrap();
        assert_eq!((c.seed, c.num_vcs), (7, 16));
    }

    #[test]
    fn every_key_is_accepted() {
        let text: String = SimConfig::KEYS
            .iter()
            .map(|k| {
                let v = match *k {
                    "allocator" | "vc_allocator" => "\"islip\"",
                    "router" => "\"input_queued\"",
                    "injection" => "\"bernoulli\"",
                    "traffic" => "\"uniform\"",
                    "stop_rule" | "draws" => "\"booksim\"",
                    "hotspots" => "\"0:2,3\"",
                    "rate_in_flits" | "drain" | "self_packets" | "inject_any_vc" => "true",
                    "wait_for_tail_credit"
                    | "hold_switch_for_packet"
                    | "vc_alloc_stage"
                    | "speculative"
                    | "booksim_credits"
                    | "exact_vcs" => "true",
                    "injection_rate" | "hotspot_fraction" => "0.5",
                    _ => "3",
                };
                format!("{k} = {v}\n")
            })
            .collect();
        let c = ConfigFile::parse(&text).unwrap().config(None).unwrap();
        assert_eq!(
            (c.num_vcs, c.class_latency.of(LinkClass::Global)),
            (3, Some(("global_latency", Some(3))))
        );
    }

    #[test]
    fn errors_name_the_problem() {
        let e = ConfigFile::parse("num_vc = 2").unwrap_err().to_string();
        assert!(e.contains("'num_vc'") && e.contains("num_vcs") && e.contains("preset"));
        let e = ConfigFile::parse("[router]\nnum_vcs = 2")
            .unwrap_err()
            .to_string();
        assert!(e.contains("'router'"), "{e}");
        let e = ConfigFile::parse("num_vcs = [1, 2]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("num_vcs") && e.contains("array"), "{e}");
        let e = ConfigFile::parse("preset = \"fast\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("fast") && e.contains("booksim, ga"));
        let e = ConfigFile::parse("num_vcs = ").unwrap_err().to_string();
        assert!(e.contains("TOML"));
        let e = ConfigFile::parse("num_vcs = 0")
            .unwrap()
            .config(None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("num_vcs") && e.contains("1..=255"), "{e}");
    }
}
