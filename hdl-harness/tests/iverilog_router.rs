//! The table router RTL under Icarus Verilog (`tb/table_router_tb.v`), replaying vector files
//! generated here from core: the compiled run tables of every 8th
//! switch (and the last) of G(64, 6), a 4×4 torus and a small Dragonfly, and for every
//! destination the port and VC of core's routing (`Routing::next_hop`, not the table), plus
//! destinations beyond the table (no route: dropped). Every switch of each is checked under
//! Verilator (`verilator_router.rs`). A vector file with one expectation changed must fail.

mod common;
mod icarus;

use std::fmt::Write as _;
use std::path::Path;

use common::{compiled_runs, core_entry};
use jumpnet_core::exec::rtl_program::encode_run;
use jumpnet_core::routing::dragonfly::minimal::{DragonflyMinimal, MinimalVcs};
use jumpnet_core::routing::RunTable;
use jumpnet_core::routing::{CirculantNaf, RouteEntry, Routing, TorusDor, TorusVcs};
use jumpnet_core::topology::{Circulant, Dragonfly, GlobalArrangement, Topology, Torus};

/// The vector words of every 8th switch of `topo` and its last (format in
/// `tb/table_router_tb.v`, without the leading table count); returns the number of tables
/// and checks.
fn tables<T: Topology, R: Routing>(topo: &T, routing: &R, words: &mut Vec<u64>) -> (u64, u64) {
    let dests = topo.num_terminals();
    let (mut tables, mut checks) = (0, 0);
    let last = topo.num_switches() - 1;
    for s in (0..topo.num_switches()).filter(|&s| s % 8 == 0 || s == last) {
        let runs = compiled_runs(topo, routing, s);
        let table = RunTable::new(&runs, dests).expect("table");
        let probe: Vec<u32> = (0..dests).chain([dests, dests + 5]).collect();
        words.extend([
            table.runs().len() as u64,
            u64::from(dests),
            probe.len() as u64,
        ]);
        words.extend(table.runs().iter().map(|r| encode_run(*r)));
        for d in probe {
            let e = if d < dests {
                core_entry(routing, s, d)
            } else {
                RouteEntry::NONE
            };
            words.extend([u64::from(d), u64::from(e.vc) << 16 | u64::from(e.port)]);
        }
        checks += dests as u64 + 2;
        tables += 1;
    }
    (tables, checks)
}

fn write_vectors(path: &Path, words: &[u64]) -> usize {
    let mut text = String::new();
    for w in words {
        writeln!(text, "{w:016x}").unwrap();
    }
    std::fs::write(path, text).unwrap();
    words.len()
}

#[test]
fn icarus_router_gives_core_routes_and_a_changed_expectation_fails() {
    let dir = std::env::temp_dir().join(format!("jumpnet-iverilog-{}-router", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sim = icarus::compile(
        &dir,
        "router",
        &[],
        &["tb/table_router_tb.v", "rtl/table_router.v"],
    );

    let g = Circulant::g(64).unwrap();
    let naf = CirculantNaf::new(&g).unwrap();
    let t = Torus::torus(&[4, 4], 1).unwrap();
    let dor = TorusDor::new(&t, TorusVcs::Dateline).unwrap();
    let df = Dragonfly::new(9, 4, 2, 2, GlobalArrangement::Consecutive).unwrap();
    let dfm = DragonflyMinimal::new(&df, MinimalVcs::Dateline);
    let mut words = vec![0u64];
    let mut cases = (0u64, 0u64);
    for (n, c) in [
        tables(&g, &naf, &mut words),
        tables(&t, &dor, &mut words),
        tables(&df, &dfm, &mut words),
    ] {
        cases = (cases.0 + n, cases.1 + c);
    }
    words[0] = cases.0;
    // 8 + 1 switches of G(64, 6), 2 + 1 of the torus, 5 + 1 of the Dragonfly.
    assert_eq!(cases, (9 + 3 + 6, 9 * 66 + 3 * 18 + 6 * 74));

    let file = dir.join("routes.hex");
    let n = write_vectors(&file, &words);
    let log = icarus::run(&sim, &file, &[("words", n)]);
    assert!(log.contains(&format!("PASS {}", cases.1)), "{log}");
    assert!(!log.contains("FAIL"), "{log}");

    // Change the expected port of G(64, 6) switch 0's destination 5 (its 6th check): the
    // testbench must notice.
    let mut wrong = words.clone();
    let first_table_runs = wrong[1] as usize;
    let at = 1 + 3 + first_table_runs + 2 * 5 + 1;
    assert_eq!(wrong[at - 1], 5);
    wrong[at] ^= 1;
    let file = dir.join("wrong.hex");
    let n = write_vectors(&file, &wrong);
    let log = icarus::run(&sim, &file, &[("words", n)]);
    assert!(log.contains("FAIL 1 of"), "{log}");
    assert!(log.contains("check 5 dst 5"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
