//! BookSim2's traffic classes in a configuration file (`classes = N`, docs/booksim.md §3.5):
//! the keys `trafficmanager.cpp` reads per class, given as one value for every class or as
//! a `{a,b,…}` list with one item per class.
//!
//! BookSim2's reading, which this follows:
//!
//! * a list shorter than `classes` is padded with its last item, a longer one cut;
//! * `traffic` and `injection_process` are text keys: the last statement wins, list or not;
//! * the numeric keys (`injection_rate`, `packet_size`, `class_priority`, the thresholds)
//!   keep a list apart from a plain number (BookSim2 stores `{…}` as text beside the
//!   number), and a list wins over any number, whichever came last — so
//!   `injection_rate=0.2` on the command line does not replace a file's
//!   `injection_rate = {0.1,0.05}`;
//! * with `classes = 1` a list's first item is the value.

use anyhow::{anyhow, bail, Result};

use super::traffic::items;

/// The numeric keys BookSim2 reads per class (with a list form): `(BookSim2 key, jumpnet
/// simulator key)`; `class_priority` and `measure_stats` have no simulator key.
pub const LIST_KEYS: [(&str, &str); 8] = [
    ("injection_rate", "injection_rate"),
    ("packet_size", "packet_size"),
    ("latency_thres", "latency_thres"),
    ("warmup_thres", "warmup_thres"),
    ("acc_warmup_thres", "acc_warmup_thres"),
    ("stopping_thres", "stopping_thres"),
    ("acc_stopping_thres", "acc_stopping_thres"),
    ("class_priority", ""),
];

/// The list values given so far: `(key, items, line)`, a later list of a key replacing an
/// earlier one.
#[derive(Clone, Debug, Default)]
pub struct ClassLists {
    lists: Vec<(String, Vec<String>, usize)>,
}

impl ClassLists {
    /// Notes `key = value` if `value` is a `{…}` list of one of [`LIST_KEYS`] (`true`:
    /// the statement is taken; `false`: it is an ordinary statement).
    pub fn note(&mut self, key: &str, value: &str, line: usize) -> Result<bool> {
        if !value.trim_start().starts_with('{') || !LIST_KEYS.iter().any(|(k, _)| *k == key) {
            return Ok(false);
        }
        let list = items(value);
        if list.is_empty() {
            bail!("line {line}: {key} = {value}: an empty list gives no class a value");
        }
        if key == "packet_size" {
            // An item is a size or a distribution's sizes (`super::packet_sizes`).
            for (c, i) in list.iter().enumerate() {
                super::packet_sizes::sizes(i)
                    .map_err(|e| anyhow!("line {line}: packet_size item {i} (class {c}): {e}"))?;
            }
        }
        self.lists.retain(|(k, _, _)| k != key);
        self.lists.push((key.to_string(), list, line));
        Ok(true)
    }

    /// The list of `key`, if one was given.
    pub fn get(&self, key: &str) -> Option<&[String]> {
        self.lists
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, l, _)| l.as_slice())
    }

    /// Every list given: `(key, items, line)`.
    pub fn all(&self) -> impl Iterator<Item = &(String, Vec<String>, usize)> {
        self.lists.iter()
    }
}

/// Item `class` of a per-class list, padded as BookSim2 pads it (the last item repeats).
pub fn item(list: &[String], class: usize) -> &str {
    list.get(class).or(list.last()).map_or("", String::as_str)
}

/// The per-class values of a text key (`traffic`, `injection_process`): its list's items,
/// or the value itself for every class.
pub fn text_items(value: &str) -> Vec<String> {
    if value.trim_start().starts_with('{') {
        items(value)
    } else {
        vec![value.to_string()]
    }
}

/// The `class_priority` of each of `n` classes: the list's items (padded), else the plain
/// value `scalar` for all.
pub fn priorities(lists: &ClassLists, scalar: u32, n: usize) -> Result<Vec<u32>> {
    (0..n)
        .map(|c| match lists.get("class_priority") {
            Some(l) => item(l, c).parse().map_err(|_| {
                anyhow!(
                    "class_priority: '{}' is not a non-negative integer",
                    item(l, c)
                )
            }),
            None => Ok(scalar),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_padded_with_their_last_item() {
        let l: Vec<String> = ["0.1", "0.05"].map(String::from).to_vec();
        assert_eq!(
            [item(&l, 0), item(&l, 1), item(&l, 2), item(&l, 5)],
            ["0.1", "0.05", "0.05", "0.05"]
        );
        assert_eq!(text_items("{uniform, transpose}"), ["uniform", "transpose"]);
        assert_eq!(
            text_items("hotspot({{0,9},{2,1}})"),
            ["hotspot({{0,9},{2,1}})"]
        );
        assert_eq!(
            text_items("{hotspot({{0,9},{2,1}}),uniform}"),
            ["hotspot({{0,9},{2,1}})", "uniform"]
        );
    }

    #[test]
    fn a_later_list_replaces_an_earlier_and_plain_values_are_not_lists() {
        let mut c = ClassLists::default();
        assert!(!c.note("injection_rate", "0.2", 1).unwrap());
        assert!(c.note("injection_rate", "{0.1,0.2}", 2).unwrap());
        assert!(c.note("injection_rate", "{0.3}", 3).unwrap());
        assert_eq!(c.get("injection_rate").unwrap(), ["0.3"]);
        assert!(!c.note("traffic", "{uniform}", 4).unwrap(), "a text key");
        assert!(
            c.note("packet_size", "{{1,2},4}", 5).unwrap(),
            "a size distribution for class 0, 4 flits for class 1"
        );
        assert_eq!(c.get("packet_size").unwrap(), ["{1,2}", "4"]);
        let e = c
            .note("packet_size", "{{1,0},4}", 5)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 5: packet_size item {1,0} (class 0)"),
            "{e}"
        );
        assert!(c.note("latency_thres", "{}", 6).is_err());
        assert!(c.note("class_priority", "{1,0}", 7).unwrap());
        assert_eq!(priorities(&c, 0, 3).unwrap(), [1, 0, 0]);
        assert_eq!(priorities(&ClassLists::default(), 2, 2).unwrap(), [2, 2]);
    }
}
