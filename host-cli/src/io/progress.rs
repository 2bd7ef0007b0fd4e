//! Progress bars on stderr for long runs (hidden when stderr is not a terminal or when the
//! user asked for quiet output).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar over `total` units of work.
#[derive(Debug, Clone)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar labelled `label`; drawn only when `enabled` (and stderr is a terminal).
    pub fn new(label: &str, total: u64, enabled: bool) -> Self {
        let bar = if enabled {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} ({eta} left)")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.set_message(label.to_string());
        Progress { bar }
    }

    /// A spinner with the elapsed time, for work whose size is not known in advance (one
    /// long simulation); drawn only when `enabled` (and stderr is a terminal).
    pub fn spinner(label: &str, enabled: bool) -> Self {
        let bar = if enabled {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(label.to_string());
        if enabled {
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
        }
        Progress { bar }
    }

    /// Adds `n` finished units.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Sets the finished units.
    pub fn set(&self, n: u64) {
        self.bar.set_position(n);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
