//! One thread or several: the router partitions' fall-back to one partition while that is
//! faster (`super::partition`). Several partitions step in lockstep, handing over every
//! cycle, so any slowdown of either core holds both up; on a machine whose cores slow down
//! together when both are busy (hyperthreads of one core, a shared virtual machine) two
//! threads can take longer than one. Measured on this project's two-core machine: in windows
//! of a few minutes the Dragonfly with UGAL took 3.1–3.9 s on two threads against 2.9 s on
//! one in alternating runs, and 2.0 s on two outside them (docs/booksim.md §6).
//!
//! The [`Tuner`] times the router phase in windows of [`WINDOW`] cycles and now and then
//! tries the other way for one window (a probe): the first probe after [`FIRST_PROBE`]
//! windows, then whenever a window of several partitions takes [`SLOWDOWN`] times as long
//! per cycle as the one after the last probe, and at least every [`PROBE_EVERY`] windows; on
//! one partition it tries several again every [`RETRY_EVERY`] windows. It switches when the
//! other way was faster by [`MARGIN`]. Where the routers are cut changes no result
//! (`partition_tests`), so neither does the tuner.

use std::time::Duration;

/// Cycles of a measuring window.
pub(crate) const WINDOW: u32 = 64;
/// Windows of several partitions before the first probe of one (the balancing settles).
pub(crate) const FIRST_PROBE: u32 = 4;
/// Most windows of several partitions between two probes.
pub(crate) const PROBE_EVERY: u32 = 128;
/// Windows of one partition between two probes of several.
pub(crate) const RETRY_EVERY: u32 = 16;
/// A window of several partitions this many times as long per cycle as the reference
/// probes at once.
pub(crate) const SLOWDOWN: f64 = 1.25;
/// The other way must take at most this share of the time per cycle to be chosen.
pub(crate) const MARGIN: f64 = 0.9;

/// How the routers are to be stepped in the coming window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    /// In several partitions, as many as the run asked for.
    Parallel,
    /// In one partition, on the engine's thread.
    Single,
}

/// The tuner's state ([module documentation](self)).
#[derive(Clone, Debug)]
pub(crate) struct Tuner {
    /// The way the routers are stepped now.
    way: Way,
    /// This window is a probe of the other way (`way` is the probed one).
    probing: bool,
    /// Some probe has been made.
    probed: bool,
    /// Cycles and time of the current window.
    cycles: u32,
    time: Duration,
    /// Windows in the current way since the start or the last probe.
    windows: u32,
    /// Time per cycle (s) of the last window before the current probe, in the way probed
    /// from.
    before: f64,
    /// Time per cycle (s) of several partitions in the first window after the last probe
    /// (`None` until then).
    reference: Option<f64>,
}

impl Default for Tuner {
    fn default() -> Self {
        Tuner {
            way: Way::Parallel,
            probing: false,
            probed: false,
            cycles: 0,
            time: Duration::ZERO,
            windows: 0,
            before: 0.0,
            reference: None,
        }
    }
}

impl Tuner {
    /// The way to step the routers now (tests).
    #[cfg(test)]
    pub fn way(&self) -> Way {
        self.way
    }

    /// Counts a router phase that took `took`; returns the way for the next cycle when it
    /// changes.
    pub fn after(&mut self, took: Duration) -> Option<Way> {
        self.cycles += 1;
        self.time += took;
        if self.cycles < WINDOW {
            return None;
        }
        let per = self.time.as_secs_f64() / f64::from(self.cycles);
        self.cycles = 0;
        self.time = Duration::ZERO;
        let was = self.way;
        if self.probing {
            // Keep the probed way only if it was faster by the margin.
            self.probing = false;
            self.probed = true;
            self.windows = 0;
            self.reference = None;
            if per >= MARGIN * self.before {
                self.way = other(self.way);
            }
        } else {
            self.windows += 1;
            let probe = match self.way {
                Way::Parallel if !self.probed => self.windows >= FIRST_PROBE,
                Way::Parallel => match self.reference {
                    None => {
                        self.reference = Some(per);
                        false
                    }
                    Some(r) => per > SLOWDOWN * r || self.windows >= PROBE_EVERY,
                },
                Way::Single => self.windows >= RETRY_EVERY,
            };
            if probe {
                self.probing = true;
                self.before = per;
                self.way = other(self.way);
            }
        }
        (self.way != was).then_some(self.way)
    }
}

fn other(way: Way) -> Way {
    match way {
        Way::Parallel => Way::Single,
        Way::Single => Way::Parallel,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `cycles` cycles whose router phase takes `cost(way, cycle)` µs; returns the
    /// cycles from which the way changed, and the new way.
    fn run(cycles: u64, cost: impl Fn(Way, u64) -> f64) -> Vec<(u64, Way)> {
        let mut t = Tuner::default();
        let mut changes = Vec::new();
        for c in 0..cycles {
            let took = Duration::from_nanos((cost(t.way(), c) * 1000.0) as u64);
            if let Some(way) = t.after(took) {
                assert_eq!(way, t.way());
                changes.push((c + 1, way));
            }
        }
        changes
    }

    const W: u64 = WINDOW as u64;

    #[test]
    fn several_partitions_stay_when_faster_and_are_probed_rarely() {
        let changes = run(200 * W, |way, _| match way {
            Way::Parallel => 100.0,
            Way::Single => 160.0,
        });
        let first = u64::from(FIRST_PROBE) * W;
        let second = first + W + u64::from(PROBE_EVERY) * W;
        assert_eq!(
            changes,
            [
                (first, Way::Single),
                (first + W, Way::Parallel),
                (second, Way::Single),
                (second + W, Way::Parallel),
            ]
        );
    }

    #[test]
    fn one_partition_is_kept_when_faster_and_several_retried() {
        let changes = run(50 * W, |way, _| match way {
            Way::Parallel => 160.0,
            Way::Single => 100.0,
        });
        let first = u64::from(FIRST_PROBE) * W;
        let retry = first + W + u64::from(RETRY_EVERY) * W;
        assert_eq!(
            changes,
            [
                (first, Way::Single),
                (retry, Way::Parallel),
                (retry + W, Way::Single),
                (retry + W + u64::from(RETRY_EVERY) * W, Way::Parallel),
                (retry + 2 * W + u64::from(RETRY_EVERY) * W, Way::Single),
            ]
        );
    }

    #[test]
    fn a_slowdown_of_several_partitions_is_probed_at_once() {
        // Several partitions take 100 µs a cycle until cycle 2000, then 250 µs (a slow
        // window); one partition always 160 µs.
        let changes = run(52 * W, |way, c| match way {
            Way::Parallel if c < 2000 => 100.0,
            Way::Parallel => 250.0,
            Way::Single => 160.0,
        });
        let first = u64::from(FIRST_PROBE) * W;
        // The window 1984..2048 takes (16·100 + 48·250)/64 = 212.5 µs a cycle.
        assert_eq!(
            changes,
            [
                (first, Way::Single),
                (first + W, Way::Parallel),
                (2048, Way::Single),
                (2048 + W + u64::from(RETRY_EVERY) * W, Way::Parallel),
                (2048 + 2 * W + u64::from(RETRY_EVERY) * W, Way::Single),
            ]
        );
    }

    #[test]
    fn the_other_way_must_win_by_the_margin() {
        // One partition 5 % faster: not enough.
        let changes = run(10 * W, |way, _| match way {
            Way::Parallel => 100.0,
            Way::Single => 95.0,
        });
        let first = u64::from(FIRST_PROBE) * W;
        assert_eq!(changes, [(first, Way::Single), (first + W, Way::Parallel)]);
        // 11 % faster: chosen.
        let changes = run(10 * W, |way, _| match way {
            Way::Parallel => 100.0,
            Way::Single => 89.0,
        });
        assert_eq!(changes, [(first, Way::Single)]);
    }
}
