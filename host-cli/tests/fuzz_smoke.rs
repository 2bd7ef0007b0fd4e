//! The fuzz smoke run of `cargo xtask test`: every fuzz target's body (`fuzz/targets/`, the
//! same functions the libFuzzer binaries of `cargo xtask fuzz` call) runs on its seed files
//! and on a fixed number of mutants of them, uninstrumented, so that a decoder that panics
//! on a small corruption of a real file fails CI without the instrumented build
//! (docs/toolchain.md, "Fuzzing"). Deterministic: the mutants come from a fixed PRNG seed,
//! so a failure repeats; its input is written to the test's temporary directory.
//!
//! `JUMPNET_FUZZ_SMOKE_RUNS=N` changes the mutants per target (default 10,000).

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

#[path = "../../fuzz/targets/mod.rs"]
mod targets;

/// Mutants per target when `JUMPNET_FUZZ_SMOKE_RUNS` is not set.
const DEFAULT_RUNS: usize = 10_000;
/// Longest mutant, in bytes.
const MAX_LEN: usize = 1 << 16;

/// xorshift64*: a small deterministic generator, enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Bytes that decoders treat specially: limits, signs, separators, JSON and TOML syntax.
const INTERESTING_BYTES: &[u8] = b"\x00\x01\x7f\x80\xff09-+.,;=\n\r\t {}[]\"'#/e";
/// Numbers that overflow or are out of range somewhere.
const INTERESTING_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "1e308",
    "nan",
    "999999999999",
];
/// Little-endian words that overflow length fields.
const INTERESTING_WORDS: &[u32] = &[0, 1, 0x7f, 0xff, 0xffff, 0x1_0000, 0x7fff_ffff, 0xffff_ffff];

/// One random mutation of `data`, with `other` (another seed of the target) for splicing.
fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    let len = data.len();
    let pos = |rng: &mut Rng| if len == 0 { 0 } else { rng.below(len) };
    match rng.below(10) {
        0 if len > 0 => {
            let i = pos(rng);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = pos(rng);
            data[i] = rng.next() as u8;
        }
        2 if len > 0 => {
            let i = pos(rng);
            data[i] = INTERESTING_BYTES[rng.below(INTERESTING_BYTES.len())];
        }
        3 => {
            let i = if len == 0 { 0 } else { rng.below(len + 1) };
            let n = 1 + rng.below(8);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            data.splice(i..i, bytes);
        }
        4 if len > 0 => {
            let i = pos(rng);
            let n = 1 + rng.below((len - i).min(64));
            data.drain(i..i + n);
        }
        5 if len > 0 => {
            let i = pos(rng);
            let n = 1 + rng.below((len - i).min(256));
            let chunk = data[i..i + n].to_vec();
            let at = rng.below(len + 1);
            data.splice(at..at, chunk);
        }
        6 if !other.is_empty() => {
            let cut = if len == 0 { 0 } else { rng.below(len + 1) };
            let from = rng.below(other.len());
            data.truncate(cut);
            data.extend_from_slice(&other[from..]);
        }
        7 if len > 0 => data.truncate(pos(rng)),
        8 => {
            let number = INTERESTING_NUMBERS[rng.below(INTERESTING_NUMBERS.len())].as_bytes();
            let digits: Vec<usize> = (0..len).filter(|&i| data[i].is_ascii_digit()).collect();
            if digits.is_empty() {
                data.extend_from_slice(number);
            } else {
                let start = digits[rng.below(digits.len())];
                let end = (start..len)
                    .find(|&i| !data[i].is_ascii_digit())
                    .unwrap_or(len);
                data.splice(start..end, number.iter().copied());
            }
        }
        _ => {
            let word = INTERESTING_WORDS[rng.below(INTERESTING_WORDS.len())].to_le_bytes();
            let width = [1, 2, 4][rng.below(3)];
            if len >= width {
                let i = rng.below(len - width + 1);
                data[i..i + width].copy_from_slice(&word[..width]);
            } else {
                data.extend_from_slice(&word[..width]);
            }
        }
    }
    data.truncate(MAX_LEN);
}

/// A mutant of one of `seeds`: one to four stacked mutations.
fn mutant(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds[rng.below(seeds.len())].clone();
    let other = &seeds[rng.below(seeds.len())];
    for _ in 0..1 + rng.below(4) {
        mutate_once(rng, &mut data, other);
    }
    data
}

/// The seed files of a target (`fuzz/seeds/NAME/`), sorted by name.
fn seeds(name: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds")
        .join(name);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display())))
        .collect()
}

/// Mutants per target.
fn runs() -> usize {
    std::env::var("JUMPNET_FUZZ_SMOKE_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_RUNS)
}

/// Runs `target` on `seeds` and `runs` mutants; on a panic returns where the input was saved.
fn smoke(name: &str, target: fn(&[u8]), seeds: &[Vec<u8>], runs: usize) -> Result<usize, String> {
    let mut rng = Rng(0x6a75_6d70_6e65_7421 ^ name.len() as u64);
    let inputs = seeds
        .iter()
        .cloned()
        .chain((0..runs).map(|_| mutant(&mut rng, seeds)));
    let mut executions = 0;
    for (i, input) in inputs.enumerate() {
        if panic::catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
            let path =
                Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-smoke-{name}-{i}"));
            let saved = std::fs::write(&path, &input).map_or_else(
                |e| format!("(could not save it: {e})"),
                |()| format!("saved in {}", path.display()),
            );
            return Err(format!(
                "fuzz target {name} panicked on input #{i} ({} bytes), {saved}; \
                 make it a seed in fuzz/seeds/{name}/ and fix the decoder",
                input.len()
            ));
        }
        executions += 1;
    }
    Ok(executions)
}

#[test]
fn every_decoder_survives_mutants_of_its_seeds() {
    let runs = runs();
    let mut failures = Vec::new();
    for &(name, target) in targets::ALL {
        let seeds = seeds(name);
        assert!(!seeds.is_empty(), "fuzz/seeds/{name}/ has no seed file");
        match smoke(name, target, &seeds, runs) {
            Ok(n) => println!("fuzz smoke {name}: {n} executions, no panic"),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_target_has_seeds_a_libfuzzer_binary_and_an_xtask_entry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let listed = |dir: &str, strip: &str| {
        let mut names: Vec<String> = std::fs::read_dir(root.join(dir))
            .expect("fuzz directory")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter_map(|n| n.strip_suffix(strip).map(str::to_owned))
            .collect();
        names.sort();
        names
    };
    let all: Vec<String> = targets::ALL.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(listed("seeds", ""), all);
    assert_eq!(listed("fuzz_targets", ".rs"), all);
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let xtask = std::fs::read_to_string(root.join("../xtask/src/fuzz.rs")).expect("xtask fuzz");
    for name in &all {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
        assert!(
            xtask.contains(&format!("\"{name}\",")),
            "`cargo xtask fuzz` does not list {name}"
        );
    }
}

/// The smoke run finds a panic a few mutations away from a seed (so it can fail).
#[test]
fn the_smoke_run_reports_a_panicking_decoder() {
    fn fragile(data: &[u8]) {
        assert!(!data.contains(&0xff), "decoder does not expect 0xff");
    }
    let seeds = vec![b"router 0 node 0 router 1".to_vec()];
    let err = smoke("fragile", fragile, &seeds, 3_000).unwrap_err();
    assert!(
        err.contains("fuzz target fragile panicked on input #"),
        "{err}"
    );
    assert!(smoke("fragile", |_| (), &seeds, 100) == Ok(101));
}
