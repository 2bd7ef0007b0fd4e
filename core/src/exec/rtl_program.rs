//! The RTL's view of programs and route tables: a fixed-width op encoding
//! produced from [`Op`]s and a flat route-table word, defined once here so the Verilog
//! schedule engine (`hdl-harness/rtl/sched_engine.v`) and table router
//! (`hdl-harness/rtl/table_router.v`) read exactly what core writes.
//!
//! # Op word (128 bits: `ctrl` then `blocks`)
//!
//! `ctrl` (64 bits):
//!
//! | bits | field |
//! |---|---|
//! | `[1:0]` | kind: 0 `Send`, 1 `Recv`, 2 `RecvReduce`, 3 `Permute` |
//! | `[2]` | `reflect` (`Permute` only, else 0) |
//! | `[4:3]` | dependency: 0 `Dep::None`, 1 `Dep::Op`, 2 `Dep::Earlier` (3 is invalid) |
//! | `[7:5]` | reserved, 0 |
//! | `[31:8]` | dependency op index (`Dep::Op` only, else 0; below 2^24) |
//! | `[63:32]` | peer rank (sends and receives) or `shift` (`Permute`) |
//!
//! `blocks` (64 bits, 0 for `Permute`): tag in `[63:61]`, payload below, unused bits 0:
//!
//! | tag | [`Blocks`] | payload |
//! |---|---|---|
//! | 0 | `All` | none |
//! | 1 | `Single(i)` | `[31:0]` = i |
//! | 2 | `Range { start, len }` | `[29:0]` start, `[59:30]` len (each below 2^30) |
//! | 3 | `TwoRanges(a, b)` | `[14:0]` a.start, `[29:15]` a.len, `[44:30]` b.start, `[59:45]` b.len (each below 2^15) |
//! | 4 | `BitMask { bit }` | `[7:0]` bit |
//!
//! The encoding is canonical (decode rejects nonzero unused bits), so two blocks words are
//! equal exactly when the [`Blocks`] are: the RTL matches arrivals by word equality.
//!
//! # Route run word (64 bits)
//!
//! One [`Run<RouteEntry>`] of a canonical [`RunTable`]: `[31:0]` first destination,
//! `[47:32]` output port ([`RouteEntry::NO_PORT`] for no route), `[55:48]` VC, `[63:56]` 0.

use crate::collective::{Blocks, Dep, Op, Span};
use crate::error::CapacityError;
use crate::routing::{RouteEntry, Run, RunTable};
use core::fmt;

/// One op in the RTL's fixed-width form (see the module docs for the bit layout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RtlOpWord {
    /// Kind, reflect flag, dependency and peer/shift.
    pub ctrl: u64,
    /// The canonical blocks word (0 for a permutation).
    pub blocks: u64,
}

/// Errors of the RTL encodings: a field that does not fit its width, or a word
/// that is not a valid encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RtlCodecError {
    /// `field` of op `op` holds `value`, wider than its encoding allows (`max` is the
    /// largest value that fits).
    FieldTooWide {
        /// Op index in the program (0 for a single op).
        op: u32,
        /// The field.
        field: &'static str,
        /// Its value.
        value: u64,
        /// The largest encodable value.
        max: u64,
    },
    /// Word `op` is not a valid encoding: `field` holds `value`.
    BadWord {
        /// Word index (0 for a single word).
        op: u32,
        /// The offending field.
        field: &'static str,
        /// Its raw value.
        value: u64,
    },
    /// The output buffer is too short.
    Capacity(CapacityError),
}

impl fmt::Display for RtlCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RtlCodecError::FieldTooWide {
                op,
                field,
                value,
                max,
            } => write!(
                f,
                "op {op}: {field} = {value} does not fit the RTL word (max {max})"
            ),
            RtlCodecError::BadWord { op, field, value } => {
                write!(f, "RTL word {op}: invalid {field} ({value:#x})")
            }
            RtlCodecError::Capacity(e) => e.fmt(f),
        }
    }
}

crate::error::from_shared!(RtlCodecError, Capacity);

impl core::error::Error for RtlCodecError {}

/// Kind code of `Op::Send` in `ctrl[1:0]`.
pub const KIND_SEND: u64 = 0;
/// Kind code of `Op::Recv`.
pub const KIND_RECV: u64 = 1;
/// Kind code of `Op::RecvReduce`.
pub const KIND_RECV_REDUCE: u64 = 2;
/// Kind code of `Op::Permute`.
pub const KIND_PERMUTE: u64 = 3;
/// Largest dependency op index the word holds (24 bits).
pub const MAX_DEP_INDEX: u32 = (1 << 24) - 1;

fn fit(op: u32, field: &'static str, value: u64, bits: u32) -> Result<u64, RtlCodecError> {
    let max = (1u64 << bits) - 1;
    if value > max {
        return Err(RtlCodecError::FieldTooWide {
            op,
            field,
            value,
            max,
        });
    }
    Ok(value)
}

/// The canonical blocks word of `blocks` (module docs); `op` only labels errors.
pub fn encode_blocks(blocks: Blocks, op: u32) -> Result<u64, RtlCodecError> {
    Ok(match blocks {
        Blocks::All => 0,
        Blocks::Single(i) => (1u64 << 61) | u64::from(i),
        Blocks::Range { start, len } => {
            (2u64 << 61)
                | fit(op, "range start", start.into(), 30)?
                | fit(op, "range length", len.into(), 30)? << 30
        }
        Blocks::TwoRanges(a, b) => {
            let mut w = 3u64 << 61;
            for (k, (v, name)) in [
                (a.start, "first range start"),
                (a.len, "first range length"),
                (b.start, "second range start"),
                (b.len, "second range length"),
            ]
            .into_iter()
            .enumerate()
            {
                w |= fit(op, name, v.into(), 15)? << (15 * k);
            }
            w
        }
        Blocks::BitMask { bit } => (4u64 << 61) | u64::from(bit),
    })
}

/// Decodes a blocks word; rejects unknown tags and nonzero unused bits.
pub fn decode_blocks(word: u64, op: u32) -> Result<Blocks, RtlCodecError> {
    let bad = |field, value| RtlCodecError::BadWord { op, field, value };
    let payload = word & ((1 << 61) - 1);
    let (blocks, used) = match word >> 61 {
        0 => (Blocks::All, 0),
        1 => (Blocks::Single(payload as u32), u32::MAX as u64),
        2 => (
            Blocks::Range {
                start: (payload & 0x3FFF_FFFF) as u32,
                len: ((payload >> 30) & 0x3FFF_FFFF) as u32,
            },
            (1 << 60) - 1,
        ),
        3 => {
            let f = |k: u32| ((payload >> (15 * k)) & 0x7FFF) as u32;
            (
                Blocks::TwoRanges(Span::new(f(0), f(1)), Span::new(f(2), f(3))),
                (1 << 60) - 1,
            )
        }
        4 => (
            Blocks::BitMask {
                bit: (payload & 0xFF) as u8,
            },
            0xFF,
        ),
        tag => return Err(bad("blocks tag", tag)),
    };
    if payload & !used != 0 {
        return Err(bad("unused blocks bits", payload & !used));
    }
    Ok(blocks)
}

/// Encodes op `index` of a program into its RTL word.
pub fn encode_op(op: &Op, index: u32) -> Result<RtlOpWord, RtlCodecError> {
    let (dep_code, dep_index) = match op.after() {
        Dep::None => (0u64, 0u64),
        Dep::Op(j) => (1, fit(index, "dependency index", j.into(), 24)?),
        Dep::Earlier => (2, 0),
    };
    let (kind, reflect, arg, blocks) = match *op {
        Op::Send { peer, blocks, .. } => (KIND_SEND, false, peer, Some(blocks)),
        Op::Recv { peer, blocks, .. } => (KIND_RECV, false, peer, Some(blocks)),
        Op::RecvReduce { peer, blocks, .. } => (KIND_RECV_REDUCE, false, peer, Some(blocks)),
        Op::Permute { reflect, shift, .. } => (KIND_PERMUTE, reflect, shift, None),
    };
    let ctrl =
        kind | u64::from(reflect) << 2 | dep_code << 3 | dep_index << 8 | u64::from(arg) << 32;
    let blocks = match blocks {
        Some(b) => encode_blocks(b, index)?,
        None => 0,
    };
    Ok(RtlOpWord { ctrl, blocks })
}

/// Decodes one RTL word back into the [`Op`] it encodes (word `index` labels errors).
pub fn decode_op(word: RtlOpWord, index: u32) -> Result<Op, RtlCodecError> {
    let bad = |field, value| RtlCodecError::BadWord {
        op: index,
        field,
        value,
    };
    let c = word.ctrl;
    let kind = c & 3;
    let reflect = (c >> 2) & 1 == 1;
    let dep_index = ((c >> 8) & 0xFF_FFFF) as u32;
    let after = match (c >> 3) & 3 {
        0 => Dep::None,
        1 => Dep::Op(dep_index),
        2 => Dep::Earlier,
        d => return Err(bad("dependency kind", d)),
    };
    if (c >> 5) & 7 != 0 {
        return Err(bad("reserved bits", (c >> 5) & 7));
    }
    if after != Dep::Op(dep_index) && dep_index != 0 {
        return Err(bad("dependency index without Dep::Op", dep_index.into()));
    }
    if reflect && kind != KIND_PERMUTE {
        return Err(bad("reflect flag on a non-permutation", c & 7));
    }
    let arg = (c >> 32) as u32;
    if kind == KIND_PERMUTE {
        if word.blocks != 0 {
            return Err(bad("blocks of a permutation", word.blocks));
        }
        return Ok(Op::Permute {
            reflect,
            shift: arg,
            after,
        });
    }
    let blocks = decode_blocks(word.blocks, index)?;
    Ok(match kind {
        KIND_SEND => Op::Send {
            peer: arg,
            blocks,
            after,
        },
        KIND_RECV => Op::Recv {
            peer: arg,
            blocks,
            after,
        },
        _ => Op::RecvReduce {
            peer: arg,
            blocks,
            after,
        },
    })
}

/// Encodes a whole program into `out`, returning the number of words written.
pub fn encode_program(program: &[Op], out: &mut [RtlOpWord]) -> Result<usize, RtlCodecError> {
    CapacityError::check("RTL op words", program.len(), out.len())?;
    for (i, (op, w)) in program.iter().zip(out.iter_mut()).enumerate() {
        *w = encode_op(op, i as u32)?;
    }
    Ok(program.len())
}

/// Decodes a program of RTL words into `out`, returning the number of ops written.
pub fn decode_program(words: &[RtlOpWord], out: &mut [Op]) -> Result<usize, RtlCodecError> {
    CapacityError::check("program ops", words.len(), out.len())?;
    for (i, (w, op)) in words.iter().zip(out.iter_mut()).enumerate() {
        *op = decode_op(*w, i as u32)?;
    }
    Ok(words.len())
}

/// The 64-bit word of one route run (module docs).
pub fn encode_run(run: Run<RouteEntry>) -> u64 {
    u64::from(run.first) | u64::from(run.value.port) << 32 | u64::from(run.value.vc) << 48
}

/// Decodes a route run word; rejects nonzero bits `[63:56]`.
pub fn decode_run(word: u64, index: u32) -> Result<Run<RouteEntry>, RtlCodecError> {
    if word >> 56 != 0 {
        return Err(RtlCodecError::BadWord {
            op: index,
            field: "route run reserved bits",
            value: word >> 56,
        });
    }
    Ok(Run {
        first: word as u32,
        value: RouteEntry {
            port: (word >> 32) as u16,
            vc: (word >> 48) as u8,
        },
    })
}

/// Writes the flat form of `table` (one word per run, in order) into `out`, returning the
/// number of runs; the RTL router also needs `table.len()` (the destination count).
pub fn encode_route_table(
    table: &RunTable<'_, RouteEntry>,
    out: &mut [u64],
) -> Result<usize, RtlCodecError> {
    let runs = table.runs();
    CapacityError::check("RTL route runs", runs.len(), out.len())?;
    for (r, w) in runs.iter().zip(out.iter_mut()) {
        *w = encode_run(*r);
    }
    Ok(runs.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_words_of_each_kind() {
        let send = Op::Send {
            peer: 5,
            blocks: Blocks::Single(7),
            after: Dep::Op(3),
        };
        assert_eq!(
            encode_op(&send, 4),
            Ok(RtlOpWord {
                ctrl: 0x0000_0005_0000_0308,
                blocks: 0x2000_0000_0000_0007,
            })
        );
        let red = Op::RecvReduce {
            peer: 1,
            blocks: Blocks::Range { start: 2, len: 3 },
            after: Dep::Earlier,
        };
        assert_eq!(
            encode_op(&red, 9),
            Ok(RtlOpWord {
                ctrl: 0x0000_0001_0000_0012,
                blocks: 0x4000_0000_C000_0002,
            })
        );
        let perm = Op::Permute {
            reflect: true,
            shift: 3,
            after: Dep::None,
        };
        assert_eq!(
            encode_op(&perm, 0),
            Ok(RtlOpWord {
                ctrl: 0x0000_0003_0000_0007,
                blocks: 0,
            })
        );
        let two = Blocks::TwoRanges(Span::new(1, 2), Span::new(3, 4));
        assert_eq!(encode_blocks(two, 0), Ok(0x6000_8000_C001_0001));
        assert_eq!(
            encode_blocks(Blocks::BitMask { bit: 5 }, 0),
            Ok(0x8000_0000_0000_0005)
        );
        assert_eq!(encode_blocks(Blocks::All, 0), Ok(0));
        for (op, i) in [(send, 4), (red, 9), (perm, 0)] {
            assert_eq!(decode_op(encode_op(&op, i).unwrap(), i), Ok(op));
        }
        assert_eq!(decode_blocks(0x6000_8000_C001_0001, 0), Ok(two));
    }

    #[test]
    fn too_wide_fields_and_bad_words_are_errors() {
        let wide = Blocks::TwoRanges(Span::new(0, 1 << 15), Span::new(0, 0));
        assert_eq!(
            encode_blocks(wide, 2),
            Err(RtlCodecError::FieldTooWide {
                op: 2,
                field: "first range length",
                value: 1 << 15,
                max: (1 << 15) - 1
            })
        );
        let far = Op::Send {
            peer: 0,
            blocks: Blocks::All,
            after: Dep::Op(1 << 24),
        };
        assert!(matches!(
            encode_op(&far, 1),
            Err(RtlCodecError::FieldTooWide {
                field: "dependency index",
                ..
            })
        ));
        assert!(matches!(
            decode_op(
                RtlOpWord {
                    ctrl: 3 << 3,
                    blocks: 0
                },
                6
            ),
            Err(RtlCodecError::BadWord {
                op: 6,
                field: "dependency kind",
                value: 3
            })
        ));
        assert!(matches!(
            decode_blocks(5 << 61, 0),
            Err(RtlCodecError::BadWord {
                field: "blocks tag",
                value: 5,
                ..
            })
        ));
        assert!(matches!(
            decode_blocks((4 << 61) | 0x100, 0),
            Err(RtlCodecError::BadWord {
                field: "unused blocks bits",
                value: 0x100,
                ..
            })
        ));
        assert!(matches!(
            decode_op(RtlOpWord { ctrl: 4, blocks: 0 }, 0),
            Err(RtlCodecError::BadWord { .. })
        ));
        let mut out = [RtlOpWord::default(); 1];
        let prog = [Op::Permute {
            reflect: false,
            shift: 0,
            after: Dep::None,
        }; 2];
        assert_eq!(
            encode_program(&prog, &mut out),
            Err(RtlCodecError::Capacity(CapacityError::new(
                "RTL op words",
                2,
                1
            )))
        );
    }

    #[test]
    fn route_runs_round_trip() {
        let run = Run {
            first: 0x1234,
            value: RouteEntry { port: 7, vc: 2 },
        };
        assert_eq!(encode_run(run), 0x0002_0007_0000_1234);
        assert_eq!(decode_run(0x0002_0007_0000_1234, 0), Ok(run));
        assert!(decode_run(1 << 56, 3).is_err());
        let runs = [
            Run { first: 0, ..run },
            Run {
                first: 0x2000,
                value: RouteEntry::NONE,
            },
        ];
        let table = RunTable::new(&runs, 0x3000).unwrap();
        let mut out = [0u64; 2];
        assert_eq!(encode_route_table(&table, &mut out), Ok(2));
        assert_eq!(out, [0x0002_0007_0000_0000, 0x0000_FFFF_0000_2000]);
    }
}
