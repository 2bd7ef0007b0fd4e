//! BookSim2 configuration files (`jumpnet sim --booksim FILE`): BookSim2's keys, with its
//! defaults and meaning, mapped onto a jumpnet topology, routing and [`SimConfig`]
//! (docs/booksim.md).
//!
//! Syntax as BookSim2's `config.l`/`config.y`: statements `key = value;`, `//` comments to
//! the end of the line, values are numbers, names or `{...}` lists. Every key of BookSim2's
//! `booksim_config.cpp` is known ([`keys::KEYS`]) and starts at BookSim2's default (an
//! 8-ary 2-cube torus, 16 VCs of 8 flits, 3 warm-up periods, …); `routing_function` must be
//! given. A key is either mapped with BookSim2's meaning, or steers only BookSim2's output
//! (accepted, listed in [`BookSimConfig::ignored`]), or names a behaviour jumpnet models
//! only at BookSim2's default (that value is accepted, another is refused by name). The
//! same statements may follow the file on the command line as `key=value` words
//! ([`parse_with`]), as BookSim2's own command line takes them.
//!
//! | BookSim2 | jumpnet |
//! |---|---|
//! | `topology = torus; k; n` | `torus k=k,…,k` (n times), `dim_latency` 2 (`use_noc_latency = 1`) or 1 |
//! | `topology = mesh; k; n` | `mesh k=k,…,k`, `dim_latency` 1 |
//! | `topology = flatfly; k; n; c; x; xr` | `hyperx s=k,…,k t=c`, channels as long as BookSim2's chip layout (`use_noc_latency = 1`, [`flatfly`]) or 1 |
//! | `topology = dragonflynew; k = p; n = 1` | `dragonfly p=p a=2p h=p g=a·h+1`, `local_latency` 10, `global_latency` 100 |
//! | `topology = fattree; k; n` | `fat-tree k=k n=n` (same routers, ports and node numbers), channels 1 cycle |
//! | `routing_function = nca` / `anca` (fattree) | `nca` / `anca` (random / adaptive up ports; docs/routing.md §5.1) |
//! | `routing_function = dim_order` (torus) | `dor-booksim` (BookSim2's wrap classes on halves of the VCs, random ties; docs/routing.md §2) |
//! | `dim_order` / `dor` (mesh, flatfly), `xyyx` (flatfly) | `dor` |
//! | `min` / `ran_min` (flatfly) | `minimal` |
//! | `min` (dragonfly) | `df-minimal`; `valiant`: `df-valiant`; `ugal`: `df-ugal-booksim` (BookSim2's rule; `--algo df-ugal-l` is jumpnet's) |
//! | `packet_size` | `packet_size` |
//! | `packet_size = {{1,4,8}}`, `packet_size_rate = {{3,1,1}}` (per class) | `extras.packet_sizes` (`packet_sizes = 1:3,4:1,8:1`; [`packet_sizes`]; docs/booksim.md §3.5) |
//! | `injection_rate_uses_flits` | `rate_in_flits` |
//! | `st_prepare_delay + st_final_delay` | `st_delay` |
//! | `sw_allocator`, `vc_allocator` | `allocator`, and `vc_allocator` when the two differ |
//! | `deadlock_warn_timeout` | `watchdog_cycles` |
//! | `sim_type = latency / throughput` | `drain = true / false`, BookSim2's stopping rule (`stop_rule = booksim`) |
//! | `sim_type = batch`, `batch_size`, `batch_count`, `max_outstanding_requests` | `injection = booksim_batch`, `batch_size`, `batch_count`, `max_outstanding` (one batch source for all classes) |
//! | `injection_process = on_off`, `burst_alpha`, `burst_beta`, `burst_r1` | `injection = on_off` with the same keys |
//! | `traffic = hotspot({{nodes},{rates}})`, `bad_dragon` | `traffic = hotspots` (`hotspots = node:rate,…`), `bad_dragon` (`bad_dragon_k`) |
//! | `traffic = randperm`, `perm_seed` | `traffic = randperm` with `perm_seed`: BookSim2's permutation (docs/booksim.md §3.8) |
//! | `classes = N`, per-class `{a,b}` lists of `traffic`, `injection_rate`, `packet_size`, `injection_process`, `class_priority`, thresholds | `extras.classes` ([`classes`]; docs/booksim.md §3.5) |
//! | `priority = class`, `age`, `network_age`, `local_age`, `queue_length`, `hop_count`, `sequence` | `extras.priority` (docs/booksim.md §3.5, `sim::router::priority`) |
//! | `use_read_write = 1`, `write_fraction`, `*_size`, `*_begin_vc`, `*_end_vc` | `extras.read_write` ([`read_write`]; docs/booksim.md §3.6) |
//! | `seed`, BookSim2's source and its draws | `seed`, `draws = booksim` (docs/booksim.md §3.9; `draws=jumpnet` for jumpnet's own) |
//!
//! `num_vcs`, `vc_buf_size`, `injection_rate`, `traffic`, `routing_delay`,
//! `vc_alloc_delay`, `sw_alloc_delay`, `credit_delay`, `internal_speedup` (up to three
//! decimals), `output_buffer_size`, `warmup_periods`, `sample_period`, `max_samples`,
//! `latency_thres`, `warmup_thres`, `stopping_thres` and `seed` (a number; `time` is
//! refused: runs are deterministic) keep their names. Packets a pattern addresses to their
//! source are kept (`self_packets = true`), and `uniform` draws the source too, as in
//! BookSim2; a terminal's flit enters its channel a cycle after it is sent
//! (`injection_delay = 1`) and may use any VC of the injection channel
//! (`inject_any_vc = true`, docs/booksim.md §4); heads go through BookSim2's VC allocation
//! stage (`vc_alloc_stage = true`). `alloc_iters` is without effect, as in BookSim2.

pub mod allocators;
pub mod classes;
#[cfg(test)]
mod classes_tests;
pub mod flatfly;
pub mod irregular;
pub mod keys;
pub mod network;
pub mod packet_sizes;
pub mod read_write;
#[cfg(test)]
mod read_write_tests;
pub mod traffic;
#[cfg(test)]
mod tree_tests;

use anyhow::{anyhow, bail, Result};

use crate::builder::routing::RouteAlgo;
use crate::builder::topology::TopologySpec;
use crate::sim::config::{Draws, Injection, Pattern, SimConfig, StopRule, TrafficClass};
use crate::sim::router::priority::Priority;
use keys::KeyUse;

/// A BookSim2 configuration mapped onto jumpnet.
#[derive(Clone, Debug, PartialEq)]
pub struct BookSimConfig {
    /// The topology.
    pub topology: TopologySpec,
    /// The routing.
    pub algo: RouteAlgo,
    /// Simulator parameters (BookSim2 defaults with the file's keys applied).
    pub config: SimConfig,
    /// Keys accepted without effect on the simulation (output, power model, bookkeeping),
    /// in file order.
    pub ignored: Vec<String>,
}

/// One `key = value;` statement with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Key.
    pub key: String,
    /// Value as written (lists keep their braces).
    pub value: String,
    /// 1-based line of the key.
    pub line: usize,
}

/// Splits BookSim2 config text into statements (comments removed).
pub fn statements(text: &str) -> Result<Vec<Statement>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start_line = 1;
    let mut depth = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("");
        for ch in line.chars() {
            if cur.trim().is_empty() {
                start_line = i + 1;
            }
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth
                        .checked_sub(1)
                        .ok_or_else(|| anyhow!("line {}: '}}' without '{{'", i + 1))?
                }
                ';' if depth == 0 => {
                    out.push(statement(&cur, start_line)?);
                    cur.clear();
                    continue;
                }
                _ => {}
            }
            cur.push(ch);
        }
        cur.push(' ');
    }
    if !cur.trim().is_empty() {
        bail!(
            "line {start_line}: '{}' is not ended by ';' (BookSim2 statements are `key = value;`)",
            cur.trim()
        );
    }
    Ok(out)
}

fn statement(s: &str, line: usize) -> Result<Statement> {
    let Some((k, v)) = s.split_once('=') else {
        bail!(
            "line {line}: '{}' is not a `key = value;` statement",
            s.trim()
        );
    };
    let (key, value) = (k.trim(), v.trim());
    let valid = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.';
    if key.is_empty() || !key.chars().all(valid) || value.is_empty() {
        bail!(
            "line {line}: '{}' is not a `key = value;` statement",
            s.trim()
        );
    }
    Ok(Statement {
        key: key.to_string(),
        value: value.to_string(),
        line,
    })
}

/// Parses a BookSim2 configuration file's text (see the module documentation).
pub fn parse(text: &str) -> Result<BookSimConfig> {
    parse_with(text, &[])
}

/// Parses a BookSim2 configuration file's text followed by `key=value` overrides (BookSim2's
/// command line: each word is a statement applied after the file's).
pub fn parse_with(text: &str, overrides: &[String]) -> Result<BookSimConfig> {
    let mut p = Parser::default();
    for st in statements(text)? {
        p.statement(&st)?;
    }
    for w in overrides {
        let st = statement(w, 0).map_err(|_| {
            anyhow!("'{w}' is not a BookSim2 `key=value` override (e.g. injection_rate=0.2)")
        })?;
        p.statement(&st)
            .map_err(|e| anyhow!("{}", e.to_string().replace("line 0: ", "command line: ")))?;
    }
    p.finish()
}

/// What the statements of a file set so far.
struct Parser {
    cfg: SimConfig,
    ignored: Vec<String>,
    /// `topology`, `k`, `n`, `c`, the layout keys and `network_file`.
    net: network::NetKeys,
    use_noc_latency: bool,
    /// `routing_function` and its line.
    routing: Option<(String, usize)>,
    st_prepare: u16,
    st_final: u16,
    /// `vc_allocator` / `sw_allocator`: value and line.
    vc_allocator: (String, usize),
    sw_allocator: (String, usize),
    /// `traffic`, `injection_process`, `sim_type`: value and line (read once `k` is known).
    traffic: (String, usize),
    injection_process: (String, usize),
    sim_type: (String, usize),
    /// `spec_*` keys given: key, value, line (checked against `speculative` at the end).
    spec_keys: Vec<(String, String, usize)>,
    /// `classes` and its line; the per-class lists; the plain `class_priority`; `priority`
    /// and `measure_stats` with their lines (docs/booksim.md §3.5).
    classes: (u32, usize),
    class_lists: classes::ClassLists,
    class_priority: u32,
    priority: (String, usize),
    measure_stats: (String, usize),
    /// The read/write keys (docs/booksim.md §3.6).
    rw: read_write::RwKeys,
    /// `packet_size_rate` (docs/booksim.md §3.5).
    size_rates: packet_sizes::SizeRates,
    /// `perm_seed` and whether a statement gave it (docs/booksim.md §3.8).
    perm_seed: (i32, bool),
}

impl Default for Parser {
    /// BookSim2's defaults: its router parameters, its simulation phases, an 8-ary 2-cube
    /// torus, self-addressed packets kept.
    fn default() -> Self {
        let mut cfg = SimConfig::booksim();
        cfg.warmup_periods = 3;
        cfg.self_packets = true;
        cfg.injection_delay = 1;
        cfg.inject_any_vc = true;
        cfg.features.vc_alloc_stage = true;
        cfg.features.booksim_credits = true;
        cfg.extras.stop_rule = StopRule::BookSim;
        cfg.extras.draws = Draws::BookSim;
        Parser {
            cfg,
            ignored: Vec::new(),
            net: network::NetKeys::default(),
            use_noc_latency: true,
            routing: None,
            st_prepare: 0,
            st_final: 1,
            vc_allocator: ("islip".to_string(), 0),
            sw_allocator: ("islip".to_string(), 0),
            traffic: ("uniform".to_string(), 0),
            injection_process: ("bernoulli".to_string(), 0),
            sim_type: ("latency".to_string(), 0),
            spec_keys: Vec::new(),
            classes: (1, 0),
            class_lists: classes::ClassLists::default(),
            class_priority: 0,
            priority: ("none".to_string(), 0),
            measure_stats: ("1".to_string(), 0),
            rw: read_write::RwKeys::default(),
            size_rates: packet_sizes::SizeRates::default(),
            perm_seed: (0, false),
        }
    }
}

impl Parser {
    /// Applies one statement.
    fn statement(&mut self, st: &Statement) -> Result<()> {
        let (key, value, line) = (st.key.as_str(), st.value.as_str(), st.line);
        let at = |e: String| anyhow!("line {line}: {e}");
        let int = |what: &str| -> Result<u32> {
            value.parse().map_err(|_| {
                at(format!(
                    "{key} = {value}: {what} must be a non-negative integer"
                ))
            })
        };
        if read_write::is_key(key) {
            // Without effect (listed so) unless `use_read_write` is on (`finish`).
            self.rw.note(key, value, line);
            return match key {
                "use_read_write" => Ok(()),
                _ => self.other(key, value).map_err(at),
            };
        }
        self.rw.packet_size_given |= key == "packet_size";
        if self.class_lists.note(key, value, line)? {
            return Ok(());
        }
        let cfg = &mut self.cfg;
        let mut set = |jkey: &str, v: &str| cfg.set(jkey, v).map_err(|e| at(format!("{key}: {e}")));
        match key {
            "topology" => self.net.topology = value.to_string(),
            "classes" => match int("classes")? {
                0 => return Err(at("classes = 0: BookSim2 needs at least one class".into())),
                n => self.classes = (n, line),
            },
            "class_priority" => self.class_priority = int("class_priority")?,
            "priority" => self.priority = (value.to_string(), line),
            "measure_stats" => self.measure_stats = (value.to_string(), line),
            "k" => self.net.k = int("k")?,
            "n" => self.net.n = int("n")?,
            "c" => self.net.c = int("c")?,
            // Read by some topologies only; `finish` drops them from `ignored` then.
            "x" | "y" | "xr" | "yr" => {
                let v = int(key)?;
                let l = &mut self.net.layout;
                *match key {
                    "x" => &mut l.x,
                    "y" => &mut l.y,
                    "xr" => &mut l.xr,
                    _ => &mut l.yr,
                } = v;
                self.ignored.push(key.into());
            }
            "network_file" => {
                self.net.network_file = value.to_string();
                self.ignored.push(key.into());
            }
            "use_noc_latency" => self.use_noc_latency = int("use_noc_latency")? == 1,
            "routing_function" => self.routing = Some((value.to_string(), line)),
            "num_vcs" | "vc_buf_size" | "injection_rate" | "routing_delay" | "vc_alloc_delay"
            | "sw_alloc_delay" | "credit_delay" | "warmup_periods" | "sample_period"
            | "max_samples" | "latency_thres" | "warmup_thres" | "stopping_thres"
            | "internal_speedup" | "output_buffer_size" => set(key, value)?,
            "traffic" => self.traffic = (value.to_string(), line),
            "injection_process" => self.injection_process = (value.to_string(), line),
            "sim_type" => self.sim_type = (value.to_string(), line),
            "packet_size" => set("packet_size", value)?,
            "packet_size_rate" => self.size_rates.note(value, line)?,
            "injection_rate_uses_flits" => set("rate_in_flits", value)?,
            "burst_alpha" | "burst_beta" | "burst_r1" | "batch_size" | "batch_count"
            | "acc_warmup_thres" | "acc_stopping_thres" => set(key, value)?,
            "max_outstanding_requests" => set("max_outstanding", value)?,
            "wait_for_tail_credit" | "hold_switch_for_packet" | "speculative" => {
                // BookSim2 reads `GetInt(key) > 0`.
                set(key, if int(key)? > 0 { "1" } else { "0" })?
            }
            "input_speedup" | "output_speedup" => set(key, value)?,
            "st_prepare_delay" => self.st_prepare = int("st_prepare_delay")?.try_into()?,
            "st_final_delay" => self.st_final = int("st_final_delay")?.try_into()?,
            "vc_allocator" => self.vc_allocator = (value.to_string(), line),
            "sw_allocator" => self.sw_allocator = (value.to_string(), line),
            "deadlock_warn_timeout" => set("watchdog_cycles", value)?,
            "seed" => {
                if value == "time" {
                    return Err(at(
                        "seed = time is not supported: jumpnet runs are deterministic; give a number"
                            .into(),
                    ));
                }
                set("seed", value)?;
            }
            "perm_seed" => {
                // BookSim2 reads an `int`; `time` (the clock) is refused as `seed = time` is.
                let seed = value.parse().map_err(|_| {
                    at(format!(
                        "perm_seed = {value}: must be an integer -2147483648..=2147483647 \
                         (BookSim2's `time` is not supported: jumpnet runs are deterministic)"
                    ))
                })?;
                self.perm_seed = (seed, true);
            }
            "spec_check_elig" | "spec_check_cred" | "spec_sw_allocator" => {
                self.spec_keys.push((key.into(), value.into(), line));
                self.other(key, value).map_err(at)?
            }
            _ => self.other(key, value).map_err(at)?,
        }
        Ok(())
    }

    /// With `speculative = 1`: the `spec_*` keys that change what jumpnet models must be
    /// at BookSim2's defaults (`spec_mask_by_reqs` only acts with a `spec_sw_allocator`),
    /// and the allocation stages one cycle each (docs/booksim.md §4).
    fn check_speculation(&mut self) -> Result<()> {
        if !self.cfg.features.speculative {
            return Ok(());
        }
        for (key, value, line) in &self.spec_keys {
            let default = keys::find(key).map_or("", |k| k.default);
            if !keys::is_default(value, default) {
                bail!(
                    "line {line}: {key} = {value} is not supported with speculative = 1: jumpnet \
                     models speculation only at BookSim2's default {key} = {default}"
                );
            }
        }
        self.ignored
            .retain(|k| !self.spec_keys.iter().any(|(s, _, _)| s == k));
        let (v, s) = (self.cfg.vc_alloc_delay, self.cfg.sw_alloc_delay);
        if (v, s) != (1, 1) {
            bail!(
                "speculative = 1 with vc_alloc_delay = {v}, sw_alloc_delay = {s} is not \
                 supported: jumpnet models speculation with both delays 1"
            );
        }
        Ok(())
    }

    /// A key jumpnet does not map: without effect, accepted at its default, or an error.
    fn other(&mut self, key: &str, value: &str) -> Result<(), String> {
        let Some(known) = keys::find(key) else {
            return Err(format!(
                "unknown BookSim2 key '{key}' (BookSim2 refuses it too); docs/booksim.md §2 lists its {} keys",
                keys::KEYS.len()
            ));
        };
        match known.used {
            KeyUse::Output => {
                self.ignored.push(key.to_string());
                Ok(())
            }
            KeyUse::DefaultOnly if keys::is_default(value, known.default) => Ok(()),
            KeyUse::DefaultOnly | KeyUse::Mapped => {
                Err(format!(
                "{key} = {value} is not supported: jumpnet models this BookSim2 feature only at \
                 BookSim2's default {key} = {}",
                if known.default.is_empty() { "\"\"" } else { known.default }
            ))
            }
        }
    }

    /// The configuration: switch traversal delay, allocator, topology, channel latencies
    /// and routing.
    fn finish(mut self) -> Result<BookSimConfig> {
        self.cfg.st_delay = self.st_prepare + self.st_final;
        self.check_speculation()?;
        let texts = self.first_class()?;
        let pre = self.cfg.clone();
        self.traffic_and_phases()?;
        self.cfg.extras.classes = self.class_list(&pre, &texts)?;
        self.priority_mode()?;
        self.allocators()?;
        let topology = &self.net.topology;
        let topo = network::topology_spec(&self.net)?;
        if topology == "flatfly" {
            let (k, n, c) = (self.net.k, self.net.n, self.net.c);
            self.cfg.switch_layout =
                flatfly::layout(k, n, c, self.net.layout, self.use_noc_latency)?;
        }
        self.ignored.retain(|k| !network::reads_key(topology, k));
        let (traffic, traffic_line) = &self.traffic;
        irregular::check_traffic(topology, traffic)
            .and_then(|()| match topology.as_str() {
                "flatfly" => flatfly::check_traffic(self.net.c, traffic),
                _ => Ok(()),
            })
            .map_err(|e| anyhow!("line {traffic_line}: {e}"))?;
        for (key, latency) in network::channel_latencies(topology, self.use_noc_latency) {
            self.cfg.set(key, &latency.to_string())?;
        }
        let Some((rf, line)) = self.routing.clone() else {
            bail!(
                "routing_function is missing; for {topology} use {}",
                network::routing_names(topology)
            );
        };
        let algo = network::routing_algo(topology, &rf).map_err(|e| anyhow!("line {line}: {e}"))?;
        // BookSim2's dragonfly routing functions name one VC per hop, the ejection's
        // included (docs/booksim.md §3).
        self.cfg.features.exact_vcs =
            matches!(algo, RouteAlgo::DfMinimal | RouteAlgo::DfUgalBookSim);
        self.read_write(algo)?;
        self.size_rates_use();
        self.perm_seed();
        Ok(BookSimConfig {
            topology: topo,
            algo,
            config: self.cfg,
            ignored: self.ignored,
        })
    }
}

impl Parser {
    /// Class 0's values of the per-class keys (docs/booksim.md §3.5): its list items become
    /// the configuration's own values (with `classes = 1` the only ones). Returns the
    /// per-class items of `traffic` and `injection_process`.
    fn first_class(&mut self) -> Result<[Vec<String>; 2]> {
        let texts = [
            classes::text_items(&self.traffic.0),
            classes::text_items(&self.injection_process.0),
        ];
        if texts.iter().any(Vec::is_empty) {
            bail!("traffic and injection_process need a value for every class (an empty list gives none)");
        }
        self.traffic.0 = texts[0][0].clone();
        self.injection_process.0 = texts[1][0].clone();
        self.cfg = self.class_config(&self.cfg, 0)?;
        Ok(texts)
    }

    /// `cfg` with item `class` of every numeric per-class list.
    fn class_config(&self, cfg: &SimConfig, class: usize) -> Result<SimConfig> {
        let mut c = cfg.clone();
        for (key, list, line) in self.class_lists.all() {
            let jkey = classes::LIST_KEYS
                .iter()
                .find(|(k, _)| k == key)
                .map_or("", |(_, j)| j);
            if jkey.is_empty() {
                continue;
            }
            let v = classes::item(list, class);
            if key == "packet_size" {
                // A size or a distribution (docs/booksim.md §3.5).
                packet_sizes::set_class(&mut c, v, *line, &self.size_rates, class)?;
                continue;
            }
            let at = match line {
                0 => "command line".to_string(),
                n => format!("line {n}"),
            };
            c.set(jkey, v)
                .map_err(|e| anyhow!("{at}: {key} item {v} (class {class}): {e}"))?;
        }
        Ok(c)
    }

    /// The classes of `classes > 1` (empty with one class): each from `pre` (the
    /// configuration before its traffic was read) with its items of the lists and of
    /// `traffic` / `injection_process` (`texts`), padded as BookSim2 pads them.
    fn class_list(&self, pre: &SimConfig, texts: &[Vec<String>; 2]) -> Result<Vec<TrafficClass>> {
        let n = self.classes.0 as usize;
        let at = |l: usize| {
            if l == 0 {
                "command line".to_string()
            } else {
                format!("line {l}")
            }
        };
        let measure = classes::text_items(&self.measure_stats.0);
        if measure.iter().any(|m| m.trim() != "1") && (n > 1 || measure.len() > 1) {
            bail!(
                "{}: measure_stats = {} is not supported: jumpnet measures every class (measure_stats = 1)",
                at(self.measure_stats.1),
                self.measure_stats.0
            );
        }
        let prios = classes::priorities(&self.class_lists, self.class_priority, n)?;
        if n == 1 {
            return Ok(Vec::new());
        }
        let topology = self.net.topology.as_str();
        let mut out = Vec::with_capacity(n);
        for (c, &prio) in prios.iter().enumerate() {
            let mut cc = self.class_config(pre, c)?;
            let traffic = classes::item(&texts[0], c);
            let process = classes::item(&texts[1], c);
            let (_, tline) = self.traffic;
            traffic::set_traffic(&mut cc, traffic, self.net.k, network::traffic_word)
                .and_then(|()| irregular::check_traffic(topology, traffic))
                .and_then(|()| match topology {
                    "flatfly" => flatfly::check_traffic(self.net.c, traffic),
                    _ => Ok(()),
                })
                .map_err(|e| anyhow!("{} (class {c}): {e}", at(tline)))?;
            traffic::set_process(&mut cc, process)
                .map_err(|e| anyhow!("{} (class {c}): {e}", at(self.injection_process.1)))?;
            if self.cfg.injection == Injection::BookSimBatch {
                // BookSim2's batch source creates every class's packets (docs/booksim.md
                // §3.5): the injection processes are not read.
                cc.injection = Injection::BookSimBatch;
            }
            out.push(TrafficClass::of(&cc, prio));
        }
        Ok(out)
    }

    /// `priority` (docs/booksim.md §3.5, `sim::router::priority`): BookSim2's modes `none`
    /// (every flit priority 0), `class` (a class's `class_priority`), `age`, `network_age`,
    /// `local_age`, `queue_length`, `hop_count` and `sequence`; `class_priority` is without
    /// effect (listed so) in every mode but `class`. A name BookSim2 does not know is
    /// refused, as BookSim2 refuses it.
    fn priority_mode(&mut self) -> Result<()> {
        let (value, line) = &self.priority;
        let given = self.class_lists.get("class_priority").is_some() || self.class_priority != 0;
        let Some(mode) = Priority::parse(value) else {
            bail!(
                "{}: priority = {value} is not a BookSim2 priority (BookSim2 refuses it too); \
                 allowed: {}",
                if *line == 0 {
                    "command line".to_string()
                } else {
                    format!("line {line}")
                },
                Priority::NAMES.map(|(_, n)| n).join(", ")
            );
        };
        if given && mode != Priority::Class {
            self.ignored.push("class_priority".into());
        }
        self.cfg.extras.priority = mode;
        Ok(())
    }
}

impl Parser {
    /// `use_read_write` (docs/booksim.md §3.6): with it on for a class, its keys take effect
    /// (no longer listed as without effect) and the class's packet size is BookSim2's mean
    /// size of its four kinds (`packet_size` listed as without effect if given and every
    /// class has read/write traffic; `write_fraction` so in batch mode, whose source draws a
    /// write with probability 0.5). `extras.read_write` is class 0's parameters (the
    /// first class's with read/write traffic), each class's in `extras.classes`.
    fn read_write(&mut self, algo: RouteAlgo) -> Result<()> {
        let ctx = read_write::Context {
            classes: self.classes.0,
            topology: &self.net.topology,
            algo,
        };
        let Some(per_class) = self.rw.read_write(&self.cfg, ctx)? else {
            return Ok(());
        };
        self.ignored.retain(|k| !read_write::is_key(k));
        if self.rw.packet_size_given && per_class.iter().all(Option::is_some) {
            self.ignored.push("packet_size".into());
        }
        if self.cfg.injection == Injection::BookSimBatch && self.rw.gives("write_fraction") {
            // BookSim2's batch mode draws writes with probability 0.5.
            self.ignored.push("write_fraction".into());
        }
        for (class, rw) in self.cfg.extras.classes.iter_mut().zip(&per_class) {
            if let Some(rw) = rw {
                class.packet_size = rw.mean_size();
                class.packet_sizes = None;
                class.read_write = Some(rw.clone());
            }
        }
        if let Some(Some(rw)) = per_class.first() {
            self.cfg.packet_size = rw.mean_size();
            self.cfg.extras.packet_sizes = None;
        }
        self.cfg.extras.read_write = per_class.into_iter().flatten().next();
        Ok(())
    }

    /// `packet_size_rate` (docs/booksim.md §3.5): without effect (listed so) when no class
    /// draws its sizes from a distribution (every class has one size or read/write
    /// traffic).
    fn size_rates_use(&mut self) {
        let e = &self.cfg.extras;
        let drawn = e.packet_sizes.is_some() || e.classes.iter().any(|c| c.packet_sizes.is_some());
        if self.size_rates.given() && !drawn {
            self.ignored.push("packet_size_rate".into());
        }
    }

    /// `perm_seed` (docs/booksim.md §3.8): with `randperm` traffic (in any class) the
    /// permutation is BookSim2's for it; otherwise a given `perm_seed` is without effect
    /// (listed so).
    fn perm_seed(&mut self) {
        let randperm = |p: Pattern| p == Pattern::RandomPermutation;
        let c = &self.cfg;
        if randperm(c.traffic) || c.extras.classes.iter().any(|cl| randperm(cl.traffic)) {
            self.cfg.extras.perm_seed = Some(self.perm_seed.0);
        } else if self.perm_seed.1 {
            self.ignored.push("perm_seed".into());
        }
    }

    /// `sw_allocator` and `vc_allocator` (docs/booksim.md §2, §4): the switch allocator is
    /// `allocator`; a different VC allocator is `vc_allocator`.
    fn allocators(&mut self) -> Result<()> {
        // Requests of different priorities: speculative ones, or packet priorities.
        let ranked = self.cfg.features.speculative || self.cfg.extras.priority.is_on();
        let sw = allocators::allocator_kind("sw_allocator", &self.sw_allocator, ranked);
        let vc = allocators::allocator_kind("vc_allocator", &self.vc_allocator, ranked);
        let (sw, vc) = (sw?, vc?);
        self.cfg.set("allocator", sw)?;
        if vc != sw {
            self.cfg.set("vc_allocator", vc)?;
        }
        Ok(())
    }

    /// `traffic`, `injection_process` and `sim_type` (docs/booksim.md §2, §5).
    fn traffic_and_phases(&mut self) -> Result<()> {
        let at = |line: usize| match line {
            0 => "command line".to_string(),
            n => format!("line {n}"),
        };
        let (value, line) = &self.traffic;
        traffic::set_traffic(&mut self.cfg, value, self.net.k, network::traffic_word)
            .map_err(|e| anyhow!("{}: {e}", at(*line)))?;
        let (value, line) = &self.injection_process;
        traffic::set_process(&mut self.cfg, value).map_err(|e| anyhow!("{}: {e}", at(*line)))?;
        let (value, line) = &self.sim_type;
        match value.as_str() {
            "latency" => self.cfg.drain = true,
            "throughput" => self.cfg.drain = false,
            "batch" => self.cfg.injection = Injection::BookSimBatch,
            _ => bail!(
                "{}: sim_type = {value} is not supported; allowed: latency, throughput, batch",
                at(*line)
            ),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
