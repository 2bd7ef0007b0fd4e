//! Up/down routing with D-mod-k on the k-ary n-tree (docs/routing.md §5).
//!
//! A switch `<w, l>` reaches, going down, exactly the nodes `p` with
//! `p_0..p_{l-1} = w_0..w_{l-1}` (docs/topologies.md §6: going down rewrites digits
//! `l, l+1, ..`). So at `<w, l>` toward node `t`:
//!
//! * if `t` is below (`t_i = w_i` for all `i < l`): go down on port `t_l` — at the leaf
//!   (`l = n-1`) that is the terminal port `t_{n-1}`, i.e. ejection;
//! * otherwise go up on port `k + t_l` (D-mod-k: destination-based spreading).
//!
//! From a source leaf this ascends to the turning level `L = min{ i : s_i != t_i }`, the
//! `m`-th upward hop (from level `n - m`) on up port `k + t_{n-m}`, then descends on ports
//! `t_L, t_{L+1}, ..`: `2(n-1-L)` router hops, minimal. Every route is a sequence of up
//! hops followed by down hops (up*/down*), so one VC is deadlock-free. The decision is a
//! function of (switch, destination), O(n) per hop.

use crate::topology::{FatTree, PortIndex, SwitchId, TerminalId, Topology};

use crate::routing::endpoint::{inject_state, locate, Endpoint};
use crate::routing::error::RoutingError;
use crate::routing::{Hop, PacketState, Routing};

/// Up/down D-mod-k routing on a k-ary n-tree (docs/routing.md §5), one VC.
#[derive(Clone, Copy, Debug)]
pub struct FatTreeDmodK<'a> {
    tree: &'a FatTree,
}

impl<'a> FatTreeDmodK<'a> {
    /// D-mod-k routing on `tree`.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::routing::FatTreeDmodK;
    /// use jumpnet_core::topology::FatTree;
    ///
    /// // 4-ary 2-tree, node 0 = (0, 0) to node 13 = (3, 1): the digits differ at level 0. The
    /// // source leaf 4 goes up on port k + t_1 = 5 (D-mod-k) to the root <(1), 0> = switch 1,
    /// // which goes down on port t_0 = 3 to leaf 7, which ejects on port t_1 = 1.
    /// let ft = FatTree::new(4, 2)?;
    /// let route = FatTreeDmodK::new(&ft);
    /// assert_eq!(route.port_toward(4, 13)?, 5);
    /// assert_eq!(route.port_toward(1, 13)?, 3);
    /// assert_eq!(route.port_toward(7, 13)?, 1);
    /// // A node on the same leaf is reached straight down.
    /// assert_eq!(route.port_toward(4, 2)?, 2);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(tree: &'a FatTree) -> Self {
        FatTreeDmodK { tree }
    }

    /// The topology.
    pub fn tree(&self) -> &'a FatTree {
        self.tree
    }

    /// Port of the next hop from switch `at` (level `l`) toward node `dst`: down port `t_l`
    /// if `dst` is below `at` (at the leaf of `dst` that is its terminal port), else up
    /// port `k + t_l`.
    pub fn port_toward(&self, at: SwitchId, dst: TerminalId) -> Result<PortIndex, RoutingError> {
        let tree = self.tree;
        let level = tree.level(at).ok_or(RoutingError::SwitchOutOfRange {
            switch: at,
            switches: tree.num_switches(),
        })?;
        let bad_dst = RoutingError::TerminalOutOfRange {
            terminal: dst,
            terminals: tree.num_terminals(),
        };
        let t_l = tree.node_digit(dst, level).ok_or(bad_dst)?;
        let mut below = true;
        for i in 0..level {
            let w = tree.word_digit(at, i);
            let t = tree.node_digit(dst, i).ok_or(bad_dst)?;
            if w != Some(t) {
                below = false;
                break;
            }
        }
        let port = if below {
            tree.down_port(t_l)
        } else if level == 0 {
            // Roots reach every node; not reached for a consistent tree.
            None
        } else {
            tree.up_port(t_l)
        };
        port.ok_or(RoutingError::Unreachable {
            from: at,
            to: tree.terminal_switch(dst).unwrap_or(at),
        })
    }
}

impl Routing for FatTreeDmodK<'_> {
    fn num_vcs(&self) -> u8 {
        1
    }

    fn inject(&self, src: TerminalId, dst: TerminalId) -> Result<PacketState, RoutingError> {
        inject_state(self.tree, src, dst)
    }

    fn next_hop(
        &self,
        at: SwitchId,
        state: &mut PacketState,
        dst: TerminalId,
    ) -> Result<Hop, RoutingError> {
        if let Endpoint::Eject(port) = locate(self.tree, at, dst)? {
            return Ok(Hop::Eject { port });
        }
        let port = self.port_toward(at, dst)?;
        state.vc = 0;
        Ok(Hop::Forward { port, vc: 0 })
    }
}
