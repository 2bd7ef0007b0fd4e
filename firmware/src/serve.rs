//! The request loop over any byte port (`embedded_io::Read + Write`): UART0 on the board,
//! an in-memory pipe in unit tests.

use core::fmt;

use embedded_io::{Read, Write};

use crate::device::DeviceHandler;
use crate::link::LinkStatus;
use crate::selftest::{self, Action, Services};
use crate::tables::TableService;
use jumpnet_core::wire::device::{Counters, DeviceCommand, DeviceReply};
use jumpnet_core::wire::frame::{self, FrameAccumulator, FrameError};
use jumpnet_core::wire::message::{Command, Rejection, Reply, Request, Response, MAX_FRAME_LEN};

/// What [`Server::serve_one`] did with one incoming frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Served {
    /// A request was answered; `action` tells whether to continue, stop or panic.
    Request {
        /// Request id.
        id: u16,
        /// What the request asked for.
        kind: CommandKind,
        /// Whether the reply was a rejection.
        rejected: bool,
        /// What to do next.
        action: Action,
    },
    /// A frame could not be decoded; a [`Rejection::Frame`] reply was sent.
    BadFrame(FrameError),
}

/// The command of a request, without its parameters (for logs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(target_os = "none", derive(defmt::Format))]
pub enum CommandKind {
    /// [`Command::Hello`].
    Hello,
    /// [`Command::RngWords`].
    RngWords,
    /// [`Command::RingWithChords`].
    RingWithChords,
    /// [`Command::Shutdown`].
    Shutdown,
    /// [`Command::Panic`].
    Panic,
    /// [`Command::RouteTable`].
    RouteTable,
    /// [`Command::Device`].
    Device,
}

impl From<&Command> for CommandKind {
    fn from(c: &Command) -> Self {
        match c {
            Command::Hello => CommandKind::Hello,
            Command::RngWords { .. } => CommandKind::RngWords,
            Command::RingWithChords { .. } => CommandKind::RingWithChords,
            Command::Shutdown => CommandKind::Shutdown,
            Command::Panic => CommandKind::Panic,
            Command::RouteTable(_) => CommandKind::RouteTable,
            Command::Device(_) => CommandKind::Device,
        }
    }
}

/// Why serving stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServeError<E> {
    /// The port failed.
    Io(E),
    /// The port reached end of input.
    EndOfInput,
    /// A response did not fit [`MAX_FRAME_LEN`] (a bug: all replies are sized to fit).
    Encode(FrameError),
}

impl<E: fmt::Debug> fmt::Display for ServeError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Io(e) => write!(f, "port error: {e:?}"),
            ServeError::EndOfInput => f.write_str("port reached end of input"),
            ServeError::Encode(e) => write!(f, "response not encodable: {e}"),
        }
    }
}

/// Serves requests, one frame at a time. Holds the frame buffers (1 KiB) and borrows the
/// services: the route-table service (about 110 KiB, absent in device builds) and the device
/// image service; keep those in static memory on a device.
pub struct Server<'a> {
    rx: FrameAccumulator<MAX_FRAME_LEN>,
    tx: [u8; MAX_FRAME_LEN],
    served: u32,
    rejected: u32,
    bad_frames: u32,
    tables: Option<&'a mut TableService>,
    device: &'a mut dyn DeviceHandler,
    link: Option<&'a LinkStatus>,
}

impl fmt::Debug for Server<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("served", &self.served)
            .field("rejected", &self.rejected)
            .field("bad_frames", &self.bad_frames)
            .field("tables", &self.tables.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> Server<'a> {
    /// A server that has served nothing yet.
    pub fn new(tables: Option<&'a mut TableService>, device: &'a mut dyn DeviceHandler) -> Self {
        Server {
            rx: FrameAccumulator::new(),
            tx: [0; MAX_FRAME_LEN],
            served: 0,
            rejected: 0,
            bad_frames: 0,
            tables,
            device,
            link: None,
        }
    }

    /// Reports the heartbeats and frame timeouts counted in `link` (by a
    /// [`crate::link::TimedPort`]) in `Counters`.
    pub fn with_link(mut self, link: &'a LinkStatus) -> Self {
        self.link = Some(link);
        self
    }

    /// Drops the bytes of a partial frame (after [`crate::link::TimedPortError::FrameTimeout`]).
    pub fn abandon_frame(&mut self) {
        self.rx.clear();
    }

    /// Requests answered so far.
    pub fn served(&self) -> u32 {
        self.served
    }

    /// Route tables computed so far (0 without the route-table service).
    pub fn tables_computed(&self) -> u32 {
        self.tables.as_ref().map_or(0, |t| t.computations())
    }

    /// Reads bytes until one frame is complete, answers it and reports what happened.
    /// For [`Action::Panic`] nothing is sent; the caller panics.
    pub fn serve_one<P: Read + Write>(
        &mut self,
        port: &mut P,
    ) -> Result<Served, ServeError<P::Error>> {
        let mut byte = [0u8; 1];
        loop {
            let n = port.read(&mut byte).map_err(ServeError::Io)?;
            if n == 0 {
                return Err(ServeError::EndOfInput);
            }
            let Some(frame) = self.rx.push(byte[0]) else {
                continue;
            };
            let (response, served) = match frame.and_then(frame::decode::<Request>) {
                Ok(request) => {
                    let services = Services {
                        tables: self.tables.as_deref_mut(),
                        device: &mut *self.device,
                        frames: Counters {
                            requests: self.served,
                            rejected: self.rejected,
                            bad_frames: self.bad_frames,
                            heartbeats: self.link.map_or(0, LinkStatus::heartbeats),
                            frame_timeouts: self.link.map_or(0, LinkStatus::frame_timeouts),
                            ..Counters::default()
                        },
                    };
                    let (response, action) = selftest::handle(&request, self.served, services);
                    self.served = self.served.saturating_add(1);
                    let rejected = matches!(response.reply, Reply::Rejected(_));
                    if rejected {
                        self.rejected = self.rejected.saturating_add(1);
                    }
                    if matches!(request.command, Command::Device(DeviceCommand::Reset))
                        && response.reply == Reply::Device(DeviceReply::Reset)
                    {
                        (self.served, self.rejected, self.bad_frames) = (0, 0, 0);
                        if let Some(link) = self.link {
                            link.reset();
                        }
                    }
                    let served = Served::Request {
                        id: request.id,
                        kind: CommandKind::from(&request.command),
                        rejected,
                        action,
                    };
                    if action == Action::Panic {
                        return Ok(served);
                    }
                    (response, served)
                }
                Err(e) => {
                    self.bad_frames = self.bad_frames.saturating_add(1);
                    (
                        Response::new(0, Reply::Rejected(Rejection::Frame(e))),
                        Served::BadFrame(e),
                    )
                }
            };
            let bytes = frame::encode(&response, &mut self.tx).map_err(ServeError::Encode)?;
            port.write_all(bytes).map_err(ServeError::Io)?;
            port.flush().map_err(ServeError::Io)?;
            return Ok(served);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::DeviceService;
    use jumpnet_core::wire::message::WIRE_VERSION;
    use std::vec::Vec;

    type TestDevice = DeviceService<64, 4, 64, 2048>;

    /// A port reading from a fixed input and recording what is written.
    struct Pipe {
        input: Vec<u8>,
        pos: usize,
        output: Vec<u8>,
    }

    impl embedded_io::ErrorType for Pipe {
        type Error = core::convert::Infallible;
    }
    impl Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
            let rest = &self.input[self.pos..];
            let n = rest.len().min(buf.len());
            buf[..n].copy_from_slice(&rest[..n]);
            self.pos += n;
            Ok(n)
        }
    }
    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
            self.output.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    fn encoded(req: &Request) -> Vec<u8> {
        let mut buf = [0u8; MAX_FRAME_LEN];
        frame::encode(req, &mut buf).unwrap().to_vec()
    }

    fn responses(output: &[u8]) -> Vec<Response> {
        output
            .split(|&b| b == 0)
            .filter(|f| !f.is_empty())
            .map(|f| frame::decode::<Response>(&mut f.to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn serves_a_session_and_survives_a_corrupt_frame() {
        let mut input = Vec::new();
        input.extend(encoded(&Request::new(1, Command::Hello)));
        let mut bad = encoded(&Request::new(2, Command::Hello));
        bad[2] ^= 0x40;
        input.extend(bad);
        input.extend(encoded(&Request::new(
            3,
            Command::RngWords {
                seed: 42,
                skip: 0,
                count: 3,
            },
        )));
        input.extend(encoded(&Request::new(4, Command::Shutdown)));
        let mut pipe = Pipe {
            input,
            pos: 0,
            output: Vec::new(),
        };
        let mut tables = TableService::new();
        let mut device = TestDevice::new();
        let mut server = Server::new(Some(&mut tables), &mut device);
        let mut log = Vec::new();
        loop {
            let s = server.serve_one(&mut pipe).unwrap();
            log.push(s);
            if let Served::Request {
                action: Action::Shutdown,
                ..
            } = s
            {
                break;
            }
        }
        assert_eq!(log.len(), 4);
        assert_eq!(log[1], Served::BadFrame(FrameError::BadCrc));
        assert_eq!(server.served(), 3);
        let out = responses(&pipe.output);
        assert_eq!(out.len(), 4);
        assert!(out.iter().all(|r| r.version == WIRE_VERSION));
        assert_eq!(
            out[0].reply,
            Reply::Hello {
                wire_version: WIRE_VERSION,
                served: 0
            }
        );
        assert_eq!(
            out[1],
            Response::new(0, Reply::Rejected(Rejection::Frame(FrameError::BadCrc)))
        );
        let expected = selftest::rng_words(42, 0, 3).unwrap();
        assert_eq!(out[2], Response::new(3, Reply::RngWords(expected)));
        assert_eq!(out[3], Response::new(4, Reply::ShuttingDown));
        assert_eq!(
            server.serve_one(&mut pipe),
            Err(ServeError::EndOfInput),
            "input exhausted"
        );
    }

    #[test]
    fn panic_request_sends_nothing() {
        let mut pipe = Pipe {
            input: encoded(&Request::new(5, Command::Panic)),
            pos: 0,
            output: Vec::new(),
        };
        let mut device = TestDevice::new();
        let s = Server::new(None, &mut device).serve_one(&mut pipe).unwrap();
        assert!(matches!(
            s,
            Served::Request {
                id: 5,
                action: Action::Panic,
                ..
            }
        ));
        assert!(pipe.output.is_empty());
    }
}
