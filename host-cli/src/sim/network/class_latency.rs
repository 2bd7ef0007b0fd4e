//! Channel latency per link class: a
//! Dragonfly's global cables, a random shortcut graph's shortcuts or a fat tree's uplinks
//! can be longer than the rest of the network's links. Each class of
//! [`jumpnet_core::topology::LinkClass`] other than terminal channels has a key
//! `<class>_latency`; a class without one takes `link_latency`.

use jumpnet_core::topology::LinkClass;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Channel latency of the network links of each class, cycles (`None` = `link_latency`), in
/// the order of [`ClassLatency::KEYS`]: intra-group links of Dragonfly / Galaxyfly / Slim Fly
/// and a random shortcut graph's ring, inter-group links, a random shortcut graph's
/// shortcuts, dimension links of tori, meshes, rings, circulants, hypercubes and HyperX
/// (every dimension), fat-tree links towards the roots and towards the leaves. Serialised
/// as one `<class>_latency` entry per class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassLatency([Option<u16>; 6]);

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

    /// Index into [`ClassLatency::KEYS`] of class `class` (`None` for terminal channels).
    fn index(class: LinkClass) -> Option<usize> {
        Some(match class {
            LinkClass::Terminal => return None,
            LinkClass::Local => 0,
            LinkClass::Global => 1,
            LinkClass::Shortcut => 2,
            LinkClass::Dim(_) => 3,
            LinkClass::Up => 4,
            LinkClass::Down => 5,
        })
    }

    /// The latency slot of key `key` (one of [`ClassLatency::KEYS`]).
    pub fn slot(&mut self, key: &str) -> Option<&mut Option<u16>> {
        let i = Self::KEYS.iter().position(|k| *k == key)?;
        self.0.get_mut(i)
    }

    /// The key and the configured latency of class `class` (`None` for terminal channels).
    pub fn of(&self, class: LinkClass) -> Option<(&'static str, Option<u16>)> {
        Self::index(class).map(|i| (Self::KEYS[i], self.0[i]))
    }

    /// The keys that are set, with their values.
    pub fn set_keys(&self) -> impl Iterator<Item = (&'static str, u16)> {
        Self::KEYS
            .into_iter()
            .zip(self.0)
            .filter_map(|(k, v)| v.map(|v| (k, v)))
    }
}

impl Serialize for ClassLatency {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(Self::KEYS.len()))?;
        for (k, v) in Self::KEYS.iter().zip(&self.0) {
            m.serialize_entry(k, v)?;
        }
        m.end()
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
