//! Route tables: one switch's table as runs of equal entries ([`run_table`]), every switch's
//! tables in two flat buffers ([`table_set`]), compiling any [`Routing`](super::Routing) into
//! tables ([`compile`]) and routing from tables with per-path virtual layers beside them
//! ([`table_routing`]), as InfiniBand does (LFT per switch, SL/VL per path). The canonical
//! byte image of a table is [`image::route_table`](crate::image::route_table).

pub mod compile;
pub mod run_table;
pub mod table_routing;
pub mod table_set;
