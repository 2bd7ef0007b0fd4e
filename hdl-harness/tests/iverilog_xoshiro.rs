//! The same RTL under Icarus Verilog (`iverilog -g2012` + `vvp`) with `tb/xoshiro256ss_tb.v`,
//! fed expected outputs computed by `jumpnet_core::rng::Rng`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod icarus;

use jumpnet_core::rng::Rng;
use jumpnet_hdl::seed_state;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jumpnet-iverilog-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn write_vectors(path: &Path, state: [u64; 4], outputs: &[u64]) {
    let mut text = String::new();
    for w in state.iter().chain(outputs) {
        writeln!(text, "{w:016x}").expect("format");
    }
    std::fs::write(path, text).expect("write vectors");
}

#[test]
fn icarus_agrees_with_core_and_catches_a_wrong_vector() {
    let dir = scratch("xoshiro");
    let sim = icarus::compile(
        &dir,
        "sim",
        &["-Wall"],
        &["tb/xoshiro256ss_tb.v", "rtl/xoshiro256ss.v"],
    );
    const COUNT: usize = 4096;
    for seed in [3u64, 0xC0FF_EE00] {
        let mut rng = Rng::new(seed);
        let outputs: Vec<u64> = (0..COUNT).map(|_| rng.next()).collect();
        let vectors = dir.join(format!("seed{seed}.hex"));
        write_vectors(&vectors, seed_state(seed), &outputs);
        let log = icarus::run(&sim, &vectors, &[("count", COUNT)]);
        assert!(log.contains(&format!("PASS {COUNT}")), "seed {seed}: {log}");
        assert!(!log.contains("FAIL"), "seed {seed}: {log}");

        // The bench must notice a single wrong expected output.
        let mut wrong = outputs.clone();
        wrong[1234] ^= 1 << 17;
        write_vectors(&vectors, seed_state(seed), &wrong);
        let log = icarus::run(&sim, &vectors, &[("count", COUNT)]);
        assert!(log.contains("FAIL output 1234"), "seed {seed}: {log}");
        assert!(!log.contains("PASS"), "seed {seed}: {log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
