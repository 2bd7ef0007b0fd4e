//! Whether the circulant network wins (\[DISS\]'s claim, docs/reference-results.md A8): the
//! figures ([`verdicts`]) and the claim they check ([`Verdict::claim`]).

use jumpnet_core::topology::{Family, Topology};

use super::render::size_label;
use super::{Inputs, MakespanRow, OtherTopology, Plan, Verdict};
use crate::study::claim::Claim;

/// The scenario's circulant topology (`gcirculant`/`circulant`, the first) and its largest
/// message size: where \[DISS\]'s claims are checked.
pub(super) fn circulant_at_largest(inp: &Inputs<'_>, plan: &Plan) -> Option<(usize, u64)> {
    let ci = inp
        .nets
        .iter()
        .position(|n| matches!(n.network().family(), Family::CirculantG | Family::Circulant))?;
    Some((ci, *plan.messages.iter().max()?))
}

/// Per collective at the largest message size: is the circulant network's best makespan
/// the shortest? Empty when the scenario has no circulant (`gcirculant`/`circulant`).
pub(super) fn verdicts(inp: &Inputs<'_>, plan: &Plan, rows: &[MakespanRow]) -> Vec<Verdict> {
    let Some((ci, size)) = circulant_at_largest(inp, plan) else {
        return Vec::new();
    };
    let label = |i: usize| inp.topologies[i].label.as_str();
    let mut out = Vec::new();
    for c in &plan.collectives {
        let name = c.name();
        let of = |topo: &str| -> Vec<&MakespanRow> {
            rows.iter()
                .filter(|r| r.topology == topo && r.collective == name && r.message_bytes == size)
                .collect()
        };
        let best = |rs: &[&MakespanRow]| -> Option<(f64, String)> {
            rs.iter()
                .min_by(|a, b| a.makespan_us.total_cmp(&b.makespan_us))
                .map(|r| (r.makespan_us, r.mapping.clone()))
        };
        let circ = of(label(ci));
        let Some(cb) = best(&circ) else { continue };
        let pct = |x: f64| (x / cb.0 - 1.0) * 100.0;
        let mapping_pct = |rs: &[&MakespanRow], m: &str| {
            rs.iter()
                .find(|r| r.mapping == m)
                .map(|r| pct(r.makespan_us))
        };
        let mut others = Vec::new();
        for i in (0..inp.nets.len()).filter(|&i| i != ci) {
            let rs = of(label(i));
            let Some(b) = best(&rs) else { continue };
            others.push(OtherTopology {
                label: label(i).to_string(),
                best_us: b.0,
                best_mapping: b.1,
                best_slower_pct: pct(b.0),
                random_slower_pct: mapping_pct(&rs, "random"),
                two_opt_slower_pct: mapping_pct(&rs, "two-opt"),
            });
        }
        let circulant_wins = others.iter().all(|o| o.best_us > cb.0);
        out.push(Verdict {
            collective: name,
            message_bytes: size,
            circulant: label(ci).to_string(),
            circulant_best: cb,
            others,
            circulant_wins,
        });
    }
    out
}

impl OtherTopology {
    /// `label best … µs (mapping, +x %)`, with the random and two-opt mappings when run.
    fn evidence(&self) -> String {
        let mut s = format!(
            "{} best {:.2} µs ({}, {:+.1} %)",
            self.label, self.best_us, self.best_mapping, self.best_slower_pct
        );
        if let Some(p) = self.random_slower_pct {
            s.push_str(&format!(", random {p:+.1} %"));
        }
        if let Some(p) = self.two_opt_slower_pct {
            s.push_str(&format!(", two-opt {p:+.1} %"));
        }
        s
    }
}

impl Verdict {
    /// \[DISS\]'s claim for this collective and size, checked: it holds when the
    /// circulant network's best makespan is strictly the shortest; the evidence is the
    /// verdict sentence of the report.
    pub fn claim(&self) -> Claim {
        let others: Vec<String> = self.others.iter().map(OtherTopology::evidence).collect();
        let size = size_label(self.message_bytes);
        Claim {
            claim: format!(
                "the circulant network has the shortest {} makespan at {size}",
                self.collective
            ),
            holds: self.circulant_wins,
            evidence: format!(
                "{} at {size}: {} {:.2} µs ({} mapping) vs {} — the circulant network {}.",
                self.collective,
                self.circulant,
                self.circulant_best.0,
                self.circulant_best.1,
                others.join("; "),
                if self.circulant_wins {
                    "wins"
                } else {
                    "does not win"
                }
            ),
            paper: "the circulant network finishes first (chapter 5)".into(),
            holds_when: "the circulant network's best makespan is strictly the shortest".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::claim::verdict;

    #[test]
    fn the_claim_holds_when_the_circulant_network_wins() {
        let v = Verdict {
            collective: "allreduce".into(),
            message_bytes: 1 << 20,
            circulant: "G(1024)".into(),
            circulant_best: (10.0, "circulant".into()),
            others: vec![OtherTopology {
                label: "random".into(),
                best_us: 15.0,
                best_mapping: "two-opt".into(),
                best_slower_pct: 50.0,
                random_slower_pct: Some(80.0),
                two_opt_slower_pct: None,
            }],
            circulant_wins: true,
        };
        let c = v.claim();
        assert!(verdict(
            std::slice::from_ref(&c),
            "the circulant network has"
        ));
        assert_eq!(
            c.evidence,
            "allreduce at 1 MiB: G(1024) 10.00 µs (circulant mapping) vs random best 15.00 µs \
             (two-opt, +50.0 %), random +80.0 % — the circulant network wins."
        );
        let lost = Verdict {
            circulant_wins: false,
            ..v
        };
        assert!(!lost.claim().holds);
        assert!(lost.claim().evidence.ends_with("does not win."));
    }
}
