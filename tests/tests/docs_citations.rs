//! The repository explains itself: every citation of the project's notes in code, tests,
//! READMEs and `--help` texts names a file of `docs/` that exists, and every section (`§N`)
//! or reference-results row (`A8`, `E1/E2`) it cites is a heading of that file. Citations of
//! documents outside the repository are refused.
//!
//! A citation is `docs/NAME.md`, optionally followed by sections (`§2`, `§2, §6`, `§1–§10`)
//! or, for `reference-results.md`, row ids (`A8`, `B3`, `C2/C4`, `E1–E2`); it may be split
//! over comment lines.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Files scanned: sources, manifests, READMEs, docs, RTL.
const EXTENSIONS: &[&str] = &["rs", "md", "toml", "v", "sv", "h", "c", "cpp", "py", "sh"];

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

fn scanned_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !name.starts_with('.') && name != "target" {
                scanned_files(&p, out);
            }
        } else if p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| EXTENSIONS.contains(&x))
        {
            out.push(p);
        }
    }
}

/// The text with comment line breaks joined, so a citation split over lines reads as one.
fn joined(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim_start();
        let t = ["//!", "///", "//", "#", "*", "-"]
            .iter()
            .find_map(|p| t.strip_prefix(p))
            .unwrap_or(t);
        out.push_str(t.trim_start());
        out.push(' ');
    }
    out
}

/// Section numbers (`## §N …`) and row ids (`## A8 …`, `### E1 …`) of a docs file.
fn headings(text: &str) -> (BTreeSet<u32>, BTreeSet<String>) {
    let (mut secs, mut rows) = (BTreeSet::new(), BTreeSet::new());
    for line in text.lines() {
        let Some(h) = line.strip_prefix('#') else {
            continue;
        };
        let h = h.trim_start_matches('#').trim_start();
        if let Some(rest) = h.strip_prefix('§') {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = n.parse() {
                secs.insert(n);
            }
        } else {
            let id: String = h.chars().take_while(char::is_ascii_alphanumeric).collect();
            if is_row_id(&id) {
                rows.insert(id);
            }
        }
    }
    (secs, rows)
}

/// `A`..`F` optionally followed by one digit.
fn is_row_id(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first(), Some(b'A'..=b'F'))
        && (b.len() == 1 || (b.len() == 2 && b[1].is_ascii_digit()))
}

/// The sections cited right after a file name: `§2`, `§2, §6`, `§1–§10`, `§3 and §4`.
fn cited_sections(tail: &str) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    let mut rest = tail.trim_start_matches([' ', '(', ',', ':']);
    let mut range = false;
    while let Some(r) = rest.strip_prefix('§') {
        let digits: String = r
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let Ok(n) = digits.parse::<u32>() else { break };
        match (range, out.last()) {
            (true, Some(&last)) => out.extend(last + 1..=n),
            _ => out.push(n),
        }
        rest = r.trim_start()[digits.len()..].trim_start();
        range = rest.starts_with(['–', '-']);
        let sep = ["–", "-", ",", "and", "or", "/"]
            .iter()
            .find_map(|s| rest.strip_prefix(s));
        match sep {
            Some(r) if r.trim_start().starts_with('§') => rest = r.trim_start(),
            _ => break,
        }
    }
    out
}

/// The row ids cited right after `reference-results.md`: `A8`, `C2/C4`, `E1–E2`, `B3, B4`.
fn cited_rows(tail: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = tail.trim_start_matches([' ', '(', ',', ':', '§']);
    loop {
        let id: String = rest
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        if !is_row_id(&id) {
            break;
        }
        out.push(id.clone());
        rest = rest[id.len()..].trim_start();
        let sep = ["/", "–", "-", ",", "and"]
            .iter()
            .find_map(|s| rest.strip_prefix(s));
        match sep {
            Some(r) => rest = r.trim_start().trim_start_matches('§'),
            None => break,
        }
    }
    out
}

#[test]
fn every_citation_resolves_inside_the_repository() {
    let root = repository_root();
    let mut files = Vec::new();
    scanned_files(&root, &mut files);
    assert!(files.len() > 100, "scanned only {} files", files.len());
    let mut problems = Vec::new();
    let mut resolved = 0usize;
    for path in &files {
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let Ok(raw) = std::fs::read_to_string(path) else {
            continue;
        };
        if rel == "tests/tests/docs_citations.rs" {
            continue;
        }
        for outside in ["spec/", "ARCHITECTURE.md", "../shared", "shared folder"] {
            if raw.contains(outside) {
                problems.push(format!(
                    "{rel}: cites `{outside}`, which is not in the repository"
                ));
            }
        }
        let text = joined(&raw);
        let mut at = 0;
        while let Some(i) = text[at..].find("docs/") {
            let start = at + i + "docs/".len();
            at = start;
            let name: String = text[start..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                .collect();
            let Some(stem) = name.strip_suffix(".md") else {
                continue;
            };
            // `host-cli/docs/…` and other folders' docs are paths of their own.
            let before = &text[..at - "docs/".len()];
            let dir = if before.ends_with("host-cli/") {
                root.join("host-cli/docs")
            } else if before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '/' || c == '-')
            {
                continue;
            } else {
                root.join("docs")
            };
            let file = dir.join(&name);
            let Ok(doc) = std::fs::read_to_string(&file) else {
                problems.push(format!("{rel}: cites docs/{name}, which does not exist"));
                continue;
            };
            let (secs, rows) = headings(&doc);
            let tail = &text[start + name.len()..];
            for s in cited_sections(tail) {
                if !secs.contains(&s) {
                    problems.push(format!(
                        "{rel}: cites docs/{name} §{s}, which has no such section"
                    ));
                }
            }
            if stem == "reference-results" {
                for r in cited_rows(tail) {
                    if !rows.contains(&r) {
                        problems.push(format!(
                            "{rel}: cites docs/{name} {r}, which has no such row"
                        ));
                    }
                }
            }
            resolved += 1;
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(resolved > 300, "only {resolved} citations of docs/ found");
}

#[test]
fn the_citation_parser_reads_the_written_forms() {
    assert_eq!(cited_sections(" §2, §6)"), [2, 6]);
    assert_eq!(cited_sections(" §1–§3"), [1, 2, 3]);
    assert_eq!(cited_sections(" §3 and §4: x"), [3, 4]);
    assert_eq!(cited_sections(" (§7)"), [7]);
    assert!(cited_sections(" describes").is_empty());
    assert_eq!(cited_rows(" A8: the"), ["A8"]);
    assert_eq!(cited_rows(" C2/C4"), ["C2", "C4"]);
    assert_eq!(cited_rows(" E1–E2"), ["E1", "E2"]);
    assert_eq!(cited_rows(" §D"), ["D"]);
    assert!(cited_rows(" rows").is_empty());
    let (secs, rows) =
        headings("# T\n## §1 One\n### §12 Twelve\n## A8 Makespans\n### E1: x\n## Notes");
    assert_eq!(secs.into_iter().collect::<Vec<_>>(), [1, 12]);
    assert_eq!(rows.into_iter().collect::<Vec<_>>(), ["A8", "E1"]);
    assert_eq!(
        joined("//! see docs/routing.md\n//! §2 here"),
        "see docs/routing.md §2 here "
    );
}
