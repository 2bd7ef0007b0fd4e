//! The RTL synthesizes with Yosys into exactly the state the algorithm needs.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn xoshiro_synthesizes_to_256_flip_flops_and_no_latches() {
    let rtl = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rtl/xoshiro256ss.v");
    let script = format!(
        "read_verilog {}; synth -top xoshiro256ss; tee -o /dev/stdout stat",
        rtl.display()
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .expect("yosys not found: run `cargo xtask setup`");
    assert!(
        out.status.success(),
        "yosys failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stat = String::from_utf8_lossy(&out.stdout);
    let count_cells = |prefix: &str| -> u64 {
        stat.lines()
            .filter_map(|l| {
                let mut it = l.split_whitespace();
                match (it.next(), it.next()) {
                    (Some(cell), Some(n)) if cell.starts_with(prefix) => n.parse::<u64>().ok(),
                    _ => None,
                }
            })
            .sum()
    };
    // xoshiro256** keeps four 64-bit words of state and nothing else.
    let flops = count_cells("$_DFF") + count_cells("$_SDFF") + count_cells("$_ALDFF");
    assert_eq!(flops, 256, "{stat}");
    assert_eq!(count_cells("$_DLATCH"), 0, "{stat}");
}

/// Synthesizes `top` from `rtl/{file}` with `params` (`chparam`) through the generic `synth`
/// flow; asserts success and that no latch was inferred; returns the flip-flop count.
fn synth_without_latches(file: &str, top: &str, params: &[(&str, u32)]) -> u64 {
    let rtl = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("rtl")
        .join(file);
    let chparams: String = params
        .iter()
        .map(|(k, v)| format!("chparam -set {k} {v} {top}; "))
        .collect();
    let script = format!(
        "read_verilog {}; {chparams}synth -top {top}; \
         select -assert-none t:$_DLATCH*; tee -o /dev/stdout stat",
        rtl.display()
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .expect("yosys not found: run `cargo xtask setup`");
    let stat = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "yosys failed on {top} (a latch fails `select -assert-none`): {}{stat}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stat.contains("$_DLATCH"), "{stat}");
    stat.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            match (it.next(), it.next()) {
                (Some(c), Some(n)) if c.contains("DFF") => n.parse::<u64>().ok(),
                _ => None,
            }
        })
        .sum()
}

#[test]
fn schedule_engine_synthesizes_without_latches() {
    // 16 ops: the status flops are 3 per op (done, arrived, dependency met); the program
    // memory is written through the load port (no reset) and stays flops in the generic flow.
    let flops = synth_without_latches("sched_engine.v", "sched_engine", &[("ADDR_W", 4)]);
    assert!(flops >= 3 * 16, "{flops}");
}

#[test]
fn table_router_synthesizes_without_latches() {
    let params = [("RUN_W", 4), ("IN_W", 2), ("OUT_W", 2), ("VC_W", 2)];
    let flops = synth_without_latches("table_router.v", "table_router", &params);
    assert!(flops > 0, "{flops}");
}
