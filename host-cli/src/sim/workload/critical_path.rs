//! The critical path of a collective run (docs/smpi.md §4): from the last rank to finish,
//! back through what each delivery waited on.
//!
//! A rank delivers a message at the later of two cycles: when the message became visible to
//! it (tail ejected, receive overhead paid) and when the rank's program
//! reached the receive. When the message was late, the path continues at its sender, with
//! the latest message the sender delivered no later than it sent. When the receiver was late
//! (busy with an earlier step, a reduction or its own sends), the message is not on the
//! path: the path continues at the receiver's previous delivery, the message it was still
//! waiting for — unless what held the receiver was its own blocking send (the receive was
//! delivered, or the rank finished, one cycle after that send's message arrived): then that
//! message is on the path and the path continues at the rank before it sent it.

use super::collective_result::{LoggedMessage, MessageRecord};

/// The chain of messages the last rank to finish waited on, in time order. `finish` holds
/// every rank's finish cycle, `deliveries` per rank its (delivery cycle, message index) in
/// delivery order, `msgs` the messages by index (when each became visible to its receiver).
pub fn critical_path(
    finish: &[u64],
    deliveries: &[Vec<(u64, u32)>],
    msgs: &[LoggedMessage],
) -> Vec<MessageRecord> {
    let Some(mut rank) = finish
        .iter()
        .enumerate()
        .max_by_key(|&(r, &f)| (f, std::cmp::Reverse(r)))
        .map(|(r, _)| r)
    else {
        return Vec::new();
    };
    // Per rank, its blocking messages: what can hold it besides a delivery.
    let mut own: Vec<Vec<&LoggedMessage>> = vec![Vec::new(); finish.len()];
    for m in msgs.iter().filter(|m| m.blocking) {
        if let Some(o) = own.get_mut(m.rec.src as usize) {
            o.push(m);
        }
    }
    let held_by = |rank: usize, cycle: u64| {
        own.get(rank)?
            .iter()
            .find(|m| m.rec.arrived + 1 == cycle)
            .copied()
    };
    let mut path = Vec::new();
    // Deliveries of `rank` at positions below `end` and cycles up to `limit` are candidates.
    let mut limit = u64::MAX;
    if let Some(m) = held_by(rank, finish[rank]) {
        path.push(m.rec);
        limit = m.rec.sent;
    }
    let mut end = deliveries.get(rank).map_or(0, Vec::len);
    while let Some(pos) = deliveries
        .get(rank)
        .and_then(|d| d[..end.min(d.len())].iter().rposition(|&(t, _)| t <= limit))
    {
        let Some(m) = msgs.get(deliveries[rank][pos].1 as usize) else {
            break;
        };
        if path.len() > msgs.len() {
            break;
        }
        if m.rec.delivered <= m.visible {
            // The message was late: the path continues at its sender.
            path.push(m.rec);
            rank = m.rec.src as usize;
            limit = m.rec.sent;
            end = deliveries.get(rank).map_or(0, Vec::len);
        } else if let Some(s) = held_by(rank, m.rec.delivered) {
            // The receiver waited for its own blocking send.
            path.push(s.rec);
            limit = s.rec.sent;
            end = pos;
        } else {
            // The receiver was late: what held it is its own previous delivery.
            end = pos;
        }
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use jumpnet_core::collective::Blocks;

    fn msg(src: u32, dst: u32, sent: u64, arrived: u64, delivered: u64) -> LoggedMessage {
        LoggedMessage {
            rec: MessageRecord {
                src,
                dst,
                blocks: Blocks::All,
                bytes: 8,
                packets: 1,
                sent,
                arrived,
                delivered,
            },
            send_op: 0,
            recv_op: 0,
            visible: arrived + 1,
            blocking: false,
        }
    }

    fn pairs(p: &[MessageRecord]) -> Vec<(u32, u32)> {
        p.iter().map(|m| (m.src, m.dst)).collect()
    }

    /// Three ranks: 0 → 1 arrives late at 1 (message-bound), 1 → 2 leaves after it.
    #[test]
    fn follows_late_messages_to_their_senders() {
        let msgs = [msg(0, 1, 0, 10, 11), msg(1, 2, 11, 20, 21)];
        let deliveries = vec![vec![], vec![(11, 0)], vec![(21, 1)]];
        let p = critical_path(&[0, 11, 21], &deliveries, &msgs);
        assert_eq!(pairs(&p), vec![(0, 1), (1, 2)]);
    }

    /// Rank 1 receives from 3 early (visible at 6) but delivers it at 31, after the
    /// message from 2 it was waiting for (visible and delivered at 30): the path goes
    /// through 2 → 1, and 3 → 1, which rank 1 did not wait for, is not on it.
    #[test]
    fn a_late_receiver_continues_at_its_own_previous_delivery() {
        let msgs = [
            msg(0, 2, 0, 28, 29),  // 0: rank 2 waits for it
            msg(2, 1, 29, 29, 30), // 1: arrives at 1 late
            msg(3, 1, 0, 5, 31),   // 2: early, delivered when rank 1 got to it
            msg(1, 0, 31, 40, 41), // 3: rank 1's answer, the last delivery
        ];
        let deliveries = vec![vec![(41, 3)], vec![(30, 1), (31, 2)], vec![(29, 0)], vec![]];
        let p = critical_path(&[41, 31, 29, 0], &deliveries, &msgs);
        assert_eq!(pairs(&p), vec![(0, 2), (2, 1), (1, 0)]);
    }

    /// Rank 1 gets 0 → 1 at 11 and sends 1 → 2 (blocking) at 11, which arrives at 30;
    /// 2 → 1 was visible at 8 but rank 1 delivers it at 31, when its send completed, and
    /// then sends 1 → 0. The path runs 0 → 1, 1 → 2 (the send rank 1 waited for), 1 → 0.
    /// Rank 0 finishes at 61, one cycle after its own blocking send 0 → 3 arrived: that
    /// message ends the path.
    #[test]
    fn a_blocking_send_that_held_its_rank_is_on_the_path() {
        let blocking = |m: LoggedMessage| LoggedMessage {
            blocking: true,
            ..m
        };
        let msgs = [
            msg(0, 1, 0, 10, 11),            // 0
            blocking(msg(1, 2, 11, 30, 31)), // 1: rank 1's own send
            msg(2, 1, 0, 7, 31),             // 2: visible at 8, delivered at 31
            msg(1, 0, 31, 40, 41),           // 3
            blocking(msg(0, 3, 41, 60, 61)), // 4: rank 0's last send
            msg(3, 0, 0, 1, 2),              // 5: early, not on the path
        ];
        let deliveries = vec![
            vec![(2, 5), (41, 3)],
            vec![(11, 0), (31, 2)],
            vec![(31, 1)],
            vec![(61, 4)],
        ];
        let p = critical_path(&[61, 31, 31, 61], &deliveries, &msgs);
        assert_eq!(pairs(&p), vec![(0, 1), (1, 2), (1, 0), (0, 3)]);
    }

    #[test]
    fn an_empty_run_has_no_path() {
        assert!(critical_path(&[], &[], &[]).is_empty());
        assert!(critical_path(&[0, 0], &[vec![], vec![]], &[]).is_empty());
    }
}
