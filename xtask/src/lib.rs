//! Project automation, as a library so tests can run the same checks as `cargo xtask`.

pub mod client_probe;
pub mod codegen;
pub mod diff;
pub mod serve_mock;
