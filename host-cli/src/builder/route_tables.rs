//! Table compilation: a routing compiled into owned forwarding (and layer) tables.

use anyhow::Result;

use jumpnet_core::routing::{
    tables::compile::compile_tables, tables::compile::VcMode, RouteEntry, Routing, RoutingError,
    Run, TableSet, TableSetBuilder,
};
use jumpnet_core::topology::Topology;

use crate::builder;

/// Compiled forwarding (and optional layer) tables in owned buffers.
#[derive(Debug)]
pub struct OwnedTables {
    runs: Vec<Run<RouteEntry>>,
    offsets: Vec<u32>,
    layer_runs: Vec<Run<u8>>,
    layer_offsets: Vec<u32>,
    destinations: u32,
    layered: bool,
}

impl OwnedTables {
    /// Forwarding tables.
    pub fn routes(&self) -> Result<TableSet<'_, RouteEntry>> {
        Ok(TableSet::from_parts(
            &self.runs,
            &self.offsets,
            self.destinations,
        )?)
    }

    /// Per-(source switch, destination) layers, for layered routings.
    pub fn layers(&self) -> Result<Option<TableSet<'_, u8>>> {
        if !self.layered {
            return Ok(None);
        }
        Ok(Some(TableSet::from_parts(
            &self.layer_runs,
            &self.layer_offsets,
            self.destinations,
        )?))
    }
}

/// Compiles `routing` into tables, growing the run buffers until they fit.
pub fn compile<T: Topology>(topo: &T, routing: &dyn Routing, layered: bool) -> Result<OwnedTables> {
    let n = topo.num_switches();
    let d = topo.num_terminals();
    let full = n as usize * d as usize;
    let mut cap = (n as usize * 64).min(full).max(1);
    loop {
        builder::network::check_alloc::<Run<RouteEntry>>(
            &format!("routing tables of {n} switches × {d} destinations"),
            cap as u128 * if layered { 2 } else { 1 },
        )?;
        let mut runs = vec![
            Run {
                first: 0,
                value: RouteEntry::NONE
            };
            cap
        ];
        let mut offsets = vec![0u32; n as usize + 1];
        let mut layer_runs = vec![
            Run {
                first: 0,
                value: 0u8
            };
            if layered { cap } else { 0 }
        ];
        let mut layer_offsets = vec![0u32; if layered { n as usize + 1 } else { 0 }];
        let res = {
            let mut rb = TableSetBuilder::new(n, d, &mut runs, &mut offsets)?;
            let mut lb = if layered {
                Some(TableSetBuilder::new(
                    n,
                    d,
                    &mut layer_runs,
                    &mut layer_offsets,
                )?)
            } else {
                None
            };
            let mode = if layered {
                VcMode::PerPath
            } else {
                VcMode::InTable
            };
            compile_tables(topo, routing, mode, &mut rb, lb.as_mut())
                .and_then(|()| rb.finish().map(|t| t.total_runs()))
                .and_then(|used| match lb {
                    Some(l) => l.finish().map(|t| (used, t.total_runs())),
                    None => Ok((used, 0)),
                })
        };
        match res {
            Ok((used, lused)) => {
                runs.truncate(used);
                layer_runs.truncate(lused);
                return Ok(OwnedTables {
                    runs,
                    offsets,
                    layer_runs,
                    layer_offsets,
                    destinations: d,
                    layered,
                });
            }
            Err(RoutingError::Capacity(..)) if cap < full => cap = (cap * 4).min(full),
            Err(e) => return Err(e.into()),
        }
    }
}
