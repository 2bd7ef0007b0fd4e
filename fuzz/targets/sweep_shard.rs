//! Sweep shards as `sweep merge` reads them: results.json, then the merge of the shard
//! with itself (refused as a duplicate) and alone (refused unless it is the only shard).

use jumpnet::sim::sweep::{self, SweepResult};

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = serde_json::from_str::<SweepResult>(text) {
        let _ = sweep::merge(vec![r.clone(), r.clone()]);
        let _ = sweep::merge(vec![r]);
    }
}
