//! A device link: a [`Transport`] whose session ends with the device's decoded defmt log —
//! the firmware under QEMU ([`Qemu`]), or a board through probe-rs (`ProbeSession`,
//! cargo feature `probe`).

use anyhow::Result;

use super::qemu::Qemu;
use super::Transport;

/// A transport to one device whose session ends with the device's decoded defmt log.
pub trait DeviceLink: Transport {
    /// Ends the session (`clean`: the device acknowledged Shutdown) and returns the log.
    fn end(self, clean: bool) -> Result<Vec<String>>;
}

impl DeviceLink for Qemu {
    fn end(self, clean: bool) -> Result<Vec<String>> {
        Ok(if clean { self.finish()? } else { self.kill()? }.log)
    }
}

/// The probe-rs link and the ELF whose defmt table decodes its log.
#[cfg(feature = "probe")]
#[derive(Debug)]
pub struct ProbeSession {
    link: super::probe::ProbeLink,
    elf: std::path::PathBuf,
}

#[cfg(feature = "probe")]
impl ProbeSession {
    /// Flashes `params.elf` through a debug probe and connects over RTT.
    pub fn open(params: &super::probe::ProbeParams<'_>) -> Result<Self> {
        let link = super::probe::open(params)?;
        Ok(ProbeSession {
            link,
            elf: params.elf.to_path_buf(),
        })
    }
}

#[cfg(feature = "probe")]
impl Transport for ProbeSession {
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.link.write_all(bytes)
    }
    fn read_byte(&mut self, timeout: std::time::Duration) -> Result<Option<u8>> {
        self.link.read_byte(timeout)
    }
}

#[cfg(feature = "probe")]
impl DeviceLink for ProbeSession {
    fn end(mut self, _clean: bool) -> Result<Vec<String>> {
        let bytes = self.link.take_log()?;
        super::qemu::decode_defmt(&self.elf, &bytes)
    }
}
