use super::*;
use crate::device::DeviceService;
use crate::serve::{ServeError, Served, Server};
use embedded_hal_mock::eh1::delay::{CheckedDelay, NoopDelay, Transaction};
use jumpnet_core::wire::device::{DeviceCommand, DeviceReply};
use jumpnet_core::wire::frame;
use jumpnet_core::wire::message::{Command, Reply, Request, Response, MAX_FRAME_LEN};
use std::collections::VecDeque;
use std::vec::Vec;

/// A non-blocking port playing a script: `None` is one poll that finds nothing, `Some(b)` a
/// byte ready; after the script, silence. Records what is written.
#[derive(Default)]
struct Script {
    events: VecDeque<Option<u8>>,
    written: Vec<u8>,
}

impl Script {
    fn new(events: impl IntoIterator<Item = Option<u8>>) -> Self {
        Script {
            events: events.into_iter().collect(),
            written: Vec::new(),
        }
    }
}

fn silence(polls: usize) -> impl Iterator<Item = Option<u8>> {
    std::iter::repeat_n(None, polls)
}

fn bytes(b: &[u8]) -> impl Iterator<Item = Option<u8>> + '_ {
    b.iter().copied().map(Some)
}

impl ErrorType for Script {
    type Error = core::convert::Infallible;
}
impl ReadReady for Script {
    fn read_ready(&mut self) -> Result<bool, Self::Error> {
        match self.events.front() {
            Some(Some(_)) => Ok(true),
            Some(None) => {
                self.events.pop_front();
                Ok(false)
            }
            None => Ok(false),
        }
    }
}
impl Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        match self.events.pop_front() {
            Some(Some(b)) => {
                buf[0] = b;
                Ok(1)
            }
            _ => panic!("read without a ready byte"),
        }
    }
}
impl Write for Script {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

const TIMING: Timing = Timing {
    poll_us: 20,
    heartbeat_us: 1_000,
    frame_timeout_us: 100,
};

#[test]
fn heartbeat_counts_whole_periods_of_waiting() {
    let link = LinkStatus::new();
    // 5,030 empty polls of 20 µs = 100,600 µs: 100 beats; then a terminator after 1 more.
    let script = Script::new(silence(5_030).chain(bytes(&[0x00])).chain(silence(20)));
    let mut port = TimedPort::new(script, NoopDelay::new(), TIMING, &link);
    let mut b = [0xffu8; 1];
    assert_eq!(port.read(&mut b), Ok(1));
    assert_eq!(b[0], 0x00);
    assert_eq!(link.heartbeats(), 100);
    // Between frames silence is no timeout: the read keeps waiting (and beating) until the
    // script's trailing silence is over and the port stays silent; bound it with a byte.
    let (mut inner, delay) = port.release();
    inner.events.extend(silence(25).chain(bytes(&[0x42])));
    let mut port = TimedPort::new(inner, delay, TIMING, &link);
    assert_eq!(port.read(&mut b), Ok(1), "no timeout outside a frame");
    assert_eq!(b[0], 0x42);
    assert_eq!(link.frame_timeouts(), 0);
}

#[test]
fn a_started_frame_times_out_after_exactly_the_timeout_in_polls() {
    let link = LinkStatus::new();
    let script = Script::new(bytes(&[0x05]));
    // frame_timeout 100 µs / poll 20 µs: exactly five waits of 20 µs, then the timeout.
    let expected: Vec<Transaction> = (0..5).map(|_| Transaction::delay_us(20)).collect();
    let mut delay = CheckedDelay::new(&expected);
    let mut port = TimedPort::new(script, delay.clone(), TIMING, &link);
    let mut b = [0u8; 1];
    assert_eq!(port.read(&mut b), Ok(1));
    assert_eq!(port.read(&mut b), Err(TimedPortError::FrameTimeout));
    assert_eq!(link.frame_timeouts(), 1);
    delay.done();
    link.reset();
    assert_eq!(link.frame_timeouts(), 0);
}

#[test]
fn slow_but_in_time_bytes_do_not_time_out() {
    let link = LinkStatus::new();
    // Four empty polls (80 µs < 100 µs) between the bytes of a frame.
    let script = Script::new(
        bytes(&[0x05])
            .chain(silence(4))
            .chain(bytes(&[0x06]))
            .chain(silence(4))
            .chain(bytes(&[0x00])),
    );
    let mut port = TimedPort::new(script, NoopDelay::new(), TIMING, &link);
    let mut got = Vec::new();
    for _ in 0..3 {
        let mut b = [0u8; 1];
        assert_eq!(port.read(&mut b), Ok(1));
        got.push(b[0]);
    }
    assert_eq!(got, [0x05, 0x06, 0x00]);
    assert_eq!(link.frame_timeouts(), 0);
}

fn encoded(req: &Request) -> Vec<u8> {
    let mut buf = [0u8; MAX_FRAME_LEN];
    frame::encode(req, &mut buf).unwrap().to_vec()
}

#[test]
fn server_drops_a_truncated_frame_after_the_timeout_and_serves_the_next() {
    let link = LinkStatus::new();
    let counters = Request::new(9, Command::Device(DeviceCommand::Counters));
    let whole = encoded(&counters);
    // The first half of a frame, 200 µs of silence, then the whole frame.
    let script = Script::new(
        bytes(&whole[..whole.len() / 2])
            .chain(silence(10))
            .chain(bytes(&whole)),
    );
    let mut port = TimedPort::new(script, NoopDelay::new(), TIMING, &link);
    let mut device = DeviceService::<8, 2, 8, 256>::new();
    let mut server = Server::new(None, &mut device).with_link(&link);
    assert_eq!(
        server.serve_one(&mut port),
        Err(ServeError::Io(TimedPortError::FrameTimeout))
    );
    server.abandon_frame();
    let served = server.serve_one(&mut port).unwrap();
    assert!(matches!(
        served,
        Served::Request {
            id: 9,
            rejected: false,
            ..
        }
    ));
    let (script, _) = port.release();
    let mut out = script.written.clone();
    let end = out.iter().position(|&b| b == 0).unwrap();
    let response: Response = frame::decode(&mut out[..end]).unwrap();
    let Reply::Device(DeviceReply::Counters(c)) = response.reply else {
        panic!("unexpected reply {response:?}");
    };
    assert_eq!(c.frame_timeouts, 1);
    assert_eq!(
        c.bad_frames, 0,
        "the partial frame was dropped, not decoded"
    );
    assert_eq!(c.heartbeats, 0, "200 µs of waiting is no 1 ms beat");
}
