//! A driver that writes one switch's route table into a switch ASIC's forwarding memory over
//! an embedded-hal 1.0 [`SpiDevice`], with timeouts through [`DelayNs`]. Host-tested with
//! `embedded-hal-mock`; no board has such an ASIC yet, so the protocol below is ours.
//!
//! # Register protocol (SPI mode 0, one command per chip-select transaction)
//!
//! ```text
//! command        bytes (MOSI)                                      MISO / effect
//! 0x9F ID        9F                                                then reads 2 bytes:
//!                                                                  0x4A 0x4E ("JN"), else
//!                                                                  AsicError::WrongId
//! 0x06 BEGIN     06 d1 d0                                          open the shadow bank for
//!                                                                  d = destinations (u16 BE)
//! 0x02 WRITE     02 a1 a0 n  (p1 p0 v) × n                         n ≤ 32 entries from
//!                                                                  destination a (u16 BE):
//!                                                                  port (u16 BE), VC (u8)
//! 0x0C COMMIT    0C c3 c2 c1 c0                                    CRC-32 (BE) of every entry
//!                                                                  as written (p1 p0 v …);
//!                                                                  the ASIC checks it and
//!                                                                  swaps banks
//! 0x05 STATUS    05                                                then reads 1 byte:
//!                                                                  bit 0 busy, bit 1 CRC
//!                                                                  error, bit 2 committed
//! ```
//!
//! After COMMIT the driver polls STATUS every [`POLL_US`] µs until busy clears, for at most
//! the caller's timeout; then a CRC error is [`AsicError::Rejected`], a set "committed" bit
//! success. Entries with the unreachable port ([`RouteEntry::NO_PORT`]) are written as
//! 0xFFFF. The active bank keeps forwarding while the shadow bank is written, so a failed
//! write never leaves the switch half-programmed.

use embedded_hal::delay::DelayNs;
use embedded_hal::spi::{Operation, SpiDevice};
use jumpnet_core::image::crc32::Crc32;
use jumpnet_core::routing::{RouteEntry, RunTable};

/// ID command.
pub const CMD_ID: u8 = 0x9F;
/// Begin command.
pub const CMD_BEGIN: u8 = 0x06;
/// Write command.
pub const CMD_WRITE: u8 = 0x02;
/// Commit command.
pub const CMD_COMMIT: u8 = 0x0C;
/// Status command.
pub const CMD_STATUS: u8 = 0x05;
/// The ID the ASIC answers.
pub const ASIC_ID: [u8; 2] = *b"JN";
/// Most entries per WRITE.
pub const MAX_BLOCK: usize = 32;
/// STATUS poll interval in µs.
pub const POLL_US: u32 = 100;
/// STATUS bit: busy.
pub const STATUS_BUSY: u8 = 1 << 0;
/// STATUS bit: the committed CRC did not match.
pub const STATUS_CRC_ERROR: u8 = 1 << 1;
/// STATUS bit: the new bank is active.
pub const STATUS_COMMITTED: u8 = 1 << 2;

/// Why a table could not be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsicError<E> {
    /// The SPI bus failed.
    Spi(E),
    /// The device is not a jumpnet switch ASIC.
    WrongId {
        /// The ID read.
        found: [u8; 2],
    },
    /// The table has more destinations than the 16-bit destination field holds.
    TooManyDestinations {
        /// Destinations of the table.
        destinations: u32,
    },
    /// The ASIC stayed busy longer than the timeout.
    Timeout {
        /// The timeout, in µs.
        waited_us: u32,
    },
    /// The ASIC reports a CRC error (the written entries were damaged) or did not commit.
    Rejected {
        /// The last STATUS byte.
        status: u8,
    },
}

/// A switch ASIC's forwarding memory behind an SPI device.
#[derive(Debug)]
pub struct SwitchAsic<S> {
    spi: S,
}

impl<S: SpiDevice> SwitchAsic<S> {
    /// Wraps `spi`.
    pub fn new(spi: S) -> Self {
        SwitchAsic { spi }
    }

    /// Gives the SPI device back.
    pub fn release(self) -> S {
        self.spi
    }

    /// Reads and checks the ID.
    pub fn check_id(&mut self) -> Result<(), AsicError<S::Error>> {
        let mut id = [0u8; 2];
        self.spi
            .transaction(&mut [Operation::Write(&[CMD_ID]), Operation::Read(&mut id)])
            .map_err(AsicError::Spi)?;
        if id != ASIC_ID {
            return Err(AsicError::WrongId { found: id });
        }
        Ok(())
    }

    /// Reads STATUS.
    pub fn status(&mut self) -> Result<u8, AsicError<S::Error>> {
        let mut s = [0u8; 1];
        self.spi
            .transaction(&mut [Operation::Write(&[CMD_STATUS]), Operation::Read(&mut s)])
            .map_err(AsicError::Spi)?;
        Ok(s[0])
    }

    /// Writes `table` into the shadow bank, commits it with its CRC and waits (polling
    /// STATUS through `delay`) at most `timeout_us` µs for the ASIC to activate it.
    pub fn write_table(
        &mut self,
        table: &RunTable<'_, RouteEntry>,
        delay: &mut impl DelayNs,
        timeout_us: u32,
    ) -> Result<(), AsicError<S::Error>> {
        self.check_id()?;
        let destinations = table.len();
        let d = u16::try_from(destinations)
            .map_err(|_| AsicError::TooManyDestinations { destinations })?;
        self.spi
            .write(&[CMD_BEGIN, (d >> 8) as u8, d as u8])
            .map_err(AsicError::Spi)?;
        let mut crc = Crc32::new();
        let mut buf = [0u8; 4 + 3 * MAX_BLOCK];
        let mut first = 0u32;
        while first < destinations {
            let n = (destinations - first).min(MAX_BLOCK as u32);
            buf[0] = CMD_WRITE;
            buf[1] = (first >> 8) as u8;
            buf[2] = first as u8;
            buf[3] = n as u8;
            for i in 0..n {
                let e = table.lookup(first + i).unwrap_or(RouteEntry::NONE);
                let at = 4 + 3 * i as usize;
                buf[at] = (e.port >> 8) as u8;
                buf[at + 1] = e.port as u8;
                buf[at + 2] = e.vc;
            }
            let len = 4 + 3 * n as usize;
            crc.update(&buf[4..len]);
            self.spi.write(&buf[..len]).map_err(AsicError::Spi)?;
            first += n;
        }
        let c = crc.finish().to_be_bytes();
        self.spi
            .write(&[CMD_COMMIT, c[0], c[1], c[2], c[3]])
            .map_err(AsicError::Spi)?;
        let mut waited = 0u32;
        loop {
            let s = self.status()?;
            if s & STATUS_BUSY == 0 {
                if s & STATUS_CRC_ERROR != 0 || s & STATUS_COMMITTED == 0 {
                    return Err(AsicError::Rejected { status: s });
                }
                return Ok(());
            }
            if waited >= timeout_us {
                return Err(AsicError::Timeout { waited_us: waited });
            }
            delay.delay_us(POLL_US);
            waited = waited.saturating_add(POLL_US);
        }
    }
}

/// A heartbeat: calls `beat` every `period_us` µs of `delay`, `beats` times (a device's
/// liveness signal, e.g. toggling a LED or sending a counter, paced by a HAL timer).
pub fn heartbeat(delay: &mut impl DelayNs, period_us: u32, beats: u32, mut beat: impl FnMut(u32)) {
    for i in 0..beats {
        beat(i);
        delay.delay_us(period_us);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use embedded_hal_mock::eh1::delay::NoopDelay;
    use embedded_hal_mock::eh1::spi::{Mock, Transaction as T};
    use jumpnet_core::image::crc32::crc32;
    use jumpnet_core::routing::{Run, RunTableBuilder};
    use std::vec;
    use std::vec::Vec;

    fn table(entries: &[(u16, u8)], runs: &mut [Run<RouteEntry>]) -> usize {
        let mut b = RunTableBuilder::new(runs);
        for &(port, vc) in entries {
            b.push(RouteEntry { port, vc }).unwrap();
        }
        b.finish().runs().len()
    }

    fn id() -> Vec<T<u8>> {
        vec![
            T::transaction_start(),
            T::write_vec(vec![CMD_ID]),
            T::read_vec(vec![b'J', b'N']),
            T::transaction_end(),
        ]
    }

    fn status(s: u8) -> Vec<T<u8>> {
        vec![
            T::transaction_start(),
            T::write_vec(vec![CMD_STATUS]),
            T::read_vec(vec![s]),
            T::transaction_end(),
        ]
    }

    fn write(bytes: Vec<u8>) -> Vec<T<u8>> {
        vec![
            T::transaction_start(),
            T::write_vec(bytes),
            T::transaction_end(),
        ]
    }

    #[test]
    fn a_table_is_written_in_blocks_and_committed_with_its_crc() {
        // 34 destinations: 33 on port 300 VC 1, the last on port 2 — two WRITE blocks.
        let mut entries = vec![(300u16, 1u8); 33];
        entries.push((2, 0));
        let mut runs = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 4];
        let n = table(&entries, &mut runs);
        let t = RunTable::new(&runs[..n], 34).unwrap();
        let mut block0 = vec![CMD_WRITE, 0, 0, 32];
        for _ in 0..32 {
            block0.extend([0x01, 0x2C, 1]);
        }
        let block1 = vec![CMD_WRITE, 0, 32, 2, 0x01, 0x2C, 1, 0x00, 0x02, 0];
        let mut all = block0[4..].to_vec();
        all.extend_from_slice(&block1[4..]);
        let c = crc32(&all).to_be_bytes();
        let mut expected = id();
        expected.extend(write(vec![CMD_BEGIN, 0, 34]));
        expected.extend(write(block0));
        expected.extend(write(block1));
        expected.extend(write(vec![CMD_COMMIT, c[0], c[1], c[2], c[3]]));
        expected.extend(status(STATUS_BUSY));
        expected.extend(status(STATUS_BUSY));
        expected.extend(status(STATUS_COMMITTED));
        let mut spi = Mock::new(&expected);
        let mut asic = SwitchAsic::new(spi.clone());
        asic.write_table(&t, &mut NoopDelay::new(), 1000).unwrap();
        spi.done();
    }

    /// Counts the µs it is asked to wait.
    struct Clock(u64);
    impl DelayNs for Clock {
        fn delay_ns(&mut self, ns: u32) {
            self.0 += ns as u64 / 1000;
        }
    }

    #[test]
    fn busy_forever_times_out_and_a_crc_error_is_rejected() {
        let mut runs = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 1];
        let n = table(&[(7, 0)], &mut runs);
        let t = RunTable::new(&runs[..n], 1).unwrap();
        let c = crc32(&[0, 7, 0]).to_be_bytes();
        let head = |expected: &mut Vec<T<u8>>| {
            expected.extend(id());
            expected.extend(write(vec![CMD_BEGIN, 0, 1]));
            expected.extend(write(vec![CMD_WRITE, 0, 0, 1, 0, 7, 0]));
            expected.extend(write(vec![CMD_COMMIT, c[0], c[1], c[2], c[3]]));
        };
        let mut expected = Vec::new();
        head(&mut expected);
        for _ in 0..4 {
            expected.extend(status(STATUS_BUSY));
        }
        let mut spi = Mock::new(&expected);
        let mut clock = Clock(0);
        let err = SwitchAsic::new(spi.clone()).write_table(&t, &mut clock, 300);
        assert_eq!(err, Err(AsicError::Timeout { waited_us: 300 }));
        assert_eq!(clock.0, 300);
        spi.done();

        let mut expected = Vec::new();
        head(&mut expected);
        expected.extend(status(STATUS_CRC_ERROR));
        let mut spi = Mock::new(&expected);
        let err = SwitchAsic::new(spi.clone()).write_table(&t, &mut NoopDelay::new(), 300);
        assert_eq!(
            err,
            Err(AsicError::Rejected {
                status: STATUS_CRC_ERROR
            })
        );
        spi.done();
    }

    #[test]
    fn a_wrong_id_stops_before_anything_is_written() {
        let mut runs = [Run {
            first: 0,
            value: RouteEntry::NONE,
        }; 1];
        let n = table(&[(7, 0)], &mut runs);
        let t = RunTable::new(&runs[..n], 1).unwrap();
        let expected = vec![
            T::transaction_start(),
            T::write_vec(vec![CMD_ID]),
            T::read_vec(vec![0xFF, 0xFF]),
            T::transaction_end(),
        ];
        let mut spi = Mock::new(&expected);
        let err = SwitchAsic::new(spi.clone()).write_table(&t, &mut NoopDelay::new(), 300);
        assert_eq!(
            err,
            Err(AsicError::WrongId {
                found: [0xFF, 0xFF]
            })
        );
        spi.done();
    }

    #[test]
    fn heartbeat_paces_with_the_delay() {
        let mut clock = Clock(0);
        let mut beats = Vec::new();
        heartbeat(&mut clock, 250, 4, |i| beats.push(i));
        assert_eq!(beats, [0, 1, 2, 3]);
        assert_eq!(clock.0, 1000);
    }
}
