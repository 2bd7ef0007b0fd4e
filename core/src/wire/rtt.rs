//! The RTT channel layout shared by the firmware's RTT build (cargo feature `rtt`) and the
//! host's probe-rs transport: wire frames (the same COBS frames as on the UART) go down on one
//! channel and up on another; the defmt log has its own up channel.

/// Up channel (device → host) of the defmt log (channel 0, where defmt tools look).
pub const DEFMT_UP: usize = 0;
/// Up channel (device → host) of wire frames.
pub const FRAMES_UP: usize = 1;
/// Down channel (host → device) of wire frames.
pub const FRAMES_DOWN: usize = 0;
/// Buffer size of each frame channel on the device, in bytes (two frames).
pub const FRAME_CHANNEL_BYTES: usize = 1024;
/// Buffer size of the defmt channel on the device, in bytes.
pub const DEFMT_CHANNEL_BYTES: usize = 1024;
