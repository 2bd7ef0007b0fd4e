//! UART frames (COBS + postcard + CRC-32): requests as the firmware decodes them, replies
//! as the host does, and the byte-by-byte frame accumulator.

use jumpnet_core::wire::frame::{self, FrameAccumulator};
use jumpnet_core::wire::{Request, Response};

/// Feeds `data` to the decoder; returns normally on any input (a panic is a defect).
pub fn run(data: &[u8]) {
    let mut a = data.to_vec();
    let _ = frame::decode::<Request>(&mut a);
    let mut b = data.to_vec();
    let _ = frame::decode::<Response>(&mut b);
    let mut acc = FrameAccumulator::<512>::new();
    for &byte in data {
        if let Some(Ok(f)) = acc.push(byte) {
            let _ = frame::decode::<Request>(f);
        }
    }
}
