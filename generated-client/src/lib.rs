//! Generated from spec/openapi.yaml by `cargo xtask codegen`.
