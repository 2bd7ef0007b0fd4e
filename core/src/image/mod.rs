//! Images: the byte formats jumpnet hands to devices (docs/architecture.md §3: plain data at the
//! edges, postcard + CRC, versioned; smoltcp's `wire/` is the model — one module owns every
//! byte layout, each codec checks everything and never panics).
//!
//! * [`frame`]: the one framing every image uses — magic `JNIM`, format version, kind,
//!   payload length, payload, CRC-32 — and [`ImageKind`];
//! * [`crc32`]: the one CRC-32 (CRC-32/ISO-HDLC), also used by the firmware's UART frames;
//! * [`route_table`]: payload codec of one switch's run table (forwarding entries or virtual
//!   layers);
//! * [`program`]: payload codec of one rank's collective program;
//! * [`device`]: payload codec of a device image — everything one device holds (header with
//!   switch, network spec, routing algorithm and capacities; the switch's route table; the
//!   programs of its terminals);
//! * [`error`]: the one [`ImageError`] of all of them.
//!
//! # Framing
//!
//! ```text
//! offset   size  field
//! 0        4     magic "JNIM"
//! 4        1     format version (frame::VERSION, currently 2)
//! 5        1     kind (ImageKind code: 1 route table, 2 virtual layers, 3 program,
//!                4 device image)
//! 6        4     payload length n, u32 little-endian
//! 10       n     payload (postcard; layout in the kind's codec module)
//! 10 + n   4     CRC-32/ISO-HDLC of bytes 0 .. 10 + n, u32 little-endian
//! ```
//!
//! The header has fixed width so a reader can find the payload and the CRC without decoding
//! anything; payloads use postcard's varints, whose byte order is the same on every target,
//! so an image is byte-identical whether the host or the firmware writes it.
//!
//! # Versioning policy
//!
//! * The format version (byte 4) covers the framing *and* every payload layout: any change to
//!   the bytes an image is written as — a header field, a payload field, an encoding — bumps
//!   [`frame::VERSION`].
//! * A build reads exactly the version it writes and rejects every other with
//!   [`ImageError::UnsupportedVersion`] (found and supported version), checked right after
//!   the magic and before anything a later version may move. Images are regenerated from
//!   their sources (network spec, schedule), not migrated.
//! * Magic, version offset and the kind codes never change. A new kind (such as the device
//!   image, code 4) gets a new code without a version bump: older builds report it as
//!   [`ImageError::UnknownKind`].
//! * Version 1 were the separate route-table (`JNRT`) and program (`JNPG`) formats with
//!   postcard headers and no length field; they are recognised by their magic and reported
//!   as version 1.
//!
//! # Examples
//!
//! A route-table image and a program image round trip; the framing tells them apart:
//!
//! ```
//! use jumpnet_core::collective::{Blocks, Dep, Op};
//! use jumpnet_core::image::{frame, program, route_table, ImageError, ImageKind};
//! use jumpnet_core::routing::{RouteEntry, Run, RunTableBuilder};
//!
//! let mut runs = [Run { first: 0, value: RouteEntry::NONE }; 4];
//! let mut builder = RunTableBuilder::new(&mut runs);
//! for port in [1, 1, 0, 2] {
//!     builder.push(RouteEntry { port, vc: 0 })?;
//! }
//! let table = builder.finish();
//! let mut table_image = [0u8; route_table::max_image_len(4)];
//! let table_len = route_table::encode(7, &table, &mut table_image)?;
//!
//! // Rank 0 of 2: send everything to rank 1, then reduce what rank 1 sends.
//! let ops = [
//!     Op::Send { peer: 1, blocks: Blocks::All, after: Dep::None },
//!     Op::RecvReduce { peer: 1, blocks: Blocks::All, after: Dep::Op(0) },
//! ];
//! let mut program_image = [0u8; program::max_image_len(2)];
//! let program_len = program::encode(0, 2, &ops, &mut program_image)?;
//!
//! let table_bytes = &table_image[..table_len];
//! let program_bytes = &program_image[..program_len];
//! assert_eq!(frame::parse(table_bytes)?.kind, ImageKind::RouteTable);
//! assert_eq!(frame::parse(program_bytes)?.kind, ImageKind::Program);
//!
//! let mut decoded_runs = [Run { first: 0, value: RouteEntry::NONE }; 4];
//! let t = route_table::decode::<RouteEntry>(table_bytes, &mut decoded_runs)?;
//! assert_eq!((t.switch, t.table.runs()), (7, table.runs()));
//!
//! let mut decoded_ops = [ops[0]; 2];
//! let p = program::decode(program_bytes, &mut decoded_ops)?;
//! assert_eq!((p.rank, p.ranks, &decoded_ops[..p.ops]), (0, 2, &ops[..]));
//!
//! // A program image is not a route table.
//! assert_eq!(
//!     route_table::decode::<RouteEntry>(program_bytes, &mut decoded_runs).unwrap_err(),
//!     ImageError::WrongKind { found: ImageKind::Program, expected: ImageKind::RouteTable },
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod crc32;
pub mod device;
pub mod error;
pub mod frame;
pub mod program;
pub mod route_table;

pub use error::{Defect, ImageError, Resource};
pub use frame::ImageKind;
