//! The schedule engine RTL under Icarus Verilog (`tb/sched_engine_tb.v`), replaying vector
//! files generated here from `jumpnet_core::exec::timing::TimedExecutor`, and the mutation check: the engine built with `JN_MUTANT_DEP_OFF_BY_ONE`
//! (the `Dep::Earlier` check ignores the op just before) must fail the same vectors.

mod common;
mod icarus;

use std::fmt::Write as _;

use common::{model_network, model_trace, programs_of, random_case, Cycle};
use jumpnet_core::collective::{Binomial, Blocks, Bruck, Op, RecursiveDoubling, RingAllreduce};
use jumpnet_core::exec::rtl_program::{encode_blocks, encode_op};
use jumpnet_core::exec::Action;
use jumpnet_core::rng::Rng;

/// Testbench and RTL of the engine.
const SOURCES: &[&str] = &["tb/sched_engine_tb.v", "rtl/sched_engine.v"];

/// The vector file of one run (format in `tb/sched_engine_tb.v`).
fn vectors(program: &[Op], cycles: &[Cycle]) -> String {
    let mut words: Vec<u64> = vec![program.len() as u64, cycles.len() as u64];
    for (i, op) in program.iter().enumerate() {
        let w = encode_op(op, i as u32).expect("encode");
        words.extend([w.ctrl, w.blocks]);
    }
    for (arrival, out) in cycles {
        let (av, ab) = match *arrival {
            Some((peer, b)) => (1u64 << 32 | u64::from(peer), encode_blocks(b, 0).unwrap()),
            None => (0, 0),
        };
        let (kind, op, peer, blocks, reduce, reflect) = match out.action {
            None => (0u64, 0, 0, Blocks::All, false, false),
            Some(Action::Send { op, peer, blocks }) => (0, op, peer, blocks, false, false),
            Some(Action::Deliver {
                op,
                peer,
                blocks,
                reduce,
            }) => (1, op, peer, blocks, reduce, false),
            Some(Action::Permute { op, reflect, shift }) => {
                (2, op, shift, Blocks::All, false, reflect)
            }
            Some(other) => panic!("not a cycle action: {other:?}"),
        };
        let (code, err_op) = out.error.map_or((0, 0), |(c, op)| (c as u64, op));
        let flags = u64::from(out.action.is_some())
            | kind << 1
            | u64::from(reduce) << 3
            | u64::from(reflect) << 4
            | u64::from(out.done) << 5
            | code << 6;
        words.extend([
            av,
            ab,
            flags,
            u64::from(err_op) << 32 | u64::from(op),
            u64::from(peer),
            encode_blocks(blocks, 0).unwrap(),
        ]);
    }
    let mut text = String::new();
    for w in words {
        writeln!(text, "{w:016x}").unwrap();
    }
    text
}

#[test]
fn icarus_replays_core_vectors_and_catches_the_mutant() {
    let dir = std::env::temp_dir().join(format!("jumpnet-iverilog-{}-engine", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = icarus::compile(&dir, "engine", &[], SOURCES);
    let mutant = icarus::compile(&dir, "mutant", &["-DJN_MUTANT_DEP_OFF_BY_ONE"], SOURCES);

    let mut cases: Vec<(String, Vec<Op>, Vec<Cycle>)> = Vec::new();
    let mut rng = Rng::new(12);
    for k in 0..6 {
        let (prog, arrivals) = random_case(&mut rng, k == 5);
        let trace = model_trace(&prog, &arrivals, 3 * prog.len() as u64 + 30);
        let mut next = arrivals.iter().peekable();
        let cycles = trace
            .into_iter()
            .map(|o| {
                (
                    next.next_if(|a| a.cycle == o.cycle)
                        .map(|a| (a.peer, a.blocks)),
                    o,
                )
            })
            .collect();
        cases.push((format!("random {k}"), prog, cycles));
    }
    let schedules: [(&str, Vec<Vec<Op>>); 4] = [
        (
            "binomial n=8",
            programs_of(&Binomial::new(8, 3, 64).unwrap()),
        ),
        (
            "recursive doubling n=6",
            programs_of(&RecursiveDoubling::new(6, 64).unwrap()),
        ),
        (
            "ring allreduce n=5",
            programs_of(&RingAllreduce::new(5, 20, 4).unwrap()),
        ),
        ("Bruck n=7", programs_of(&Bruck::new(7, 64).unwrap())),
    ];
    for (name, programs) in schedules {
        let traces = model_network(&programs, 2);
        for rank in [0, programs.len() - 1] {
            cases.push((
                format!("{name} rank {rank}"),
                programs[rank].clone(),
                traces[rank].clone(),
            ));
        }
    }

    let mut mutant_failures = 0;
    for (i, (name, prog, cycles)) in cases.iter().enumerate() {
        let file = dir.join(format!("case{i}.hex"));
        let text = vectors(prog, cycles);
        let words = text.lines().count();
        std::fs::write(&file, text).unwrap();
        let log = icarus::run(&good, &file, &[("words", words)]);
        assert!(
            log.contains(&format!("PASS {}", cycles.len())),
            "{name}: {log}"
        );
        assert!(!log.contains("FAIL"), "{name}: {log}");
        let log = icarus::run(&mutant, &file, &[("words", words)]);
        if log.contains("FAIL") {
            mutant_failures += 1;
            println!("mutant JN_MUTANT_DEP_OFF_BY_ONE on {name}:\n{log}");
        }
    }
    assert!(
        mutant_failures >= 4,
        "the mutant passed too many cases ({mutant_failures} failed)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
