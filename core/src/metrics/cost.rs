//! Network cost model of docs/mapping.md §6 (\[DISS\] §5.6 uses "the cost model of Slim Fly").
//!
//! Total = routers + cables. A cable inside a cabinet is electric, between cabinets optical
//! (lengths from [`super::cable`]); its price is a linear function of the length, per Gb/s of
//! link bandwidth. A router's price is linear in its radix. Prices are integer micro-dollars
//! (µ$), so results are identical on every target.
//!
//! **Unverified constants.** [`CostModel::SLIM_FLY_UNVERIFIED`] holds the constants usually
//! quoted from the Slim Fly paper (electric `0.4079·x + 0.5771` $/Gb/s, optical
//! `0.0919·x + 7.2745` $/Gb/s, x in metres; router `350.4·k − 892.3` $). The source text
//! could not be checked; with them the gap between `G(1024, 10)` and a degree-19 random
//! shortcut graph is about 9 % in total, not the 18 % \[DISS\] reports. Treat absolute costs
//! and that comparison as indicative only.

use super::cable::{check_layout, for_each_cable, CabinetLayout, INTRA_CABINET_CM};
use super::MetricsError;
use crate::topology::Topology;

/// A linear cable price `per_cm · length_cm + fixed`, in µ$ per Gb/s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearPrice {
    /// µ$ per Gb/s per cm of cable.
    pub per_cm: i64,
    /// µ$ per Gb/s per cable.
    pub fixed: i64,
}

impl LinearPrice {
    /// Price in µ$ per Gb/s of a cable of `cm` centimetres.
    pub fn at(&self, cm: u32) -> i64 {
        self.per_cm * cm as i64 + self.fixed
    }
}

/// Constants of the cost model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostModel {
    /// Electric cables (inside a cabinet).
    pub electric: LinearPrice,
    /// Optical cables (between cabinets).
    pub optical: LinearPrice,
    /// Link bandwidth, Gb/s.
    pub link_gbps: i64,
    /// Router price per port, µ$.
    pub router_per_port: i64,
    /// Router price offset, µ$ (added once per router).
    pub router_fixed: i64,
}

impl CostModel {
    /// The Slim Fly constants as usually quoted (unverified, see the module docs) with
    /// 100 Gb/s links (\[DISS\] §5.6).
    pub const SLIM_FLY_UNVERIFIED: CostModel = CostModel {
        // 0.4079 $/m = 4079 µ$/cm; 0.5771 $ = 577,100 µ$.
        electric: LinearPrice {
            per_cm: 4_079,
            fixed: 577_100,
        },
        // 0.0919 $/m = 919 µ$/cm; 7.2745 $ = 7,274,500 µ$.
        optical: LinearPrice {
            per_cm: 919,
            fixed: 7_274_500,
        },
        link_gbps: 100,
        // 350.4 $ per port, −892.3 $ per router.
        router_per_port: 350_400_000,
        router_fixed: -892_300_000,
    };
}

/// Cost of a network, µ$.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostBreakdown {
    /// Electric (intra-cabinet) cables.
    pub electric_cables: u64,
    /// Optical (inter-cabinet) cables.
    pub optical_cables: u64,
    /// Price of all cables, µ$.
    pub cables: i64,
    /// Price of all routers, µ$.
    pub routers: i64,
}

impl CostBreakdown {
    /// Routers plus cables, µ$.
    pub fn total(&self) -> i64 {
        self.cables + self.routers
    }

    /// Total in dollars.
    pub fn total_usd(&self) -> f64 {
        self.total() as f64 / 1e6
    }
}

/// Cost of `t` under `layout` and `model`: every switch-to-switch link is one cable (terminal
/// cables are ignored, as in the cable model); every switch is a router of radix
/// [`Topology::radix`] (terminal ports included).
pub fn network_cost<T: Topology + ?Sized>(
    t: &T,
    layout: &CabinetLayout,
    model: &CostModel,
) -> Result<CostBreakdown, MetricsError> {
    check_layout(t, layout)?;
    let mut c = CostBreakdown {
        electric_cables: 0,
        optical_cables: 0,
        cables: 0,
        routers: 0,
    };
    for_each_cable(t, layout, |cm| {
        let per_gbps = if cm == INTRA_CABINET_CM {
            c.electric_cables += 1;
            model.electric.at(cm)
        } else {
            c.optical_cables += 1;
            model.optical.at(cm)
        };
        c.cables += per_gbps * model.link_gbps;
    });
    let router = model.router_per_port * t.radix() as i64 + model.router_fixed;
    c.routers = router * t.num_switches() as i64;
    Ok(c)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::metrics::cable::CabinetOrder;
    use crate::topology::stored::from_edges;
    use crate::topology::Slot;

    #[test]
    fn prices_follow_the_linear_fits() {
        let m = CostModel::SLIM_FLY_UNVERIFIED;
        // 1 m electric: 0.4079 + 0.5771 = 0.985 $/Gb/s.
        assert_eq!(m.electric.at(100), 985_000);
        // 2.6 m optical: 0.0919·2.6 + 7.2745 = 7.51344 $/Gb/s.
        assert_eq!(m.optical.at(260), 7_513_440);
    }

    #[test]
    fn two_cabinet_example() {
        // 16 switches: cabinets 0 and 1 side by side (2 cabinets → 2 rows × 1 column).
        // Links: 0–1 (electric, 1 m), 0–8 (optical, 2.0 + 2.1 = 4.1 m).
        let mut slots = [Slot::EMPTY; 32];
        let mut deg = [0u16; 16];
        let g = from_edges(16, 2, 1, [(0, 1), (0, 8)], &mut slots, &mut deg).unwrap();
        let l = CabinetLayout::new(16, CabinetOrder::RowMajor).unwrap();
        let m = CostModel::SLIM_FLY_UNVERIFIED;
        let c = network_cost(&g, &l, &m).unwrap();
        assert_eq!((c.electric_cables, c.optical_cables), (1, 1));
        // 100 Gb/s · (0.985 + 0.0919·4.1 + 7.2745) $ = 863.629 $.
        assert_eq!(c.cables, 863_629_000);
        // Radix 3: 16 · (350.4·3 − 892.3) $ = 16 · 158.9 $ = 2,542.4 $.
        assert_eq!(c.routers, 2_542_400_000);
        assert_eq!(c.total(), 3_406_029_000);
        let wrong = CabinetLayout::new(17, CabinetOrder::RowMajor).unwrap();
        assert!(network_cost(&g, &wrong, &m).is_err());
    }
}
