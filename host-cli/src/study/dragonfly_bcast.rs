//! [DF-BC] B3 (docs/reference-results.md B3, docs/collectives.md §6): makespans of the
//! TREE, LLF, GLF and FOREST broadcasts of 1 KiB over random allocations of growing size
//! on a Dragonfly, under minimal, Valiant and UGAL routing, with and without background
//! traffic, several random allocations per size; then the paper's qualitative claims.
//!
//! Every run is one `jumpnet sim --collective` run (flit level, every rank's NIC running
//! its `core::exec` program, data flow checked); the runs are the points of one collective
//! sweep ([`crate::runs::collective_sweep`]) on all cores. A job of `n` ranks is a
//! seeded random set of `n` terminals (rank order = ascending terminal id, root = rank 0,
//! the project choice of `jumpnet sched`).

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde::Serialize;

use super::{mean_sd, setup, CLAIMS_TITLE};
use crate::builder::routing::RouteAlgo;
use crate::io::outdir::OutDir;
use crate::io::output::{self, Render, Section};
use crate::io::svg::LineChart;
use crate::runs::collective::CollectiveOptions;
use crate::runs::collective_sweep::{self, CollectiveSweep};
use crate::sim::sweep::collective::{CollectiveRecord, CollectiveSweepResult};
use crate::study::claim::{claims_section, Claim};
use crate::study::dragonfly_bcast_model::{best, model_rows, row as model_row, ModelRow};

/// The four broadcasts, in the paper's order.
pub const ALGORITHMS: [&str; 4] = ["tree", "llf", "glf", "forest"];

/// Parameters of the study.
#[derive(Clone, Debug, Serialize)]
pub struct Params {
    /// Topology and simulator words, e.g. `dragonfly g=17 a=8 p=4 h=2 packet_size=33`.
    pub words: Vec<String>,
    /// Allocation sizes (ranks).
    pub sizes: Vec<u32>,
    /// Random allocations per size (seeds `1..=seeds`).
    pub seeds: u32,
    /// Routings.
    pub routings: Vec<RouteAlgo>,
    /// Job placements (`random`: ranks in ascending terminal order; `random-order`: the
    /// same terminals, ranks shuffled).
    pub mappings: Vec<String>,
    /// Background settings (`none`, `100us`, cycles …).
    pub backgrounds: Vec<String>,
    /// Broadcast size, bytes.
    pub msg_bytes: u64,
    /// Link bandwidth, Gb/s (clock for seconds and for background times).
    pub link_gbps: f64,
    /// Worker threads.
    pub threads: usize,
    /// Progress bar.
    pub progress: bool,
}

/// One (routing, background, size, algorithm) cell over its random allocations.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Job placement.
    pub mapping: String,
    /// Routing.
    pub routing: String,
    /// Background setting.
    pub background: String,
    /// Allocation size.
    pub ranks: u32,
    /// Broadcast.
    pub algorithm: String,
    /// Allocations simulated.
    pub runs: u32,
    /// Mean makespan, cycles.
    pub makespan_mean: f64,
    /// Sample standard deviation of the makespan, cycles.
    pub makespan_sd: f64,
    /// Smallest makespan, cycles.
    pub makespan_min: u64,
    /// Largest makespan, cycles.
    pub makespan_max: u64,
    /// Mean makespan, microseconds.
    pub makespan_us: f64,
    /// Mean router-to-router hops of the broadcast's packets.
    pub hops_mean: f64,
    /// Mean background message latency, cycles (runs with background only).
    pub background_latency: Option<f64>,
}

/// The study's result.
#[derive(Clone, Debug, Serialize)]
pub struct Study {
    /// Parameters.
    pub params: Params,
    /// Cells.
    pub rows: Vec<Row>,
    /// The link-count model's cells (Fig. 2).
    pub model: Vec<ModelRow>,
    /// The paper's claims.
    pub claims: Vec<Claim>,
    /// Every run.
    pub sweep: CollectiveSweepResult,
}

/// Runs the study.
pub fn run(p: &Params) -> Result<Study> {
    if p.sizes.is_empty()
        || p.seeds == 0
        || p.routings.is_empty()
        || p.backgrounds.is_empty()
        || p.mappings.is_empty()
    {
        bail!("the study needs at least one size, seed, routing, mapping and background setting");
    }
    let join = |v: Vec<String>| v.join(",");
    let words = vec![
        format!("collective={}", ALGORITHMS.join(",")),
        format!(
            "ranks={}",
            join(p.sizes.iter().map(u32::to_string).collect())
        ),
        format!(
            "map_seed={}",
            join((1..=p.seeds).map(|s| s.to_string()).collect())
        ),
        format!(
            "routing={}",
            join(p.routings.iter().map(|r| r.name().to_string()).collect())
        ),
        format!("background={}", p.backgrounds.join(",")),
        format!("mapping={}", p.mappings.join(",")),
    ];
    let setup = setup(&p.words, p.routings[0])?;
    let base = CollectiveOptions {
        msg_bytes: p.msg_bytes,
        link_gbps: p.link_gbps,
        ..CollectiveOptions::default()
    };
    let sweep = collective_sweep::sweep(&CollectiveSweep {
        setup: &setup,
        algorithm: None,
        base: &base,
        words: &words,
        threads: p.threads,
        progress: p.progress,
    })?;
    let rows = aggregate(&sweep.records);
    let model = model_rows(p, &setup)?;
    let claims = claims(&rows, &model);
    Ok(Study {
        params: p.clone(),
        rows,
        model,
        claims,
        sweep,
    })
}

/// Groups the runs by (routing, background, size, algorithm) over their allocations.
pub fn aggregate(records: &[CollectiveRecord]) -> Vec<Row> {
    type Key = (String, String, String, u32, usize);
    let mut cells: BTreeMap<Key, Vec<&CollectiveRecord>> = BTreeMap::new();
    for r in records {
        let get = |k: &str| r.setting(k).unwrap_or("").to_string();
        let alg = get("collective");
        let ai = ALGORITHMS.iter().position(|a| *a == alg).unwrap_or(0);
        cells
            .entry((
                get("mapping"),
                get("routing"),
                get("background"),
                r.ranks,
                ai,
            ))
            .or_default()
            .push(r);
    }
    cells
        .into_iter()
        .map(|((mapping, routing, background, ranks, ai), rs)| {
            let ms: Vec<f64> = rs.iter().map(|r| r.makespan_cycles as f64).collect();
            let (mean, sd) = mean_sd(&ms);
            let us: Vec<f64> = rs.iter().map(|r| r.makespan_seconds * 1e6).collect();
            let hops: Vec<f64> = rs.iter().map(|r| r.hops_mean).collect();
            let bg: Vec<f64> = rs
                .iter()
                .filter_map(|r| r.background_latency_mean)
                .collect();
            Row {
                mapping,
                routing,
                background,
                ranks,
                algorithm: ALGORITHMS[ai].to_string(),
                runs: rs.len() as u32,
                makespan_mean: mean,
                makespan_sd: sd,
                makespan_min: rs.iter().map(|r| r.makespan_cycles).min().unwrap_or(0),
                makespan_max: rs.iter().map(|r| r.makespan_cycles).max().unwrap_or(0),
                makespan_us: mean_sd(&us).0,
                hops_mean: mean_sd(&hops).0,
                background_latency: (!bg.is_empty()).then(|| mean_sd(&bg).0),
            }
        })
        .collect()
}

/// A (mapping, routing, background) case.
type Case = (String, String, String);

/// The rows of one case, by size then algorithm.
fn panel<'a>(rows: &'a [Row], (mapping, routing, bg): &Case) -> Vec<&'a Row> {
    rows.iter()
        .filter(|r| r.mapping == *mapping && r.routing == *routing && r.background == *bg)
        .collect()
}

fn best_at(rows: &[&Row], ranks: u32) -> Option<String> {
    rows.iter()
        .filter(|r| r.ranks == ranks)
        .min_by(|a, b| a.makespan_mean.total_cmp(&b.makespan_mean))
        .map(|r| r.algorithm.clone())
}

fn cell<'a>(rows: &[&'a Row], ranks: u32, alg: &str) -> Option<&'a Row> {
    rows.iter()
        .copied()
        .find(|r| r.ranks == ranks && r.algorithm == alg)
}

fn cases(rows: &[Row]) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for r in rows {
        let k = (r.mapping.clone(), r.routing.clone(), r.background.clone());
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// Checks the paper's claims: those of its link-count model (Fig. 2) on `model`, those of
/// its CODES runs (Fig. 5, 1 KB) on the packet-level `rows`.
pub fn claims(rows: &[Row], model: &[ModelRow]) -> Vec<Claim> {
    let mut sizes: Vec<u32> = rows.iter().map(|r| r.ranks).collect();
    sizes.extend(model.iter().map(|r| r.ranks));
    sizes.sort_unstable();
    sizes.dedup();
    let (Some(&small), Some(&large)) = (sizes.first(), sizes.last()) else {
        return Vec::new();
    };
    let mut out = model_claims(model, small, large);
    let cases = cases(rows);
    let mut per_case =
        |claim: String, paper: &str, holds_when: &str, test: &dyn Fn(&[&Row]) -> (bool, String)| {
            let mut holds = 0;
            let mut ev = Vec::new();
            for case in &cases {
                let (ok, e) = test(&panel(rows, case));
                holds += usize::from(ok);
                ev.push(format!("{}/{}/{}: {e}", case.0, case.1, case.2));
            }
            out.push(Claim {
                claim: format!(
                    "{claim} (holds in {holds} of {} mapping/routing/background cases)",
                    cases.len()
                ),
                paper: paper.into(),
                holds_when: holds_when.into(),
                holds: holds == cases.len(),
                evidence: ev.join("; "),
            });
        };
    let about_two = 1.6..=2.5;
    per_case(
        format!(
            "[CODES, Fig. 5, packet level] 1 KiB: LLF about 2x faster than TREE, at {large} ranks"
        ),
        "LLF about twice as fast as TREE (1 KB)",
        "TREE/LLF makespan ratio in [1.60, 2.50] in every case",
        &|p| match (cell(p, large, "tree"), cell(p, large, "llf")) {
            (Some(t), Some(l)) => {
                let ratio = t.makespan_mean / l.makespan_mean.max(1.0);
                (about_two.contains(&ratio), format!("TREE/LLF = {ratio:.2}"))
            }
            _ => (false, "missing".into()),
        },
    );
    per_case(
        format!("[CODES, Fig. 5, packet level] 1 KiB: LLF remains the best even for small allocations ({small} ranks)"),
        "LLF best at every allocation size (1 KB)",
        "LLF has the lowest mean makespan at the smallest size in every case",
        &|p| {
            let b = best_at(p, small).unwrap_or_default();
            (b == "llf", format!("best {b}"))
        },
    );
    let mut mappings: Vec<String> = rows.iter().map(|r| r.mapping.clone()).collect();
    mappings.sort();
    mappings.dedup();
    for m in &mappings {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| r.mapping == *m && r.ranks == large)
            .collect();
        out.extend(hop_claims(&of, m, large));
    }
    out
}

/// The claims of the preliminary study (Fig. 2), on the link-count model.
fn model_claims(model: &[ModelRow], small: u32, large: u32) -> Vec<Claim> {
    let mut mappings: Vec<String> = model.iter().map(|r| r.mapping.clone()).collect();
    mappings.sort();
    mappings.dedup();
    let each = |test: &dyn Fn(&str) -> (bool, String)| {
        let results: Vec<(bool, String)> = mappings.iter().map(|m| test(m)).collect();
        let holds = !results.is_empty() && results.iter().all(|(ok, _)| *ok);
        let ev: Vec<String> = mappings
            .iter()
            .zip(&results)
            .map(|(m, (_, e))| format!("{m}: {e}"))
            .collect();
        (holds, ev.join("; "))
    };
    let best_is = |alg: &'static str, ranks: u32| {
        each(&move |m: &str| match best(model, m, ranks) {
            Some((b, mean)) => (b == alg, format!("best {b} ({mean:.1} links)")),
            None => (false, "missing".into()),
        })
    };
    let (tree_ok, tree_ev) = best_is("tree", small);
    let (forest_ok, forest_ev) = best_is("forest", large);
    let (llf_ok, llf_ev) = each(&|m: &str| {
        let at: Vec<&ModelRow> = ALGORITHMS
            .iter()
            .filter_map(|a| model_row(model, m, small, a))
            .collect();
        let cv = |r: &ModelRow| r.sd / r.mean.max(1.0);
        let longest = at.iter().max_by(|a, b| a.mean.total_cmp(&b.mean));
        let most_var = at.iter().max_by(|a, b| cv(a).total_cmp(&cv(b)));
        match (longest, most_var) {
            (Some(l), Some(v)) => (
                l.algorithm == "llf" && v.algorithm == "llf",
                format!(
                    "longest {} ({:.1}), most variable {} (sd/mean {:.2})",
                    l.algorithm,
                    l.mean,
                    v.algorithm,
                    cv(v)
                ),
            ),
            _ => (false, "missing".into()),
        }
    });
    vec![
        Claim {
            claim: format!("[link-count model, Fig. 2] TREE has the lowest makespan for small allocations ({small} ranks)"),
            paper: "TREE lowest up to 1,024 terminals".into(),
            holds_when: "TREE's mean model makespan is the lowest under every mapping".into(),
            holds: tree_ok,
            evidence: tree_ev,
        },
        Claim {
            claim: format!("[link-count model, Fig. 2] FOREST has the lowest makespan for large allocations ({large} ranks)"),
            paper: "FOREST lowest above 1,024 terminals".into(),
            holds_when: "FOREST's mean model makespan is the lowest under every mapping".into(),
            holds: forest_ok,
            evidence: forest_ev,
        },
        Claim {
            claim: format!("[link-count model, Fig. 2] LLF is long and variable for small allocations ({small} ranks)"),
            paper: "LLF's makespan highest and most variable for small allocations".into(),
            holds_when: "LLF has the highest mean and the highest sd/mean under every mapping".into(),
            holds: llf_ok,
            evidence: llf_ev,
        },
    ]
}

/// Hops ([DF-BC] CODES): TREE ≈ 4 / 6 / 5 links for minimal / non-minimal / adaptive
/// routing (router hops + the two terminal links); topology-aware broadcasts approach 1.
fn hop_claims(rows: &[&Row], mapping: &str, large: u32) -> Vec<Claim> {
    let mean_of = |f: &dyn Fn(&Row) -> bool| -> Option<f64> {
        let h: Vec<f64> = rows.iter().filter(|r| f(r)).map(|r| r.hops_mean).collect();
        (!h.is_empty()).then(|| mean_sd(&h).0)
    };
    let tree = |routing: &str| mean_of(&|r: &Row| r.algorithm == "tree" && r.routing == routing);
    let mut names: Vec<String> = rows.iter().map(|r| r.routing.clone()).collect();
    names.sort();
    names.dedup();
    let text: Vec<String> = names
        .iter()
        .filter_map(|n| tree(n).map(|h| format!("{n}: {h:.2} router hops ({:.2} links)", h + 2.0)))
        .collect();
    let ugal = names
        .iter()
        .find(|n| n.starts_with("df-ugal"))
        .and_then(|n| tree(n));
    // Links = router hops + 2 terminal links; "≈" = within one link of the paper's value.
    let near = |h: f64, links: f64| (h + 2.0 - links).abs() <= 1.0;
    let ordered = matches!(
        (tree("df-minimal"), ugal, tree("df-valiant")),
        (Some(m), Some(u), Some(v)) if m < u && u < v && near(m, 4.0) && near(v, 6.0) && near(u, 5.0)
    );
    let aware = mean_of(&|r: &Row| r.algorithm != "tree").unwrap_or(0.0);
    let all_tree = mean_of(&|r: &Row| r.algorithm == "tree").unwrap_or(0.0);
    vec![
        Claim {
            claim: format!(
                "TREE hops ≈ 4 / 6 / 5 links for minimal / non-minimal / adaptive (each within 1 link, in that order), {mapping}, {large} ranks"
            ),
            paper: "TREE ≈ 4 / 6 / 5 links (CODES, Fig. 5)".into(),
            holds_when: "each within 1 link of the paper's value, minimal < adaptive < non-minimal".into(),
            holds: ordered,
            evidence: text.join("; "),
        },
        Claim {
            claim: format!(
                "topology-aware broadcasts (LLF, GLF, FOREST) approach 1 hop per message, below TREE, {mapping}, {large} ranks"
            ),
            paper: "average hop count converges towards 1 (CODES, Fig. 5)".into(),
            holds_when: "mean router hops of LLF, GLF, FOREST ≤ 1.5 and below TREE's".into(),
            holds: aware <= 1.5 && aware < all_tree,
            evidence: format!("mean router hops: topology-aware {aware:.2}, TREE {all_tree:.2}"),
        },
    ]
}

impl Study {
    /// One chart per (routing, background): mean makespan against allocation size.
    pub fn charts(&self) -> Vec<(String, String)> {
        cases(&self.rows)
            .into_iter()
            .map(|case| {
                let p = panel(&self.rows, &case);
                let (mapping, routing, bg) = case;
                let series = ALGORITHMS
                    .iter()
                    .map(|a| {
                        let pts = p
                            .iter()
                            .filter(|r| r.algorithm == *a)
                            .map(|r| (f64::from(r.ranks), r.makespan_mean))
                            .collect();
                        (a.to_uppercase(), pts)
                    })
                    .collect();
                let svg = LineChart {
                    title: format!("B3 broadcast makespan, {mapping}, {routing}, background {bg}"),
                    x_label: "allocation size (ranks)".into(),
                    y_label: "mean makespan (cycles)".into(),
                    series,
                }
                .render();
                let file = format!(
                    "b3-{mapping}-{routing}-bg-{}.svg",
                    bg.replace(['/', ' '], "_")
                );
                (file, svg)
            })
            .collect()
    }

    /// Writes `table.csv`, `study.json`, the sweep's `runs.csv` and the charts into the
    /// claimed output directory, whole ([`OutDir`]).
    pub fn write(&self, out: OutDir) -> Result<()> {
        let mut files = vec![
            ("table.csv".to_string(), output::section_csv(&self.table())),
            ("study.json".to_string(), output::to_json(self)?),
            ("runs.csv".to_string(), self.sweep.to_csv()),
        ];
        files.extend(self.charts());
        out.write_all(&files)
    }

    fn table(&self) -> Section {
        let mut s = Section::new(
            "B3: broadcast makespan over random allocations (cycles)",
            &[
                "mapping",
                "routing",
                "background",
                "ranks",
                "algorithm",
                "runs",
                "mean",
                "sd",
                "min",
                "max",
                "mean_us",
                "hops",
                "bg_latency",
            ],
        );
        for r in &self.rows {
            s.row([
                r.mapping.clone(),
                r.routing.clone(),
                r.background.clone(),
                r.ranks.to_string(),
                r.algorithm.to_uppercase(),
                r.runs.to_string(),
                format!("{:.1}", r.makespan_mean),
                format!("{:.1}", r.makespan_sd),
                r.makespan_min.to_string(),
                r.makespan_max.to_string(),
                format!("{:.3}", r.makespan_us),
                format!("{:.3}", r.hops_mean),
                r.background_latency
                    .map(|b| format!("{b:.1}"))
                    .unwrap_or_default(),
            ]);
        }
        s
    }
}

impl Render for Study {
    fn sections(&self) -> Vec<Section> {
        vec![self.table(), claims_section(CLAIMS_TITLE, &self.claims)]
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "dragonfly_bcast_tests.rs"]
mod tests;
