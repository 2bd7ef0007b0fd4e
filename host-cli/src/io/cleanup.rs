//! What an interrupted run leaves behind, removed: partial output directories and lock
//! files are registered here while they exist ([`register`], [`unregister`]); on SIGINT,
//! SIGTERM or SIGHUP the handler that the binary installs ([`install`]) removes every
//! registered path and ends the process with status 130. (A run killed with SIGKILL cannot
//! clean up; the next run that claims the same output directory removes what it left,
//! see [`super::outdir`].)

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};

/// Paths to remove when the process is interrupted (directories recursively).
static PATHS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The exit status of an interrupted run (128 + SIGINT, as shells report it).
pub const INTERRUPTED: i32 = 130;

fn paths() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PATHS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes `path` when the process is interrupted, until [`unregister`]ed.
pub fn register(path: &Path) {
    paths().push(path.to_path_buf());
}

/// Stops removing `path` on an interrupt (it was moved into place or removed).
pub fn unregister(path: &Path) {
    let mut p = paths();
    if let Some(i) = p.iter().rposition(|q| q == path) {
        p.remove(i);
    }
}

/// Whether `path` is removed on an interrupt (for tests).
pub fn is_registered(path: &Path) -> bool {
    paths().iter().any(|p| p == path)
}

/// The suffix of a directory that [`remove_path`] moved aside to remove it.
pub const REMOVING: &str = ".removing";

/// Removes `path`, a file or a directory tree; a path already gone is fine. A directory is
/// first renamed to `PATH.removing`, so a thread still writing files into `path` gets an
/// error instead of adding files while the tree is removed (without the rename a busy
/// writer can refill the directory between `remove_dir_all`'s listing and its `rmdir`);
/// a removal cut short leaves `PATH.removing`, which the next run's leftover sweep takes.
pub fn remove_path(path: &Path) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    if !meta.is_dir() {
        let _ = std::fs::remove_file(path);
        return;
    }
    let mut aside = path.as_os_str().to_owned();
    aside.push(REMOVING);
    let aside = PathBuf::from(aside);
    let target = if std::fs::rename(path, &aside).is_ok() {
        aside
    } else {
        path.to_path_buf()
    };
    for _ in 0..20 {
        match std::fs::remove_dir_all(&target) {
            Ok(()) => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    }
}

/// Installs the handler of SIGINT, SIGTERM and SIGHUP: remove what [`register`] lists,
/// then exit with [`INTERRUPTED`]. The handler runs on a thread of its own, not in signal
/// context, and holds the list while it exits, so no other thread moves a partial output
/// into place meanwhile.
pub fn install() -> Result<()> {
    ctrlc::set_handler(|| {
        let mut p = paths();
        for path in p.drain(..).rev() {
            remove_path(&path);
        }
        let _ = super::output::eprint_line("jumpnet: interrupted");
        std::process::exit(INTERRUPTED);
    })
    .context("cannot install the interrupt handler")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_registered_until_unregistered_and_removed_whole() {
        let dir = std::env::temp_dir().join(format!("jumpnet-cleanup-{}", std::process::id()));
        let (a, b) = (dir.join("a"), dir.join("b.txt"));
        std::fs::create_dir_all(a.join("deep")).unwrap();
        std::fs::write(a.join("deep/f"), "x").unwrap();
        std::fs::write(&b, "y").unwrap();
        register(&a);
        register(&b);
        unregister(&b);
        assert!(is_registered(&a) && !is_registered(&b));
        unregister(&a);
        assert!(!is_registered(&a));
        remove_path(&a);
        assert!(!a.exists() && b.exists());
        remove_path(&dir);
        remove_path(&dir);
        assert!(!dir.exists());
    }

    #[test]
    fn a_directory_is_removed_while_another_thread_keeps_writing_into_it() {
        let base = std::env::temp_dir().join(format!("jumpnet-busy-{}", std::process::id()));
        std::fs::create_dir_all(&base).unwrap();
        for round in 0..20 {
            let dir = base.join(format!("d{round}"));
            std::fs::create_dir(&dir).unwrap();
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let writer = {
                let (dir, stop) = (dir.clone(), stop.clone());
                std::thread::spawn(move || {
                    let mut written = 0u32;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        if std::fs::write(dir.join(format!("f{written}")), [0u8; 64]).is_ok() {
                            written += 1;
                        }
                    }
                    written
                })
            };
            while std::fs::read_dir(&dir).map_or(0, |e| e.count()) < 200 {
                std::thread::yield_now();
            }
            remove_path(&dir);
            let gone = !dir.exists();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            assert!(writer.join().unwrap() >= 200);
            assert!(gone, "round {round}: the directory survived its removal");
            let mut aside = dir.into_os_string();
            aside.push(REMOVING);
            assert!(!PathBuf::from(aside).exists());
        }
        std::fs::remove_dir_all(&base).unwrap();
    }
}
