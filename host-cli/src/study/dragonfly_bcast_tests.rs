//! B3 study: aggregation over allocations, the claim checks on hand-made tables, and one
//! small simulated study end to end.

use super::*;
use crate::sim::sweep::collective::CollectiveRecord;
use crate::study::claim::verdict;
use crate::study::dragonfly_bcast_model::ModelRow;

fn record(alg: &str, ranks: u32, seed: u32, makespan: u64, hops: f64) -> CollectiveRecord {
    CollectiveRecord {
        point: 0,
        series: 0,
        settings: vec![
            ("collective".into(), alg.into()),
            ("map_seed".into(), seed.to_string()),
            ("routing".into(), "df-minimal".into()),
            ("background".into(), "none".into()),
            ("mapping".into(), "random-order".into()),
        ],
        ranks,
        makespan_cycles: makespan,
        makespan_seconds: makespan as f64 * 1e-9,
        finish_mean: 0.0,
        finish_min: 0,
        messages: u64::from(ranks) - 1,
        packets: 0,
        hops_mean: hops,
        redundant: 0,
        background_sent: None,
        background_delivered: None,
        background_latency_mean: None,
    }
}

#[test]
fn aggregates_over_allocations() {
    let recs = vec![
        record("tree", 8, 1, 100, 2.0),
        record("tree", 8, 2, 140, 3.0),
        record("tree", 8, 3, 120, 4.0),
        record("llf", 8, 1, 90, 1.0),
    ];
    let rows = aggregate(&recs);
    assert_eq!(rows.len(), 2);
    let t = &rows[0];
    assert_eq!((t.algorithm.as_str(), t.runs), ("tree", 3));
    assert_eq!(t.makespan_mean, 120.0);
    assert_eq!(t.makespan_sd, 20.0);
    assert_eq!((t.makespan_min, t.makespan_max), (100, 140));
    assert_eq!(t.hops_mean, 3.0);
    assert!((t.makespan_us - 0.12).abs() < 1e-12);
    assert_eq!(rows[1].algorithm, "llf");
}

/// Two allocations per cell: the small size's second allocation differs by `spread[i]`.
fn table(small: [u64; 4], spread: [u64; 4], large: [u64; 4]) -> Vec<Row> {
    let mut recs = Vec::new();
    for (i, alg) in ALGORITHMS.iter().enumerate() {
        recs.push(record(alg, 8, 1, small[i] - spread[i], 1.0));
        recs.push(record(alg, 8, 2, small[i] + spread[i], 1.0));
        recs.push(record(alg, 512, 1, large[i], 1.0));
        recs.push(record(alg, 512, 2, large[i], 1.0));
    }
    aggregate(&recs)
}

/// Model rows: per algorithm (tree, llf, glf, forest) the mean and sd at 8 and 512 ranks.
fn model(small: [(f64, f64); 4], large: [f64; 4]) -> Vec<ModelRow> {
    let mut out = Vec::new();
    for (i, alg) in ALGORITHMS.iter().enumerate() {
        for (ranks, mean, sd) in [(8, small[i].0, small[i].1), (512, large[i], 0.0)] {
            out.push(ModelRow {
                mapping: "random-order".into(),
                ranks,
                algorithm: alg.to_string(),
                mean,
                sd,
                min: 0,
                max: 0,
            });
        }
    }
    out
}

#[test]
fn claims_follow_the_table() {
    // Order: tree, llf, glf, forest. The model as in Fig. 2, the packet level as in Fig. 5
    // (LLF best everywhere, TREE/LLF = 2 at the large size).
    let paper_model = model(
        [(10.0, 1.0), (30.0, 9.0), (20.0, 1.0), (25.0, 1.0)],
        [90.0, 45.0, 60.0, 40.0],
    );
    let packets = table([200, 100, 150, 120], [1, 1, 1, 1], [900, 450, 600, 500]);
    let c = claims(&packets, &paper_model);
    assert!(verdict(&c, "TREE has the lowest"));
    assert!(verdict(&c, "FOREST has the lowest"));
    assert!(verdict(&c, "LLF is long"));
    assert!(verdict(&c, "LLF about 2x faster"));
    assert!(verdict(&c, "LLF remains the best"));
    let opposite_model = model(
        [(30.0, 1.0), (10.0, 0.1), (20.0, 5.0), (25.0, 1.0)],
        [40.0, 90.0, 60.0, 45.0],
    );
    // TREE/LLF = 1.29: faster, but not "about 2x".
    let packets = table([100, 300, 200, 250], [1, 1, 1, 1], [580, 450, 600, 500]);
    let c = claims(&packets, &opposite_model);
    assert!(!verdict(&c, "TREE has the lowest"));
    assert!(!verdict(&c, "FOREST has the lowest"));
    assert!(!verdict(&c, "LLF is long"));
    assert!(!verdict(&c, "LLF about 2x faster"));
    assert!(!verdict(&c, "LLF remains the best"));
}

/// A small study end to end: every run's data flow is checked by the simulator, so the
/// cells exist for every (size, algorithm) with the allocations asked for, and the
/// topology-aware broadcasts cross fewer router hops than TREE under a shuffled rank order.
#[test]
fn small_study_runs() {
    let s = run(&Params {
        words: ["dragonfly", "g=5", "a=2", "p=2", "h=2", "packet_size=33"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        sizes: vec![4, 16],
        seeds: 2,
        routings: vec![RouteAlgo::DfMinimal],
        mappings: vec!["random-order".into()],
        backgrounds: vec!["none".into(), "500".into()],
        msg_bytes: 1024,
        link_gbps: 42.0,
        threads: 2,
        progress: false,
    })
    .unwrap();
    assert_eq!(s.sweep.records.len(), 4 * 2 * 2 * 2);
    assert_eq!(s.rows.len(), 4 * 2 * 2);
    assert!(s.rows.iter().all(|r| r.runs == 2 && r.makespan_mean > 0.0));
    // Every broadcast of n ranks sends n − 1 messages.
    assert!(s
        .sweep
        .records
        .iter()
        .all(|r| r.messages == u64::from(r.ranks) - 1));
    assert!(s
        .rows
        .iter()
        .filter(|r| r.background == "500")
        .all(|r| r.background_latency.is_some()));
}

fn hops_rows(tree: [f64; 3]) -> Vec<Row> {
    let mut recs = Vec::new();
    for (routing, h) in ["df-minimal", "df-valiant", "df-ugal-l"].iter().zip(tree) {
        for (alg, hops) in [("tree", h), ("llf", 0.3)] {
            let mut r = record(alg, 512, 1, 100, hops);
            r.settings[2].1 = routing.to_string();
            recs.push(r);
        }
    }
    aggregate(&recs)
}

#[test]
fn hop_claims_need_the_papers_values_and_order() {
    // Router hops + 2 terminal links: 4.6 / 6.5 / 5.4 links (the study's random-order run).
    let near = claims_h(&hops_rows([2.62, 4.46, 3.40]));
    assert!(verdict(&near, "TREE hops"));
    assert!(verdict(&near, "topology-aware"));
    // Right order, far from 4 / 6 / 5 links (ascending rank order).
    assert!(!verdict(
        &claims_h(&hops_rows([0.64, 0.82, 0.73])),
        "TREE hops"
    ));
    // Near the values, wrong order (adaptive above non-minimal).
    assert!(!verdict(
        &claims_h(&hops_rows([2.0, 3.2, 3.4])),
        "TREE hops"
    ));
}

fn claims_h(rows: &[Row]) -> Vec<Claim> {
    claims(rows, &[])
}
