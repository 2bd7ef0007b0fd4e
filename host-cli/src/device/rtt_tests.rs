use super::*;
use crate::device::test_support::{device_server, Pipe};
use crate::device::Client;
use jumpnet_core::wire::device::DeviceCommand;
use jumpnet_core::wire::{Command, Reply, WIRE_VERSION};
use jumpnet_firmware::serve::{ServeError, Server};

/// A target with tiny RTT ring buffers and the real request loop behind them: on every
/// host access the "device" takes at most `device_reads` bytes from the down ring, serves
/// complete frames, and moves answers into the up ring as far as it has room. Every served
/// request logs two bytes (`0xA5`, low byte of the count) to the log ring.
struct MockTarget {
    down: VecDeque<u8>,
    up: VecDeque<u8>,
    log: VecDeque<u8>,
    cap: usize,
    device_reads: usize,
    running: bool,
    server: Server<'static>,
    pipe: Pipe,
    served: u32,
    largest_write: usize,
}

impl MockTarget {
    fn new(cap: usize, device_reads: usize) -> Self {
        MockTarget {
            down: VecDeque::new(),
            up: VecDeque::new(),
            log: VecDeque::new(),
            cap,
            device_reads,
            running: true,
            server: device_server(),
            pipe: Pipe::default(),
            served: 0,
            largest_write: 0,
        }
    }

    fn device_step(&mut self) {
        if !self.running {
            return;
        }
        for _ in 0..self.device_reads {
            let Some(b) = self.down.pop_front() else {
                break;
            };
            self.pipe.input.push_back(b);
        }
        loop {
            match self.server.serve_one(&mut self.pipe) {
                Ok(_) => {
                    self.served += 1;
                    if self.log.len() + 2 <= self.cap {
                        self.log.extend([0xA5, self.served as u8]);
                    }
                }
                Err(ServeError::EndOfInput) => break,
                Err(e) => panic!("device: {e}"),
            }
        }
        while self.up.len() < self.cap {
            let Some(b) = self.pipe.output.pop_front() else {
                break;
            };
            self.up.push_back(b);
        }
    }
}

fn drain(ring: &mut VecDeque<u8>, buf: &mut [u8]) -> usize {
    let n = ring.len().min(buf.len());
    for slot in &mut buf[..n] {
        *slot = ring.pop_front().unwrap();
    }
    n
}

impl RttChannels for MockTarget {
    fn write_down(&mut self, bytes: &[u8]) -> Result<usize> {
        self.device_step();
        let n = (self.cap - self.down.len()).min(bytes.len());
        self.down.extend(&bytes[..n]);
        self.largest_write = self.largest_write.max(n);
        Ok(n)
    }
    fn read_up(&mut self, buf: &mut [u8]) -> Result<usize> {
        self.device_step();
        Ok(drain(&mut self.up, buf))
    }
    fn read_log(&mut self, buf: &mut [u8]) -> Result<usize> {
        Ok(drain(&mut self.log, buf))
    }
}

fn fast(link: RttLink<MockTarget>) -> RttLink<MockTarget> {
    RttLink {
        poll: Duration::ZERO,
        ..link
    }
}

#[test]
fn frames_larger_than_the_rings_cross_in_chunks() {
    // 32-byte rings, the device reads 5 bytes per step: every 512-byte image chunk frame
    // and every answer crosses in many pieces.
    let mut client = Client::new(fast(RttLink::new(MockTarget::new(32, 5))));
    let image = crate::device::test_support::g64_image();
    let summary = client.flash(&image.bytes).unwrap();
    assert_eq!(summary.image_len as usize, image.bytes.len());
    assert_eq!(client.read_image().unwrap(), image.bytes);
    assert_eq!(
        client.routes(image.table.len() as u32).unwrap(),
        image.table
    );
    let Reply::Hello { wire_version, .. } = client.call(Command::Hello).unwrap() else {
        panic!("not a Hello reply");
    };
    assert_eq!(wire_version, WIRE_VERSION);
    assert_eq!(client.discarded, 0, "no frame was damaged by chunking");
    let mut link = client.into_transport();
    let target = link.channels_mut();
    assert!(target.largest_write <= 32);
    let served = target.served;
    assert!(
        image.bytes.len() > 4 * 32,
        "the image is larger than the rings"
    );
    assert!(
        served >= 5,
        "load, activate, read back, routes, hello: {served}"
    );
    // The log ring (2 bytes a request) was drained while serving, nothing lost.
    let log = link.take_log().unwrap();
    let expected: Vec<u8> = (1..=served).flat_map(|n| [0xA5, n as u8]).collect();
    assert_eq!(log, expected);
}

#[test]
fn a_device_that_never_reads_gives_a_write_timeout() {
    let mut target = MockTarget::new(16, 4);
    target.running = false;
    let mut link = fast(RttLink::new(target));
    link.write_timeout = Duration::from_millis(20);
    let err = link.write_all(&[7u8; 40]).unwrap_err().to_string();
    assert!(
        err.contains("did not read the RTT down channel") && err.contains("16 of 40 bytes"),
        "{err}"
    );
}

#[test]
fn read_byte_times_out_without_data_and_counters_cross() {
    let mut link = fast(RttLink::new(MockTarget::new(64, 64)));
    assert_eq!(link.read_byte(Duration::from_millis(5)).unwrap(), None);
    let mut client = Client::new(link);
    let before = client.counters().unwrap();
    client.device(DeviceCommand::Info).unwrap();
    let after = client.counters().unwrap();
    assert_eq!(after.requests, before.requests + 2);
}
