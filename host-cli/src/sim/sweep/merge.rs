//! Merging shard results (`jumpnet sweep merge`) into the result of the whole sweep.

use anyhow::{anyhow, bail, Result};

use super::output::SweepResult;
use super::record::cut_at_saturation;

/// Merges shard results into the result of the whole sweep: every part must come from the
/// same sweep (topology, routing, base, axes, saturation rule) and the shards `0..N` must
/// each appear exactly once.
pub fn merge(parts: Vec<SweepResult>) -> Result<SweepResult> {
    let Some(first) = parts.first() else {
        bail!(
            "nothing to merge: give the output directories (or results.json files) of every shard"
        );
    };
    let count = match first.shard {
        Some(s) => s.count,
        None => bail!("part 1 is a whole sweep, not a shard (it has no --shard)"),
    };
    // Shards given, by index (a set: `count` comes from the file and may be anything).
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in parts.iter().enumerate() {
        let what = |f: &str| {
            anyhow!(
                "part {} differs from part 1 in {f}: not the same sweep",
                i + 1
            )
        };
        if p.topology != first.topology {
            return Err(what("topology"));
        }
        if p.routing != first.routing {
            return Err(what("routing"));
        }
        if p.base != first.base {
            return Err(what("base configuration"));
        }
        if p.axes != first.axes || p.points != first.points {
            return Err(what("swept keys or values"));
        }
        if p.stop_at_saturation != first.stop_at_saturation {
            return Err(what("stop at saturation"));
        }
        let s = p
            .shard
            .ok_or_else(|| anyhow!("part {} is a whole sweep, not a shard", i + 1))?;
        if s.count != count {
            bail!(
                "part {} is shard {}/{} but part 1 is of {count} shards",
                i + 1,
                s.index,
                s.count
            );
        }
        if s.index >= count {
            bail!(
                "part {} says it is shard {}/{count}, which is not a shard i/N with 0 <= i < N",
                i + 1,
                s.index
            );
        }
        if !seen.insert(s.index) {
            bail!("shard {}/{count} is given twice", s.index);
        }
    }
    if seen.len() < count as usize {
        // At most ten named: `count` may be huge.
        let mut missing: Vec<String> = (0..count)
            .filter(|i| !seen.contains(i))
            .take(10)
            .map(|i| format!("{i}/{count}"))
            .collect();
        if count as usize - seen.len() > missing.len() {
            missing.push(format!("… ({} in all)", count as usize - seen.len()));
        }
        bail!("shards missing: {}", missing.join(", "));
    }
    let mut merged = SweepResult {
        shard: None,
        records: Vec::new(),
        ..first.clone()
    };
    for p in parts {
        merged.records.extend(p.records);
    }
    if merged.stop_at_saturation {
        cut_at_saturation(&mut merged.records);
    } else {
        merged.records.sort_by_key(|r| r.point);
    }
    Ok(merged)
}
