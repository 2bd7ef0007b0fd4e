//! Running a sweep's points on worker threads that share a work [`Queue`].

use std::collections::BTreeMap;
use std::sync::Mutex;

use anyhow::{anyhow, Result};

use super::plan::{Plan, Point, Shard};
use super::record::{cut_at_saturation, Record, SweepRecord};
use crate::io::progress::Progress;

/// The work queue of a running sweep, shared by its worker threads: [`Queue::next`] hands
/// out points in (x, series) order and skips the points of a series past a point that
/// already stopped it; [`Queue::done`] takes a finished record.
#[derive(Debug)]
pub struct Queue<'a, R = Record> {
    order: Vec<&'a Point>,
    stop: bool,
    progress: &'a Progress,
    state: Mutex<QueueState<R>>,
}

#[derive(Debug)]
struct QueueState<R> {
    next: usize,
    /// Per series, the smallest x index that stopped it.
    stopped: BTreeMap<u32, u32>,
    records: Vec<R>,
    failed: bool,
}

impl<R> Default for QueueState<R> {
    fn default() -> Self {
        QueueState {
            next: 0,
            stopped: BTreeMap::new(),
            records: Vec::new(),
            failed: false,
        }
    }
}

impl<'a, R: SweepRecord> Queue<'a, R> {
    /// The next point to run, `None` when there is none left (or a worker failed).
    pub fn next(&self) -> Option<&'a Point> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.failed {
            return None;
        }
        while let Some(&p) = self.order.get(st.next) {
            st.next += 1;
            let past_stop = st.stopped.get(&p.series).is_some_and(|&x| p.x_index > x);
            if !past_stop {
                return Some(p);
            }
            self.progress.inc(1);
        }
        None
    }

    /// Records the result of `point`.
    pub fn done(&self, point: &Point, record: R) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if self.stop && record.stops() {
            let x = st.stopped.entry(point.series).or_insert(point.x_index);
            *x = (*x).min(point.x_index);
        }
        st.records.push(record);
        self.progress.inc(1);
    }

    fn fail(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).failed = true;
    }
}

/// Runs the points of `shard` on `threads` threads (at least 1). Each thread calls `worker`
/// once with the shared [`Queue`]; a worker sets up what it needs (network, routing) once,
/// then runs `queue.next()` points until there are none and hands each record to
/// `queue.done`. Returns the records sorted by point, cut at saturation when `stop` is set
/// (see the module documentation); the result does not depend on `threads`. The first
/// error of any worker is returned. `progress` advances by one per point (run or skipped).
pub fn run<R, W>(
    plan: &Plan,
    shard: Option<Shard>,
    stop: bool,
    threads: usize,
    progress: &Progress,
    worker: W,
) -> Result<Vec<R>>
where
    R: SweepRecord,
    W: Fn(&Queue<'_, R>) -> Result<()> + Sync,
{
    let mut order = plan.select(shard);
    order.sort_by_key(|p| (p.x_index, p.series));
    let queue = Queue {
        order,
        stop,
        progress,
        state: Mutex::new(QueueState::default()),
    };
    let threads = crate::budget::threads_for(threads.max(1), queue.order.len());
    let results: Vec<Result<()>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let r = worker(&queue);
                    if r.is_err() {
                        queue.fail();
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow!("a sweep worker thread panicked")))
            })
            .collect()
    });
    for r in results {
        r?;
    }
    let mut records = queue
        .state
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .records;
    if stop {
        cut_at_saturation(&mut records);
    } else {
        records.sort_by_key(|r| r.point());
    }
    Ok(records)
}
