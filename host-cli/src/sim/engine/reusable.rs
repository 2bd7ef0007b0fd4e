//! The engine reused for many runs of explicit packets (the GA's simulated fitness,
//! docs/mapping.md): [`Engine`] and how its runs end, [`Delivery`].

use jumpnet_core::routing::Routing;
use jumpnet_core::topology::Network;

use super::{SimError, State};
use crate::sim::config::{Injection, SimConfig};

/// How a run of explicit packets on an [`Engine`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Cycle of the last ejection, or the watchdog's cycle after a deadlock.
    pub cycles: u64,
    /// The watchdog fired (flits left in the network).
    pub deadlocked: bool,
}

/// A simulation engine reused for many runs of explicit packets (the GA's simulated fitness
/// runs one short batch per gene and pattern): queue packets with [`Engine::send`], run them
/// with [`Engine::deliver`], start over with [`Engine::reset`] — which frees and allocates
/// nothing, so a run costs no allocation once the buffers have grown. Every packet is
/// measured; the configuration's injection process is not used.
pub struct Engine<'r> {
    state: State<'r>,
}

impl std::fmt::Debug for Engine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.state.fmt(f)
    }
}

impl<'r> Engine<'r> {
    /// An engine for `net` routed by `routing` with the router parameters of `cfg`.
    pub fn new(
        net: &Network<'_>,
        routing: &'r dyn Routing,
        cfg: &SimConfig,
    ) -> Result<Self, SimError> {
        let mut c = cfg.clone();
        c.injection = Injection::Batch;
        let mut state = State::new(net, routing, &c)?;
        state.set_measuring(true);
        Ok(Engine { state })
    }

    /// Number of terminals.
    pub fn terminals(&self) -> u32 {
        self.state.terminals()
    }

    /// The configuration (its injection process is `Batch`).
    pub fn config(&self) -> &SimConfig {
        self.state.config()
    }

    /// The current cycle.
    pub fn now(&self) -> u64 {
        self.state.now()
    }

    /// Back to the state [`Engine::new`] builds: an empty network at cycle 0.
    pub fn reset(&mut self) {
        self.state.reset();
        self.state.set_measuring(true);
    }

    /// Queues a packet from terminal `src` to terminal `dst` at the current cycle (both below
    /// [`Engine::terminals`] and distinct, else an error).
    pub fn send(&mut self, src: u32, dst: u32) -> Result<(), SimError> {
        let n = self.terminals();
        if src >= n || dst >= n || src == dst {
            return Err(SimError::Config(format!("bad packet {src}→{dst}")));
        }
        self.state.create(src, dst);
        Ok(())
    }

    /// Runs until every queued packet is delivered or the watchdog fires.
    pub fn deliver(&mut self) -> Result<Delivery, SimError> {
        let deadlocked = self.state.run_to_delivery()?;
        Ok(Delivery {
            cycles: if deadlocked {
                self.state.now()
            } else {
                self.state.last_eject()
            },
            deadlocked,
        })
    }
}
