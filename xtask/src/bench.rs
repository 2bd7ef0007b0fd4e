//! `cargo xtask bench`: criterion benches of every crate that has some, the flash and static
//! RAM of the size-optimised `device` firmware (`firmware::device_sizes`), then the networkx
//! baseline on the same random-shortcut graph when the script and an edge list exist.
//!
//! Edge list convention: `$JUMPNET_EDGE_LIST` if set; otherwise every `jumpnet-core` example
//! whose name contains `edge` is run (release) and the newest `*.edges` / `*.edgelist` /
//! `*edges.txt` file under `target/` (outside cargo's own folders) is used.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use crate::process::{self, cargo, Result};

const NETWORKX_SCRIPT: &str = "scripts/networkx_baseline.py";

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
    networkx_baseline()
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
    fn workspace_members_include_the_core() {
        let m = members(&crate::workspace_root()).unwrap();
        assert!(m.iter().any(|p| p.ends_with("core")));
        assert!(m.iter().any(|p| p.ends_with("xtask")));
    }
}
