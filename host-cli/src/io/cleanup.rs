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

/// Removes `path`, a file or a directory tree, retrying a directory that another thread
/// is still writing into; a path already gone is fine.
pub fn remove_path(path: &Path) {
    for _ in 0..20 {
        let removed = match std::fs::symlink_metadata(path) {
            Err(_) => return,
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
            Ok(_) => std::fs::remove_file(path),
        };
        if removed.is_ok() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
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
}
