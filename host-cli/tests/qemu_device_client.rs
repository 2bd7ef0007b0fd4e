//! The host library against the real firmware under QEMU: images built with the CLI's
//! builders (`jumpnet::builder::image`) for `G(64, 6)` (NAF), a 4×4 torus (DOR) and a
//! Dragonfly (g 9, a 4, p 2, h 2; minimal on one VC), flashed through
//! `jumpnet::device::Client` over the QEMU transport: equal bytes read back, device routes
//! equal to the host's tables, a corrupted and a truncated image rejected with the previous
//! image kept; then the same over a fault-injecting wrapper.
//!
//! Ignored by default: `cargo xtask firmware` sets `JUMPNET_FIRMWARE_ELF` and runs it.

use std::path::PathBuf;
use std::time::Duration;

use jumpnet::builder::image::{self, BuiltImage};
use jumpnet::builder::network::OwnedNetwork;
use jumpnet::builder::routing::{RouteAlgo, RouteOptions};
use jumpnet::builder::schedule::{self, Algorithm, CollectiveRequest, JobPlacement};
use jumpnet::builder::topology::TopologySpec;
use jumpnet::device::client::CallError;
use jumpnet::device::fault::FaultInjector;
use jumpnet::device::qemu::Qemu;
use jumpnet::device::Client;
use jumpnet_core::image::ImageError;
use jumpnet_core::topology::Topology;
use jumpnet_core::wire::{Command, Rejection, Reply};

fn elf() -> PathBuf {
    std::env::var_os("JUMPNET_FIRMWARE_ELF")
        .map(PathBuf::from)
        .expect("JUMPNET_FIRMWARE_ELF is not set: run `cargo xtask firmware`")
}

fn built(topology: &str, algo: RouteAlgo, switch: u32) -> BuiltImage {
    let words: Vec<String> = topology.split_whitespace().map(String::from).collect();
    let owned = OwnedNetwork::build(&TopologySpec::parse(&words).unwrap()).unwrap();
    let ranks = owned.network().num_terminals();
    let schedules: Vec<_> = [Algorithm::Allreduce, Algorithm::Bcast]
        .into_iter()
        .map(|algorithm| {
            let req = CollectiveRequest {
                algorithm,
                ranks: Some(ranks),
                root: 0,
                bytes: 1024,
                elem_bytes: 4,
                placement: JobPlacement::Consecutive,
                seed: 1,
            };
            schedule::build(&req, None).unwrap()
        })
        .collect();
    let opts = RouteOptions {
        algo,
        max_layers: 8,
        seed: 1,
    };
    image::build(&owned, switch, &opts, &schedules).unwrap()
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn cli_images_flash_and_route_like_the_host() {
    let cases = [
        built("gcirculant n=64", RouteAlgo::Naf, 5),
        built("torus k=4,4", RouteAlgo::Dor, 6),
        built("dragonfly g=9 a=4 p=2 h=2", RouteAlgo::DfMinimal1vc, 13),
    ];
    let q = Qemu::start(&elf(), 60).unwrap();
    let mut client = Client::new(FaultInjector::new(q, 5, 0));
    for case in &cases {
        assert!(
            !case.programs.is_empty(),
            "the switch's terminals have programs"
        );
        let s = client.flash(&case.bytes).unwrap();
        assert_eq!(s.image_len as usize, case.bytes.len());
        assert_eq!(client.read_image().unwrap(), case.bytes);
        assert_eq!(client.routes(case.table.len() as u32).unwrap(), case.table);
    }
    let active = &cases[2];
    let mut bad = cases[0].bytes.clone();
    bad[25] ^= 0x80;
    let e = client.flash(&bad).unwrap_err();
    assert!(matches!(
        e.downcast_ref::<CallError>(),
        Some(CallError::Rejected(Rejection::Image(
            ImageError::CrcMismatch { .. }
        )))
    ));
    let cut = &cases[1].bytes[..cases[1].bytes.len() - 3];
    let e = client.flash(cut).unwrap_err();
    assert!(matches!(
        e.downcast_ref::<CallError>(),
        Some(CallError::Rejected(Rejection::Image(
            ImageError::Truncated { .. }
        )))
    ));
    assert_eq!(client.read_image().unwrap(), active.bytes);
    // The same flash over a link that damages about 3 bytes in 1000.
    client.transport_mut().set_per_mille(3);
    client.timeout = Duration::from_millis(300);
    client.attempts = 20;
    client.flash(&cases[0].bytes).unwrap();
    assert_eq!(client.read_image().unwrap(), cases[0].bytes);
    client.transport_mut().set_per_mille(0);
    let k = client.counters().unwrap();
    assert_eq!(k.images_activated, 4);
    assert_eq!(k.images_rejected, 2);
    assert!(matches!(
        client.call(Command::Shutdown),
        Ok(Reply::ShuttingDown)
    ));
    let done = client.into_transport().into_inner().finish().unwrap();
    assert!(done.status.success(), "{}", done.stderr);
}

/// Runs `jumpnet args` with `stdout`; returns the exit code and stderr.
fn cli_with_stdout(args: &[&str], stdout: std::process::Stdio) -> (i32, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_jumpnet"))
        .args(args)
        .env("JUMPNET_FIRMWARE_ELF", elf())
        .stdin(std::process::Stdio::null())
        .stdout(stdout)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_sessions_to_a_closed_pipe_or_a_full_disk_do_not_panic() {
    let dir = std::env::temp_dir().join(format!("jumpnet-qemu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let img = dir.join("s5.img");
    std::fs::write(&img, &built("gcirculant n=64", RouteAlgo::Naf, 5).bytes).unwrap();
    let img = img.to_str().unwrap();
    // `jumpnet device info --image s5.img | head -0`: the reader has gone.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let (code, err) = cli_with_stdout(&["device", "info", "--image", img], writer.into());
    assert_eq!((code, err.as_str()), (0, ""));
    // `jumpnet device flash --image s5.img > /dev/full`.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let (code, err) = cli_with_stdout(&["device", "flash", "--image", img], full.into());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cannot write to standard output: No space left on device"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn the_default_elf_is_found_from_any_working_directory() {
    // `cargo xtask firmware` builds the ELF in the target directory of this jumpnet.
    let dir = std::env::temp_dir().join(format!("jumpnet-qemu-cwd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_jumpnet"))
        .args([
            "device",
            "info",
            "gcirculant",
            "n=64",
            "--algo",
            "naf",
            "--switch",
            "5",
        ])
        .current_dir(&dir)
        .env_remove("JUMPNET_FIRMWARE_ELF")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("active image: switch 5 of"), "{out}");
    // A file QEMU cannot load is refused before QEMU starts, naming how to give another.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_jumpnet"))
        .args(["device", "info", "--elf", "/bin/true"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.starts_with("error: QEMU could not load the ELF /bin/true: it is not a 32-bit"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "needs the firmware ELF and QEMU: run `cargo xtask firmware`"]
fn device_info_names_the_routing_asked_for() {
    for (algo, shown) in [
        ("df-minimal-1vc", "routing df-minimal-1vc,"),
        ("df-minimal", "routing precomputed,"),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_jumpnet"))
            .args([
                "device",
                "info",
                "dragonfly",
                "g=9",
                "a=4",
                "p=2",
                "h=2",
                "--algo",
                algo,
                "--switch",
                "0",
            ])
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains(shown), "{algo}: {out}");
    }
}
