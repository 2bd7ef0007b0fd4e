//! BookSim2's on-chip flattened butterfly (`topology = flatfly`, `flatfly_onchip.cpp`) in
//! jumpnet's terms (docs/booksim.md §3.2): jumpnet's `hyperx s=k,…,k t=c` with its switches on
//! BookSim2's chip grid ([`GridLayout`]) when `use_noc_latency = 1`.
//!
//! BookSim2 places router `r` at column `r mod x`, row `⌊r / x⌋`, each router's `c = xr·yr`
//! nodes in an `xr × yr` block around it. A channel between routers is `xr·|Δcolumn| +
//! yr·|Δrow|` cycles long (credits the same); a node's injection and ejection channels are
//! `1 + (|dx| − 1)⁺ + (|dy| − 1)⁺` cycles for the node's offset `(dx, dy)` in the block
//! in the order BookSim2 adds them; jumpnet gives the `j`-th terminal of a switch the `j`-th
//! of these lengths ([`GridLayout::node_latency`]). With `use_noc_latency = 0` every channel takes 1
//! cycle.
//!
//! BookSim2 numbers the nodes on the `x·xr`-wide grid of blocks (node `g` of row `⌊g / (x·xr)⌋`
//! belongs to the router whose block holds it), jumpnet router by router; with `c > 1`
//! `uniform` and `bitcomp` put the same traffic on the routers under both numberings (the
//! complement of a node lies in the complement router's block), other patterns are refused.

use anyhow::{bail, Result};

use super::irregular::Layout;
use crate::sim::network::layout_latency::GridLayout;

/// Checks `flatfly`'s keys as BookSim2 asserts them (`x = y`, `xr = yr`, `c = xr·yr`) and
/// that the routers fill whole rows of `x`; returns the chip layout of
/// `use_noc_latency = 1` (`None` with 0: 1-cycle channels), which also gives the terminals'
/// channels their lengths ([`GridLayout::node_latency`]).
pub fn layout(
    k: u32,
    n: u32,
    c: u32,
    l: Layout,
    use_noc_latency: bool,
) -> Result<Option<GridLayout>> {
    if l.x != l.y || l.xr != l.yr || u64::from(c) != u64::from(l.xr) * u64::from(l.yr) {
        bail!(
            "flatfly with c = {c}, x = {}, y = {}, xr = {}, yr = {}: BookSim2's flatfly needs \
             x = y, xr = yr and c = xr·yr (it asserts so)",
            l.x,
            l.y,
            l.xr,
            l.yr
        );
    }
    let routers = u64::from(k).checked_pow(n).unwrap_or(u64::MAX);
    if l.x == 0 || routers % u64::from(l.x) != 0 {
        bail!(
            "flatfly with k = {k}, n = {n}, x = {}: the {routers} routers must fill rows of x \
             (BookSim2 numbers nodes past its last one otherwise)",
            l.x
        );
    }
    if !use_noc_latency {
        return Ok(None);
    }
    let cell = |v: u32, key: &str| {
        u16::try_from(v)
            .map_err(|_| anyhow::anyhow!("flatfly with {key} = {v}: need {key} <= 65535"))
    };
    Ok(Some(GridLayout {
        columns: l.x,
        xr: cell(l.xr, "xr")?,
        yr: cell(l.yr, "yr")?,
    }))
}

/// Refuses a traffic pattern whose destinations on a `flatfly` with `c` nodes per router
/// would not be BookSim2's (module documentation).
pub fn check_traffic(c: u32, traffic: &str) -> Result<()> {
    if c > 1 && !matches!(traffic, "uniform" | "bitcomp") {
        bail!(
            "traffic = {traffic} on flatfly with c = {c} is not supported: BookSim2 numbers \
             flatfly nodes on its chip grid and jumpnet router by router; the traffic agrees \
             for uniform, bitcomp"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The injection (= ejection) channel lengths BookSim2 gives a router's `xr·yr` nodes, in
    /// the order it adds them, walked as BookSim2's loop walks them (the reference that
    /// [`GridLayout::node_latency`]'s closed form is checked against): an offset walk over the block that skips the centre line when a
    /// side is even, one cycle plus the offset beyond the first position in each direction.
    fn node_lengths(xr: u32, yr: u32) -> Vec<u32> {
        let (half_x, half_y) = (xr as i64 / 2, yr as i64 / 2);
        let (mut dx, mut dy) = (-half_x, -half_y);
        let mut out = Vec::with_capacity((xr * yr) as usize);
        for _ in 0..u64::from(xr) * u64::from(yr) {
            // An even side has no centre position: 0 is skipped.
            if dy == 0 && yr.is_multiple_of(2) {
                dy += 1;
            }
            if dx == 0 && xr.is_multiple_of(2) {
                dx += 1;
            }
            let beyond = |d: i64| (d.abs() - 1).max(0) as u32;
            out.push(1 + beyond(dy) + beyond(dx));
            // BookSim2 advances the y offset per node and the x offset per wrap of y.
            dy += 1;
            if dy > half_y {
                dy = -half_y;
                dx += 1;
            }
        }
        out
    }

    fn grid(x: u32, r: u32) -> Layout {
        Layout {
            x,
            y: x,
            xr: r,
            yr: r,
        }
    }

    #[test]
    fn node_channel_lengths_by_hand() {
        // Offsets (−1, −1), (−1, 1), (1, −1), (1, 1): all next to the router.
        assert_eq!(node_lengths(2, 2), [1, 1, 1, 1]);
        assert_eq!(node_lengths(1, 1), [1]);
        assert_eq!(node_lengths(3, 3), [1; 9]);
        // 4 × 4: offsets −2, −1, 1, 2 in each direction; ±2 is one cycle further.
        assert_eq!(
            node_lengths(4, 4),
            [3, 2, 2, 3, 2, 1, 1, 2, 2, 1, 1, 2, 3, 2, 2, 3]
        );
    }

    #[test]
    fn terminal_channels_take_node_lengths() {
        use crate::sim::config::SimConfig;
        use crate::sim::network::{Fabric, PortKind};
        use jumpnet_core::topology::spec::NetworkSpec;
        for r in [2u32, 3, 4, 5] {
            let g = layout(4, 2, r * r, grid(4, r), true).unwrap().unwrap();
            let want: Vec<u16> = node_lengths(r, r).iter().map(|&l| l as u16).collect();
            let got: Vec<u16> = (0..r * r).map(|j| g.node_latency(j)).collect();
            assert_eq!(got, want, "xr = yr = {r}");
        }
        // The network of xr = yr = 4: every switch's 16 terminals in port order.
        let net = NetworkSpec::hyperx(&[4, 4], 1, 16)
            .unwrap()
            .build()
            .unwrap();
        let mut cfg = SimConfig::booksim();
        cfg.switch_layout = layout(4, 2, 16, grid(4, 4), true).unwrap();
        let f = Fabric::new(&net, &cfg).unwrap();
        let want: Vec<u16> = node_lengths(4, 4).iter().map(|&l| l as u16).collect();
        for s in 0..f.switches as usize {
            let ports = s * f.radix..(s + 1) * f.radix;
            let got: Vec<u16> = f.ports[ports.clone()]
                .iter()
                .zip(&f.latency[ports])
                .filter(|(k, _)| matches!(k, PortKind::Terminal(_)))
                .map(|(_, &l)| l)
                .collect();
            assert_eq!(got, want, "switch {s}");
        }
        assert_eq!(f.max_latency(), 12);
    }

    #[test]
    fn layout_of_booksim_example_and_refusals() {
        let g = layout(4, 2, 4, grid(4, 2), true).unwrap().unwrap();
        assert_eq!(
            g,
            GridLayout {
                columns: 4,
                xr: 2,
                yr: 2
            }
        );
        assert_eq!(layout(4, 2, 4, grid(4, 2), false).unwrap(), None);
        let e = layout(4, 2, 4, grid(4, 1), false).unwrap_err().to_string();
        assert!(e.contains("c = xr·yr"), "{e}");
        // Node channels longer than a cycle (xr = yr = 4) are given, not refused.
        assert!(layout(4, 2, 16, grid(4, 4), true).unwrap().is_some());
        assert!(layout(4, 2, 16, grid(4, 4), false).is_ok());
        let e = layout(4, 2, 1, grid(3, 1), true).unwrap_err().to_string();
        assert!(e.contains("rows of x"), "{e}");
        assert!(check_traffic(4, "bitcomp").is_ok());
        assert!(check_traffic(4, "transpose").is_err());
        assert!(check_traffic(1, "transpose").is_ok());
    }
}
