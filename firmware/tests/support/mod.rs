//! Host side of the firmware HIL tests: runs the firmware ELF under QEMU `mps2-an386`, talks
//! to it over UART0 (a Unix-socket chardev) and decodes its defmt log.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use defmt_decoder::{DecodeError, Table};
use jumpnet_firmware::wire::frame;
use jumpnet_firmware::wire::{Request, Response, MAX_FRAME_LEN};

/// Wall-clock limit of one QEMU run (enforced by `timeout`, which kills QEMU).
pub const QEMU_TIMEOUT_S: u32 = 60;
/// Longest wait for one response.
const READ_TIMEOUT: Duration = Duration::from_secs(20);

/// The firmware ELF under test: `$JUMPNET_FIRMWARE_ELF` (set by `cargo xtask firmware`).
pub fn firmware_elf() -> PathBuf {
    let path = std::env::var_os("JUMPNET_FIRMWARE_ELF")
        .map(PathBuf::from)
        .expect(
            "JUMPNET_FIRMWARE_ELF is not set: run these tests with `cargo xtask firmware`, which \
         builds the firmware for thumbv7em-none-eabihf and sets it",
        );
    assert!(
        path.is_file(),
        "firmware ELF {} does not exist",
        path.display()
    );
    path
}

/// A private scratch directory for the UART socket, removed on drop.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new() -> Self {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "jumpnet-qemu-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create scratch dir");
        ScratchDir(dir)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// What a finished QEMU run left behind.
#[derive(Debug)]
pub struct Finished {
    /// QEMU's exit status (the firmware's semihosting exit code; 124 if `timeout` fired).
    pub status: ExitStatus,
    /// Decoded defmt log messages, in order.
    pub log: Vec<String>,
    /// QEMU's own stderr.
    pub stderr: String,
}

/// A running firmware under QEMU with its UART connected.
pub struct Qemu {
    child: Child,
    uart: UnixStream,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
    elf: PathBuf,
    _dir: ScratchDir,
}

fn drain<R: Read + Send + 'static>(mut r: R) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut v = Vec::new();
        let _ = r.read_to_end(&mut v);
        v
    })
}

impl Qemu {
    /// Starts QEMU on `elf`; UART0 is a Unix socket this side listens on, semihosting output
    /// (defmt) goes to QEMU's stdout.
    pub fn start(elf: &Path) -> Self {
        let dir = ScratchDir::new();
        let sock = dir.0.join("uart0.sock");
        let listener = UnixListener::bind(&sock).expect("bind UART socket");
        let qemu = std::env::var("JUMPNET_QEMU").unwrap_or_else(|_| "qemu-system-arm".into());
        let mut child = Command::new("timeout")
            .arg("--kill-after=5")
            .arg(QEMU_TIMEOUT_S.to_string())
            .arg(&qemu)
            .args(["-M", "mps2-an386", "-display", "none", "-monitor", "none"])
            .args(["-semihosting-config", "enable=on,target=native"])
            .arg("-chardev")
            .arg(format!("socket,id=uart0,path={}", sock.display()))
            .args(["-serial", "chardev:uart0", "-kernel"])
            .arg(elf)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start `timeout {qemu}`: {e} (run `cargo xtask setup`)")
            });
        let stdout = drain(child.stdout.take().expect("piped stdout"));
        let stderr = drain(child.stderr.take().expect("piped stderr"));
        listener
            .set_nonblocking(true)
            .expect("nonblocking listener");
        let deadline = Instant::now() + Duration::from_secs(15);
        let uart = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if let Ok(Some(status)) = child.try_wait() {
                        let err = String::from_utf8_lossy(&stderr.join().unwrap_or_default())
                            .into_owned();
                        panic!("QEMU exited before connecting the UART ({status}): {err}");
                    }
                    assert!(Instant::now() < deadline, "QEMU did not connect the UART");
                    thread::sleep(Duration::from_millis(10));
                }
                Err(e) => panic!("accept UART connection: {e}"),
            }
        };
        uart.set_nonblocking(false).expect("blocking UART stream");
        uart.set_read_timeout(Some(READ_TIMEOUT))
            .expect("UART read timeout");
        Qemu {
            child,
            uart,
            stdout: Some(stdout),
            stderr: Some(stderr),
            elf: elf.to_path_buf(),
            _dir: dir,
        }
    }

    /// Sends raw bytes on the UART.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.uart.write_all(bytes).expect("write UART");
    }

    /// Sends one request frame.
    pub fn send(&mut self, request: &Request) {
        let mut buf = [0u8; MAX_FRAME_LEN];
        let bytes = frame::encode(request, &mut buf).expect("request fits a frame");
        self.send_raw(bytes);
    }

    /// Reads one response frame.
    pub fn receive(&mut self) -> Response {
        let mut frame_bytes = Vec::new();
        let mut byte = [0u8; 1];
        loop {
            match self.uart.read(&mut byte) {
                Ok(0) => panic!("UART closed while waiting for a response"),
                Ok(_) if byte[0] == frame::TERMINATOR && frame_bytes.is_empty() => {}
                Ok(_) if byte[0] == frame::TERMINATOR => break,
                Ok(_) => frame_bytes.push(byte[0]),
                Err(e) => panic!("no response within {READ_TIMEOUT:?}: {e}"),
            }
        }
        frame::decode(&mut frame_bytes).expect("device response decodes")
    }

    /// Sends `request` and returns the device's response.
    pub fn call(&mut self, request: &Request) -> Response {
        self.send(request);
        self.receive()
    }

    /// Waits for QEMU to exit (at most the `timeout` limit) and decodes the defmt log.
    pub fn finish(mut self) -> Finished {
        let status = self.child.wait().expect("wait for QEMU");
        let stdout = self.stdout.take().map(|h| h.join().unwrap_or_default());
        let stderr = self.stderr.take().map(|h| h.join().unwrap_or_default());
        Finished {
            status,
            log: decode_defmt(&self.elf, &stdout.unwrap_or_default()),
            stderr: String::from_utf8_lossy(&stderr.unwrap_or_default()).into_owned(),
        }
    }
}

/// Decodes a defmt byte stream with the table embedded in `elf`.
pub fn decode_defmt(elf: &Path, bytes: &[u8]) -> Vec<String> {
    let elf_bytes = fs::read(elf).expect("read firmware ELF");
    let table = Table::parse(&elf_bytes)
        .expect("parse defmt table")
        .expect("firmware ELF has a defmt table");
    let mut decoder = table.new_stream_decoder();
    decoder.received(bytes);
    let mut lines = Vec::new();
    loop {
        match decoder.decode() {
            Ok(frame) => lines.push(frame.display_message().to_string()),
            Err(DecodeError::UnexpectedEof) => break,
            Err(DecodeError::Malformed) => panic!("malformed defmt frame in firmware output"),
        }
    }
    lines
}
