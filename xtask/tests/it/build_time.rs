//! `apigen::Build` on every fixture and the project's spec at once: one crate whose build script
//! generates each API into `OUT_DIR`, compiled without a warning. The fixtures hold what the
//! module form must rewrite (files included, serde derives, features, doc examples, names like
//! the crates' own), so a rewrite that misses one fails here.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn every_fixture_generated_at_build_time_compiles_in_one_crate_without_a_warning() {
    let root = root();
    let fixtures = root.join("codegen/tests/fixtures");
    let mut specs: Vec<(String, PathBuf)> =
        ["features", "naming", "openapi31", "openapi32", "reserved", "swagger2", "unseen"]
            .iter()
            .map(|name| (name.to_string(), fixtures.join(format!("{name}.yaml"))))
            .collect();
    specs.push(("split".to_string(), fixtures.join("split/openapi.yaml")));
    specs.push(("portfolio".to_string(), root.join("spec/openapi.yaml")));

    let dir = std::env::temp_dir().join(format!("apigen-build-time-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let quoted = |path: &Path| format!("{:?}", path.display().to_string());
    let manifest = format!(
        "[package]\nname = \"every-fixture\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\napigen-runtime = {{ path = {}, features = [\"client\", \"server\", \"fancy-pattern\", \"json-schema\", \"xml\"] }}\n\n\
         [build-dependencies]\napigen = {{ path = {} }}\n\n[workspace]\n",
        quoted(&root.join("codegen/runtime")),
        quoted(&root.join("codegen")),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let calls: String = specs
        .iter()
        .map(|(name, spec)| format!("    apigen::Build::new({}, {name:?}).run();\n", quoted(spec)))
        .collect();
    std::fs::write(dir.join("build.rs"), format!("fn main() {{\n{calls}}}\n")).unwrap();
    let modules: String = specs
        .iter()
        .map(|(name, _)| {
            format!("/// The `{name}` API.\npub mod {name} {{\n    apigen_runtime::include_api!({name:?});\n}}\n")
        })
        .collect();
    std::fs::write(dir.join("src/lib.rs"), format!("//! Every fixture, generated at build time.\n\n{modules}"))
        .unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let output = Command::new(env!("CARGO"))
        // Warnings denied in this crate alone, so the dependencies' builds are shared.
        .args(["rustc", "--lib", "--message-format", "short", "--", "-D", "warnings"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", root.join("target/guide/target"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    // The build script's warnings are the documents' own (repairs), not the code's.
    let code: Vec<&str> =
        said.lines().filter(|l| l.contains("warning") && !l.starts_with("warning: every-fixture@")).collect();
    assert!(output.status.success() && code.is_empty(), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
