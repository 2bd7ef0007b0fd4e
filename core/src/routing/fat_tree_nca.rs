//! Nearest-common-ancestor routing on the k-ary n-tree with a random or adaptive choice
//! of the up port (docs/routing.md §5.1): BookSim2's `nca` and `anca` on its `fattree`
//! (`fattree_nca`, `fattree_anca` in BookSim2's `routefunc.cpp`; docs/booksim.md §3).
//!
//! Down the tree a packet takes the only way, as D-mod-k does ([`FatTreeDmodK`]): at
//! `<w, l>` with the destination `t` below, down port `t_l` (ejection at the leaf). Up the
//! tree every up port of the switch leads to a common ancestor, and the two routings
//! choose:
//!
//! * [`NcaChoice::Random`] (`nca`): an up port uniformly at random, drawn anew at every
//!   switch;
//! * [`NcaChoice::Adaptive`] (`anca`): two up ports `r1`, `r2` drawn uniformly and
//!   independently (they may be equal); `r2` if the switch's occupancy of `r2` (flits sent
//!   whose credits have not returned, all VCs) is strictly below that of `r1`, else `r1`.
//!   As candidates ([`Routing::candidates`]): `r1` then `r2`, each weighing its own output,
//!   so the selection's cheapest-first-on-ties rule is exactly this.
//!
//! The draws come from the 8 random bits a caller gives each packet
//! ([`PacketState::coin`], [`Routing::random_ties`]), read as a fraction `u = coin / 256`:
//! draw `i` (counted over the packet's up hops, one per hop for `nca`, two for `anca`) is
//! digit `i` of `u` in base `k`, `⌊u·k^(i+1)⌋ mod k`. For `k` a power of two the draws are
//! then exactly uniform and independent while `k^(i+1) ≤ 256` (all draws of `nca` on a
//! 4-ary 5-tree, of `anca` on a 4-ary 3-tree); later draws are a seeded hash of (coin, `i`),
//! uniform over the 256 coins. A committed adaptive choice waits in [`PacketState::via`]
//! until [`Routing::next_hop`] takes it; without one (no congestion known) `r1` is taken.
//! One VC: every route is up*/down*, deadlock-free.

use crate::rng::hash64;
use crate::routing::adaptive::{Candidate, CongestionScope};
use crate::routing::endpoint::{inject_state, locate, Endpoint};
use crate::routing::error::RoutingError;
use crate::routing::{FatTreeDmodK, Hop, PacketState, Routing};
use crate::topology::{FatTree, PortIndex, SwitchId, TerminalId, Topology};

/// How [`FatTreeNca`] chooses an up port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NcaChoice {
    /// Uniformly at random (BookSim2's `nca`).
    Random,
    /// The less occupied of two random up ports, the first on ties (BookSim2's `anca`).
    Adaptive,
}

/// Nearest-common-ancestor routing with random or adaptive up ports (module documentation).
#[derive(Clone, Copy, Debug)]
pub struct FatTreeNca<'a> {
    tree: &'a FatTree,
    choice: NcaChoice,
    seed: u64,
}

impl<'a> FatTreeNca<'a> {
    /// NCA routing on `tree` choosing up ports by `choice`; `seed` keys the hash of the
    /// draws past the coin's 8 bits.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::routing::fat_tree_nca::{FatTreeNca, NcaChoice};
    /// use jumpnet_core::routing::{Hop, Routing};
    /// use jumpnet_core::topology::FatTree;
    ///
    /// // 4-ary 2-tree, node 0 to node 13: leaf 4 goes up; with coin 0b1100_0000 the
    /// // fraction 0.75 has first base-4 digit 3, so up port k + 3 = 7 (to root 3); the root
    /// // goes down on port t_0 = 3 to leaf 7, which ejects on port t_1 = 1.
    /// let ft = FatTree::new(4, 2)?;
    /// let nca = FatTreeNca::new(&ft, NcaChoice::Random, 0);
    /// let mut st = nca.inject(0, 13)?;
    /// st.coin = 0b1100_0000;
    /// assert_eq!(nca.next_hop(4, &mut st, 13)?, Hop::Forward { port: 7, vc: 0 });
    /// assert_eq!(nca.next_hop(3, &mut st, 13)?, Hop::Forward { port: 3, vc: 0 });
    /// assert_eq!(nca.next_hop(7, &mut st, 13)?, Hop::Eject { port: 1 });
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn new(tree: &'a FatTree, choice: NcaChoice, seed: u64) -> Self {
        FatTreeNca { tree, choice, seed }
    }

    /// Random draw `i` of a packet with coin `coin`, in `0..k` (module documentation).
    pub fn draw(&self, coin: u8, i: u32) -> u32 {
        let k = u64::from(self.tree.k());
        if let Some(p) = k.checked_pow(i + 1).filter(|&p| p <= 256) {
            return ((u64::from(coin) * p / 256) % k) as u32;
        }
        let h = hash64(self.seed, (u64::from(coin) << 32) | u64::from(i));
        ((u128::from(h) * u128::from(k)) >> 64) as u32
    }

    /// The up ports `r1`, `r2` (`k + draw`) a packet may take from switch `at` at level
    /// `level` (`r2 = r1` for [`NcaChoice::Random`]).
    fn up_choices(&self, level: u32, coin: u8) -> (PortIndex, PortIndex) {
        let k = self.tree.k();
        // The m-th up hop (m = 0 from a leaf) leaves level n - 1 - m.
        let m = self.tree.levels() - 1 - level;
        let port = |i| (k + self.draw(coin, i)) as PortIndex;
        match self.choice {
            NcaChoice::Random => (port(m), port(m)),
            NcaChoice::Adaptive => (port(2 * m), port(2 * m + 1)),
        }
    }

    /// The D-mod-k port toward `dst` (the down port when `dst` is below `at`) and whether
    /// it goes up, with `at`'s level.
    fn toward(
        &self,
        at: SwitchId,
        dst: TerminalId,
    ) -> Result<(PortIndex, bool, u32), RoutingError> {
        let port = FatTreeDmodK::new(self.tree).port_toward(at, dst)?;
        let level = self.tree.level(at).ok_or(RoutingError::SwitchOutOfRange {
            switch: at,
            switches: self.tree.num_switches(),
        })?;
        Ok((port, u32::from(port) >= self.tree.k(), level))
    }
}

impl Routing for FatTreeNca<'_> {
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
        let (mut port, up, level) = self.toward(at, dst)?;
        if up {
            port = match state.via {
                PacketState::NO_VIA => self.up_choices(level, state.coin).0,
                committed => committed as PortIndex,
            };
        }
        state.via = PacketState::NO_VIA;
        state.vc = 0;
        Ok(Hop::Forward { port, vc: 0 })
    }

    fn congestion_scope(&self) -> CongestionScope {
        match self.choice {
            NcaChoice::Random => CongestionScope::None,
            NcaChoice::Adaptive => CongestionScope::Local,
        }
    }

    fn random_ties(&self) -> bool {
        true
    }

    /// [`NcaChoice::Adaptive`] on the way up: `r1` and `r2`, each weighing `at`'s output to
    /// it (1 hop, no bias). Otherwise none.
    fn candidates(
        &self,
        at: SwitchId,
        state: &PacketState,
        dst: TerminalId,
        out: &mut [Candidate],
    ) -> Result<usize, RoutingError> {
        if self.choice != NcaChoice::Adaptive {
            return Ok(0);
        }
        if let Endpoint::Eject(_) = locate(self.tree, at, dst)? {
            return Ok(0);
        }
        let (_, up, level) = self.toward(at, dst)?;
        if !up {
            return Ok(0);
        }
        let available = out.len() as u64;
        let [first, second, ..] = out else {
            return Err(RoutingError::Capacity(crate::error::CapacityError::new(
                "NCA candidates",
                2,
                available,
            )));
        };
        let (r1, r2) = self.up_choices(level, state.coin);
        *first = Candidate::new(r1, 1, &[(at, r1)], 0, 0)?;
        *second = Candidate::new(r2, 1, &[(at, r2)], 0, 1)?;
        Ok(2)
    }

    /// Keeps the chosen up port for [`Routing::next_hop`] at this switch.
    fn commit_candidate(&self, state: &mut PacketState, chosen: &Candidate) {
        state.via = u32::from(chosen.port);
    }
}
