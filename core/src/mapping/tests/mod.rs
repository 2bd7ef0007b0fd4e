//! Tests of the mapping module against spec values, properties and independent
//! implementations (helpers in `super::testutil`).

mod a4;
mod baseline;
mod ga_engine;
mod ga_operators;
mod ga_patterns;
mod max_load;
mod objectives;
mod optimisers;
