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
