//! Circulant routing (docs/routing.md §3): greedy routing by largest jump on any circulant
//! `C(n; c1..ck)`, and optimal routing on `G(n, log2 n)` by the non-adjacent form.

pub mod greedy;
pub mod jump;
pub mod naf;
