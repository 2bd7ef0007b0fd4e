//! A paper's qualitative claim checked on our figures ([`Claim`]), as the studies, the GA
//! study and the report's verdicts state them, and the table that shows them
//! ([`claims_section`]).

use serde::Serialize;

use crate::io::output::Section;

/// One claim of a paper and whether our figures bear it out: the paper's value, the
/// condition that defines "holds", jumpnet's figures and the verdict.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Claim {
    /// The claim, as the paper states it (condensed), with where it comes from (the
    /// paper's model or its simulations) and what it is checked on.
    pub claim: String,
    /// The paper's value or statement (empty when the claim says it all).
    pub paper: String,
    /// The condition on jumpnet's figures under which the claim holds (empty: as the claim
    /// says).
    pub holds_when: String,
    /// Whether it holds in our figures.
    pub holds: bool,
    /// jumpnet's figures behind the verdict.
    pub evidence: String,
}

impl Claim {
    /// A claim that holds when nothing contradicts it: the contradicting cases are its
    /// evidence, joined by commas.
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet::study::claim::Claim;
    ///
    /// let fine = Claim::unless("S03 beats S05", Vec::new());
    /// assert!(fine.holds);
    /// assert_eq!(fine.evidence, "");
    /// let not = Claim::unless("S03 beats S05", vec!["sc".into(), "ml".into()]);
    /// assert_eq!((not.holds, not.evidence.as_str()), (false, "sc, ml"));
    /// ```
    pub fn unless(claim: impl Into<String>, exceptions: Vec<String>) -> Claim {
        Claim {
            claim: claim.into(),
            holds: exceptions.is_empty(),
            evidence: exceptions.join(", "),
            ..Claim::default()
        }
    }

    /// A claim on a ratio: holds when `value` lies in `range` (e.g. "about 2×" as
    /// `1.6..=2.5`).
    ///
    /// # Examples
    ///
    /// ```
    /// use jumpnet::study::claim::Claim;
    ///
    /// let c = Claim::ratio("LLF about 2x faster than TREE", "about 2x", 1.6..=2.5, 1.29);
    /// assert!(!c.holds);
    /// assert_eq!(c.holds_when, "ratio in [1.60, 2.50]");
    /// assert!(Claim::ratio("x", "2x", 1.6..=2.5, 2.0).holds);
    /// ```
    pub fn ratio(
        claim: impl Into<String>,
        paper: impl Into<String>,
        range: std::ops::RangeInclusive<f64>,
        value: f64,
    ) -> Claim {
        Claim {
            claim: claim.into(),
            paper: paper.into(),
            holds_when: format!("ratio in [{:.2}, {:.2}]", range.start(), range.end()),
            holds: range.contains(&value),
            evidence: format!("{value:.2}"),
        }
    }
}

/// The claims as a table section titled `title`: claim, the paper's value, when it holds,
/// jumpnet's figures, verdict.
pub fn claims_section(title: &str, claims: &[Claim]) -> Section {
    let mut c = Section::new(title, &["claim", "paper", "holds when", "jumpnet", "holds"]);
    for k in claims {
        c.row([
            k.claim.clone(),
            k.paper.clone(),
            k.holds_when.clone(),
            k.evidence.clone(),
            k.holds.to_string(),
        ]);
    }
    c
}

/// The verdict of the first claim that contains `text` (tests).
#[cfg(test)]
pub(crate) fn verdict(claims: &[Claim], text: &str) -> bool {
    claims
        .iter()
        .find(|c| c.claim.contains(text))
        .map(|c| c.holds)
        .unwrap_or_else(|| panic!("no claim contains {text:?}"))
}
