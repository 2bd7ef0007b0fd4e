//! Stages with headers, durations and a fail-fast summary.

use std::time::{Duration, Instant};

use crate::process::Result;

/// A sequence of named stages that stops at the first failure.
#[derive(Debug, Default)]
pub struct Pipeline {
    done: Vec<(String, Duration)>,
    started: Option<Instant>,
}

impl Pipeline {
    /// An empty pipeline; its clock starts with the first stage.
    pub fn new() -> Self {
        Pipeline::default()
    }

    /// Runs one stage: prints a header, runs `body`, prints its duration. On failure prints
    /// the summary so far and returns an error naming the stage.
    pub fn stage(&mut self, name: &str, body: impl FnOnce() -> Result) -> Result {
        self.started.get_or_insert_with(Instant::now);
        println!("\n==> stage `{name}`");
        let start = Instant::now();
        let outcome = body();
        let elapsed = start.elapsed();
        match outcome {
            Ok(()) => {
                println!("<== stage `{name}` ok in {:.1} s", elapsed.as_secs_f64());
                self.done.push((name.to_string(), elapsed));
                Ok(())
            }
            Err(e) => {
                println!(
                    "<== stage `{name}` FAILED after {:.1} s",
                    elapsed.as_secs_f64()
                );
                self.summary(Some(name));
                Err(format!("stage `{name}` failed: {e}"))
            }
        }
    }

    /// Prints every finished stage with its duration, the failed one if any, and the total.
    pub fn summary(&self, failed: Option<&str>) {
        println!("\nstage durations:");
        for (name, d) in &self.done {
            println!("  {name:<22} {:>7.1} s  ok", d.as_secs_f64());
        }
        if let Some(name) = failed {
            println!("  {name:<22} {:>9}  FAILED", "");
        }
        let total = self.started.map(|s| s.elapsed()).unwrap_or_default();
        println!("  {:<22} {:>7.1} s", "total", total.as_secs_f64());
    }
}

/// Runs a single-stage command (`setup`, `firmware`, `bench`) with header and duration.
pub fn run_one(name: &str, body: impl FnOnce() -> Result) -> Result {
    let mut p = Pipeline::new();
    p.stage(name, body)?;
    p.summary(None);
    Ok(())
}
