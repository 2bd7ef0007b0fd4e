//! Bounded reading of user files: lines longer than a limit and files larger than a limit
//! are refused with a message naming the file and line, so `--edges /dev/zero` or a
//! multi-gigabyte line fails quickly instead of exhausting memory.

use std::io::{BufRead, Read};
use std::path::Path;

use anyhow::{bail, Context, Result};

/// Longest line accepted in edge lists and table files (bytes, newline excluded).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Calls `f(line_number, line)` for every line of `reader` (1-based numbers, line ends
/// stripped), refusing lines longer than `max_line` bytes and text that is not UTF-8.
pub fn for_each_line<R: BufRead>(
    mut reader: R,
    name: &str,
    max_line: usize,
    mut f: impl FnMut(usize, &str) -> Result<()>,
) -> Result<()> {
    let mut buf = Vec::new();
    let mut line_no = 0usize;
    loop {
        buf.clear();
        line_no += 1;
        let limit = max_line as u64 + 2; // the line, "\r\n"
        let n = (&mut reader)
            .take(limit)
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("{name}: cannot read line {line_no}"))?;
        if n == 0 {
            return Ok(());
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if buf.len() > max_line {
            bail!(
                "{name}:{line_no}: line is longer than {max_line} bytes (is this the right file?)"
            );
        }
        let line = std::str::from_utf8(&buf)
            .map_err(|_| anyhow::anyhow!("{name}:{line_no}: not UTF-8 text"))?;
        f(line_no, line)?;
    }
}

/// What a file is read as and the most bytes jumpnet reads of it: every input file goes
/// through [`read_bytes`] or [`read_text`] with one of these, so a file that never ends
/// (`/dev/zero`, a FIFO) or a multi-gigabyte mistake is refused after `bytes + 1` bytes with
/// a message naming the file and the limit, instead of exhausting memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What the file is, as a message names it ("a simulator configuration file").
    pub what: &'static str,
    /// The most bytes read.
    pub bytes: u64,
}

impl Limit {
    /// A simulator configuration file (`--config`, TOML): a few hundred bytes in practice.
    pub const CONFIG: Limit = Limit {
        what: "a simulator configuration file",
        bytes: 1 << 20,
    };
    /// A BookSim2 configuration file (`--booksim`).
    pub const BOOKSIM: Limit = Limit {
        what: "a BookSim2 configuration file",
        bytes: 1 << 20,
    };
    /// A scenario of `report` (JSON): a few kilobytes in practice.
    pub const SCENARIO: Limit = Limit {
        what: "a scenario",
        bytes: 16 << 20,
    };
    /// A rank-to-terminal permutation (`--permutation`): ten bytes per rank of the largest
    /// network jumpnet builds, with room to spare.
    pub const PERMUTATION: Limit = Limit {
        what: "a permutation file",
        bytes: 256 << 20,
    };
    /// A program, route-table or device image (a program of 2^20 ops is far below it).
    pub const IMAGE: Limit = Limit {
        what: "an image",
        bytes: 64 << 20,
    };
    /// A sweep's `results.json` (a shard or a merged sweep).
    pub const SWEEP_RESULTS: Limit = Limit {
        what: "a sweep results.json",
        bytes: 256 << 20,
    };
    /// A firmware ELF (`--elf`): its defmt table and RTT control block are read from it.
    pub const ELF: Limit = Limit {
        what: "a firmware ELF",
        bytes: 256 << 20,
    };
    /// A HIL suite manifest (`jumpnet hil suite`, TOML): a few lines per case.
    pub const MANIFEST: Limit = Limit {
        what: "a HIL suite manifest",
        bytes: 16 << 20,
    };
    /// The manifest of an output directory (`.jumpnet-output`, JSON): a line per file.
    pub const OUTPUT_MANIFEST: Limit = Limit {
        what: "an output directory's manifest",
        bytes: 16 << 20,
    };
    /// A golden trace of `hil` (JSON lines, one event each).
    pub const TRACE: Limit = Limit {
        what: "a HIL trace",
        bytes: 1 << 30,
    };

    /// A table of `bytes` at most (route tables read back for checks, sized by the
    /// network).
    pub const fn table(bytes: u64) -> Limit {
        Limit {
            what: "a table of this network",
            bytes,
        }
    }
}

/// Opens `path` for reading, refusing a directory with a message that names it.
fn open(path: &Path, limit: Limit) -> Result<std::fs::File> {
    let name = path.display();
    let f = std::fs::File::open(path)
        .with_context(|| format!("cannot open {name} (read as {})", limit.what))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        bail!(
            "{name} is a directory; give the file to read as {}",
            limit.what
        );
    }
    Ok(f)
}

/// Reads the file at `path` whole, refusing files larger than `limit.bytes` (the read itself
/// is bounded, so a device file such as /dev/zero is refused too).
pub fn read_bytes(path: &Path, limit: Limit) -> Result<Vec<u8>> {
    let name = path.display();
    let f = open(path, limit)?;
    let mut bytes = Vec::new();
    f.take(limit.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > limit.bytes {
        bail!(
            "{name} is larger than {}, the most jumpnet reads as {}: is this the right file?",
            crate::budget::format_bytes(limit.bytes as u128),
            limit.what
        );
    }
    Ok(bytes)
}

/// Reads the text file at `path` ([`read_bytes`]), refusing text that is not UTF-8 with the
/// file and line of the first bad byte.
pub fn read_text(path: &Path, limit: Limit) -> Result<String> {
    let bytes = read_bytes(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        anyhow::anyhow!(
            "{}:{line}: not UTF-8 text (read as {})",
            path.display(),
            limit.what
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_files_and_directories_are_refused_by_name() {
        let tiny = Limit {
            what: "a test file",
            bytes: 1000,
        };
        let e = read_bytes(Path::new("/dev/zero"), tiny).unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "/dev/zero is larger than 1000 bytes, the most jumpnet reads as a test file: is \
             this the right file?"
        );
        let e = read_text(Path::new("/"), tiny).unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "/ is a directory; give the file to read as a test file"
        );
    }

    #[test]
    fn bad_utf8_names_the_line() {
        let dir = std::env::temp_dir().join(format!("jumpnet-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("t.txt");
        std::fs::write(&p, b"ok\nstill ok\nbad \xff\n").unwrap();
        let e = read_text(&p, Limit::TRACE).unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            format!("{}:3: not UTF-8 text (read as a HIL trace)", p.display())
        );
        std::fs::write(&p, "a\nb\n").unwrap();
        assert_eq!(read_text(&p, Limit::TRACE).unwrap(), "a\nb\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn long_lines_are_refused() {
        let long = "1".repeat(100);
        let text = format!("0 1\n{long}\n");
        let mut seen = Vec::new();
        let e = for_each_line(text.as_bytes(), "f", 10, |n, l| {
            seen.push((n, l.to_string()));
            Ok(())
        })
        .unwrap_err();
        assert!(format!("{e:#}").contains("f:2: line is longer than 10 bytes"));
        assert_eq!(seen, vec![(1, "0 1".to_string())]);
    }

    #[test]
    fn crlf_and_missing_final_newline() {
        let mut seen = Vec::new();
        for_each_line("a\r\nb".as_bytes(), "f", 10, |_, l| {
            seen.push(l.to_string());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, ["a", "b"]);
    }
}
