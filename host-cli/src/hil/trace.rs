//! Golden traces of hardware-in-the-loop runs: every action of the chosen ranks (sends,
//! deliveries, permutations and the cycle each rank is done), the recorder that collects
//! them during a run and stops it at the first divergence from an expected trace, and the
//! trace file.
//!
//! # File format (JSON lines)
//!
//! The first line is the header
//! `{"jumpnet_hil_trace":2,"jumpnet":"0.1.0","run":{...}}`: the format version
//! ([`TRACE_VERSION`]), the jumpnet version that wrote it, and the run the trace belongs to
//! ([`RunKey`]: topology, routing and its options, every simulator key, the collective and
//! its options, placement, message size, nodes and ranks, the timing contract) — enough to
//! replay the run from the file alone. A header of another version, with a field missing or
//! with a field this version does not know is refused, naming the field. Every further line
//! is one event in the order the simulator performed them, e.g.
//! `{"cycle":12,"rank":3,"kind":"send","op":2,"peer":7,"blocks":"All"}`;
//! `kind` is `send`, `deliver` (with `reduce`), `permute` (with `reflect`, `shift`) or
//! `done`.

use std::collections::VecDeque;
use std::path::Path;

use anyhow::{bail, Context, Result};
use jumpnet_core::collective::{Blocks, Rank};
use jumpnet_core::exec::Action;
use serde::{Deserialize, Serialize};

pub use super::run_key::RunKey;
use crate::sim::workload::nic_engine::ActionObserver;

/// Version of the trace file format (2: the header holds everything to replay the run).
pub const TRACE_VERSION: u32 = 2;

/// Events kept before a divergence for its report.
pub const CONTEXT_EVENTS: usize = 6;

/// One event of a trace: what a traced rank's executor did — one of core's [`Action`]s
/// other than `Wait`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "EventLine")]
pub struct TraceEvent {
    /// Cycle.
    pub cycle: u64,
    /// Rank.
    pub rank: Rank,
    /// What happened (never [`Action::Wait`]).
    pub action: Action,
}

impl TraceEvent {
    /// The event of `action` (`None` for `Wait`).
    pub fn of(cycle: u64, rank: Rank, action: &Action) -> Option<Self> {
        (*action != Action::Wait).then_some(TraceEvent {
            cycle,
            rank,
            action: *action,
        })
    }
}

/// A [`TraceEvent`] as one line of the trace file: `cycle`, `rank`, the action's `kind`
/// (`send`, `deliver`, `permute`, `done`) and its fields; fields the kind does not have are
/// left out.
#[derive(Serialize, Deserialize)]
struct EventLine {
    cycle: u64,
    rank: Rank,
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    op: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    peer: Option<Rank>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blocks: Option<Blocks>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reduce: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reflect: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shift: Option<u32>,
}

/// The `kind` of every action a trace holds, in [`Action`] order.
const KINDS: &[&str] = &["send", "deliver", "permute", "done"];

impl From<TraceEvent> for EventLine {
    fn from(e: TraceEvent) -> Self {
        let mut line = EventLine {
            cycle: e.cycle,
            rank: e.rank,
            kind: String::new(),
            op: None,
            peer: None,
            blocks: None,
            reduce: None,
            reflect: None,
            shift: None,
        };
        line.kind = match e.action {
            Action::Send { op, peer, blocks } => {
                (line.op, line.peer, line.blocks) = (Some(op), Some(peer), Some(blocks));
                "send"
            }
            Action::Deliver {
                op,
                peer,
                blocks,
                reduce,
            } => {
                (line.op, line.peer, line.blocks) = (Some(op), Some(peer), Some(blocks));
                line.reduce = Some(reduce);
                "deliver"
            }
            Action::Permute { op, reflect, shift } => {
                (line.op, line.reflect, line.shift) = (Some(op), Some(reflect), Some(shift));
                "permute"
            }
            Action::Done => "done",
            // Not an event; written so that reading it back fails.
            Action::Wait => "wait",
        }
        .to_string();
        line
    }
}

impl TryFrom<EventLine> for TraceEvent {
    type Error = serde::de::value::Error;

    fn try_from(l: EventLine) -> Result<Self, Self::Error> {
        use serde::de::Error;
        fn field<T>(v: Option<T>, name: &'static str) -> Result<T, serde::de::value::Error> {
            v.ok_or_else(|| Error::missing_field(name))
        }
        let action = match l.kind.as_str() {
            "send" => Action::Send {
                op: field(l.op, "op")?,
                peer: field(l.peer, "peer")?,
                blocks: field(l.blocks, "blocks")?,
            },
            "deliver" => Action::Deliver {
                op: field(l.op, "op")?,
                peer: field(l.peer, "peer")?,
                blocks: field(l.blocks, "blocks")?,
                reduce: field(l.reduce, "reduce")?,
            },
            "permute" => Action::Permute {
                op: field(l.op, "op")?,
                reflect: field(l.reflect, "reflect")?,
                shift: field(l.shift, "shift")?,
            },
            "done" => Action::Done,
            other => return Err(Error::unknown_variant(other, KINDS)),
        };
        Ok(TraceEvent {
            cycle: l.cycle,
            rank: l.rank,
            action,
        })
    }
}

impl<'de> Deserialize<'de> for TraceEvent {
    /// Reads one trace line (module documentation); a kind it does not know or a field its
    /// kind needs and the line lacks is an error of the line's map, where a JSON reader
    /// reports its position.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Line;
        impl<'de> serde::de::Visitor<'de> for Line {
            type Value = TraceEvent;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a trace event")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<TraceEvent, A::Error> {
                let line =
                    EventLine::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                TraceEvent::try_from(line).map_err(serde::de::Error::custom)
            }
        }
        deserializer.deserialize_map(Line)
    }
}

impl std::fmt::Display for TraceEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cycle {} rank {}: ", self.cycle, self.rank)?;
        match self.action {
            Action::Send { op, peer, blocks } => {
                write!(f, "op {op} send {blocks:?} to rank {peer}")
            }
            Action::Deliver {
                op,
                peer,
                blocks,
                reduce,
            } => write!(
                f,
                "op {op} {} {blocks:?} from rank {peer}",
                if reduce { "reduce" } else { "deliver" }
            ),
            Action::Permute { op, reflect, shift } => {
                write!(f, "op {op} permute (reflect {reflect}, shift {shift})")
            }
            Action::Done => write!(f, "done"),
            Action::Wait => write!(f, "wait"),
        }
    }
}

/// Where a run first differs from the expected trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    /// Index of the first differing event.
    pub index: usize,
    /// The expected event (`None`: the run produced more events).
    pub expected: Option<TraceEvent>,
    /// The event of the run (`None`: the run ended or stopped without it).
    pub got: Option<TraceEvent>,
    /// The events before it (equal in both).
    pub context: Vec<TraceEvent>,
    /// The expected events after the expected one (at most [`CONTEXT_EVENTS`]).
    pub expected_after: Vec<TraceEvent>,
    /// The run's events after its diverging one (at most [`CONTEXT_EVENTS`]; the run stops
    /// then).
    pub got_after: Vec<TraceEvent>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |e: &Option<TraceEvent>| match e {
            Some(e) => e.to_string(),
            None => "(no event)".into(),
        };
        writeln!(f, "divergence at event {}:", self.index)?;
        writeln!(f, "  expected: {}", show(&self.expected))?;
        writeln!(f, "  got:      {}", show(&self.got))?;
        write!(f, "  last {} equal events:", self.context.len())?;
        for e in &self.context {
            write!(f, "\n    {e}")?;
        }
        Ok(())
    }
}

impl Divergence {
    /// The expected and the actual events around the divergence as `diff -u` shows two
    /// files: `---`/`+++` lines naming `expected` and `actual`, one hunk with the equal
    /// events before it (` `), then the expected (`-`) and actual (`+`) events from the
    /// divergence on, aligned where they agree again (longest common subsequence).
    pub fn unified_diff(&self, expected: &str, actual: &str) -> String {
        let exp: Vec<TraceEvent> = self
            .expected
            .iter()
            .chain(&self.expected_after)
            .copied()
            .collect();
        let got: Vec<TraceEvent> = self.got.iter().chain(&self.got_after).copied().collect();
        let first = self.index - self.context.len();
        let mut out = format!(
            "--- {expected}\n+++ {actual}\n@@ -{},{} +{},{} @@ events from {first}, first divergence at event {}\n",
            first + 1,
            self.context.len() + exp.len(),
            first + 1,
            self.context.len() + got.len(),
            self.index
        );
        for e in &self.context {
            out.push_str(&format!(" {e}\n"));
        }
        for (tag, e) in diff_lines(&exp, &got) {
            out.push_str(&format!("{tag}{e}\n"));
        }
        if self.expected.is_none() {
            out.push_str("\\ the expected trace ends here\n");
        }
        if self.got.is_none() {
            out.push_str("\\ the run produced no further event\n");
        }
        out
    }
}

/// `a` → `b` as diff lines (`' '` both, `'-'` only in `a`, `'+'` only in `b`) along a longest
/// common subsequence; removals before additions within a change, as `diff -u` prints them.
fn diff_lines(a: &[TraceEvent], b: &[TraceEvent]) -> Vec<(char, TraceEvent)> {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: common subsequence length of a[i..] and b[j..].
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    let (mut minus, mut plus) = (Vec::new(), Vec::new());
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.append(&mut minus);
            out.append(&mut plus);
            out.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            minus.push(('-', a[i]));
            i += 1;
        } else {
            plus.push(('+', b[j]));
            j += 1;
        }
    }
    out.append(&mut minus);
    out.append(&mut plus);
    out
}

/// Collects the events of the traced ranks and, given an expected trace, stops the run
/// [`CONTEXT_EVENTS`] events after the first event that differs.
#[derive(Debug)]
pub struct Recorder<'x> {
    traced: Vec<bool>,
    /// Events so far (up to the first divergence).
    pub events: Vec<TraceEvent>,
    recent: VecDeque<TraceEvent>,
    expected: Option<&'x [TraceEvent]>,
    /// The first divergence, once seen.
    pub divergence: Option<Divergence>,
}

impl<'x> Recorder<'x> {
    /// Records the events of `ranks`, compared with `expected` when given.
    pub fn new(ranks: &[Rank], expected: Option<&'x [TraceEvent]>) -> Self {
        let len = ranks.iter().map(|&r| r as usize + 1).max().unwrap_or(0);
        let mut traced = vec![false; len];
        for &r in ranks {
            traced[r as usize] = true;
        }
        Recorder {
            traced,
            events: Vec::new(),
            recent: VecDeque::new(),
            expected,
            divergence: None,
        }
    }

    fn diverge(&mut self, got: Option<TraceEvent>) {
        let index = self.events.len();
        let expected_after = self
            .expected
            .and_then(|x| x.get(index + 1..))
            .unwrap_or_default()
            .iter()
            .take(CONTEXT_EVENTS)
            .copied()
            .collect();
        self.divergence = Some(Divergence {
            index,
            expected: self.expected.and_then(|x| x.get(index).copied()),
            got,
            context: self.recent.iter().copied().collect(),
            expected_after,
            got_after: Vec::new(),
        });
    }

    /// After the run (or its failure): a divergence when the expected trace has events the
    /// run did not produce. Returns the divergence, if any.
    pub fn finish(&mut self) -> Option<&Divergence> {
        if self.divergence.is_none() {
            if let Some(x) = self.expected {
                if x.len() > self.events.len() {
                    self.diverge(None);
                }
            }
        }
        self.divergence.as_ref()
    }
}

impl ActionObserver for Recorder<'_> {
    fn action(&mut self, now: u64, rank: Rank, action: &Action) -> Result<(), String> {
        if !self.traced.get(rank as usize).copied().unwrap_or(false) {
            return Ok(());
        }
        let Some(event) = TraceEvent::of(now, rank, action) else {
            return Ok(());
        };
        if let Some(d) = self.divergence.as_mut() {
            // After the divergence: the events the diff shows, then stop.
            d.got_after.push(event);
            if d.got_after.len() >= CONTEXT_EVENTS {
                return Err(format!(
                    "the trace diverges at event {} ({})",
                    d.index,
                    d.got.map_or_else(|| "no event".into(), |e| e.to_string())
                ));
            }
            return Ok(());
        }
        if let Some(x) = self.expected {
            if x.get(self.events.len()) != Some(&event) {
                self.diverge(Some(event));
                return Ok(());
            }
        }
        self.events.push(event);
        if self.recent.len() == CONTEXT_EVENTS {
            self.recent.pop_front();
        }
        self.recent.push_back(event);
        Ok(())
    }
}

/// The first line of a trace file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    jumpnet_hil_trace: u32,
    jumpnet: String,
    run: RunKey,
}

/// The jumpnet version written into trace headers.
pub const JUMPNET_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A trace file: the run it belongs to, the jumpnet version that wrote it, its events.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The run (the header).
    pub run: RunKey,
    /// The jumpnet version that wrote the trace.
    pub jumpnet: String,
    /// The events.
    pub events: Vec<TraceEvent>,
}

/// The text of a trace file of `events` of `run`.
pub fn to_text(run: &RunKey, events: &[TraceEvent]) -> Result<String> {
    let mut text = serde_json::to_string(&Header {
        jumpnet_hil_trace: TRACE_VERSION,
        jumpnet: JUMPNET_VERSION.to_string(),
        run: run.clone(),
    })?;
    text.push('\n');
    for e in events {
        text.push_str(&serde_json::to_string(e)?);
        text.push('\n');
    }
    Ok(text)
}

/// Writes `events` of `run` as a trace file (atomically: a temporary file renamed).
pub fn write(path: &Path, run: &RunKey, events: &[TraceEvent]) -> Result<()> {
    crate::io::output::write_atomic(path, to_text(run, events)?.as_bytes())
}

/// Reads the header line `first` of trace file `path`: the format version first (a
/// missing or other version is refused naming `jumpnet_hil_trace`), then every field.
fn read_header(path: &Path, first: &str) -> Result<Header> {
    let p = path.display();
    let value: serde_json::Value = serde_json::from_str(first).with_context(|| {
        format!("{p}: line 1 is not a jumpnet HIL trace header (a JSON object {{\"jumpnet_hil_trace\":{TRACE_VERSION},\"jumpnet\":...,\"run\":...}})")
    })?;
    let Some(version) = value.get("jumpnet_hil_trace") else {
        bail!(
            "{p}: line 1 is not a jumpnet HIL trace header: header field `jumpnet_hil_trace` \
             (the format version, {TRACE_VERSION}) is missing"
        );
    };
    if version.as_u64() != Some(u64::from(TRACE_VERSION)) {
        bail!(
            "{p}: header field `jumpnet_hil_trace`: trace format version {version} is not \
             supported (this jumpnet reads version {TRACE_VERSION}, whose header holds \
             everything to replay the run); record the trace again with this jumpnet"
        );
    }
    let header: Header = serde_json::from_value(value)
        .map_err(|e| anyhow::anyhow!("{p}: trace header (line 1): {e}"))?;
    Ok(header)
}

/// Reads a trace file (at most `Limit::TRACE` bytes). Refuses, naming the field: another
/// format version, a header field missing or unknown, an event line that is not an event.
pub fn read(path: &Path) -> Result<Trace> {
    let text = crate::io::read::read_text(path, crate::io::read::Limit::TRACE)?;
    parse(path, &text)
}

/// Parses the text of a trace file read from `path` (named in errors), as [`read`] does.
pub fn parse(path: &Path, text: &str) -> Result<Trace> {
    let mut lines = text.lines();
    let first = lines
        .next()
        .with_context(|| format!("trace file {} is empty", path.display()))?;
    let header = read_header(path, first)?;
    let mut events = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        events.push(
            serde_json::from_str(line).with_context(|| {
                format!("{}: line {} is not a trace event", path.display(), i + 2)
            })?,
        );
    }
    Ok(Trace {
        run: header.run,
        jumpnet: header.jumpnet,
        events,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "trace_tests.rs"]
mod tests;
