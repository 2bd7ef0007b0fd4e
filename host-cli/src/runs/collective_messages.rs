//! `jumpnet sim --collective … --messages FILE`: every message of a collective run as CSV
//! (docs/smpi.md §4), with its route, so its timing can be studied or replayed by another
//! model (the max-min flow replay `tests/smpi/maxmin_replay.py` reads it).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use crate::analysis::step_contention::channels;
use crate::io::output::write_atomic;

use super::collective::CollectiveReport;

/// The CSV header: ranks, their terminals, size, the run's cycles, and the route as the
/// router hops `switch:port` separated by spaces (terminal channels implied).
/// `send_op` and `recv_op` index the ops of the sender's and receiver's programs that sent
/// and received it.
pub const HEADER: &str = "src_rank,dst_rank,src_terminal,dst_terminal,bytes,packets,hops,\
send_op,recv_op,sent,arrived,delivered,route";

/// Writes the messages of `report`, run on `net` with `routing`, to `path` atomically.
pub fn write_message_log(
    net: &Network<'_>,
    routing: &dyn Routing,
    report: &CollectiveReport,
    path: &Path,
) -> Result<()> {
    let mut text = String::from(HEADER);
    text.push('\n');
    let mut route = Vec::new();
    let terminal = |rank: u32| report.terminals.get(rank as usize).copied();
    for logged in &report.result.message_log {
        let m = &logged.rec;
        let (Some(s), Some(d)) = (terminal(m.src), terminal(m.dst)) else {
            anyhow::bail!("message {}→{} has a rank without a terminal", m.src, m.dst);
        };
        let hops = channels(net, routing, s, d, &mut route)?;
        let _ = write!(
            text,
            "{},{},{s},{d},{},{},{hops},{},{},{},{},{},",
            m.src,
            m.dst,
            m.bytes,
            m.packets,
            logged.send_op,
            logged.recv_op,
            m.sent,
            m.arrived,
            m.delivered
        );
        let inner = route.get(1..route.len().saturating_sub(1)).unwrap_or(&[]);
        for (i, (sw, port)) in inner.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(text, "{sep}{sw}:{port}");
        }
        text.push('\n');
    }
    write_atomic(path, text.as_bytes())
}
