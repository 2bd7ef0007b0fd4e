//! jumpnet firmware application logic (placeholder).
#![no_std]
