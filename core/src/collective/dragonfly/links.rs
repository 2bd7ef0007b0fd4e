//! Link usage of a schedule on a Dragonfly with minimal routing and one global link per
//! group pair ([DF-BC] §III-E; docs/collectives.md §6).
//!
//! A message crosses two terminal links (injection and ejection); between routers of one
//! group one local link; between groups one global link plus a local link on each side whose
//! router is not the end of that global link ([`GroupLinks::link`]).

use super::{GroupLinks, Placement};
use crate::collective::message::Rank;
use crate::collective::schedule::{check_rank, Schedule, ScheduleError};
use core::ops::AddAssign;

/// Numbers of link traversals, by link class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinkCounts {
    /// Global (inter-group) links.
    pub global: u64,
    /// Local (intra-group router-to-router) links.
    pub local: u64,
    /// Terminal links.
    pub terminal: u64,
}

impl AddAssign for LinkCounts {
    fn add_assign(&mut self, o: LinkCounts) {
        self.global += o.global;
        self.local += o.local;
        self.terminal += o.terminal;
    }
}

/// Links crossed by one message from the process at `src` to the one at `dst`.
pub fn message_links<L: GroupLinks>(links: &L, src: Placement, dst: Placement) -> LinkCounts {
    let (global, local) = if src.group == dst.group {
        (0, u64::from(src.router != dst.router))
    } else {
        let (r1, r2) = links.link(src.group, dst.group);
        (1, u64::from(src.router != r1) + u64::from(dst.router != r2))
    };
    LinkCounts {
        global,
        local,
        terminal: 2,
    }
}

/// Total links crossed by all messages of `schedule` for the job placement `job`.
pub fn count_links<S: Schedule, L: GroupLinks>(
    schedule: &S,
    job: &[Placement],
    links: &L,
) -> Result<LinkCounts, ScheduleError> {
    let mut total = LinkCounts::default();
    let mut err = Ok(());
    let place = |r: Rank| -> Result<Placement, ScheduleError> {
        check_rank(r as u64, job.len() as u64)?;
        Ok(job[r as usize])
    };
    schedule.for_each_message(|m| {
        if err.is_ok() {
            match (place(m.src), place(m.dst)) {
                (Ok(s), Ok(d)) => total += message_links(links, s, d),
                (Err(e), _) | (_, Err(e)) => err = Err(e),
            }
        }
    });
    err.map(|_| total)
}
