//! Input-queued virtual-channel router: per input VC a FIFO of `vc_buf_size` flits;
//! a head flit becomes eligible `routing_delay + vc_alloc_delay + sw_alloc_delay` cycles
//! after it arrives, a body flit `sw_alloc_delay` cycles after; route computation calls the
//! core [`jumpnet_core::routing::Routing`], VC allocation takes a free physical
//! alias of the routing's VC on the output, switch allocation matches inputs to outputs
//! (one flit per input and per output per cycle) and switch traversal takes `st_delay`
//! cycles before the channel. Wormhole: the output VC stays with the packet until its tail
//! leaves; credit flow control: a flit leaves only with a credit of the downstream VC.
//!
//! A head flit's delays count from its arrival, also when it waits behind the previous
//! packet's tail in the same input VC; BookSim2 starts routing such a head only after the
//! tail has left, so back-to-back packets of one VC may leave a router up to
//! `routing_delay + vc_alloc_delay + sw_alloc_delay − 1` cycles (2 with BookSim2's
//! defaults) earlier here than in BookSim2; single packets, and packets on different VCs,
//! are timed alike.
//!
//! With an internal speedup `S` (`sim::router::speedup`) the router phase of a cycle runs the
//! cycle's internal steps, and the delays above follow BookSim2's step numbering: a flit
//! that arrives in cycle `c` enters the pipeline in the cycle's first step, each stage of
//! `d` cycles ends as [`Speedup::after_stage`] says, at most one flit per input and per
//! output crosses the switch per step, and a flit that left the switch waits in its
//! output's queue, which sends one flit per cycle (BookSim2 `_output_buffer`,
//! `_SendFlits`); the credits a port frees wait in its credit queue, which sends one per
//! cycle (`_credit_buffer`, `_SendCredits`). Neither queue needs storage here: a flit's or a
//! credit's departure cycle is known when it enters its FIFO, so it goes straight onto the
//! event wheel and the queue is one "free from cycle" number per port. With `S = 1` both
//! queues never hold more than the flit or credit of the current cycle and the timing is
//! the one above.
//!
//! An adaptive routing's candidates (UGAL) are weighed at route computation by the router's
//! credits: a port's occupancy is the flits it has sent whose credits have not come back
//! (buffered downstream or on the way), summed over its VCs ([`super::selection`]).
//!
//! A router step touches only its own router's state (`state::Range`) and reaches the rest
//! of the simulation through `Effects` (packet pool, channel events), so a range of routers
//! can step on its own thread (`sim::engine::partition`).
//!
//! BookSim2's optional behaviours (`sim::router::features`) each live in their own file:
//! crossbar input and output speedup (`crossbar`) and the order of the flits an output
//! takes in one step (`sw_order`), switch held for a packet (`hold`), VCs
//! released on the tail's credit (`tail_credit`), BookSim2's VC allocation stage
//! (`vc_stage`) and speculative switch allocation (`speculation`), the allocator calls
//! BookSim2's `max_size` allocator counts (`max_size`), and BookSim2's packet priorities of
//! an input VC (`priority`); off, none of them costs the router more than a predictable
//! branch.
//!
//! Files: the arrays and a range's slices (`state`), the router phase — deliveries, route
//! computation, VC and switch allocation (`step`) — and switch traversal (`traverse`) with
//! each port's channel ends (`links`).

mod buffers;
mod crossbar;
mod fast_div;
mod hold;
mod links;
mod max_size;
mod priority;
mod speculation;
pub(crate) mod state;
pub(crate) mod step;
mod sw_order;
mod tail_credit;
mod traverse;
mod vc_stage;
mod work;

use jumpnet_core::routing::{Routing, VcLayout};

use crate::sim::config::SimConfig;
use crate::sim::error::SimError;
use crate::sim::network::{Fabric, PortKind};
use crate::sim::router::alloc_ports::{AllocPorts, Numbering};
use crate::sim::router::allocator::Shape;
use crate::sim::router::priority::{ranks_priorities, Priority};
use crate::sim::router::speedup::Speedup;
use crate::sim::router::vc_allocator::VcAllocator;
use crate::sim::router::{Effects, Phase, RouterModel};
pub(crate) use crossbar::Lanes;
pub(crate) use fast_div::FastDiv;
use links::PortLink;
use state::{Arrays, Range, VcState};
use step::Work;

/// The parameters of every router, fixed for a run.
#[derive(Debug)]
pub(crate) struct Params {
    /// Ports per router.
    pub radix: usize,
    /// Physical VCs per channel.
    pub vcs: usize,
    /// Input VCs per router (`radix · vcs`).
    pub per: usize,
    /// Logical VCs of the routing.
    pub rvcs: u8,
    /// Distance between a link VC and its next alias (`vc_stage::vc_range`): `rvcs`, or
    /// `vc_stage::EXACT_STRIDE` (no alias) with `exact_vcs`.
    pub vc_stride: usize,
    /// A head ejects on its routing's VC only (`exact_vcs`, with the VC allocation stage).
    pub exact_vcs: bool,
    /// The routing's two VCs stand for the lower and upper half of a link's VCs instead of
    /// their aliases ([`VcLayout::Halves`], BookSim2's torus `dim_order`; docs/routing.md
    /// §2): see [`Params::link_vcs`].
    pub vc_halves: bool,
    /// Flits per input-VC buffer.
    pub buf: usize,
    /// `u64` words of a router's non-empty mask.
    pub words: usize,
    /// Allocator kind and shape.
    pub shape: Shape,
    /// Crossbar input and VC of each of a router's input VCs `port·vcs + vc`, and the lane
    /// of the port's crossbar outputs it uses (`crossbar`).
    pub port_vc: Vec<Lanes>,
    /// Input VC (or output VC) → router (division by `radix · vcs`).
    pub router_of: FastDiv,
    /// Per port (`s·radix + p`): its channels' ends and latencies (`links`).
    pub links: Vec<PortLink>,
    /// Credits of an empty VC buffer.
    pub vc_buf_size: u16,
    /// Pipeline delays, cycles.
    pub routing_delay: u16,
    pub vc_alloc_delay: u16,
    pub sw_alloc_delay: u16,
    /// `[routing_delay, vc_alloc_delay, sw_alloc_delay]`.
    pub head_delays: [u16; 3],
    pub st_delay: u64,
    /// BookSim2's crossbar with a delay above one cycle (`st_delay > 1`): flits cross in
    /// batches (`traverse::xbar_depart`, docs/booksim.md §5).
    pub xbar_batches: bool,
    /// Credit return delay beyond the channel latency, cycles.
    pub credit_delay: u64,
    /// The internal speedup (1: no output or credit queueing).
    pub speedup: Speedup,
    /// Most flits an output queue / an ejection queue may hold before its switch requests
    /// wait (with speedup only; `u64::MAX`: no limit, BookSim2's `output_buffer_size = -1`).
    pub out_limit: u64,
    pub eject_limit: u64,
    /// Flits leave the switch through output queues (internal speedup above 1, or an output
    /// speedup): `false` is the direct path of one flit per output per cycle.
    pub queued: bool,
    /// Crossbar inputs per input port / outputs per output port (`input_speedup`,
    /// `output_speedup`).
    pub in_speedup: usize,
    pub out_speedup: usize,
    /// The flits of one switch allocation cross in the order of BookSim2's switch
    /// allocation list (`sw_order`; with an output speedup and the VC allocation stage).
    pub sw_order: bool,
    /// A downstream VC is free only when the tail's credit came back (`tail_credit`).
    pub wait_tail: bool,
    /// The switch is held for a whole packet (`hold`).
    pub hold: bool,
    /// BookSim2's VC allocation stage (`vc_stage`) and its allocator.
    pub vc_stage: bool,
    /// Speculative switch allocation (`speculation`; with the VC allocation stage only).
    pub speculative: bool,
    /// BookSim2's packet priorities (`priority = …`, docs/booksim.md §3.5;
    /// `sim::router::priority`, `priority`): of an input's VCs that request one output, the
    /// one whose front flit has the highest priority crosses (`allocator::matched_vcs`), and
    /// the allocators that rank priorities rank by them. [`Priority::None`] without.
    pub priority: Priority,
    /// The VC allocator ranks its requests by priority (`priority`; with the VC allocation
    /// stage and an allocator that does, `sim::router::priority::ranks_priorities`).
    pub vc_ranked: bool,
    /// Buffer slots keep a stamp of their flit's arrival (`state::Arrays::stamps`:
    /// `local_age`, `queue_length`, `hop_count`).
    pub stamps: bool,
    /// BookSim2's read/write traffic (docs/booksim.md §3.6): the VCs `(first, last)` of a
    /// read request, write request, read reply and write reply (`Route::kind`); `None`
    /// without it, every packet taking every VC of its route.
    pub kind_vcs: Option<[(u8, u8); 4]>,
    /// `booksim_credits`: a credit is usable by switch allocation only from the cycle after
    /// it arrived (its arrival still frees a draining VC for that cycle's VC allocation),
    /// and terminals return ejection credits.
    pub eject_credits: bool,
    /// Most credits of one output VC that may arrive in one cycle and not be usable yet
    /// (`step::usable_credit`): 0 without `booksim_credits`, 1 with one internal step per
    /// cycle (a VC sends at most a flit per step), else any.
    pub fresh_max: u16,
    pub vc_alloc: VcAllocator,
    /// The run's seed: PIM's random draws (`router::pim`) start from it.
    pub seed: u64,
    /// BookSim2's numbering of each router's inputs and outputs where it is not its ports'
    /// (a butterfly's) and the switch or the VC allocator counts ports
    /// (`router::alloc_ports`); `None` otherwise.
    pub alloc_ports: Option<AllocPorts>,
    /// Whether the switch allocator / the VC allocator allocates in `alloc_ports`'s
    /// numbering.
    pub sw_renumbered: bool,
    pub vc_renumbered: bool,
}

impl Params {
    /// The physical VCs of a link that routing VC `vc` stands for, as `(first, end,
    /// stride)` (`first, first + stride, …` below `end`): with [`Params::vc_halves`] VC 0
    /// the lower part `0..vcs − vcs/2` and VC 1 the upper half `vcs/2..vcs` (BookSim2's
    /// torus `dim_order`, an odd count sharing the middle VC), else `vc` and its aliases
    /// `vc + R, vc + 2R, …` ([`Params::vc_stride`]).
    #[inline]
    pub(crate) fn link_vcs(&self, vc: u8) -> (usize, usize, usize) {
        if self.vc_halves {
            let half = self.vcs / 2;
            if vc == 0 {
                (0, self.vcs - half, 1)
            } else {
                (half, self.vcs, 1)
            }
        } else {
            (usize::from(vc), self.vcs, self.vc_stride)
        }
    }

    /// Index in the routers' slot slice of position `pos` of input VC `li` (`port·vcs + vc`)
    /// of local router `ls` (`buffers::index`).
    #[inline]
    pub(crate) fn slot(&self, ls: usize, li: usize, pos: usize) -> usize {
        buffers::index(self.per, self.buf, ls, li, pos)
    }

    /// The pipeline stages, in cycles, from a head's arrival (or the tail in front of it
    /// leaving) to the step it next acts in: switch allocation after route computation and
    /// VC allocation, or VC allocation after route computation with the VC allocation stage
    /// (`vc_stage`).
    pub fn head_stages(&self) -> &[u16] {
        if self.vc_stage {
            core::slice::from_ref(&self.routing_delay)
        } else {
            &self.head_delays
        }
    }

    /// Router `s`'s numbering for the switch allocator, when it allocates in BookSim2's
    /// (`alloc_ports`).
    #[inline]
    pub fn switch_numbering(&self, s: usize) -> Option<&Numbering> {
        self.alloc_ports
            .as_ref()
            .filter(|_| self.sw_renumbered)
            .map(|a| a.of(s))
    }

    /// Router `s`'s numbering for the VC allocator, when it allocates in BookSim2's.
    #[inline]
    pub fn vc_numbering(&self, s: usize) -> Option<&Numbering> {
        self.alloc_ports
            .as_ref()
            .filter(|_| self.vc_renumbered)
            .map(|a| a.of(s))
    }

    /// The switch allocator's shape at router `s`: [`Params::shape`], over BookSim2's inputs
    /// and outputs where the router renumbers them.
    #[inline]
    pub fn switch_shape(&self, s: usize) -> Shape {
        match self.switch_numbering(s) {
            Some(m) => m.shape(&self.shape, self.in_speedup as u16, self.out_speedup as u16),
            None => self.shape,
        }
    }

    fn new(fabric: &Fabric, cfg: &SimConfig, routing_vcs: u8, layout: VcLayout) -> Self {
        let radix = fabric.radix;
        let vcs = usize::from(cfg.num_vcs);
        let buf = usize::from(cfg.vc_buf_size);
        let vc_slots = vcs as u64 * buf as u64;
        let f = cfg.features;
        let (is, os) = (usize::from(f.input_speedup), usize::from(f.output_speedup));
        let sw_renumbered = cfg.allocator.counts_ports();
        let vc_renumbered = f.vc_alloc_stage && cfg.vc_allocator_kind().counts_ports();
        let alloc_ports = if sw_renumbered || vc_renumbered {
            AllocPorts::new(fabric)
        } else {
            None
        };
        Params {
            radix,
            vcs,
            per: radix * vcs,
            rvcs: routing_vcs.max(1),
            vc_stride: if f.exact_vcs {
                vc_stage::EXACT_STRIDE
            } else {
                usize::from(routing_vcs.max(1))
            },
            exact_vcs: f.exact_vcs,
            vc_halves: layout == VcLayout::Halves && routing_vcs == 2 && !f.exact_vcs,
            buf,
            words: (radix * vcs).div_ceil(64),
            shape: Shape {
                kind: cfg.allocator,
                ins: (radix * is) as u16,
                outs: (radix * os) as u16,
                vcs: cfg.num_vcs,
                iters: f.alloc_iters,
            },
            port_vc: {
                let lanes = crossbar::input_numbers(fabric);
                (0..radix * vcs)
                    .map(|li| Lanes::of(li / vcs, li % vcs, is, os, lanes[li / vcs]))
                    .collect()
            },
            router_of: FastDiv::new((radix * vcs) as u32),
            links: links::port_links(fabric, vcs),
            vc_buf_size: cfg.vc_buf_size,
            routing_delay: cfg.routing_delay,
            vc_alloc_delay: cfg.vc_alloc_delay,
            sw_alloc_delay: cfg.sw_alloc_delay,
            head_delays: [cfg.routing_delay, cfg.vc_alloc_delay, cfg.sw_alloc_delay],
            st_delay: u64::from(cfg.st_delay),
            xbar_batches: cfg.st_delay > 1,
            credit_delay: u64::from(cfg.credit_delay),
            speedup: cfg.internal_speedup,
            out_limit: cfg.output_buffer_size.map_or(u64::MAX, u64::from),
            // With BookSim2's ejection credits those bound the ejection queue as a link's
            // bound its output queue; without them the terminal's input VCs do.
            eject_limit: if f.booksim_credits {
                cfg.output_buffer_size.map_or(u64::MAX, u64::from)
            } else {
                cfg.output_buffer_size
                    .map_or(vc_slots, |n| u64::from(n).min(vc_slots))
            },
            queued: !cfg.internal_speedup.is_one() || os > 1,
            in_speedup: is,
            out_speedup: os,
            sw_order: os > 1 && f.vc_alloc_stage,
            wait_tail: f.wait_for_tail_credit,
            hold: f.hold_switch_for_packet,
            vc_stage: f.vc_alloc_stage,
            speculative: f.vc_alloc_stage && f.speculative,
            priority: cfg.extras.priority,
            vc_ranked: cfg.extras.priority.is_on()
                && f.vc_alloc_stage
                && ranks_priorities(cfg.vc_allocator_kind()),
            stamps: matches!(
                cfg.extras.priority,
                Priority::LocalAge | Priority::QueueLength | Priority::HopCount
            ),
            kind_vcs: cfg.extras.read_write.as_ref().map(|rw| rw.vcs),
            eject_credits: f.booksim_credits,
            fresh_max: match (f.booksim_credits, cfg.internal_speedup.is_one()) {
                (false, _) => 0,
                (true, true) => 1,
                (true, false) => u16::MAX,
            },
            seed: cfg.seed,
            vc_alloc: VcAllocator {
                kind: cfg.vc_allocator_kind(),
                ins: (radix * vcs) as u16,
                outs: (radix * vcs) as u16,
            },
            sw_renumbered: sw_renumbered && alloc_ports.is_some(),
            vc_renumbered: vc_renumbered && alloc_ports.is_some(),
            alloc_ports,
        }
    }
}

/// The input-queued routers of a network: their parameters and arrays.
#[derive(Debug)]
pub(crate) struct InputQueuedRouter {
    k: Params,
    a: Arrays,
}

impl RouterModel for InputQueuedRouter {
    type Work = Work;
    type Range<'a> = Range<'a>;

    fn new(fabric: &Fabric, cfg: &SimConfig, routing_vcs: u8, layout: VcLayout) -> Self {
        let k = Params::new(fabric, cfg, routing_vcs, layout);
        let a = Arrays::new(&k, fabric.switches as usize);
        InputQueuedRouter { k, a }
    }

    fn work(&self, routers: usize) -> Work {
        Work::new(routers, &self.k)
    }

    fn reset_work(work: &mut Work) {
        work.reset();
    }

    fn range(&mut self) -> Range<'_> {
        Range::all(&self.k, &mut self.a)
    }

    fn split<'a>(range: Range<'a>, mid: usize) -> (Range<'a>, Range<'a>)
    where
        Self: 'a,
    {
        range.split_at(mid)
    }

    #[inline(always)]
    fn step<R: Routing + ?Sized, E: Effects>(
        range: &mut Range<'_>,
        ph: &Phase<'_, R>,
        work: &mut Work,
        fx: &mut E,
    ) -> Result<(), SimError> {
        step::step_range(range, ph, work, fx)
    }

    fn reset(&mut self) {
        self.a.reset(&self.k);
    }

    fn channel_flits(&self) -> &[u64] {
        &self.a.channel_flits
    }

    fn input_vcs(&self) -> usize {
        self.a.ivs.len()
    }

    /// Each delivery changes its own VC's buffer, ring, credit count and ready cycle and the
    /// router's sums and minima; the order among VCs counts only for BookSim2's allocation
    /// lists (`sw_order`: an arrival's place in them), kept with an output speedup.
    fn arrivals_commute(&self) -> bool {
        !self.k.sw_order
    }

    fn refill(range: &Range<'_>, work: &mut Work) {
        work.mark_active(range.buffered);
    }

    /// A blocked VC waits for buffer space (credits) or a free output VC of exactly one
    /// downstream input VC: the one of its route's VC on its output's peer.
    fn waits_for(&self, fabric: &Fabric, iv: usize) -> Option<usize> {
        let k = &self.k;
        let v = self.a.ivs.get(iv)?;
        if v.len == 0 {
            return None;
        }
        let s = iv / k.vcs / k.radix;
        let (port, vc) = match v.state() {
            VcState::Routed { port, vc } => (port, vc),
            VcState::Active {
                port,
                vc,
                eject: false,
            } => {
                let ov = (s * k.radix + usize::from(port)) * k.vcs + usize::from(vc);
                if self.a.credits.get(ov).is_none_or(|&c| c > 0) {
                    return None;
                }
                (port, vc)
            }
            _ => return None,
        };
        match fabric.ports.get(s * k.radix + usize::from(port)) {
            Some(&PortKind::Link { peer, peer_port }) => {
                Some((peer as usize * k.radix + usize::from(peer_port)) * k.vcs + usize::from(vc))
            }
            _ => None,
        }
    }
}
