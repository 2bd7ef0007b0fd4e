//! LLF — Local-Links-First ([DF-BC] §III-B; docs/collectives.md §6).
//!
//! 1. Root group: binomial tree from the root over one process on every other used router.
//! 2. The root-group holders (root + step-1 receivers, in rank order) send **in series** to
//!    one process per remote group. Remote group `G'` (ascending id) is assigned to the holder
//!    on router `link(G_root, G').0` if that router has a holder, else round-robin over the
//!    holders in rank order; the receiver is the lowest rank on router `link(G_root, G').1`
//!    if any, else the lowest rank of `G'`.
//! 3. Each remote group: binomial tree from the receiver over one process per other router.
//! 4. Every router: binomial tree from its holder over the router's remaining processes.

use super::{Ctx, GroupLinks, RankLists};
use crate::collective::list::ListBuilder;
use crate::collective::schedule::ScheduleError;

pub(crate) fn build<L: GroupLinks>(
    ctx: &Ctx<'_>,
    links: &L,
    b: &mut ListBuilder<'_, '_>,
    lists: &mut RankLists<'_>,
) -> Result<(), ScheduleError> {
    let RankLists { list, holders, .. } = lists;
    let home = ctx.root_place();
    let k = ctx.root_group_phase(b, list, holders)?;
    let holders = &holders[..k];
    let mut rr = 0usize;
    for (g, group) in ctx.groups() {
        if g == home.group {
            continue;
        }
        let (r1, r2) = links.link(home.group, g);
        let holder = match holders.iter().find(|&&h| ctx.at(h).router == r1) {
            Some(&h) => h,
            None => {
                let h = holders[rr % k];
                rr += 1;
                h
            }
        };
        let receiver = ctx.receiver(group, r2);
        b.send(holder, receiver, ctx.blocks)?;
        ctx.remote_group(b, group, receiver, list)?;
    }
    ctx.router_phase(b, ctx.group(home.group), ctx.root, list)
}
