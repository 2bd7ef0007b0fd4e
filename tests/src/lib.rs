//! Shared helpers for jumpnet's cross-crate integration tests.
