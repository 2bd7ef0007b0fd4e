//! The memory a collective run takes, known before it starts ([`run_bytes`]), so that a
//! message size the machine cannot hold (`sim --collective allreduce --msg 1TiB`) is
//! refused up front, naming `--msg` and the largest size that fits
//! ([`check_run_memory`]), instead of aborting when an allocation fails.

use jumpnet_core::collective::Schedule;
use jumpnet_core::exec::CheckSizes;

use super::collective::MESSAGE_BYTES;
use super::collective_result::NicConfig;
use crate::sim::network::terminal::Pending;

/// What one queued packet may take: a terminal queues the packets of a message as
/// [`Pending`] entries in a `VecDeque`, whose capacity doubles as it grows.
const PACKET_BYTES: u128 = 2 * std::mem::size_of::<Pending>() as u128;

/// An upper bound on the bytes a run of `schedule` holds that grow with its messages: every
/// packet of every message queued at its terminal at once (a NIC may hand all its sends to
/// the terminal before the first packet leaves), a record per message and, when the data
/// flow is checked, the block state and the payload snapshots. An error when `nic` cannot
/// cut messages into packets of `packet_size` flits (as the run itself reports).
pub fn run_bytes<S: Schedule>(
    schedule: &S,
    nic: &NicConfig,
    packet_size: u16,
) -> Result<u128, String> {
    let (mut packets, mut messages, mut error) = (0u128, 0u128, None);
    schedule.for_each_message(|m| {
        // A calibrated NIC sends the bytes SMPI's bandwidth factor makes a message cost.
        let wire = nic.calibration.map_or(m.bytes, |c| c.wire_bytes(m.bytes));
        match nic.packets(wire, packet_size) {
            Ok(p) => packets += u128::from(p),
            Err(e) => error = Some(e),
        }
        messages += 1;
    });
    if let Some(e) = error {
        return Err(e);
    }
    let mut bytes = packets * PACKET_BYTES + messages * MESSAGE_BYTES as u128;
    if nic.check_data {
        let z = CheckSizes::of(schedule);
        bytes += (z.state_words as u128 + z.staging_words as u128) * 8;
    }
    Ok(bytes)
}

/// Refuses a run of message size `msg` when `bytes_of(msg)` — [`run_bytes`] of the
/// schedule built for that size — exceeds `limit`: the error names `--msg`, the memory
/// needed and the largest size that fits (found by rebuilding the schedule for smaller
/// sizes). A size whose schedule cannot be built or cut into packets (`None`) is left to
/// the run to report.
pub fn check_run_memory(
    msg: u64,
    limit: u64,
    bytes_of: impl Fn(u64) -> Option<u128>,
) -> anyhow::Result<()> {
    if bytes_of(msg).is_none() {
        return Ok(());
    }
    crate::budget::check_param_shown("--msg", msg, limit, crate::budget::show_size, |m| {
        bytes_of(m).unwrap_or(u128::MAX)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use jumpnet_core::collective::RecursiveDoubling;

    fn nic() -> NicConfig {
        NicConfig {
            flit_bytes: 16,
            header_flits: 1,
            send_overhead: 0,
            recv_overhead: 0,
            reduce_cycles_per_byte: 0.0,
            link_gbps: 100.0,
            check_data: false,
            allow_redundant: false,
            ..NicConfig::default()
        }
    }

    #[test]
    fn a_message_size_too_large_names_the_largest_that_fits() {
        // 8 ranks × 3 steps = 24 messages; 4-flit packets carry 48 bytes.
        let build = |packet_size: u16| {
            move |m: u64| {
                run_bytes(&RecursiveDoubling::new(8, m).unwrap(), &nic(), packet_size).ok()
            }
        };
        let s = RecursiveDoubling::new(8, 48).unwrap();
        let per_message = PACKET_BYTES + MESSAGE_BYTES as u128;
        assert_eq!(run_bytes(&s, &nic(), 4).unwrap(), 24 * per_message);
        let limit = 1 << 30;
        let e = check_run_memory(1 << 40, limit, build(4)).unwrap_err();
        let e = e.to_string();
        assert!(
            e.starts_with("--msg 1099511627776 bytes (1.0 TiB) needs "),
            "{e}"
        );
        let fits: u64 = e
            .rsplit("the largest --msg that fits is ")
            .next()
            .and_then(|t| t.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap();
        let need = |m: u64| {
            let s = RecursiveDoubling::new(8, m).unwrap();
            run_bytes(&s, &nic(), 4).unwrap()
        };
        assert!(need(fits) <= limit as u128 && need(fits + 1) > limit as u128);
        assert!(check_run_memory(fits, limit, build(4)).is_ok());
        // No payload in a packet: left to the run, which says so.
        assert!(check_run_memory(1 << 40, limit, build(1)).is_ok());
    }
}
