//! The send side of a collective run's NICs ([`super::collective`]): when the packets of a
//! message enter its terminal's source queue, in which order, and the rendezvous handshake
//! of large messages (docs/smpi.md §3).
//!
//! * **FIFO** ([`SendOrder::Fifo`]): a message's packets are queued all at once when it is
//!   due, behind every packet queued before; messages leave one after another.
//! * **Interleaved** ([`SendOrder::Interleave`]): the messages due at a terminal are active
//!   together and the terminal takes one packet of each in turn (round robin), so messages
//!   posted in the same step share the injection channel as an MPI library's concurrent
//!   `isend`s do: two equal messages both finish at about twice the time one takes alone.
//! * **Rendezvous** (messages of at least `rendezvous_bytes`): the send first posts a
//!   request-to-send, a control packet of `max(1, header_flits)` flits, to the receiver;
//!   the receiving NIC sees it `1 + recv_overhead` cycles after its tail is ejected and
//!   answers with a clear-to-send after `send_overhead`; the sender's NIC sees that
//!   `1 + recv_overhead` cycles after its ejection and hands the data to the network then.
//!   The receive is taken as posted (the collectives' receives are posted before their data
//!   can come). Smaller messages are eager: their data is due `send_overhead` after the send.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde::Serialize;

use crate::sim::engine::State;

/// Tag bit of control packets (requests- and clears-to-send); message ids stay below it.
pub const CONTROL_TAG: u32 = 1 << 30;

/// Whether a packet tag is a control packet's.
pub fn is_control(tag: u32) -> bool {
    tag != crate::sim::network::terminal::NO_TAG && tag & CONTROL_TAG != 0 && tag < (1 << 31)
}

/// How a NIC orders the packets of the messages it sends (module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum SendOrder {
    /// One message after another, in the order they are due.
    #[default]
    Fifo,
    /// One packet of every active message in turn.
    Interleave,
}

/// What becomes due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Item {
    /// The data of message `id`.
    Data(u32),
    /// Control message `id` (index into `controls`).
    Control(u32),
}

/// A handshake packet.
#[derive(Clone, Copy, Debug)]
struct Control {
    /// The data message it is for.
    data: u32,
    /// Request-to-send (sender → receiver) or clear-to-send (back).
    request: bool,
}

/// A message's terminals and packets.
#[derive(Clone, Copy, Debug)]
struct Route {
    src: u32,
    dst: u32,
    packets: u64,
}

/// The send side of every NIC of a run (module documentation).
#[derive(Debug)]
pub struct SendPath {
    order: SendOrder,
    rendezvous_bytes: Option<u64>,
    control_flits: u16,
    send_overhead: u64,
    recv_overhead: u64,
    routes: Vec<Route>,
    controls: Vec<Control>,
    due: BinaryHeap<Reverse<(u64, u64, Item)>>,
    seq: u64,
    /// Per terminal: the active messages and the packets each has still to queue.
    active: Vec<VecDeque<(u32, u64)>>,
    active_terms: Vec<u32>,
    /// Handshakes started and not finished.
    handshakes: u64,
    /// Packets queued so far (data and control).
    pub packets: u64,
    /// Control packets queued so far.
    pub control_packets: u64,
}

/// The NIC parameters [`SendPath`] needs.
#[derive(Clone, Copy, Debug)]
pub struct SendParams {
    /// Packet order.
    pub order: SendOrder,
    /// Messages of at least this many bytes use the rendezvous handshake.
    pub rendezvous_bytes: Option<u64>,
    /// Flits of a control packet.
    pub control_flits: u16,
    /// Cycles from a send (or a clear-to-send's answer) to its packets being due.
    pub send_overhead: u64,
    /// Cycles from a control packet's ejection to the NIC seeing it, beyond the one cycle.
    pub recv_overhead: u64,
}

impl SendPath {
    /// An idle send path for `terminals` terminals.
    pub fn new(p: SendParams, terminals: u32) -> Self {
        SendPath {
            order: p.order,
            rendezvous_bytes: p.rendezvous_bytes,
            control_flits: p.control_flits.max(1),
            send_overhead: p.send_overhead,
            recv_overhead: p.recv_overhead,
            routes: Vec::new(),
            controls: Vec::new(),
            due: BinaryHeap::new(),
            seq: 0,
            active: vec![VecDeque::new(); terminals as usize],
            active_terms: Vec::new(),
            handshakes: 0,
            packets: 0,
            control_packets: 0,
        }
    }

    fn push(&mut self, at: u64, item: Item) {
        self.seq += 1;
        self.due.push(Reverse((at, self.seq, item)));
    }

    /// Message `id` (ids are given in order 0, 1, …) of `bytes` bytes in `packets` packets
    /// from terminal `src` to `dst` was sent at cycle `now`. Errors when ids run out.
    pub fn post(
        &mut self,
        now: u64,
        id: u32,
        (src, dst): (u32, u32),
        bytes: u64,
        packets: u64,
    ) -> Result<(), String> {
        if id >= CONTROL_TAG || id as usize != self.routes.len() {
            return Err(format!(
                "message {id}: a run holds at most {CONTROL_TAG} messages, numbered in order"
            ));
        }
        self.routes.push(Route { src, dst, packets });
        let at = now + self.send_overhead;
        if self.rendezvous_bytes.is_some_and(|t| bytes >= t) {
            let c = self.controls.len() as u32;
            self.controls.push(Control {
                data: id,
                request: true,
            });
            self.handshakes += 1;
            self.push(at, Item::Control(c));
        } else {
            self.push(at, Item::Data(id));
        }
        Ok(())
    }

    /// Nothing is due, queued for interleaving or waiting for a handshake.
    pub fn idle(&self) -> bool {
        self.due.is_empty() && self.active_terms.is_empty() && self.handshakes == 0
    }

    /// Queues at their terminals the packets due by cycle `now` (interleaved: one packet
    /// per active message in turn, whenever a terminal's source queue is empty).
    pub(crate) fn queue(&mut self, st: &mut State<'_>, now: u64) {
        while let Some(&Reverse((at, _, item))) = self.due.peek() {
            if at > now {
                break;
            }
            self.due.pop();
            match item {
                Item::Control(c) => {
                    let ctl = self.controls[c as usize];
                    let r = self.routes[ctl.data as usize];
                    let (s, d) = if ctl.request {
                        (r.src, r.dst)
                    } else {
                        (r.dst, r.src)
                    };
                    st.create_sized(s, d, CONTROL_TAG | c, self.control_flits);
                    self.packets += 1;
                    self.control_packets += 1;
                }
                Item::Data(id) => {
                    let r = self.routes[id as usize];
                    match self.order {
                        SendOrder::Fifo => {
                            for _ in 0..r.packets {
                                st.create_tagged(r.src, r.dst, id);
                            }
                            self.packets += r.packets;
                        }
                        SendOrder::Interleave => {
                            let q = &mut self.active[r.src as usize];
                            if q.is_empty() {
                                self.active_terms.push(r.src);
                            }
                            q.push_back((id, r.packets));
                        }
                    }
                }
            }
        }
        self.feed(st);
    }

    /// Interleaving: one packet of the next active message to every terminal whose source
    /// queue is empty.
    fn feed(&mut self, st: &mut State<'_>) {
        let mut i = 0;
        while i < self.active_terms.len() {
            let t = self.active_terms[i];
            let q = &mut self.active[t as usize];
            if st.queued(t) == 0 {
                if let Some((id, left)) = q.pop_front() {
                    let r = self.routes[id as usize];
                    st.create_tagged(t, r.dst, id);
                    self.packets += 1;
                    if left > 1 {
                        q.push_back((id, left - 1));
                    }
                }
            }
            if q.is_empty() {
                self.active_terms.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// The control packet `tag` was ejected at cycle `e`: a request-to-send is answered, a
    /// clear-to-send makes its data due.
    pub fn control_arrived(&mut self, tag: u32, e: u64) {
        let c = tag & !CONTROL_TAG;
        let Some(ctl) = self.controls.get(c as usize).copied() else {
            return;
        };
        let seen = e + 1 + self.recv_overhead;
        if ctl.request {
            let answer = self.controls.len() as u32;
            self.controls.push(Control {
                data: ctl.data,
                request: false,
            });
            self.push(seen + self.send_overhead, Item::Control(answer));
        } else {
            self.handshakes -= 1;
            self.push(seen, Item::Data(ctl.data));
        }
    }
}
