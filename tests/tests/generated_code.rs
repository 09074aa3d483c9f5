//! The checked-in generated crates are exactly what the spec produces, and the generated crate
//! manifests build (no `info.version` used as a crate version).

use xtask::codegen::{Mode, run, workspace_root};

#[test]
fn checked_in_generated_code_is_current() {
    if let Err(message) = run(Mode::Check) {
        panic!("{message}");
    }
}

#[test]
fn generated_manifests_use_a_crate_version_not_the_api_version() {
    let manifest = std::fs::read_to_string(workspace_root().join("generated-client/Cargo.toml")).unwrap();
    assert!(manifest.contains("version = \"0.1.0\""), "{manifest}");
    let versions: Vec<&str> = manifest.lines().filter(|l| l.starts_with("version")).collect();
    assert_eq!(versions, ["version = \"0.1.0\""], "{manifest}");
    assert!(manifest.contains("\"rustls\""), "https needs a TLS backend: {manifest}");
}

#[test]
fn generation_is_deterministic() {
    let spec = portfolio_tests::spec_text();
    let config = xtask::codegen::project_config();
    let first = portfolio_codegen::generate(&spec, &config).unwrap();
    let second = portfolio_codegen::generate(&spec, &config).unwrap();
    assert_eq!(first, second);
}
