//! Verilates the RTL in `rtl/` and compiles the models with their C shims (`csrc/`) into one
//! static library (recipe in the workspace's toolchain notes):
//! `verilator --cc` per design, then the `cc` crate (C++17, -O2) over the generated sources,
//! `verilated.cpp`, `verilated_threads.cpp`, `verilated_vcd_c.cpp` (waveforms of the designs
//! verilated with `--trace`) and the shims.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One Verilog design: top module, its sources, its parameters (`-G`), whether its model can
/// write a waveform (`--trace`, VCD) and its hand-written C shim (whose comment names the
/// same parameters).
struct Design {
    top: &'static str,
    sources: &'static [&'static str],
    params: &'static [&'static str],
    trace: bool,
    shim: &'static str,
}

const DESIGNS: &[Design] = &[
    Design {
        top: "xoshiro256ss",
        sources: &["rtl/xoshiro256ss.v"],
        params: &[],
        trace: false,
        shim: "csrc/xoshiro256ss_shim.cpp",
    },
    Design {
        top: "sched_engine",
        sources: &["rtl/sched_engine.v"],
        params: &["-GADDR_W=8"],
        trace: true,
        shim: "csrc/sched_engine_shim.cpp",
    },
    Design {
        top: "table_router",
        sources: &["rtl/table_router.v"],
        params: &[
            "-GRUN_W=8",
            "-GDST_W=16",
            "-GIN_W=2",
            "-GOUT_W=4",
            "-GVC_W=4",
        ],
        trace: false,
        shim: "csrc/table_router_shim.cpp",
    },
];

const SETUP_HINT: &str = "run `cargo xtask setup` (installs verilator, iverilog and yosys)";

fn verilator(args: &[&str]) -> Result<String, String> {
    let out = Command::new("verilator")
        .args(args)
        .output()
        .map_err(|e| format!("verilator not found ({e}): jumpnet-hdl needs it; {SETUP_HINT}"))?;
    if !out.status.success() {
        return Err(format!(
            "`verilator {}` failed:\n{}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn fail(message: String) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=rtl");
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-env-changed=VERILATOR_ROOT");

    let version = verilator(&["--version"]).unwrap_or_else(|e| fail(e));
    let root = env::var("VERILATOR_ROOT")
        .ok()
        .filter(|r| !r.is_empty())
        .map(Ok)
        .unwrap_or_else(|| verilator(&["--getenv", "VERILATOR_ROOT"]))
        .unwrap_or_else(|e| fail(e));
    let include = Path::new(&root).join("include");
    if !include.join("verilated.cpp").is_file() {
        fail(format!(
            "{version}: no verilated.cpp under {}; {SETUP_HINT}",
            include.display()
        ));
    }
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .opt_level(2)
        .warnings(false)
        .include(&include)
        .include(include.join("vltstd"))
        .define("VM_COVERAGE", "0")
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "0")
        .define("VM_TRACE_VCD", "1")
        .flag_if_supported("-faligned-new")
        .flag_if_supported("-Wno-unused-parameter")
        .file(include.join("verilated.cpp"))
        .file(include.join("verilated_threads.cpp"))
        .file(include.join("verilated_vcd_c.cpp"));

    for design in DESIGNS {
        let mdir = out_dir.join(format!("obj_{}", design.top));
        let mdir_s = mdir.to_string_lossy().into_owned();
        let mut args = vec![
            "--cc",
            "-Wall",
            "-O3",
            "--top-module",
            design.top,
            "--Mdir",
            mdir_s.as_str(),
        ];
        if design.trace {
            args.push("--trace");
        }
        args.extend_from_slice(design.params);
        args.extend_from_slice(design.sources);
        verilator(&args).unwrap_or_else(|e| fail(e));
        build.include(&mdir).file(design.shim);
        let mut generated: Vec<PathBuf> = std::fs::read_dir(&mdir)
            .unwrap_or_else(|e| fail(format!("read {}: {e}", mdir.display())))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
            .collect();
        generated.sort();
        build.files(generated);
    }

    build.compile("jumpnet_hdl_models");
    println!("cargo:rustc-link-lib=pthread");
    println!("cargo:rustc-link-lib=atomic");
}
