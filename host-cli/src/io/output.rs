//! Rendering command results as a human table, JSON or CSV, and writing them.
//!
//! Commands return plain data implementing [`Render`]: `serde::Serialize` for JSON, plus
//! [`Section`]s (a title, column headers, rows) for the table and CSV forms. Text is built
//! in memory and then written once; every write and flush to standard output, standard
//! error or a file goes through this module and is checked ([`print_text`],
//! [`eprint_text`], [`write_atomic`]): a failure (full disk, closed pipe, …) is an error
//! naming the destination and the OS error, never a panic (`println!` and `eprintln!`
//! panic on a failed write and are not used by the host). The binary turns a closed pipe
//! into a quiet exit 0 ([`is_broken_pipe`]) and any other failure into exit 2.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

/// Output format chosen on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned human-readable tables.
    #[default]
    Table,
    /// JSON (one document).
    Json,
    /// CSV (sections separated by a blank line, each preceded by `# title`).
    Csv,
}

/// One table of a result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// Title (printed above the table; `# title` in CSV).
    pub title: String,
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows (each as long as `headers`).
    pub rows: Vec<Vec<String>>,
}

impl Section {
    /// A new section with the given title and headers.
    pub fn new(title: impl Into<String>, headers: &[&str]) -> Self {
        Section {
            title: title.into(),
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// A two-column key/value section.
    pub fn key_values(title: impl Into<String>) -> Self {
        Section::new(title, &["property", "value"])
    }

    /// Appends a row.
    pub fn row<I, S>(&mut self, cells: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: ToString,
    {
        self.rows
            .push(cells.into_iter().map(|c| c.to_string()).collect());
        self
    }

    /// Appends a key/value row.
    pub fn kv(&mut self, key: &str, value: impl ToString) -> &mut Self {
        self.row([key.to_string(), value.to_string()])
    }
}

/// A command result that can be printed in every [`Format`].
pub trait Render: Serialize {
    /// The tables of this result, in print order.
    fn sections(&self) -> Vec<Section>;
}

/// Whether `e` comes from writing to a pipe whose reader has gone (`jumpnet … | head`):
/// the binary then stops quietly with status 0, as the other tools of a pipeline do.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `value` as pretty-printed JSON ending in a newline (the form of every JSON output file).
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    let mut s = serde_json::to_string_pretty(value)?;
    s.push('\n');
    Ok(s)
}

/// Renders `value` in `format` into a string.
pub fn render_to_string<R: Render>(value: &R, format: Format) -> Result<String> {
    Ok(match format {
        Format::Json => to_json(value)?,
        Format::Table => {
            let mut out = String::new();
            for (i, sec) in value.sections().iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                table(sec, &mut out);
            }
            out
        }
        Format::Csv => {
            let mut out = String::new();
            for (i, sec) in value.sections().iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&format!("# {}\n", sec.title));
                csv_line(&sec.headers, &mut out);
                for r in &sec.rows {
                    csv_line(r, &mut out);
                }
            }
            out
        }
    })
}

/// Renders `value` to stdout ([`print_text`]).
pub fn print<R: Render>(value: &R, format: Format) -> Result<()> {
    print_text(&render_to_string(value, format)?)
}

/// Writes `text` to standard output and flushes it; a failed write or flush is an error
/// ("cannot write to standard output: …").
pub fn print_text(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write to standard output")
}

/// Writes `line` and a newline to standard output ([`print_text`]).
pub fn print_line(line: &str) -> Result<()> {
    print_text(&format!("{line}\n"))
}

/// Writes `line` and a newline to standard error (notes, summaries, the deadlock cycle); a
/// failed write is an error ("cannot write to standard error: …"), never a panic.
pub fn eprint_line(line: &str) -> Result<()> {
    eprint_text(&format!("{line}\n"))
}

/// Writes `text` to standard error and flushes it; a failed write is an error.
pub fn eprint_text(text: &str) -> Result<()> {
    let mut stderr = std::io::stderr().lock();
    stderr
        .write_all(text.as_bytes())
        .and_then(|()| stderr.flush())
        .context("cannot write to standard error")
}

fn table(sec: &Section, out: &mut String) {
    let cols = sec.headers.len();
    let mut width: Vec<usize> = sec.headers.iter().map(|h| h.chars().count()).collect();
    for r in &sec.rows {
        for (i, c) in r.iter().enumerate().take(cols) {
            width[i] = width[i].max(c.chars().count());
        }
    }
    if !sec.title.is_empty() {
        out.push_str(&sec.title);
        out.push('\n');
    }
    let line = |cells: &[String], out: &mut String| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate().take(cols) {
            if i > 0 {
                s.push_str("  ");
            }
            // Numbers right-aligned, text left-aligned.
            if c.parse::<f64>().is_ok() {
                s.push_str(&format!("{c:>w$}", w = width[i]));
            } else {
                s.push_str(&format!("{c:<w$}", w = width[i]));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&sec.headers, out);
    let rule: Vec<String> = width.iter().map(|w| "-".repeat(*w)).collect();
    line(&rule, out);
    for r in &sec.rows {
        line(r, out);
    }
}

/// One section as a CSV document: the header line, then one line per row (no title).
pub fn section_csv(sec: &Section) -> String {
    let mut out = String::new();
    csv_line(&sec.headers, &mut out);
    for r in &sec.rows {
        csv_line(r, &mut out);
    }
    out
}

fn csv_line(cells: &[String], out: &mut String) {
    let escaped: Vec<String> = cells
        .iter()
        .map(|c| {
            if c.contains([',', '"', '\n']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        })
        .collect();
    out.push_str(&escaped.join(","));
    out.push('\n');
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory is written,
/// flushed and renamed over the target, so a failure never leaves a half-written file (the
/// temporary file is removed). A target that exists and is not a regular file (a device such
/// as `/dev/stdout` or `/dev/null`, a FIFO) is written directly, never replaced. Errors name
/// the path and the OS error. While the temporary file exists it is registered with
/// [`super::cleanup`], so SIGINT/SIGTERM/SIGHUP remove it too.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let shown = path.display();
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.is_dir() {
            anyhow::bail!("cannot write {shown}: it is a directory");
        }
        if !meta.is_file() {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open {shown} for writing"))?;
            return f
                .write_all(bytes)
                .and_then(|()| f.flush())
                .with_context(|| format!("cannot write {shown}"));
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    // An interrupt between creating and renaming the temporary file removes it.
    super::cleanup::register(&tmp);
    let result = (|| -> Result<()> {
        let mut f = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot create {} (to write {shown})", tmp.display()))?;
        f.write_all(bytes)
            .and_then(|()| f.sync_all())
            .with_context(|| format!("cannot write {shown}"))?;
        std::fs::rename(&tmp, path)
            .with_context(|| format!("cannot move output into place at {shown}"))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    super::cleanup::unregister(&tmp);
    result
}

/// Writes `text` to `path` atomically ([`write_atomic`]), or to stdout ([`print_text`])
/// when no path is given.
pub fn write_or_print(text: &str, path: Option<&Path>) -> Result<()> {
    match path {
        Some(p) => write_atomic(p, text.as_bytes()),
        None => print_text(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct T {
        a: u32,
    }
    impl Render for T {
        fn sections(&self) -> Vec<Section> {
            let mut s = Section::new("numbers", &["name", "value"]);
            s.row(["alpha", "1"]).row(["b,c", "22"]);
            vec![s]
        }
    }

    #[test]
    fn renders_all_formats() {
        let t = T { a: 5 };
        let table = render_to_string(&t, Format::Table).unwrap();
        assert_eq!(
            table,
            "numbers\nname   value\n-----  -----\nalpha      1\nb,c       22\n"
        );
        let csv = render_to_string(&t, Format::Csv).unwrap();
        assert_eq!(csv, "# numbers\nname,value\nalpha,1\n\"b,c\",22\n");
        let json = render_to_string(&t, Format::Json).unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&json).unwrap()["a"],
            5
        );
    }

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = std::env::temp_dir().join(format!("jumpnet-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.txt");
        write_atomic(&p, b"first").unwrap();
        write_atomic(&p, b"second").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second");
        assert!(write_atomic(&dir.join("missing/x.txt"), b"z").is_err());
        // The temporary file is no longer on the interrupt-cleanup list, and gone.
        let tmp = dir.join(format!(".x.txt.tmp-{}", std::process::id()));
        assert!(!crate::io::cleanup::is_registered(&tmp) && !tmp.exists());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
