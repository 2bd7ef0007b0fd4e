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

/// Reads the binary file at `path` whole, refusing files larger than `max_bytes` (the read
/// itself is bounded, so a device file such as /dev/zero is refused too).
pub fn read_bytes(path: &Path, max_bytes: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let name = path.display().to_string();
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {name}"))?;
    let mut bytes = Vec::new();
    f.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > max_bytes {
        bail!("{name} is larger than {max_bytes} bytes, more than any image this build writes");
    }
    Ok(bytes)
}

/// Reads the text file at `path`, refusing files larger than `max_bytes` and lines longer
/// than [`MAX_LINE_BYTES`].
pub fn read_text(path: &Path, max_bytes: u64) -> Result<String> {
    let name = path.display().to_string();
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {name}"))?;
    let mut text = String::new();
    let mut total = 0u64;
    for_each_line(
        std::io::BufReader::new(f),
        &name,
        MAX_LINE_BYTES,
        |line_no, line| {
            total += line.len() as u64 + 1;
            if total > max_bytes {
                bail!(
                    "{name}:{line_no}: the file is larger than {max_bytes} bytes, more than a table of this network needs"
                );
            }
            text.push_str(line);
            text.push('\n');
            Ok(())
        },
    )?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

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
