//! Waveforms of diverging RTL runs (`jumpnet hil --engine rtl --vcd FILE`, `jumpnet hil
//! suite --engine rtl --vcd DIR`): when a run diverges, it runs again with the RTL engine of
//! the diverging rank writing a VCD file (Verilator's trace of the engine's ports and
//! registers, `jumpnet_hdl::SchedEngineRtl::start_vcd`) of the cycles around the first
//! divergence, which GTKWave opens. Cycle `c` of the run is at `c` ns in the file. The file
//! is written under a temporary name next to its target, created before anything runs, and
//! renamed when complete, so a failure leaves nothing half-written (docs/toolchain.md,
//! "Waveforms of diverging RTL runs").

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{bail, Context, Result};
use jumpnet_core::collective::Rank;
use serde::Serialize;

use super::images::NodeImage;
use super::report::HilReport;
use super::run::{run_hil, EngineKind, HilRequest};
use super::trace::Divergence;

/// Cycles `from..=to` of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CycleRange {
    /// First cycle.
    pub from: u64,
    /// Last cycle.
    pub to: u64,
}

impl std::fmt::Display for CycleRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..={}", self.from, self.to)
    }
}

/// How many cycles a waveform holds before and after the first divergence
/// (`--vcd-window BEFORE[,AFTER]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VcdWindow {
    /// Cycles before the divergence.
    pub before: u64,
    /// Cycles after it.
    pub after: u64,
}

impl Default for VcdWindow {
    /// 200 cycles before the divergence, 50 after.
    fn default() -> Self {
        VcdWindow {
            before: 200,
            after: 50,
        }
    }
}

impl VcdWindow {
    /// Parses `BEFORE[,AFTER]` (one number: as many cycles on both sides).
    pub fn parse(text: &str) -> Result<Self, String> {
        let number = |s: &str| {
            s.trim().parse::<u64>().map_err(|e| {
                format!(
                    "`{s}` is not a number of cycles ({e}); expected BEFORE[,AFTER], e.g. 200,50"
                )
            })
        };
        match text.split_once(',') {
            Some((b, a)) => Ok(VcdWindow {
                before: number(b)?,
                after: number(a)?,
            }),
            None => {
                let n = number(text)?;
                Ok(VcdWindow {
                    before: n,
                    after: n,
                })
            }
        }
    }

    /// The cycles around `cycle` (from cycle 0 at the earliest).
    pub fn around(&self, cycle: u64) -> CycleRange {
        CycleRange {
            from: cycle.saturating_sub(self.before),
            to: cycle.saturating_add(self.after),
        }
    }
}

/// The waveform a HIL run writes ([`HilRequest::waveform`]): the RTL engine of `rank` dumps
/// the cycles of `window` (around `cycle`) into `path`.
#[derive(Clone, Debug)]
pub struct EngineWaveform {
    /// The file (written as is; [`write_waveform`] gives a temporary one).
    pub path: PathBuf,
    /// The rank whose engine is traced.
    pub rank: Rank,
    /// The cycle the window is around (the first divergence).
    pub cycle: u64,
    /// The cycles to dump.
    pub window: CycleRange,
}

/// Where a run's RTL engine leaves the cycles its waveform holds when it is dropped.
pub type DumpedCycles = Rc<Cell<Option<CycleRange>>>;

impl EngineWaveform {
    /// The node whose image holds the traced rank (an error when no engine of the run runs
    /// it).
    pub fn node(&self, images: &[NodeImage]) -> Result<u32> {
        images
            .iter()
            .find(|i| i.programs.iter().any(|p| p.rank == self.rank))
            .map(|i| i.node)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "the waveform's rank {} does not run on an engine of this run",
                    self.rank
                )
            })
    }

    /// What the run wrote: the engine of `node` held `cycles`.
    pub fn summary(&self, node: u32, cycles: Option<CycleRange>) -> WaveformSummary {
        WaveformSummary {
            path: self.path.clone(),
            rank: self.rank,
            node,
            divergence_cycle: self.cycle,
            window: self.window,
            cycles,
        }
    }
}

/// A waveform written by a HIL run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WaveformSummary {
    /// The file.
    pub path: PathBuf,
    /// The rank whose RTL engine it shows.
    pub rank: Rank,
    /// The node (switch) of that rank.
    pub node: u32,
    /// The cycle of the first divergence it is centred on.
    pub divergence_cycle: u64,
    /// The cycles asked for.
    pub window: CycleRange,
    /// The cycles it holds (the run may stop before the window's end; `None`: no cycle of
    /// the window ran).
    pub cycles: Option<CycleRange>,
}

impl std::fmt::Display for WaveformSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "waveform {}: the RTL engine of rank {} (node {}), ",
            self.path.display(),
            self.rank,
            self.node
        )?;
        match self.cycles {
            Some(c) => write!(f, "cycles {c} (at {}..={} ns)", c.from, c.to)?,
            None => write!(
                f,
                "no cycle (the engine stopped before cycle {})",
                self.window.from
            )?,
        }
        write!(
            f,
            " of the window {} around the first divergence in cycle {}; open it with `gtkwave {}`",
            self.window,
            self.divergence_cycle,
            self.path.display()
        )
    }
}

/// Where a divergence shows first: the rank and cycle of the earlier of the expected event
/// and the run's (the run's on a tie); `None` when neither exists.
pub fn focus(d: &Divergence) -> Option<(Rank, u64)> {
    match (d.expected, d.got) {
        (Some(e), Some(g)) if e.cycle < g.cycle => Some((e.rank, e.cycle)),
        (_, Some(g)) => Some((g.rank, g.cycle)),
        (Some(e), None) => Some((e.rank, e.cycle)),
        (None, None) => None,
    }
}

/// Refuses a waveform of an engine that is not RTL.
pub fn check_engine(engine: EngineKind) -> Result<()> {
    if engine != EngineKind::Rtl {
        bail!(
            "--vcd writes the waveform of a Verilated RTL engine: it needs --engine rtl (this \
             run's engine is {})",
            engine.name()
        );
    }
    Ok(())
}

/// Distinguishes the temporary files of one process.
static PENDING: AtomicUsize = AtomicUsize::new(0);

/// A file to be written at `target`: created now as `.NAME.vcd-PID-N.tmp` in the same
/// directory (so that an unwritable place fails before anything runs), renamed over the
/// target by [`commit`](Self::commit), removed when dropped uncommitted.
#[derive(Debug)]
pub struct PendingFile {
    tmp: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl PendingFile {
    /// Creates the temporary file for `target`. Errors: `target` is a directory or another
    /// non-regular file, its directory does not exist or cannot be written.
    pub fn create(target: &Path) -> Result<Self> {
        let shown = target.display();
        if let Ok(meta) = std::fs::metadata(target) {
            if !meta.is_file() {
                bail!("cannot write the waveform {shown}: it exists and is not a regular file");
            }
        }
        let Some(name) = target.file_name() else {
            bail!("cannot write the waveform {shown}: it names no file");
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let tmp = dir.join(format!(
            ".{}.vcd-{}-{}.tmp",
            name.to_string_lossy(),
            std::process::id(),
            PENDING.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::File::create(&tmp)
            .with_context(|| format!("cannot write the waveform {shown} (in {})", dir.display()))?;
        Ok(PendingFile {
            tmp,
            target: target.to_path_buf(),
            committed: false,
        })
    }

    /// The temporary file.
    pub fn tmp(&self) -> &Path {
        &self.tmp
    }

    /// The file it becomes.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes the temporary file to disk and renames it over the target.
    pub fn commit(mut self) -> Result<()> {
        let shown = self.target.display();
        std::fs::File::open(&self.tmp)
            .and_then(|f| f.sync_all())
            .with_context(|| format!("cannot write the waveform {shown}"))?;
        std::fs::rename(&self.tmp, &self.target)
            .with_context(|| format!("cannot move the waveform into place at {shown}"))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if !self.committed {
            // Best effort: a temporary file that cannot be removed is only litter.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// After `report`, a diverging run of `req`: runs `req` again with the RTL engine of the
/// diverging rank ([`focus`]) writing the cycles of `window` around the first divergence
/// into `file`, then renames the file into place. Errors: no event divergence in `report`,
/// a failing re-run, a file that cannot be written (nothing is left at the target then).
pub fn write_waveform(
    mut req: HilRequest,
    report: &HilReport,
    file: PendingFile,
    window: VcdWindow,
) -> Result<WaveformSummary> {
    check_engine(req.engine)?;
    let Some(d) = &report.divergence else {
        bail!("the run did not diverge: there is no divergence to show in a waveform");
    };
    let Some((rank, cycle)) = focus(d) else {
        bail!("the divergence has no event to show in a waveform");
    };
    req.waveform = Some(EngineWaveform {
        path: file.tmp().to_path_buf(),
        rank,
        cycle,
        window: window.around(cycle),
    });
    let again = run_hil(&req).context("the re-run that writes the waveform failed")?;
    let Some(mut summary) = again.waveform.clone() else {
        bail!("the re-run wrote no waveform");
    };
    if again.divergence != report.divergence {
        bail!(
            "the re-run that writes the waveform diverged differently (a nondeterministic \
             run?): first {}, then {}",
            d.index,
            again
                .divergence
                .map_or("none".into(), |d| d.index.to_string())
        );
    }
    summary.path = file.target().to_path_buf();
    file.commit()?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_parse_and_clip_at_cycle_zero() {
        assert_eq!(VcdWindow::parse("200,50"), Ok(VcdWindow::default()));
        assert_eq!(
            VcdWindow::parse("30"),
            Ok(VcdWindow {
                before: 30,
                after: 30
            })
        );
        assert!(VcdWindow::parse("-1").is_err());
        assert!(VcdWindow::parse("1,x").is_err());
        let w = VcdWindow::default();
        assert_eq!(w.around(120), CycleRange { from: 0, to: 170 });
        assert_eq!(
            w.around(1000),
            CycleRange {
                from: 800,
                to: 1050
            }
        );
    }

    #[test]
    fn pending_files_appear_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("w.vcd");
        let p = PendingFile::create(&target).unwrap();
        assert!(p.tmp().is_file());
        let tmp = p.tmp().to_path_buf();
        drop(p);
        assert!(!tmp.exists() && !target.exists());
        let p = PendingFile::create(&target).unwrap();
        std::fs::write(p.tmp(), "$end\n").unwrap();
        p.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "$end\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(PendingFile::create(dir.path()).is_err());
        assert!(PendingFile::create(&dir.path().join("missing/w.vcd")).is_err());
    }
}
