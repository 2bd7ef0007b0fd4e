//! BookSim2's allocator names (`vc_allocator`, `sw_allocator`) read as the simulator's
//! allocators (docs/booksim.md §2, §4).

use anyhow::{bail, Result};

/// The allocators `vc_allocator` and `sw_allocator` accept.
const ALLOCATORS: &str = "islip, separable_input_first, separable_output_first, wavefront, \
                          rr_wavefront, pim, loa, select, max_size";

/// The simulator's allocator name (`allocator`, `vc_allocator`) for the value of BookSim2's
/// `key` (`vc_allocator` or `sw_allocator`) given on `line` (0: the command line), with
/// requests of different priorities or not (`ranked`: speculation, or packet priorities).
/// BookSim2's `separable_output_first` is `select` with one iteration: each output's
/// round-robin arbiter grants the requesting input of the highest priority, then the nearest
/// its pointer, each input accepts the granting output likewise, both pointers moving past a
/// match only — `select`'s grant and accept (BookSim2's routers run one iteration,
/// `sim::router::select`). With equal request priorities that is iSLIP's grant and accept,
/// and BookSim2 prints the same output for both (docs/booksim.md §4): so without speculation
/// or packet priorities it is `islip`, with them `select`. `wavefront` and `rr_wavefront`
/// are BookSim2's wavefront allocators (`sim::router::wavefront`); `pim`, `loa` and `select`
/// are BookSim2's allocators of those names (`sim::router::pim`, `sim::router::loa`,
/// `sim::router::select`; docs/booksim.md §4), and so is `max_size`
/// (`sim::router::maxsize`), whose router counts BookSim2's allocator calls.
pub fn allocator_kind(
    key: &str,
    (name, line): &(String, usize),
    ranked: bool,
) -> Result<&'static str> {
    let at = match line {
        0 => "command line".to_string(),
        n => format!("line {n}"),
    };
    match name.as_str() {
        "islip" => Ok("islip"),
        "separable_input_first" => Ok("separable_input_first"),
        "wavefront" => Ok("wavefront"),
        "rr_wavefront" => Ok("rr_wavefront"),
        "pim" => Ok("pim"),
        "loa" => Ok("loa"),
        "select" => Ok("select"),
        "max_size" => Ok("max_size"),
        "separable_output_first" if ranked => Ok("select"),
        "separable_output_first" => Ok("islip"),
        other => bail!("{at}: {key} = {other} is not supported; allowed: {ALLOCATORS}"),
    }
}
