//! A k-ary tree of routers as an anynet network (`anynet tree=K levels=N`; BookSim2's
//! `qtree`, docs/booksim.md §3.4): one root, `K^h` routers at level `h` numbered level by
//! level (router `Σ_{h'<h} K^h' + pos`, BookSim2's `QTree::_RouterIndex`), router
//! `(h, pos)` the parent of `(h + 1, K·pos + i)`, `K` nodes on each leaf (node `K·pos + i`
//! on leaf `pos`), every channel 1 cycle.

use anyhow::{bail, Result};

use crate::io::anynet::AnyNet;

/// Most nodes of a generated tree.
pub const MAX_NODES: u64 = 1 << 20;

/// The tree with `k` children per router and `levels` levels of routers.
pub fn tree(k: u32, levels: u32) -> Result<AnyNet> {
    if k == 0 || levels == 0 {
        bail!("anynet tree={k} levels={levels}: need tree >= 1 and levels >= 1");
    }
    let nodes = u64::from(k)
        .checked_pow(levels)
        .filter(|&n| n <= MAX_NODES)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "anynet tree={k} levels={levels}: k^levels nodes must be at most {MAX_NODES}"
            )
        })?;
    // First router of every level.
    let mut first = vec![0u32];
    let mut width = 1u32;
    for _ in 1..levels {
        let next = first.last().copied().unwrap_or(0) + width;
        first.push(next);
        width *= k;
    }
    let routers = first.last().copied().unwrap_or(0) + width;
    let mut net = AnyNet {
        routers,
        nodes: Vec::with_capacity(nodes as usize),
        links: Default::default(),
    };
    let mut count = 1u32;
    for h in 0..levels as usize - 1 {
        for pos in 0..count {
            for i in 0..k {
                let (parent, child) = (first[h] + pos, first[h + 1] + k * pos + i);
                net.links.insert((parent, child), 1);
                net.links.insert((child, parent), 1);
            }
        }
        count *= k;
    }
    let leaves = first[levels as usize - 1];
    for node in 0..nodes as u32 {
        net.nodes.push(leaves + node / k);
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booksim2s_qtree_shape() {
        // k = 4, 3 levels: routers 0 | 1..=4 | 5..=20, 64 nodes.
        let t = tree(4, 3).unwrap();
        assert_eq!((t.routers, t.nodes.len()), (21, 64));
        assert_eq!(
            t.neighbours(0).collect::<Vec<_>>(),
            [(1, 1), (2, 1), (3, 1), (4, 1)]
        );
        // Router 2 = (1, 1): parent 0, children (2, 4..=7) = 9..=12.
        let n2: Vec<u32> = t.neighbours(2).map(|(v, _)| v).collect();
        assert_eq!(n2, [0, 9, 10, 11, 12]);
        // Node 37 on leaf pos 9 = router 14, whose parent is (1, 2) = router 3.
        assert_eq!(t.nodes[37], 14);
        assert_eq!(t.neighbours(14).collect::<Vec<_>>(), [(3, 1)]);
        assert_eq!(tree(3, 1).unwrap().nodes, [0, 0, 0]);
        assert!(tree(0, 3).is_err() && tree(4, 0).is_err() && tree(2, 40).is_err());
    }
}
