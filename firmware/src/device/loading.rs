//! Image loading: chunked loading into the staging slot, verification and activation (the
//! previous image stays active when the new one is rejected), read-back of the active image.

use heapless::Vec;
use jumpnet_core::image::device::{self, Capacities, DeviceBuffers, DeviceHeader};
use jumpnet_core::image::ImageError;

use super::{sat, DeviceService};
use jumpnet_core::wire::device::DeviceReply;
use jumpnet_core::wire::message::Rejection;
use jumpnet_core::wire::route_table::{ImageChunk, MAX_IMAGE_CHUNK};

/// The active image's decoded parts.
#[derive(Debug)]
pub(super) struct Active {
    pub(super) header: DeviceHeader,
    pub(super) slot: usize,
    pub(super) len: usize,
}

impl<const RUNS: usize, const PROGRAMS: usize, const OPS: usize, const IMAGE: usize>
    DeviceService<RUNS, PROGRAMS, OPS, IMAGE>
{
    pub(super) fn staging_slot(&self) -> usize {
        self.active.get().map_or(0, |a| 1 - a.slot)
    }

    pub(super) fn load_begin(&mut self, image_len: u32) -> Result<DeviceReply, Rejection> {
        if image_len as usize > IMAGE {
            self.staging = None;
            return Err(Rejection::ImageTooLarge {
                image_len,
                capacity: sat(IMAGE),
            });
        }
        self.staging = Some((image_len, 0));
        Ok(DeviceReply::Loading {
            received: 0,
            image_len,
        })
    }

    pub(super) fn load_chunk(
        &mut self,
        offset: u32,
        bytes: &[u8],
    ) -> Result<DeviceReply, Rejection> {
        let (image_len, received) = self.staging.ok_or(Rejection::NoLoadInProgress)?;
        let end = offset as u64 + bytes.len() as u64;
        if end > image_len as u64 {
            return Err(Rejection::ChunkOutOfRange { offset, image_len });
        }
        if end <= received as u64 {
            // Already have it (a retry after a lost reply): acknowledge again.
            return Ok(DeviceReply::Loading {
                received,
                image_len,
            });
        }
        if offset != received {
            return Err(Rejection::ChunkOutOfOrder {
                offset,
                expected: received,
            });
        }
        let slot = self.staging_slot();
        let dst = self
            .images
            .get_mut(slot)
            .and_then(|img| img.get_mut(offset as usize..end as usize))
            .ok_or(Rejection::ChunkOutOfRange { offset, image_len })?;
        dst.copy_from_slice(bytes);
        let received = end as u32;
        self.staging = Some((image_len, received));
        Ok(DeviceReply::Loading {
            received,
            image_len,
        })
    }

    pub(super) fn activate(&mut self) -> Result<DeviceReply, Rejection> {
        let (image_len, received) = self.staging.ok_or(Rejection::NoLoadInProgress)?;
        if received != image_len {
            return Err(Rejection::ImageIncomplete {
                received,
                image_len,
            });
        }
        self.staging = None;
        let slot = self.staging_slot();
        let bytes = self
            .images
            .get(slot)
            .and_then(|img| img.get(..image_len as usize))
            .unwrap_or(&[]);
        let limits = Capacities {
            destinations: u32::MAX,
            runs: sat(RUNS),
            programs: sat(PROGRAMS),
            ops: sat(OPS),
        };
        if let Err(e) = device::verify(bytes, limits) {
            return Err(self.rejected(e));
        }
        // Verified: decoding cannot fail now; it overwrites the previous image's parts.
        let buffers = DeviceBuffers {
            runs: &mut self.runs,
            programs: &mut self.programs,
            ops: &mut self.ops,
        };
        let header = match device::decode(bytes, buffers) {
            Ok(d) => d.header,
            Err(e) => {
                self.active.clear();
                return Err(self.rejected(e));
            }
        };
        self.active.put(Active {
            header,
            slot,
            len: image_len as usize,
        });
        self.running.clear();
        self.counters.images_activated = self.counters.images_activated.saturating_add(1);
        self.summary()
            .map(DeviceReply::Activated)
            .ok_or(Rejection::NoActiveImage)
    }

    /// Counts a rejected image and names why.
    fn rejected(&mut self, e: ImageError) -> Rejection {
        self.counters.images_rejected = self.counters.images_rejected.saturating_add(1);
        Rejection::Image(e)
    }

    pub(super) fn read_image(&self, offset: u32, max_len: u16) -> Result<DeviceReply, Rejection> {
        let bytes = self.active_image().ok_or(Rejection::NoActiveImage)?;
        let image_len = sat(bytes.len());
        let rest = bytes
            .get(offset as usize..)
            .ok_or(Rejection::ChunkOutOfRange { offset, image_len })?;
        let n = rest.len().min(max_len as usize).min(MAX_IMAGE_CHUNK);
        let chunk = Vec::from_slice(rest.get(..n).unwrap_or(&[]))
            .map_err(|_| Rejection::ChunkOutOfRange { offset, image_len })?;
        Ok(DeviceReply::Image(ImageChunk {
            image_len,
            offset,
            bytes: chunk,
        }))
    }
}
