//! Cable length model of docs/mapping.md §6 (Top-of-Rack layout after \[DISS\] §5.6).
//!
//! 8 switches per cabinet, switch `i` in cabinet `floor(i/8)`; `C = ceil(N/8)` cabinets on a
//! grid of `r = ceil(sqrt(C))` rows × `c = ceil(C/r)` columns, cabinet `j` in row
//! `floor(j/c)`, column `j mod c` (row-major) or with odd rows reversed (boustrophedon).
//! A cable inside a cabinet is 1.0 m; between cabinets it is
//! `2.0 + 0.6·|Δcol| + 2.1·|Δrow|` m. Terminal cables are ignored.
//!
//! All lengths are integer centimetres, so results are identical on every target.

use super::MetricsError;
use crate::error::InvalidParam;
use crate::topology::{Port, SwitchId, Topology};

/// Switches per cabinet.
pub const SWITCHES_PER_CABINET: u32 = 8;
/// Length of a cable inside a cabinet, cm.
pub const INTRA_CABINET_CM: u32 = 100;
/// Fixed overhead of a cable between cabinets, cm.
pub const INTER_CABINET_CM: u32 = 200;
/// Cabinet width (one column step), cm.
pub const CABINET_WIDTH_CM: u32 = 60;
/// Cabinet depth including the aisle (one row step), cm.
pub const CABINET_DEPTH_CM: u32 = 210;

/// How cabinets are laid out on the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CabinetOrder {
    /// Cabinet `j` at row `j / c`, column `j % c`.
    RowMajor,
    /// Like row-major, but odd rows run right to left (column `c − 1 − j % c`).
    Boustrophedon,
}

/// The cabinet grid of a network of `switches` switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CabinetLayout {
    switches: u32,
    cabinets: u32,
    rows: u32,
    cols: u32,
    order: CabinetOrder,
}

impl CabinetLayout {
    /// The layout for `switches` switches (at least 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet_core::metrics::{CabinetLayout, CabinetOrder};
    ///
    /// // 1,024 switches: 128 cabinets of 8 on a grid of ceil(sqrt(128)) = 12 rows × 11 columns.
    /// let layout = CabinetLayout::new(1024, CabinetOrder::RowMajor)?;
    /// assert_eq!((layout.cabinets(), layout.grid()), (128, (12, 11)));
    /// // In centimetres: 1.0 m inside a cabinet, 2.0 m + 0.6 m to the next cabinet of a row,
    /// // 2.0 m + 2.1 m to the cabinet below (cabinet 11 starts row 1).
    /// assert_eq!(layout.cable_cm(0, 7), 100);
    /// assert_eq!(layout.cable_cm(0, 8), 260);
    /// assert_eq!(layout.cable_cm(0, 88), 410);
    /// # Ok::<(), jumpnet_core::metrics::MetricsError>(())
    /// ```
    pub fn new(switches: u32, order: CabinetOrder) -> Result<Self, MetricsError> {
        if switches == 0 {
            return Err(MetricsError::Invalid(InvalidParam {
                param: "switches",
                value: 0,
                rule: "a cabinet layout needs at least one switch",
            }));
        }
        let cabinets = switches.div_ceil(SWITCHES_PER_CABINET);
        // ceil(sqrt(C)) for C >= 1.
        let rows = (cabinets - 1).isqrt() + 1;
        let cols = cabinets.div_ceil(rows);
        Ok(CabinetLayout {
            switches,
            cabinets,
            rows,
            cols,
            order,
        })
    }

    /// Number of cabinets `C`.
    pub fn cabinets(&self) -> u32 {
        self.cabinets
    }

    /// Grid size `(rows, columns)`.
    pub fn grid(&self) -> (u32, u32) {
        (self.rows, self.cols)
    }

    /// Cabinet order on the grid.
    pub fn order(&self) -> CabinetOrder {
        self.order
    }

    /// Cabinet of `switch`.
    pub fn cabinet(&self, switch: SwitchId) -> u32 {
        switch / SWITCHES_PER_CABINET
    }

    /// Grid position `(row, column)` of `cabinet`.
    pub fn position(&self, cabinet: u32) -> (u32, u32) {
        let row = cabinet / self.cols;
        let col = cabinet % self.cols;
        match self.order {
            CabinetOrder::Boustrophedon if row % 2 == 1 => (row, self.cols - 1 - col),
            _ => (row, col),
        }
    }

    /// Length in cm of a cable between switches `u` and `v` (`u != v`; the same formula
    /// applies for any two switches in one cabinet).
    pub fn cable_cm(&self, u: SwitchId, v: SwitchId) -> u32 {
        let (cu, cv) = (self.cabinet(u), self.cabinet(v));
        if cu == cv {
            return INTRA_CABINET_CM;
        }
        let (ru, ku) = self.position(cu);
        let (rv, kv) = self.position(cv);
        INTER_CABINET_CM + CABINET_WIDTH_CM * ku.abs_diff(kv) + CABINET_DEPTH_CM * ru.abs_diff(rv)
    }

    /// Number of switches the layout was made for.
    pub fn switches(&self) -> u32 {
        self.switches
    }
}

/// Cable totals of a topology under a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CableStats {
    /// Switch-to-switch links (each counted once).
    pub links: u64,
    /// Links inside one cabinet.
    pub intra_cabinet: u64,
    /// Total cable length, cm.
    pub total_cm: u64,
    /// Longest cable, cm (0 without links).
    pub max_cm: u32,
}

impl CableStats {
    /// Average cable length per link in metres (0 without links).
    pub fn average_m(&self) -> f64 {
        if self.links == 0 {
            0.0
        } else {
            self.total_cm as f64 / (100.0 * self.links as f64)
        }
    }

    /// Average cable length as the exact ratio `(total_cm, links)`.
    pub fn average_cm_ratio(&self) -> (u64, u64) {
        (self.total_cm, self.links)
    }

    /// Links between cabinets.
    pub fn inter_cabinet(&self) -> u64 {
        self.links - self.intra_cabinet
    }
}

/// Cable statistics of `t`'s switch-to-switch links under `layout` (each link counted once,
/// from its end with the smaller `(switch, port)`). Errors when the layout was made for a
/// different number of switches.
pub fn cable_stats<T: Topology + ?Sized>(
    t: &T,
    layout: &CabinetLayout,
) -> Result<CableStats, MetricsError> {
    check_layout(t, layout)?;
    let mut st = CableStats {
        links: 0,
        intra_cabinet: 0,
        total_cm: 0,
        max_cm: 0,
    };
    for_each_cable(t, layout, |len| {
        st.links += 1;
        if len == INTRA_CABINET_CM {
            st.intra_cabinet += 1;
        }
        st.total_cm += len as u64;
        st.max_cm = st.max_cm.max(len);
    });
    Ok(st)
}

/// Errors unless `layout` covers exactly `t`'s switches.
pub(crate) fn check_layout<T: Topology + ?Sized>(
    t: &T,
    layout: &CabinetLayout,
) -> Result<(), MetricsError> {
    if layout.switches() != t.num_switches() {
        return Err(MetricsError::Invalid(InvalidParam {
            param: "switches",
            value: layout.switches() as u64,
            rule: "the cabinet layout must be made for the topology's number of switches",
        }));
    }
    Ok(())
}

/// Calls `f(length_cm)` once per switch-to-switch link of `t`.
pub(crate) fn for_each_cable<T: Topology + ?Sized>(
    t: &T,
    layout: &CabinetLayout,
    mut f: impl FnMut(u32),
) {
    let radix = t.radix();
    for s in 0..t.num_switches() {
        for p in 0..radix {
            if let Port::Link(l) = t.port(s, p) {
                if (s, p) < (l.peer, l.peer_port) {
                    f(layout.cable_cm(s, l.peer));
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn grid_of_1024_switches() {
        // C = 128 cabinets, r = ceil(sqrt(128)) = 12, c = ceil(128/12) = 11.
        let l = CabinetLayout::new(1024, CabinetOrder::RowMajor).unwrap();
        assert_eq!((l.cabinets(), l.grid()), (128, (12, 11)));
        assert_eq!(l.position(12), (1, 1));
        let b = CabinetLayout::new(1024, CabinetOrder::Boustrophedon).unwrap();
        assert_eq!(b.position(12), (1, 9));
        assert_eq!(b.position(11), (1, 10));
        assert_eq!(b.position(22), (2, 0));
        // Same cabinet, next cabinet in the row, one row down.
        assert_eq!(l.cable_cm(0, 7), 100);
        assert_eq!(l.cable_cm(0, 8), 260);
        assert_eq!(l.cable_cm(0, 8 * 11), 410);
        assert_eq!(b.cable_cm(8 * 10, 8 * 11), 410);
        assert_eq!(l.cable_cm(8 * 10, 8 * 11), 200 + 600 + 210);
    }

    #[test]
    fn small_layouts() {
        for (n, cab, grid) in [
            (1, 1, (1, 1)),
            (8, 1, (1, 1)),
            (9, 2, (2, 1)),
            (40, 5, (3, 2)),
        ] {
            let l = CabinetLayout::new(n, CabinetOrder::RowMajor).unwrap();
            assert_eq!((l.cabinets(), l.grid()), (cab, grid), "n = {n}");
        }
        assert!(CabinetLayout::new(0, CabinetOrder::RowMajor).is_err());
    }
}
