//! Error payloads shared by every module's error enum (docs/architecture.md §3, "Errors, not
//! panics").
//!
//! Two failures occur everywhere in the core: a caller-provided buffer (or a fixed capacity)
//! is too small, and a parameter breaks a rule. Each module's error enum carries them as
//! [`CapacityError`] and [`InvalidParam`] payloads (`TopologyError::Capacity(CapacityError)`,
//! `RoutingError::Invalid(InvalidParam)`, ...), so they read the same whichever module
//! reports them, and every enum converts from them with `From` (so `?` works on
//! [`CapacityError::check`]).

use core::fmt;

/// A caller-provided buffer (or a fixed capacity of the core) is too small.
///
/// Displays as "capacity exceeded: {what} needs {needed} entries, {available} available".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CapacityError {
    /// What ran out (a buffer name such as "CSR targets", or a fixed capacity such as
    /// "jumps").
    pub what: &'static str,
    /// How many entries are needed (at least).
    pub needed: u64,
    /// How many entries are available.
    pub available: u64,
}

impl CapacityError {
    /// `what` needs `needed` entries and has `available`.
    pub const fn new(what: &'static str, needed: u64, available: u64) -> Self {
        CapacityError {
            what,
            needed,
            available,
        }
    }

    /// `Ok(())` when `available` entries cover `needed`, else the [`CapacityError`]
    /// naming `what`. Counts of any unsigned width are accepted (`usize` slice lengths,
    /// `u64` totals); a count too large for `u64` counts as `u64::MAX`.
    pub fn check(
        what: &'static str,
        needed: impl TryInto<u64>,
        available: impl TryInto<u64>,
    ) -> Result<(), CapacityError> {
        let needed = needed.try_into().unwrap_or(u64::MAX);
        let available = available.try_into().unwrap_or(u64::MAX);
        if available < needed {
            Err(CapacityError::new(what, needed, available))
        } else {
            Ok(())
        }
    }
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let CapacityError {
            what,
            needed,
            available,
        } = *self;
        write!(
            f,
            "capacity exceeded: {what} needs {needed} entries, {available} available"
        )
    }
}

impl core::error::Error for CapacityError {}

/// `param = value` breaks `rule`.
///
/// Displays as "{rule}, got {param} = {value}", e.g. "G(n, log2 n) needs n a power of two,
/// got n = 1000".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidParam {
    /// Parameter name as the user writes it (`n`, `q`, `jumps`, `max_layers`, ...).
    pub param: &'static str,
    /// The rejected value.
    pub value: u64,
    /// What is allowed (a sentence such as "G(n, log2 n) needs n a power of two").
    pub rule: &'static str,
}

impl InvalidParam {
    /// `param = value` breaks `rule`.
    pub const fn new(param: &'static str, value: u64, rule: &'static str) -> Self {
        InvalidParam { param, value, rule }
    }
}

impl fmt::Display for InvalidParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let InvalidParam { param, value, rule } = *self;
        write!(f, "{rule}, got {param} = {value}")
    }
}

impl core::error::Error for InvalidParam {}

/// Implements `From<CapacityError>` (and `From<InvalidParam>` when the enum has an
/// `Invalid` variant) for a module error enum whose `Capacity` / `Invalid` variants hold
/// the shared payloads.
macro_rules! from_shared {
    ($ty:ty, Capacity) => {
        impl From<$crate::error::CapacityError> for $ty {
            fn from(e: $crate::error::CapacityError) -> Self {
                <$ty>::Capacity(e)
            }
        }
    };
    ($ty:ty, Capacity, Invalid) => {
        $crate::error::from_shared!($ty, Capacity);
        impl From<$crate::error::InvalidParam> for $ty {
            fn from(e: $crate::error::InvalidParam) -> Self {
                <$ty>::Invalid(e)
            }
        }
    };
}
pub(crate) use from_shared;

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn one_wording_each() {
        assert_eq!(
            CapacityError::new("CSR targets", 64, 10).to_string(),
            "capacity exceeded: CSR targets needs 64 entries, 10 available"
        );
        assert_eq!(
            InvalidParam::new("n", 1000, "G(n, log2 n) needs n a power of two").to_string(),
            "G(n, log2 n) needs n a power of two, got n = 1000"
        );
    }

    #[test]
    fn check_compares_counts_of_any_width() {
        assert_eq!(CapacityError::check("x", 3usize, 3usize), Ok(()));
        assert_eq!(CapacityError::check("x", 2u64, 3usize), Ok(()));
        assert_eq!(
            CapacityError::check("x", 4u64, 3usize),
            Err(CapacityError::new("x", 4, 3))
        );
        assert_eq!(
            CapacityError::check("x", u128::MAX, 3u32),
            Err(CapacityError::new("x", u64::MAX, 3))
        );
    }
}
