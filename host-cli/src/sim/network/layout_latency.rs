//! Channel latency from where the switches sit on a chip: switch `s` at column
//! `s mod columns`, row `⌊s / columns⌋` of a grid whose cells are `xr` cycles wide and `yr`
//! cycles high; the channel between switches `a` and `b` takes their Manhattan distance in
//! cycles, `xr·|Δcolumn| + yr·|Δrow|` — BookSim2's on-chip flattened butterfly
//! (`use_noc_latency = 1`, docs/booksim.md §3.2).

use serde::Serialize;

/// A grid of switches with the cycles of one cell in each direction (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GridLayout {
    /// Switches per row (BookSim2's `x`).
    pub columns: u32,
    /// Cycles per column step (BookSim2's `xr`, nodes per router along a row).
    pub xr: u16,
    /// Cycles per row step (BookSim2's `yr`).
    pub yr: u16,
}

impl GridLayout {
    /// The latency (cycles) of the channel between switches `a` and `b`; `None` if it is 0
    /// (the same cell) or above 65535.
    pub fn latency(&self, a: u32, b: u32) -> Option<u16> {
        let cols = self.columns.max(1);
        let dx = u64::from((a % cols).abs_diff(b % cols));
        let dy = u64::from((a / cols).abs_diff(b / cols));
        let len = u64::from(self.xr) * dx + u64::from(self.yr) * dy;
        u16::try_from(len).ok().filter(|&l| l > 0)
    }

    /// The latency (cycles) of the injection and ejection channels of a switch's `j`-th
    /// terminal, `j < xr·yr`: the terminals fill the switch's `xr × yr` cell column by column
    /// (`yr` to a column) at offsets `−⌊xr/2⌋..⌊xr/2⌋` × `−⌊yr/2⌋..⌊yr/2⌋` from the switch,
    /// 0 left out along an even side; a channel takes 1 cycle plus the offset beyond the first
    /// position in each direction (docs/booksim.md §3.2).
    pub fn node_latency(&self, j: u32) -> u16 {
        let offset = |i: u32, side: u16| {
            let (i, half) = (i64::from(i), i64::from(side / 2));
            if side.is_multiple_of(2) && i >= half {
                i - half + 1
            } else {
                i - half
            }
        };
        let beyond = |d: i64| (d.abs() - 1).max(0);
        let yr = u32::from(self.yr.max(1));
        let len = 1 + beyond(offset(j % yr, self.yr)) + beyond(offset(j / yr, self.xr));
        u16::try_from(len).unwrap_or(u16::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manhattan_distance_in_cells() {
        // 4 columns, cells 2 × 3 cycles: 0 (0, 0), 3 (3, 0), 6 (2, 1), 13 (1, 3).
        let g = GridLayout {
            columns: 4,
            xr: 2,
            yr: 3,
        };
        assert_eq!(g.latency(0, 3), Some(6));
        assert_eq!(g.latency(3, 0), Some(6));
        assert_eq!(g.latency(0, 6), Some(2 * 2 + 3));
        assert_eq!(g.latency(13, 3), Some(2 * 2 + 3 * 3));
        assert_eq!(g.latency(5, 5), None);
        let huge = GridLayout {
            columns: 2,
            xr: 1,
            yr: u16::MAX,
        };
        assert_eq!(huge.latency(0, 4), None);
    }

    #[test]
    fn booksim_flatfly_4x4_channel_lengths() {
        use crate::sim::config::SimConfig;
        use crate::sim::network::{Fabric, PortKind};
        use jumpnet_core::topology::spec::NetworkSpec;
        // BookSim2's flatflyconfig: 4 × 4 routers, 4 columns, 2 × 2 nodes per router.
        let net = NetworkSpec::hyperx(&[4, 4], 1, 4).unwrap().build().unwrap();
        let mut cfg = SimConfig::booksim();
        cfg.switch_layout = Some(GridLayout {
            columns: 4,
            xr: 2,
            yr: 2,
        });
        let f = Fabric::new(&net, &cfg).unwrap();
        let lengths = |s: u32| {
            let ports = s as usize * f.radix..(s as usize + 1) * f.radix;
            f.ports[ports.clone()]
                .iter()
                .zip(&f.latency[ports])
                .map(|(kind, &l)| match kind {
                    PortKind::Link { peer, .. } => (*peer, l),
                    _ => (u32::MAX, l),
                })
                .collect::<Vec<_>>()
        };
        let t = (u32::MAX, 1);
        // Router 0 at (0, 0): along its row 2, 4, 6 cycles, along its column the same.
        assert_eq!(
            lengths(0),
            [t, t, t, t, (1, 2), (2, 4), (3, 6), (4, 2), (8, 4), (12, 6)]
        );
        // Router 6 at (2, 1): routers 4, 5, 7 of its row; 2, 10, 14 of its column.
        assert_eq!(
            lengths(6),
            [t, t, t, t, (4, 4), (5, 2), (7, 2), (2, 2), (10, 2), (14, 4)]
        );
        // Without the layout every channel takes its class latency, 1.
        cfg.switch_layout = None;
        let f = Fabric::new(&net, &cfg).unwrap();
        assert!(f.latency.iter().all(|&l| l == 1));
    }
}
