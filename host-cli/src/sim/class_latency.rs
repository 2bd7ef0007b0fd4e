//! Channel latency per link class (issue 9 "Model": link latency per link class): a
//! Dragonfly's global cables, a random shortcut graph's shortcuts or a fat tree's uplinks
//! can be longer than the rest of the network's links. Each class of
//! [`LinkClass`](jumpnet_core::topology::LinkClass) other than terminal channels has a key
//! `<class>_latency`; a class without one takes `link_latency`.

use jumpnet_core::topology::LinkClass;
use serde::Serialize;

/// Channel latency of the network links of each class, cycles (`None` = `link_latency`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ClassLatency {
    /// Dragonfly / Galaxyfly / Slim Fly intra-group links, a random shortcut graph's ring.
    #[serde(rename = "local_latency")]
    pub local: Option<u16>,
    /// Dragonfly / Galaxyfly / Slim Fly inter-group links.
    #[serde(rename = "global_latency")]
    pub global: Option<u16>,
    /// A random shortcut graph's shortcuts.
    #[serde(rename = "shortcut_latency")]
    pub shortcut: Option<u16>,
    /// Dimension links of tori, meshes, rings, circulants, hypercubes and HyperX (every
    /// dimension).
    #[serde(rename = "dim_latency")]
    pub dim: Option<u16>,
    /// Fat-tree links towards the roots.
    #[serde(rename = "up_latency")]
    pub up: Option<u16>,
    /// Fat-tree links towards the leaves.
    #[serde(rename = "down_latency")]
    pub down: Option<u16>,
}

impl ClassLatency {
    /// The configuration keys, one per class.
    pub const KEYS: [&'static str; 6] = [
        "local_latency",
        "global_latency",
        "shortcut_latency",
        "dim_latency",
        "up_latency",
        "down_latency",
    ];

    /// The latency slot of key `key` (one of [`ClassLatency::KEYS`]).
    pub fn slot(&mut self, key: &str) -> Option<&mut Option<u16>> {
        Some(match key {
            "local_latency" => &mut self.local,
            "global_latency" => &mut self.global,
            "shortcut_latency" => &mut self.shortcut,
            "dim_latency" => &mut self.dim,
            "up_latency" => &mut self.up,
            "down_latency" => &mut self.down,
            _ => return None,
        })
    }

    /// The key and the configured latency of class `class` (`None` for terminal channels).
    pub fn of(&self, class: LinkClass) -> Option<(&'static str, Option<u16>)> {
        Some(match class {
            LinkClass::Terminal => return None,
            LinkClass::Local => ("local_latency", self.local),
            LinkClass::Global => ("global_latency", self.global),
            LinkClass::Shortcut => ("shortcut_latency", self.shortcut),
            LinkClass::Dim(_) => ("dim_latency", self.dim),
            LinkClass::Up => ("up_latency", self.up),
            LinkClass::Down => ("down_latency", self.down),
        })
    }

    /// The keys that are set, with their values.
    pub fn set_keys(&self) -> impl Iterator<Item = (&'static str, u16)> {
        let values = [
            self.local,
            self.global,
            self.shortcut,
            self.dim,
            self.up,
            self.down,
        ];
        Self::KEYS
            .into_iter()
            .zip(values)
            .filter_map(|(k, v)| v.map(|v| (k, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_its_class_and_slot() {
        let mut c = ClassLatency::default();
        for (i, k) in ClassLatency::KEYS.iter().enumerate() {
            *c.slot(k).unwrap() = Some(i as u16 + 1);
        }
        assert!(c.slot("terminal_latency").is_none());
        let classes = [
            LinkClass::Local,
            LinkClass::Global,
            LinkClass::Shortcut,
            LinkClass::Dim(3),
            LinkClass::Up,
            LinkClass::Down,
        ];
        for (i, class) in classes.into_iter().enumerate() {
            assert_eq!(
                c.of(class),
                Some((ClassLatency::KEYS[i], Some(i as u16 + 1)))
            );
        }
        assert_eq!(c.of(LinkClass::Terminal), None);
        assert_eq!(c.set_keys().count(), 6);
        let json = serde_json::to_value(c).unwrap();
        for k in ClassLatency::KEYS {
            assert!(json.get(k).is_some(), "{k}");
        }
    }
}
