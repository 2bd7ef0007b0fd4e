//! BookSim2's packet size distributions in a configuration file (`packet_size = {{1,4,8}}`
//! with `packet_size_rate = {{3,1,1}}`, docs/booksim.md §3.5), read as BookSim2's
//! `TrafficManager` constructor reads them (`trafficmanager.cpp`, `_packet_size`,
//! `_packet_size_rate`):
//!
//! * `packet_size` as a `{…}` list has one item per class (padded with its last item,
//!   [`super::classes`]); an item is one size or a `{a,b,…}` list of sizes — so
//!   `packet_size = {1,4}` gives class 0 packets of 1 flit and class 1 of 4, while
//!   `packet_size = {{1,4}}` gives class 0 (and every other class) a distribution of 1 and
//!   4 flits;
//! * `packet_size_rate` is one integer for every size of every class (BookSim2's default 1:
//!   the sizes are equally likely), or a `{…}` list with one item per class (padded with
//!   its last item), each item one rate or a `{a,b,…}` list; a class's rates are padded
//!   with their last to the class's number of sizes, or cut. So `packet_size_rate = {3,1}`
//!   gives class 0 the rate 3 for each of its sizes and class 1 the rate 1 — the rates of
//!   one class's sizes need the inner braces: `packet_size_rate = {{3,1}}`;
//! * a list wins over a plain integer, whichever came last (as for the numeric keys of
//!   §3.5);
//! * a class with one size draws nothing; with several, a size of rate `r` is drawn with
//!   probability `r / Σ rates` ([`PacketSizes`]), and `injection_rate_uses_flits` divides
//!   the class's rate by the mean `Σ size · rate / Σ rates`.
//!
//! Sizes must be 1 to 65535 flits and rates non-negative (BookSim2 asserts it), not all 0
//! where a class has several sizes; a class with read/write traffic ignores its sizes
//! (docs/booksim.md §3.6).

use anyhow::{anyhow, bail, Result};

use super::classes::item;
use super::traffic::items;
use crate::sim::config::{PacketSizes, SimConfig};

/// `packet_size_rate` as given: the plain integer and its line, and the `{…}` list (items
/// per class) and its line, which wins when given.
#[derive(Clone, Debug)]
pub struct SizeRates {
    plain: (i64, usize),
    list: Option<(Vec<String>, usize)>,
    given: bool,
}

impl Default for SizeRates {
    /// BookSim2's default: rate 1 for every size.
    fn default() -> Self {
        SizeRates {
            plain: (1, 0),
            list: None,
            given: false,
        }
    }
}

fn at(line: usize) -> String {
    match line {
        0 => "command line".to_string(),
        n => format!("line {n}"),
    }
}

impl SizeRates {
    /// Notes the statement `packet_size_rate = value` on `line`.
    pub fn note(&mut self, value: &str, line: usize) -> Result<()> {
        self.given = true;
        if value.trim_start().starts_with('{') {
            let list = items(value);
            if list.is_empty() {
                bail!(
                    "{}: packet_size_rate = {value}: an empty list gives no class a rate",
                    at(line)
                );
            }
            self.list = Some((list, line));
            return Ok(());
        }
        let rate = value.trim().parse::<i64>().ok().filter(|r| *r >= 0);
        let Some(rate) = rate else {
            bail!(
                "{}: packet_size_rate = {value}: a non-negative integer (the rate of every \
                 size) or a {{…}} list of rates per class is needed",
                at(line)
            );
        };
        self.plain = (rate, line);
        Ok(())
    }

    /// Whether a statement gave `packet_size_rate`.
    pub fn given(&self) -> bool {
        self.given
    }

    /// The rates of class `class`'s `n` sizes, and the line they came from.
    fn rates(&self, class: usize, n: usize) -> Result<(Vec<u32>, usize)> {
        let Some((list, line)) = &self.list else {
            let (rate, line) = self.plain;
            let rate = u32::try_from(rate).map_err(|_| {
                anyhow!(
                    "{}: packet_size_rate = {rate}: at most 4294967295",
                    at(line)
                )
            })?;
            return Ok((vec![rate; n], line));
        };
        let text = item(list, class);
        let mut rates = items(text)
            .iter()
            .map(|r| r.parse::<u32>())
            .collect::<Result<Vec<u32>, _>>()
            .ok()
            .filter(|r| !r.is_empty())
            .ok_or_else(|| {
                anyhow!(
                    "{}: packet_size_rate item {text} (class {class}): a non-negative integer \
                     or a {{…}} list of them is needed",
                    at(*line)
                )
            })?;
        let last = rates[rates.len() - 1];
        rates.resize(n, last);
        Ok((rates, *line))
    }
}

/// The sizes of one class's `packet_size` item: a size or a `{a,b,…}` list of sizes.
pub fn sizes(text: &str) -> Result<Vec<u16>, String> {
    let bad = || {
        "a packet size of 1 to 65535 flits or a {a,b,…} list of them (a size distribution, \
         with packet_size_rate) is needed"
            .to_string()
    };
    let list = items(text);
    if list.is_empty() {
        return Err(bad());
    }
    list.iter()
        .map(|s| s.parse::<u16>().ok().filter(|&s| s > 0).ok_or_else(bad))
        .collect()
}

/// The distribution of class `class` whose `packet_size` item is `text` (given on `line`),
/// with the rates of `rates`: `None` for a single size (BookSim2 draws nothing then).
pub fn distribution(
    text: &str,
    line: usize,
    rates: &SizeRates,
    class: usize,
) -> Result<Option<PacketSizes>> {
    let sizes = sizes(text)
        .map_err(|e| anyhow!("{}: packet_size item {text} (class {class}): {e}", at(line)))?;
    if sizes.len() == 1 {
        return Ok(None);
    }
    let (rates, rate_line) = rates.rates(class, sizes.len())?;
    let d = PacketSizes { sizes, rates };
    if d.total() == 0 {
        bail!(
            "{}: packet_size_rate gives every size of class {class}'s packet_size = {text} the \
             rate 0: at least one rate must be positive",
            at(rate_line)
        );
    }
    Ok(Some(d))
}

/// Sets class `class`'s packet size in `cfg` from its `packet_size` item `text` (given on
/// `line`): a single size is `packet_size`; several are the distribution
/// `extras.packet_sizes`, with `packet_size` its longest size.
pub fn set_class(
    cfg: &mut SimConfig,
    text: &str,
    line: usize,
    rates: &SizeRates,
    class: usize,
) -> Result<()> {
    match distribution(text, line, rates, class)? {
        Some(d) => {
            cfg.packet_size = d.longest();
            cfg.extras.packet_sizes = Some(d);
        }
        None => {
            // One size (`distribution` read it).
            cfg.packet_size = sizes(text)
                .ok()
                .and_then(|s| s.first().copied())
                .unwrap_or(1);
            cfg.extras.packet_sizes = None;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(statements: &[&str]) -> SizeRates {
        let mut r = SizeRates::default();
        for (i, s) in statements.iter().enumerate() {
            r.note(s, i + 1).unwrap();
        }
        r
    }

    #[test]
    fn sizes_of_an_item() {
        assert_eq!(sizes("4").unwrap(), [4]);
        assert_eq!(sizes("{1, 4,8}").unwrap(), [1, 4, 8]);
        for bad in ["0", "{1,0}", "{}", "{{1,2},3}", "x", "{1,70000}"] {
            let e = sizes(bad).unwrap_err();
            assert!(e.contains("1 to 65535"), "{bad}: {e}");
        }
    }

    #[test]
    fn rates_are_padded_and_cut_as_booksim_does() {
        let d = |text: &str, r: &SizeRates, c| distribution(text, 1, r, c).unwrap().unwrap();
        // Default: rate 1 for every size.
        let one = d("{1,4,8}", &SizeRates::default(), 0);
        assert_eq!(
            (one.rates.as_slice(), one.mean()),
            (&[1, 1, 1][..], 13.0 / 3.0)
        );
        assert_eq!(d("{1,4,8}", &rates(&["2"]), 3).rates, [2, 2, 2]);
        // One list per class: class 0's rates padded with their last, class 1's cut, class
        // 2 past the list's end takes its last item.
        let r = rates(&["{{3,1},{1,2,5,7},2}"]);
        assert_eq!(d("{1,4,8}", &r, 0).rates, [3, 1, 1]);
        assert_eq!(d("{1,4,8}", &r, 1).rates, [1, 2, 5]);
        assert_eq!(d("{1,4}", &r, 2).rates, [2, 2]);
        assert_eq!(d("{1,4}", &r, 5).rates, [2, 2]);
        // `{3,1}` is class 0's rate 3 and class 1's rate 1, not the rates of two sizes.
        assert_eq!(d("{2,6}", &rates(&["{3,1}"]), 0).rates, [3, 3]);
        // A list wins over a later plain rate.
        assert_eq!(d("{2,6}", &rates(&["{{3,1}}", "5"]), 0).rates, [3, 1]);
        // One size: no distribution, whatever the rates.
        assert_eq!(distribution("{4}", 1, &rates(&["0"]), 0).unwrap(), None);
        assert_eq!(
            distribution("4", 1, &SizeRates::default(), 0).unwrap(),
            None
        );
    }

    #[test]
    fn bad_rates_are_named() {
        let mut r = SizeRates::default();
        for bad in ["-1", "x", "{}"] {
            let e = r.note(bad, 3).unwrap_err().to_string();
            assert!(
                e.contains("line 3") && e.contains("packet_size_rate"),
                "{e}"
            );
        }
        let e = distribution("{1,2}", 1, &rates(&["0"]), 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("rate 0") && e.contains("class 0"), "{e}");
        let e = distribution("{1,2}", 1, &rates(&["{{1,-1}}"]), 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("packet_size_rate item {1,-1}"), "{e}");
        let e = distribution("{1,0}", 4, &SizeRates::default(), 0)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 4: packet_size item {1,0} (class 0)"),
            "{e}"
        );
    }
}
