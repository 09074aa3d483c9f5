//! The checked-in generated crates are exactly what the spec produces, and the generated crate
//! manifests build (no `info.version` used as a crate version).

use portfolio_tests::workspace_root;
use xtask::codegen::{Mode, run};

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
    let first = portfolio_codegen::generate(&spec, &config).unwrap().files;
    let second = portfolio_codegen::generate(&spec, &config).unwrap().files;
    assert_eq!(first, second);
}

#[test]
fn any_spec_generates_two_standalone_crates() {
    let out = std::env::temp_dir().join(format!("portfolio-generic-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let fixture = workspace_root().join("codegen/tests/fixtures/naming.yaml");
    xtask::codegen::run_spec(&fixture, &out, "naming", Mode::Write, Default::default()).unwrap();
    for krate in ["naming-client", "naming-server"] {
        let manifest = std::fs::read_to_string(out.join(krate).join("Cargo.toml")).unwrap();
        assert!(manifest.contains(&format!("name = \"{krate}\"")), "{manifest}");
        assert!(manifest.contains("\n[workspace]\n"), "a standalone crate declares its own workspace: {manifest}");
        assert!(out.join(krate).join("src/lib.rs").exists());
    }
    // Writing again changes nothing, and the check agrees.
    xtask::codegen::run_spec(&fixture, &out, "naming", Mode::Check, Default::default()).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn unsupported_specs_fail_with_every_problem_located() {
    let dir = std::env::temp_dir().join(format!("portfolio-generic-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("bad.yaml");
    std::fs::write(
        &spec,
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{name: s, in: query, allowReserved: true, schema: {type: string}}]\n      responses: {'204': {description: ok}}\n  /b:\n    get:\n      responses: {'200': {description: ok, content: {application/json: {schema: {not: {type: string}}}}}}\n",
    )
    .unwrap();
    let err = xtask::codegen::run_spec(&spec, &dir.join("out"), "bad", Mode::Write, Default::default()).unwrap_err();
    assert!(err.contains("2 problems"), "{err}");
    assert!(
        err.contains("#/paths/~1a/get/parameters/0/allowReserved (line 6)"),
        "YAML diagnostics carry their line: {err}"
    );
    assert!(err.contains("#/paths/~1b/get/responses/200/content/application~1json/schema"), "{err}");
    assert!(!dir.join("out").exists(), "nothing is written when generation fails");
    std::fs::remove_dir_all(&dir).unwrap();
}
