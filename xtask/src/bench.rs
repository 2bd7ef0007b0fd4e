//! `cargo xtask bench`: criterion benches of every crate that has some, the flash and static
//! RAM of the size-optimised `device` firmware (`firmware::device_sizes`), the networkx
//! baseline on the same random-shortcut graph when the script and an edge list exist,
//! BookSim2 side by side when `$BOOKSIM` names its binary (`bench_booksim`), and
//! the FPGA resource estimates of the RTL blocks (Yosys `synth_ice40`: LUT4, flip-flops,
//! block RAMs, carry cells).
//!
//! Edge list convention: `$JUMPNET_EDGE_LIST` if set; otherwise every `jumpnet-core` example
//! whose name contains `edge` is run (release) and the newest `*.edges` / `*.edgelist` /
//! `*edges.txt` file under `target/` (outside cargo's own folders) is used.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use crate::process::{self, cargo, Result};

const NETWORKX_SCRIPT: &str = "xtask/scripts/networkx_baseline.py";

/// `cargo xtask bench`.
pub fn run() -> Result {
    let packages = packages_with_benches()?;
    if packages.is_empty() {
        println!("bench: no crate has benches yet");
    }
    for package in &packages {
        let mut c = cargo();
        c.args(["bench", "-p", package, "--benches"]);
        process::run(c)?;
    }
    crate::firmware::device_sizes()?;
    crate::firmware::hil_slowdown()?;
    crate::test::rtl_hil_slowdown()?;
    networkx_baseline()?;
    crate::bench_booksim::run()?;
    rtl_estimates()
}

/// Verilog parameters of one block (`chparam -set NAME VALUE`).
type Params = &'static [(&'static str, u32)];

/// The RTL blocks whose estimates are reported: file, top module, parameters.
const RTL_BLOCKS: &[(&str, &str, Params)] = &[
    ("sched_engine.v", "sched_engine", &[("ADDR_W", 6)]),
    (
        "table_router.v",
        "table_router",
        &[
            ("RUN_W", 6),
            ("DST_W", 16),
            ("IN_W", 2),
            ("OUT_W", 3),
            ("VC_W", 4),
        ],
    ),
];

/// Resource counts of one `synth_ice40` run.
#[derive(Debug, Default, PartialEq, Eq)]
struct Ice40Stat {
    luts: u64,
    flops: u64,
    brams: u64,
    carries: u64,
}

/// Parses the cell lines of Yosys `stat` after `synth_ice40`.
fn parse_ice40_stat(stat: &str) -> Ice40Stat {
    let mut s = Ice40Stat::default();
    for line in stat.lines() {
        let mut it = line.split_whitespace();
        let (Some(cell), Some(n)) = (it.next(), it.next()) else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else { continue };
        match cell {
            "SB_LUT4" => s.luts += n,
            "SB_CARRY" => s.carries += n,
            c if c.starts_with("SB_DFF") => s.flops += n,
            c if c.starts_with("SB_RAM40") => s.brams += n,
            _ => {}
        }
    }
    s
}

/// Synthesizes each RTL block for iCE40 and prints LUT/FF/BRAM estimates.
fn rtl_estimates() -> Result {
    if process::output({
        let mut c = Command::new("yosys");
        c.arg("-V");
        c
    })
    .is_none()
    {
        println!("bench: yosys not installed (cargo xtask setup); skipping RTL estimates");
        return Ok(());
    }
    let rtl = crate::workspace_root().join("hdl-harness/rtl");
    println!("bench: RTL resource estimates (yosys synth_ice40)");
    println!("  block          parameters                          LUT4     FF  BRAM  CARRY");
    for (file, top, params) in RTL_BLOCKS {
        let chparams: String = params
            .iter()
            .map(|(k, v)| format!("chparam -set {k} {v} {top}; "))
            .collect();
        let script = format!(
            "read_verilog {}; {chparams}synth_ice40 -top {top}; tee -o /dev/stdout stat",
            rtl.join(file).display()
        );
        let out = Command::new("yosys")
            .args(["-q", "-p", &script])
            .output()
            .map_err(|e| format!("yosys: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "yosys synth_ice40 of {top} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let s = parse_ice40_stat(&String::from_utf8_lossy(&out.stdout));
        let p: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!(
            "  {top:<14} {:<34} {:>6} {:>6} {:>5} {:>6}",
            p.join(" "),
            s.luts,
            s.flops,
            s.brams,
            s.carries
        );
    }
    Ok(())
}

/// Workspace members (from the root manifest's `members = [...]`).
fn members(root: &Path) -> Result<Vec<PathBuf>> {
    let manifest =
        fs::read_to_string(root.join("Cargo.toml")).map_err(|e| format!("read Cargo.toml: {e}"))?;
    let start = manifest
        .find("members")
        .ok_or("no `members` in the workspace manifest")?;
    let list = &manifest[start..];
    let open = list.find('[').ok_or("malformed `members`")?;
    let close = list.find(']').ok_or("malformed `members`")?;
    Ok(list[open + 1..close]
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root.join(m))
        .collect())
}

/// Package name of a member manifest (first `name = "..."`).
fn package_name(manifest: &str) -> Option<String> {
    manifest.lines().find_map(|l| {
        let l = l.trim();
        let rest = l.strip_prefix("name")?.trim_start().strip_prefix('=')?;
        Some(rest.trim().trim_matches('"').to_string())
    })
}

fn packages_with_benches() -> Result<Vec<String>> {
    let mut out = Vec::new();
    for dir in members(&crate::workspace_root())? {
        let Ok(manifest) = fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let has_bench_dir = fs::read_dir(dir.join("benches")).is_ok_and(|entries| {
            entries
                .filter_map(|e| e.ok())
                .any(|e| e.path().extension().is_some_and(|x| x == "rs"))
        });
        if has_bench_dir || manifest.contains("[[bench]]") {
            if let Some(name) = package_name(&manifest) {
                out.push(name);
            }
        }
    }
    Ok(out)
}

fn is_edge_list(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.ends_with(".edges") || name.ends_with(".edgelist") || name.ends_with("edges.txt")
}

/// Newest edge-list file under `dir`, skipping cargo's build folders.
fn newest_edge_list(dir: &Path, depth: usize, best: &mut Option<(SystemTime, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let cargo_internal = matches!(
                name.as_str(),
                "deps" | "build" | "incremental" | ".fingerprint" | "debug" | "release"
            ) || name.starts_with("thumb");
            if depth > 0 && !cargo_internal {
                newest_edge_list(&path, depth - 1, best);
            }
        } else if is_edge_list(&path) {
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            if best.as_ref().is_none_or(|(t, _)| modified > *t) {
                *best = Some((modified, path));
            }
        }
    }
}

fn find_edge_list(root: &Path) -> Result<Option<PathBuf>> {
    if let Some(path) = std::env::var_os("JUMPNET_EDGE_LIST") {
        return Ok(Some(PathBuf::from(path)));
    }
    let examples: Vec<String> = fs::read_dir(root.join("core/examples"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rs"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .filter(|s| s.contains("edge"))
                .collect()
        })
        .unwrap_or_default();
    for example in &examples {
        let mut c = cargo();
        c.args([
            "run",
            "--release",
            "-p",
            "jumpnet-core",
            "--example",
            example,
        ]);
        process::run(c)?;
    }
    let mut best = None;
    newest_edge_list(&root.join("target"), 3, &mut best);
    Ok(best.map(|(_, p)| p))
}

fn python() -> Command {
    Command::new("python3")
}

fn networkx_baseline() -> Result {
    let root = crate::workspace_root();
    let script = root.join(NETWORKX_SCRIPT);
    if !script.is_file() {
        println!("bench: {NETWORKX_SCRIPT} not present; skipping the networkx baseline");
        return Ok(());
    }
    let Some(edges) = find_edge_list(&root)? else {
        println!(
            "bench: no edge list found (set JUMPNET_EDGE_LIST or add a core example named \
             *edge* that writes a *.edges file under target/); skipping the networkx baseline"
        );
        return Ok(());
    };
    let has_networkx = process::output({
        let mut c = python();
        c.args(["-c", "import networkx"]);
        c
    })
    .is_some();
    if !has_networkx {
        println!("bench: installing networkx with pip");
        let mut c = python();
        c.args(["-m", "pip", "install", "--quiet", "networkx"]);
        process::run(c)?;
    }
    println!("bench: networkx baseline on {}", edges.display());
    let mut c = python();
    c.arg(&script).arg(&edges);
    process::run(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_package_names_and_edge_list_names() {
        let manifest = "[package]\nname = \"jumpnet-core\"\nversion = \"0.1.0\"\n";
        assert_eq!(package_name(manifest).as_deref(), Some("jumpnet-core"));
        assert!(is_edge_list(Path::new("target/bench/rs4096.edges")));
        assert!(is_edge_list(Path::new("x/random_shortcut_edges.txt")));
        assert!(!is_edge_list(Path::new("target/release/libfoo.rlib")));
    }

    #[test]
    fn ice40_stat_lines_are_summed_by_kind() {
        let stat = "   Number of cells:  10\n     SB_CARRY   2\n     SB_DFFE   3\n     \
                    SB_DFFESR   4\n     SB_LUT4   5\n     SB_RAM40_4K   1\n";
        assert_eq!(
            parse_ice40_stat(stat),
            Ice40Stat {
                luts: 5,
                flops: 7,
                brams: 1,
                carries: 2
            }
        );
    }

    #[test]
    fn workspace_members_include_the_core() {
        let m = members(&crate::workspace_root()).unwrap();
        assert!(m.iter().any(|p| p.ends_with("core")));
        assert!(m.iter().any(|p| p.ends_with("xtask")));
    }
}
