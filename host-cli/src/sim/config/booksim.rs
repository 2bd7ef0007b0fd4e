//! BookSim2 configuration files (`jumpnet sim --booksim FILE`): the common subset of
//! BookSim2's keys mapped onto a jumpnet topology, routing and [`SimConfig`].
//!
//! Syntax as BookSim2's `config.l`/`config.y`: statements `key = value;`, `//` comments to
//! the end of the line, values are numbers, names or `{...}` lists. The base is
//! [`SimConfig::booksim`] (BookSim2's defaults) and BookSim2's default topology (an 8-ary
//! 2-cube torus); `routing_function` must be given.
//!
//! | BookSim2 | jumpnet |
//! |---|---|
//! | `topology = torus; k; n` | `torus k=k,…,k` (n times) |
//! | `topology = mesh; k; n` | `mesh k=k,…,k` |
//! | `topology = flatfly; k; n; c` | `hyperx s=k,…,k t=c` |
//! | `topology = dragonflynew; k = p; n = 1` | `dragonfly p=p a=2p h=p g=a·h+1` (BookSim2's derivation) |
//! | `routing_function = dim_order` (torus) | `dor-dateline` (BookSim2's torus DOR uses dateline VCs) |
//! | `dim_order` / `dor` (mesh, flatfly), `xyyx` (flatfly) | `dor` |
//! | `min` / `ran_min` (flatfly) | `minimal` |
//! | `min` (dragonfly) | `df-minimal`; `valiant`: `df-valiant` |
//! | `const_flits_per_packet`, `packet_size` | `packet_size` |
//! | `injection_rate_uses_flits` | `rate_in_flits` |
//! | `st_prepare_delay + st_final_delay` | `st_delay` |
//! | `vc_allocator`, `sw_allocator` | `allocator` (must agree) |
//! | `deadlock_warn_timeout` | `watchdog_cycles` |
//! | `sim_type = latency / throughput` | `drain = true / false` |
//!
//! `num_vcs`, `vc_buf_size`, `injection_rate`, `traffic`, `routing_delay`,
//! `vc_alloc_delay`, `sw_alloc_delay`, `credit_delay`, `internal_speedup` (up to three
//! decimals), `output_buffer_size`,
//! `warmup_periods`, `sample_period`, `max_samples`, `latency_thres`, `warmup_thres`,
//! `stopping_thres` and `seed` (a number; `time` is refused: runs are deterministic) keep
//! their names. Keys that only steer BookSim2's own bookkeeping (`sim_count`, `watch_out`,
//! `priority`, flatfly's `x`/`y`/`xr`/`yr` layout, …) are accepted and listed in
//! [`BookSimConfig::ignored`]; keys whose BookSim2 meaning jumpnet does not model are accepted
//! only at their neutral value (`input_speedup = 1`, `use_read_write = 0`, …). Every other
//! key is an error that names it.

use anyhow::{anyhow, bail, Result};
use jumpnet_core::topology::spec::NetworkSpec;
use jumpnet_core::topology::GlobalArrangement;

use crate::builder::routing::RouteAlgo;
use crate::builder::topology::TopologySpec;
use crate::sim::config::SimConfig;

/// A BookSim2 configuration mapped onto jumpnet.
#[derive(Clone, Debug, PartialEq)]
pub struct BookSimConfig {
    /// The topology.
    pub topology: TopologySpec,
    /// The routing.
    pub algo: RouteAlgo,
    /// Simulator parameters (BookSim2 defaults with the file's keys applied).
    pub config: SimConfig,
    /// Keys accepted without effect on the simulation, in file order.
    pub ignored: Vec<String>,
}

/// Keys mapped onto jumpnet (see the module documentation).
pub const MAPPED_KEYS: &[&str] = &[
    "topology",
    "k",
    "n",
    "c",
    "routing_function",
    "num_vcs",
    "vc_buf_size",
    "packet_size",
    "const_flits_per_packet",
    "injection_rate",
    "injection_rate_uses_flits",
    "injection_process",
    "traffic",
    "routing_delay",
    "vc_alloc_delay",
    "sw_alloc_delay",
    "st_prepare_delay",
    "st_final_delay",
    "credit_delay",
    "internal_speedup",
    "output_buffer_size",
    "vc_allocator",
    "sw_allocator",
    "warmup_periods",
    "sample_period",
    "max_samples",
    "latency_thres",
    "warmup_thres",
    "stopping_thres",
    "deadlock_warn_timeout",
    "sim_type",
    "seed",
];

/// Keys accepted and ignored: they steer BookSim2's output or bookkeeping only.
pub const IGNORED_KEYS: &[&str] = &[
    "sim_count",
    "watch_out",
    "watch_file",
    "watch_packets",
    "watch_flits",
    "print_activity",
    "print_csv_results",
    "viewer_trace",
    "priority",
    "hold_switch_for_packet",
    "wait_for_tail_credit",
    "alloc_iters",
    "x",
    "y",
    "xr",
    "yr",
    "limit",
    "read_request_size",
    "write_request_size",
    "read_reply_size",
    "write_reply_size",
    "read_request_begin_vc",
    "read_request_end_vc",
    "write_request_begin_vc",
    "write_request_end_vc",
    "read_reply_begin_vc",
    "read_reply_end_vc",
    "write_reply_begin_vc",
    "write_reply_end_vc",
];

/// Keys accepted only at their neutral value `(key, value)`.
pub const NEUTRAL_KEYS: &[(&str, &str)] = &[
    ("input_speedup", "1"),
    ("output_speedup", "1"),
    ("physical_subnetworks", "1"),
    ("use_read_write", "0"),
    ("classes", "1"),
];

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
    let mut p = Parser::default();
    for st in statements(text)? {
        p.statement(&st)?;
    }
    p.finish()
}

/// What the statements of a file set so far.
struct Parser {
    cfg: SimConfig,
    ignored: Vec<String>,
    topology: String,
    k: u32,
    n: u32,
    c: u32,
    /// `routing_function` and its line.
    routing: Option<(String, usize)>,
    st_prepare: u16,
    st_final: u16,
    /// `vc_allocator` / `sw_allocator` statements: key, value, line.
    allocators: Vec<(String, String, usize)>,
}

impl Default for Parser {
    /// BookSim2's defaults: its router parameters and an 8-ary 2-cube torus.
    fn default() -> Self {
        Parser {
            cfg: SimConfig::booksim(),
            ignored: Vec::new(),
            topology: "torus".to_string(),
            k: 8,
            n: 2,
            c: 1,
            routing: None,
            st_prepare: 0,
            st_final: 1,
            allocators: Vec::new(),
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
        let cfg = &mut self.cfg;
        let mut set = |jkey: &str, v: &str| cfg.set(jkey, v).map_err(|e| at(format!("{key}: {e}")));
        match key {
            "topology" => self.topology = value.to_string(),
            "k" => self.k = int("k")?,
            "n" => self.n = int("n")?,
            "c" => self.c = int("c")?,
            "routing_function" => self.routing = Some((value.to_string(), line)),
            "num_vcs" | "vc_buf_size" | "injection_rate" | "traffic" | "routing_delay"
            | "vc_alloc_delay" | "sw_alloc_delay" | "credit_delay" | "warmup_periods"
            | "sample_period" | "max_samples" | "latency_thres" | "warmup_thres"
            | "stopping_thres" | "internal_speedup" | "output_buffer_size" => set(key, value)?,
            "packet_size" | "const_flits_per_packet" => {
                // BookSim2's packet_size = -1 means "use const_flits_per_packet".
                if value != "-1" {
                    set("packet_size", value)?;
                }
            }
            "injection_rate_uses_flits" => set("rate_in_flits", value)?,
            "injection_process" => {
                if value != "bernoulli" {
                    return Err(at(format!(
                        "injection_process = {value} is not supported; allowed: bernoulli"
                    )));
                }
                set("injection", "bernoulli")?;
            }
            "st_prepare_delay" => self.st_prepare = int("st_prepare_delay")?.try_into()?,
            "st_final_delay" => self.st_final = int("st_final_delay")?.try_into()?,
            "vc_allocator" | "sw_allocator" => {
                self.allocators
                    .push((key.to_string(), value.to_string(), line));
            }
            "deadlock_warn_timeout" => set("watchdog_cycles", value)?,
            "sim_type" => match value {
                "latency" => self.cfg.drain = true,
                "throughput" => self.cfg.drain = false,
                _ => {
                    return Err(at(format!(
                        "sim_type = {value} is not supported; allowed: latency, throughput"
                    )))
                }
            },
            "seed" => {
                if value == "time" {
                    return Err(at(
                        "seed = time is not supported: jumpnet runs are deterministic; give a number"
                            .into(),
                    ));
                }
                set("seed", value)?;
            }
            _ => self.other(key, value).map_err(at)?,
        }
        Ok(())
    }

    /// A key jumpnet does not map: ignored, accepted at its neutral value, or an error
    /// listing the keys.
    fn other(&mut self, key: &str, value: &str) -> Result<(), String> {
        if IGNORED_KEYS.contains(&key) {
            self.ignored.push(key.to_string());
            return Ok(());
        }
        let Some((_, neutral)) = NEUTRAL_KEYS.iter().find(|(nk, _)| *nk == key) else {
            let neutral: Vec<&str> = NEUTRAL_KEYS.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "unknown BookSim2 key '{key}'; supported keys: {}; ignored keys: {}; \
                 accepted at their neutral value: {}",
                MAPPED_KEYS.join(", "),
                IGNORED_KEYS.join(", "),
                neutral.join(", ")
            ));
        };
        let same = value == *neutral || value.parse::<f64>().ok() == neutral.parse::<f64>().ok();
        if !same {
            return Err(format!(
                "{key} = {value} is not supported; jumpnet models only {key} = {neutral}"
            ));
        }
        self.ignored.push(key.to_string());
        Ok(())
    }

    /// The configuration: switch traversal delay, allocator, topology and routing.
    fn finish(mut self) -> Result<BookSimConfig> {
        self.cfg.st_delay = self.st_prepare + self.st_final;
        if let Some((first, rest)) = self.allocators.split_first() {
            if let Some((k2, v2, line)) = rest.iter().find(|(_, v, _)| *v != first.1) {
                bail!(
                    "line {line}: {k2} = {v2} differs from {} = {}; jumpnet uses one allocator type for both",
                    first.0,
                    first.1
                );
            }
            let v = match first.1.as_str() {
                "islip" => "islip",
                "separable_input_first" => "separable_input_first",
                other => bail!(
                    "line {}: {} = {other} is not supported; allowed: islip, separable_input_first",
                    first.2,
                    first.0
                ),
            };
            self.cfg.set("allocator", v)?;
        }
        let topology = &self.topology;
        let topo = topology_spec(topology, self.k, self.n, self.c)?;
        let Some((rf, line)) = self.routing else {
            bail!(
                "routing_function is missing; for {topology} use {}",
                routing_names(topology)
            );
        };
        let algo = routing_algo(topology, &rf).map_err(|e| anyhow!("line {line}: {e}"))?;
        Ok(BookSimConfig {
            topology: topo,
            algo,
            config: self.cfg,
            ignored: self.ignored,
        })
    }
}

/// The jumpnet topology of BookSim2's `topology`, `k`, `n`, `c`.
pub fn topology_spec(topology: &str, k: u32, n: u32, c: u32) -> Result<TopologySpec> {
    let dims = || -> Result<Vec<u32>> {
        if k < 2 || n == 0 || n > 8 {
            bail!("{topology} with k = {k}, n = {n}: need k >= 2 and 1 <= n <= 8");
        }
        Ok(vec![k; n as usize])
    };
    Ok(match topology {
        "torus" | "mesh" => {
            if c != 1 {
                bail!(
                    "{topology} with c = {c}: BookSim2's {topology} has one node per router (c = 1)"
                );
            }
            TopologySpec::Structured(if topology == "torus" {
                NetworkSpec::torus(&dims()?, 1)?
            } else {
                NetworkSpec::mesh(&dims()?, 1)?
            })
        }
        "flatfly" => TopologySpec::Structured(NetworkSpec::hyperx(
            &dims()?,
            1,
            u16::try_from(c)
                .ok()
                .filter(|&t| t >= 1)
                .ok_or_else(|| anyhow!("flatfly with c = {c}: need 1 <= c <= 65535"))?,
        )?),
        "dragonflynew" | "dragonfly" => {
            if n != 1 {
                bail!("{topology} with n = {n}: BookSim2's dragonflynew needs n = 1");
            }
            if k == 0 || k > 1000 {
                bail!("{topology} with k = {k}: need 1 <= k <= 1000 terminals per router");
            }
            let (p, a, h) = (k, 2 * k, k);
            TopologySpec::Structured(NetworkSpec::Dragonfly {
                g: a * h + 1,
                a,
                p,
                h,
                arrangement: GlobalArrangement::Consecutive,
            })
        }
        other => bail!(
            "BookSim2 topology '{other}' is not supported; allowed: torus, mesh, flatfly, dragonflynew"
        ),
    })
}

fn routing_names(topology: &str) -> &'static str {
    match topology {
        "torus" => "dim_order (or dim_order_torus, dor)",
        "mesh" => "dim_order (or dim_order_mesh, dor, dor_mesh)",
        "flatfly" => "dim_order / xyyx (dor), min / ran_min (minimal)",
        _ => "min (df-minimal), valiant (df-valiant), ugal (df-ugal-l)",
    }
}

/// The jumpnet routing of BookSim2's `routing_function` on `topology`.
pub fn routing_algo(topology: &str, rf: &str) -> Result<RouteAlgo> {
    let algo = match (topology, rf) {
        ("torus", "dim_order" | "dim_order_torus" | "dor" | "dor_torus") => RouteAlgo::DorDateline,
        ("mesh", "dim_order" | "dim_order_mesh" | "dor" | "dor_mesh") => RouteAlgo::Dor,
        ("flatfly", "dim_order" | "dor" | "xyyx" | "xyyx_flatfly") => RouteAlgo::Dor,
        ("flatfly", "min" | "ran_min" | "ran_min_flatfly") => RouteAlgo::Minimal,
        ("dragonflynew" | "dragonfly", "min" | "min_dragonflynew") => RouteAlgo::DfMinimal,
        ("dragonflynew" | "dragonfly", "valiant") => RouteAlgo::DfValiant,
        ("dragonflynew" | "dragonfly", "ugal" | "ugal_dragonflynew") => RouteAlgo::DfUgalL,
        _ => bail!(
            "routing_function = {rf} is not supported on {topology}; use {}",
            routing_names(topology)
        ),
    };
    Ok(algo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::config::{Allocator, Pattern};

    const TORUS88: &str = include_str!("../../../tests/data/booksim_torus88");
    const MESH88: &str = include_str!("../../../tests/data/booksim_mesh88_lat");
    const DRAGONFLY: &str = include_str!("../../../tests/data/booksim_dragonfly");
    const FLATFLY: &str = include_str!("../../../tests/data/booksim_flatfly");

    #[test]
    fn torus_example() {
        let b = parse(TORUS88).unwrap();
        assert_eq!(b.topology.to_string(), "torus k=8,8 t=1");
        assert_eq!(b.algo, RouteAlgo::DorDateline);
        let mut want = SimConfig::booksim();
        want.num_vcs = 2;
        want.injection_rate = 0.15;
        assert_eq!(b.config, want);
        assert!(b.ignored.is_empty());
    }

    #[test]
    fn mesh_example_with_delays() {
        let b = parse(MESH88).unwrap();
        assert_eq!(b.topology.to_string(), "mesh k=8,8 t=1");
        assert_eq!(b.algo, RouteAlgo::Dor);
        let c = &b.config;
        assert_eq!((c.num_vcs, c.vc_buf_size, c.packet_size), (2, 16, 20));
        assert_eq!(
            (c.credit_delay, c.routing_delay, c.vc_alloc_delay),
            (2, 1, 1)
        );
        assert_eq!(
            (c.injection_rate, c.rate_in_flits, c.drain),
            (0.01, false, true)
        );
        assert_eq!(c.allocator, Allocator::Islip);
        assert!(b.ignored.contains(&"wait_for_tail_credit".to_string()));
    }

    #[test]
    fn dragonfly_example_derives_booksim_sizes() {
        let b = parse(DRAGONFLY).unwrap();
        // k = 4: p = 4, a = 8, h = 4, g = 33.
        assert_eq!(
            b.topology,
            TopologySpec::Structured(NetworkSpec::Dragonfly {
                g: 33,
                a: 8,
                p: 4,
                h: 4,
                arrangement: GlobalArrangement::Consecutive
            })
        );
        assert_eq!(b.algo, RouteAlgo::DfMinimal);
        assert_eq!(
            routing_algo("dragonflynew", "ugal").unwrap(),
            RouteAlgo::DfUgalL
        );
        let c = &b.config;
        assert_eq!(
            (c.packet_size, c.rate_in_flits, c.internal_speedup.value()),
            (10, true, 2.0)
        );
        assert_eq!((c.st_delay, c.routing_delay, c.warmup_periods), (1, 0, 3));
        assert_eq!(c.allocator, Allocator::SeparableInputFirst);
    }

    #[test]
    fn flatfly_example() {
        let b = parse(FLATFLY).unwrap();
        assert_eq!(b.topology.to_string(), "hyperx s=4,4 k=1 t=4");
        assert_eq!(b.algo, RouteAlgo::Minimal);
        assert_eq!(b.config.traffic, Pattern::Uniform);
        assert!(b.ignored.contains(&"xr".to_string()));
    }

    #[test]
    fn syntax_comments_lists_and_st_delay() {
        let s = statements("a = 1; // c = 2;\nb = {1, 2;3}\n;").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[1].key.as_str(), s[1].value.as_str(), s[1].line),
            ("b", "{1, 2;3}", 2)
        );
        let b = parse(
            "routing_function = dim_order; st_prepare_delay = 1; st_final_delay = 2; seed = 9;",
        )
        .unwrap();
        assert_eq!((b.config.st_delay, b.config.seed), (3, 9));
        assert_eq!(b.topology.to_string(), "torus k=8,8 t=1");
    }

    #[test]
    fn errors_name_key_and_line() {
        let e = parse("routing_function = dim_order;\nfoo_bar = 3;")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2") && e.contains("'foo_bar'") && e.contains("num_vcs"),
            "{e}"
        );
        let e = parse("topology = torus;").unwrap_err().to_string();
        assert!(e.contains("routing_function is missing") && e.contains("dim_order"));
        let e = parse("routing_function = min;").unwrap_err().to_string();
        assert!(e.contains("min") && e.contains("torus"), "{e}");
        let e = parse("topology = butterfly; routing_function = dest_tag;")
            .unwrap_err()
            .to_string();
        assert!(e.contains("butterfly") && e.contains("dragonflynew"));
        let e = parse("routing_function = dim_order; input_speedup = 2;")
            .unwrap_err()
            .to_string();
        assert!(e.contains("input_speedup = 1"), "{e}");
        let e = parse("routing_function = dim_order; seed = time;")
            .unwrap_err()
            .to_string();
        assert!(e.contains("time"));
        let e = parse("routing_function = dim_order; num_vcs = 0;")
            .unwrap_err()
            .to_string();
        assert!(e.contains("num_vcs") && e.contains("1..=255"), "{e}");
        let e = parse("routing_function = dim_order")
            .unwrap_err()
            .to_string();
        assert!(e.contains("';'"), "{e}");
        let e = parse("topology = dragonflynew; k = 2; n = 2; routing_function = min;")
            .unwrap_err()
            .to_string();
        assert!(e.contains("n = 1"));
        let e = parse(
            "vc_allocator = islip; sw_allocator = separable_input_first; routing_function = dor;",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("sw_allocator"));
    }
}
