//! Safe stepping API over the Verilator model of `rtl/table_router.v`:
//! load one switch's run-length route table (`jumpnet_core::routing::RunTable`, flat form of
//! `jumpnet_core::exec::rtl_program`), present head flits on the inputs, step the clock and
//! read the lookup, the grants and the back-pressure.

use core::ffi::c_void;
use core::ptr::NonNull;

use jumpnet_core::exec::rtl_program::encode_run;
use jumpnet_core::routing::{RouteEntry, RunTable};

use crate::engine::HdlError;
use crate::ffi::{self, RouterIn, RouterOut};

/// The lookup the router performed in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// Input whose head was looked up.
    pub input: usize,
    /// Its destination.
    pub dst: u32,
    /// The route found ([`RouteEntry::NONE`] for none).
    pub entry: RouteEntry,
}

/// What the router showed in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouterCycle {
    /// The lookup of this cycle, if any input waited for one.
    pub lookup: Option<Lookup>,
    /// Per output: `(granted input, VC)` while some input requests it (`out_valid`).
    pub requests: [Option<(usize, u8)>; TableRouterRtl::OUTPUTS],
    /// Inputs whose head moved (granted with `out_ready`, or dropped) this cycle.
    pub in_ready: u8,
    /// Inputs whose head was dropped (no route, or a port that is not an output).
    pub drop: u8,
}

/// One instance of the table router RTL (`RUN_W = 8`, `DST_W = 16`, 4 inputs, 16 outputs,
/// `VC_W = 4`) under Verilator. Not `Send`.
#[derive(Debug)]
pub struct TableRouterRtl {
    model: NonNull<c_void>,
    cycles: u64,
}

#[allow(unsafe_code)]
impl TableRouterRtl {
    /// Runs the model's table holds.
    pub const RUNS: usize = 256;
    /// Input ports.
    pub const INPUTS: usize = 4;
    /// Output ports.
    pub const OUTPUTS: usize = 16;
    /// Destinations are below `2^DST_BITS`.
    pub const DST_BITS: u32 = 16;
    /// VCs kept by the model are below `2^VC_BITS`.
    pub const VC_BITS: u32 = 4;

    /// Creates a model and resets it.
    ///
    /// # Panics
    /// If the C++ model cannot be allocated.
    pub fn new() -> Self {
        // SAFETY: the shim returns a fresh heap model or null; it has no preconditions.
        let raw = unsafe { ffi::jn_table_router_new() };
        let model = NonNull::new(raw).expect("allocate the Verilator model of table_router");
        let mut r = TableRouterRtl { model, cycles: 0 };
        r.clock(&RouterIn {
            rst: 1,
            ..RouterIn::default()
        });
        r
    }

    fn clock(&mut self, inputs: &RouterIn) {
        let m = self.model.as_ptr();
        // SAFETY: `m` is a live model owned by `self`; the shim reads `inputs` during the call.
        unsafe {
            ffi::jn_table_router_set(m, inputs);
            ffi::jn_table_router_tick(m);
        }
        self.cycles += 1;
    }

    /// Writes `table` (one run per clock) and its run and destination counts.
    pub fn load_table(&mut self, table: &RunTable<'_, RouteEntry>) -> Result<(), HdlError> {
        let runs = table.runs();
        let cap = |what, needed: usize, available: usize| {
            if needed > available {
                Err(HdlError::Capacity {
                    what,
                    needed,
                    available,
                })
            } else {
                Ok(())
            }
        };
        cap("route runs", runs.len(), Self::RUNS)?;
        cap(
            "destinations",
            table.len() as usize,
            1 << Self::DST_BITS as usize,
        )?;
        for (i, r) in runs.iter().enumerate() {
            cap(
                "VC",
                usize::from(r.value.vc) + 1,
                1 << Self::VC_BITS as usize,
            )?;
            self.clock(&RouterIn {
                run_we: 1,
                run_addr: i as u32,
                run_word: encode_run(*r),
                ..RouterIn::default()
            });
        }
        self.clock(&RouterIn {
            cfg_we: 1,
            cfg_runs: runs.len() as u32,
            cfg_dests: table.len(),
            ..RouterIn::default()
        });
        Ok(())
    }

    /// One cycle: presents the head flits (`valid` bit per input, `dst` per input) and the
    /// outputs' `ready` bits, reads what the router shows, clocks.
    pub fn step(&mut self, valid: u8, dst: [u32; 4], out_ready: u16) -> RouterCycle {
        let in_dst = dst
            .iter()
            .enumerate()
            .fold(0u64, |w, (i, &d)| w | u64::from(d & 0xFFFF) << (16 * i));
        let inputs = RouterIn {
            in_valid: valid & 0xF,
            in_dst,
            out_ready: out_ready.into(),
            ..RouterIn::default()
        };
        let mut o = RouterOut::default();
        // SAFETY: as in `clock`; `get` writes the struct and does not modify the model.
        unsafe {
            ffi::jn_table_router_set(self.model.as_ptr(), &inputs);
            ffi::jn_table_router_get(self.model.as_ptr(), &mut o);
        }
        let mut cycle = RouterCycle {
            lookup: (o.lk_valid != 0).then(|| Lookup {
                input: usize::from(o.lk_in),
                dst: o.lk_dst,
                entry: RouteEntry {
                    port: o.lk_port as u16,
                    vc: o.lk_vc,
                },
            }),
            in_ready: o.in_ready,
            drop: o.drop,
            ..RouterCycle::default()
        };
        for (k, r) in cycle.requests.iter_mut().enumerate() {
            if o.out_valid >> k & 1 == 1 {
                *r = Some((
                    (o.out_in >> (2 * k) & 3) as usize,
                    (o.out_vc >> (4 * k) & 0xF) as u8,
                ));
            }
        }
        self.clock(&inputs);
        cycle
    }

    /// Clock cycles simulated so far (loading included).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }
}

impl Default for TableRouterRtl {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TableRouterRtl {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the model was created by `jn_table_router_new` and is freed exactly once.
        unsafe { ffi::jn_table_router_free(self.model.as_ptr()) }
    }
}
