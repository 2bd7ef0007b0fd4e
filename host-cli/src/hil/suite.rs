//! HIL regression suites (`jumpnet hil suite`): many golden traces replayed on one engine
//! in one run, cases in parallel (bounded by the cores and, for QEMU devices, by the
//! instances the machine can hold), with a summary ([`SuiteReport`]), JUnit XML
//! ([`super::junit`]) and a `diff -u` of every divergence; or a manifest's traces recorded.
//!
//! A suite is a directory (every `*.jsonl` trace under it, sorted by path) or a manifest
//! ([`Manifest`], TOML): one `[[case]]` per trace, which lives next to the manifest as
//! `NAME.jsonl`. Replaying needs only the traces (their headers describe the runs,
//! [`super::run_key`]); recording needs the manifest. docs/toolchain.md ("HIL regression
//! suites") describes both formats.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use serde::Serialize;

use super::device_engine::{DeviceFaults, DeviceSetup};
pub use super::manifest::{
    case_trace_path, read_manifest, suite_traces, Manifest, ManifestCase, MANIFEST_NAME,
};
use super::run::{run_hil, EngineKind, HilRequest};
use super::run_key::Timing;
use super::trace::{self, Divergence, Trace};
use super::waveform::{self, PendingFile, VcdWindow, WaveformSummary};
use crate::io::output::{Render, Section};
use crate::runs::collective::CollectiveRun;
use crate::sim::setup::Setup;

/// How to reach the devices of a device suite (each case gets its own [`DeviceSetup`]).
#[derive(Clone, Debug)]
pub struct DeviceOptions {
    /// Firmware ELF.
    pub elf: PathBuf,
    /// Wall-clock limit of each QEMU instance in seconds.
    pub limit_s: u32,
    /// Longest wait for one answer.
    pub timeout: Duration,
    /// Attempts per request.
    pub attempts: u32,
}

impl DeviceOptions {
    fn setup(&self) -> DeviceSetup {
        DeviceSetup {
            elf: self.elf.clone(),
            limit_s: self.limit_s,
            timeout: self.timeout,
            attempts: self.attempts,
            faults: DeviceFaults::default(),
            round_trips: Default::default(),
        }
    }
}

/// A suite run: what to run and how wide.
#[derive(Clone, Debug)]
pub struct SuiteRequest {
    /// The engine of every case.
    pub engine: EngineKind,
    /// Cases at once (at least 1).
    pub jobs: usize,
    /// QEMU instances at once (device engines; a case needs one per traced rank).
    pub qemu_instances: usize,
    /// Devices (device engines).
    pub device: Option<DeviceOptions>,
    /// Waveforms of diverging cases (RTL engines, replay only).
    pub vcd: Option<SuiteVcd>,
    /// Progress lines on stderr.
    pub progress: bool,
}

/// Waveforms of a suite's diverging cases (`--vcd DIR`): `DIR/CASE.vcd` for each
/// ([`super::waveform`]).
#[derive(Clone, Debug)]
pub struct SuiteVcd {
    /// The directory (created when missing).
    pub dir: PathBuf,
    /// The cycles around each first divergence.
    pub window: VcdWindow,
}

impl SuiteVcd {
    /// The waveform file of case `name` (a case under a subdirectory of the suite gets the
    /// same subdirectory).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.vcd"))
    }

    /// Checks the engine, creates the directory and checks it can be written, before
    /// anything runs.
    fn prepare(&self, engine: EngineKind) -> Result<()> {
        waveform::check_engine(engine)?;
        std::fs::create_dir_all(&self.dir).map_err(|e| {
            anyhow!(
                "cannot create the waveform directory {}: {e}",
                self.dir.display()
            )
        })?;
        PendingFile::create(&self.path("probe")).map(drop)
    }

    /// The pending waveform file of case `name` (its directory created).
    fn file(&self, name: &str) -> Result<PendingFile> {
        let path = self.path(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| anyhow!("cannot create {}: {e}", parent.display()))?;
        }
        PendingFile::create(&path)
    }
}

/// The cores of the machine (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What a case ended with.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Outcome {
    /// The run's events equal the trace's.
    Match,
    /// The run differs from the trace.
    Diverged {
        /// The first divergence (none: the RTL router's hops differ).
        divergence: Option<Divergence>,
        /// `diff -u` of expected and actual events around it.
        diff: String,
        /// The waveform written of it (`--vcd`), if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        waveform: Option<Box<WaveformSummary>>,
    },
    /// Not run: the engine does not keep the trace's timing contract.
    Skipped {
        /// Why.
        reason: String,
    },
    /// The run failed (a device that stops answering, an RTL error, a trace that cannot be
    /// recorded).
    Error {
        /// The error.
        message: String,
    },
}

/// One case of a suite run.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// Case name.
    pub name: String,
    /// Trace file.
    pub trace: PathBuf,
    /// Engine.
    pub engine: &'static str,
    /// Timing contract of the trace.
    pub timing: &'static str,
    /// Events of the trace (recording: of the run).
    pub events: usize,
    /// Wall-clock seconds of the case.
    pub seconds: f64,
    /// Result.
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl CaseResult {
    /// The result column of the summary table.
    pub fn result_text(&self) -> String {
        match &self.outcome {
            Outcome::Match => "match".into(),
            Outcome::Diverged {
                divergence: Some(d),
                ..
            } => format!("DIVERGES at event {}", d.index),
            Outcome::Diverged { .. } => "DIVERGES (RTL router hops)".into(),
            Outcome::Skipped { reason } => format!("skipped ({reason})"),
            Outcome::Error { .. } => "ERROR".into(),
        }
    }
}

/// The result of a suite run.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteReport {
    /// The suite (directory or manifest).
    pub suite: PathBuf,
    /// Engine.
    pub engine: &'static str,
    /// Cases run at once.
    pub jobs: usize,
    /// Recorded (`--record`) instead of replayed.
    pub recorded: bool,
    /// Wall-clock seconds of the whole suite.
    pub wall_seconds: f64,
    /// The cases, in suite order.
    pub cases: Vec<CaseResult>,
}

impl SuiteReport {
    /// Cases that diverge.
    pub fn diverged(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases
            .iter()
            .filter(|c| matches!(c.outcome, Outcome::Diverged { .. }))
    }

    /// Cases that failed to run.
    pub fn errors(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases
            .iter()
            .filter(|c| matches!(c.outcome, Outcome::Error { .. }))
    }

    /// Exit status: 2 when a case could not run, else 1 when one diverges, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors().next().is_some() {
            2
        } else if self.diverged().next().is_some() {
            1
        } else {
            0
        }
    }
}

impl Render for SuiteReport {
    fn sections(&self) -> Vec<Section> {
        let title = format!(
            "hil suite {} ({} engine, {} job{})",
            self.suite.display(),
            self.engine,
            self.jobs,
            if self.jobs == 1 { "" } else { "s" }
        );
        let mut t = Section::new(
            title,
            &["case", "engine", "timing", "events", "result", "time_s"],
        );
        for c in &self.cases {
            t.row([
                c.name.clone(),
                c.engine.to_string(),
                c.timing.to_string(),
                c.events.to_string(),
                c.result_text(),
                format!("{:.2}", c.seconds),
            ]);
        }
        let count = |f: fn(&Outcome) -> bool| self.cases.iter().filter(|c| f(&c.outcome)).count();
        let mut s = Section::key_values("summary");
        s.kv("cases", self.cases.len())
            .kv("match", count(|o| matches!(o, Outcome::Match)))
            .kv("diverge", count(|o| matches!(o, Outcome::Diverged { .. })))
            .kv("skipped", count(|o| matches!(o, Outcome::Skipped { .. })))
            .kv("errors", count(|o| matches!(o, Outcome::Error { .. })))
            .kv("wall_seconds", format!("{:.2}", self.wall_seconds));
        vec![t, s]
    }
}

/// A counting semaphore (QEMU instances).
struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Slots {
    fn take(&self, n: usize) -> usize {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        while *free < n {
            free = self.freed.wait(free).unwrap_or_else(|p| p.into_inner());
        }
        *free -= n;
        n
    }

    fn give(&self, n: usize) {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        *free += n;
        self.freed.notify_all();
    }
}

/// One unit of work of [`run_parallel`]: its QEMU instances and the work.
struct Job<'a, T> {
    qemu: usize,
    work: Box<dyn Fn() -> T + Send + Sync + 'a>,
}

/// Runs `jobs` on `width` threads, each taking its QEMU instances from `qemu` slots first;
/// `done(i, &result)` is called as each finishes (progress). Results in job order.
fn run_parallel<T: Send>(
    jobs: Vec<Job<'_, T>>,
    width: usize,
    qemu: usize,
    done: &(dyn Fn(usize, &T) + Sync),
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let slots = Slots {
        free: Mutex::new(qemu.max(1)),
        freed: Condvar::new(),
    };
    let results: Vec<Mutex<Option<T>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..width.clamp(1, jobs.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { break };
                let held = slots.take(job.qemu.min(qemu.max(1)));
                let r = (job.work)();
                slots.give(held);
                done(i, &r);
                *results[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
            });
        }
    });
    results
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
        .collect()
}

/// A loaded case: its trace and the run its header describes.
struct Loaded {
    name: String,
    path: PathBuf,
    trace: Trace,
    setup: Setup,
    collective: CollectiveRun,
}

/// Reads every trace and replays its header; every refusal is listed (nothing runs then).
fn load(cases: &[(String, PathBuf)]) -> Result<Vec<Loaded>> {
    let mut loaded = Vec::new();
    let mut errors = Vec::new();
    for (name, path) in cases {
        let r = trace::read(path).and_then(|t| {
            let (setup, collective) = t
                .run
                .replay()
                .map_err(|e| anyhow!("{}: {e:#}", path.display()))?;
            Ok((t, setup, collective))
        });
        match r {
            Ok((trace, setup, collective)) => loaded.push(Loaded {
                name: name.clone(),
                path: path.clone(),
                trace,
                setup,
                collective,
            }),
            Err(e) => errors.push(format!("case {name}: {e:#}")),
        }
    }
    if !errors.is_empty() {
        bail!(
            "{} of {} traces refused (nothing was run):\n  {}",
            errors.len(),
            cases.len(),
            errors.join("\n  ")
        );
    }
    Ok(loaded)
}

fn progress_line(req: &SuiteRequest, total: usize, finished: &AtomicUsize, c: &CaseResult) {
    if req.progress {
        let k = finished.fetch_add(1, Ordering::SeqCst) + 1;
        // Progress is best effort: a closed or full stderr must not stop the suite.
        let _ = crate::io::output::eprint_line(&format!(
            "[{k}/{total}] {} ({} engine): {} ({:.2} s)",
            c.name,
            c.engine,
            c.result_text(),
            c.seconds
        ));
    }
}

/// Replays one loaded case on `req.engine`.
fn replay_case(req: &SuiteRequest, l: &Loaded) -> CaseResult {
    let start = Instant::now();
    let timing = l.trace.run.timing;
    let mut result = CaseResult {
        name: l.name.clone(),
        trace: l.path.clone(),
        engine: req.engine.name(),
        timing: timing.name(),
        events: l.trace.events.len(),
        seconds: 0.0,
        outcome: Outcome::Match,
    };
    if !req.engine.keeps(timing) {
        result.outcome = Outcome::Skipped {
            reason: format!(
                "{} engines do not keep the {} timing contract",
                req.engine.name(),
                timing.name()
            ),
        };
        return result;
    }
    let mut hil = HilRequest::new(
        l.setup.clone(),
        l.collective.clone(),
        l.trace.run.nodes.clone(),
        req.engine,
    );
    hil.timing = timing;
    hil.device = (req.engine == EngineKind::Device)
        .then(|| req.device.as_ref().map(DeviceOptions::setup))
        .flatten();
    hil.expected = Some(l.trace.clone());
    result.outcome = replay_outcome(req, l, hil);
    result.seconds = start.elapsed().as_secs_f64();
    result
}

/// Runs `hil`, the replay of case `l`, and what it ended with; a diverging case gets its
/// waveform with `req.vcd` (a waveform that cannot be written makes the case an error).
fn replay_outcome(req: &SuiteRequest, l: &Loaded, hil: HilRequest) -> Outcome {
    let error = |e: anyhow::Error| Outcome::Error {
        message: format!("{e:#}"),
    };
    let file = match req.vcd.as_ref().map(|v| v.file(&l.name)).transpose() {
        Ok(f) => f,
        Err(e) => return error(e),
    };
    let report = match run_hil(&hil) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    match (&report.divergence, report.hop_difference()) {
        (None, None) => Outcome::Match,
        (Some(d), _) => {
            let diff = d.unified_diff(
                &format!("expected {}", l.path.display()),
                &format!("actual ({} engine)", req.engine.name()),
            );
            let waveform = match (file, &req.vcd) {
                (Some(file), Some(v)) => {
                    match waveform::write_waveform(hil, &report, file, v.window) {
                        Ok(w) => Some(Box::new(w)),
                        Err(e) => {
                            return error(e.context(format!(
                                "{} diverges at event {}, and its waveform could not be written",
                                l.name, d.index
                            )))
                        }
                    }
                }
                _ => None,
            };
            Outcome::Diverged {
                diff,
                divergence: Some(d.clone()),
                waveform,
            }
        }
        (None, Some(h)) => Outcome::Diverged {
            divergence: None,
            diff: h.to_string(),
            waveform: None,
        },
    }
}

/// Replays every trace of `suite` (a directory or a manifest) on `req.engine`. A trace
/// refused (format, missing field) is an error before anything runs; a case that fails to
/// run is an `Error` outcome, the others still run.
pub fn replay_suite(suite: &Path, req: &SuiteRequest) -> Result<SuiteReport> {
    let cases = suite_traces(suite)?;
    let loaded = load(&cases)?;
    if let Some(v) = &req.vcd {
        v.prepare(req.engine)?;
    }
    if !loaded.iter().any(|l| req.engine.keeps(l.trace.run.timing)) {
        bail!(
            "no trace of {} follows a timing contract {} engines keep (device: untimed, rtl: \
             clocked, core: both)",
            suite.display(),
            req.engine.name()
        );
    }
    let start = Instant::now();
    let finished = AtomicUsize::new(0);
    let total = loaded.len();
    let jobs: Vec<Job<'_, CaseResult>> = loaded
        .iter()
        .map(|l| Job {
            qemu: if req.engine == EngineKind::Device {
                l.trace.run.ranks.len()
            } else {
                0
            },
            work: Box::new(move || replay_case(req, l)),
        })
        .collect();
    let cases = run_parallel(jobs, req.jobs, req.qemu_instances, &|_, c| {
        progress_line(req, total, &finished, c)
    });
    Ok(SuiteReport {
        suite: suite.to_path_buf(),
        engine: req.engine.name(),
        jobs: req.jobs,
        recorded: false,
        wall_seconds: start.elapsed().as_secs_f64(),
        cases,
    })
}

/// Records the trace of every case of the manifest `manifest` on `req.engine` (compared
/// with the in-process run as `jumpnet hil --record` does). Existing traces are only
/// replaced with `update`; nothing is written unless every case records (each file then
/// written atomically).
pub fn record_suite(manifest: &Path, req: &SuiteRequest, update: bool) -> Result<SuiteReport> {
    if std::fs::metadata(manifest).is_ok_and(|m| m.is_dir()) {
        bail!(
            "--record needs a manifest file (e.g. {}/{MANIFEST_NAME}), not the directory {}",
            manifest.display(),
            manifest.display()
        );
    }
    let m = read_manifest(manifest)?;
    let existing: Vec<String> = m
        .cases
        .iter()
        .map(|c| case_trace_path(manifest, &c.name))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect();
    if !existing.is_empty() && !update {
        bail!(
            "{} trace(s) exist and would be overwritten: {}; give --update to re-record them",
            existing.len(),
            existing.join(", ")
        );
    }
    let mut runs = Vec::new();
    for c in &m.cases {
        let (setup, collective, timing) = c.run().map_err(|e| {
            anyhow!(
                "suite manifest {}: case {}: {e:#}",
                manifest.display(),
                c.name
            )
        })?;
        if !req.engine.keeps(timing) {
            bail!(
                "case {}: {} engines do not keep the {} timing contract; record it with \
                 --engine core",
                c.name,
                req.engine.name(),
                timing.name()
            );
        }
        runs.push((c, setup, collective, timing));
    }
    let start = Instant::now();
    let finished = AtomicUsize::new(0);
    let total = runs.len();
    type Recorded = (CaseResult, Option<String>);
    let jobs: Vec<Job<'_, Recorded>> = runs
        .iter()
        .map(|(c, setup, collective, timing)| Job {
            qemu: if req.engine == EngineKind::Device {
                c.nodes.len()
            } else {
                0
            },
            work: Box::new(move || record_case(req, manifest, c, setup, collective, *timing)),
        })
        .collect();
    let results = run_parallel(jobs, req.jobs, req.qemu_instances, &|_, (c, _)| {
        progress_line(req, total, &finished, c)
    });
    if results.iter().all(|(_, text)| text.is_some()) {
        for (c, text) in &results {
            if let Some(text) = text {
                crate::io::output::write_atomic(&c.trace, text.as_bytes())?;
            }
        }
    }
    Ok(SuiteReport {
        suite: manifest.to_path_buf(),
        engine: req.engine.name(),
        jobs: req.jobs,
        recorded: true,
        wall_seconds: start.elapsed().as_secs_f64(),
        cases: results.into_iter().map(|(c, _)| c).collect(),
    })
}

/// Runs one manifest case and renders its trace file (none when it diverges from the
/// in-process run or fails).
fn record_case(
    req: &SuiteRequest,
    manifest: &Path,
    c: &ManifestCase,
    setup: &Setup,
    collective: &CollectiveRun,
    timing: Timing,
) -> (CaseResult, Option<String>) {
    let start = Instant::now();
    let mut hil = HilRequest::new(
        setup.clone(),
        collective.clone(),
        c.nodes.clone(),
        req.engine,
    );
    hil.timing = timing;
    hil.device = (req.engine == EngineKind::Device)
        .then(|| req.device.as_ref().map(DeviceOptions::setup))
        .flatten();
    let mut result = CaseResult {
        name: c.name.clone(),
        trace: case_trace_path(manifest, &c.name),
        engine: req.engine.name(),
        timing: timing.name(),
        events: 0,
        seconds: 0.0,
        outcome: Outcome::Match,
    };
    let mut text = None;
    result.outcome = match run_hil(&hil) {
        Err(e) => Outcome::Error {
            message: format!("{e:#}"),
        },
        Ok(report) => {
            result.events = report.trace.len();
            match &report.divergence {
                Some(d) => Outcome::Diverged {
                    diff: d.unified_diff(
                        "expected (in-process run)",
                        &format!("actual ({} engine)", req.engine.name()),
                    ),
                    divergence: Some(d.clone()),
                    waveform: None,
                },
                None => match trace::to_text(&report.run, &report.trace) {
                    Ok(t) => {
                        text = Some(t);
                        Outcome::Match
                    }
                    Err(e) => Outcome::Error {
                        message: format!("{e:#}"),
                    },
                },
            }
        }
    };
    result.seconds = start.elapsed().as_secs_f64();
    (result, text)
}
