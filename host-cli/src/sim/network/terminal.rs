//! Terminals / NICs: an unbounded source queue of created packets, the injection
//! channel into the switch (one flit per cycle, credit flow control per VC) and the
//! ejection side that checks every flit arrives once, in order, at its destination.

use std::collections::VecDeque;

use crate::sim::config::Kind;

/// A packet waiting in a source queue.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    /// Destination terminal.
    pub dst: u32,
    /// Creation cycle.
    pub created: u64,
    /// Created during measurement.
    pub measured: bool,
    /// Message tag of collective traffic ([`NO_TAG`] for synthetic packets).
    pub tag: u32,
    /// Length in flits (the configuration's `packet_size` unless a collective's NIC asks
    /// for a shorter control packet).
    pub len: u16,
    /// Request or reply of BookSim2's read/write traffic (docs/booksim.md §3.6);
    /// [`Kind::Any`] otherwise.
    pub kind: Kind,
    /// With BookSim2's `priority = sequence` and traffic classes (docs/booksim.md §3.5): the
    /// packet's number among those its source issued (from 1; 0: not issued yet, another
    /// mode, or one class, whose packets are numbered as they start).
    pub seq: u32,
}

/// One terminal.
#[derive(Debug, Default)]
pub struct Terminal {
    /// Source queue (BookSim's infinite source queue).
    pub queue: VecDeque<Pending>,
    /// Packet being injected: pool id, next flit, VC.
    pub current: Option<(u32, u16, u8)>,
    /// Credits of the switch input VCs this terminal feeds.
    pub credits: Vec<u16>,
    /// In the active-terminal list.
    pub active: bool,
    /// VC of the last packet started (round robin of `inject_any_vc`).
    pub last_vc: u8,
}

/// A packet in flight (pool entry).
#[derive(Clone, Copy, Debug, Default)]
pub struct Packet {
    /// Source terminal.
    pub src: u32,
    /// Destination terminal.
    pub dst: u32,
    /// Creation cycle.
    pub created: u64,
    /// Cycle the head flit entered the injection channel.
    pub injected: u64,
    /// Flits received at the destination so far.
    pub received: u16,
    /// Measured packet.
    pub measured: bool,
    /// Message tag of collective traffic ([`NO_TAG`] for synthetic packets).
    pub tag: u32,
    /// Length in flits.
    pub len: u16,
    /// Traffic class (BookSim2's `classes`, docs/booksim.md §3.5; 0 with one class).
    pub class: u8,
    /// Request or reply of BookSim2's read/write traffic (docs/booksim.md §3.6);
    /// [`Kind::Any`] otherwise.
    pub kind: Kind,
}

/// The part of a packet's pool entry that the routers read and write at every hop (route
/// computation), kept in an array of its own beside the [`Packet`]s: a head's route
/// computation touches one small record, and the records of the packets in flight take
/// less than half the cache lines whole packets would.
#[derive(Clone, Copy, Debug, Default)]
pub struct Route {
    /// Destination terminal (as [`Packet::dst`]).
    pub dst: u32,
    /// Router-to-router hops so far.
    pub hops: u16,
    /// Request or reply of BookSim2's read/write traffic, whose kind decides the VCs the
    /// packet may take (docs/booksim.md §3.6); [`Kind::Any`] otherwise.
    pub kind: Kind,
    /// Routing state (core).
    pub state: jumpnet_core::routing::PacketState,
}

/// Tag of packets that belong to no message (synthetic traffic).
pub const NO_TAG: u32 = u32::MAX;
