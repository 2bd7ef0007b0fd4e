//! Router partitions on several threads (same seed, same statistics, byte for
//! byte, across `--threads` settings): [`run_parallel`] with 1, 2 and 3 threads gives the
//! statistics JSON of the one-thread [`run`] on a torus with dateline VCs, Dragonflies with
//! UGAL, a random shortcut graph with DFSSSP layers and a deadlocking ring.

use crate::builder::routing::RouteAlgo;
use crate::sim::engine::partition::{cut, sizes, Routers, Way};
use crate::sim::engine::State;
use crate::sim::router::priority::Priority;
use crate::sim::tests::{bernoulli, heavy, with_net};
use crate::sim::*;

/// Runs `cfg` with 1 (`run`), 1, 2 and 3 threads and checks the JSON is identical; returns
/// the result.
pub(crate) fn same_for_every_thread_count(
    words: &str,
    algo: RouteAlgo,
    cfg: &SimConfig,
) -> SimResult {
    with_net(words, algo, |net, r| {
        let mut c = cfg.clone();
        c.num_vcs = c.num_vcs.max(r.num_vcs());
        let one = run(net, r, &c).unwrap();
        let want = serde_json::to_string(&one).unwrap();
        for threads in [1, 2, 3] {
            let got = serde_json::to_string(&run_parallel(net, r, &c, threads).unwrap()).unwrap();
            assert_eq!(got, want, "{words} {algo:?} with {threads} threads");
        }
        one
    })
}

#[test]
fn torus_dateline_is_identical_on_every_thread_count() {
    let res =
        same_for_every_thread_count("torus k=6,6", RouteAlgo::DorDateline, &bernoulli(0.5, 4));
    assert!(res.packets_delivered > 1000, "{res:?}");
    assert_eq!(res.conservation_errors, 0);
}

#[test]
fn dragonfly_ugal_is_identical_on_every_thread_count() {
    for algo in [RouteAlgo::DfUgalL, RouteAlgo::DfUgalG, RouteAlgo::DfMinimal] {
        let mut c = bernoulli(0.4, 4);
        c.traffic = Pattern::Tornado;
        let res = same_for_every_thread_count("dragonfly g=9 a=4 p=2 h=2", algo, &c);
        assert!(res.packets_delivered > 1000, "{algo:?} {res:?}");
        assert_eq!(res.conservation_errors, 0);
    }
}

#[test]
fn random_shortcut_dfsssp_is_identical_on_every_thread_count() {
    let mut c = heavy(1);
    c.traffic = Pattern::Uniform;
    let res = same_for_every_thread_count("random-shortcut n=32 d=4", RouteAlgo::Dfsssp, &c);
    assert!(res.deadlock.is_none());
    assert!(res.packets_delivered > 1000, "{res:?}");
}

#[test]
fn deadlock_report_is_identical_on_every_thread_count() {
    let res = same_for_every_thread_count("torus k=8", RouteAlgo::Dor, &heavy(1));
    assert!(res.deadlock.is_some());
}

#[test]
fn partitions_tile_the_routers() {
    for (switches, n, want) in [
        (10, 3, vec![0, 3, 6]),
        (1024, 2, vec![0, 512]),
        (2, 5, vec![0, 1]),
        (7, 0, vec![0]),
    ] {
        let parts = cut(switches, n);
        let lo: Vec<usize> = parts.iter().map(|p| p.0).collect();
        assert_eq!(lo, want, "{switches} routers, {n} partitions");
        // Each range ends where the next begins; the last at the last router.
        let hi: Vec<usize> = parts.iter().map(|p| p.1).collect();
        let mut next: Vec<usize> = lo[1..].to_vec();
        next.push(switches);
        assert_eq!(hi, next);
    }
}

#[test]
fn output_speedup_and_priorities_are_identical_on_every_thread_count() {
    // With an output speedup (BookSim2's allocation lists) or the engine's packet priorities
    // the cycle's serial part stays before the router phase (`beside`); both still give
    // the same JSON on every thread count.
    let mut c = bernoulli(0.5, 4);
    c.features.output_speedup = 2;
    c.features.vc_alloc_stage = true;
    let res = same_for_every_thread_count("torus k=6,6", RouteAlgo::DorDateline, &c);
    assert!(res.packets_delivered > 1000, "{res:?}");
    let mut c = bernoulli(0.5, 4);
    c.extras.priority = Priority::Age;
    let res = same_for_every_thread_count("mesh k=6,6", RouteAlgo::Dor, &c);
    assert!(res.packets_delivered > 1000, "{res:?}");
}

#[test]
fn the_serial_part_runs_beside_the_routers_only_where_nothing_is_shared() {
    let on = |c: &SimConfig, threads: usize| {
        with_net("torus k=6,6", RouteAlgo::DorDateline, |net, r| {
            let mut st = State::new(net, r, c).unwrap();
            st.set_threads(r, threads);
            st.runs_beside()
        })
    };
    let plain = bernoulli(0.5, 4);
    assert!(on(&plain, 2));
    assert!(!on(&plain, 1), "one partition: the serial order");
    let mut c = plain.clone();
    c.features.output_speedup = 2;
    c.features.vc_alloc_stage = true;
    assert!(
        !on(&c, 2),
        "BookSim2's allocation lists keep the arrival order"
    );
    let mut c = plain.clone();
    c.extras.priority = Priority::NetworkAge;
    assert!(
        !on(&c, 2),
        "the engine's priorities are read by the routers"
    );
    let mut c = plain;
    c.extras.priority = Priority::LocalAge;
    assert!(on(&c, 2), "a router's own priorities");
}

#[test]
fn cutting_the_routers_anew_between_cycles_changes_nothing() {
    // One thread against two whose partitions are cut anew every few cycles at
    // varying places (as the balancing does): the same flits on every channel and the
    // same counters after every cycle, with the serial part beside the routers.
    let cuts: [&[usize]; 6] = [
        &[18, 18],
        &[1, 35],
        &[36],
        &[35, 1],
        &[10, 11, 15],
        &[20, 16],
    ];
    let (split, ejected) = same_counters("torus k=6,6", 1500, recut_every_7(&cuts));
    assert_eq!(split, 0, "a small network's logs are applied on one thread");
    assert!(ejected > 15_000, "{ejected}");
    // On a network whose logs are long enough, they are applied on two threads
    // (`partition::apply_split`).
    let cuts: [&[usize]; 5] = [&[128, 128], &[3, 253], &[256], &[250, 6], &[60, 90, 106]];
    let (split, ejected) = same_counters("torus k=16,16", 400, recut_every_7(&cuts));
    assert!(split > 100, "{split} router phases applied on two threads");
    assert!(ejected > 4_000, "{ejected}");
}

/// Cuts the routers anew to `cuts` in turn every 7 cycles.
fn recut_every_7<'a>(cuts: &'a [&'a [usize]]) -> impl FnMut(usize, &mut dyn Routers) + Send + 'a {
    move |cycle, routers| {
        if cycle % 7 == 3 {
            routers.recut(cuts[cycle / 7 % cuts.len()]);
        }
    }
}

/// Runs `words` for `cycles` cycles on one thread and on two whose routers `act` changes
/// after each cycle, comparing the counters after every cycle; returns how many router
/// phases applied their logs on two threads and how many flits were ejected.
fn same_counters(
    words: &str,
    cycles: usize,
    mut act: impl FnMut(usize, &mut dyn Routers) + Send,
) -> (u64, u64) {
    let c = bernoulli(0.6, 4);
    with_net(words, RouteAlgo::DorDateline, |net, r| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let mut one = State::new(net, r, &c).unwrap();
            let mut two = State::new(net, r, &c).unwrap();
            two.set_threads(r, 2);
            assert!(two.runs_beside());
            for cycle in 0..cycles {
                one.cycle().unwrap();
                two.cycle().unwrap();
                act(cycle, two.routers_mut());
                let (a, b) = (one.counters(), two.counters());
                assert_eq!(
                    (a.gen, a.ejected, &a.channels, &a.nodes),
                    (b.gen, b.ejected, &b.channels, &b.nodes),
                    "{words} cycle {cycle}"
                );
            }
            (two.routers_mut().split_applies(), one.counters().ejected)
        })
    })
}

#[test]
fn the_tuner_goes_to_one_partition_and_back_without_changing_anything() {
    // What the tuner does when one partition is faster and later several again
    // (`engine::tuner`): the same counters as one thread after every cycle, and the
    // partitions' sizes restored.
    let mut left = Vec::new();
    let (_, ejected) = same_counters("torus k=16,16", 300, |cycle, routers| match cycle {
        0 => routers.recut(&[100, 156]),
        80 => {
            let (before, after) = routers.go_way(Way::Single);
            assert_eq!((before.len(), after), (2, vec![256]));
            left = before;
        }
        170 => {
            let (before, after) = routers.go_way(Way::Parallel);
            assert_eq!((before, &after), (vec![256], &left));
        }
        _ => {}
    });
    assert!(ejected > 8_000, "{ejected}");
}

#[test]
fn balanced_sizes_give_each_partition_the_same_time() {
    // Two partitions of 50 routers; the first takes 1 s, the second 1 s and the serial
    // part 0.5 s before it: the second should shrink to where 2.5 s split evenly, 1.25 s
    // each: 62.5 and 37.5 routers; halfway from 50/50: 56.25 / 43.75 → 56 / 44.
    assert_eq!(sizes(&[(50, 1.0), (50, 1.0)], 0.5, 100), Some(vec![56, 44]));
    // Balanced already (1 s against 0.5 + 0.5 s): unchanged.
    assert_eq!(sizes(&[(60, 1.0), (40, 0.5)], 0.5, 100), Some(vec![60, 40]));
    // A first partition three times as slow gives routers away: 2 s each wants 33.3 and
    // 100 routers; halfway, 41.7 and 75, scaled to 100: 35.7 and 64.3.
    assert_eq!(sizes(&[(50, 3.0), (50, 1.0)], 0.0, 100), Some(vec![36, 64]));
    // A serial part longer than the whole: the last keeps at least one router.
    let s = sizes(&[(3, 1.0), (3, 1.0)], 100.0, 6).unwrap();
    assert_eq!(s.iter().sum::<usize>(), 6);
    assert!(s[1] >= 1, "{s:?}");
    // Three partitions add up; nothing measured: no change.
    let s = sizes(&[(10, 1.0), (10, 2.0), (10, 1.0)], 0.0, 30).unwrap();
    assert_eq!(s.iter().sum::<usize>(), 30);
    assert!(s[1] < 10 && s[0] > 10 && s[2] > 10, "{s:?}");
    assert_eq!(sizes(&[(10, 0.0), (10, 1.0)], 0.0, 20), None);
}
