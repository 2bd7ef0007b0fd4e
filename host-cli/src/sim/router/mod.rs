//! The router: the microarchitectures a run can simulate, behind one trait (`RouterModel`)
//! and a factory ([`RouterKind`], the `router` key; BookSim2's `NewRouter`, caminos-lib's
//! `new_router`). Today there is one: the input-queued virtual-channel router
//! ([`input_queued`]), with its switch allocators ([`allocator`], `islip_iters`,
//! [`wavefront`]), its VC allocator ([`vc_allocator`], [`wavefront`]), internal
//! speedup ([`speedup`]) and BookSim2's optional behaviours ([`features`]) and packet
//! priorities ([`priority`]); [`selection`] is how a router picks among an adaptive routing's
//! candidates with its congestion view; `alloc_ports` numbers a butterfly router's inputs
//! and outputs apart for the allocators, as BookSim2 does.
//!
//! A router model owns the per-router, per-port and per-VC state of every router of the
//! network. The engine (`sim::engine`) sees it only through the trait: it cuts the routers into
//! contiguous ranges for threads (`RouterModel::split`), runs the router phase of each range
//! (`RouterModel::step`) with the cycle's channel events, and reads back what statistics
//! and the deadlock watchdog need (flits per channel, which input VC waits for which).
//! Whatever a router phase does outside its routers — packet routing state, hop counts,
//! channel events, conservation violations — goes through `Effects`, which the engine
//! implements (applied at once, or logged per range and applied in range order).
//!
//! A second design is a new file here with a type implementing `RouterModel`, and one line in
//! the `router_kinds!` list below.

pub(crate) mod alloc_ports;
pub mod allocator;
pub mod features;
pub mod input_queued;
mod islip_iters;
mod loa;
pub mod maxsize;
mod pim;
pub mod priority;
mod select;
pub mod selection;
mod separable;
pub mod speedup;
pub mod vc_allocator;
pub mod vc_port;
pub mod wavefront;

#[cfg(test)]
mod features_tests;
#[cfg(test)]
mod maxsize_tests;
#[cfg(test)]
mod priority_tests;
#[cfg(test)]
mod speedup_tests;
#[cfg(test)]
mod wavefront_tests;

use jumpnet_core::routing::{PacketState, Routing, VcLayout};
use serde::Serialize;

use crate::sim::config::SimConfig;
use crate::sim::error::SimError;
use crate::sim::network::terminal::Route;
use crate::sim::network::{Event, Fabric, Flit};

/// What a router phase does outside its routers: reads and updates packets, schedules
/// channel events, reports what it saw.
pub(crate) trait Effects {
    /// The route record of packet `id`.
    fn route(&self, id: u32) -> &Route;
    /// BookSim2's priority of `flit` as its packet gives it (`priority = class`, `age`,
    /// `sequence`, `network_age`; 0 in the other modes: [`priority`]).
    fn flit_pri(&self, flit: Flit) -> u32;
    /// Sets packet `id`'s routing state.
    fn set_state(&mut self, id: u32, state: PacketState);
    /// Counts a router-to-router hop of packet `id`.
    fn add_hop(&mut self, id: u32);
    /// Schedules `ev` at cycle `at`.
    fn push(&mut self, at: u64, ev: Event);
    /// Counts a violation of flit conservation or flow control.
    fn violation(&mut self);
    /// Notes that a flit moved (the watchdog's progress).
    fn moved(&mut self);
}

/// What every router reads in the router phase of one cycle and nobody writes.
pub(crate) struct Phase<'a, R: ?Sized> {
    /// The port map.
    pub fabric: &'a Fabric,
    /// The routing.
    pub routing: &'a R,
    /// Whether the routing offers candidates (`Routing::congestion_scope` is not `None`).
    pub adaptive: bool,
    /// The cycle.
    pub cycle: u64,
    /// The channel events due this cycle (each range delivers the flits and credits of its
    /// routers).
    pub due: &'a [Event],
}

impl<'a, R: ?Sized> Phase<'a, R> {
    /// The same phase with routing `routing` (the thread-shareable one, say).
    pub fn with_routing<S: ?Sized>(&self, routing: &'a S) -> Phase<'a, S> {
        Phase {
            fabric: self.fabric,
            routing,
            adaptive: self.adaptive,
            cycle: self.cycle,
            due: self.due,
        }
    }
}

/// A router microarchitecture: the state of all routers of a network and their router phase.
///
/// Input VC `iv` and output VC `ov` are numbered `(s·radix + p)·vcs + v` for VC `v` of port
/// `p` of router `s` (the numbering of [`Event`]); channel `s·radix + p` leaves port `p` of
/// router `s`.
pub(crate) trait RouterModel: Send + Sized + 'static {
    /// Per-range scratch of a router phase (active set, allocation requests, …).
    type Work: Send + Sync + std::fmt::Debug;
    /// Mutable view of a contiguous range of routers.
    type Range<'a>: Send
    where
        Self: 'a;

    /// The routers of `fabric` with the parameters of `cfg`, for a routing of
    /// `routing_vcs` logical VCs laid onto the physical ones by `layout`
    /// (docs/routing.md §2).
    fn new(fabric: &Fabric, cfg: &SimConfig, routing_vcs: u8, layout: VcLayout) -> Self;

    /// Scratch for a range of `routers` routers.
    fn work(&self, routers: usize) -> Self::Work;

    /// Back to the state of [`RouterModel::work`], keeping the capacity.
    fn reset_work(work: &mut Self::Work);

    /// Every router, as one range.
    fn range(&mut self) -> Self::Range<'_>;

    /// Splits a range of routers `lo..hi` into `lo..mid` and `mid..hi`.
    fn split<'a>(range: Self::Range<'a>, mid: usize) -> (Self::Range<'a>, Self::Range<'a>)
    where
        Self: 'a;

    /// The router phase of `range` in cycle `ph.cycle`: delivers the flits and credits of
    /// `ph.due` that reach its routers, then steps them.
    fn step<R: Routing + ?Sized, E: Effects>(
        range: &mut Self::Range<'_>,
        ph: &Phase<'_, R>,
        work: &mut Self::Work,
        fx: &mut E,
    ) -> Result<(), SimError>;

    /// Empties every router and puts every counter and pointer back where
    /// [`RouterModel::new`] starts it, without allocating.
    fn reset(&mut self);

    /// Flits sent on each channel since cycle 0.
    fn channel_flits(&self) -> &[u64];

    /// Number of input VCs.
    fn input_vcs(&self) -> usize;

    /// The downstream input VC that input VC `iv`, blocked, waits for (buffer space or an
    /// output VC), if any.
    fn waits_for(&self, fabric: &Fabric, iv: usize) -> Option<usize>;

    /// Whether the flits and credits due to a router's different input and output VCs in
    /// one cycle may be delivered in any order: the router's state after the deliveries is
    /// the same.
    fn arrivals_commute(&self) -> bool;

    /// Marks the routers of `range` that hold flits as active in `work` (fresh from
    /// [`RouterModel::work`]) when the routers are cut anew between two cycles.
    fn refill(range: &Self::Range<'_>, work: &mut Self::Work);
}

/// Something built for the router model of a [`RouterKind`] (the engine builds its
/// partitioned routers with it).
pub(crate) trait ModelVisitor {
    /// What is built.
    type Output;
    /// Builds it for model `M`.
    fn visit<M: RouterModel>(self) -> Self::Output;
}

/// The factory: one line per router design, `Kind = "name" => model type`, the first one
/// the default.
macro_rules! router_kinds {
    (
        $(#[$first_doc:meta])* $first:ident = $first_name:literal => $first_model:ty,
        $( $(#[$doc:meta])* $kind:ident = $name:literal => $model:ty, )*
    ) => {
        /// The router microarchitecture of a run (the `router` key).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
        pub enum RouterKind {
            $(#[$first_doc])*
            #[default]
            $first,
            $( $(#[$doc])* $kind, )*
        }

        impl RouterKind {
            /// The names [`RouterKind::parse`] accepts.
            pub const ALLOWED: &'static str = concat!($first_name $(, ", ", $name)*);

            /// The design named `name`.
            pub fn parse(name: &str) -> Option<Self> {
                match name {
                    $first_name => Some(RouterKind::$first),
                    $( $name => Some(RouterKind::$kind), )*
                    _ => None,
                }
            }

            /// The name of the design.
            pub fn name(self) -> &'static str {
                match self {
                    RouterKind::$first => $first_name,
                    $( RouterKind::$kind => $name, )*
                }
            }

            /// `visitor` run on the design's model.
            pub(crate) fn visit<V: ModelVisitor>(self, visitor: V) -> V::Output {
                match self {
                    RouterKind::$first => visitor.visit::<$first_model>(),
                    $( RouterKind::$kind => visitor.visit::<$model>(), )*
                }
            }
        }
    };
}

router_kinds! {
    /// BookSim2's input-queued virtual-channel router ([`input_queued`]).
    InputQueued = "input_queued" => input_queued::InputQueuedRouter,
}

impl RouterKind {
    /// Whether this is the default design (configurations leave it out of their JSON).
    pub fn is_default(&self) -> bool {
        *self == RouterKind::default()
    }
}
