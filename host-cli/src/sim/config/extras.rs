//! Parameters of BookSim2's traffic, injection processes and simulation phases beyond
//! jumpnet's presets (docs/booksim.md §2, §5): the weighted hotspot list, the dragonfly `k`
//! of `bad_dragon`, the on/off burst parameters, the stopping rule of a run's samples,
//! BookSim2's batch mode and BookSim2's `randperm` draw (`perm_seed`). `jumpnet sim --booksim` sets them from BookSim2's keys; the
//! simulator keys of [`Extras::KEYS`] set them too.

use serde::Serialize;

use super::{Injection, PacketSizes, ReadWrite, SimConfigError, TrafficClass, Value, F, U32};
use crate::sim::router::priority::Priority;

impl Injection {
    /// The `injection=` word of each process.
    pub const WORDS: [(Injection, &'static str); 4] = [
        (Injection::Bernoulli, "bernoulli"),
        (Injection::Batch, "batch"),
        (Injection::OnOff, "on_off"),
        (Injection::BookSimBatch, "booksim_batch"),
    ];

    /// The `injection=` word of this process.
    pub fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find(|(i, _)| *i == self)
            .map_or("bernoulli", |(_, w)| w)
    }
}

/// How a run decides that its warm-up and its measurement are over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StopRule {
    /// jumpnet's rule (the presets): `warmup_periods` periods (or until the latency of
    /// successive periods agrees within `warmup_thres`), then samples measured one by one
    /// until two successive sample means agree within `stopping_thres` or `max_samples`
    /// samples were taken.
    Jumpnet,
    /// BookSim2's rule (`jumpnet sim --booksim`; docs/booksim.md §5): warm-up and
    /// measurement samples count together against `max_samples`, the measurement is
    /// cumulative, and it stops after 3 successive samples whose cumulative latency and
    /// accepted rate changed by at most `stopping_thres` and `acc_stopping_thres`.
    BookSim,
}

impl StopRule {
    /// The `stop_rule=` word of this rule.
    pub fn word(self) -> &'static str {
        match self {
            StopRule::Jumpnet => "jumpnet",
            StopRule::BookSim => "booksim",
        }
    }
}

/// Whose random draws synthetic traffic makes (docs/booksim.md §3.9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Draws {
    /// jumpnet's (the presets): one seeded generator draws every terminal's Bernoulli
    /// trial each cycle, packets wait in an unbounded source queue.
    #[default]
    Jumpnet,
    /// BookSim2's (`jumpnet sim --booksim`): Knuth's two generators seeded with `seed` as
    /// BookSim2 seeds them, drawn in BookSim2's order, and BookSim2's source, which makes
    /// its trials (Bernoulli or on/off) only while it holds no packet and catches up on the
    /// cycles it missed (`TrafficManager::_Inject`). A run with Bernoulli, on/off or
    /// BookSim2's batch sources (one traffic class or several, no read/write traffic),
    /// `uniform` or a deterministic pattern, and a routing that draws nothing then gives
    /// BookSim2's numbers line for line.
    BookSim,
}

impl Draws {
    /// The `draws=` word of this choice.
    pub fn word(self) -> &'static str {
        match self {
            Draws::Jumpnet => "jumpnet",
            Draws::BookSim => "booksim",
        }
    }
}

/// BookSim2's traffic and phase parameters (defaults: BookSim2's, jumpnet's stopping rule).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Extras {
    /// Hotspots of [`super::Pattern::Hotspots`]: `(node, weight)`.
    pub hotspots: Vec<(u32, u32)>,
    /// Terminals per router of [`super::Pattern::BadDragon`] (BookSim2's dragonfly `k`).
    pub bad_dragon_k: u32,
    /// On/off injection: probability per cycle that an off source turns on
    /// (BookSim2 `burst_alpha`; negative: derived).
    pub burst_alpha: f64,
    /// On/off injection: probability per cycle that an on source turns off (`burst_beta`).
    pub burst_beta: f64,
    /// On/off injection: packet probability per cycle of an on source (`burst_r1`).
    pub burst_r1: f64,
    /// Stopping rule of the warm-up and the measurement.
    pub stop_rule: StopRule,
    /// [`StopRule::BookSim`]: relative change of the accepted rate under which the warm-up
    /// may end (BookSim2 `acc_warmup_thres`; negative: not checked).
    pub acc_warmup_thres: f64,
    /// [`StopRule::BookSim`]: relative change of the accepted rate under which a sample
    /// counts as converged (BookSim2 `acc_stopping_thres`; negative: not checked).
    pub acc_stopping_thres: f64,
    /// BookSim2 batch mode ([`super::Injection::BookSimBatch`]): batches run one after the
    /// other (`batch_count`).
    pub batch_count: u32,
    /// BookSim2 batch mode: packets a terminal may have undelivered at once, 0 = no limit
    /// (`max_outstanding_requests`).
    pub max_outstanding: u32,
    /// BookSim2's traffic classes (`classes > 1`, docs/booksim.md §3.5), each with its own
    /// traffic, rate, packet size and thresholds; empty with one class (the configuration's
    /// own parameters). Left out of the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<TrafficClass>,
    /// BookSim2's packet priorities (`priority`, docs/booksim.md §3.5;
    /// `sim::router::priority`): `class` gives a class's packets its `class_priority`, the
    /// other modes a packet's or a flit's age, sequence number, hops or its input VC's
    /// length; they decide between classes at a terminal, between the VCs of a router input
    /// and in the allocators that rank priorities. In the JSON: nothing for `none`,
    /// `"class_priority": true` for `class`, `"priority": "<mode>"` for the others.
    #[serde(flatten)]
    pub priority: Priority,
    /// BookSim2's read/write traffic (`use_read_write = 1`, docs/booksim.md §3.6): requests
    /// and their replies, each kind with its size and VC range. Left out of the JSON when
    /// `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_write: Option<ReadWrite>,
    /// `randperm`'s permutation: `Some(s)` draws BookSim2's for `perm_seed = s`
    /// (`jumpnet_core::traffic::Traffic::draw_booksim_permutation`, docs/booksim.md §3.8; a
    /// BookSim2 file with `randperm` traffic sets it), `None` jumpnet's own from `seed`
    /// (`Traffic::draw_permutation`, the presets). Left out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perm_seed: Option<i32>,
    /// A packet size distribution (BookSim2's `packet_size = {{…}}` with `packet_size_rate`,
    /// docs/booksim.md §3.5): synthetic traffic draws every packet's size from it
    /// ([`PacketSizes::draw`]), and `rate_in_flits` divides the rate by its mean; `None`:
    /// every packet has `packet_size` flits. Setting it sets `packet_size` to its longest
    /// size, and setting `packet_size` clears it (the last of the two wins). Left out of the
    /// JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet_sizes: Option<PacketSizes>,
    /// Whose random draws synthetic traffic makes. Left out of the JSON when jumpnet's.
    #[serde(skip_serializing_if = "is_jumpnet")]
    pub draws: Draws,
}

/// Whether `d` is [`Draws::Jumpnet`] (left out of the JSON).
fn is_jumpnet(d: &Draws) -> bool {
    *d == Draws::Jumpnet
}

impl Default for Extras {
    fn default() -> Self {
        Extras {
            hotspots: Vec::new(),
            bad_dragon_k: 0,
            burst_alpha: 0.5,
            burst_beta: 0.5,
            burst_r1: -1.0,
            stop_rule: StopRule::Jumpnet,
            acc_warmup_thres: 0.05,
            acc_stopping_thres: 0.05,
            batch_count: 1,
            max_outstanding: 0,
            classes: Vec::new(),
            priority: Priority::None,
            read_write: None,
            perm_seed: None,
            packet_sizes: None,
            draws: Draws::Jumpnet,
        }
    }
}

impl Extras {
    /// The simulator keys of these parameters.
    pub const KEYS: [&'static str; 13] = [
        "hotspots",
        "bad_dragon_k",
        "burst_alpha",
        "burst_beta",
        "burst_r1",
        "stop_rule",
        "acc_warmup_thres",
        "acc_stopping_thres",
        "batch_count",
        "max_outstanding",
        "perm_seed",
        "packet_sizes",
        "draws",
    ];

    /// Whether every parameter is at its default (the JSON leaves them out then).
    pub fn is_default(&self) -> bool {
        *self == Extras::default()
    }

    /// The `(node, weight)` pairs of `hotspots = node:weight,node:weight,…` (a weight may be
    /// left out: 1; an empty value: no list).
    pub fn parse_hotspots(value: &str) -> Option<Vec<(u32, u32)>> {
        if value.trim().is_empty() {
            return Some(Vec::new());
        }
        value
            .split(',')
            .map(|item| {
                let (n, w) = item.split_once(':').unwrap_or((item, "1"));
                Some((n.trim().parse().ok()?, w.trim().parse().ok()?))
            })
            .collect()
    }

    /// Sets one of [`Extras::KEYS`]; `None` if `v.key` is not one of them.
    pub(super) fn set(&mut self, v: Value<'_>) -> Option<Result<(), SimConfigError>> {
        if !Self::KEYS.contains(&v.key) {
            return None;
        }
        Some((|| {
            match v.key {
                "hotspots" => {
                    self.hotspots = Self::parse_hotspots(v.value).ok_or_else(|| {
                        v.bad("node:weight pairs separated by commas, e.g. 0:2,27:1")
                    })?
                }
                "bad_dragon_k" => self.bad_dragon_k = v.num(U32)?,
                "burst_alpha" => self.burst_alpha = v.num(F)?,
                "burst_beta" => self.burst_beta = v.num(F)?,
                "burst_r1" => self.burst_r1 = v.num(F)?,
                "stop_rule" => {
                    self.stop_rule = match v.value.trim() {
                        "jumpnet" => StopRule::Jumpnet,
                        "booksim" => StopRule::BookSim,
                        _ => return Err(v.bad("jumpnet, booksim")),
                    }
                }
                "acc_warmup_thres" => self.acc_warmup_thres = v.num(F)?,
                "acc_stopping_thres" => self.acc_stopping_thres = v.num(F)?,
                "batch_count" => self.batch_count = v.positive(U32)?,
                "max_outstanding" => self.max_outstanding = v.num(U32)?,
                "perm_seed" => {
                    self.perm_seed = match v.value.trim() {
                        "none" => None,
                        _ => Some(v.num(
                            "none (jumpnet's permutation, drawn from seed) or an integer \
                             -2147483648..=2147483647 (BookSim2's perm_seed)",
                        )?),
                    }
                }
                // `SimConfig::set` sets `packet_size` with it.
                "packet_sizes" => {
                    self.packet_sizes =
                        PacketSizes::parse(v.value).ok_or_else(|| v.bad(PacketSizes::ALLOWED))?
                }
                "draws" => {
                    self.draws = match v.value.trim() {
                        "jumpnet" => Draws::Jumpnet,
                        "booksim" => Draws::BookSim,
                        _ => return Err(v.bad("jumpnet, booksim")),
                    }
                }
                _ => {}
            }
            Ok(())
        })())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::config::SimConfig;

    #[test]
    fn keys_set_and_bad_values_are_named() {
        let mut c = SimConfig::booksim();
        c.set("hotspots", "0:2, 27").unwrap();
        c.set("stop_rule", "booksim").unwrap();
        c.set("batch_count", "3").unwrap();
        c.set("burst_r1", "-1.0").unwrap();
        let e = &c.extras;
        assert_eq!(e.hotspots, [(0, 2), (27, 1)]);
        assert_eq!((e.stop_rule, e.batch_count), (StopRule::BookSim, 3));
        let err = c.set("stop_rule", "never").unwrap_err().to_string();
        assert!(
            err.contains("stop_rule") && err.contains("jumpnet, booksim"),
            "{err}"
        );
        assert!(c.set("hotspots", "a:1").is_err() && c.set("batch_count", "0").is_err());
        assert!(SimConfig::booksim().extras.is_default());
        assert_eq!(Extras::parse_hotspots(""), Some(vec![]));
        c.set("perm_seed", "-7").unwrap();
        assert_eq!(c.extras.perm_seed, Some(-7));
        c.set("perm_seed", "none").unwrap();
        assert_eq!(c.extras.perm_seed, None);
        let err = c.set("perm_seed", "2147483648").unwrap_err().to_string();
        assert!(err.contains("perm_seed") && err.contains("none"), "{err}");
        c.set("draws", "booksim").unwrap();
        assert_eq!(c.extras.draws, Draws::BookSim);
        let err = c.set("draws", "knuth").unwrap_err().to_string();
        assert!(
            err.contains("draws") && err.contains("jumpnet, booksim"),
            "{err}"
        );
    }
}
