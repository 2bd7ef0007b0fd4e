//! BookSim2's read/write traffic (`use_read_write = 1`, docs/booksim.md §3.6): every packet a
//! source's injection process creates is a read or a write request, and a request's arrival
//! at its destination queues a reply back to its source there. Each of the four packet kinds
//! has its own size and its own range of VCs.

use serde::Serialize;

/// The kind of a packet (`Packet::kind` in the engine): [`Kind::Any`] without read/write
/// traffic, else a request or a reply (docs/booksim.md §3.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[repr(u8)]
pub enum Kind {
    /// A packet of ordinary traffic.
    #[default]
    Any = 0,
    /// A read request: its arrival queues a read reply.
    ReadRequest = 1,
    /// A write request: its arrival queues a write reply.
    WriteRequest = 2,
    /// The reply to a read request.
    ReadReply = 3,
    /// The reply to a write request.
    WriteReply = 4,
}

impl Kind {
    /// The four kinds of read/write traffic, in the order of [`ReadWrite::sizes`] and
    /// [`ReadWrite::vcs`].
    pub const RW: [Kind; 4] = [
        Kind::ReadRequest,
        Kind::WriteRequest,
        Kind::ReadReply,
        Kind::WriteReply,
    ];

    /// The kind stored as `b` (`Kind as u8`); [`Kind::Any`] for any other byte.
    pub fn from_byte(b: u8) -> Kind {
        match b {
            1 => Kind::ReadRequest,
            2 => Kind::WriteRequest,
            3 => Kind::ReadReply,
            4 => Kind::WriteReply,
            _ => Kind::Any,
        }
    }

    /// The reply a request of this kind gets (`None` for a reply or [`Kind::Any`]).
    pub fn reply(self) -> Option<Kind> {
        match self {
            Kind::ReadRequest => Some(Kind::ReadReply),
            Kind::WriteRequest => Some(Kind::WriteReply),
            _ => None,
        }
    }

    /// Index in [`ReadWrite::sizes`] / [`ReadWrite::vcs`] (`None` for [`Kind::Any`]).
    pub fn index(self) -> Option<usize> {
        (self as usize).checked_sub(1)
    }
}

/// The parameters of read/write traffic (BookSim2's `write_fraction`, the four
/// `*_size` keys and the eight `*_begin_vc` / `*_end_vc` keys; docs/booksim.md §3.6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReadWrite {
    /// Probability that a created request is a write (else a read).
    pub write_fraction: f64,
    /// Flits of a read request, a write request, a read reply, a write reply.
    pub sizes: [u16; 4],
    /// First and last VC (inclusive) of each kind, in the same order: the VCs its packets
    /// may take on every channel (split in two halves for the wrap classes of a torus).
    pub vcs: [(u8, u8); 4],
}

impl ReadWrite {
    /// BookSim2's defaults: half the requests writes, every packet one flit, requests on
    /// VCs 0–5 (reads) and 2–7 (writes), replies on 8–13 and 10–15.
    pub fn booksim_default() -> Self {
        ReadWrite {
            write_fraction: 0.5,
            sizes: [1; 4],
            vcs: [(0, 5), (2, 7), (8, 13), (10, 15)],
        }
    }

    /// Flits of a packet of kind `kind` (`None` for [`Kind::Any`]).
    pub fn size(&self, kind: Kind) -> Option<u16> {
        kind.index().map(|i| self.sizes[i])
    }

    /// BookSim2's mean packet size of read/write traffic, which its
    /// `injection_rate_uses_flits` divides the rate by: the four sizes' sum halved
    /// (rounded down).
    pub fn mean_size(&self) -> u16 {
        let sum: u32 = self.sizes.iter().map(|&s| u32::from(s)).sum();
        (sum / 2).clamp(1, u32::from(u16::MAX)) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_requests_name_their_replies() {
        for k in Kind::RW {
            assert_eq!(Kind::from_byte(k as u8), k);
        }
        assert_eq!(Kind::from_byte(0), Kind::Any);
        assert_eq!(Kind::ReadRequest.reply(), Some(Kind::ReadReply));
        assert_eq!(Kind::WriteRequest.reply(), Some(Kind::WriteReply));
        assert_eq!(Kind::ReadReply.reply(), None);
        let mut rw = ReadWrite::booksim_default();
        assert_eq!(rw.mean_size(), 2);
        rw.sizes = [1, 5, 5, 1];
        assert_eq!((rw.mean_size(), rw.size(Kind::WriteRequest)), (6, Some(5)));
        assert_eq!(rw.size(Kind::Any), None);
    }
}
