//! Destination-LID selection of PARX (docs/routing.md §7, Table 1 of \[HX\] §3.2.1): which
//! virtual destination `LID_x` a message uses, from the source and destination quadrants
//! and the message size.

use crate::rng::hash64;

use super::quadrant::{Half, Quadrant, LIDS};

/// Messages of at least this many bytes are "large" (\[HX\] §3.2.4: QDR InfiniBand with 7
/// nodes per switch).
pub const LARGE_MESSAGE_BYTES: u64 = 512;

/// The valid LIDs of a (source quadrant, destination quadrant, size class): one or two
/// ("a|b" in the tables), in the order the tables print them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LidChoices {
    lids: [u8; 2],
    len: u8,
}

impl LidChoices {
    const fn one(a: u8) -> Self {
        LidChoices {
            lids: [a, a],
            len: 1,
        }
    }

    const fn two(a: u8, b: u8) -> Self {
        LidChoices {
            lids: [a, b],
            len: 2,
        }
    }

    /// The LIDs (1 or 2 entries, ascending).
    pub fn as_slice(&self) -> &[u8] {
        self.lids.get(..self.len as usize).unwrap_or(&[])
    }

    /// Whether `lid` is one of the choices.
    pub fn contains(&self, lid: u8) -> bool {
        self.as_slice().contains(&lid)
    }

    /// Choice `k mod len`.
    pub fn get(&self, k: u64) -> u8 {
        self.lids[(k % self.len.max(1) as u64) as usize % 2]
    }
}

/// Table 1a: small messages (< 512 B); rows = source quadrant, columns = destination.
const SMALL: [[LidChoices; 4]; 4] = [
    [
        LidChoices::two(1, 3),
        LidChoices::one(1),
        LidChoices::two(0, 2),
        LidChoices::one(3),
    ],
    [
        LidChoices::one(1),
        LidChoices::two(1, 2),
        LidChoices::one(2),
        LidChoices::two(0, 3),
    ],
    [
        LidChoices::two(1, 3),
        LidChoices::one(2),
        LidChoices::two(0, 2),
        LidChoices::one(0),
    ],
    [
        LidChoices::one(3),
        LidChoices::two(1, 2),
        LidChoices::one(0),
        LidChoices::two(0, 3),
    ],
];

/// Table 1b: large messages (≥ 512 B).
const LARGE: [[LidChoices; 4]; 4] = [
    [
        LidChoices::two(0, 2),
        LidChoices::one(0),
        LidChoices::two(0, 2),
        LidChoices::one(2),
    ],
    [
        LidChoices::one(0),
        LidChoices::two(0, 3),
        LidChoices::one(3),
        LidChoices::two(0, 3),
    ],
    [
        LidChoices::two(1, 3),
        LidChoices::one(3),
        LidChoices::two(1, 3),
        LidChoices::one(1),
    ],
    [
        LidChoices::one(2),
        LidChoices::two(1, 2),
        LidChoices::one(1),
        LidChoices::two(1, 2),
    ],
];

/// The LIDs Table 1 (docs/routing.md §7) allows for a message from quadrant `src` to
/// quadrant `dst`; `large` selects Table 1b (≥ 512 B).
///
/// # Examples
///
/// ```
/// use jumpnet_core::routing::parx::lid_table::{closed_form_choices, table_choices};
/// use jumpnet_core::routing::parx::Quadrant;
///
/// // Q0 (left-top) to Q1 (left-bottom): small messages avoid removing the left half (LID 1
/// // removes the right half), large ones take LID 0, whose removed left half forces a detour.
/// assert_eq!(table_choices(Quadrant::Q0, Quadrant::Q1, false).as_slice(), &[1]);
/// assert_eq!(table_choices(Quadrant::Q0, Quadrant::Q1, true).as_slice(), &[0]);
/// // Diagonal pairs use the halves holding the source: left (0) or top (2).
/// assert_eq!(table_choices(Quadrant::Q0, Quadrant::Q2, false).as_slice(), &[0, 2]);
/// // The closed-form rule gives the same table.
/// for s in Quadrant::ALL {
///     for d in Quadrant::ALL {
///         for large in [false, true] {
///             assert_eq!(table_choices(s, d, large), closed_form_choices(s, d, large));
///         }
///     }
/// }
/// ```
pub fn table_choices(src: Quadrant, dst: Quadrant, large: bool) -> LidChoices {
    let t = if large { &LARGE } else { &SMALL };
    t[src.index()][dst.index()]
}

/// The closed-form rule equivalent to Table 1 (docs/routing.md §7): small messages use the
/// LIDs whose removed half contains neither quadrant, large ones the LIDs whose removed half
/// contains both; for diagonal pairs (no such half) both use the halves containing the
/// source quadrant.
pub fn closed_form_choices(src: Quadrant, dst: Quadrant, large: bool) -> LidChoices {
    let mut lids = [0u8; 2];
    let mut len = 0usize;
    let mut collect = |wanted: &dyn Fn(Half) -> bool| {
        for lid in 0..LIDS {
            if let Some(h) = Half::of_lid(lid) {
                if wanted(h) && len < 2 {
                    lids[len] = lid;
                    len += 1;
                }
            }
        }
    };
    if src.is_diagonal_to(dst) {
        collect(&|h| h.contains(src));
    } else if large {
        collect(&|h| h.contains(src) && h.contains(dst));
    } else {
        collect(&|h| !h.contains(src) && !h.contains(dst));
    }
    match len {
        2 => LidChoices::two(lids[0], lids[1]),
        _ => LidChoices::one(lids[0]),
    }
}

/// The LID of one message (docs/routing.md §7): Table 1a for `bytes < 512`, 1b otherwise;
/// an "a|b" entry is decided by bit 0 of a seeded hash of (source terminal, destination
/// terminal, message id), so a sender alternates deterministically across message ids as the
/// modified `bfo` PML of \[HX\] alternates at random.
pub fn select_lid(src_q: Quadrant, dst_q: Quadrant, msg: &Message, seed: u64) -> u8 {
    let choices = table_choices(src_q, dst_q, msg.bytes >= LARGE_MESSAGE_BYTES);
    let pair = hash64(seed, ((msg.src as u64) << 32) | msg.dst as u64);
    choices.get(hash64(pair, msg.id) & 1)
}

/// One message as [`select_lid`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    /// Source terminal.
    pub src: u32,
    /// Destination terminal.
    pub dst: u32,
    /// Size in bytes (Table 1a below [`LARGE_MESSAGE_BYTES`], 1b from it on).
    pub bytes: u64,
    /// Message id (the sender's sequence number).
    pub id: u64,
}
