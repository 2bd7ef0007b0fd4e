//! `--probe VID:PID[:SERIAL]`: which debug probe to use when several are attached (the
//! notation of probe-rs: hexadecimal USB vendor and product ids, then an optional serial
//! number that may itself contain colons).

use std::fmt;
use std::str::FromStr;

use anyhow::{anyhow, bail, Context, Error, Result};

/// A debug probe selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeSelector {
    /// USB vendor id.
    pub vendor_id: u16,
    /// USB product id.
    pub product_id: u16,
    /// Serial number, if given.
    pub serial: Option<String>,
}

fn hex_id(what: &str, text: &str, whole: &str) -> Result<u16> {
    if text.is_empty() || text.len() > 4 || !text.chars().all(|c| c.is_ascii_hexdigit()) {
        bail!(
            "bad probe selector `{whole}`: the {what} `{text}` is not 1-4 hexadecimal digits \
             (expected VID:PID[:SERIAL], e.g. 0483:374b or 0483:374b:066DFF)"
        );
    }
    u16::from_str_radix(text, 16).with_context(|| format!("{what} `{text}`"))
}

impl FromStr for ProbeSelector {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let mut parts = s.trim().splitn(3, ':');
        let vid = parts.next().unwrap_or_default();
        let pid = parts.next().ok_or_else(|| {
            anyhow!(
                "bad probe selector `{s}`: expected VID:PID[:SERIAL] (hexadecimal USB ids, \
                 e.g. 0483:374b)"
            )
        })?;
        let serial = match parts.next() {
            None => None,
            Some("") => {
                bail!("bad probe selector `{s}`: the serial number after the second `:` is empty")
            }
            Some(serial) => Some(serial.to_string()),
        };
        Ok(ProbeSelector {
            vendor_id: hex_id("vendor id", vid, s)?,
            product_id: hex_id("product id", pid, s)?,
            serial,
        })
    }
}

impl fmt::Display for ProbeSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04x}:{:04x}", self.vendor_id, self.product_id)?;
        if let Some(serial) = &self.serial {
            write!(f, ":{serial}")?;
        }
        Ok(())
    }
}

/// An attached debug probe, as the probe lister reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachedProbe {
    /// The probe's name (e.g. `STLink V2-1`).
    pub name: String,
    /// USB vendor id.
    pub vendor_id: u16,
    /// USB product id.
    pub product_id: u16,
    /// Serial number, if it has one.
    pub serial: Option<String>,
}

impl fmt::Display for AttachedProbe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({:04x}:{:04x}",
            self.name, self.vendor_id, self.product_id
        )?;
        if let Some(serial) = &self.serial {
            write!(f, ":{serial}")?;
        }
        f.write_str(")")
    }
}

impl ProbeSelector {
    /// Whether `probe` is the one this selector names (serials compare case-insensitively).
    pub fn matches(&self, probe: &AttachedProbe) -> bool {
        self.vendor_id == probe.vendor_id
            && self.product_id == probe.product_id
            && self.serial.as_ref().is_none_or(|s| {
                probe
                    .serial
                    .as_ref()
                    .is_some_and(|p| p.eq_ignore_ascii_case(s))
            })
    }
}

fn list(attached: &[AttachedProbe]) -> String {
    if attached.is_empty() {
        return "none".into();
    }
    attached
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Picks the probe to use: the one `selector` names, or the only one attached.
pub fn choose(attached: &[AttachedProbe], selector: Option<&ProbeSelector>) -> Result<usize> {
    if attached.is_empty() {
        bail!("no debug probe found; attached probes: none");
    }
    match selector {
        Some(sel) => {
            let found: Vec<usize> = (0..attached.len())
                .filter(|&i| sel.matches(&attached[i]))
                .collect();
            match found.as_slice() {
                [one] => Ok(*one),
                [] => bail!(
                    "no debug probe matches --probe {sel}; attached probes: {}",
                    list(attached)
                ),
                _ => bail!(
                    "--probe {sel} matches {} probes; add the serial number                      (VID:PID:SERIAL); attached probes: {}",
                    found.len(),
                    list(attached)
                ),
            }
        }
        None if attached.len() == 1 => Ok(0),
        None => bail!(
            "{} debug probes attached; choose one with --probe VID:PID[:SERIAL]; attached              probes: {}",
            attached.len(),
            list(attached)
        ),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn probe(name: &str, vid: u16, pid: u16, serial: Option<&str>) -> AttachedProbe {
        AttachedProbe {
            name: name.into(),
            vendor_id: vid,
            product_id: pid,
            serial: serial.map(String::from),
        }
    }

    #[test]
    fn choosing_a_probe_names_what_is_attached() {
        let err = choose(&[], None).unwrap_err().to_string();
        assert_eq!(err, "no debug probe found; attached probes: none");
        let sel: ProbeSelector = "0483:374b".parse().unwrap();
        assert_eq!(
            choose(&[], Some(&sel)).unwrap_err().to_string(),
            "no debug probe found; attached probes: none"
        );
        let two = [
            probe("STLink V2-1", 0x0483, 0x374b, Some("066DFF")),
            probe("J-Link", 0x1366, 0x0101, Some("000123")),
        ];
        assert_eq!(choose(&two[..1], None).unwrap(), 0);
        let err = choose(&two, None).unwrap_err().to_string();
        assert!(
            err.starts_with("2 debug probes attached; choose one with --probe")
                && err.contains("STLink V2-1 (0483:374b:066DFF), J-Link (1366:0101:000123)"),
            "{err}"
        );
        let jlink: ProbeSelector = "1366:0101".parse().unwrap();
        assert_eq!(choose(&two, Some(&jlink)).unwrap(), 1);
        let by_serial: ProbeSelector = "0483:374b:066dff".parse().unwrap();
        assert_eq!(choose(&two, Some(&by_serial)).unwrap(), 0);
        let wrong: ProbeSelector = "0483:374b:999".parse().unwrap();
        let err = choose(&two, Some(&wrong)).unwrap_err().to_string();
        assert!(
            err.starts_with(
                "no debug probe matches --probe 0483:374b:999; attached probes: STLink"
            ),
            "{err}"
        );
        let same = [
            probe("STLink", 0x0483, 0x374b, Some("A")),
            probe("STLink", 0x0483, 0x374b, Some("B")),
        ];
        let sel: ProbeSelector = "0483:374b".parse().unwrap();
        let err = choose(&same, Some(&sel)).unwrap_err().to_string();
        assert!(
            err.contains("matches 2 probes; add the serial number"),
            "{err}"
        );
    }

    #[test]
    fn parses_vid_pid_and_serials_with_colons() {
        let p: ProbeSelector = "0483:374b".parse().unwrap();
        assert_eq!(
            (p.vendor_id, p.product_id, p.serial),
            (0x0483, 0x374b, None)
        );
        let p: ProbeSelector = "1366:0101:000123456".parse().unwrap();
        assert_eq!(p.vendor_id, 0x1366);
        assert_eq!(p.product_id, 0x0101);
        assert_eq!(p.serial.as_deref(), Some("000123456"));
        let p: ProbeSelector = "303a:1001:a0:b1:c2:d3:e4:f5".parse().unwrap();
        assert_eq!(p.serial.as_deref(), Some("a0:b1:c2:d3:e4:f5"));
        assert_eq!(p.to_string(), "303a:1001:a0:b1:c2:d3:e4:f5");
        assert_eq!(
            "483:374B".parse::<ProbeSelector>().unwrap().to_string(),
            "0483:374b"
        );
    }

    #[test]
    fn rejects_malformed_selectors_with_what_is_wrong() {
        for (input, says) in [
            ("0483", "expected VID:PID"),
            ("", "expected VID:PID"),
            ("0483:", "product id ``"),
            ("xyz:374b", "vendor id `xyz`"),
            ("12345:374b", "vendor id `12345`"),
            ("0483:37 4b", "product id `37 4b`"),
            ("0483:374b:", "serial number"),
        ] {
            let err = input.parse::<ProbeSelector>().unwrap_err().to_string();
            assert!(err.contains(says), "{input:?}: {err}");
        }
    }
}
