//! BookSim2's read/write keys in a configuration file (`use_read_write`, `write_fraction`,
//! the four `*_size` keys, the eight `*_begin_vc` / `*_end_vc` keys and the four `*_subnet`
//! keys; docs/booksim.md §3.6).
//!
//! Without `use_read_write` (BookSim2's default 0) the other keys are without effect and
//! listed as such, as before. With it jumpnet runs BookSim2's read/write traffic
//! ([`ReadWrite`]) in the combinations it models — any number of classes, Bernoulli or
//! on/off injection, `sim_type = latency`, `throughput` or `batch` (with one class or
//! several, which share the batch), `dim_order` routing on a `mesh` or a `torus`, one
//! network (every `*_subnet` 0) — and refuses every other by name. BookSim2's batch mode draws a write with
//! probability 0.5 whatever `write_fraction` says (`batchtrafficmanager.cpp`), and so does
//! jumpnet's.
//!
//! BookSim2 reads `use_read_write`, `write_fraction` and the four sizes per class
//! (`trafficmanager.cpp`: a `{a,b,…}` list gives each class its item, padded with the last
//! one; a list wins over a plain value whichever came last, as for the keys of §3.5), the
//! VC ranges and subnets once for all classes (`routefunc.cpp`).

use anyhow::{anyhow, bail, Result};

use super::traffic::items;
use crate::builder::routing::RouteAlgo;
use crate::sim::config::{Injection, ReadWrite, SimConfig};

/// The read/write keys (all of BookSim2's keys that only act with `use_read_write`, and
/// the switch itself).
pub const KEYS: [&str; 18] = [
    "use_read_write",
    "write_fraction",
    "read_request_begin_vc",
    "read_request_end_vc",
    "write_request_begin_vc",
    "write_request_end_vc",
    "read_reply_begin_vc",
    "read_reply_end_vc",
    "write_reply_begin_vc",
    "write_reply_end_vc",
    "read_request_subnet",
    "read_reply_subnet",
    "write_request_subnet",
    "write_reply_subnet",
    "read_request_size",
    "write_request_size",
    "read_reply_size",
    "write_reply_size",
];

/// The kinds' key prefixes in [`ReadWrite::sizes`] order.
const KINDS: [&str; 4] = ["read_request", "write_request", "read_reply", "write_reply"];

/// The read/write keys BookSim2 reads per class (with a `{…}` list form).
const CLASS_KEYS: [&str; 6] = [
    "use_read_write",
    "write_fraction",
    "read_request_size",
    "write_request_size",
    "read_reply_size",
    "write_reply_size",
];

/// The read/write keys given so far: `(key, value, line)`, the last statement of a key
/// winning, and apart from them the per-class lists `(key, items, line)`, the last list
/// winning; and whether `packet_size` was given (read/write traffic replaces it).
#[derive(Clone, Debug, Default)]
pub struct RwKeys {
    given: Vec<(String, String, usize)>,
    lists: Vec<(String, Vec<String>, usize)>,
    /// `packet_size` was set by a statement.
    pub packet_size_given: bool,
}

/// What the rest of the configuration says that read/write traffic depends on.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// `classes`.
    pub classes: u32,
    /// `topology`.
    pub topology: &'a str,
    /// The routing `routing_function` maps to.
    pub algo: RouteAlgo,
}

fn at(line: usize) -> String {
    match line {
        0 => "command line".to_string(),
        n => format!("line {n}"),
    }
}

impl RwKeys {
    /// Notes `key = value` (one of [`KEYS`]).
    pub fn note(&mut self, key: &str, value: &str, line: usize) {
        if value.trim_start().starts_with('{') && CLASS_KEYS.contains(&key) {
            self.lists.retain(|(k, _, _)| k != key);
            self.lists.push((key.to_string(), items(value), line));
            return;
        }
        self.given.retain(|(k, _, _)| k != key);
        self.given.push((key.to_string(), value.to_string(), line));
    }

    /// The value of `key` for class `class` and its line: the item of its list (the last
    /// item for a class past the list's end), else its plain value.
    fn get(&self, key: &str, class: usize) -> Option<(&str, usize)> {
        if let Some((_, list, line)) = self.lists.iter().find(|(k, _, _)| k == key) {
            let item = list.get(class).or(list.last()).map_or("", String::as_str);
            return Some((item, *line));
        }
        self.given
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, l)| (v.as_str(), *l))
    }

    fn int(&self, key: &str, class: usize, default: i64) -> Result<i64> {
        match self.get(key, class) {
            None => Ok(default),
            Some((v, line)) => v.trim().parse().map_err(|_| {
                anyhow!(
                    "{}: {key} = {v}: an integer is needed{}",
                    at(line),
                    if v.trim_start().starts_with('{') {
                        " (BookSim2 reads the VC ranges and subnets once for every class: \
                         no {…} list)"
                    } else {
                        ""
                    }
                )
            }),
        }
    }

    /// Whether `key` was given (plain or as a list; docs/booksim.md §3.6).
    pub fn gives(&self, key: &str) -> bool {
        self.get(key, 0).is_some()
    }

    /// Whether `use_read_write` is on for any of `classes` classes (BookSim2: any non-zero
    /// integer; docs/booksim.md §3.6).
    pub fn on(&self, classes: usize) -> Result<bool> {
        for c in 0..classes.max(1) {
            if self.int("use_read_write", c, 0)? != 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The read/write parameters of each of `ctx.classes` classes when `use_read_write` is
    /// on for one of them (`None` when off for all; a class without it has `None`), checked
    /// against `ctx` and `cfg` (its `num_vcs`, injection process and mode). The VC ranges
    /// are the same in every class's.
    pub fn read_write(
        &self,
        cfg: &SimConfig,
        ctx: Context<'_>,
    ) -> Result<Option<Vec<Option<ReadWrite>>>> {
        let n = ctx.classes.max(1) as usize;
        if !self.on(n)? {
            return Ok(None);
        }
        self.check(cfg, ctx)?;
        let vcs = self.vc_ranges(cfg, ctx)?;
        let mut out = Vec::with_capacity(n);
        for c in 0..n {
            if self.int("use_read_write", c, 0)? == 0 {
                out.push(None);
                continue;
            }
            let mut rw = ReadWrite::booksim_default();
            rw.vcs = vcs;
            if let Some((v, l)) = self.get("write_fraction", c) {
                rw.write_fraction = v
                    .trim()
                    .parse()
                    .map_err(|_| anyhow!("{}: write_fraction = {v}: a number is needed", at(l)))?;
            }
            for (i, kind) in KINDS.iter().enumerate() {
                let key = format!("{kind}_size");
                let size = self.int(&key, c, 1)?;
                if !(1..=i64::from(u16::MAX)).contains(&size) {
                    let l = self.get(&key, c).map_or(0, |(_, l)| l);
                    bail!(
                        "{}: {key} = {size}{}: a packet size of 1 to 65535 flits is needed",
                        at(l),
                        if n > 1 {
                            format!(" (class {c})")
                        } else {
                            String::new()
                        }
                    );
                }
                rw.sizes[i] = size as u16;
            }
            if cfg.injection == Injection::BookSimBatch {
                // BookSim2's batch source tosses a fair coin (`write_fraction` unread).
                rw.write_fraction = 0.5;
            }
            out.push(Some(rw));
        }
        Ok(Some(out))
    }

    /// Refuses the combinations jumpnet does not model, by name.
    fn check(&self, cfg: &SimConfig, ctx: Context<'_>) -> Result<()> {
        let line = self.get("use_read_write", 0).map_or(0, |(_, l)| l);
        let refuse = |what: String| {
            anyhow!(
                "{}: use_read_write = 1 with {what} is not supported: jumpnet runs BookSim2's \
                 read/write traffic with injection_process = bernoulli or on_off (or sim_type = \
                 batch), routing_function = dim_order on a mesh or a torus and every *_subnet \
                 0 (docs/booksim.md §3.6)",
                at(line)
            )
        };
        match cfg.injection {
            Injection::Bernoulli | Injection::OnOff | Injection::BookSimBatch => {}
            other => return Err(refuse(format!("injection_process = {}", other.word()))),
        }
        match (ctx.topology, ctx.algo) {
            ("mesh", RouteAlgo::Dor) | ("torus", RouteAlgo::DorBookSim) => {}
            (t, _) => return Err(refuse(format!("topology = {t} and its routing"))),
        }
        for kind in KINDS {
            let key = format!("{kind}_subnet");
            if self.int(&key, 0, 0)? != 0 {
                return Err(refuse(format!("{key} = {}", self.int(&key, 0, 0)?)));
            }
        }
        Ok(())
    }

    /// The VCs `(first, last)` of each kind (BookSim2 reads them once for every class).
    fn vc_ranges(&self, cfg: &SimConfig, ctx: Context<'_>) -> Result<[(u8, u8); 4]> {
        let mut out = ReadWrite::booksim_default().vcs;
        let vcs = i64::from(cfg.num_vcs);
        for (i, kind) in KINDS.iter().enumerate() {
            let (b, e) = (format!("{kind}_begin_vc"), format!("{kind}_end_vc"));
            let (dflt_b, dflt_e) = out[i];
            // BookSim2 reads a negative begin as 0 and a negative end as the last VC.
            let begin = self.int(&b, 0, i64::from(dflt_b))?.max(0);
            let end = match self.int(&e, 0, i64::from(dflt_e))? {
                n if n < 0 => vcs - 1,
                n => n,
            };
            let need = if ctx.topology == "torus" { 2 } else { 1 };
            if end >= vcs || end - begin + 1 < need {
                bail!(
                    "{b} = {begin}, {e} = {end} with num_vcs = {vcs}: {kind} packets need a VC \
                     range within 0..{} of at least {need} VC(s){}",
                    vcs - 1,
                    if need == 2 {
                        " (a torus splits it between its two wrap classes)"
                    } else {
                        ""
                    }
                );
            }
            out[i] = (begin as u8, end as u8);
        }
        Ok(out)
    }
}

/// Whether `key` is one of the read/write keys.
pub fn is_key(key: &str) -> bool {
    KEYS.contains(&key)
}
