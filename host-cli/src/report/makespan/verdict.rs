//! Whether the circulant network wins (\[DISS\]'s claim, reference-results.md A8).

use jumpnet_core::topology::{Family, Topology};

use super::{Inputs, MakespanRow, OtherTopology, Plan, Verdict};

/// Per collective at the largest message size: is the circulant network's best makespan
/// the shortest? Empty when the scenario has no circulant (`gcirculant`/`circulant`).
pub(super) fn verdicts(inp: &Inputs<'_>, plan: &Plan, rows: &[MakespanRow]) -> Vec<Verdict> {
    let Some(ci) = inp
        .nets
        .iter()
        .position(|n| matches!(n.network().family(), Family::CirculantG | Family::Circulant))
    else {
        return Vec::new();
    };
    let Some(&size) = plan.messages.iter().max() else {
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
