//! BookSim2's read/write keys in a configuration file (`use_read_write`, `write_fraction`,
//! the four `*_size` keys, the eight `*_begin_vc` / `*_end_vc` keys and the four `*_subnet`
//! keys; docs/booksim.md §3.6).
//!
//! Without `use_read_write` (BookSim2's default 0) the other keys are without effect and
//! listed as such, as before. With it jumpnet runs BookSim2's read/write traffic
//! ([`ReadWrite`]) in the combinations it models — one traffic class, Bernoulli injection,
//! `sim_type = latency` or `throughput`, `dim_order` routing on a `mesh` or a `torus`, one
//! network (every `*_subnet` 0), a value per key (no `{…}` lists) — and refuses every
//! other by name.

use anyhow::{anyhow, bail, Result};

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

/// The read/write keys given so far: `(key, value, line)`, the last statement of a key
/// winning; and whether `packet_size` was given (read/write traffic replaces it).
#[derive(Clone, Debug, Default)]
pub struct RwKeys {
    given: Vec<(String, String, usize)>,
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
        self.given.retain(|(k, _, _)| k != key);
        self.given.push((key.to_string(), value.to_string(), line));
    }

    fn get(&self, key: &str) -> Option<(&str, usize)> {
        self.given
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, l)| (v.as_str(), *l))
    }

    fn int(&self, key: &str, default: i64) -> Result<i64> {
        match self.get(key) {
            None => Ok(default),
            Some((v, line)) => v.trim().parse().map_err(|_| {
                anyhow!(
                    "{}: {key} = {v}: an integer is needed{}",
                    at(line),
                    if v.trim_start().starts_with('{') {
                        " (per-class lists are not supported: jumpnet runs read/write traffic \
                         with one class)"
                    } else {
                        ""
                    }
                )
            }),
        }
    }

    /// Whether `use_read_write` is on (BookSim2: any non-zero integer).
    pub fn on(&self) -> Result<bool> {
        Ok(self.int("use_read_write", 0)? != 0)
    }

    /// The read/write parameters when `use_read_write` is on (`None` when off), checked
    /// against `ctx` and `cfg` (its `num_vcs`, injection process and mode).
    pub fn read_write(&self, cfg: &SimConfig, ctx: Context<'_>) -> Result<Option<ReadWrite>> {
        if !self.on()? {
            return Ok(None);
        }
        let line = self.get("use_read_write").map_or(0, |(_, l)| l);
        let refuse = |what: String| {
            anyhow!(
                "{}: use_read_write = 1 with {what} is not supported: jumpnet runs BookSim2's \
                 read/write traffic with one class, injection_process = bernoulli, sim_type = \
                 latency or throughput, routing_function = dim_order on a mesh or a torus, \
                 every *_subnet 0 and one value per key (docs/booksim.md §3.6)",
                at(line)
            )
        };
        if ctx.classes > 1 {
            return Err(refuse(format!("classes = {}", ctx.classes)));
        }
        match cfg.injection {
            Injection::Bernoulli => {}
            Injection::BookSimBatch => return Err(refuse("sim_type = batch".into())),
            other => return Err(refuse(format!("injection_process = {}", other.word()))),
        }
        match (ctx.topology, ctx.algo) {
            ("mesh", RouteAlgo::Dor) | ("torus", RouteAlgo::DorBookSim) => {}
            (t, _) => return Err(refuse(format!("topology = {t} and its routing"))),
        }
        for kind in KINDS {
            let key = format!("{kind}_subnet");
            if self.int(&key, 0)? != 0 {
                return Err(refuse(format!("{key} = {}", self.int(&key, 0)?)));
            }
        }
        let mut rw = ReadWrite::booksim_default();
        if let Some((v, l)) = self.get("write_fraction") {
            rw.write_fraction = v.trim().parse().map_err(|_| {
                anyhow!(
                    "{}: write_fraction = {v}: a number is needed (one value: per-class lists \
                     are not supported)",
                    at(l)
                )
            })?;
        }
        let vcs = i64::from(cfg.num_vcs);
        for (i, kind) in KINDS.iter().enumerate() {
            let key = format!("{kind}_size");
            let size = self.int(&key, 1)?;
            if !(1..=i64::from(u16::MAX)).contains(&size) {
                let l = self.get(&key).map_or(0, |(_, l)| l);
                bail!(
                    "{}: {key} = {size}: a packet size of 1 to 65535 flits is needed",
                    at(l)
                );
            }
            rw.sizes[i] = size as u16;
            let (b, e) = (format!("{kind}_begin_vc"), format!("{kind}_end_vc"));
            let (dflt_b, dflt_e) = rw.vcs[i];
            // BookSim2 reads a negative begin as 0 and a negative end as the last VC.
            let begin = self.int(&b, i64::from(dflt_b))?.max(0);
            let end = match self.int(&e, i64::from(dflt_e))? {
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
            rw.vcs[i] = (begin as u8, end as u8);
        }
        Ok(Some(rw))
    }
}

/// Whether `key` is one of the read/write keys.
pub fn is_key(key: &str) -> bool {
    KEYS.contains(&key)
}
