//! Simulator configuration: every parameter of the flit-level engine, two named
//! presets and `key=value` overrides.
//!
//! The topology and the routing algorithm are passed to the engine separately (as
//! `jumpnet route` names them); everything else is here. Times are in cycles, sizes in flits.

pub mod booksim;
pub mod extras;
pub mod packet_sizes;
pub mod pattern;
pub mod read_write;
pub mod toml_file;
pub mod traffic_class;
mod value;

use core::fmt;

use jumpnet_core::traffic::DestPattern;
use serde::Serialize;

pub use extras::{Draws, Extras, StopRule};
pub use packet_sizes::PacketSizes;
pub use pattern::Pattern;
pub use read_write::{Kind, ReadWrite};
pub use traffic_class::TrafficClass;

use crate::sim::network::class_latency::ClassLatency;
use crate::sim::network::layout_latency::GridLayout;
use crate::sim::router::features::RouterFeatures;
use crate::sim::router::speedup::Speedup;
use crate::sim::router::RouterKind;
use value::{Value, F, U16, U16P, U32, U32P, U8P};

/// Switch allocator / VC allocator type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Allocator {
    /// BookSim2's separable input-first allocator (one iteration): an input's arbiter picks
    /// among its requested outputs, round robin, of the VCs requesting one output the one
    /// nearest the input's VC pointer (`router::separable`).
    SeparableInputFirst,
    /// jumpnet's separable input-first allocator whose input arbiters pick among the VCs,
    /// round robin, whatever output they request (`separable_vc`, the \[GA\] preset's
    /// router; `router::separable`). As a VC allocator it is `SeparableInputFirst`.
    SeparableVc,
    /// iSLIP (separable, round-robin pointers advanced only on a granted-and-accepted match;
    /// BookSim2's default `vc_allocator = sw_allocator = islip`).
    Islip,
    /// BookSim2's wavefront allocator (`sim::router::wavefront`): the request matrix's
    /// diagonals swept from a priority diagonal that moves by one per allocation.
    Wavefront,
    /// BookSim2's `rr_wavefront` (`sim::router::wavefront`): the wavefront allocator whose
    /// priority diagonal moves to the one after the diagonal of its first grant.
    RrWavefront,
    /// BookSim2's parallel iterative matching (`sim::router::pim`): outputs grant and inputs
    /// accept at random, `alloc_iters` iterations (docs/booksim.md §4).
    Pim,
    /// BookSim2's lonely output allocator (`sim::router::loa`): each input requests its
    /// least-requested output, outputs grant round robin (docs/booksim.md §4).
    Loa,
    /// BookSim2's `select` allocator (`sim::router::select`): iSLIP whose arbiters prefer
    /// the higher request priority (docs/booksim.md §4).
    Select,
    /// BookSim2's maximum-size allocator (`sim::router::maxsize`): a maximum matching by
    /// shortest augmenting paths from a priority input that moves at every allocation
    /// (docs/booksim.md §4).
    MaxSize,
}

impl Allocator {
    /// The name `allocator=` and `vc_allocator=` take.
    pub fn name(self) -> &'static str {
        match self {
            Allocator::SeparableInputFirst => "separable_input_first",
            Allocator::SeparableVc => "separable_vc",
            Allocator::Islip => "islip",
            Allocator::Wavefront => "wavefront",
            Allocator::RrWavefront => "rr_wavefront",
            Allocator::Pim => "pim",
            Allocator::Loa => "loa",
            Allocator::Select => "select",
            Allocator::MaxSize => "max_size",
        }
    }
}

/// Injection process.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Injection {
    /// Bernoulli: every cycle every terminal starts a new packet with probability
    /// `rate / packet_size` (rate in flits/node/cycle) or `rate` (rate in packets).
    Bernoulli,
    /// Batch: every terminal injects `batch_size` packets at cycle 0 (into its infinite source
    /// queue) and the run ends when all are delivered.
    Batch,
    /// BookSim2's on/off process (`injection_process = on_off`): a two-state Markov chain
    /// per terminal with `extras.burst_alpha`, `burst_beta`, `burst_r1`
    /// (`jumpnet_core::traffic::OnOff`).
    OnOff,
    /// BookSim2's batch mode (`sim_type = batch`, docs/booksim.md §5): a terminal creates its
    /// next packet when the previous one has left its queue, `batch_size` per batch, at most
    /// `extras.max_outstanding` undelivered; `extras.batch_count` batches one after the other.
    BookSimBatch,
}

/// Simulator configuration. Start from [`SimConfig::booksim`] or [`SimConfig::ga`] and
/// override with [`SimConfig::set`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimConfig {
    /// Virtual channels per physical channel (at least the routing's `num_vcs()`; extra VCs
    /// are used as duplicates of the routing's VCs: VC `v` may use buffers `v, v+R, v+2R…`).
    pub num_vcs: u8,
    /// Buffer depth of one VC, in flits.
    pub vc_buf_size: u16,
    /// Packet size, in flits (with a size distribution, `extras.packet_sizes`, its longest
    /// size; synthetic traffic then draws each packet's size from the distribution).
    pub packet_size: u16,
    /// Route computation delay, cycles (BookSim2 `routing_delay`).
    pub routing_delay: u16,
    /// VC allocation delay, cycles (BookSim2 `vc_alloc_delay`).
    pub vc_alloc_delay: u16,
    /// Switch allocation delay, cycles (BookSim2 `sw_alloc_delay`).
    pub sw_alloc_delay: u16,
    /// Switch traversal delay, cycles (BookSim2 `st_prepare_delay + st_final_delay`).
    pub st_delay: u16,
    /// Channel latency of terminal (injection / ejection) channels, cycles.
    pub terminal_latency: u16,
    /// Channel latency of network links of every class unless overridden, cycles.
    pub link_latency: u16,
    /// Channel latency of the links of one class (`global_latency`, `shortcut_latency`, …),
    /// cycles; unset classes take `link_latency`.
    #[serde(flatten)]
    pub class_latency: ClassLatency,
    /// Switches on a chip grid: network channels take their Manhattan length in cycles
    /// instead of their class latency (BookSim2's on-chip `flatfly`, docs/booksim.md §3.2;
    /// set by `--booksim` only). Left out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switch_layout: Option<GridLayout>,
    /// Credit return delay beyond the channel latency, cycles (BookSim2 `credit_delay`).
    pub credit_delay: u16,
    /// Internal speedup (BookSim2 `internal_speedup`, `sim::router::speedup`): the router pipeline
    /// runs this many internal steps per cycle (a fraction such as 1.5 alternates), each
    /// moving at most one flit per input and per output through the crossbar into the
    /// output's queue, which sends one flit per cycle onto its channel.
    pub internal_speedup: Speedup,
    /// Flits an output queue may hold before its switch requests wait (BookSim2
    /// `output_buffer_size`; `None` = BookSim2's `-1`, unlimited: the downstream credits
    /// bound it). Without `booksim_credits` (whose terminals return ejection credits)
    /// ejection queues are also bounded by `num_vcs · vc_buf_size` flits, the credits of a
    /// BookSim2 terminal's input. Only a speedup above 1 fills output queues.
    pub output_buffer_size: Option<u32>,
    /// Allocator of the switch, and of VCs unless [`SimConfig::vc_allocator`] names another.
    pub allocator: Allocator,
    /// Allocator of VCs (with `vc_alloc_stage`) when it differs from
    /// [`SimConfig::allocator`] (BookSim2's `vc_allocator` and `sw_allocator` set apart);
    /// `None`: the same. Left out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc_allocator: Option<Allocator>,
    /// BookSim2's optional router behaviours (`wait_for_tail_credit`,
    /// `hold_switch_for_packet`, `input_speedup`, `output_speedup`, `alloc_iters`,
    /// `vc_alloc_stage`, `speculative`, `booksim_credits`, `exact_vcs`;
    /// docs/booksim.md §4); each left out of the JSON at BookSim2's default.
    #[serde(flatten)]
    pub features: RouterFeatures,
    /// Router microarchitecture (`sim::router`); left out of the JSON when it is the default
    /// input-queued router.
    #[serde(skip_serializing_if = "RouterKind::is_default")]
    pub router: RouterKind,
    /// Injection process.
    pub injection: Injection,
    /// Injection rate: flits/node/cycle if `rate_in_flits`, else packets/node/cycle.
    pub injection_rate: f64,
    /// Unit of `injection_rate` (BookSim2 `injection_rate_uses_flits`).
    pub rate_in_flits: bool,
    /// Packets per terminal of a batch run.
    pub batch_size: u32,
    /// Destination pattern.
    pub traffic: Pattern,
    /// Hotspot terminal of [`Pattern::Hotspot`].
    pub hotspot_node: u32,
    /// Fraction of packets sent to the hotspot (0..=1).
    pub hotspot_fraction: f64,
    /// Seed of traffic, permutations and Valiant hashes.
    pub seed: u64,
    /// Warm-up sample periods before measuring (BookSim2 `warmup_periods`); 0 = warm up
    /// until the mean latency converges within `warmup_thres` (at most `max_samples`
    /// periods).
    pub warmup_periods: u32,
    /// Length of one sample period, cycles (BookSim2 `sample_period`).
    pub sample_period: u32,
    /// Maximum number of measurement samples (BookSim2 `max_samples`).
    pub max_samples: u32,
    /// Mean packet latency above which the network is declared saturated, cycles
    /// (BookSim2 `latency_thres`).
    pub latency_thres: f64,
    /// Relative change of mean latency between samples under which the warm-up ends
    /// (BookSim2 `warmup_thres`).
    pub warmup_thres: f64,
    /// Relative change of mean latency between samples under which measurement stops
    /// (BookSim2 `stopping_thres`).
    pub stopping_thres: f64,
    /// Drain: after measurement, run until every measured packet is delivered.
    pub drain: bool,
    /// Watchdog: flits in flight and nothing moved for this many cycles = deadlock
    /// (BookSim2 `deadlock_warn_timeout`).
    pub watchdog_cycles: u32,
    /// Keep packets a pattern addresses to their own source: they go through the source's
    /// router and back (BookSim2 does; its `uniform` draws the source too). `false` (the
    /// presets) drops them and draws `uniform` among the other nodes. Left out of the JSON
    /// when `false`.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub self_packets: bool,
    /// Cycles between a flit leaving its source's queue and entering the injection
    /// channel. BookSim2's terminal writes its channel at the end of a cycle and the channel
    /// starts the flit on its way in the next (1, docs/booksim.md §4); a router's output
    /// has that cycle in `st_delay`. 0 in the presets; left out of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub injection_delay: u16,
    /// A terminal may start a packet on any VC of its injection channel: the next one
    /// after the VC of its previous packet (round robin) that has a credit, as BookSim2's
    /// terminals do (docs/booksim.md §4). `false` (the presets): the routing's VC or one of
    /// its duplicates, the one with most credits. Left out of the JSON when `false`.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub inject_any_vc: bool,
    /// BookSim2's traffic and phase parameters beyond the presets' (hotspot list, on/off
    /// bursts, stopping rule, batch mode); left out of the JSON at their defaults.
    #[serde(skip_serializing_if = "Extras::is_default")]
    pub extras: Extras,
}

/// Whether `v` is 0 (serde's `skip_serializing_if`).
fn is_zero(v: &u16) -> bool {
    *v == 0
}

/// Error of [`SimConfig::set`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimConfigError {
    /// No such key; `known` lists every key.
    UnknownKey {
        /// The key given.
        key: String,
        /// All keys.
        known: &'static [&'static str],
    },
    /// The value does not parse for the key.
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        allowed: &'static str,
    },
}

impl fmt::Display for SimConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimConfigError::UnknownKey { key, known } => {
                write!(
                    f,
                    "unknown sim key '{key}'; known keys: {}",
                    known.join(", ")
                )
            }
            SimConfigError::BadValue {
                key,
                value,
                allowed,
            } => write!(f, "bad value '{value}' for {key}: allowed {allowed}"),
        }
    }
}

impl std::error::Error for SimConfigError {}

/// `a`, `b` and `c` one after the other (`N = A + B + C`).
const fn concat3<const A: usize, const B: usize, const C: usize, const N: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
    c: [&'static str; C],
) -> [&'static str; N] {
    assert!(N == A + B + C, "N must be A + B + C");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < A {
            a[i]
        } else if i < A + B {
            b[i - A]
        } else {
            c[i - A - B]
        };
        i += 1;
    }
    out
}

impl SimConfig {
    /// The VC allocator: [`SimConfig::vc_allocator`], else [`SimConfig::allocator`].
    pub fn vc_allocator_kind(&self) -> Allocator {
        self.vc_allocator.unwrap_or(self.allocator)
    }

    /// Core's destination pattern of [`SimConfig::traffic`] (the hotspot with
    /// `hotspot_node` and `hotspot_fraction` in 1/1000).
    pub fn dest_pattern(&self) -> DestPattern {
        match self.traffic {
            Pattern::Uniform => DestPattern::Uniform,
            Pattern::BitComplement => DestPattern::BitComplement,
            Pattern::BitReversal => DestPattern::BitReversal,
            Pattern::BitRotation => DestPattern::BitRotation,
            Pattern::Shuffle => DestPattern::Shuffle,
            Pattern::Transpose => DestPattern::Transpose,
            Pattern::Tornado => DestPattern::BookSimTornado,
            Pattern::Neighbour => DestPattern::Neighbour,
            Pattern::RandomPermutation => DestPattern::Permutation,
            Pattern::Hotspot => DestPattern::Hotspot {
                node: self.hotspot_node,
                permille: (self.hotspot_fraction * 1000.0).round() as u16,
            },
            Pattern::Diagonal => DestPattern::Diagonal,
            Pattern::Asymmetric => DestPattern::Asymmetric,
            Pattern::Taper64 => DestPattern::Taper64,
            Pattern::BadDragon => DestPattern::BadDragon {
                k: self.extras.bad_dragon_k,
            },
            Pattern::Hotspots => DestPattern::Hotspots,
        }
    }

    /// Every key [`SimConfig::set`] accepts: the pipeline and channel keys, the class
    /// latencies ([`ClassLatency::KEYS`]), then the rest.
    pub const KEYS: &'static [&'static str] = &concat3::<_, _, _, 62>(
        [
            "num_vcs",
            "vc_buf_size",
            "packet_size",
            "routing_delay",
            "vc_alloc_delay",
            "sw_alloc_delay",
            "st_delay",
            "terminal_latency",
            "link_latency",
        ],
        ClassLatency::KEYS,
        [
            "credit_delay",
            "internal_speedup",
            "output_buffer_size",
            "allocator",
            "vc_allocator",
            "wait_for_tail_credit",
            "hold_switch_for_packet",
            "input_speedup",
            "output_speedup",
            "alloc_iters",
            "vc_alloc_stage",
            "speculative",
            "booksim_credits",
            "exact_vcs",
            "router",
            "injection",
            "injection_rate",
            "rate_in_flits",
            "batch_size",
            "traffic",
            "hotspot_node",
            "hotspot_fraction",
            "seed",
            "warmup_periods",
            "sample_period",
            "max_samples",
            "latency_thres",
            "warmup_thres",
            "stopping_thres",
            "drain",
            "watchdog_cycles",
            "self_packets",
            "injection_delay",
            "inject_any_vc",
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
        ],
    );

    /// BookSim2's input-queued router with its default parameters (booksim2
    /// `src/booksim_config.cpp`): `num_vcs = 16`, `vc_buf_size = 8`, `routing_delay = 1`,
    /// `vc_alloc_delay = 1`, `sw_alloc_delay = 1`, `st_prepare_delay = 0` +
    /// `st_final_delay = 1` (→ `st_delay = 1`), `credit_delay = 0`, `internal_speedup = 1.0`,
    /// `vc_allocator = sw_allocator = islip`, `injection_rate = 0.1` packets
    /// (`injection_rate_uses_flits = 0`), `const_flits_per_packet = 1`,
    /// `injection_process = bernoulli`, `traffic = uniform`, `warmup_periods = 0`,
    /// `sample_period = 1000`, `max_samples = 10`, `latency_thres = 500`,
    /// `warmup_thres = stopping_thres = 0.05`, `seed = 0`, `deadlock_warn_timeout = 256`; all
    /// channels (injection, ejection, network) have latency 1 as in BookSim2's torus/mesh
    /// networks.
    ///
    /// The preset keeps jumpnet's own choices where BookSim2's differ: a flit enters the
    /// injection channel in the cycle it is sent (BookSim2: one cycle later,
    /// `injection_delay = 1`), terminals inject on the routing's VC (BookSim2: any,
    /// `inject_any_vc`), self-addressed packets are dropped (BookSim2 sends them,
    /// `self_packets`), no warm-up periods and 1-cycle channels; `jumpnet sim --booksim`
    /// sets all of these as BookSim2 has them (docs/booksim.md §2–§4).
    ///
    /// Zero-load latency of one packet of `L` flits over `H` router-to-router hops
    /// (`H + 1` routers), `t_r` = routing + VC alloc + switch alloc + switch traversal
    /// delays, `t_c` channel latency (all 1), from creation to the tail's arrival:
    /// `T0 = t_c + (H + 1)·t_r + H·t_c + t_c + (L - 1)` = `5H + L + 5` with the defaults
    /// (injection channel, per-router pipeline, links, ejection channel, serialisation).
    ///
    /// With an integral `internal_speedup = S` the `n` one-cycle stages of a router (4 here)
    /// take `n` internal steps, `⌈n/S⌉` cycles:
    /// `T0 = t_c + (H + 1)·⌈n/S⌉ + H·t_c + t_c + (L - 1)`, i.e. `3H + L + 3` for `S = 2`
    /// and `2H + L + 2` for `S ≥ 4` (a fractional `S` follows `sim::router::speedup`'s step
    /// numbering).
    pub fn booksim() -> Self {
        SimConfig {
            num_vcs: 16,
            vc_buf_size: 8,
            packet_size: 1,
            routing_delay: 1,
            vc_alloc_delay: 1,
            sw_alloc_delay: 1,
            st_delay: 1,
            terminal_latency: 1,
            link_latency: 1,
            class_latency: ClassLatency::default(),
            switch_layout: None,
            credit_delay: 0,
            internal_speedup: Speedup::ONE,
            output_buffer_size: None,
            allocator: Allocator::Islip,
            vc_allocator: None,
            features: RouterFeatures::default(),
            router: RouterKind::InputQueued,
            injection: Injection::Bernoulli,
            injection_rate: 0.1,
            rate_in_flits: false,
            batch_size: 1000,
            traffic: Pattern::Uniform,
            hotspot_node: 0,
            hotspot_fraction: 0.0,
            seed: 0,
            warmup_periods: 0,
            sample_period: 1000,
            max_samples: 10,
            latency_thres: 500.0,
            warmup_thres: 0.05,
            stopping_thres: 0.05,
            drain: true,
            watchdog_cycles: 256,
            self_packets: false,
            injection_delay: 0,
            inject_any_vc: false,
            extras: Extras::default(),
        }
    }

    /// The idealised router of docs/mapping.md §5 (\[GA\]): no pipeline delay in the router,
    /// one cycle per channel, 3 VCs, packets of 8 flits, a batch of 4 packets per node.
    ///
    /// Injection and reception cost one cycle each (terminal channels of latency 1), a flit
    /// crosses a link per cycle and the router adds nothing, so a packet of `L` flits over
    /// `H` router-to-router hops, alone in the network, is received completely
    /// `T0 = H + L + 1` cycles after its creation (head: 1 injection + `H` links + 1
    /// reception; the tail `L - 1` cycles behind). `P` back-to-back packets to a neighbour
    /// (`H = 1`, conflict free) end at `1 + P·L + 1`: 4 packets of 8 flits take exactly 34
    /// cycles (docs/mapping.md §5).
    pub fn ga() -> Self {
        SimConfig {
            num_vcs: 3,
            vc_buf_size: 8,
            packet_size: 8,
            routing_delay: 0,
            vc_alloc_delay: 0,
            sw_alloc_delay: 0,
            st_delay: 0,
            terminal_latency: 1,
            link_latency: 1,
            class_latency: ClassLatency::default(),
            switch_layout: None,
            credit_delay: 0,
            internal_speedup: Speedup::ONE,
            output_buffer_size: None,
            allocator: Allocator::SeparableVc,
            vc_allocator: None,
            features: RouterFeatures::default(),
            router: RouterKind::InputQueued,
            injection: Injection::Batch,
            injection_rate: 1.0,
            rate_in_flits: true,
            batch_size: 4,
            traffic: Pattern::Neighbour,
            hotspot_node: 0,
            hotspot_fraction: 0.0,
            seed: 0,
            warmup_periods: 0,
            sample_period: 1000,
            max_samples: 10,
            latency_thres: 500.0,
            warmup_thres: 0.05,
            stopping_thres: 0.05,
            drain: true,
            watchdog_cycles: 256,
            self_packets: false,
            injection_delay: 0,
            inject_any_vc: false,
            extras: Extras::default(),
        }
    }

    /// Router pipeline delay `routing + vc_alloc + sw_alloc + st` of one head flit.
    pub fn router_delay(&self) -> u32 {
        u32::from(self.routing_delay)
            + u32::from(self.vc_alloc_delay)
            + u32::from(self.sw_alloc_delay)
            + u32::from(self.st_delay)
    }

    /// Sets `key` to `value` (the CLI's `key=value` overrides); unknown keys and bad values
    /// are named in the error.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SimConfigError> {
        let v = Value { key, value };
        match key {
            "num_vcs" => self.num_vcs = v.positive(U8P)?,
            "vc_buf_size" => self.vc_buf_size = v.positive(U16P)?,
            "packet_size" => {
                // The last of `packet_size` and `packet_sizes` wins.
                self.packet_size = v.positive(U16P)?;
                self.extras.packet_sizes = None;
            }
            "routing_delay" => self.routing_delay = v.num(U16)?,
            "vc_alloc_delay" => self.vc_alloc_delay = v.num(U16)?,
            "sw_alloc_delay" => self.sw_alloc_delay = v.num(U16)?,
            "st_delay" => self.st_delay = v.num(U16)?,
            "terminal_latency" => self.terminal_latency = v.positive(U16P)?,
            "link_latency" => self.link_latency = v.positive(U16P)?,
            k if ClassLatency::KEYS.contains(&k) => {
                let lat = v.positive(U16P)?;
                if let Some(slot) = self.class_latency.slot(k) {
                    *slot = Some(lat);
                }
            }
            "credit_delay" => self.credit_delay = v.num(U16)?,
            "internal_speedup" => {
                self.internal_speedup =
                    Speedup::parse(value).ok_or_else(|| v.bad(Speedup::ALLOWED))?
            }
            "output_buffer_size" => {
                self.output_buffer_size = match value.trim() {
                    "-1" => None,
                    _ => Some(v.positive("-1 (unlimited) or an integer 1..=4294967295")?),
                }
            }
            "allocator" => self.allocator = v.allocator()?,
            "vc_allocator" => self.vc_allocator = Some(v.allocator()?),
            k if RouterFeatures::KEYS.contains(&k) => self
                .features
                .set(k, value)
                .map_err(|allowed| v.bad(allowed))?,
            "router" => {
                self.router =
                    RouterKind::parse(value.trim()).ok_or_else(|| v.bad(RouterKind::ALLOWED))?
            }
            _ => return self.set_traffic_or_phase(v),
        }
        Ok(())
    }

    /// [`SimConfig::set`] for the traffic keys and the keys of a run's phases.
    fn set_traffic_or_phase(&mut self, v: Value<'_>) -> Result<(), SimConfigError> {
        let value = v.value;
        match v.key {
            "injection" => {
                self.injection = Injection::WORDS
                    .iter()
                    .find(|(_, w)| *w == value.trim())
                    .map(|(i, _)| *i)
                    .ok_or_else(|| v.bad("bernoulli, batch, on_off, booksim_batch"))?
            }
            "injection_rate" => self.injection_rate = v.fraction()?,
            "rate_in_flits" => self.rate_in_flits = v.boolean()?,
            "batch_size" => self.batch_size = v.num(U32)?,
            "traffic" => {
                self.traffic =
                    Pattern::from_word(value.trim()).ok_or_else(|| v.bad(Pattern::ALLOWED))?
            }
            "hotspot_node" => self.hotspot_node = v.num(U32)?,
            "hotspot_fraction" => self.hotspot_fraction = v.fraction()?,
            "seed" => self.seed = v.num("an integer 0..=2^64-1")?,
            "warmup_periods" => self.warmup_periods = v.num(U32)?,
            "sample_period" => self.sample_period = v.positive(U32P)?,
            "max_samples" => self.max_samples = v.positive(U32P)?,
            "latency_thres" => self.latency_thres = v.num(F)?,
            "warmup_thres" => self.warmup_thres = v.num(F)?,
            "stopping_thres" => self.stopping_thres = v.num(F)?,
            "drain" => self.drain = v.boolean()?,
            "watchdog_cycles" => self.watchdog_cycles = v.positive(U32P)?,
            "self_packets" => self.self_packets = v.boolean()?,
            "injection_delay" => self.injection_delay = v.num(U16)?,
            "inject_any_vc" => self.inject_any_vc = v.boolean()?,
            "packet_sizes" => {
                self.extras.set(v).unwrap_or(Ok(()))?;
                if let Some(d) = &self.extras.packet_sizes {
                    self.packet_size = d.longest();
                }
            }
            _ => {
                if let Some(r) = self.extras.set(v) {
                    return r;
                }
                return Err(SimConfigError::UnknownKey {
                    key: v.key.to_string(),
                    known: Self::KEYS,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
