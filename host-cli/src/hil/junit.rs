//! JUnit XML of a suite run (`jumpnet hil suite --junit FILE`), the report format GitLab,
//! Jenkins and GitHub read: one `testsuite` per run, one `testcase` per trace, a `failure`
//! with the first divergence and its `diff -u` for a diverging case, an `error` for a case
//! that could not run, `skipped` for a trace the engine cannot replay. Written by hand; every
//! attribute and text is escaped ([`escape`]).

use super::suite::{Outcome, SuiteReport};

/// `text` escaped for XML 1.0 attribute values and character data: `&`, `<`, `>`, `"` and
/// `'` as entities; tab, newline and carriage return as character references (so that they
/// survive attribute normalisation); other control characters, which XML 1.0 cannot carry,
/// as U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Character data: as [`escape`], but newlines and tabs kept as they are (readable text).
fn escape_text(text: &str) -> String {
    escape(text).replace("&#10;", "\n").replace("&#9;", "\t")
}

/// The JUnit XML document of `report`.
pub fn junit_xml(report: &SuiteReport) -> String {
    let count = |f: fn(&Outcome) -> bool| report.cases.iter().filter(|c| f(&c.outcome)).count();
    let failures = count(|o| matches!(o, Outcome::Diverged { .. }));
    let errors = count(|o| matches!(o, Outcome::Error { .. }));
    let skipped = count(|o| matches!(o, Outcome::Skipped { .. }));
    let name = format!(
        "jumpnet hil suite {} ({} engine)",
        report.suite.display(),
        report.engine
    );
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.push_str(&format!(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
        escape(&name),
        report.cases.len(),
        report.wall_seconds
    ));
    x.push_str(&format!(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
        escape(&name),
        report.cases.len(),
        report.wall_seconds
    ));
    for c in &report.cases {
        x.push_str(&format!(
            "    <testcase name=\"{}\" classname=\"hil.{}.{}\" file=\"{}\" time=\"{:.3}\"",
            escape(&c.name),
            escape(c.engine),
            escape(c.timing),
            escape(&c.trace.display().to_string()),
            c.seconds
        ));
        match &c.outcome {
            Outcome::Match => x.push_str("/>\n"),
            Outcome::Diverged {
                divergence,
                diff,
                waveform,
            } => {
                let message = match divergence {
                    Some(d) => format!(
                        "{} diverges at event {}: expected {}, got {}",
                        c.name,
                        d.index,
                        d.expected
                            .map_or_else(|| "no event".into(), |e| e.to_string()),
                        d.got.map_or_else(|| "no event".into(), |e| e.to_string()),
                    ),
                    None => format!("{}: {diff}", c.name),
                };
                let mut text = diff.clone();
                if let Some(w) = waveform {
                    text.push_str(&format!("{w}\n"));
                }
                x.push_str(&format!(
                    ">\n      <failure type=\"divergence\" message=\"{}\">{}</failure>\n    </testcase>\n",
                    escape(&message),
                    escape_text(&text)
                ));
            }
            Outcome::Error { message } => x.push_str(&format!(
                ">\n      <error type=\"error\" message=\"{}\">{}</error>\n    </testcase>\n",
                escape(message.lines().next().unwrap_or_default()),
                escape_text(message)
            )),
            Outcome::Skipped { reason } => x.push_str(&format!(
                ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                escape(reason)
            )),
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_quotes_and_controls() {
        assert_eq!(
            escape("a<b>&\"c\" 'd'\n\t\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&quot; &apos;d&apos;&#10;&#9;\u{FFFD}"
        );
        assert_eq!(escape_text("x < y\n  z"), "x &lt; y\n  z");
        assert_eq!(escape("Ünïcödé"), "Ünïcödé");
    }
}
