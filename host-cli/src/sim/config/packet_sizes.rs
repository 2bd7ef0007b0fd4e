//! A packet size distribution (BookSim2's `packet_size = {{1,4,8}}` with
//! `packet_size_rate = {{3,1,1}}`, docs/booksim.md §3.5): every new packet's length is drawn
//! from a list of sizes, each with a relative rate, as BookSim2's
//! `TrafficManager::_GetNextPacketSize` draws it — a uniform integer below the sum of the
//! rates, walked through the rates in list order. The simulator key is `packet_sizes =
//! size:rate,size:rate,…` (`none`: every packet `packet_size` flits).

use jumpnet_core::rng::Rng;
use serde::Serialize;

/// Packet sizes and their relative rates (at least one size; the rates do not all vanish).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PacketSizes {
    /// The sizes, flits, in list order.
    pub sizes: Vec<u16>,
    /// The relative rate of each size (0: never drawn).
    pub rates: Vec<u32>,
}

impl PacketSizes {
    /// What `packet_sizes=` accepts.
    pub const ALLOWED: &'static str = "none, or size:rate pairs separated by commas (sizes \
        1..=65535 flits, rates 0..=4294967295 and not all 0; a rate left out is 1), e.g. \
        1:3,4:1,8:1";

    /// The distribution `size:rate,size:rate,…` (a rate left out is 1); `Some(None)` for
    /// `none` or an empty value, `None` for anything else.
    pub fn parse(value: &str) -> Option<Option<Self>> {
        let value = value.trim();
        if value.is_empty() || value == "none" {
            return Some(None);
        }
        let mut d = PacketSizes {
            sizes: Vec::new(),
            rates: Vec::new(),
        };
        for item in value.split(',') {
            let (s, r) = item.split_once(':').unwrap_or((item, "1"));
            let size: u16 = s.trim().parse().ok().filter(|&s| s > 0)?;
            d.sizes.push(size);
            d.rates.push(r.trim().parse().ok()?);
        }
        (d.total() > 0).then_some(Some(d))
    }

    /// The distribution as `packet_sizes=` takes it back.
    pub fn word(&self) -> String {
        let pairs: Vec<String> = (self.sizes.iter().zip(&self.rates))
            .map(|(s, r)| format!("{s}:{r}"))
            .collect();
        pairs.join(",")
    }

    /// The sum of the rates (BookSim2's `_packet_size_max_val + 1`).
    pub fn total(&self) -> u64 {
        self.rates.iter().map(|&r| u64::from(r)).sum()
    }

    /// The mean size, flits: `Σ size · rate / Σ rate` (BookSim2's `_GetAveragePacketSize`,
    /// which `injection_rate_uses_flits` divides the rate by).
    pub fn mean(&self) -> f64 {
        let sum: u64 = (self.sizes.iter().zip(&self.rates))
            .map(|(&s, &r)| u64::from(s) * u64::from(r))
            .sum();
        sum as f64 / self.total().max(1) as f64
    }

    /// The longest size that can be drawn.
    pub fn longest(&self) -> u16 {
        (self.sizes.iter().zip(&self.rates))
            .filter(|(_, &r)| r > 0)
            .map(|(&s, _)| s)
            .max()
            .unwrap_or(1)
    }

    /// The size of the draw `pct` (`0..total()`): the first size whose rate exceeds what is
    /// left of `pct` after the rates before it (BookSim2's walk).
    pub fn pick(&self, mut pct: u64) -> u16 {
        for (&s, &r) in self.sizes.iter().zip(&self.rates) {
            if u64::from(r) > pct {
                return s;
            }
            pct -= u64::from(r);
        }
        self.sizes.last().copied().unwrap_or(1)
    }

    /// A size drawn from `rng` (nothing is drawn with a single size, as in BookSim2).
    #[inline]
    pub fn draw(&self, rng: &mut Rng) -> u16 {
        match self.sizes.as_slice() {
            [one] => *one,
            _ => self.pick(rng.below(self.total())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_word_and_bad_values() {
        let d = PacketSizes::parse("1:3, 4:1,8").unwrap().unwrap();
        assert_eq!(
            (d.sizes.as_slice(), d.rates.as_slice()),
            (&[1, 4, 8][..], &[3, 1, 1][..])
        );
        assert_eq!(d.word(), "1:3,4:1,8:1");
        assert_eq!(PacketSizes::parse(&d.word()), Some(Some(d)));
        assert_eq!(PacketSizes::parse("none"), Some(None));
        assert_eq!(PacketSizes::parse(""), Some(None));
        for bad in ["0:1", "1:-1", "a", "1:0,2:0", "1:1,,2", "70000:1"] {
            assert_eq!(PacketSizes::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn mean_and_walk_are_booksims() {
        // {1,4,8} at {3,1,1}: (3 + 4 + 8) / 5 = 3 flits; draws 0..=2 → 1, 3 → 4, 4 → 8.
        let d = PacketSizes::parse("1:3,4:1,8:1").unwrap().unwrap();
        assert_eq!((d.total(), d.mean(), d.longest()), (5, 3.0, 8));
        let picks: Vec<u16> = (0..5).map(|p| d.pick(p)).collect();
        assert_eq!(picks, [1, 1, 1, 4, 8]);
        // A size of rate 0 is never drawn and is not the longest.
        let z = PacketSizes::parse("2:1,16:0,4:1").unwrap().unwrap();
        assert_eq!((z.total(), z.mean(), z.longest()), (2, 3.0, 4));
        assert_eq!([z.pick(0), z.pick(1)], [2, 4]);
    }

    #[test]
    fn draws_follow_the_rates() {
        let d = PacketSizes::parse("1:3,4:1,8:1").unwrap().unwrap();
        let mut rng = Rng::new(7);
        let mut n = [0u32; 3];
        for _ in 0..50_000 {
            n[match d.draw(&mut rng) {
                1 => 0,
                4 => 1,
                _ => 2,
            }] += 1;
        }
        // 30,000 / 10,000 / 10,000 expected; 4 standard deviations (< 450) apart at most.
        assert!(
            n[0].abs_diff(30_000) < 450 && n[1].abs_diff(10_000) < 450,
            "{n:?}"
        );
        // One size draws nothing.
        let one = PacketSizes::parse("6:2").unwrap().unwrap();
        let (mut a, b) = (Rng::new(1), Rng::new(1));
        assert_eq!(one.draw(&mut a), 6);
        assert_eq!(a, b);
    }
}
