//! The checked-in generated crates are exactly what the spec produces, and the generated crate
//! manifests build (no `info.version` used as a crate version).

use portfolio_tests::workspace_root;
use xtask::codegen::{Mode, Strictness, run};

#[test]
fn checked_in_generated_code_is_current() {
    if let Err(message) = run(Mode::Check, Strictness::Default) {
        panic!("{message}");
    }
}

#[test]
fn generated_manifests_use_the_crate_version_beside_the_spec_not_the_api_version() {
    let manifest = std::fs::read_to_string(workspace_root().join("generated-client/Cargo.toml")).unwrap();
    let version = apigen::disk::crate_version(&workspace_root().join("spec/openapi.yaml")).unwrap();
    assert_eq!(version, "0.2.0", "spec/CHANGES.yaml's crate-version");
    let versions: Vec<&str> = manifest.lines().filter(|l| l.starts_with("version")).collect();
    assert_eq!(versions, [format!("version = \"{version}\"")], "{manifest}");
    assert!(manifest.contains("\"rustls\""), "https needs a TLS backend: {manifest}");
}

#[test]
fn generation_is_deterministic() {
    let spec = portfolio_tests::spec_text();
    let config = xtask::codegen::project_config();
    let first = apigen::generate(&spec, &config).unwrap().files;
    let second = apigen::generate(&spec, &config).unwrap().files;
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
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{name: s, in: cookie, schema: {type: array, items: {type: object}}}]\n      responses: {'204': {description: ok}}\n  /b:\n    get:\n      responses: {'200': {description: ok, content: {application/json: {schema: {oneOf: [{type: string}], anyOf: [{type: integer}]}}}}}\n",
    )
    .unwrap();
    let strict = xtask::codegen::SpecOptions { strictness: Strictness::Strict, ..Default::default() };
    let err = xtask::codegen::run_spec(&spec, &dir.join("out"), "bad", Mode::Write, strict).unwrap_err();
    // A cookie that must travel as JSON text, a schema no one Rust type holds, and (the same
    // schema) a value that is both a string and an integer, which no mock can make.
    assert!(err.contains("3 problems"), "{err}");
    assert!(err.contains("#/paths/~1a/get/parameters/0/schema (line 6)"), "YAML diagnostics carry their line: {err}");
    assert!(err.contains("#/paths/~1b/get/responses/200/content/application~1json/schema"), "{err}");
    assert!(!dir.join("out").exists(), "nothing is written when generation fails");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A spec of two operations, one of which refers to `reference` for its reply.
fn spec_referring_to(dir: &std::path::Path, reference: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let spec = dir.join("spec.yaml");
    let text = format!(
        "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {{$ref: '{reference}'}}}}}}}}}}\n  /b:\n    get:\n      operationId: getB\n      responses: {{'204': {{description: ok}}}}\ncomponents:\n  schemas:\n    Pet: {{type: object, properties: {{name: {{type: string}}}}}}\n"
    );
    std::fs::write(&spec, text).unwrap();
    spec
}

#[test]
fn an_unresolved_reference_is_an_error_strictly_and_a_located_warning_leniently() {
    let dir = std::env::temp_dir().join(format!("portfolio-typo-ref-{}", std::process::id()));
    let spec = spec_referring_to(&dir, "#/components/schemas/Pett");
    let strict = xtask::codegen::SpecOptions { strictness: Strictness::Strict, ..Default::default() };
    let err = xtask::codegen::run_spec(&spec, &dir.join("out"), "typo", Mode::Write, strict).unwrap_err();
    assert!(err.contains("#/components/schemas/Pett does not name a schema"), "{err}");
    assert!(err.contains("(line 7)"), "located: {err}");
    assert!(!dir.join("out").exists(), "nothing is written when a strict run fails");
    // Leniently the crates are written, and the warning is there for the caller to show.
    xtask::codegen::run_spec(&spec, &dir.join("out"), "typo", Mode::Write, Default::default()).unwrap();
    let text = std::fs::read_to_string(&spec).unwrap();
    let config = apigen::Config { strict: false, ..xtask::codegen::project_config() };
    let generated = apigen::generate(&text, &config).unwrap();
    assert!(
        generated.warnings.iter().any(|w| w.message.contains("read as any JSON value")),
        "{:?}",
        generated.warnings
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reference_to_another_file_is_never_read_as_any_value() {
    let dir = std::env::temp_dir().join(format!("portfolio-file-ref-{}", std::process::id()));
    let spec = spec_referring_to(&dir, "./schemas/Pet.yaml");
    let text = std::fs::read_to_string(&spec).unwrap();
    let config = apigen::Config { strict: false, ..xtask::codegen::project_config() };
    // Leniently, the operation that needs it is left out, with the reason; the rest generates.
    let generated = apigen::generate(&text, &config).unwrap();
    let left_out: Vec<&str> = generated.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        left_out.iter().any(|m| m.contains("getA") && m.contains("./schemas/Pet.yaml is to another file")),
        "{left_out:#?}"
    );
    let client = generated.files.iter().find(|f| f.path.ends_with("client/src/client.rs")).unwrap();
    assert!(client.contents.contains("fn get_b") && !client.contents.contains("fn get_a"));
    // Strictly it is an error, as any warning is.
    let config = apigen::Config { strict: true, ..config };
    let err = apigen::generate(&text, &config).unwrap_err().to_string();
    assert!(err.contains("./schemas/Pet.yaml is to another file"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
