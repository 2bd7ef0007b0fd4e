//! `cargo xtask` — the one place that knows how to install and run everything of jumpnet.
//!
//! ```text
//! cargo xtask setup       install what is missing (rustup target/components, apt packages)
//! cargo xtask test        setup, then fmt, clippy, no_std check, tests, firmware under QEMU, RTL,
//!                         the HIL regression suite on QEMU devices and RTL engines
//! cargo xtask firmware    build the firmware ELFs (release) and run them under QEMU
//! cargo xtask firmware-build   build the firmware ELFs only (what `jumpnet device` needs)
//! cargo xtask bench       criterion benches, then the networkx baseline when present
//! cargo xtask bench booksim   only BookSim2 side by side (release and profile-guided)
//! cargo xtask pgo         the profile-guided `jumpnet` binary, target/pgo/jumpnet
//! cargo xtask fuzz [TARGET] [--seconds N]
//!                         coverage-guided fuzzing of every decoder (cargo-fuzz, libFuzzer)
//! ```
//!
//! Only the standard library is used, so this builds in seconds on a fresh machine.

mod bench;
mod bench_booksim;
mod firmware;
mod fuzz;
mod pgo;
mod pipeline;
mod process;
mod setup;
mod test;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  setup      install missing tools: thumbv7em-none-eabihf target, rustfmt, clippy,
             apt packages (qemu-system-arm verilator iverilog yosys pkg-config
             libsimgrid-dev simgrid)
  test       setup, then fmt, clippy (host + firmware, firmware `rtt` feature), rustdoc, the host's
             `probe` feature (clippy + build + its unit tests), no_std check, workspace
             tests, firmware under QEMU, RTL under Verilator/Icarus/Yosys, the shipped
             HIL suite on QEMU devices and on RTL engines (JUnit in target/hil-suite-*.xml;
             fails fast)
  firmware   build the firmware ELFs (--release) and run them under QEMU
  firmware-build
             build the firmware ELFs only, no tests and no other tools: what `jumpnet
             device` and `jumpnet hil --engine device` run (the `selftest` ELF, found by
             jumpnet beside its own target directory; needs the thumbv7em-none-eabihf target
             and qemu-system-arm, not Verilator/Icarus/Yosys)
  bench      run the criterion benches, the networkx baseline (when present) and, when
             BOOKSIM names a BookSim2 binary built from source, BookSim2 side by side with
             the release and the profile-guided jumpnet (docs/booksim.md §6)
  bench booksim
             only the BookSim2 side by side (needs BOOKSIM)
  pgo        build the profile-guided `jumpnet` (llvm-tools from rustup, an instrumented
             build, short training runs of the simulator, the optimised build) into
             target/pgo/jumpnet, checked to print the release build's results on every
             training run (docs/booksim.md §6)
  validate smpi
             run the SMPI cross-validation matrix (docs/smpi.md §4: SimGrid from Debian,
             the project's MPI program under smpirun beside `jumpnet sim --collective --nic
             mpi`), print the table and write it to target/smpi/table.md
  fuzz [TARGET] [--seconds N]
             coverage-guided fuzzing (cargo-fuzz, libFuzzer, on the stable toolchain via
             RUSTC_BOOTSTRAP=1) of every decoder of untrusted bytes, N seconds per target
             (default 60), from the seeds in fuzz/seeds/; installs cargo-fuzz if missing;
             a crash fails it and leaves the input in fuzz/artifacts/TARGET/
  help       print this message";

/// `cargo xtask validate smpi`: setup (SimGrid), then the SMPI test in full-matrix mode.
fn validate_smpi_matrix() -> process::Result {
    setup::run()?;
    let mut cmd = process::cargo();
    cmd.args([
        "test",
        "--release",
        "-p",
        "jumpnet",
        "--test",
        "smpi_validation",
        "--",
        "--nocapture",
        "collective_makespans_agree_with_smpi",
    ])
    .env("JUMPNET_SMPI_FULL", "1");
    process::run(cmd)
}

/// Root of the workspace (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let validate_smpi = command == "validate" && args.get(1).map(String::as_str) == Some("smpi");
    let bench_booksim = command == "bench" && args.get(1).map(String::as_str) == Some("booksim");
    if args.len() > 1 && command != "fuzz" && !((validate_smpi || bench_booksim) && args.len() == 2)
    {
        eprintln!(
            "error: unexpected arguments after `{command}`: {:?}\n\n{USAGE}",
            &args[1..]
        );
        return ExitCode::from(2);
    }
    if let Err(e) = std::env::set_current_dir(workspace_root()) {
        eprintln!("error: cannot enter the workspace root: {e}");
        return ExitCode::FAILURE;
    }
    let outcome = match command.as_str() {
        "setup" => pipeline::run_one("setup", setup::run),
        "test" => test::run(),
        "firmware" => pipeline::run_one("firmware", firmware::run),
        "firmware-build" => pipeline::run_one("firmware-build", || {
            let elf = firmware::build()?;
            println!(
                "use it with `jumpnet device …` / `jumpnet hil --engine device …` (found \
                 automatically beside this target directory) or --elf {} / \
                 JUMPNET_FIRMWARE_ELF={}",
                elf.display(),
                elf.display()
            );
            Ok(())
        }),
        "bench" if bench_booksim => pipeline::run_one("bench booksim", bench_booksim::run),
        "bench" => pipeline::run_one("bench", bench::run),
        "pgo" => pipeline::run_one("pgo", || pgo::build_optimised().map(|_| ())),
        "validate" if validate_smpi => pipeline::run_one("validate smpi", validate_smpi_matrix),
        "validate" => {
            eprintln!("error: `cargo xtask validate` takes what to validate: smpi\n\n{USAGE}");
            return ExitCode::from(2);
        }
        "fuzz" => match fuzz::parse_args(&args[1..]) {
            Ok(req) => pipeline::run_one("fuzz", || fuzz::run(&req)),
            Err(e) => {
                eprintln!("error: {e}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => {
            eprintln!("error: unknown command `{other}`\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::FAILURE
        }
    }
}
