//! The one policy for resources whose size comes from input: memory and threads.
//!
//! - **Memory.** Every allocation sized by a parameter or a file is checked first against
//!   [`memory_budget`]: the smaller of half the memory the machine has available
//!   (`MemAvailable` of `/proc/meminfo`; the other half is left to the rest of the run and
//!   to the machine) and the room left under the process's own limits (`RLIMIT_AS` and
//!   `RLIMIT_DATA`, read from `/proc/self/limits`, minus what the process already uses), at
//!   most [`MEMORY_CAP`]. A request above it is refused before anything
//!   is allocated ([`check_memory`], [`check_alloc`]); where one parameter sets the size,
//!   [`check_param`] names it and the largest value that fits, so a user never meets an
//!   abort ("memory allocation of … failed") or the out-of-memory killer.
//! - **Threads.** A requested thread count is clamped to what the work can use and what the
//!   machine has ([`threads_for`]); `0` means every core.

use anyhow::{bail, Result};

/// Upper bound on [`memory_budget`]: 16 GiB, also the budget when nothing is known.
pub const MEMORY_CAP: u64 = 16 << 30;

/// The value of `key` (`MemAvailable:`, `VmSize:`, …) in a `/proc` file of `kB` lines, in
/// bytes.
fn proc_kib(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| kib.saturating_mul(1024))
}

/// The soft limit of the `/proc/self/limits` row starting with `name` (`None` when
/// unlimited or unknown).
fn soft_limit(limits: &str, name: &str) -> Option<u64> {
    let rest = limits.lines().find_map(|l| l.strip_prefix(name))?;
    rest.split_whitespace().next()?.parse::<u64>().ok()
}

/// The memory budget from the texts of `/proc/meminfo`, `/proc/self/limits` and
/// `/proc/self/status` (each may be empty when unknown): the smaller of half the available
/// memory and the room under the address-space and data limits, at most [`MEMORY_CAP`].
pub fn budget_from(meminfo: &str, limits: &str, status: &str) -> u64 {
    let available = proc_kib(meminfo, "MemAvailable:").or_else(|| proc_kib(meminfo, "MemTotal:"));
    let mut budget = available.map_or(MEMORY_CAP, |b| b / 2).min(MEMORY_CAP);
    if let Some(limit) = soft_limit(limits, "Max address space") {
        let used = proc_kib(status, "VmSize:").unwrap_or(0);
        budget = budget.min(limit.saturating_sub(used));
    }
    if let Some(limit) = soft_limit(limits, "Max data size") {
        let used = proc_kib(status, "VmData:").unwrap_or(0);
        budget = budget.min(limit.saturating_sub(used));
    }
    budget
}

/// The most memory one request sized by input may take now (see the module documentation).
pub fn memory_budget() -> u64 {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    budget_from(
        &read("/proc/meminfo"),
        &read("/proc/self/limits"),
        &read("/proc/self/status"),
    )
}

/// `bytes` in the largest binary unit that keeps it at least 1 (`152 GiB`, `512 MiB`).
pub fn format_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut unit = 0;
    let mut v = bytes as f64;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else if v >= 10.0 {
        format!("{v:.0} {}", UNITS[unit])
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// Refuses to allocate `count` items of `T` for `what` when they would exceed
/// [`memory_budget`]: the error names what needs the memory, how much, and the limit.
pub fn check_alloc<T>(what: &str, count: u128) -> Result<()> {
    check_memory(what, count.saturating_mul(std::mem::size_of::<T>() as u128))
}

/// Refuses `bytes` of memory for `what` when they exceed [`memory_budget`]. Call before
/// allocating anything whose size comes from the user (parameters, files).
pub fn check_memory(what: &str, bytes: u128) -> Result<()> {
    let limit = memory_budget();
    if bytes > limit as u128 {
        bail!(
            "{what}: {} needed, more than the memory limit of {} (half the memory available, \
             less under the process's limits): too large",
            format_bytes(bytes),
            format_bytes(limit as u128)
        );
    }
    Ok(())
}

/// The largest `v` in `0..=value` with `bytes_of(v) <= limit` (`bytes_of` grows with `v`).
pub fn largest_fitting(value: u64, limit: u128, bytes_of: impl Fn(u64) -> u128) -> u64 {
    let (mut lo, mut hi) = (0u64, value);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if bytes_of(mid) <= limit {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Refuses parameter `param = value` when the memory it needs, `bytes_of(value)` (growing
/// with the value), exceeds [`memory_budget`]: the error names the parameter, the memory
/// needed, the limit and the largest value that fits.
pub fn check_param(param: &str, value: u64, bytes_of: impl Fn(u64) -> u128) -> Result<()> {
    check_param_within(param, value, memory_budget(), bytes_of)
}

/// [`check_param`] against an explicit `limit` in bytes.
pub fn check_param_within(
    param: &str,
    value: u64,
    limit: u64,
    bytes_of: impl Fn(u64) -> u128,
) -> Result<()> {
    check_param_shown(param, value, limit, |v| v.to_string(), bytes_of)
}

/// A size in bytes as a message shows it: `1099511627776 bytes (1.0 TiB)`.
pub fn show_size(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else {
        format!("{bytes} bytes ({})", format_bytes(bytes as u128))
    }
}

/// [`check_param_within`] with the values written by `show` (e.g. [`show_size`]).
pub fn check_param_shown(
    param: &str,
    value: u64,
    limit: u64,
    show: impl Fn(u64) -> String,
    bytes_of: impl Fn(u64) -> u128,
) -> Result<()> {
    let need = bytes_of(value);
    if need > limit as u128 {
        let fits = largest_fitting(value, limit as u128, &bytes_of);
        bail!(
            "{param} {} needs {} of memory, more than the memory limit of {} (half the \
             memory available, less under the process's limits): the largest {param} that \
             fits is {}",
            show(value),
            format_bytes(need),
            format_bytes(limit as u128),
            show(fits)
        );
    }
    Ok(())
}

/// The cores this process may use (at least 1).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads to start for `requested` threads (`0`: every core) on work that can keep at most
/// `useful` threads busy: never more than the work can use nor than the machine has, at
/// least 1.
pub fn threads_for(requested: usize, useful: usize) -> usize {
    threads_within(requested, useful, cores())
}

/// [`threads_for`] on a machine of `cores` cores.
pub fn threads_within(requested: usize, useful: usize, cores: usize) -> usize {
    let wanted = if requested == 0 { cores } else { requested };
    wanted.min(cores).min(useful).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str = "MemTotal:       65843388 kB\nMemFree:         1000000 kB\n\
                           MemAvailable:   32000000 kB\n";
    const LIMITS: &str =
        "Limit                     Soft Limit           Hard Limit           Units\n\
        Max data size             unlimited            unlimited            bytes\n\
        Max address space         8192000000           unlimited            bytes\n";

    #[test]
    fn the_address_space_limit_bounds_the_budget() {
        let status = "VmSize:\t  100000 kB\nVmData:\t   50000 kB\n";
        assert_eq!(
            budget_from(MEMINFO, LIMITS, status),
            8_192_000_000 - 100_000 * 1024
        );
        // Without limits: half the memory available, at most the cap.
        assert_eq!(budget_from(MEMINFO, "", ""), 16_384_000_000);
        assert_eq!(budget_from("MemAvailable: 99999999 kB\n", "", ""), 16 << 30);
        assert_eq!(budget_from("MemAvailable: 1000 kB\n", "", ""), 500 * 1024);
        let data = "Max data size             4096           unlimited            bytes\n";
        assert_eq!(budget_from(MEMINFO, data, "VmData: 1 kB\n"), 3072);
    }

    #[test]
    fn a_parameter_too_large_names_the_largest_that_fits() {
        let e = check_param_within("--ranks", 100_000, 1 << 30, |n| {
            (n as u128) * (n as u128) * 8
        })
        .unwrap_err();
        // 11585^2 * 8 = 1,073,697,800 <= 2^30 < 11586^2 * 8.
        assert_eq!(
            e.to_string(),
            "--ranks 100000 needs 75 GiB of memory, more than the memory limit of 1.0 GiB (half \
             the memory available, less under the process's limits): the largest --ranks that \
             fits is 11585"
        );
        assert!(check_param_within("--ranks", 11585, 1 << 30, |n| (n * n * 8) as u128).is_ok());
    }

    #[test]
    fn threads_are_clamped_to_the_work_and_the_machine() {
        assert_eq!(threads_within(1_000_000, 1, 8), 1);
        assert_eq!(threads_within(1_000_000, 100, 8), 8);
        assert_eq!(threads_within(0, 100, 8), 8);
        assert_eq!(threads_within(3, 100, 8), 3);
        assert_eq!(threads_within(0, 0, 8), 1);
    }
}
