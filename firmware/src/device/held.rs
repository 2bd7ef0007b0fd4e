//! [`Held`]: an optional value that is all zero bytes when empty.

/// An optional value stored as a flag and a value, so that an empty one is all zero bytes
/// (an `Option` of a type with a niche may encode `None` as non-zero bytes, which moves the
/// whole device state from `.bss` into `.data` and its initial value into flash).
#[derive(Clone, Copy, Debug)]
pub(super) struct Held<T> {
    pub(super) present: bool,
    pub(super) value: T,
}

impl<T> Held<T> {
    pub(super) fn get(&self) -> Option<&T> {
        self.present.then_some(&self.value)
    }
    pub(super) fn put(&mut self, value: T) {
        self.value = value;
        self.present = true;
    }
    pub(super) fn clear(&mut self) {
        self.present = false;
    }
}
