//! The request loop over any byte port (`embedded_io::Read + Write`): UART0 on the board,
//! an in-memory pipe in unit tests.

use core::fmt;

use embedded_io::{Read, Write};

use crate::selftest::{self, Action};
use crate::tables::TableService;
use crate::wire::frame::{self, FrameAccumulator, FrameError};
use crate::wire::message::{Command, Rejection, Reply, Request, Response, MAX_FRAME_LEN};

/// What [`Server::serve_one`] did with one incoming frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(target_os = "none", derive(defmt::Format))]
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

/// Serves requests, one frame at a time. Holds the frame buffers and the route-table
/// service with its buffers (about 110 KiB in all): keep it in static memory on a device.
#[derive(Debug)]
pub struct Server {
    rx: FrameAccumulator<MAX_FRAME_LEN>,
    tx: [u8; MAX_FRAME_LEN],
    served: u32,
    tables: TableService,
}

impl Default for Server {
    fn default() -> Self {
        Self::new()
    }
}

impl Server {
    /// A server that has served nothing yet.
    pub const fn new() -> Self {
        Server {
            rx: FrameAccumulator::new(),
            tx: [0; MAX_FRAME_LEN],
            served: 0,
            tables: TableService::new(),
        }
    }

    /// Requests answered so far.
    pub fn served(&self) -> u32 {
        self.served
    }

    /// Route tables computed so far.
    pub fn tables_computed(&self) -> u32 {
        self.tables.computations()
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
                    let (response, action) =
                        selftest::handle(&request, self.served, &mut self.tables);
                    self.served = self.served.saturating_add(1);
                    let served = Served::Request {
                        id: request.id,
                        kind: CommandKind::from(&request.command),
                        rejected: matches!(response.reply, Reply::Rejected(_)),
                        action,
                    };
                    if action == Action::Panic {
                        return Ok(served);
                    }
                    (response, served)
                }
                Err(e) => (
                    Response::new(0, Reply::Rejected(Rejection::Frame(e))),
                    Served::BadFrame(e),
                ),
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
    use crate::wire::message::WIRE_VERSION;
    use std::vec::Vec;

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
        let mut server = Server::new();
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
        let s = Server::new().serve_one(&mut pipe).unwrap();
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
