//! Output directories (`report --out`, `sweep --out`, `sweep merge --out`, `study … --out`,
//! `sched export -o`): one rule for all of them, claimed before the run starts
//! ([`OutDir::claim`]) so that a bad `--out` fails at once, not after an hour of work.
//!
//! - **Whose directory.** jumpnet writes a directory only if it does not exist, is empty,
//!   or was written by jumpnet (it holds the manifest [`MARKER`]; `report` directories of
//!   earlier versions hold `.jumpnet-report`). Anything else — a directory of the user's
//!   with files in it, a file, a device such as `/dev/full` — is refused, naming it.
//! - **One writer at a time.** A lock file `.NAME.lock` beside the directory is created
//!   exclusively when the directory is claimed and removed when the run ends; a second
//!   run with the same `--out` fails with a message naming the first (a lock left by a
//!   process of this machine that no longer exists is taken over).
//! - **Nothing half-written.** Files are written into `.NAME.tmp-PID` beside the
//!   directory and moved into place when complete ([`OutDir::commit`]); a directory that
//!   jumpnet wrote before is replaced as a whole. SIGINT, SIGTERM and SIGHUP remove the
//!   partial directory and the lock ([`super::cleanup`]); what a killed run (SIGKILL, power
//!   loss) left is removed by the next run that claims the same directory.
//! - **Checksums.** The manifest lists every file written through [`OutDir::write`] with
//!   its size and CRC-32, so a reader can refuse a file changed afterwards
//!   ([`verify_file`]; `sweep merge` does so for the shards' `results.json`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::cleanup;

/// The manifest jumpnet writes into every output directory: that jumpnet wrote it, by
/// which command, and the files with their checksums (JSON, [`Manifest`]).
pub const MARKER: &str = ".jumpnet-output";

/// Markers of earlier versions that also make a directory jumpnet's.
const LEGACY_MARKERS: &[&str] = &[".jumpnet-report"];

/// The manifest of an output directory ([`MARKER`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The command that wrote the directory (`jumpnet sweep`).
    pub written_by: String,
    /// Files written, by name: size and CRC-32.
    pub files: BTreeMap<String, FileSum>,
}

/// Size and checksum of one file of an output directory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSum {
    /// Size in bytes.
    pub bytes: u64,
    /// CRC-32 (ISO-HDLC, as the images use).
    pub crc32: u32,
}

impl FileSum {
    /// The size and checksum of `bytes`.
    pub fn of(bytes: &[u8]) -> FileSum {
        FileSum {
            bytes: bytes.len() as u64,
            crc32: jumpnet_core::image::crc32::crc32(bytes),
        }
    }
}

/// An output directory claimed for one run: checked against the rule, locked, and written
/// through a staging directory (see the module documentation). Dropping it without
/// [`OutDir::commit`] removes the staging directory and the lock and leaves the directory
/// as it was.
#[derive(Debug)]
pub struct OutDir {
    dir: PathBuf,
    parent: PathBuf,
    name: String,
    lock: PathBuf,
    staging: Option<PathBuf>,
    created_parents: Vec<PathBuf>,
    manifest: Manifest,
}

/// Whether `dir` holds a marker of jumpnet's.
fn has_marker(dir: &Path) -> bool {
    std::iter::once(MARKER)
        .chain(LEGACY_MARKERS.iter().copied())
        .any(|m| dir.join(m).exists())
}

/// The rule: `dir` may be written when it does not exist, is an empty directory, or is a
/// directory jumpnet wrote. `flag` names the option in the error (`--out`).
pub fn check_writable(dir: &Path, flag: &str) -> Result<()> {
    let shown = dir.display();
    let meta = match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot use {flag} {shown}")),
        Ok(m) => m,
    };
    if !meta.is_dir() {
        bail!("{flag} {shown} exists and is not a directory: give a new or empty directory");
    }
    let mut entries = std::fs::read_dir(dir).with_context(|| format!("cannot read {shown}"))?;
    if entries.next().is_some() && !has_marker(dir) {
        bail!(
            "{flag} {shown} exists, is not empty and was not written by jumpnet (it has no \
             {MARKER}): choose a new or empty directory, so that no file of yours is replaced"
        );
    }
    Ok(())
}

/// This machine's name (for lock files), empty when unknown.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// Whether process `pid` of this machine is running.
fn alive(pid: u32) -> bool {
    pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists()
}

/// The PID recorded in a lock file's text (`pid host`) when its host is this machine.
fn local_pid(text: &str) -> Option<u32> {
    let mut words = text.split_whitespace();
    let pid = words.next()?.parse().ok()?;
    (words.next().unwrap_or("") == hostname()).then_some(pid)
}

/// Creates `lock` exclusively; a lock of a dead local process is replaced once.
fn take_lock(lock: &Path, dir: &Path) -> Result<()> {
    for attempt in 0..2 {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(lock)
        {
            Ok(mut f) => {
                cleanup::register(lock);
                let text = format!("{} {}\n", std::process::id(), hostname());
                return f
                    .write_all(text.as_bytes())
                    .with_context(|| format!("cannot write the lock file {}", lock.display()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let text = std::fs::read_to_string(lock).unwrap_or_default();
                match local_pid(&text) {
                    Some(pid) if !alive(pid) && attempt == 0 => {
                        let _ = std::fs::remove_file(lock);
                    }
                    _ => bail!(
                        "{} is being written by another jumpnet run (process {}; lock file \
                         {}): wait for it to end or choose another directory (remove the \
                         lock file if no such run is going on)",
                        dir.display(),
                        text.trim(),
                        lock.display()
                    ),
                }
            }
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot write beside {}: creating the lock file {} failed",
                        dir.display(),
                        lock.display()
                    )
                })
            }
        }
    }
    bail!("cannot take the lock file {}", lock.display())
}

/// The PID of a staging (`.NAME.tmp-PID`) or replaced (`.NAME.old-PID`) directory of
/// `name`, and whether it is a replaced one to move back. Either with
/// [`cleanup::REMOVING`] appended was being removed when its run died: it is removed.
fn leftover_pid(entry: &str, name: &str) -> Option<(u32, bool)> {
    let rest = entry.strip_prefix('.')?.strip_prefix(name)?;
    if let Some(cut) = rest.strip_suffix(cleanup::REMOVING) {
        let pid = cut
            .strip_prefix(".tmp-")
            .or_else(|| cut.strip_prefix(".old-"))?;
        return pid.parse().ok().map(|p| (p, false));
    }
    if let Some(pid) = rest.strip_prefix(".tmp-") {
        return pid.parse().ok().map(|p| (p, false));
    }
    rest.strip_prefix(".old-")?.parse().ok().map(|p| (p, true))
}

/// Removes what runs of dead processes left beside `dir` (called with the lock held): their
/// staging directories, and their replaced directories — moved back when the run died
/// between moving the old directory away and the new one in.
fn remove_leftovers(parent: &Path, name: &str, dir: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let entry = e.file_name().to_string_lossy().into_owned();
        let Some((pid, old)) = leftover_pid(&entry, name) else {
            continue;
        };
        if alive(pid) {
            continue;
        }
        let path = e.path();
        if old && !dir.exists() {
            let _ = std::fs::rename(&path, dir);
        } else {
            cleanup::remove_path(&path);
        }
    }
}

impl OutDir {
    /// Claims `dir` for a run of `command` (`"sweep"`): checks the rule (`flag` names the
    /// option in errors), creates missing parents (which also shows that they can be
    /// written), takes the lock and removes leftovers of dead runs. Call before the long
    /// work.
    pub fn claim(dir: &Path, command: &str, flag: &str) -> Result<OutDir> {
        check_writable(dir, flag)?;
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| anyhow!("{flag} {} names no directory", dir.display()))?;
        let mut created_parents = Vec::new();
        let mut p = parent.as_path();
        while !p.as_os_str().is_empty() && !p.exists() {
            created_parents.push(p.to_path_buf());
            p = p.parent().unwrap_or(Path::new(""));
        }
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let lock = parent.join(format!(".{name}.lock"));
        if let Err(e) = take_lock(&lock, dir) {
            for p in &created_parents {
                let _ = std::fs::remove_dir(p);
            }
            return Err(e);
        }
        let out = OutDir {
            dir: dir.to_path_buf(),
            lock: lock.clone(),
            parent,
            name,
            staging: None,
            created_parents,
            manifest: Manifest {
                written_by: format!("jumpnet {command}"),
                files: BTreeMap::new(),
            },
        };
        remove_leftovers(&out.parent, &out.name, dir);
        Ok(out)
    }

    /// The directory the output goes to.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The staging directory (created on first use): files written here appear in
    /// [`OutDir::path`] on [`OutDir::commit`]. Files written here directly are not listed
    /// in the manifest; [`OutDir::write`] lists them.
    pub fn staging(&mut self) -> Result<PathBuf> {
        if let Some(s) = &self.staging {
            return Ok(s.clone());
        }
        let s = self
            .parent
            .join(format!(".{}.tmp-{}", self.name, std::process::id()));
        cleanup::register(&s);
        self.staging = Some(s.clone());
        std::fs::create_dir(&s).with_context(|| format!("cannot create {}", s.display()))?;
        Ok(s)
    }

    /// Writes `bytes` as file `name` of the output (into the staging directory) and lists
    /// it with its checksum in the manifest.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        let path = self.staging()?.join(name);
        std::fs::write(&path, bytes).with_context(|| {
            format!(
                "cannot write {} (for {})",
                path.display(),
                self.dir.display()
            )
        })?;
        self.manifest
            .files
            .insert(name.to_string(), FileSum::of(bytes));
        Ok(())
    }

    /// Writes every `(name, text)` ([`OutDir::write`]), then [`OutDir::commit`]s. Render
    /// everything before calling.
    pub fn write_all<N: AsRef<str>>(mut self, files: &[(N, String)]) -> Result<()> {
        for (name, text) in files {
            self.write(name.as_ref(), text.as_bytes())?;
        }
        self.commit()
    }

    /// Writes the manifest and moves the staging directory into place (replacing a
    /// directory jumpnet wrote before, which is checked again); removes the lock.
    pub fn commit(mut self) -> Result<()> {
        let staging = self.staging()?;
        let manifest = super::output::to_json(&self.manifest)?;
        std::fs::write(staging.join(MARKER), manifest)
            .with_context(|| format!("cannot write {}", staging.join(MARKER).display()))?;
        check_writable(&self.dir, "the output directory")?;
        let old = self
            .parent
            .join(format!(".{}.old-{}", self.name, std::process::id()));
        let replaced =
            self.dir.exists() && std::fs::read_dir(&self.dir).is_ok_and(|mut e| e.next().is_some());
        let shown = self.dir.display();
        if replaced {
            std::fs::rename(&self.dir, &old)
                .with_context(|| format!("cannot move the earlier {shown} away"))?;
        }
        if let Err(e) = std::fs::rename(&staging, &self.dir) {
            if replaced {
                let _ = std::fs::rename(&old, &self.dir);
            }
            return Err(e).with_context(|| format!("cannot move the output into place at {shown}"));
        }
        cleanup::unregister(&staging);
        self.staging = None;
        self.created_parents.clear();
        if replaced {
            cleanup::remove_path(&old);
        }
        Ok(())
    }

    fn remove_created_parents(&self) {
        for p in &self.created_parents {
            let _ = std::fs::remove_dir(p);
        }
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if let Some(s) = self.staging.take() {
            cleanup::remove_path(&s);
            cleanup::unregister(&s);
        }
        let _ = std::fs::remove_file(&self.lock);
        cleanup::unregister(&self.lock);
        self.remove_created_parents();
    }
}

/// Checks `file` against the manifest of its directory: it must be listed there with the
/// size and CRC-32 it has now. `what` says what the file is for the errors ("a sweep
/// shard's results.json").
pub fn verify_file(file: &Path, bytes: &[u8], what: &str) -> Result<()> {
    let dir = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let marker = dir.join(MARKER);
    let shown = file.display();
    let text =
        super::read::read_text(&marker, super::read::Limit::OUTPUT_MANIFEST).map_err(|e| {
            anyhow!(
                "{shown}: no checksum to verify it by ({e:#}); {what} is verified by the {MARKER} \
             that jumpnet writes beside it: run it again"
            )
        })?;
    let manifest: Manifest = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a jumpnet output manifest", marker.display()))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(expected) = manifest.files.get(&name) else {
        bail!("{shown} is not listed in {}: not {what}", marker.display());
    };
    let found = FileSum::of(bytes);
    if found != *expected {
        bail!(
            "{shown} was changed after jumpnet wrote it ({} bytes, CRC-32 {:#010x}; {} lists \
             {} bytes, CRC-32 {:#010x}): {what} must be merged as written; run it again",
            found.bytes,
            found.crc32,
            marker.display(),
            expected.bytes,
            expected.crc32
        );
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "outdir_tests.rs"]
mod tests;
