//! `jumpnet device`: device images and the firmware behind a transport.
//!
//! - `image`: build a device image (kind 4) for one switch from a topology, a routing and
//!   collectives, and write it to a file;
//! - `flash`: flash an image (built or read from `--image`), read it back and require equal
//!   bytes, print what the device reports as loaded;
//! - `info`: what the device reports (after flashing, when an image is given);
//! - `routes`: flash, then compare every route the device looks up with the host's table
//!   (exit status 1 on a difference);
//! - `log`: run a session (flashing when an image is given) and print the device's defmt
//!   log decoded with `defmt-decoder`.
//!
//! Transports: `qemu` (the firmware ELF under `qemu-system-arm`; a QEMU device keeps nothing
//! between invocations, so every subcommand flashes first when given an image) and `probe`
//! (cargo feature `probe`: the firmware ELF, built with the firmware's `rtt` feature, is
//! flashed onto a real board through probe-rs, `--chip` from its target registry, optional
//! `--probe VID:PID[:SERIAL]`; frames and the defmt log travel over RTT).
//!
//! The image is the library's ([`crate::builder::image::build_device_image`] of a
//! [`DeviceImageRequest`]); the session talks through [`crate::device::Client`] over a
//! [`crate::device::link::DeviceLink`] and prints as it goes.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use jumpnet_core::image::device as device_image;
use jumpnet_core::image::frame;
use jumpnet_core::wire::{Command, Reply};

use crate::builder::image::{build_device_image, BuiltImage, DeviceImageRequest};
use crate::builder::schedule::Algorithm;
use crate::builder::topology::TopologySpec;
use crate::commands::args::RouteArgs;
use crate::device::link::DeviceLink;
use crate::device::probe_selector::ProbeSelector;
use crate::device::qemu::{self, Qemu};
use crate::device::{Client, Transport};
use crate::io::output::{print_line, write_atomic};

/// Device images; flash, inspect and compare a device (firmware under QEMU).
#[derive(Debug, Subcommand)]
pub enum DeviceAction {
    /// Build a device image for one switch and write it to a file.
    Image {
        /// What goes into the image.
        #[command(flatten)]
        content: ContentArgs,
        /// Output file (written atomically).
        #[arg(long, short = 'o', value_name = "FILE")]
        output: PathBuf,
    },
    /// Flash an image, read it back (equal bytes required) and print what is loaded.
    Flash(SessionArgs),
    /// Print what the device reports as loaded (flashing first when an image is given).
    Info(SessionArgs),
    /// Flash, then compare the device's routes with the host's table (exit 1 on a difference).
    Routes(SessionArgs),
    /// Run a session and print the device's decoded defmt log.
    Log(SessionArgs),
}

/// The content of a device image.
#[derive(Debug, Args, Clone)]
pub struct ContentArgs {
    /// Topology: a family followed by key=value parameters, e.g. `gcirculant n=64`,
    /// `torus k=4,4`, `dragonfly g=9 a=4 p=2 h=2` (structured families only).
    #[arg(num_args = 0.., value_name = "TOPOLOGY")]
    pub topology: Vec<String>,
    /// The routing.
    #[command(flatten)]
    pub route: RouteArgs,
    /// The switch the device is.
    #[arg(long, default_value_t = 0)]
    pub switch: u32,
    /// Collectives whose programs the switch's terminals run (repeatable).
    #[arg(long = "collective", value_enum, value_name = "ALGORITHM")]
    pub collectives: Vec<Algorithm>,
    /// Ranks of the collectives (default: every terminal).
    #[arg(long, short = 'n')]
    pub ranks: Option<u32>,
    /// Message size in bytes of the collectives (plain, KiB/MiB/GiB, kB/MB/GB or 2^k).
    #[arg(long, default_value = "1024", value_parser = crate::io::bytes::parse_size)]
    pub bytes: u64,
    /// Element size of reductions in bytes (`allreduce-ring` chunks whole elements).
    #[arg(long, default_value_t = 4)]
    pub elem_bytes: u32,
}

/// Transports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TransportKind {
    /// The firmware ELF under qemu-system-arm (mps2-an386), UART on a Unix socket.
    Qemu,
    /// A real board through a debug probe (probe-rs; needs the `probe` cargo feature):
    /// flashes the ELF, then frames and the defmt log over RTT.
    Probe,
}

/// A session with a device.
#[derive(Debug, Args, Clone)]
pub struct SessionArgs {
    /// What to flash (give a topology, or `--image`).
    #[command(flatten)]
    pub content: ContentArgs,
    /// Flash this image file instead of building one.
    #[arg(long, value_name = "FILE", conflicts_with = "topology")]
    pub image: Option<PathBuf>,
    /// How to reach the device.
    #[arg(long, value_enum, default_value = "qemu")]
    pub transport: TransportKind,
    /// Firmware ELF: the `selftest` binary of the firmware (default `$JUMPNET_FIRMWARE_ELF`,
    /// else thumbv7em-none-eabihf/release/selftest of the target directory jumpnet was built
    /// in; `cargo xtask firmware-build` builds it). For `--transport probe` build it with the
    /// firmware's `rtt` feature.
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
    /// Wall-clock limit of the QEMU run in seconds (at least 1).
    #[arg(long, default_value_t = qemu::DEFAULT_LIMIT_S, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,
    /// Chip for `--transport probe`, a name from probe-rs's target registry (e.g.
    /// STM32F407VGTx, nRF52840_xxAA).
    #[arg(long, value_name = "NAME")]
    pub chip: Option<String>,
    /// Debug probe for `--transport probe` when several are attached: hexadecimal USB ids and
    /// an optional serial number.
    #[arg(long, value_name = "VID:PID[:SERIAL]")]
    pub probe: Option<ProbeSelector>,
}

/// Flashes the ELF through a debug probe and connects over RTT.
#[cfg(feature = "probe")]
fn open_probe(args: &SessionArgs) -> Result<crate::device::link::ProbeSession> {
    let Some(chip) = &args.chip else {
        bail!(
            "--transport probe needs --chip NAME, a chip of probe-rs's target registry (e.g. STM32F407VGTx)"
        );
    };
    let elf = elf_path(args);
    crate::device::link::ProbeSession::open(&crate::device::probe::ProbeParams {
        chip,
        probe: args.probe.as_ref(),
        elf: &elf,
        rtt_timeout: std::time::Duration::from_secs(5),
    })
}

#[cfg(not(feature = "probe"))]
fn open_probe(_: &SessionArgs) -> Result<Qemu> {
    bail!(
        "--transport probe needs a jumpnet built with the `probe` feature (`cargo build --release -p jumpnet --features probe`)"
    )
}

impl ContentArgs {
    /// The library's request (the topology parsed).
    pub fn request(&self) -> Result<DeviceImageRequest> {
        if self.topology.is_empty() {
            bail!("give a topology (e.g. `gcirculant n=64`) or an image file with --image FILE");
        }
        Ok(DeviceImageRequest {
            topology: TopologySpec::parse(&self.topology)?,
            route: self.route.options(),
            switch: self.switch,
            collectives: self.collectives.clone(),
            ranks: self.ranks,
            bytes: self.bytes,
            elem_bytes: self.elem_bytes,
        })
    }
}

fn elf_path(args: &SessionArgs) -> PathBuf {
    qemu::firmware_elf(args.elf.as_deref())
}

/// The image of a session: built, read from a file, or none.
fn session_image(args: &SessionArgs) -> Result<Option<(Vec<u8>, Option<BuiltImage>)>> {
    if let Some(path) = &args.image {
        let bytes = crate::io::read::read_bytes(path, crate::io::read::Limit::IMAGE)?;
        frame::parse(&bytes).with_context(|| format!("{} is not a valid image", path.display()))?;
        return Ok(Some((bytes, None)));
    }
    if args.content.topology.is_empty() {
        return Ok(None);
    }
    let built = build_device_image(&args.content.request()?)?;
    Ok(Some((built.bytes.clone(), Some(built))))
}

/// Runs `jumpnet device`; returns the exit code.
pub fn run(action: DeviceAction) -> Result<u8> {
    match action {
        DeviceAction::Image { content, output } => {
            let built = build_device_image(&content.request()?)?;
            write_atomic(&output, &built.bytes)?;
            print_line(&format!(
                "device image for switch {}: {} bytes, {} destinations in {} runs, {} programs \
                 ({} ops) -> {}",
                content.switch,
                built.bytes.len(),
                built.table.len(),
                built.runs,
                built.programs.len(),
                built.programs.iter().map(|p| p.ops).sum::<u32>(),
                output.display()
            ))?;
            Ok(0)
        }
        DeviceAction::Flash(args) => session(&args, Mode::Flash),
        DeviceAction::Info(args) => session(&args, Mode::Info),
        DeviceAction::Routes(args) => session(&args, Mode::Routes),
        DeviceAction::Log(args) => session(&args, Mode::Log),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flash,
    Info,
    Routes,
    Log,
}

fn session(args: &SessionArgs, mode: Mode) -> Result<u8> {
    if args.transport == TransportKind::Qemu && (args.chip.is_some() || args.probe.is_some()) {
        bail!("--chip and --probe apply to --transport probe only");
    }
    let image = session_image(args)?;
    if image.is_none() && matches!(mode, Mode::Flash | Mode::Routes) {
        bail!("nothing to flash: give a topology (e.g. `gcirculant n=64`) or --image FILE");
    }
    match args.transport {
        TransportKind::Qemu => run_on(Qemu::start(&elf_path(args), args.limit)?, image, mode),
        TransportKind::Probe => run_on(open_probe(args)?, image, mode),
    }
}

/// Talks to the device over `link`, shuts it down and prints its log for `log`.
fn run_on<L: DeviceLink>(
    link: L,
    image: Option<(Vec<u8>, Option<BuiltImage>)>,
    mode: Mode,
) -> Result<u8> {
    let mut client = Client::new(link);
    let outcome = talk(&mut client, image.as_ref(), mode);
    let shutdown = client.call(Command::Shutdown);
    let log = client.into_transport().end(shutdown.is_ok())?;
    if mode == Mode::Log {
        for line in &log {
            print_line(line)?;
        }
    }
    let code = outcome?;
    if !matches!(shutdown?, Reply::ShuttingDown) {
        bail!("the device did not acknowledge Shutdown");
    }
    Ok(code)
}

fn talk<T: Transport>(
    client: &mut Client<T>,
    image: Option<&(Vec<u8>, Option<BuiltImage>)>,
    mode: Mode,
) -> Result<u8> {
    let mut code = 0;
    if let Some((bytes, built)) = image {
        let summary = client.flash_and_read_back(bytes)?;
        print_line(&format!(
            "flashed {} bytes (CRC-32 {:#010x}), read back identical",
            summary.image_len, summary.crc
        ))?;
        if mode == Mode::Routes {
            let Some(built) = built else {
                bail!("routes needs the topology to compute the host's table (not --image)");
            };
            let cmp = client.compare_routes(&built.table)?;
            match cmp.differing.first() {
                None => print_line(&format!("{} routes: device = host", built.table.len()))?,
                Some(&d) => {
                    print_line(&format!(
                        "{} of {} routes differ; first: destination {d}: device {:?}, host {:?}",
                        cmp.differing.len(),
                        built.table.len(),
                        cmp.device.get(d),
                        built.table.get(d)
                    ))?;
                    code = 1;
                }
            }
        }
    }
    if matches!(mode, Mode::Info | Mode::Flash) {
        let info = client.info()?;
        match &info.active {
            Some(s) => {
                let c = s.header.capacities;
                print_line(&format!(
                    "active image: switch {} of {:?}, routing {}, {} destinations in {} runs, \
                     {} programs ({} ops), {} bytes, CRC-32 {:#010x}",
                    s.header.switch,
                    s.header.network,
                    s.header.algorithm,
                    c.destinations,
                    c.runs,
                    c.programs,
                    c.ops,
                    s.image_len,
                    s.crc
                ))?;
            }
            None => print_line("no active image")?,
        }
        let l = info.limits;
        print_line(&format!(
            "device capacities: {} runs, {} programs, {} ops, {} image bytes (max image of \
             these counts: {} bytes)",
            l.runs,
            l.programs,
            l.ops,
            l.image_bytes,
            device_image::max_image_len(l.runs as usize, l.programs as usize, l.ops as usize)
        ))?;
        let c = client.counters()?;
        print_line(&format!(
            "device counters: {} requests, {} rejected, {} bad frames, {} frame timeouts, {} \
             heartbeats",
            c.requests, c.rejected, c.bad_frames, c.frame_timeouts, c.heartbeats
        ))?;
    }
    Ok(code)
}
