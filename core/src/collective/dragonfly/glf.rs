//! GLF — Global-Links-First ([DF-BC] §III-C; docs/collectives.md §6).
//!
//! 1. Binomial tree over `[root] +` the lowest rank of every remote used group, groups in
//!    ascending id.
//! 2. Every group: binomial tree from the group's holder over one process per other router.
//! 3. Every router: binomial tree from its holder over the remaining processes.

use super::{min_rank, Ctx};
use crate::collective::list::{binomial_over, ListBuilder};
use crate::collective::schedule::ScheduleError;

pub(crate) fn build(
    ctx: &Ctx<'_>,
    b: &mut ListBuilder<'_, '_>,
    list: &mut [u32],
) -> Result<(), ScheduleError> {
    let home = ctx.root_place().group;
    list[0] = ctx.root;
    let mut len = 1;
    for (g, group) in ctx.groups() {
        if g != home {
            list[len] = min_rank(group);
            len += 1;
        }
    }
    binomial_over(b, &list[..len], ctx.blocks)?;
    for (g, group) in ctx.groups() {
        let holder = if g == home { ctx.root } else { min_rank(group) };
        let k = ctx.router_reps(list, holder, group, ctx.at(holder).router);
        binomial_over(b, &list[..k], ctx.blocks)?;
        ctx.router_phase(b, group, holder, list)?;
    }
    Ok(())
}
