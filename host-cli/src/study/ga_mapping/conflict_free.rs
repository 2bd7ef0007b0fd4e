//! A conflict-free mapping of two traffic patterns, built instead of searched
//! (docs/mapping.md §5 "Conflict-free pairs", docs/reference-results.md C3): when every flow of
//! both patterns runs between torus neighbours, each channel carries at most one flow per
//! pattern and each pattern takes the ideal 34 cycles, so the pair takes 68 — \[GA\] Table 2's
//! best for bcmp-brev, bcmp-trns and brev-trns.
//!
//! Construction: join the two patterns' flows into one undirected graph on the logical
//! addresses. Two commuting involutions (bcmp, brev, trns pairwise; bcmp and torn) generate a
//! group of order ≤ 4, so every component is a single address, one pair, or a 4-cycle
//! `s – a(s) – b(a(s)) – b(s) – s`. Each 2 × 2 block of the torus holds a 4-cycle in its cycle
//! order, two pairs or singletons, so every flow is one hop. Two involutions that do not commute
//! (trns and torn) give longer alternating cycles; a 2 × 4 ring of two neighbouring blocks holds
//! a path of 5 to 8 addresses or an 8-cycle. So any component that is a path of at most 8
//! addresses or a 4- or 8-cycle fits; anything else (an address with three partners, odd or
//! other cycles, larger components, too few blocks) is refused.

use jumpnet_core::mapping::ga::{Address, Grid, NO_DEST};

/// The four cells of a 2 × 2 block in cycle order (each is a torus neighbour of the next, the
/// last of the first).
const BLOCK: [(u32, u32); 4] = [(0, 0), (1, 0), (1, 1), (0, 1)];

/// The eight cells of a 2 × 4 ring (two blocks side by side) in cycle order.
const RING: [(u32, u32); 8] = [
    (0, 0),
    (1, 0),
    (2, 0),
    (3, 0),
    (3, 1),
    (2, 1),
    (1, 1),
    (0, 1),
];

/// Largest component a 2 × 2 block holds.
const MAX_COMPONENT: usize = BLOCK.len();

/// Undirected neighbours of every logical address over the flows of `tables` (each `N`
/// entries, [`NO_DEST`] or the address itself = no flow), deduplicated.
fn flow_graph(nodes: usize, tables: &[&[Address]]) -> Vec<Vec<usize>> {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); nodes];
    for table in tables {
        for (s, &d) in table.iter().enumerate().take(nodes) {
            let d = d as usize;
            if d == NO_DEST as usize || d == s || d >= nodes {
                continue;
            }
            if !adj[s].contains(&d) {
                adj[s].push(d);
                adj[d].push(s);
            }
        }
    }
    adj
}

/// The components of `adj`, each listed in path or cycle order; `None` if an address has more
/// than two neighbours.
fn components_in_order(adj: &[Vec<usize>]) -> Option<Vec<Vec<usize>>> {
    if adj.iter().any(|a| a.len() > 2) {
        return None;
    }
    let mut seen = vec![false; adj.len()];
    let mut comps = Vec::new();
    // Paths first from one of their ends, then what is left (cycles) from any address.
    let starts = (0..adj.len())
        .filter(|&s| adj[s].len() < 2)
        .chain(0..adj.len());
    for start in starts {
        if seen[start] {
            continue;
        }
        let mut comp = vec![start];
        seen[start] = true;
        let mut cur = start;
        while let Some(&next) = adj[cur].iter().find(|&&v| !seen[v]) {
            seen[next] = true;
            comp.push(next);
            cur = next;
        }
        comps.push(comp);
    }
    Some(comps)
}

/// Whether `comp` (in traversal order) is a path of at most 8 addresses or a 4- or 8-cycle,
/// the shapes a 2 × 2 block or a 2 × 4 ring holds.
fn fits(comp: &[usize], adj: &[Vec<usize>]) -> bool {
    let edges: usize = comp.iter().map(|&v| adj[v].len()).sum::<usize>() / 2;
    let is_cycle = edges == comp.len() && comp.len() > 2;
    comp.len() <= RING.len() && (!is_cycle || comp.len() == BLOCK.len() || comp.len() == RING.len())
}

/// A gene (`gene[physical position] = logical address`) on which every flow of the patterns
/// `a` and `b` (destination tables of `N = side²` logical addresses) runs between torus
/// neighbours, built block by block as described in the module documentation; `None` when the
/// side is odd or the flows do not split into paths and 4-cycles of at most 4 addresses that
/// the blocks can hold (components of 5–8 addresses take 2 × 4 rings of blocks `2i, 2i + 1` in
/// a block row, the rest first-fit by decreasing size).
pub fn conflict_free_gene(grid: Grid, a: &[Address], b: &[Address]) -> Option<Vec<Address>> {
    let nodes = grid.nodes();
    let side = u32::from(grid.side());
    if side % 2 != 0 || a.len() != nodes || b.len() != nodes {
        return None;
    }
    let adj = flow_graph(nodes, &[a, b]);
    let mut comps = components_in_order(&adj)?;
    if !comps.iter().all(|c| fits(c, &adj)) {
        return None;
    }
    comps.sort_by_key(|c| core::cmp::Reverse(c.len()));
    let per_row = side / 2;
    let blocks = per_row as usize * per_row as usize;
    let corner = |k: usize| (2 * (k as u32 % per_row), 2 * (k as u32 / per_row));
    let mut used = vec![0usize; blocks];
    let mut gene = vec![NO_DEST; nodes];
    for comp in &comps {
        let (k, cells): (usize, &[(u32, u32)]) = if comp.len() > MAX_COMPONENT {
            // Two empty blocks side by side in one block row.
            let k = (0..blocks.saturating_sub(1))
                .find(|&k| k as u32 % per_row + 1 < per_row && used[k] == 0 && used[k + 1] == 0)?;
            used[k + 1] = MAX_COMPONENT;
            (k, &RING)
        } else {
            let k = (0..blocks).find(|&k| used[k] + comp.len() <= MAX_COMPONENT)?;
            (k, &BLOCK[used[k]..])
        };
        let (bx, by) = corner(k);
        for (&logical, &(dx, dy)) in comp.iter().zip(cells) {
            gene[grid.pos(bx + dx, by + dy)] = logical as Address;
        }
        used[k] = (used[k] + comp.len()).min(MAX_COMPONENT);
    }
    gene.iter().all(|&g| g != NO_DEST).then_some(gene)
}
