//! Tests of sweep planning, running, sharding, merging and output.

use anyhow::{bail, Result};

use super::*;
use crate::io::progress::Progress;
use crate::sim::config::SimConfig;
use crate::sim::engine::stats::{LatencyStats, SimResult};

#[test]
fn ranges_and_lists() {
    assert_eq!(
        range_values("0.02:0.5:0.04").unwrap(),
        [
            "0.02", "0.06", "0.10", "0.14", "0.18", "0.22", "0.26", "0.30", "0.34", "0.38", "0.42",
            "0.46", "0.50"
        ]
    );
    assert_eq!(range_values("1:4:1").unwrap(), ["1", "2", "3", "4"]);
    assert_eq!(range_values("0.1:0.3:0.1").unwrap(), ["0.1", "0.2", "0.3"]);
    assert!(range_values("0.5:0.1:0.1").is_err());
    assert!(range_values("0:1:0").is_err());
    assert!(range_values("0:1").is_err());
    let a = Axis::parse("rate=0.1:0.2:0.05").unwrap();
    assert_eq!(a.key, "injection_rate");
    assert_eq!(a.values, ["0.10", "0.15", "0.20"]);
    let a = Axis::parse("traffic=uniform,tornado").unwrap();
    assert_eq!(a.values, ["uniform", "tornado"]);
    let e = Axis::parse("ratee=0.1,0.2").unwrap_err().to_string();
    assert!(e.contains("'ratee'") && e.contains("num_vcs"));
    let e = format!("{:#}", Axis::parse("rate=0.5:1.5:0.5").unwrap_err());
    assert!(e.contains("injection_rate") && e.contains("0..=1"), "{e}");
    assert!(Axis::is_axis("rate=0.1,0.2") && !Axis::is_axis("num_vcs=2"));
}

fn plan() -> Plan {
    Plan::new(vec![
        Axis::parse("num_vcs=2,4").unwrap(),
        Axis::parse("rate=0.1:0.4:0.1").unwrap(),
    ])
    .unwrap()
}

#[test]
fn plan_is_series_major_with_rate_as_x() {
    let p = plan();
    assert_eq!(p.x_axis, 1);
    assert_eq!(p.points.len(), 8);
    assert_eq!(p.points[5].series, 1);
    assert_eq!(p.points[5].x_index, 1);
    assert_eq!(
        p.points[5].settings,
        [
            ("num_vcs".to_string(), "4".to_string()),
            ("injection_rate".to_string(), "0.2".to_string())
        ]
    );
    let c = p.config(&SimConfig::booksim(), &p.points[5]).unwrap();
    assert_eq!((c.num_vcs, c.injection_rate), (4, 0.2));
    assert_eq!(
        p.select(Some("1/3".parse().unwrap()))
            .iter()
            .map(|p| p.index)
            .collect::<Vec<_>>(),
        [1, 4, 7]
    );
    assert!("3/3".parse::<Shard>().is_err() && "1".parse::<Shard>().is_err());
    assert!(Plan::new(vec![]).is_err());
    assert!(Plan::new(vec![
        Axis::parse("seed=1,2").unwrap(),
        Axis::parse("seed=3,4").unwrap()
    ])
    .is_err());
}

/// Runs every point of the queue with [`fake`].
fn worker(q: &Queue<'_>) -> Result<()> {
    while let Some(p) = q.next() {
        q.done(p, fake(p)?);
    }
    Ok(())
}

/// A fake engine: saturates above rate 0.25 for 2 VCs and above 0.35 for 4 VCs.
fn fake(p: &Point) -> Result<Record> {
    let cfg = plan().config(&SimConfig::booksim(), p)?;
    let limit = if cfg.num_vcs == 2 { 0.25 } else { 0.35 };
    let sat = cfg.injection_rate > limit;
    let lat = LatencyStats {
        count: 100,
        mean: 10.0 / (1.0 - cfg.injection_rate),
        p50: 10,
        p99: 20,
        min: 5,
        max: 30,
    };
    Ok(Record::new(
        p,
        &SimResult {
            packet_latency: lat.clone(),
            network_latency: lat.clone(),
            queueing_latency: lat.clone(),
            flit_latency: lat.clone(),
            hops: lat.clone(),
            fragmentation: lat,
            offered: cfg.injection_rate,
            accepted: cfg.injection_rate.min(limit),
            rates: Default::default(),
            channel_utilisation: vec![],
            class_utilisation: vec![],
            saturated: sat,
            unstable: false,
            samples: 1,
            cycles: 1000,
            measured_cycles: 1000,
            packets_delivered: 1,
            flits_delivered: 1,
            conservation_errors: 0,
            deadlock: None,
            batch_time: None,
            classes: Vec::new(),
        },
    ))
}

fn result(records: Vec<Record>, shard: Option<Shard>) -> SweepResult {
    let p = plan();
    SweepResult {
        topology: "torus k=4,4 t=1".into(),
        routing: "dor-dateline".into(),
        base: serde_json::to_value(SimConfig::booksim()).unwrap(),
        axes: p.axes.clone(),
        points: p.points.len() as u32,
        stop_at_saturation: true,
        shard,
        records,
    }
}

#[test]
fn stops_at_saturation_and_shards_merge_to_the_whole() {
    let p = plan();
    let quiet = Progress::new("", 0, false);
    let whole = run(&p, None, true, 2, &quiet, worker).unwrap();
    // 2 VCs: 0.1, 0.2, 0.3 (first saturated); 4 VCs: 0.1 … 0.4 (saturated at 0.4).
    assert_eq!(
        whole.iter().map(|r| r.point).collect::<Vec<_>>(),
        [0, 1, 2, 4, 5, 6, 7]
    );
    for t in [1, 3, 8] {
        assert_eq!(run(&p, None, true, t, &quiet, worker).unwrap(), whole);
    }
    let e = run(&p, None, true, 2, &quiet, |q: &Queue<'_>| {
        while let Some(p) = q.next() {
            if p.index == 5 {
                bail!("engine failed at point 5");
            }
            q.done(p, fake(p)?);
        }
        Ok(())
    })
    .unwrap_err();
    assert!(e.to_string().contains("point 5"));
    let all = run(&p, None, false, 3, &quiet, worker).unwrap();
    assert_eq!(all.len(), 8);
    let whole = result(whole, None);
    for n in [2u32, 3, 5] {
        let parts: Vec<SweepResult> = (0..n)
            .rev()
            .map(|i| {
                let s = Shard { index: i, count: n };
                result(
                    run(&p, Some(s), true, i as usize + 1, &quiet, worker).unwrap(),
                    Some(s),
                )
            })
            .collect();
        // Through JSON, as the files are merged.
        let parts = parts
            .into_iter()
            .map(|r| serde_json::from_str(&r.to_json().unwrap()).unwrap())
            .collect();
        let merged = merge(parts).unwrap();
        assert_eq!(merged.to_json().unwrap(), whole.to_json().unwrap());
        assert_eq!(merged.to_csv(), whole.to_csv());
    }
}

#[test]
fn merge_refuses_mismatched_parts() {
    let s0 = Shard { index: 0, count: 2 };
    let s1 = Shard { index: 1, count: 2 };
    let e = merge(vec![result(vec![], Some(s0))])
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing: 1/2"), "{e}");
    let e = merge(vec![result(vec![], Some(s0)), result(vec![], Some(s0))])
        .unwrap_err()
        .to_string();
    assert!(e.contains("twice"));
    let mut other = result(vec![], Some(s1));
    other.routing = "dor".into();
    let e = merge(vec![result(vec![], Some(s0)), other])
        .unwrap_err()
        .to_string();
    assert!(e.contains("routing"));
    assert!(merge(vec![result(vec![], None)]).is_err());
    assert!(merge(vec![]).is_err());
}

/// Found by `cargo xtask fuzz sweep_shard`: a shard file whose index is not below its count
/// indexed out of bounds (panic), and a huge count allocated a flag per shard.
#[test]
fn merge_refuses_shard_numbers_out_of_range_without_panicking() {
    let five_of_two = Shard { index: 5, count: 2 };
    let e = merge(vec![result(vec![], Some(five_of_two))])
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "part 1 says it is shard 5/2, which is not a shard i/N with 0 <= i < N"
    );
    let huge = Shard {
        index: 0,
        count: u32::MAX,
    };
    let e = merge(vec![result(vec![], Some(huge))])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("shards missing: 1/4294967295, 2/4294967295,")
            && e.ends_with("… (4294967294 in all)"),
        "{e}"
    );
}

#[test]
fn outputs_render() {
    let p = plan();
    let quiet = Progress::new("", 0, false);
    let r = result(run(&p, None, true, 2, &quiet, worker).unwrap(), None);
    let csv = r.to_csv();
    assert!(csv.starts_with("point,num_vcs,injection_rate,offered,accepted,packet_latency_mean"));
    assert_eq!(csv.lines().count(), 1 + r.records.len());
    let svg = r.latency_svg();
    assert_eq!(svg.matches("<polyline").count(), 2);
    assert!(svg.contains("num_vcs=4") && svg.contains(">0.10<"));
    assert_eq!(r.throughput_svg().matches("<circle").count(), 7);
    assert_eq!(
        r.saturation(),
        [
            (
                "num_vcs=2".to_string(),
                Some("injection_rate=0.3".to_string())
            ),
            (
                "num_vcs=4".to_string(),
                Some("injection_rate=0.4".to_string())
            )
        ]
    );
    let dir = std::env::temp_dir().join(format!("jumpnet-sweep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    r.write(crate::io::outdir::OutDir::claim(&dir, "sweep", "--out").unwrap())
        .unwrap();
    assert_eq!(SweepResult::read(&dir).unwrap(), r);
    assert_eq!(SweepResult::read_shard(&dir).unwrap(), r);
    for f in ["results.csv", "latency.svg", "throughput.svg"] {
        assert!(dir.join(f).is_file());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
