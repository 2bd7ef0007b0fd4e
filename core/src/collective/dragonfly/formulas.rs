//! Link-utilisation formulas of [DF-BC] §III-E (docs/collectives.md §6,
//! docs/reference-results.md B1), as exact rationals.
//!
//! Dragonfly with `g` groups of `a` routers, `p` terminals per router and `h` global links
//! per router, `T = g·a·p` terminals, minimal routing, one global link per group pair.

/// An exact fraction `num / den` (`den > 0`).
#[derive(Clone, Copy, Debug)]
pub struct Ratio {
    /// Numerator.
    pub num: i128,
    /// Denominator (positive).
    pub den: i128,
}

impl Ratio {
    /// `num / den`.
    pub const fn new(num: i128, den: i128) -> Self {
        Ratio { num, den }
    }

    /// Nearest `f64` (for display; comparisons use the exact value).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `self · k`.
    pub fn scale(self, k: i128) -> Ratio {
        Ratio::new(self.num * k, self.den)
    }

    fn add(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.den + o.num * self.den, self.den * o.den)
    }
}

impl PartialEq for Ratio {
    fn eq(&self, o: &Ratio) -> bool {
        self.num * o.den == o.num * self.den
    }
}

/// Dragonfly parameters of the formulas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DragonflyParams {
    /// Groups.
    pub g: u64,
    /// Routers per group.
    pub a: u64,
    /// Terminals per router.
    pub p: u64,
    /// Global links per router.
    pub h: u64,
}

impl DragonflyParams {
    /// Terminals `T = g·a·p`.
    pub fn terminals(&self) -> i128 {
        (self.g * self.a * self.p) as i128
    }

    fn t1(&self) -> i128 {
        self.terminals() - 1
    }

    /// `P(same group) = (ap - 1)/(T - 1)` for two distinct random terminals.
    pub fn p_same_group(&self) -> Ratio {
        Ratio::new((self.a * self.p) as i128 - 1, self.t1())
    }

    /// `P(1 global link) = 1 - (ap - 1)/(T - 1)`.
    pub fn p_one_global(&self) -> Ratio {
        Ratio::new(self.t1() - ((self.a * self.p) as i128 - 1), self.t1())
    }

    /// `P(0 local links) = (p - 1)/(T - 1) + hp/(T - 1)`.
    pub fn p_zero_local(&self) -> Ratio {
        Ratio::new(self.p as i128 - 1 + (self.h * self.p) as i128, self.t1())
    }

    /// `P(1 local link) = (2h + 1)(a - 1)p/(T - 1)`.
    pub fn p_one_local(&self) -> Ratio {
        Ratio::new(
            ((2 * self.h + 1) * (self.a - 1) * self.p) as i128,
            self.t1(),
        )
    }

    /// `P(2 local links) = 1 - P(0) - P(1)`.
    pub fn p_two_local(&self) -> Ratio {
        let t1 = self.t1();
        Ratio::new(t1 - self.p_zero_local().num - self.p_one_local().num, t1)
    }

    /// TREE over `n` random terminals: `E[global] = (n - 1)·P(1 global)` (B1: 10,160.24).
    ///
    /// # Examples
    ///
    /// The \[DF-BC\] network `g = 129, a = 16, p = 8, h = 8` with TREE over 10,240 random
    /// terminals (docs/reference-results.md B1):
    ///
    /// ```
    /// use jumpnet_core::collective::dragonfly::formulas::DragonflyParams;
    ///
    /// let df = DragonflyParams { g: 129, a: 16, p: 8, h: 8 };
    /// assert_eq!(df.terminals(), 16_512);
    /// assert_eq!(df.tree_global(10_240).to_f64().round(), 10_160.0);
    /// // The paper's "+2" form gives its 19,122; the exact algebra ("−2") gives 19,124.87.
    /// assert_eq!(df.tree_local_paper(10_240).to_f64().round(), 19_122.0);
    /// assert_eq!(df.tree_local_exact(10_240).to_f64().round(), 19_125.0);
    /// // Topology-aware broadcasts: at most g − 1 global and 2(g − 1) + g(a − 1) local messages.
    /// assert_eq!((df.aware_global_bound(), df.aware_local_bound()), (128, 2_191));
    /// ```
    pub fn tree_global(&self, n: u64) -> Ratio {
        self.p_one_global().scale(n as i128 - 1)
    }

    /// TREE `E[local]` as printed by the paper: `(n - 1)(2 - (2 + p(1 + 2ha + a))/(T - 1))`
    /// (B1: 19,122.39; matches the paper's reported 19,122).
    pub fn tree_local_paper(&self, n: u64) -> Ratio {
        let k = (self.p * (1 + 2 * self.h * self.a + self.a)) as i128;
        Ratio::new(2 * self.t1() - (2 + k), self.t1()).scale(n as i128 - 1)
    }

    /// TREE `E[local]` from the paper's own probabilities, `(n - 1)(P(1) + 2·P(2))`
    /// `= (n - 1)(2 - (p(1 + 2ha + a) - 2)/(T - 1))` (B1: 19,124.87).
    pub fn tree_local_exact(&self, n: u64) -> Ratio {
        self.p_one_local()
            .add(self.p_two_local().scale(2))
            .scale(n as i128 - 1)
    }

    /// Global-link messages of LLF/GLF/FOREST are at most `g - 1`.
    pub fn aware_global_bound(&self) -> u64 {
        self.g.saturating_sub(1)
    }

    /// Local-link messages of LLF/GLF/FOREST are at most `2(g - 1) + g(a - 1)`.
    pub fn aware_local_bound(&self) -> u64 {
        2 * self.g.saturating_sub(1) + self.g * self.a.saturating_sub(1)
    }
}
