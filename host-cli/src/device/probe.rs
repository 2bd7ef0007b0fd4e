//! The probe-rs backend (cargo feature `probe`): flashes a firmware ELF built with the
//! firmware's `rtt` feature onto a real board through a debug probe, starts it, and carries
//! the wire frames over RTT ([`super::rtt::RttLink`]; channel layout in
//! `jumpnet_core::wire::rtt`), with the defmt log on its own RTT channel.
//!
//! Order of checks, so mistakes are reported before any hardware is touched: the chip name
//! against probe-rs's built-in target registry ([`super::chip`]), the probes attached
//! ([`super::probe_selector::choose`]), then the ELF and its RTT control block.

use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use probe_rs::config::Registry;
use probe_rs::flashing::{self, ElfLoader, ElfOptions};
use probe_rs::probe::list::Lister;
use probe_rs::rtt::{self, Rtt, ScanRegion};
use probe_rs::{Permissions, Session};

use jumpnet_core::wire::rtt::{DEFMT_UP, FRAMES_DOWN, FRAMES_UP};

use super::chip;
use super::probe_selector::{self, AttachedProbe, ProbeSelector};
use super::rtt::{RttChannels, RttLink};

/// What to flash and where.
#[derive(Debug, Clone)]
pub struct ProbeParams<'a> {
    /// Chip name (probe-rs target registry).
    pub chip: &'a str,
    /// Which probe, when several are attached.
    pub probe: Option<&'a ProbeSelector>,
    /// Firmware ELF built with the firmware's `rtt` feature.
    pub elf: &'a Path,
    /// How long to wait for the firmware's RTT control block after reset.
    pub rtt_timeout: Duration,
}

/// Every chip name of probe-rs's built-in target registry: chip names and their package
/// variants (e.g. `STM32F407VG` and `STM32F407VGTx`).
pub fn registry_chip_names() -> Vec<String> {
    Registry::from_builtin_families()
        .families()
        .iter()
        .flat_map(|f| {
            f.variants
                .iter()
                .flat_map(|c| c.package_variants().cloned())
        })
        .collect()
}

/// The registry's name for `query`, or an error listing close matches.
pub fn validate_chip(query: &str) -> Result<String> {
    let names = registry_chip_names();
    chip::resolve(query, &names).map(str::to_string)
}

/// A running target: the probe-rs session and the firmware's RTT control block.
#[derive(Debug)]
pub struct ProbeTarget {
    session: Session,
    rtt: Rtt,
}

/// The transport of `--transport probe`.
pub type ProbeLink = RttLink<ProbeTarget>;

/// Flashes `params.elf` onto the chip and connects to its RTT channels.
pub fn open(params: &ProbeParams<'_>) -> Result<ProbeLink> {
    let chip = validate_chip(params.chip)?;
    let lister = Lister::new();
    let infos = lister.list_all();
    let attached: Vec<AttachedProbe> = infos
        .iter()
        .map(|p| AttachedProbe {
            name: p.identifier.clone(),
            vendor_id: p.vendor_id,
            product_id: p.product_id,
            serial: p.serial_number.clone(),
        })
        .collect();
    let index = probe_selector::choose(&attached, params.probe)?;
    let elf = crate::io::read::read_bytes(params.elf, crate::io::read::Limit::ELF)?;
    let control_block = rtt::find_rtt_control_block_in_raw_file(&elf)
        .map_err(|e| anyhow!("parse {}: {e}", params.elf.display()))?
        .with_context(|| {
            format!(
                "{} has no RTT control block (_SEGGER_RTT): build the firmware with \
                 `--features rtt`",
                params.elf.display()
            )
        })?;
    let info = &infos[index];
    let probe = info
        .open()
        .with_context(|| format!("open the debug probe {info}"))?;
    let mut session = probe
        .attach(chip.as_str(), Permissions::default())
        .with_context(|| format!("attach to {chip} through {info}"))?;
    flashing::download_file(&mut session, params.elf, ElfLoader(ElfOptions::default()))
        .with_context(|| format!("flash {} onto {chip}", params.elf.display()))?;
    let rtt = {
        let mut core = session.core(0).context("core 0 of the target")?;
        core.reset().context("reset the target after flashing")?;
        rtt::try_attach_to_rtt(
            &mut core,
            params.rtt_timeout,
            &ScanRegion::Exact(control_block),
        )
        .with_context(|| {
            format!("attach to the firmware's RTT control block at {control_block:#010x}")
        })?
    };
    Ok(RttLink::new(ProbeTarget { session, rtt }))
}

impl RttChannels for ProbeTarget {
    fn write_down(&mut self, bytes: &[u8]) -> Result<usize> {
        let mut core = self.session.core(0)?;
        let ch = self
            .rtt
            .down_channel(FRAMES_DOWN)
            .context("the firmware has no RTT frame down channel")?;
        Ok(ch.write(&mut core, bytes)?)
    }

    fn read_up(&mut self, buf: &mut [u8]) -> Result<usize> {
        let mut core = self.session.core(0)?;
        let ch = self
            .rtt
            .up_channel(FRAMES_UP)
            .context("the firmware has no RTT frame up channel")?;
        Ok(ch.read(&mut core, buf)?)
    }

    fn read_log(&mut self, buf: &mut [u8]) -> Result<usize> {
        let mut core = self.session.core(0)?;
        let ch = self
            .rtt
            .up_channel(DEFMT_UP)
            .context("the firmware has no RTT defmt channel")?;
        Ok(ch.read(&mut core, buf)?)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn chips_resolve_against_the_builtin_registry() {
        let names = registry_chip_names();
        assert!(names.len() > 1000, "{} chips", names.len());
        assert_eq!(validate_chip("stm32f407vgtx").unwrap(), "STM32F407VGTx");
        assert_eq!(validate_chip("nRF52840_xxAA").unwrap(), "nRF52840_xxAA");
        assert_eq!(validate_chip("STM32F407VGT6").unwrap(), "STM32F407VGTx");
        let err = validate_chip("STM32F407VQ").unwrap_err().to_string();
        assert!(
            err.starts_with("unknown chip `STM32F407VQ`") && err.contains("STM32F407VG"),
            "{err}"
        );
    }

    #[test]
    fn no_probe_is_a_clear_error_after_the_chip_check() {
        // Chip first: a bad name fails before probes are listed.
        let params = ProbeParams {
            chip: "NOT-A-CHIP-42",
            probe: None,
            elf: Path::new("/nonexistent.elf"),
            rtt_timeout: Duration::from_millis(10),
        };
        let err = open(&params).unwrap_err().to_string();
        assert!(err.starts_with("unknown chip `NOT-A-CHIP-42`"), "{err}");
        let params = ProbeParams {
            chip: "STM32F407VGTx",
            ..params
        };
        let err = format!("{:#}", open(&params).unwrap_err());
        if Lister::new().list_all().is_empty() {
            // CI and machines without hardware.
            assert_eq!(err, "no debug probe found; attached probes: none");
        } else {
            assert!(
                err.contains("read the firmware ELF /nonexistent.elf"),
                "{err}"
            );
        }
    }
}
