//! Formats and output: what the commands read and write.
//!
//! - [`edgelist`]: GraphGolf edge lists (`u v` per link).
//! - [`anynet`]: BookSim2's anynet network files (read and written).
//! - [`lft`]: OpenSM-style linear forwarding table dumps.
//! - [`export`]: topology export as DOT, GraphML or an edge list.
//! - [`image`]: program, route-table and virtual-layer images read back and decoded.
//! - [`svg`]: self-contained SVG charts for reports.
//! - [`output`]: rendering results as a table, JSON or CSV; atomic file writes.
//! - [`outdir`]: output directories: whose they may be, one writer at a time, written
//!   whole, checksummed.
//! - [`cleanup`]: what an interrupted run leaves (partial outputs, locks), removed on
//!   SIGINT/SIGTERM/SIGHUP.
//! - [`progress`]: progress bars on stderr for long runs.
//! - [`read`]: bounded reading of user files (line length and file size limits).

pub mod anynet;
pub mod bytes;
pub mod cleanup;
pub mod duration;
pub mod edgelist;
pub mod export;
pub mod image;
pub mod lft;
pub mod outdir;
pub mod output;
pub mod progress;
pub mod read;
pub mod simgrid;
pub mod svg;
