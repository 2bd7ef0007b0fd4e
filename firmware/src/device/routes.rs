//! Route lookups in the active image's table.

use heapless::Vec;
use jumpnet_core::routing::{RouteEntry, RunTable};

use super::{sat, DeviceService};
use jumpnet_core::wire::device::{DeviceReply, MAX_ROUTES};
use jumpnet_core::wire::message::Rejection;

impl<const RUNS: usize, const PROGRAMS: usize, const OPS: usize, const IMAGE: usize>
    DeviceService<RUNS, PROGRAMS, OPS, IMAGE>
{
    pub(super) fn table(&self) -> Result<RunTable<'_, RouteEntry>, Rejection> {
        let a = self.active.get().ok_or(Rejection::NoActiveImage)?;
        let caps = a.header.capacities;
        let runs = self.runs.get(..caps.runs as usize).unwrap_or(&[]);
        RunTable::new(runs, caps.destinations).map_err(|_| Rejection::NoActiveImage)
    }

    pub(super) fn routes(&mut self, first: u32, count: u16) -> Result<DeviceReply, Rejection> {
        let table = self.table()?;
        let destinations = table.len();
        if first >= destinations && !(first == destinations && count == 0) {
            return Err(Rejection::DestinationOutOfRange {
                destination: first,
                destinations,
            });
        }
        let mut entries = Vec::new();
        for d in (first..destinations).take((count as usize).min(MAX_ROUTES)) {
            let e = table.lookup(d).unwrap_or(RouteEntry::NONE);
            if entries.push(e).is_err() {
                break;
            }
        }
        let n = sat(entries.len());
        self.counters.lookups = self.counters.lookups.saturating_add(n);
        Ok(DeviceReply::Routes { first, entries })
    }
}
