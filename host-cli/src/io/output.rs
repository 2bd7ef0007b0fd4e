//! Rendering command results as a human table, JSON or CSV.
//!
//! Commands return plain data implementing [`Render`]: `serde::Serialize` for JSON, plus
//! [`Section`]s (a title, column headers, rows) for the table and CSV forms.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Result;
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

/// Renders `value` in `format` into a string.
pub fn render_to_string<R: Render>(value: &R, format: Format) -> Result<String> {
    Ok(match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(value)?;
            s.push('\n');
            s
        }
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
                let _ = writeln!(out, "# {}", sec.title);
                csv_line(&sec.headers, &mut out);
                for r in &sec.rows {
                    csv_line(r, &mut out);
                }
            }
            out
        }
    })
}

/// Renders `value` to stdout.
pub fn print<R: Render>(value: &R, format: Format) -> Result<()> {
    let s = render_to_string(value, format)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(s.as_bytes())?;
    stdout.flush()?;
    Ok(())
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
        let _ = writeln!(out, "{}", sec.title);
    }
    let line = |cells: &[String], out: &mut String| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate().take(cols) {
            if i > 0 {
                s.push_str("  ");
            }
            // Numbers right-aligned, text left-aligned.
            if c.parse::<f64>().is_ok() {
                let _ = write!(s, "{c:>w$}", w = width[i]);
            } else {
                let _ = write!(s, "{c:<w$}", w = width[i]);
            }
        }
        let _ = writeln!(out, "{}", s.trim_end());
    };
    line(&sec.headers, out);
    let rule: Vec<String> = width.iter().map(|w| "-".repeat(*w)).collect();
    line(&rule, out);
    for r in &sec.rows {
        line(r, out);
    }
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
    let _ = writeln!(out, "{}", escaped.join(","));
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory is written,
/// flushed and renamed over the target, so a failure never leaves a half-written file.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    use anyhow::Context;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| -> Result<()> {
        let mut f = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot create {}", tmp.display()))?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
            .with_context(|| format!("cannot move output into place at {}", path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `text` to `path` atomically ([`write_atomic`]), or to stdout when no path is given.
pub fn write_or_print(text: &str, path: Option<&std::path::Path>) -> Result<()> {
    match path {
        Some(p) => write_atomic(p, text.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            Ok(out.flush()?)
        }
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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
