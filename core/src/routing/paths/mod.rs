//! Following routes: pair-by-pair walks that check delivery, loop freedom, VC ranges and
//! minimality ([`walk`]), and all-to-all path statistics — hop histogram and per-channel
//! loads by link class ([`stats`]).

pub mod stats;
pub mod walk;
