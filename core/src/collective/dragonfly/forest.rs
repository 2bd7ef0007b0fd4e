//! FOREST — LLF with parallel binomial trees across groups ([DF-BC] §III-D;
//! docs/collectives.md §6).
//!
//! Step 1 as LLF. Step 2: the remote groups (ascending id) are dealt round-robin to the
//! `k` root-group holders (in rank order); holder `h_i` runs a binomial tree over `[h_i] +`
//! the receivers of its groups (receivers as in LLF, sorted by rank). Steps 3–4 as LLF.

use super::{Ctx, GroupLinks, RankLists};
use crate::collective::list::{binomial_over, ListBuilder};
use crate::collective::schedule::ScheduleError;

pub(crate) fn build<L: GroupLinks>(
    ctx: &Ctx<'_>,
    links: &L,
    b: &mut ListBuilder<'_, '_>,
    lists: &mut RankLists<'_>,
) -> Result<(), ScheduleError> {
    let RankLists {
        list,
        holders,
        receivers,
    } = lists;
    let home = ctx.root_place().group;
    let k = ctx.root_group_phase(b, list, holders)?;
    let mut remote = 0usize;
    for (g, group) in ctx.groups() {
        if g != home {
            receivers[remote] = ctx.receiver(group, links.link(home, g).1);
            remote += 1;
        }
    }
    for (hi, &h) in holders[..k].iter().enumerate() {
        list[0] = h;
        let mut len = 1;
        for &r in receivers[..remote].iter().skip(hi).step_by(k) {
            list[len] = r;
            len += 1;
        }
        list[1..len].sort_unstable();
        binomial_over(b, &list[..len], ctx.blocks)?;
    }
    let mut i = 0;
    for (g, group) in ctx.groups() {
        if g != home {
            ctx.remote_group(b, group, receivers[i], list)?;
            i += 1;
        }
    }
    ctx.router_phase(b, ctx.group(home), ctx.root, list)
}
