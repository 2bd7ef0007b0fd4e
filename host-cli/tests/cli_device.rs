//! `jumpnet device image`: a written image decodes to what was asked for; bad input is a
//! clear error with a non-zero exit and no file. (Device sessions need QEMU: see
//! `qemu_device_client.rs`.)

mod common;
use common::*;

use jumpnet_core::collective::{Blocks, Dep, Op};
use jumpnet_core::image::device::{
    self, Capacities, DeviceBuffers, ProgramEntry, RoutingAlgorithm,
};
use jumpnet_core::routing::{RouteEntry, Run};
use jumpnet_core::topology::spec::NetworkSpec;

#[test]
fn image_is_written_and_decodes() {
    let dir = tmpdir("device-image");
    let out = dir.join("s5.img");
    let (code, stdout, stderr) = jumpnet(&[
        "device",
        "image",
        "gcirculant",
        "n=64",
        "--algo",
        "naf",
        "--switch",
        "5",
        "--collective",
        "allreduce",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("64 destinations"), "{stdout}");
    let bytes = std::fs::read(&out).unwrap();
    let mut runs = vec![
        Run {
            first: 0,
            value: RouteEntry::NONE
        };
        64
    ];
    let mut programs = vec![ProgramEntry::default(); 4];
    let blank = Op::Send {
        peer: 0,
        blocks: Blocks::All,
        after: Dep::None,
    };
    let mut ops = vec![blank; 64];
    let d = device::decode(
        &bytes,
        DeviceBuffers {
            runs: &mut runs,
            programs: &mut programs,
            ops: &mut ops,
        },
    )
    .unwrap();
    assert_eq!(d.header.switch, 5);
    assert_eq!(d.header.network, NetworkSpec::CirculantG { n: 64 });
    assert_eq!(d.header.algorithm, RoutingAlgorithm::CirculantNaf);
    assert_eq!(
        d.header.capacities,
        Capacities {
            destinations: 64,
            runs: d.table.runs().len() as u32,
            programs: 1,
            ops: d.ops.len() as u32
        }
    );
    assert_eq!((d.programs[0].rank, d.programs[0].ranks), (5, 64));
}

#[test]
fn bad_input_is_named_and_nothing_is_written() {
    let dir = tmpdir("device-bad");
    let out = dir.join("x.img");
    let o = out.to_str().unwrap();
    let (code, _, stderr) = jumpnet(&[
        "device",
        "image",
        "gcirculant",
        "n=64",
        "--algo",
        "naf",
        "--switch",
        "64",
        "-o",
        o,
    ]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("--switch 64 is out of range: the topology has switches 0..64"),
        "{stderr}"
    );
    let (code, _, stderr) = jumpnet(&[
        "device", "image", "torus", "k=4,4", "--algo", "naf", "-o", o,
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--algo naf needs"), "{stderr}");
    let (code, _, stderr) = jumpnet(&["device", "image", "-o", o]);
    assert_ne!(code, 0);
    assert!(stderr.contains("give a topology"), "{stderr}");
    let (code, _, stderr) = jumpnet(&["device", "info", "--transport", "probe"]);
    assert_ne!(code, 0);
    let expected = if cfg!(feature = "probe") {
        "--transport probe needs --chip NAME"
    } else {
        "--transport probe needs a jumpnet built with the `probe` feature"
    };
    assert!(stderr.contains(expected), "{stderr}");
    let (code, _, stderr) = jumpnet(&["device", "info", "--chip", "RP2040"]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("--chip and --probe apply to --transport probe only"),
        "{stderr}"
    );
    let (code, _, stderr) =
        jumpnet_line("device info --transport probe --chip RP2040 --probe 0483:zz");
    assert_ne!(code, 0);
    assert!(
        stderr.contains("bad probe selector `0483:zz`: the product id `zz`"),
        "{stderr}"
    );
    assert!(!out.exists());
}
