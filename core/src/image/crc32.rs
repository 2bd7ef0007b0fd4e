//! The one CRC-32 of jumpnet: CRC-32/ISO-HDLC (IEEE 802.3, the zlib/Ethernet CRC; reflected
//! polynomial `0xEDB88320`, initial value and final XOR `0xFFFFFFFF`). It protects every
//! image ([`super::frame`]), the firmware's UART frames (`jumpnet-firmware`, `wire::frame`)
//! and the firmware self-test's port-table digest (docs/architecture.md §3: every wire/image
//! format has a version and a CRC).
//!
//! Table-driven with a table computed at compile time, so results are identical on every
//! target. Check value: `crc32(b"123456789") == 0xCBF43926`.
//!
//! # Examples
//!
//! ```
//! use jumpnet_core::image::crc32::{crc32, Crc32};
//!
//! assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
//! let mut c = Crc32::new();
//! c.update(b"1234");
//! c.update(b"56789");
//! assert_eq!(c.finish(), crc32(b"123456789"));
//! ```

const fn make_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

static TABLE: [u32; 256] = make_table();

/// Incremental CRC-32/ISO-HDLC state (feed bytes in any split; [`crc32`] in one call).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crc32 {
    state: u32,
}

impl Default for Crc32 {
    fn default() -> Self {
        Crc32::new()
    }
}

impl Crc32 {
    /// A fresh CRC computation (state `0xFFFFFFFF`).
    pub const fn new() -> Self {
        Crc32 { state: 0xFFFF_FFFF }
    }

    /// Feeds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut c = self.state;
        for &b in bytes {
            c = TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
        }
        self.state = c;
    }

    /// The CRC of everything fed so far (state XOR `0xFFFFFFFF`); feeding may continue.
    pub fn finish(&self) -> u32 {
        self.state ^ 0xFFFF_FFFF
    }
}

/// CRC-32/ISO-HDLC of `bytes` (the module's algorithm in one call).
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = Crc32::new();
    c.update(bytes);
    c.finish()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn check_values() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"a"), 0xE8B7_BE43);
        let mut c = Crc32::new();
        c.update(b"1234");
        c.update(b"56789");
        assert_eq!(c.finish(), 0xCBF4_3926);
    }

    #[test]
    fn matches_bitwise_definition() {
        fn bitwise(bytes: &[u8]) -> u32 {
            let mut c = 0xFFFF_FFFFu32;
            for &b in bytes {
                c ^= b as u32;
                for _ in 0..8 {
                    let mask = (c & 1).wrapping_neg();
                    c = (c >> 1) ^ (0xEDB8_8320 & mask);
                }
            }
            !c
        }
        let data: [u8; 64] = core::array::from_fn(|i| (i * 37 + 11) as u8);
        for len in 0..data.len() {
            assert_eq!(crc32(&data[..len]), bitwise(&data[..len]));
        }
    }
}
