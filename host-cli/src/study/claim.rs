//! A paper's qualitative claim checked on our figures ([`Claim`]), as the studies, the GA
//! study and the report's verdicts state them, and the table that shows them
//! ([`claims_section`]).

use serde::Serialize;

use crate::io::output::Section;

/// One qualitative claim of a paper and whether our figures bear it out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Claim {
    /// The claim, as the paper states it (condensed).
    pub claim: String,
    /// Whether it holds in our figures.
    pub holds: bool,
    /// The figures behind the verdict.
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
        }
    }
}

/// The claims as a table section titled `title`: claim, holds, evidence.
pub fn claims_section(title: &str, claims: &[Claim]) -> Section {
    let mut c = Section::new(title, &["claim", "holds", "evidence"]);
    for k in claims {
        c.row([k.claim.clone(), k.holds.to_string(), k.evidence.clone()]);
    }
    c
}

/// The verdict of the claim that starts with `prefix` (tests).
#[cfg(test)]
pub(crate) fn verdict(claims: &[Claim], prefix: &str) -> bool {
    claims
        .iter()
        .find(|c| c.claim.starts_with(prefix))
        .map(|c| c.holds)
        .unwrap_or_else(|| panic!("no claim starts with {prefix:?}"))
}
