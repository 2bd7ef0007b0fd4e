//! The device client: sends requests over a [`Transport`], matches responses by id, retries
//! after damaged or lost frames, and offers the device commands as methods.

use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use jumpnet_core::exec::Action;
use jumpnet_core::routing::RouteEntry;
use jumpnet_core::wire::device::{
    Arrival, Counters, DeviceCommand, DeviceInfo, DeviceReply, ImageSummary, MAX_ARRIVALS,
    MAX_LOAD_CHUNK,
};
use jumpnet_core::wire::{frame, Command, Rejection, Reply, Request, Response, MAX_FRAME_LEN};

use super::Transport;

/// Why a device call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The device answered with a rejection.
    Rejected(Rejection),
    /// No valid answer after every attempt.
    NoAnswer {
        /// Attempts made.
        attempts: u32,
    },
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Rejected(r) => write!(f, "the device rejected the request: {r}"),
            CallError::NoAnswer { attempts } => {
                write!(
                    f,
                    "no valid answer from the device after {attempts} attempts"
                )
            }
        }
    }
}

impl std::error::Error for CallError {}

/// What the device's executor did in one exec call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    /// Sends, deliveries and permutes, in order.
    pub actions: Vec<Action>,
    /// Every op of the program is done.
    pub done: bool,
}

/// A device behind a transport.
#[derive(Debug)]
pub struct Client<T> {
    transport: T,
    next_id: u16,
    /// Longest wait for one answer before the request is sent again.
    pub timeout: Duration,
    /// Attempts per request.
    pub attempts: u32,
    /// Frames received that did not decode or answered another request.
    pub discarded: u64,
}

impl<T: Transport> Client<T> {
    /// A client over `transport` (2 s per answer, 5 attempts).
    pub fn new(transport: T) -> Self {
        Client {
            transport,
            next_id: 1,
            timeout: Duration::from_secs(2),
            attempts: 5,
            discarded: 0,
        }
    }

    /// The transport.
    pub fn transport_mut(&mut self) -> &mut T {
        &mut self.transport
    }

    /// Gives the transport back.
    pub fn into_transport(self) -> T {
        self.transport
    }

    /// Reads one frame (without its terminator); `None` on timeout.
    fn read_frame(&mut self, deadline: Instant) -> Result<Option<Vec<u8>>> {
        let mut bytes = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            match self.transport.read_byte(left)? {
                None => return Ok(None),
                Some(frame::TERMINATOR) if bytes.is_empty() => {}
                Some(frame::TERMINATOR) => return Ok(Some(bytes)),
                Some(b) if bytes.len() > MAX_FRAME_LEN => {
                    bytes.clear();
                    bytes.push(b);
                }
                Some(b) => bytes.push(b),
            }
        }
    }

    /// Sends `command` and returns the device's reply. A damaged request (answered with a
    /// frame rejection), a damaged or missing answer are retried (after a lone terminator
    /// that ends any partial frame on the device) up to `attempts` times.
    pub fn call(&mut self, command: Command) -> Result<Reply> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let mut buf = [0u8; MAX_FRAME_LEN];
        let bytes = frame::encode(&Request::new(id, command), &mut buf)
            .map_err(|e| anyhow!("request does not fit a frame: {e}"))?
            .to_vec();
        for _ in 0..self.attempts {
            self.transport.write_all(&bytes)?;
            let deadline = Instant::now() + self.timeout;
            while let Some(mut f) = self.read_frame(deadline)? {
                match frame::decode::<Response>(&mut f) {
                    Ok(r) if r.id == id => return Ok(r.reply),
                    _ => self.discarded += 1,
                }
            }
            self.transport.write_all(&[frame::TERMINATOR])?;
        }
        Err(CallError::NoAnswer {
            attempts: self.attempts,
        }
        .into())
    }

    /// A device command; a rejection is a [`CallError::Rejected`].
    pub fn device(&mut self, command: DeviceCommand) -> Result<DeviceReply> {
        match self.call(Command::Device(command))? {
            Reply::Device(d) => Ok(d),
            Reply::Rejected(r) => Err(CallError::Rejected(r).into()),
            other => bail!("unexpected reply {other:?}"),
        }
    }

    /// Loads `image` in chunks and activates it.
    pub fn flash(&mut self, image: &[u8]) -> Result<ImageSummary> {
        let image_len = u32::try_from(image.len()).context("image larger than 4 GiB")?;
        self.device(DeviceCommand::LoadBegin { image_len })?;
        for (i, chunk) in image.chunks(MAX_LOAD_CHUNK).enumerate() {
            let bytes = heapless::Vec::from_slice(chunk).map_err(|_| anyhow!("chunk size"))?;
            self.device(DeviceCommand::LoadChunk {
                offset: (i * MAX_LOAD_CHUNK) as u32,
                bytes,
            })?;
        }
        match self.device(DeviceCommand::Activate)? {
            DeviceReply::Activated(s) => Ok(s),
            other => bail!("unexpected reply to Activate: {other:?}"),
        }
    }

    /// What is loaded.
    pub fn info(&mut self) -> Result<DeviceInfo> {
        match self.device(DeviceCommand::Info)? {
            DeviceReply::Info(i) => Ok(i),
            other => bail!("unexpected reply to Info: {other:?}"),
        }
    }

    /// The active image's bytes.
    pub fn read_image(&mut self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        loop {
            let reply = self.device(DeviceCommand::ReadImage {
                offset: out.len() as u32,
                max_len: u16::MAX,
            })?;
            let DeviceReply::Image(c) = reply else {
                bail!("unexpected reply to ReadImage: {reply:?}")
            };
            out.extend_from_slice(&c.bytes);
            if out.len() >= c.image_len as usize {
                return Ok(out);
            }
            if c.bytes.is_empty() {
                bail!("the device sent an empty chunk at offset {}", out.len());
            }
        }
    }

    /// Route entries of destinations `0..destinations` of the active table.
    pub fn routes(&mut self, destinations: u32) -> Result<Vec<RouteEntry>> {
        let mut out = Vec::new();
        while (out.len() as u32) < destinations {
            let reply = self.device(DeviceCommand::Routes {
                first: out.len() as u32,
                count: u16::MAX,
            })?;
            let DeviceReply::Routes { entries, .. } = reply else {
                bail!("unexpected reply to Routes: {reply:?}")
            };
            if entries.is_empty() {
                bail!("the device sent no routes at destination {}", out.len());
            }
            out.extend_from_slice(&entries);
        }
        Ok(out)
    }

    /// Starts program `program` of the active image at time `now`; returns every action
    /// the executor issued at once (following `more`).
    pub fn exec_start(&mut self, program: u32, now: u64) -> Result<Step> {
        let first = self.device(DeviceCommand::ExecStart { program, now })?;
        self.collect(first, now, &[])
    }

    /// Delivers `arrivals` (in batches of at most `MAX_ARRIVALS`) and polls at `now`;
    /// returns every action issued (following `more`).
    pub fn exec_step(&mut self, now: u64, arrivals: &[Arrival]) -> Result<Step> {
        let n = arrivals.len().min(MAX_ARRIVALS);
        let (batch, rest) = arrivals.split_at(n);
        let batch = heapless::Vec::from_slice(batch).map_err(|_| anyhow!("arrival batch"))?;
        let first = self.device(DeviceCommand::ExecStep {
            now,
            arrivals: batch,
        })?;
        self.collect(first, now, rest)
    }

    fn collect(&mut self, mut reply: DeviceReply, now: u64, mut rest: &[Arrival]) -> Result<Step> {
        let mut step = Step::default();
        loop {
            let DeviceReply::Exec(r) = reply else {
                bail!("unexpected reply to an exec command: {reply:?}")
            };
            step.actions.extend_from_slice(&r.actions);
            step.done = r.done;
            if !r.more && rest.is_empty() {
                return Ok(step);
            }
            let n = rest.len().min(MAX_ARRIVALS);
            let (batch, r2) = rest.split_at(n);
            rest = r2;
            let batch = heapless::Vec::from_slice(batch).map_err(|_| anyhow!("arrival batch"))?;
            reply = self.device(DeviceCommand::ExecStep {
                now,
                arrivals: batch,
            })?;
        }
    }

    /// The device's counters.
    pub fn counters(&mut self) -> Result<Counters> {
        match self.device(DeviceCommand::Counters)? {
            DeviceReply::Counters(c) => Ok(c),
            other => bail!("unexpected reply to Counters: {other:?}"),
        }
    }

    /// [`Client::flash`], then reads the image back and requires equal bytes.
    pub fn flash_and_read_back(&mut self, image: &[u8]) -> Result<ImageSummary> {
        let summary = self.flash(image)?;
        let back = self.read_image()?;
        if back != image {
            bail!(
                "read-back differs from the flashed image ({} vs {} bytes)",
                back.len(),
                image.len()
            );
        }
        Ok(summary)
    }

    /// The active table's routes beside `host`'s, destination by destination.
    pub fn compare_routes(&mut self, host: &[RouteEntry]) -> Result<RouteComparison> {
        let device = self.routes(host.len() as u32)?;
        let differing = (0..host.len())
            .filter(|&d| device.get(d) != host.get(d))
            .collect();
        Ok(RouteComparison { device, differing })
    }
}

/// A device's routes beside the host's ([`Client::compare_routes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteComparison {
    /// The device's entry of every destination.
    pub device: Vec<RouteEntry>,
    /// Destinations whose entries differ from the host's, in order.
    pub differing: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use jumpnet_core::image::ImageError;
    use jumpnet_firmware::serve::{ServeError, Server};

    use super::*;
    use crate::device::fault::FaultInjector;
    use crate::device::test_support::{device_server, Pipe};

    /// The firmware's request loop running in process: bytes written are served at once.
    struct InProcess {
        server: Server<'static>,
        pipe: Pipe,
    }

    impl InProcess {
        fn new() -> Self {
            InProcess {
                server: device_server(),
                pipe: Pipe::default(),
            }
        }
    }

    impl Transport for InProcess {
        fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
            self.pipe.input.extend(bytes);
            loop {
                match self.server.serve_one(&mut self.pipe) {
                    Ok(_) => {}
                    Err(ServeError::EndOfInput) => return Ok(()),
                    Err(e) => bail!("{e}"),
                }
            }
        }
        fn read_byte(&mut self, _: Duration) -> Result<Option<u8>> {
            Ok(self.pipe.output.pop_front())
        }
    }

    #[test]
    fn flashing_through_a_faulty_link_gives_the_exact_image_and_routes() {
        let built = crate::device::test_support::g64_image();
        assert_eq!(built.programs.len(), 1);
        assert_eq!((built.programs[0].rank, built.programs[0].ranks), (5, 64));
        let mut client = Client::new(FaultInjector::new(InProcess::new(), 7, 4));
        client.timeout = Duration::from_millis(1);
        client.attempts = 40;
        let summary = client.flash(&built.bytes).unwrap();
        assert_eq!(summary.image_len as usize, built.bytes.len());
        assert_eq!(summary.header.switch, 5);
        assert_eq!(client.read_image().unwrap(), built.bytes);
        assert_eq!(client.routes(64).unwrap(), built.table);
        let faults = client.transport_mut().faults();
        let counters = client.counters().unwrap();
        assert!(faults > 0, "faults were injected");
        assert!(counters.bad_frames > 0, "{counters:?}");

        // A corrupt image over a clean link: rejected, the previous image stays.
        client.transport_mut().set_per_mille(0);
        let mut bad = built.bytes.clone();
        bad[40] ^= 0x01;
        let err = client.flash(&bad).unwrap_err();
        match err.downcast_ref::<CallError>() {
            Some(CallError::Rejected(Rejection::Image(ImageError::CrcMismatch { .. }))) => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(client.read_image().unwrap(), built.bytes);
        let info = client.info().unwrap();
        assert_eq!(info.active.map(|s| s.crc), Some(summary.crc));

        // Rank 5's allreduce program runs like the in-process executor when every partner
        // answers a send with the same blocks (recursive doubling exchanges).
        use jumpnet_core::exec::{Executor, OpStatus};
        use jumpnet_core::image::device::{decode, DeviceBuffers};
        let (mut runs, mut programs) = (vec![], vec![Default::default(); 1]);
        runs.resize(
            64,
            jumpnet_core::routing::Run {
                first: 0,
                value: RouteEntry::NONE,
            },
        );
        let blank = jumpnet_core::collective::Op::Permute {
            reflect: false,
            shift: 0,
            after: jumpnet_core::collective::Dep::None,
        };
        let mut ops = vec![blank; 64];
        let d = decode(
            &built.bytes,
            DeviceBuffers {
                runs: &mut runs,
                programs: &mut programs,
                ops: &mut ops,
            },
        )
        .unwrap();
        let (_, program) = d.program(0).unwrap();
        let mut status = vec![OpStatus::Pending; program.len()];
        let mut local = Executor::new(program, &mut status).unwrap();
        let mut step = client.exec_start(0, 0).unwrap();
        for now in 1..20u64 {
            let mut expected = Vec::new();
            let done = loop {
                match local.poll(now - 1).unwrap() {
                    Action::Wait => break false,
                    Action::Done => break true,
                    a => expected.push(a),
                }
            };
            assert_eq!((&step.actions, step.done), (&expected, done));
            if done {
                break;
            }
            let arrivals: Vec<Arrival> = expected
                .iter()
                .filter_map(|a| match *a {
                    Action::Send { peer, blocks, .. } => Some(Arrival { peer, blocks }),
                    _ => None,
                })
                .collect();
            for a in &arrivals {
                local.on_receive(a.peer, a.blocks).unwrap();
            }
            step = client.exec_step(now, &arrivals).unwrap();
        }
        assert!(step.done && local.is_done());
    }

    #[test]
    fn a_silent_device_is_an_error_not_a_hang() {
        struct Silent;
        impl Transport for Silent {
            fn write_all(&mut self, _: &[u8]) -> Result<()> {
                Ok(())
            }
            fn read_byte(&mut self, _: Duration) -> Result<Option<u8>> {
                Ok(None)
            }
        }
        let mut client = Client::new(Silent);
        client.attempts = 3;
        let err = client.info().unwrap_err();
        assert_eq!(
            err.downcast_ref::<CallError>(),
            Some(&CallError::NoAnswer { attempts: 3 })
        );
        assert_eq!(
            err.to_string(),
            "no valid answer from the device after 3 attempts"
        );
    }
}
