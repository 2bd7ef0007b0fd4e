//! Messages exchanged over the UART between a host and the jumpnet firmware.
//!
//! Every message starts with the wire version ([`WIRE_VERSION`]) and a request id that the
//! response echoes. A device that gets a request of another version answers
//! [`Rejection::UnsupportedVersion`]; a frame it cannot decode is answered with
//! [`Rejection::Frame`] and id 0.
//!
//! New commands, replies and rejections are appended to their enums, so the postcard variant
//! indices of the older ones (in particular [`Reply::Rejected`] and
//! [`Rejection::UnsupportedVersion`]) stay stable and a host of another version can still
//! read why it was rejected.

use core::fmt;

use heapless::Vec;
use serde::{Deserialize, Serialize};

use super::device::{DeviceCommand, DeviceReply, ExecFault};
use super::frame::FrameError;
use super::route_table::{ImageChunk, RouteTableRequest, TableResource};
use crate::image::device::RoutingAlgorithm;
use crate::image::ImageError;

/// Version of the message set below; bump it on any incompatible change.
///
/// Version 2 added [`Command::RouteTable`], [`Reply::RouteTable`] and the route-table
/// rejections; version 3 the device commands ([`Command::Device`], [`Reply::Device`],
/// `super::device`) and their rejections; version 4 the heartbeat and frame-timeout fields
/// of `super::device::Counters`; version 5 carries an image's rejection as core's
/// `crate::image::ImageError` (before, a reduced copy of it).
pub const WIRE_VERSION: u8 = 5;
/// Largest encoded frame (terminator included) either side sends.
pub const MAX_FRAME_LEN: usize = 512;
/// Most PRNG words one [`Command::RngWords`] request may ask for.
pub const MAX_RNG_WORDS: usize = 32;
/// Largest `skip` of a [`Command::RngWords`] request.
pub const MAX_RNG_SKIP: u32 = 1 << 16;
/// Fewest switches of a [`Command::RingWithChords`] graph.
pub const MIN_GRAPH_SWITCHES: u8 = 3;
/// Most switches of a [`Command::RingWithChords`] graph.
pub const MAX_GRAPH_SWITCHES: usize = 32;
/// Most chords of a [`Command::RingWithChords`] graph.
pub const MAX_GRAPH_CHORDS: u8 = 32;

/// A host → device message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Wire version of the sender ([`WIRE_VERSION`]).
    pub version: u8,
    /// Chosen by the host, echoed in the response.
    pub id: u16,
    /// What to do.
    pub command: Command,
}

impl Request {
    /// A request of the current wire version.
    pub fn new(id: u16, command: Command) -> Self {
        Request {
            version: WIRE_VERSION,
            id,
            command,
        }
    }
}

/// The commands of the firmware.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// No `alloc` on the device to box the large variant (a load chunk); a request is decoded
// once per frame, so the size is paid once.
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Liveness check; answered with [`Reply::Hello`].
    Hello,
    /// Outputs `skip .. skip + count` of `crate::rng::Rng::new(seed)`.
    RngWords {
        /// PRNG seed.
        seed: u64,
        /// Outputs to discard first (at most [`MAX_RNG_SKIP`]).
        skip: u32,
        /// Outputs to return (at most [`MAX_RNG_WORDS`]).
        count: u8,
    },
    /// Builds the ring of `switches` switches plus `chords` random chords with
    /// `crate::topology::stored::from_edges` and summarizes it
    /// (see `jumpnet_firmware::selftest::ring_with_chords`).
    RingWithChords {
        /// PRNG seed for the chords.
        seed: u64,
        /// Switches, `MIN_GRAPH_SWITCHES ..= MAX_GRAPH_SWITCHES`.
        switches: u8,
        /// Chords, at most [`MAX_GRAPH_CHORDS`].
        chords: u8,
    },
    /// Ends the session: the device answers [`Reply::ShuttingDown`] and exits with status 0.
    Shutdown,
    /// Makes the device panic (checks the panic path: exit status 101, no reply).
    Panic,
    /// Computes the forwarding table of one switch on the device and returns a chunk of its
    /// canonical image ([`super::route_table`]); answered with [`Reply::RouteTable`].
    RouteTable(RouteTableRequest),
    /// A device command: image loading, routes, program engine, counters, reset
    /// ([`super::device`]).
    Device(DeviceCommand),
}

/// A device → host message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    /// Wire version of the device ([`WIRE_VERSION`]).
    pub version: u8,
    /// Id of the request answered (0 for an undecodable frame).
    pub id: u16,
    /// The answer.
    pub reply: Reply,
}

impl Response {
    /// A response of the current wire version.
    pub fn new(id: u16, reply: Reply) -> Self {
        Response {
            version: WIRE_VERSION,
            id,
            reply,
        }
    }
}

/// Answers of the firmware.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply {
    /// Answer to [`Command::Hello`].
    Hello {
        /// Wire version the device speaks.
        wire_version: u8,
        /// Requests served so far in this session (this one excluded).
        served: u32,
    },
    /// Answer to [`Command::RngWords`].
    RngWords(Vec<u64, MAX_RNG_WORDS>),
    /// Answer to [`Command::RingWithChords`].
    Graph(GraphSummary),
    /// Answer to [`Command::Shutdown`].
    ShuttingDown,
    /// The request was not carried out.
    Rejected(Rejection),
    /// Answer to [`Command::RouteTable`].
    RouteTable(ImageChunk),
    /// Answer to a [`Command::Device`].
    Device(DeviceReply),
}

/// Summary of a graph built on the device, enough for the host to check it exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphSummary {
    /// Number of switches.
    pub switches: u8,
    /// Network ports per switch of the port table (`2 + chords`).
    pub width: u8,
    /// Number of links (ring links plus chords).
    pub links: u16,
    /// Degree of every switch.
    pub degrees: Vec<u8, MAX_GRAPH_SWITCHES>,
    /// Hop distance from switch 0 to every switch (`u8::MAX` when unreachable).
    pub distances_from_0: Vec<u8, MAX_GRAPH_SWITCHES>,
    /// CRC-32 of the port table: for every switch, for every network port, the peer switch
    /// (`u32` LE, `u32::MAX` when unconnected) and the peer port (`u16` LE, 0 when unconnected).
    pub port_table_crc: u32,
}

/// Why a device did not carry out a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rejection {
    /// The frame could not be decoded.
    Frame(FrameError),
    /// The request has a wire version the device does not speak.
    UnsupportedVersion {
        /// Version in the request.
        got: u8,
        /// Version the device speaks.
        supported: u8,
    },
    /// `count` or `skip` of [`Command::RngWords`] is too large.
    RngRequestTooLarge {
        /// Requested count.
        count: u8,
        /// Requested skip.
        skip: u32,
    },
    /// `switches` or `chords` of [`Command::RingWithChords`] is out of range.
    GraphOutOfRange {
        /// Requested switches.
        switches: u8,
        /// Requested chords.
        chords: u8,
    },
    /// The core rejected the graph (should not happen for parameters in range).
    GraphBuildFailed,
    /// The network of a [`Command::RouteTable`] request does not build (a parameter breaks
    /// its family's rules; the host gets the exact reason from
    /// `crate::topology::spec::NetworkSpec::build`).
    InvalidNetwork,
    /// The algorithm of a [`Command::RouteTable`] request does not apply to the network.
    AlgorithmNotApplicable {
        /// The algorithm.
        algorithm: RoutingAlgorithm,
    },
    /// The switch of a [`Command::RouteTable`] request is not a switch of the network.
    SwitchOutOfRange {
        /// Requested switch.
        switch: u32,
        /// Switches of the network.
        switches: u32,
    },
    /// The table does not fit the device's storage (limits in [`super::route_table`]).
    TableCapacity {
        /// What ran out.
        resource: TableResource,
        /// How many are needed.
        needed: u64,
        /// How many the device has.
        available: u64,
    },
    /// The core failed to compute the table for another reason.
    RoutingFailed,
    /// The offset of a [`Command::RouteTable`] request is beyond the end of the image.
    ChunkOutOfRange {
        /// Requested offset.
        offset: u32,
        /// Image length.
        image_len: u32,
    },
    /// This firmware build does not serve the command (e.g. a device build without the
    /// on-device route-table computation).
    Unsupported,
    /// A device image larger than the device's image buffer.
    ImageTooLarge {
        /// Announced length.
        image_len: u32,
        /// The device's image buffer.
        capacity: u32,
    },
    /// A load chunk at another offset than the bytes received so far.
    ChunkOutOfOrder {
        /// Offset of the chunk.
        offset: u32,
        /// Bytes received so far (the offset expected).
        expected: u32,
    },
    /// A load chunk or activation without a `LoadBegin`.
    NoLoadInProgress,
    /// Activation of an image not completely received.
    ImageIncomplete {
        /// Bytes received.
        received: u32,
        /// Announced length.
        image_len: u32,
    },
    /// The staged image failed verification (core's error, as verification reported it); the
    /// previous image stays active.
    Image(ImageError),
    /// The command needs an active image and there is none.
    NoActiveImage,
    /// A destination beyond the active table.
    DestinationOutOfRange {
        /// Destination asked for.
        destination: u32,
        /// Destinations of the table.
        destinations: u32,
    },
    /// A program index beyond the active image's programs.
    NoSuchProgram {
        /// Index asked for.
        program: u32,
        /// Programs of the image.
        programs: u32,
    },
    /// An `ExecStep` without a running program.
    NotRunning,
    /// The executor rejected an arrival or stalled.
    Exec(ExecFault),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Frame(e) => write!(f, "frame rejected: {e}"),
            Rejection::UnsupportedVersion { got, supported } => write!(
                f,
                "wire version {got} not supported: this device speaks version {supported}"
            ),
            Rejection::RngRequestTooLarge { count, skip } => write!(
                f,
                "rng request count={count} skip={skip}: count must be at most \
                 {MAX_RNG_WORDS} and skip at most {MAX_RNG_SKIP}"
            ),
            Rejection::GraphOutOfRange { switches, chords } => write!(
                f,
                "graph switches={switches} chords={chords}: switches must be in \
                 {MIN_GRAPH_SWITCHES}..={MAX_GRAPH_SWITCHES} and chords at most {MAX_GRAPH_CHORDS}"
            ),
            Rejection::GraphBuildFailed => f.write_str("the core rejected the graph"),
            Rejection::InvalidNetwork => {
                f.write_str("the network of the route-table request does not build")
            }
            Rejection::AlgorithmNotApplicable { algorithm } => match algorithm.needs() {
                Some(needs) => write!(f, "routing algorithm {algorithm} needs {needs}"),
                None => write!(f, "routing algorithm {algorithm} does not apply"),
            },
            Rejection::SwitchOutOfRange { switch, switches } => write!(
                f,
                "switch {switch} is out of range: the network has switches 0..{switches}"
            ),
            Rejection::TableCapacity {
                resource,
                needed,
                available,
            } => write!(
                f,
                "route table too large for the device: {needed} {resource} needed, at most \
                 {available}"
            ),
            Rejection::RoutingFailed => f.write_str("the core failed to compute the route table"),
            Rejection::ChunkOutOfRange { offset, image_len } => write!(
                f,
                "image offset {offset} is beyond the end of the {image_len}-byte image"
            ),
            Rejection::Unsupported => f.write_str("this firmware build does not serve the command"),
            Rejection::ImageTooLarge {
                image_len,
                capacity,
            } => write!(
                f,
                "image of {image_len} bytes is larger than the device's {capacity}-byte image buffer"
            ),
            Rejection::ChunkOutOfOrder { offset, expected } => write!(
                f,
                "load chunk at offset {offset}: the device has {expected} bytes and expects \
                 the chunk at offset {expected}"
            ),
            Rejection::NoLoadInProgress => f.write_str("no image load in progress: send LoadBegin first"),
            Rejection::ImageIncomplete {
                received,
                image_len,
            } => write!(
                f,
                "image incomplete: {received} of {image_len} bytes received"
            ),
            Rejection::Image(e) => write!(f, "image rejected, previous image stays active: {e}"),
            Rejection::NoActiveImage => f.write_str("no active image: flash one first"),
            Rejection::DestinationOutOfRange {
                destination,
                destinations,
            } => write!(
                f,
                "destination {destination} is out of range: the table has destinations \
                 0..{destinations}"
            ),
            Rejection::NoSuchProgram { program, programs } => write!(
                f,
                "program {program} does not exist: the image has programs 0..{programs}"
            ),
            Rejection::NotRunning => f.write_str("no program is running: send ExecStart first"),
            Rejection::Exec(e) => write!(f, "executor: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::frame;
    use super::super::route_table::MAX_IMAGE_CHUNK;
    use super::*;

    #[test]
    fn largest_messages_fit_a_frame() {
        let mut words = Vec::new();
        for _ in 0..MAX_RNG_WORDS {
            words.push(u64::MAX).unwrap();
        }
        let mut degrees = Vec::new();
        let mut dist = Vec::new();
        for _ in 0..MAX_GRAPH_SWITCHES {
            degrees.push(u8::MAX).unwrap();
            dist.push(u8::MAX).unwrap();
        }
        let mut buf = [0u8; MAX_FRAME_LEN];
        for reply in [
            Reply::RngWords(words),
            Reply::Graph(GraphSummary {
                switches: u8::MAX,
                width: u8::MAX,
                links: u16::MAX,
                degrees,
                distances_from_0: dist,
                port_table_crc: u32::MAX,
            }),
        ] {
            let r = Response::new(u16::MAX, reply);
            assert!(frame::encode(&r, &mut buf).is_ok());
        }
    }

    #[test]
    fn largest_route_table_messages_fit_a_frame() {
        use crate::topology::circulant::MAX_JUMPS;
        use crate::topology::spec::NetworkSpec;
        let mut buf = [0u8; MAX_FRAME_LEN];
        // Worst case for COBS: no zero byte at all (one overhead byte per 254), and all zeros.
        for fill in [0xFFu8, 0x00] {
            let mut bytes = Vec::new();
            bytes.resize(MAX_IMAGE_CHUNK, fill).unwrap();
            let r = Response::new(
                u16::MAX,
                Reply::RouteTable(ImageChunk {
                    image_len: u32::MAX,
                    offset: u32::MAX,
                    bytes,
                }),
            );
            assert!(frame::encode(&r, &mut buf).is_ok(), "chunk of {fill:#x}");
        }
        let mut jumps = Vec::new();
        jumps.resize(MAX_JUMPS, u32::MAX).unwrap();
        let req = Request::new(
            u16::MAX,
            Command::RouteTable(RouteTableRequest {
                network: NetworkSpec::Circulant { n: u32::MAX, jumps },
                algorithm: RoutingAlgorithm::DragonflyMinimal,
                switch: u32::MAX,
                offset: u32::MAX,
                max_len: u16::MAX,
            }),
        );
        assert!(frame::encode(&req, &mut buf).is_ok());
        let r = Response::new(
            u16::MAX,
            Reply::Rejected(Rejection::TableCapacity {
                resource: TableResource::ImageBytes,
                needed: u64::MAX,
                available: u64::MAX,
            }),
        );
        assert!(frame::encode(&r, &mut buf).is_ok());
    }

    /// The largest device messages: every field at its maximum, every list full.
    mod largest_device_messages {
        use super::*;
        use crate::collective::{Blocks, Span};
        use crate::exec::Action;
        use crate::image::device::{Capacities, DeviceHeader, RoutingAlgorithm};
        use crate::routing::RouteEntry;
        use crate::topology::circulant::MAX_JUMPS;
        use crate::topology::spec::NetworkSpec;
        use crate::wire::device::{
            Arrival, DeviceCommand, DeviceInfo, DeviceLimits, DeviceReply, ExecReport,
            ImageSummary, MAX_ACTIONS, MAX_ARRIVALS, MAX_LOAD_CHUNK, MAX_ROUTES,
        };

        /// Two ranges with every field at its maximum.
        fn big() -> Blocks {
            Blocks::TwoRanges(
                Span {
                    start: u32::MAX,
                    len: u32::MAX,
                },
                Span {
                    start: u32::MAX,
                    len: u32::MAX,
                },
            )
        }

        #[test]
        fn commands_fit_a_frame() {
            let mut buf = [0u8; MAX_FRAME_LEN];
            let big = big();
            let mut chunk = Vec::new();
            chunk.resize(MAX_LOAD_CHUNK, 0).unwrap();
            let mut arrivals = Vec::new();
            arrivals
                .resize(
                    MAX_ARRIVALS,
                    Arrival {
                        peer: u32::MAX,
                        blocks: big,
                    },
                )
                .unwrap();
            for cmd in [
                DeviceCommand::LoadChunk {
                    offset: u32::MAX,
                    bytes: chunk,
                },
                DeviceCommand::ExecStep {
                    now: u64::MAX,
                    arrivals,
                },
            ] {
                assert!(
                    frame::encode(&Request::new(u16::MAX, Command::Device(cmd)), &mut buf).is_ok()
                );
            }
        }

        #[test]
        fn replies_fit_a_frame() {
            let mut buf = [0u8; MAX_FRAME_LEN];
            let big = big();
            let mut entries = Vec::new();
            entries
                .resize(
                    MAX_ROUTES,
                    RouteEntry {
                        port: u16::MAX,
                        vc: u8::MAX,
                    },
                )
                .unwrap();
            let mut actions = Vec::new();
            let deliver = Action::Deliver {
                op: u32::MAX,
                peer: u32::MAX,
                blocks: big,
                reduce: true,
            };
            actions.resize(MAX_ACTIONS, deliver).unwrap();
            let mut jumps = Vec::new();
            jumps.resize(MAX_JUMPS, u32::MAX).unwrap();
            let all = u32::MAX;
            let summary = ImageSummary {
                header: DeviceHeader {
                    switch: all,
                    network: NetworkSpec::Circulant { n: all, jumps },
                    algorithm: RoutingAlgorithm::Precomputed,
                    capacities: Capacities {
                        destinations: all,
                        runs: all,
                        programs: all,
                        ops: all,
                    },
                },
                image_len: all,
                crc: all,
            };
            let limits = DeviceLimits {
                runs: all,
                programs: all,
                ops: all,
                image_bytes: all,
            };
            for reply in [
                DeviceReply::Routes {
                    first: all,
                    entries,
                },
                DeviceReply::Exec(ExecReport {
                    actions,
                    done: true,
                    more: true,
                }),
                DeviceReply::Info(DeviceInfo {
                    active: Some(summary),
                    limits,
                    staged: all,
                    running: Some(all),
                }),
            ] {
                let r = Response::new(u16::MAX, Reply::Device(reply));
                assert!(frame::encode(&r, &mut buf).is_ok(), "{r:?}");
            }
        }
    }

    #[test]
    fn image_rejections_carry_cores_error_and_fit_a_frame() {
        let mut buf = [0u8; MAX_FRAME_LEN];
        for e in [
            ImageError::Truncated {
                len: usize::MAX,
                needed: usize::MAX,
            },
            ImageError::PeerOutOfRange {
                op: u32::MAX,
                peer: u32::MAX,
                ranks: u32::MAX,
            },
        ] {
            let r = Response::new(u16::MAX, Reply::Rejected(Rejection::Image(e)));
            let frame = frame::encode(&r, &mut buf).unwrap();
            let back: Response = frame::decode(frame).unwrap();
            assert_eq!(back, r);
        }
    }

    #[test]
    fn version_rejections_keep_their_encoding() {
        // Reply::Rejected is variant 4 and Rejection::UnsupportedVersion variant 1 in every
        // wire version, so a host of any version can read this answer.
        let r = Response::new(
            3,
            Reply::Rejected(Rejection::UnsupportedVersion {
                got: 1,
                supported: WIRE_VERSION,
            }),
        );
        let mut buf = [0u8; 16];
        let bytes = postcard::to_slice(&r, &mut buf).unwrap();
        assert_eq!(bytes, &[WIRE_VERSION, 3, 4, 1, 1, WIRE_VERSION]);
    }

    #[test]
    fn rejections_name_the_limits() {
        let text = std::format!("{}", Rejection::RngRequestTooLarge { count: 99, skip: 0 });
        assert!(text.contains("count=99") && text.contains("at most 32"));
        let text = std::format!(
            "{}",
            Rejection::GraphOutOfRange {
                switches: 2,
                chords: 0
            }
        );
        assert!(text.contains("3..=32"));
        let text = std::format!(
            "{}",
            Rejection::TableCapacity {
                resource: TableResource::Destinations,
                needed: 8192,
                available: 4096
            }
        );
        assert!(text.contains("8192 destinations") && text.contains("at most 4096"));
        let text = std::format!(
            "{}",
            Rejection::AlgorithmNotApplicable {
                algorithm: RoutingAlgorithm::Ecube
            }
        );
        assert_eq!(text, "routing algorithm ecube needs a hypercube");
    }
}
