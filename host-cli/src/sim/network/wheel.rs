//! The event wheel that carries flits and credits across channels with their latency
//! (docs/booksim.md §6: why it overflows instead of growing with the queues).

use std::collections::BTreeMap;

use super::Event;

/// Event wheel: slot `t mod len` holds the events of cycle `t`; slots keep their capacity,
/// so the steady state allocates nothing.
///
/// The wheel is as long as the longest channel needs (`len > near`); an event further ahead
/// (a flit or credit that waits in an output or credit queue behind an internal speedup)
/// waits in an ordered overflow map until its cycle comes within reach, and then joins its
/// slot before any event pushed later. Delivery order is push order in either case. A wheel
/// long enough for the longest queue would hold one vector per cycle of that queue, each
/// with the capacity of the busiest cycle: with BookSim2's Dragonfly example (256-flit VCs,
/// internal speedup 2) that was 2,048 slots and about 25 MB.
#[derive(Debug)]
pub struct Wheel {
    slots: Vec<Vec<Event>>,
    mask: u64,
    /// Events beyond the wheel's reach, by cycle, in push order.
    far: BTreeMap<u64, Vec<Event>>,
    /// Events pending.
    pub pending: u64,
    /// The cycle last taken.
    taken: u64,
}

/// A wheel of no slots, which takes no event (it stands in for a wheel lent out, `push`
/// would panic); allocates nothing.
impl Default for Wheel {
    fn default() -> Self {
        Wheel {
            slots: Vec::new(),
            mask: 0,
            far: BTreeMap::new(),
            pending: 0,
            taken: 0,
        }
    }
}

impl Wheel {
    /// A wheel whose slots reach `near` cycles ahead (further events overflow).
    pub fn new(near: u64) -> Self {
        let len = (near + 2).next_power_of_two();
        Wheel {
            slots: (0..len).map(|_| Vec::new()).collect(),
            mask: len - 1,
            far: BTreeMap::new(),
            pending: 0,
            taken: 0,
        }
    }

    /// Schedules `ev` at cycle `at` (not before the cycle last taken).
    #[inline]
    pub fn push(&mut self, at: u64, ev: Event) {
        debug_assert!(
            at >= self.taken,
            "event at cycle {at} before {}",
            self.taken
        );
        if at - self.taken > self.mask {
            self.push_far(at, ev);
        } else {
            self.slots[(at & self.mask) as usize].push(ev);
        }
        self.pending += 1;
    }

    /// [`Wheel::push`] beyond the wheel's reach. Out of line: with the ordered map's insertion
    /// in it, `push` saved and restored six registers and a stack frame on every call (about
    /// 35 instructions for a slot's push), and was not inlined into traversal.
    #[cold]
    #[inline(never)]
    fn push_far(&mut self, at: u64, ev: Event) {
        self.far.entry(at).or_default().push(ev);
    }

    /// Takes the events of cycle `now` (give the vector back with [`Wheel::give_back`]),
    /// and moves the overflow events that came within reach into their slots.
    #[inline]
    pub fn take(&mut self, now: u64) -> Vec<Event> {
        self.taken = now;
        let v = std::mem::take(&mut self.slots[(now & self.mask) as usize]);
        self.pending -= v.len() as u64;
        if !self.far.is_empty() {
            self.bring_near(now);
        }
        v
    }

    /// Moves the overflow events of cycles up to `now + mask` into their slots (the slot of
    /// `now` itself is taken: its next cycle, `now + len`, is still out of reach).
    fn bring_near(&mut self, now: u64) {
        while let Some(entry) = self.far.first_entry() {
            let at = *entry.key();
            if at > now + self.mask {
                break;
            }
            let evs = entry.remove();
            // Overflow events were pushed before anything reached this slot directly.
            self.slots[(at & self.mask) as usize].splice(0..0, evs);
        }
    }

    /// Drops every pending event, keeping the slots' capacity (engine reuse).
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            s.clear();
        }
        self.far.clear();
        self.pending = 0;
        self.taken = 0;
    }

    /// Returns a slot's vector (cleared, capacity kept).
    #[inline]
    pub fn give_back(&mut self, now: u64, mut v: Vec<Event>) {
        v.clear();
        let slot = &mut self.slots[(now & self.mask) as usize];
        if slot.is_empty() {
            std::mem::swap(slot, &mut v);
            slot.append(&mut v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credit(vc: u8) -> Event {
        Event::TermCredit { term: 0, vc }
    }

    fn vcs(evs: &[Event]) -> Vec<u8> {
        evs.iter()
            .map(|e| match *e {
                Event::TermCredit { vc, .. } => vc,
                _ => u8::MAX,
            })
            .collect()
    }

    /// Runs the wheel cycle by cycle, pushing `pushes[c]` (delay, tag) after taking cycle
    /// `c`, and returns per cycle the tags delivered.
    fn run(near: u64, pushes: &[Vec<(u64, u8)>], cycles: u64) -> Vec<Vec<u8>> {
        let mut w = Wheel::new(near);
        let mut out = Vec::new();
        for now in 0..cycles {
            let v = w.take(now);
            out.push(vcs(&v));
            w.give_back(now, v);
            for &(d, tag) in pushes.get(now as usize).into_iter().flatten() {
                w.push(now + d, credit(tag));
            }
        }
        assert_eq!(w.pending, 0);
        out
    }

    #[test]
    fn far_events_arrive_on_time_and_before_later_pushes_for_the_same_cycle() {
        // Wheel of 4 slots (reach 3): tag 1 is pushed 10 ahead at cycle 0, tag 2 for the
        // same cycle 10 from cycle 8 (within reach), tag 3 100 ahead, tag 4 right after it
        // for the same cycle from cycle 97.
        let mut pushes = vec![Vec::new(); 110];
        pushes[0] = vec![(10, 1), (100, 3), (2, 5)];
        pushes[8] = vec![(2, 2)];
        pushes[97] = vec![(3, 4)];
        let out = run(2, &pushes, 110);
        assert_eq!(out[2], vec![5]);
        assert_eq!(out[10], vec![1, 2]);
        assert_eq!(out[100], vec![3, 4]);
        let others: usize = out.iter().map(Vec::len).sum();
        assert_eq!(others, 5);
    }

    #[test]
    fn a_long_wheel_and_a_short_one_deliver_the_same_sequence() {
        // Pseudo-random delays 1..=40 on a wheel of reach 40 and one of reach 3.
        let mut x = 12345u64;
        let mut pushes = vec![Vec::new(); 200];
        for (c, p) in pushes.iter_mut().enumerate().take(150) {
            for j in 0..3 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p.push((1 + (x >> 33) % 40, (c * 3 + j) as u8));
            }
        }
        assert_eq!(run(40, &pushes, 200), run(3, &pushes, 200));
    }

    #[test]
    fn clear_drops_far_events() {
        let mut w = Wheel::new(2);
        w.push(50, credit(1));
        w.clear();
        assert_eq!(w.pending, 0);
        for now in 0..60 {
            let v = w.take(now);
            assert!(v.is_empty());
            w.give_back(now, v);
        }
    }
}
