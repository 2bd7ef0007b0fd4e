//! The result of a HIL run ([`HilReport`]) and its table.

use serde::Serialize;

use super::run::EngineKind;
use super::trace::{Divergence, RunKey, TraceEvent};
use super::waveform::WaveformSummary;
use crate::io::output::{Render, Section};

/// Wall time and size of one run.
#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    /// Makespan in cycles (0 when the run stopped early).
    pub makespan_cycles: u64,
    /// Traced events.
    pub events: usize,
    /// Wall-clock seconds of the simulation.
    pub wall_seconds: f64,
}

/// Result of a HIL run.
#[derive(Debug, Serialize)]
pub struct HilReport {
    /// The run (the trace file's header).
    pub run: RunKey,
    /// The engine.
    pub engine: EngineKind,
    /// What the run was compared with.
    pub compared_with: String,
    /// The in-process reference run.
    pub reference: RunSummary,
    /// The run with the nodes' engines replaced.
    pub hil: RunSummary,
    /// Seconds spent starting and flashing devices / loading RTL before the run.
    pub setup_seconds: f64,
    /// HIL wall time over the reference's (pure simulation).
    pub slowdown: f64,
    /// Exec requests sent to the devices during the run (device engines).
    pub device_round_trips: u64,
    /// The deliberate program change, if any.
    pub mutation: Option<String>,
    /// The switch routed by the table router RTL, if any.
    pub rtl_router: Option<RtlRouterSummary>,
    /// The first divergence (exit status 1), if any.
    pub divergence: Option<Divergence>,
    /// The waveform the run wrote (`--vcd`: a diverging RTL run again), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waveform: Option<WaveformSummary>,
    /// The HIL run's trace (for `--record`).
    #[serde(skip)]
    pub trace: Vec<TraceEvent>,
}

/// The switch whose forwarding stage ran on the table router RTL.
#[derive(Clone, Debug, Serialize)]
pub struct RtlRouterSummary {
    /// The switch.
    pub switch: u32,
    /// Runs of its compiled table loaded into the RTL.
    pub table_runs: usize,
    /// Head flits the in-process routing routed at the switch in the reference run.
    pub reference_heads: u64,
    /// Head flits the RTL routed (looked up and moved) in the HIL run.
    pub rtl_lookups: u64,
    /// The deliberate table change, if any.
    pub mutation: Option<String>,
    /// The first head flit the RTL routed differently from the reference (exit status 1).
    pub hop_difference: Option<String>,
}

impl HilReport {
    /// The first head flit the RTL router routed differently from the reference, if any.
    pub fn hop_difference(&self) -> Option<&str> {
        self.rtl_router.as_ref()?.hop_difference.as_deref()
    }

    /// What the run ended with, as the table says it.
    fn result_text(&self) -> String {
        match (&self.divergence, self.hop_difference()) {
            (Some(d), _) => format!("DIVERGENCE at event {}", d.index),
            (None, Some(_)) => "DIVERGENCE at the RTL router's switch".to_string(),
            (None, None) => "identical traces".to_string(),
        }
    }

    /// The rows of the devices, the mutation and the RTL router.
    fn extra_rows(&self, s: &mut Section) {
        if self.engine == EngineKind::Device {
            s.kv("device exec round trips", self.device_round_trips);
            if self.device_round_trips > 0 {
                s.kv(
                    "ms per round trip",
                    format!(
                        "{:.3}",
                        1e3 * self.hil.wall_seconds / self.device_round_trips as f64
                    ),
                );
            }
        }
        if let Some(m) = &self.mutation {
            s.kv("deliberate mutation", m);
        }
        if let Some(r) = &self.rtl_router {
            s.kv("rtl router switch", r.switch)
                .kv("rtl router table runs", r.table_runs)
                .kv("rtl router lookups", r.rtl_lookups)
                .kv("reference head flits at the switch", r.reference_heads);
            if let Some(m) = &r.mutation {
                s.kv("deliberate table mutation", m);
            }
            if let Some(d) = &r.hop_difference {
                s.kv("rtl router difference", d);
            }
        }
        if let Some(w) = &self.waveform {
            s.kv("waveform", w.path.display()).kv(
                "waveform cycles",
                w.cycles.map_or("none".into(), |c| c.to_string()),
            );
        }
    }
}

impl Render for HilReport {
    fn sections(&self) -> Vec<Section> {
        let mut s = Section::key_values("hardware-in-the-loop run");
        s.kv("topology", &self.run.topology)
            .kv("routing", &self.run.routing.built)
            .kv("collective", &self.run.collective.description)
            .kv("mapping", &self.run.mapping.kind)
            .kv("msg_bytes", self.run.msg_bytes)
            .kv("engine", self.engine.name())
            .kv("timing contract", self.run.timing.name())
            .kv("nodes", format!("{:?}", self.run.nodes))
            .kv("ranks", format!("{:?}", self.run.ranks))
            .kv("compared with", &self.compared_with)
            .kv("reference makespan_cycles", self.reference.makespan_cycles)
            .kv("hil makespan_cycles", self.hil.makespan_cycles)
            .kv("traced events", self.hil.events)
            .kv("result", self.result_text())
            .kv(
                "reference wall_seconds",
                format!("{:.4}", self.reference.wall_seconds),
            )
            .kv("hil wall_seconds", format!("{:.4}", self.hil.wall_seconds))
            .kv("setup wall_seconds", format!("{:.3}", self.setup_seconds))
            .kv("hil slowdown", format!("{:.1}x", self.slowdown));
        self.extra_rows(&mut s);
        vec![s]
    }
}
