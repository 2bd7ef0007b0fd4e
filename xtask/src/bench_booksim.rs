//! `cargo xtask bench`, BookSim2 side by side (docs/booksim.md §6): when `$BOOKSIM` names a
//! BookSim2 binary built from source, the release `jumpnet sim --booksim` and BookSim2 run the
//! same configuration files of the project one after the other on this machine, each under
//! GNU `time`, and two tables give their CPU seconds (user + system) with jumpnet on one
//! thread, and their elapsed seconds with jumpnet on its default threads (all cores), the
//! speed ratios and their peak resident memory. Without `$BOOKSIM` the stage says how to
//! enable it.

use std::path::Path;
use std::process::Command;

use crate::process::Result;

/// One side-by-side case: what it is, the configuration file and the overrides.
pub(crate) struct Case {
    what: &'static str,
    pub(crate) config: &'static str,
    pub(crate) overrides: &'static [&'static str],
}

/// The side-by-side cases (also `cargo xtask pgo`'s training workloads, shortened).
pub(crate) const CASES: &[Case] = &[
    Case {
        what: "torus 32×32, dim_order, 8 VCs, uniform 0.1",
        config: "tests/data/booksim/configs/torus.cfg",
        overrides: &["k=32", "num_vcs=8", "injection_rate=0.1"],
    },
    Case {
        what: "dragonflynew k=4 (1,056 nodes), ugal, 256-flit VCs, 0.1 flits",
        config: "tests/data/booksim/configs/dragonfly_k4_deep.cfg",
        overrides: &["routing_function=ugal", "injection_rate=0.1"],
    },
    Case {
        what: "dragonflynew k=4, min, 256-flit VCs, 0.1 flits",
        config: "tests/data/booksim/configs/dragonfly_k4_deep.cfg",
        overrides: &["routing_function=min", "injection_rate=0.1"],
    },
    Case {
        what: "mesh 8×8, dim_order, 2 VCs, uniform 0.3",
        config: "tests/data/booksim/configs/mesh.cfg",
        overrides: &["injection_rate=0.3"],
    },
];

/// CPU seconds (user + system), elapsed seconds and peak resident memory (KiB) of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Usage {
    cpu_s: f64,
    wall_s: f64,
    rss_kib: u64,
}

/// Parses GNU `time -f "%U %S %e %M"` output (its last line).
fn parse_usage(text: &str) -> Option<Usage> {
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let mut it = line.split_whitespace();
    let user: f64 = it.next()?.parse().ok()?;
    let sys: f64 = it.next()?.parse().ok()?;
    let wall_s = it.next()?.parse().ok()?;
    let rss_kib = it.next()?.parse().ok()?;
    Some(Usage {
        cpu_s: user + sys,
        wall_s,
        rss_kib,
    })
}

/// BookSim2's exit status after a successful run: its `main` returns `result ? -1 : 0` with
/// `result` the simulation's success (`src/main.cpp`), so a run that finished exits 255.
const BOOKSIM_OK: i32 = 255;

/// Runs `program args…` under GNU time, output discarded; exit status 0 or `also_ok` counts
/// as success.
fn measure(program: &str, args: &[&str], also_ok: Option<i32>) -> Result<Usage> {
    let out = std::env::temp_dir().join(format!("jumpnet-bench-time-{}", std::process::id()));
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%U %S %e %M")
        .arg("-o")
        .arg(&out)
        .arg(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot run /usr/bin/time {program}: {e}"))?;
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    if !status.success() && status.code() != also_ok {
        return Err(format!("`{program} {}` failed ({status})", args.join(" ")));
    }
    parse_usage(&text).ok_or_else(|| format!("cannot read GNU time's output: {text:?}"))
}

/// Runs of each jumpnet binary per case: three before BookSim2's run and three after, so
/// a change of the machine's load during BookSim2's minutes shows in their spread.
const JUMPNET_RUNS: usize = 3;

/// The median of `v` (sorted in place; `v` not empty).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The side-by-side stage of `cargo xtask bench` (and `cargo xtask bench booksim`): the
/// plain release build and the profile-guided one (`crate::pgo`) against BookSim2.
pub fn run() -> Result {
    let Some(booksim) = std::env::var_os("BOOKSIM") else {
        println!(
            "bench: BookSim2 side by side skipped (set BOOKSIM=/path/to/booksim, a BookSim2 \
             binary built from source; docs/booksim.md §6)"
        );
        return Ok(());
    };
    let booksim = booksim.to_string_lossy().into_owned();
    if !Path::new("/usr/bin/time").exists() {
        return Err(
            "BookSim2 side by side needs GNU time at /usr/bin/time (apt install time)".into(),
        );
    }
    let pgo = crate::pgo::build_optimised()?;
    let pgo = pgo.to_string_lossy().into_owned();
    let builds = [
        ("release", "target/release/jumpnet"),
        ("release + PGO", pgo.as_str()),
    ];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cpu_rows = Vec::new();
    let mut wall_rows = Vec::new();
    for case in CASES {
        eprintln!("bench: {} …", case.what);
        let mut bargs = vec![case.config];
        bargs.extend(case.overrides);
        let mut base = vec!["sim", "--booksim", case.config];
        base.extend(case.overrides);
        base.extend(["--json", "-q"]);
        // One thread: CPU seconds against single-threaded BookSim2 (with more threads the
        // wall time drops but the CPU time grows by the threads' synchronisation). The
        // default threads (all cores): the elapsed time a user waits, against BookSim2's.
        let mut one = base.clone();
        one.extend(["--threads", "1"]);
        let modes = [one, base];
        // runs[mode][build]
        let mut runs: Vec<Vec<Vec<Usage>>> = vec![vec![Vec::new(); builds.len()]; modes.len()];
        let measure_all = |runs: &mut Vec<Vec<Vec<Usage>>>| -> Result {
            for _ in 0..JUMPNET_RUNS {
                for (m, args) in modes.iter().enumerate() {
                    for (i, (_, bin)) in builds.iter().enumerate() {
                        runs[m][i].push(measure(bin, args, None)?);
                    }
                }
            }
            Ok(())
        };
        measure_all(&mut runs)?;
        let b = measure(&booksim, &bargs, Some(BOOKSIM_OK))?;
        measure_all(&mut runs)?;
        for (m, (rows, pick, booksim_s)) in [
            (
                &mut cpu_rows,
                (|u: &Usage| u.cpu_s) as fn(&Usage) -> f64,
                b.cpu_s,
            ),
            (&mut wall_rows, |u: &Usage| u.wall_s, b.wall_s),
        ]
        .into_iter()
        .enumerate()
        {
            for ((name, _), usages) in builds.iter().zip(&runs[m]) {
                let mut secs: Vec<f64> = usages.iter().map(pick).collect();
                let mid = median(&mut secs);
                let (lo, hi) = (secs[0], secs[secs.len() - 1]);
                let rss = usages.iter().map(|u| u.rss_kib).max().unwrap_or(0);
                rows.push(format!(
                    "| {} | {name} | {booksim_s:.2} | {mid:.2} ({lo:.2}–{hi:.2}) | {:.1}× ({:.1}–{:.1}×) | {:.1} | {:.1} |",
                    case.what,
                    booksim_s / mid.max(0.01),
                    booksim_s / hi.max(0.01),
                    booksim_s / lo.max(0.01),
                    b.rss_kib as f64 / 1024.0,
                    rss as f64 / 1024.0
                ));
            }
        }
    }
    let runs = 2 * JUMPNET_RUNS;
    for (title, unit, rows) in [
        (
            format!(
                "CPU s = user + system; jumpnet on one thread, the median of {runs} runs \
                 around BookSim2's, with their range"
            ),
            "CPU s",
            &cpu_rows,
        ),
        (
            format!(
                "elapsed s; jumpnet on its default threads ({cores} cores here), the median \
                 of {runs} runs around BookSim2's, with their range"
            ),
            "elapsed s",
            &wall_rows,
        ),
    ] {
        println!("\nBookSim2 ({booksim}) and jumpnet side by side ({title}):\n");
        println!(
            "| case | build | BookSim2 {unit} | jumpnet {unit} | speed-up | BookSim2 MiB | jumpnet MiB |"
        );
        println!("|---|---|---:|---:|---:|---:|---:|");
        for row in rows {
            println!("{row}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_time_output_is_read() {
        assert_eq!(
            parse_usage("Command exited\n12.50 0.25 13.01 48632\n"),
            Some(Usage {
                cpu_s: 12.75,
                wall_s: 13.01,
                rss_kib: 48632
            })
        );
        assert_eq!(parse_usage("garbage"), None);
    }

    #[test]
    fn the_median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn every_case_names_a_config_of_the_project() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for case in CASES {
            assert!(root.join(case.config).is_file(), "{}", case.config);
        }
    }
}
