//! BookSim2's traffic classes (`classes = N`, docs/booksim.md §3.5): what each class of a
//! run injects and the stopping thresholds its statistics are held to. A run with one class
//! has no [`TrafficClass`] list and takes these parameters from the [`SimConfig`] itself.

use serde::Serialize;

use super::{Injection, PacketSizes, Pattern, ReadWrite, SimConfig};

/// The simulator keys a traffic class sets for itself: with classes, a `sim.KEY=` word or a
/// sweep axis on one of them would change no class, so it is refused
/// (`sim::setup`).
pub const CLASS_KEYS: [&str; 17] = [
    "traffic",
    "hotspots",
    "bad_dragon_k",
    "injection_rate",
    "rate",
    "rate_in_flits",
    "packet_size",
    "packet_sizes",
    "injection",
    "burst_alpha",
    "burst_beta",
    "burst_r1",
    "latency_thres",
    "warmup_thres",
    "stopping_thres",
    "acc_warmup_thres",
    "acc_stopping_thres",
];

/// One traffic class: its own destination pattern, injection process, rate and packet
/// size, its priority (BookSim2's `class_priority`, used with `priority = class`) and its
/// stopping thresholds (BookSim2 reads all of them per class, `trafficmanager.cpp`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrafficClass {
    /// Destination pattern.
    pub traffic: Pattern,
    /// Hotspots of [`Pattern::Hotspots`]: `(node, weight)`.
    pub hotspots: Vec<(u32, u32)>,
    /// Terminals per router of [`Pattern::BadDragon`].
    pub bad_dragon_k: u32,
    /// Injection rate, in the unit of the run's `rate_in_flits`.
    pub injection_rate: f64,
    /// Packet size, flits (with a size distribution its longest size).
    pub packet_size: u16,
    /// The class's packet size distribution (BookSim2's `packet_size = {{…}}` item of the
    /// class with its `packet_size_rate`, docs/booksim.md §3.5); `None`: every packet
    /// `packet_size` flits. Left out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet_sizes: Option<PacketSizes>,
    /// Injection process ([`Injection::Bernoulli`] or [`Injection::OnOff`]; in BookSim2's batch
    /// mode [`Injection::BookSimBatch`]: the batch source the classes share creates the packets).
    pub injection: Injection,
    /// On/off: `burst_alpha`.
    pub burst_alpha: f64,
    /// On/off: `burst_beta`.
    pub burst_beta: f64,
    /// On/off: `burst_r1`.
    pub burst_r1: f64,
    /// BookSim2's `class_priority` (higher wins; only with `priority = class`).
    pub priority: u32,
    /// `latency_thres` of this class.
    pub latency_thres: f64,
    /// `warmup_thres` of this class.
    pub warmup_thres: f64,
    /// `acc_warmup_thres` of this class.
    pub acc_warmup_thres: f64,
    /// `stopping_thres` of this class.
    pub stopping_thres: f64,
    /// `acc_stopping_thres` of this class.
    pub acc_stopping_thres: f64,
    /// BookSim2's read/write traffic of this class (`use_read_write` and its keys per class,
    /// docs/booksim.md §3.6): its write fraction and sizes (the VC ranges are every class's);
    /// `None` for ordinary packets. Left out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_write: Option<ReadWrite>,
}

impl TrafficClass {
    /// The class `cfg` describes (its traffic, process, sizes and thresholds), with
    /// priority `priority`.
    pub fn of(cfg: &SimConfig, priority: u32) -> Self {
        let e = &cfg.extras;
        TrafficClass {
            traffic: cfg.traffic,
            hotspots: e.hotspots.clone(),
            bad_dragon_k: e.bad_dragon_k,
            injection_rate: cfg.injection_rate,
            packet_size: cfg.packet_size,
            packet_sizes: e.packet_sizes.clone(),
            injection: cfg.injection,
            burst_alpha: e.burst_alpha,
            burst_beta: e.burst_beta,
            burst_r1: e.burst_r1,
            priority,
            latency_thres: cfg.latency_thres,
            warmup_thres: cfg.warmup_thres,
            acc_warmup_thres: e.acc_warmup_thres,
            stopping_thres: cfg.stopping_thres,
            acc_stopping_thres: e.acc_stopping_thres,
            read_write: e.read_write.clone(),
        }
    }

    /// `cfg` with this class's parameters: the configuration its traffic driver and its
    /// stopping rule read.
    pub fn apply(&self, cfg: &SimConfig) -> SimConfig {
        let mut c = cfg.clone();
        c.extras.classes = Vec::new();
        c.traffic = self.traffic;
        c.extras.hotspots = self.hotspots.clone();
        c.extras.bad_dragon_k = self.bad_dragon_k;
        c.injection_rate = self.injection_rate;
        c.packet_size = self.packet_size;
        c.extras.packet_sizes = self.packet_sizes.clone();
        c.injection = self.injection;
        c.extras.burst_alpha = self.burst_alpha;
        c.extras.burst_beta = self.burst_beta;
        c.extras.burst_r1 = self.burst_r1;
        c.latency_thres = self.latency_thres;
        c.warmup_thres = self.warmup_thres;
        c.extras.acc_warmup_thres = self.acc_warmup_thres;
        c.stopping_thres = self.stopping_thres;
        c.extras.acc_stopping_thres = self.acc_stopping_thres;
        c
    }
}
