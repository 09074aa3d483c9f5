//! Project automation, as a library so tests can run the same checks as `cargo xtask`. The
//! commands it shares with the `apigen` tool (`diff`, `serve-mock`, `client-probe`) are the
//! tool's, in `apigen::tools`.

pub mod codegen;
