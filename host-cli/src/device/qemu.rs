//! The QEMU backend: runs a firmware ELF under `qemu-system-arm -M mps2-an386` (behind
//! `timeout`, so a hung firmware cannot outlive its limit), UART0 on a Unix-socket chardev
//! that this side listens on (QEMU connects as client: no race, no TCP port), defmt log
//! from semihosting on QEMU's stdout, decoded with `defmt-decoder`.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use defmt_decoder::{DecodeError, Table};

use super::Transport;

/// Default wall-clock limit of one QEMU run, in seconds.
pub const DEFAULT_LIMIT_S: u32 = 60;

/// Random characters in the name of a [`ScratchDir`].
const SCRATCH_RANDOM_CHARS: usize = 12;

/// A private scratch directory for the UART socket, removed on drop (and on SIGINT, SIGTERM
/// or SIGHUP, [`crate::io::cleanup`]): a new directory with a random name
/// (`jumpnet-qemu-XXXXXXXXXXXX`) in the temporary folder, created exclusively (`mkdir`, never
/// an existing path, never through a symbolic link) with mode 0700, so that no other local
/// user can read the flashed image or inject frames through the socket.
#[derive(Debug)]
struct ScratchDir(tempfile::TempDir);

impl ScratchDir {
    fn new() -> Result<Self> {
        Self::create_in(&std::env::temp_dir(), SCRATCH_RANDOM_CHARS)
    }

    /// A scratch directory in `parent` whose name ends in `random` random characters.
    fn create_in(parent: &Path, random: usize) -> Result<Self> {
        use std::os::unix::fs::PermissionsExt;
        tempfile::Builder::new()
            .prefix("jumpnet-qemu-")
            .rand_bytes(random)
            .permissions(fs::Permissions::from_mode(0o700))
            .tempdir_in(parent)
            .map(|d| {
                crate::io::cleanup::register(d.path());
                ScratchDir(d)
            })
            .with_context(|| {
                format!(
                    "create a private directory for the UART socket in {}",
                    parent.display()
                )
            })
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        // The TempDir removes the directory itself.
        crate::io::cleanup::unregister(self.0.path());
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

/// A firmware running under QEMU with its UART connected.
#[derive(Debug)]
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
    /// Starts QEMU (`$JUMPNET_QEMU` or `qemu-system-arm`) on `elf`, killed after `limit_s`
    /// seconds.
    pub fn start(elf: &Path, limit_s: u32) -> Result<Self> {
        check_elf(elf)?;
        let dir = ScratchDir::new()?;
        let sock = dir.path().join("uart0.sock");
        let listener = UnixListener::bind(&sock).context("bind the UART socket")?;
        let qemu = std::env::var("JUMPNET_QEMU").unwrap_or_else(|_| "qemu-system-arm".into());
        let mut child = Command::new("timeout")
            .arg("--kill-after=5")
            .arg(limit_s.to_string())
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
            .with_context(|| format!("start `timeout {qemu}` (run `cargo xtask setup`)"))?;
        let stdout = drain(child.stdout.take().context("piped stdout")?);
        let stderr = drain(child.stderr.take().context("piped stderr")?);
        listener.set_nonblocking(true)?;
        let deadline = Instant::now() + Duration::from_secs(15);
        let uart = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if let Some(status) = child.try_wait()? {
                        let err = String::from_utf8_lossy(&stderr.join().unwrap_or_default())
                            .into_owned();
                        bail!("QEMU exited before connecting the UART ({status}): {err}");
                    }
                    if Instant::now() >= deadline {
                        let _ = child.kill();
                        bail!("QEMU did not connect the UART within 15 s");
                    }
                    thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(anyhow!("accept the UART connection: {e}")),
            }
        };
        uart.set_nonblocking(false)?;
        Ok(Qemu {
            child,
            uart,
            stdout: Some(stdout),
            stderr: Some(stderr),
            elf: elf.to_path_buf(),
            _dir: dir,
        })
    }

    /// Waits for QEMU to exit (at most its time limit) and decodes the defmt log.
    pub fn finish(mut self) -> Result<Finished> {
        let status = self.child.wait().context("wait for QEMU")?;
        let stdout = self.stdout.take().map(|h| h.join().unwrap_or_default());
        let stderr = self.stderr.take().map(|h| h.join().unwrap_or_default());
        Ok(Finished {
            status,
            log: decode_defmt(&self.elf, &stdout.unwrap_or_default())?,
            stderr: String::from_utf8_lossy(&stderr.unwrap_or_default()).into_owned(),
        })
    }

    /// Stops QEMU (e.g. after an error) and returns what it logged. `timeout` is sent
    /// SIGTERM, which it forwards to QEMU; a SIGKILL would end `timeout` alone and leave QEMU
    /// running (and its output pipes open).
    pub fn kill(mut self) -> Result<Finished> {
        let term = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if !term.is_ok_and(|s| s.success()) {
            let _ = self.child.kill();
        }
        self.finish()
    }
}

impl Transport for Qemu {
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.uart.write_all(bytes).context("write to the UART")
    }

    fn read_byte(&mut self, timeout: Duration) -> Result<Option<u8>> {
        self.uart
            .set_read_timeout(Some(timeout.max(Duration::from_millis(1))))?;
        let mut b = [0u8; 1];
        match self.uart.read(&mut b) {
            Ok(0) => bail!("the device closed the UART (QEMU exited)"),
            Ok(_) => Ok(Some(b[0])),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(anyhow!("read from the UART: {e}")),
        }
    }
}

/// Where `cargo xtask firmware-build` puts the self-test firmware, below a target directory.
const ELF_IN_TARGET: &str = "thumbv7em-none-eabihf/release/selftest";

/// The firmware ELF to run: `given` (`--elf`), else `$JUMPNET_FIRMWARE_ELF`, else the
/// `selftest` ELF of the target directory this `jumpnet` was built in (the executable is
/// `<target>/<profile>/jumpnet`), found whatever the working directory; when that does not
/// exist either, `target/…/selftest` of the working directory (whose absence
/// [`check_elf`] reports with [`ELF_HINT`]).
pub fn firmware_elf(given: Option<&Path>) -> PathBuf {
    if let Some(p) = given {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("JUMPNET_FIRMWARE_ELF") {
        return PathBuf::from(p);
    }
    let beside_exe = std::env::current_exe().ok().and_then(|exe| {
        let target = exe.parent()?.parent()?;
        Some(target.join(ELF_IN_TARGET)).filter(|p| p.is_file())
    });
    beside_exe.unwrap_or_else(|| Path::new("target").join(ELF_IN_TARGET))
}

/// How to name the firmware ELF, for error messages.
pub const ELF_HINT: &str = "give the firmware ELF with --elf FILE or the JUMPNET_FIRMWARE_ELF \
     variable; `cargo xtask firmware-build` builds it (docs/toolchain.md)";

/// `machine` field of a 32-bit little-endian ARM ELF header.
const EM_ARM: u16 = 40;

/// Refuses a firmware ELF QEMU could not load (missing, not an ELF, not 32-bit little-endian
/// ARM) with a message naming the file and how to give another, before QEMU starts.
pub fn check_elf(elf: &Path) -> Result<()> {
    let shown = elf.display();
    if !elf.is_file() {
        bail!("firmware ELF {shown} does not exist: {ELF_HINT}");
    }
    let mut head = [0u8; 20];
    let read = fs::File::open(elf).and_then(|mut f| f.read_exact(&mut head));
    let machine = u16::from_le_bytes([head[18], head[19]]);
    if read.is_err() || head[..6] != [0x7f, b'E', b'L', b'F', 1, 1] || machine != EM_ARM {
        bail!(
            "QEMU could not load the ELF {shown}: it is not a 32-bit little-endian ARM ELF (the \
             firmware for thumbv7em-none-eabihf); {ELF_HINT}"
        );
    }
    Ok(())
}

/// Decodes a defmt byte stream with the table embedded in `elf`.
pub fn decode_defmt(elf: &Path, bytes: &[u8]) -> Result<Vec<String>> {
    let elf_bytes = crate::io::read::read_bytes(elf, crate::io::read::Limit::ELF)?;
    let table = Table::parse(&elf_bytes)
        .map_err(|e| anyhow!("parse the defmt table of {}: {e}", elf.display()))?
        .ok_or_else(|| anyhow!("{} has no defmt table", elf.display()))?;
    let mut decoder = table.new_stream_decoder();
    decoder.received(bytes);
    let mut lines = Vec::new();
    loop {
        match decoder.decode() {
            Ok(frame) => lines.push(frame.display_message().to_string()),
            Err(DecodeError::UnexpectedEof) => break,
            Err(DecodeError::Malformed) => bail!("malformed defmt frame in the firmware output"),
        }
    }
    Ok(lines)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn parent(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("jumpnet-scratch-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn an_elf_qemu_cannot_load_is_refused_by_name() {
        let e = format!("{:#}", check_elf(Path::new("/bin/true")).unwrap_err());
        assert!(
            e.starts_with("QEMU could not load the ELF /bin/true: it is not a 32-bit"),
            "{e}"
        );
        assert!(e.contains("--elf FILE or the JUMPNET_FIRMWARE_ELF"), "{e}");
        let e = format!(
            "{:#}",
            check_elf(Path::new("/nonexistent.elf")).unwrap_err()
        );
        assert!(
            e.starts_with("firmware ELF /nonexistent.elf does not exist: give the firmware ELF with --elf FILE"),
            "{e}"
        );
    }

    #[test]
    fn the_socket_directory_is_private_random_and_removed() {
        let p = parent("private");
        let a = ScratchDir::create_in(&p, SCRATCH_RANDOM_CHARS).unwrap();
        let b = ScratchDir::create_in(&p, SCRATCH_RANDOM_CHARS).unwrap();
        assert_ne!(a.path(), b.path());
        let name = a.path().file_name().unwrap().to_str().unwrap().to_string();
        assert_eq!(name.len(), "jumpnet-qemu-".len() + SCRATCH_RANDOM_CHARS);
        let mode = fs::metadata(a.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let kept = a.path().to_path_buf();
        drop(a);
        assert!(!kept.exists());
        drop(b);
        fs::remove_dir_all(&p).unwrap();
    }

    #[test]
    fn a_pre_existing_path_is_never_used() {
        // Without random characters the name is predictable: an attacker's directory or
        // symbolic link there must make the creation fail, not be reused or followed.
        let p = parent("squat");
        let squat = p.join("jumpnet-qemu-");
        fs::create_dir(&squat).unwrap();
        fs::set_permissions(&squat, fs::Permissions::from_mode(0o777)).unwrap();
        fs::write(squat.join("planted"), b"x").unwrap();
        let e = ScratchDir::create_in(&p, 0).unwrap_err();
        assert!(format!("{e:#}").contains("File exists"), "{e:#}");
        assert!(
            squat.join("planted").exists(),
            "the existing directory is left alone"
        );
        fs::remove_dir_all(&squat).unwrap();
        let target = p.join("elsewhere");
        fs::create_dir(&target).unwrap();
        std::os::unix::fs::symlink(&target, &squat).unwrap();
        assert!(ScratchDir::create_in(&p, 0).is_err());
        assert_eq!(fs::read_dir(&target).unwrap().count(), 0);
        // With random characters an existing path is skipped for a fresh one.
        let d = ScratchDir::create_in(&p, SCRATCH_RANDOM_CHARS).unwrap();
        assert_ne!(d.path(), squat.as_path());
        // An interrupt removes it too, until it is dropped.
        let path = d.path().to_path_buf();
        assert!(crate::io::cleanup::is_registered(&path));
        drop(d);
        assert!(!crate::io::cleanup::is_registered(&path) && !path.exists());
        fs::remove_dir_all(&p).unwrap();
    }
}
