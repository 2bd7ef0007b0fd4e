//! Every key of BookSim2's `booksim_config.cpp` (commit 28f4329) with its default, and what
//! `jumpnet sim --booksim` does with it (docs/booksim.md §2).

/// What jumpnet does with a BookSim2 key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyUse {
    /// Read with BookSim2's meaning (`jumpnet sim --booksim` maps it).
    Mapped,
    /// Steers only BookSim2's output, power model or bookkeeping: accepted with any value,
    /// reported as without effect.
    Output,
    /// A behaviour jumpnet models only at BookSim2's default: that value is accepted, any
    /// other refused by name.
    DefaultOnly,
}

/// One BookSim2 key: name, BookSim2's default as its config file would spell it, use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key.
    pub name: &'static str,
    /// BookSim2's default value (`""` for an empty string).
    pub default: &'static str,
    /// What jumpnet does with it.
    pub used: KeyUse,
}

const fn k(name: &'static str, default: &'static str, used: KeyUse) -> Key {
    Key {
        name,
        default,
        used,
    }
}

use KeyUse::{DefaultOnly as D, Mapped as M, Output as O};

/// Every key of BookSim2's `BookSimConfig` constructor, in its order.
pub const KEYS: &[Key] = &[
    // Topology.
    k("channel_file", "", O),
    k("topology", "torus", M),
    k("subnets", "1", D),
    k("k", "8", M),
    k("n", "2", M),
    k("c", "1", M),
    k("routing_function", "none", M),
    k("use_noc_latency", "1", M),
    k("x", "8", O),
    k("y", "8", O),
    k("xr", "1", O),
    k("yr", "1", O),
    k("link_failures", "0", D),
    k("fail_seed", "0", D),
    k("in_ports", "5", O),
    k("out_ports", "5", O),
    // Router.
    k("router", "iq", D),
    k("output_delay", "0", D),
    k("credit_delay", "0", M),
    k("internal_speedup", "1.0", M),
    k("output_buffer_size", "-1", M),
    k("noq", "0", D),
    k("speculative", "0", M),
    k("spec_check_elig", "1", O),
    k("spec_check_cred", "1", O),
    k("spec_mask_by_reqs", "0", O),
    k("spec_sw_allocator", "prio", O),
    k("num_vcs", "16", M),
    k("vc_buf_size", "8", M),
    k("buf_size", "-1", D),
    k("buffer_policy", "private", D),
    k("private_bufs", "-1", D),
    k("private_buf_size", "1", D),
    k("private_buf_start_vc", "-1", D),
    k("private_buf_end_vc", "-1", D),
    k("max_held_slots", "-1", D),
    k("feedback_aging_scale", "1", D),
    k("feedback_offset", "0", D),
    k("wait_for_tail_credit", "0", M),
    k("vc_busy_when_full", "0", D),
    k("vc_prioritize_empty", "0", D),
    k("vc_priority_donation", "0", D),
    k("vc_shuffle_requests", "0", D),
    k("hold_switch_for_packet", "0", M),
    k("input_speedup", "1", M),
    k("output_speedup", "1", M),
    k("routing_delay", "1", M),
    k("vc_alloc_delay", "1", M),
    k("sw_alloc_delay", "1", M),
    k("st_prepare_delay", "0", M),
    k("st_final_delay", "1", M),
    k("vct", "0", D),
    k("vc_allocator", "islip", M),
    k("sw_allocator", "islip", M),
    k("arb_type", "round_robin", D),
    // BookSim2 builds its allocators without the configuration (`iq_router.cpp`), so they
    // run one iteration whatever `alloc_iters` says (docs/booksim.md §2).
    k("alloc_iters", "1", O),
    // Traffic.
    k("classes", "1", M),
    k("class_priority", "0", M),
    // `randperm`'s seed (docs/booksim.md §3.8): without effect (listed so) on other traffic.
    k("perm_seed", "0", M),
    k("injection_rate", "0.1", M),
    k("injection_rate_uses_flits", "0", M),
    k("packet_size", "1", M),
    // A size distribution's rates (docs/booksim.md §3.5): without effect (listed so) when no
    // class has one.
    k("packet_size_rate", "1", M),
    k("traffic", "uniform", M),
    k("injection_process", "bernoulli", M),
    k("burst_alpha", "0.5", M),
    k("burst_beta", "0.5", M),
    k("burst_r1", "-1.0", M),
    k("priority", "none", M),
    k("batch_size", "1000", M),
    k("batch_count", "1", M),
    k("max_outstanding_requests", "0", M),
    // Read/write traffic (docs/booksim.md §3.6, `read_write`): the keys below act only with
    // `use_read_write`, and are listed as without effect otherwise.
    k("use_read_write", "0", M),
    k("write_fraction", "0.5", O),
    k("read_request_begin_vc", "0", O),
    k("read_request_end_vc", "5", O),
    k("write_request_begin_vc", "2", O),
    k("write_request_end_vc", "7", O),
    k("read_reply_begin_vc", "8", O),
    k("read_reply_end_vc", "13", O),
    k("write_reply_begin_vc", "10", O),
    k("write_reply_end_vc", "15", O),
    k("read_request_subnet", "0", O),
    k("read_reply_subnet", "0", O),
    k("write_request_subnet", "0", O),
    k("write_reply_subnet", "0", O),
    k("read_request_size", "1", O),
    k("write_request_size", "1", O),
    k("read_reply_size", "1", O),
    k("write_reply_size", "1", O),
    // Simulation.
    k("sim_type", "latency", M),
    k("warmup_periods", "3", M),
    k("sample_period", "1000", M),
    k("max_samples", "10", M),
    k("measure_stats", "1", M),
    k("pair_stats", "0", O),
    k("latency_thres", "500.0", M),
    k("warmup_thres", "0.05", M),
    k("acc_warmup_thres", "0.05", M),
    k("stopping_thres", "0.05", M),
    k("acc_stopping_thres", "0.05", M),
    k("sim_count", "1", D),
    k("include_queuing", "1", D),
    k("seed", "0", M),
    k("print_activity", "0", O),
    k("print_csv_results", "0", O),
    k("deadlock_warn_timeout", "256", M),
    k("viewer_trace", "0", O),
    k("watch_file", "", O),
    k("watch_flits", "", O),
    k("watch_packets", "", O),
    k("watch_transactions", "", O),
    k("watch_out", "", O),
    k("stats_out", "", O),
    k("injected_flits_out", "", O),
    k("received_flits_out", "", O),
    k("stored_flits_out", "", O),
    k("sent_flits_out", "", O),
    k("outstanding_credits_out", "", O),
    k("ejected_flits_out", "", O),
    k("active_packets_out", "", O),
    k("used_credits_out", "", O),
    k("free_credits_out", "", O),
    k("max_credits_out", "", O),
    k("sent_packets_out", "", O),
    // Power model (output only).
    k("sim_power", "0", O),
    k("power_output_file", "pwr_tmp", O),
    k("tech_file", "", O),
    k("channel_width", "128", O),
    k("channel_sweep", "0", O),
    k("H_INVD2", "0", O),
    k("W_INVD2", "0", O),
    k("H_DFQD1", "0", O),
    k("W_DFQD1", "0", O),
    k("H_ND2D1", "0", O),
    k("W_ND2D1", "0", O),
    k("H_SRAM", "0", O),
    k("W_SRAM", "0", O),
    k("Vdd", "0", O),
    k("R", "0", O),
    k("IoffSRAM", "0", O),
    k("IoffP", "0", O),
    k("IoffN", "0", O),
    k("Cg_pwr", "0", O),
    k("Cd_pwr", "0", O),
    k("Cgdl", "0", O),
    k("Cg", "0", O),
    k("Cd", "0", O),
    k("LAMBDA", "0", O),
    k("MetalPitch", "0", O),
    k("Rw", "0", O),
    k("Cw_gnd", "0", O),
    k("Cw_cpl", "0", O),
    k("wire_length", "0", O),
    // Anynet.
    k("network_file", "", M),
];

/// The key named `name` (BookSim2 matches names exactly).
pub fn find(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|key| key.name == name)
}

/// Whether `value` spells `default`: the same text, or the same number (`1` = `1.0`), or an
/// empty string written as `""`.
pub fn is_default(value: &str, default: &str) -> bool {
    let v = value.trim_matches('"');
    if v == default {
        return true;
    }
    matches!(
        (v.parse::<f64>(), default.parse::<f64>()),
        (Ok(a), Ok(b)) if a == b
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_defaults_compare_as_numbers() {
        for (i, a) in KEYS.iter().enumerate() {
            assert!(KEYS[..i].iter().all(|b| b.name != a.name), "{}", a.name);
        }
        assert_eq!(KEYS.len(), 155);
        assert_eq!(find("num_vcs").map(|k| k.default), Some("16"));
        assert!(is_default("1", "1.0") && is_default("2.0", "2") && is_default("\"\"", ""));
        assert!(!is_default("2", "1") && !is_default("islip", "round_robin"));
    }
}
