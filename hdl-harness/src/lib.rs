//! jumpnet RTL harness (placeholder).
