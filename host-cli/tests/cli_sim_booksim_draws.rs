//! `jumpnet sim --booksim` with BookSim2's random draws (docs/booksim.md §3.9): the runs do
//! not depend on the number of threads (their line-for-line agreement with BookSim2 is held
//! by `booksim_exact`).

mod common;

use common::{json, jumpnet};

/// Short runs: one warm-up period and at most three samples of 300 cycles.
const SHORT: [&str; 3] = ["sample_period=300", "max_samples=3", "warmup_periods=1"];

#[test]
fn booksim2s_draws_give_byte_identical_json_with_any_number_of_threads() {
    // BookSim2's sources and draws (docs/booksim.md §3.9) are made in the serial part of a
    // cycle: one class and two classes (with an on/off class), on one thread or several.
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/booksim/configs");
    for (file, extra) in [
        (
            "mesh.cfg",
            vec!["k=6", "injection_rate=0.3", "packet_size=2"],
        ),
        (
            "mesh_classes.cfg",
            vec![
                "injection_rate={0.1,0.04}",
                "injection_process={bernoulli,on_off}",
            ],
        ),
    ] {
        let cfg = format!("{data}/{file}");
        let run = |threads: &str| {
            let mut args = vec!["sim", "--booksim", cfg.as_str(), "--json", "-q"];
            args.extend(extra.iter().copied());
            args.extend(SHORT);
            args.extend(["--threads", threads]);
            let (code, out, err) = jumpnet(&args);
            assert_eq!(code, 0, "{err}");
            out
        };
        let one = run("1");
        assert_eq!(json(&one)["config"]["extras"]["draws"], "booksim", "{one}");
        assert!(
            json(&one)["packets_delivered"].as_u64().unwrap() > 1000,
            "{one}"
        );
        for threads in ["2", "3"] {
            assert_eq!(run(threads), one, "{file} --threads {threads}");
        }
    }
}
