//! Router partitions on several threads (same seed, same statistics, byte for
//! byte, across `--threads` settings): [`run_parallel`] with 1, 2 and 3 threads gives the
//! statistics JSON of the one-thread [`run`] on a torus with dateline VCs, Dragonflies with
//! UGAL, a random shortcut graph with DFSSSP layers and a deadlocking ring.

use crate::builder::routing::RouteAlgo;
use crate::sim::engine::partition::cut;
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
