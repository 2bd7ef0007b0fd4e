//! How the GA orders genes whose ranking keys are equal (docs/mapping.md §5, "Ties").

/// Which of two genes with equal ranking keys ranks first (\[GA\] does not say).
///
/// The contention proxy scores every gene of a plateau alike (e.g. every gene whose busiest
/// channel carries two flows of a pattern), so on such a plateau the tie rule decides whether
/// the population can move at all: with [`Ties::Slot`] a mutant that only equals its parent
/// loses to it or wins by the accident of its slot number; with [`Ties::Newest`] it replaces
/// the older gene, and the population drifts across the plateau (neutral drift) until a
/// mutation leaves it downwards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ties {
    /// The gene made in the later generation first, then the lower slot (the default: it
    /// reaches \[GA\]'s conflict-free basins about as often as \[GA\] does, docs/mapping.md §5).
    #[default]
    Newest,
    /// The lower gene slot first (jumpnet's first rule).
    Slot,
}

impl Ties {
    /// Every rule, default first.
    pub const ALL: [Ties; 2] = [Ties::Newest, Ties::Slot];

    /// Name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Ties::Slot => "slot",
            Ties::Newest => "newest",
        }
    }

    /// Rule with the given name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_none() {
        for t in Ties::ALL {
            assert_eq!(Ties::from_name(t.name()), Some(t));
        }
        assert_eq!(Ties::from_name("oldest"), None);
        assert_eq!(Ties::default(), Ties::Newest);
    }
}
