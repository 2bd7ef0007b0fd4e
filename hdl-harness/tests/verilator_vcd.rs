//! Waveforms of the schedule engine RTL (`SchedEngineRtl::start_vcd`): a VCD file with a
//! valid header, the engine's clock, ports and registers, only the cycles of the window
//! (two time steps per cycle, cycle `c` at `c` ns), values that agree with what `step`
//! returned, and the same engine behaviour as without a waveform.

use std::collections::BTreeMap;
use std::path::PathBuf;

use jumpnet_core::collective::{Blocks, Dep, Op};
use jumpnet_core::exec::timing::CycleOutput;
use jumpnet_hdl::{CycleWindow, HdlError, SchedEngineRtl, VCD_PS_PER_CYCLE};

/// The program of `jumpnet_core::exec::timing`'s exact trace test: actions in cycles 1, 5,
/// 6 and 7, done from cycle 8.
const PROGRAM: [Op; 4] = [
    Op::Recv {
        peer: 1,
        blocks: Blocks::All,
        after: Dep::None,
    },
    Op::Send {
        peer: 2,
        blocks: Blocks::All,
        after: Dep::Op(0),
    },
    Op::RecvReduce {
        peer: 3,
        blocks: Blocks::Single(4),
        after: Dep::None,
    },
    Op::Permute {
        reflect: false,
        shift: 1,
        after: Dep::Earlier,
    },
];

/// Runs [`PROGRAM`] for `cycles` cycles (with its two arrivals), writing a waveform of
/// `window` to `vcd` when given; returns the outputs and the cycles the waveform holds.
fn run(
    cycles: u64,
    vcd: Option<(&std::path::Path, CycleWindow)>,
) -> (Vec<CycleOutput>, Option<CycleWindow>) {
    let mut rtl = SchedEngineRtl::new();
    rtl.load_program(&PROGRAM).unwrap();
    if let Some((path, window)) = vcd {
        rtl.start_vcd(path, window).unwrap();
    }
    let outs = (0..cycles)
        .map(|t| {
            let arrival = match t {
                0 => Some((3, Blocks::Single(4))),
                4 => Some((1, Blocks::All)),
                _ => None,
            };
            rtl.step(arrival).unwrap()
        })
        .collect();
    (outs, rtl.finish_vcd())
}

/// `name` in a fresh directory of its own (removed with [`remove`]).
fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jumpnet-hdl-vcd-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Removes the directory of a [`tmp`] file.
fn remove(path: &std::path::Path) {
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// A VCD file read back: the header's `$var` names by identifier code, and every value
/// change as (time, code, value).
struct Vcd {
    header: String,
    vars: BTreeMap<String, String>,
    changes: Vec<(u64, String, String)>,
}

impl Vcd {
    fn read(path: &std::path::Path) -> Self {
        let text = std::fs::read_to_string(path).unwrap();
        let (header, body) = text
            .split_once("$enddefinitions $end")
            .expect("a VCD header ending in $enddefinitions");
        let mut vars = BTreeMap::new();
        for line in header.lines() {
            // $var wire 1 # clk $end
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.first() == Some(&"$var") && w.len() >= 6 {
                vars.insert(w[4].to_string(), w[3].to_string());
            }
        }
        let mut changes = Vec::new();
        let mut time = None;
        for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(t) = line.strip_prefix('#') {
                time = Some(t.parse::<u64>().unwrap());
            } else if let Some(rest) = line.strip_prefix('b') {
                let (value, code) = rest.split_once(' ').unwrap();
                changes.push((time.unwrap(), code.to_string(), value.to_string()));
            } else if line.starts_with(['0', '1', 'x', 'z']) {
                let (value, code) = line.split_at(1);
                changes.push((time.unwrap(), code.to_string(), value.to_string()));
            }
        }
        Vcd {
            header: header.to_string(),
            vars,
            changes,
        }
    }

    /// Every timestamp of the body.
    fn times(&self) -> Vec<u64> {
        let mut t: Vec<u64> = self.changes.iter().map(|c| c.0).collect();
        t.dedup();
        t
    }

    /// The value of signal `name` at `time` (the last change at or before it).
    fn value_at(&self, name: &str, time: u64) -> String {
        let code = &self.vars[name];
        self.changes
            .iter()
            .rfind(|(t, c, _)| c == code && *t <= time)
            .map(|c| c.2.clone())
            .unwrap_or_else(|| panic!("{name} has no value at {time}"))
    }
}

#[test]
fn a_waveform_holds_the_window_and_agrees_with_the_outputs() {
    let path = tmp("window.vcd");
    let window = CycleWindow { from: 3, to: 6 };
    let (outs, dumped) = run(9, Some((&path, window)));
    assert_eq!(dumped, Some(window));
    let vcd = Vcd::read(&path);
    assert!(vcd.header.contains("$timescale 1ps $end"), "{}", vcd.header);
    assert!(vcd.header.contains("$scope module sched_engine $end"));
    for name in [
        "clk",
        "rst",
        "arr_valid",
        "act_valid",
        "act_op",
        "done",
        "running",
        "done_r",
    ] {
        assert!(
            vcd.vars.contains_key(name),
            "{name} missing: {:?}",
            vcd.vars
        );
    }
    // Two time steps per cycle of the window, nothing else.
    let want: Vec<u64> = (3..=6u64)
        .flat_map(|c| {
            [
                c * VCD_PS_PER_CYCLE,
                c * VCD_PS_PER_CYCLE + VCD_PS_PER_CYCLE / 2,
            ]
        })
        .collect();
    let times = vcd.times();
    assert!(times.iter().all(|t| want.contains(t)), "{times:?}");
    assert_eq!(times.first(), Some(&3000));
    // The clock falls at the cycle's start, rises half a cycle later.
    for c in 3..=6u64 {
        assert_eq!(vcd.value_at("clk", c * 1000), "0", "cycle {c}");
        assert_eq!(vcd.value_at("clk", c * 1000 + 500), "1", "cycle {c}");
    }
    // At `c` ns the outputs are what `step` returned for cycle c: actions in 5 and 6, and
    // the arrival of cycle 4 on the input.
    for c in 3..=6u64 {
        let acted = outs[c as usize].action.is_some();
        assert_eq!(
            vcd.value_at("act_valid", c * 1000),
            u8::from(acted).to_string()
        );
        assert_eq!(vcd.value_at("done", c * 1000), "0");
    }
    assert_eq!(vcd.value_at("arr_valid", 4000), "1");
    assert_eq!(vcd.value_at("arr_valid", 5000), "0");
    remove(&path);
}

#[test]
fn a_waveform_does_not_change_the_engine_and_stops_with_its_run() {
    let (plain, none) = run(12, None);
    assert_eq!(none, None);
    let path = tmp("past-the-end.vcd");
    // The window runs past the last cycle stepped: the file holds the cycles that ran.
    let (traced, dumped) = run(12, Some((&path, CycleWindow { from: 8, to: 500 })));
    assert_eq!(plain, traced);
    assert_eq!(dumped, Some(CycleWindow { from: 8, to: 11 }));
    let vcd = Vcd::read(&path);
    assert_eq!(vcd.times().last(), Some(&11_500));
    assert_eq!(vcd.value_at("done", 8000), "1");
    // A window no cycle of the run reaches: a header and no value.
    let (_, dumped) = run(5, Some((&path, CycleWindow { from: 40, to: 60 })));
    assert_eq!(dumped, None);
    let vcd = Vcd::read(&path);
    assert!(vcd.changes.is_empty());
    remove(&path);
}

#[test]
fn bad_waveform_requests_are_errors() {
    let mut rtl = SchedEngineRtl::new();
    rtl.load_program(&PROGRAM).unwrap();
    let window = CycleWindow { from: 0, to: 10 };
    let missing = std::path::Path::new("/nonexistent-jumpnet-dir/x.vcd");
    assert_eq!(
        rtl.start_vcd(missing, window),
        Err(HdlError::Waveform("cannot open the file for writing"))
    );
    let empty = tmp("empty.vcd");
    assert!(matches!(
        rtl.start_vcd(&empty, CycleWindow { from: 5, to: 4 }),
        Err(HdlError::Waveform(_))
    ));
    assert!(!empty.exists());
    remove(&empty);
    let path = tmp("twice.vcd");
    rtl.start_vcd(&path, window).unwrap();
    assert!(matches!(
        rtl.start_vcd(&path, window),
        Err(HdlError::Waveform(_))
    ));
    // The engine still runs after the refusals.
    assert_eq!(rtl.step(None).unwrap().cycle, 0);
    assert_eq!(rtl.finish_vcd(), Some(CycleWindow { from: 0, to: 0 }));
    remove(&path);
}
