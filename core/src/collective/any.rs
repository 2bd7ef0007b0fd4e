//! [`AnySchedule`]: every collective algorithm behind one enum, so callers (the host CLI,
//! the simulator, the firmware) can hold "some schedule" without generics or allocation.

use super::schedule::delegate_schedule;
use super::{Binomial, Broadcast, Bruck, ListSchedule, RecursiveDoubling, RingAllgather};
use super::{RingAllreduce, ScatterAllgather};

/// Any collective schedule of [`crate::collective`].
#[derive(Clone, Copy, Debug)]
pub enum AnySchedule<'a> {
    /// Binomial broadcast (docs/collectives.md §1).
    Binomial(Binomial),
    /// Recursive-doubling allreduce (§2).
    RecursiveDoubling(RecursiveDoubling),
    /// Bruck alltoall (§3).
    Bruck(Bruck),
    /// Ring allgather (§4).
    RingAllgather(RingAllgather),
    /// Ring allreduce (§4).
    RingAllreduce(RingAllreduce),
    /// Scatter + allgather broadcast (§5).
    ScatterAllgather(ScatterAllgather),
    /// MPICH broadcast selection (§5).
    Broadcast(Broadcast),
    /// A message list (topology-aware algorithms, §6–§9).
    List(ListSchedule<'a>),
}

delegate_schedule!(AnySchedule<'_> {
    AnySchedule::Binomial,
    AnySchedule::RecursiveDoubling,
    AnySchedule::Bruck,
    AnySchedule::RingAllgather,
    AnySchedule::RingAllreduce,
    AnySchedule::ScatterAllgather,
    AnySchedule::Broadcast,
    AnySchedule::List,
});

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::collective::{Op, Schedule};
    extern crate std;
    use std::vec::Vec;

    #[test]
    fn delegates_every_method() {
        let b = Binomial::new(13, 4, 100).unwrap();
        let any = AnySchedule::Binomial(b);
        assert_eq!(any.ranks(), 13);
        assert_eq!(any.num_messages(), b.num_messages());
        assert_eq!(any.num_steps(), b.num_steps());
        let mut a = Vec::new();
        let mut c = Vec::new();
        any.for_each_message(|m| a.push(m));
        b.for_each_message(|m| c.push(m));
        assert_eq!(a, c);
        let mut o1 = [Op::Send {
            peer: 0,
            blocks: super::super::Blocks::All,
            after: super::super::Dep::None,
        }; 16];
        let mut o2 = o1;
        for r in 0..13 {
            let n1 = any.program(r, &mut o1).unwrap();
            let n2 = b.program(r, &mut o2).unwrap();
            assert_eq!(o1[..n1], o2[..n2]);
            assert_eq!(any.program_len(r), b.program_len(r));
        }
    }
}
