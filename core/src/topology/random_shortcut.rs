//! Ring-based random shortcut topology (spec/topologies.md §3) — placeholder until implemented.
