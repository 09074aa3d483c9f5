//! End-to-end tests of the workspace live under `tests/`; this library only holds helpers they share.

use std::path::PathBuf;

/// Root of the workspace, for tests that read checked-in files such as `spec/openapi.yaml`.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits one level below the workspace root")
        .to_path_buf()
}

/// Text of the contract, `spec/openapi.yaml`.
pub fn spec_text() -> String {
    let path = workspace_root().join("spec/openapi.yaml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
