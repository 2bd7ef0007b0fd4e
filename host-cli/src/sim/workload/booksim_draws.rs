//! BookSim2's random draws for synthetic traffic (`draws = booksim`, docs/booksim.md §3.9):
//! its source (Bernoulli or on/off) and the draws of a new packet, from Knuth's two
//! generators seeded as BookSim2 seeds them (`RandomSeed(seed)`: `ran_start` and
//! `ranf_start`), in BookSim2's order.
//!
//! * [`BookSimSource`] — BookSim2's source (`TrafficManager::_Inject`): a terminal makes
//!   its trials (Bernoulli's `RandomFloat() < rate` or the on/off chain's, [`Trial`]; one
//!   per cycle of its queue time) only while it holds no packet; when its last packet has
//!   left it catches up on the cycles it missed, and a packet made for a past cycle is
//!   dated back to it (BookSim2's `include_queuing`). In the drain of a latency run a
//!   terminal is drained once its queue time has passed the drain's start.
//! * [`BookSimDraws::packet`] — a new packet's draws (`_GeneratePacket`): its size when
//!   sizes are drawn (`RandomInt`), its destination when the pattern draws one
//!   (`TrafficPattern::dest`), and the subnetwork (`RandomInt(subnets − 1)`, drawn even
//!   with one subnetwork).

use jumpnet_core::rng::knuth::RanStream;
use jumpnet_core::rng::knuth_float::RanfStream;
use jumpnet_core::traffic::DestPattern;

use crate::sim::config::PacketSizes;

/// Knuth's two generators of one run, as BookSim2 seeds them.
#[derive(Clone, Debug)]
pub struct BookSimDraws {
    /// `RandomInt`'s stream (Knuth's `ran_array`).
    pub ran: RanStream,
    /// `RandomFloat`'s stream (Knuth's `ranf_array`).
    pub ranf: RanfStream,
}

/// What a new packet's destination draw needs to know of the traffic.
#[derive(Clone, Copy, Debug)]
pub struct PatternDraw<'a> {
    /// The pattern.
    pub pattern: DestPattern,
    /// Terminals.
    pub nodes: u32,
    /// `hotspots`' `[node, weight, …]` pairs.
    pub pairs: &'a [u32],
}

impl BookSimDraws {
    /// Knuth's generator as BookSim2 finds it before it seeds it: at the default seed 314159.
    pub fn unseeded() -> RanStream {
        RanStream::new(314_159)
    }

    /// The generators of seed `seed` (BookSim2's `RandomSeed(seed)`).
    pub fn new(seed: u64) -> Self {
        // BookSim2 reads `seed` as an `int` and seeds with it as a `long`.
        let seed = i64::from(seed as i32);
        BookSimDraws {
            ran: RanStream::new(seed),
            ranf: RanfStream::new(seed),
        }
    }

    /// The draws of a new packet from `src` in BookSim2's order: its size (from `sizes`,
    /// else `fixed`), its destination if the pattern draws it here (`None`: the caller
    /// computes it, drawing nothing from these generators), then the subnetwork. In batch
    /// mode (`batch`) BookSim2 draws a size once more before them, whose value only says
    /// that a packet is issued (`BatchTrafficManager::_IssuePacket` returns
    /// `_GetNextPacketSize`, and `_GeneratePacket` draws the packet's own).
    pub fn packet(
        &mut self,
        src: u32,
        sizes: Option<&PacketSizes>,
        fixed: u16,
        traffic: PatternDraw<'_>,
        batch: bool,
    ) -> (u16, Option<u32>) {
        if let Some(d) = sizes.filter(|d| batch && d.total() > 1) {
            self.ran.random_int((d.total() - 1) as u32);
        }
        let len = match sizes {
            Some(d) if d.total() > 1 => {
                // `_GetNextPacketSize`: `RandomInt(max_val)`, `max_val` the rates' sum − 1.
                let pct = self.ran.random_int((d.total() - 1) as u32);
                d.pick(u64::from(pct))
            }
            Some(d) => d.pick(0),
            None => fixed,
        };
        let dst = self.dest(src, traffic);
        // `RandomInt(_subnets - 1)` with one subnetwork: a value drawn and not used.
        self.ran.random_int(0);
        (len, dst)
    }

    /// BookSim2's destination draw of the random patterns it shares with jumpnet
    /// (`traffic.cpp`); `None` for a deterministic pattern (nothing drawn) and for those
    /// whose draws are jumpnet's (`taper64`, whose two draws in one C++ expression have no
    /// defined order, and jumpnet's own `hotspot` fraction).
    fn dest(&mut self, src: u32, t: PatternDraw<'_>) -> Option<u32> {
        let n = t.nodes;
        Some(match t.pattern {
            DestPattern::Uniform => self.ran.random_int(n - 1),
            DestPattern::Diagonal => {
                if self.ran.random_int(2) == 0 {
                    (src + 1) % n
                } else {
                    src
                }
            }
            DestPattern::Asymmetric => {
                let half = n / 2;
                src % half.max(1) + if self.ran.random_int(1) != 0 { half } else { 0 }
            }
            DestPattern::BadDragon { k } => {
                let group = 2 * k * k;
                (self.ran.random_int(group - 1) + (src / group + 1) * group) % n
            }
            DestPattern::Taper64 => {
                if self.ran.random_int(1) != 0 {
                    // `(64 + s + 8·(RandomInt(2) − 1) + (RandomInt(2) − 1)) % 64`: C++ leaves
                    // the order of the two draws open; BookSim2 as built by GCC on x86-64
                    // draws the row's first (checked side by side, docs/booksim.md §3.9).
                    let row = self.ran.random_int(2);
                    let col = self.ran.random_int(2);
                    (64 + src + 8 * row + col - 9) % 64
                } else {
                    self.ran.random_int(n - 1)
                }
            }
            DestPattern::Hotspots => match t.pairs {
                [node, _] => *node,
                pairs => {
                    let total: u64 = pairs.chunks(2).map(|p| u64::from(p[1])).sum();
                    let mut pct = u64::from(self.ran.random_int((total - 1) as u32));
                    let mut last = 0;
                    for p in pairs.chunks(2) {
                        last = p[0];
                        if u64::from(p[1]) > pct {
                            return Some(p[0]);
                        }
                        pct -= u64::from(p[1]);
                    }
                    last
                }
            },
            _ => return None,
        })
    }
}

/// The trial of one cycle of BookSim2's source (`InjectionProcess::test`).
#[derive(Clone, Debug)]
pub enum Trial {
    /// Bernoulli (`BernoulliInjectionProcess`): a packet with probability `rate`, packets per
    /// terminal and cycle (BookSim2's `_load`, divided by the mean packet size with
    /// `injection_rate_uses_flits`).
    Bernoulli {
        /// The probability, as [`units_below`].
        rate: u64,
    },
    /// On/off (`OnOffInjectionProcess`): each terminal's chain advances (an on terminal
    /// turns off when `RandomFloat() >= beta`, an off one on when `RandomFloat() < alpha`),
    /// then an on terminal makes a packet when `RandomFloat() < r1`.
    OnOff {
        /// `(alpha, beta, r1)`, the derived one in BookSim2's arithmetic, as
        /// [`units_below`].
        p: (u64, u64, u64),
        /// Each terminal's state.
        on: Vec<bool>,
    },
}

impl Trial {
    /// On/off sources whose first states BookSim2 draws (`RandomInt(1)` per node, node by
    /// node, class after class) before it seeds its generators, i.e. from Knuth's generator
    /// at its default seed 314159 (`ran_arr_cycle` starts it there when nothing seeded it):
    /// `unseeded` is that stream, as far as earlier classes drew from it
    /// ([`BookSimDraws::unseeded`]).
    pub fn on_off(
        nodes: u32,
        (alpha, beta, r1): (f64, f64, f64),
        unseeded: &mut RanStream,
    ) -> Self {
        let on = (0..nodes).map(|_| unseeded.random_int(1) == 1).collect();
        let p = (units_below(alpha), units_below(beta), units_below(r1));
        Trial::OnOff { p, on }
    }

    /// Bernoulli trials of probability `rate`.
    pub fn bernoulli(rate: f64) -> Self {
        Trial::Bernoulli {
            rate: units_below(rate),
        }
    }

    /// Terminal `t`'s trial of one cycle: whether it makes a packet.
    #[inline]
    fn test(&mut self, t: usize, ranf: &mut RanfStream) -> bool {
        match self {
            Trial::Bernoulli { rate } => ranf.next_units() < *rate,
            Trial::OnOff {
                p: (alpha, beta, r1),
                on,
            } => {
                on[t] = if on[t] {
                    ranf.next_units() >= *beta
                } else {
                    ranf.next_units() < *alpha
                };
                on[t] && ranf.next_units() < *r1
            }
        }
    }
}

/// How many values of `RandomFloat()` (multiples of 2^−52 in `[0, 1)`) lie below `p`: a
/// value `u · 2^−52` is below `p` exactly when `u < units_below(p)`, i.e. `⌈p · 2^52⌉`
/// (exact: scaling by a power of two), 0 for `p ≤ 0` or NaN (C++'s `x < NaN` is false),
/// 2^52 for `p ≥ 1`.
pub fn units_below(p: f64) -> u64 {
    const ONE: f64 = (1u64 << 52) as f64;
    if p.is_nan() || p <= 0.0 {
        0
    } else if p >= 1.0 {
        1 << 52
    } else {
        (p * ONE).ceil() as u64
    }
}

/// BookSim2's source of every terminal (module documentation).
#[derive(Clone, Debug)]
pub struct BookSimSource {
    /// The trial of a cycle.
    trial: Trial,
    /// The offered load, flits per terminal and cycle (the configured mean rate).
    offered: f64,
    /// Per terminal: the cycle of its next trial (BookSim2's `_qtime`).
    qtime: Vec<u64>,
    /// The drain's first cycle (BookSim2's `_drain_time`), once it started.
    drain_time: Option<u64>,
    /// Per terminal: its queue time passed the drain's start (`_qdrained`).
    drained: Vec<bool>,
    /// Terminals not drained.
    undrained: usize,
}

impl BookSimSource {
    /// The source of `nodes` terminals, each making its trial `trial` per cycle, offering
    /// `offered` flits per cycle on average.
    pub fn new(nodes: u32, trial: Trial, offered: f64) -> Self {
        BookSimSource {
            trial,
            offered,
            qtime: vec![0; nodes as usize],
            drain_time: None,
            drained: vec![false; nodes as usize],
            undrained: nodes as usize,
        }
    }

    /// Terminal `t` at cycle `now`, `idle` when it holds no packet: the cycle a new packet
    /// is dated to, if its trials make one (`ranf` draws them). (Always inlined: one call a
    /// terminal and cycle.)
    #[inline(always)]
    pub fn fire(&mut self, t: u32, now: u64, idle: bool, ranf: &mut RanfStream) -> Option<u64> {
        if !idle {
            return None;
        }
        let ti = t as usize;
        let mut q = self.qtime[ti];
        let mut made = None;
        while q <= now {
            let at = q;
            q += 1;
            if self.trial.test(ti, ranf) {
                made = Some(at);
                break;
            }
        }
        self.qtime[ti] = q;
        if self.drain_time.is_some() {
            self.mark_drained(ti);
        }
        made
    }

    /// In the drain: terminal `ti` is drained once its queue time passed the drain's start.
    #[cold]
    fn mark_drained(&mut self, ti: usize) {
        if let Some(d) = self.drain_time {
            if self.qtime[ti] > d && !self.drained[ti] {
                self.drained[ti] = true;
                self.undrained -= 1;
            }
        }
    }

    /// The offered load, flits per terminal and cycle: past saturation the packets made
    /// fall short of it, since a busy terminal makes no trials.
    pub fn offered(&self) -> f64 {
        self.offered
    }

    /// Whether the trials are the on/off chain's.
    pub fn on_off(&self) -> bool {
        matches!(self.trial, Trial::OnOff { .. })
    }

    /// The drain starts at cycle `now`.
    pub fn start_drain(&mut self, now: u64) {
        self.drain_time = Some(now);
    }

    /// The drain's first cycle, once it started.
    pub fn drain_time(&self) -> Option<u64> {
        self.drain_time
    }

    /// Whether a terminal still has to catch up to the drain's start (BookSim2's drain
    /// waits for it: `_PacketsOutstanding`).
    pub fn undrained(&self) -> bool {
        self.drain_time.is_some() && self.undrained > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_source_catches_up_and_dates_its_packet_back() {
        // Rate 1: every trial makes a packet.
        let mut s = BookSimSource::new(2, Trial::bernoulli(1.0), 1.0);
        let mut f = RanfStream::new(0);
        assert_eq!(s.fire(0, 0, true, &mut f), Some(0));
        // Busy at 1 and 2: no trials.
        assert_eq!(s.fire(0, 1, false, &mut f), None);
        assert_eq!(s.fire(0, 2, false, &mut f), None);
        // Idle at 3: the trial of cycle 1 makes the packet, dated 1.
        assert_eq!(s.fire(0, 3, true, &mut f), Some(1));
        assert_eq!(s.fire(0, 3, true, &mut f), Some(2));
        assert_eq!(s.fire(0, 3, true, &mut f), Some(3));
        assert_eq!(s.fire(0, 3, true, &mut f), None);
    }

    #[test]
    fn rate_zero_advances_the_queue_time_and_drains() {
        let mut s = BookSimSource::new(1, Trial::bernoulli(0.0), 0.0);
        let mut f = RanfStream::new(0);
        assert_eq!(s.fire(0, 4, true, &mut f), None);
        s.start_drain(10);
        assert!(s.undrained());
        assert_eq!(s.fire(0, 9, true, &mut f), None);
        assert!(s.undrained(), "queue time 10 is not past the drain's start");
        assert_eq!(s.fire(0, 10, true, &mut f), None);
        assert!(!s.undrained());
    }

    #[test]
    fn trials_are_booksims_random_float_against_the_rate() {
        // The first values of `ranf_start(7)` decide the trials: a packet exactly where
        // the value is below the rate.
        let mut probe = RanfStream::new(7);
        let u: Vec<f64> = (0..20).map(|_| probe.next_f64()).collect();
        let mut s = BookSimSource::new(1, Trial::bernoulli(0.5), 0.5);
        let mut f = RanfStream::new(7);
        let made: Vec<bool> = (0..20)
            .map(|c| s.fire(0, c, true, &mut f).is_some())
            .collect();
        let want: Vec<bool> = u.iter().map(|&x| x < 0.5).collect();
        assert_eq!(made, want);
        assert!(made.contains(&true) && made.contains(&false));
    }

    #[test]
    fn on_off_starts_from_the_unseeded_generator_and_draws_booksims_chain() {
        let mut first = RanStream::new(314_159);
        let want: Vec<bool> = (0..8).map(|_| first.next_value() % 2 == 1).collect();
        let mut unseeded = BookSimDraws::unseeded();
        let Trial::OnOff { on, .. } = Trial::on_off(5, (0.5, 0.5, 0.4), &mut unseeded) else {
            unreachable!()
        };
        // A second class continues the stream.
        let Trial::OnOff { on: on2, .. } = Trial::on_off(3, (0.5, 0.5, 0.4), &mut unseeded) else {
            unreachable!()
        };
        assert_eq!([on, on2].concat(), want);
        // One cycle of an off terminal: one draw against alpha; on, a second against r1.
        let mut probe = RanfStream::new(2);
        let u: Vec<f64> = (0..3).map(|_| probe.next_f64()).collect();
        let mut t = Trial::OnOff {
            p: (units_below(0.5), units_below(0.5), units_below(0.4)),
            on: vec![false],
        };
        let mut f = RanfStream::new(2);
        let turned_on = u[0] < 0.5;
        assert_eq!(t.test(0, &mut f), turned_on && u[1] < 0.4);
        let next = if turned_on { u[2] } else { u[1] };
        assert_eq!(f.next_f64(), next);
    }

    #[test]
    fn units_below_compares_as_the_f64_does() {
        let unit = 1.0 / (1u64 << 52) as f64;
        for p in [
            0.1,
            0.5,
            1.0 / 3.0,
            0.25 + unit / 2.0,
            1e-9,
            unit,
            0.999_999,
        ] {
            let t = units_below(p);
            for u in [t.saturating_sub(2), t.saturating_sub(1), t, t + 1] {
                assert_eq!(u < t, (u as f64) * unit < p, "p = {p}, u = {u}");
            }
        }
        assert_eq!(
            (units_below(0.0), units_below(-1.0), units_below(f64::NAN)),
            (0, 0, 0)
        );
        assert_eq!((units_below(1.0), units_below(2.0)), (1 << 52, 1 << 52));
    }

    #[test]
    fn a_packet_draws_size_destination_then_subnetwork() {
        let sizes = PacketSizes::parse("1:3,4:1,8:1").unwrap();
        let traffic = PatternDraw {
            pattern: DestPattern::Uniform,
            nodes: 64,
            pairs: &[],
        };
        let mut d = BookSimDraws::new(3);
        let mut probe = RanStream::new(3);
        let v: Vec<u32> = (0..8).map(|_| probe.next_value()).collect();
        let sizes = sizes.as_ref();
        assert_eq!(
            d.packet(5, sizes, 8, traffic, false),
            (sizes.unwrap().pick(u64::from(v[0] % 5)), Some(v[1] % 64))
        );
        // v[2] was the subnetwork's draw; a fixed size draws none.
        assert_eq!(d.packet(5, None, 8, traffic, false), (8, Some(v[3] % 64)));
        // A deterministic pattern draws only the subnetwork.
        let fixed = PatternDraw {
            pattern: DestPattern::Transpose,
            ..traffic
        };
        assert_eq!(d.packet(5, None, 8, fixed, false), (8, None));
        // v[5] was its subnetwork's draw.
        assert_eq!(d.packet(5, None, 8, traffic, false), (8, Some(v[6] % 64)));
        // In batch mode a size is drawn twice: the first says a packet is issued.
        let mut d = BookSimDraws::new(3);
        assert_eq!(
            d.packet(5, sizes, 8, traffic, true),
            (sizes.unwrap().pick(u64::from(v[1] % 5)), Some(v[2] % 64))
        );
    }
}
