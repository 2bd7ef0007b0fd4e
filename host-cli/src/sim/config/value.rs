//! One `key = value` setting of the simulator configuration being parsed (docs/booksim.md
//! §2): the typed readers of its value and the error naming the key, the value and what is
//! allowed.

use super::{Allocator, SimConfigError};

pub(super) const U8P: &str = "an integer 1..=255";
pub(super) const U16: &str = "an integer 0..=65535";
pub(super) const U16P: &str = "an integer 1..=65535";
pub(super) const U32P: &str = "an integer 1..=4294967295";
pub(super) const U32: &str = "an integer 0..=4294967295";
pub(super) const F: &str = "a number";

/// A `key = value` override being parsed.
#[derive(Clone, Copy)]
pub(super) struct Value<'a> {
    pub(super) key: &'a str,
    pub(super) value: &'a str,
}

impl Value<'_> {
    /// The error "bad value, allowed: `allowed`".
    pub(super) fn bad(self, allowed: &'static str) -> SimConfigError {
        SimConfigError::BadValue {
            key: self.key.to_string(),
            value: self.value.to_string(),
            allowed,
        }
    }

    /// A number of type `T`.
    pub(super) fn num<T: core::str::FromStr>(
        self,
        allowed: &'static str,
    ) -> Result<T, SimConfigError> {
        self.value.trim().parse().map_err(|_| self.bad(allowed))
    }

    /// A positive integer (0 is refused with the same message as a parse error).
    pub(super) fn positive<T: core::str::FromStr + PartialEq + Default>(
        self,
        allowed: &'static str,
    ) -> Result<T, SimConfigError> {
        let v: T = self.num(allowed)?;
        if v == T::default() {
            return Err(self.bad(allowed));
        }
        Ok(v)
    }

    /// A number in 0..=1.
    pub(super) fn fraction(self) -> Result<f64, SimConfigError> {
        pub(super) const ALLOWED: &str = "a number in 0..=1";
        let v: f64 = self.num(ALLOWED)?;
        if !(0.0..=1.0).contains(&v) {
            return Err(self.bad(ALLOWED));
        }
        Ok(v)
    }

    /// A boolean.
    pub(super) fn boolean(self) -> Result<bool, SimConfigError> {
        match self.value.trim() {
            "1" | "true" | "yes" => Ok(true),
            "0" | "false" | "no" => Ok(false),
            _ => Err(self.bad("true/false/1/0")),
        }
    }

    /// An allocator name.
    pub(super) fn allocator(self) -> Result<Allocator, SimConfigError> {
        match self.value.trim() {
            "separable_input_first" | "separable" | "round_robin" => {
                Ok(Allocator::SeparableInputFirst)
            }
            "separable_vc" => Ok(Allocator::SeparableVc),
            "islip" => Ok(Allocator::Islip),
            "wavefront" => Ok(Allocator::Wavefront),
            "rr_wavefront" => Ok(Allocator::RrWavefront),
            "pim" => Ok(Allocator::Pim),
            "loa" => Ok(Allocator::Loa),
            "select" => Ok(Allocator::Select),
            "max_size" => Ok(Allocator::MaxSize),
            _ => Err(self.bad(
                "separable_input_first, separable_vc, islip, wavefront, rr_wavefront, pim, loa, \
                     select, max_size",
            )),
        }
    }
}
