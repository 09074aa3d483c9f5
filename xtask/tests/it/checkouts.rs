//! One xtask binary serving two checkouts, as it does when they share a target directory: each
//! run acts on the checkout it was started in, never on the one the binary was built in.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The checkout these tests run in.
fn this_checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if entry.file_name() != "target" {
                copy_dir(&entry.path(), &target);
            }
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A second checkout holding what `codegen --check` reads, in a fresh temporary directory.
fn second_checkout(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("xtask-checkout-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let here = this_checkout();
    for file in [
        "Cargo.toml",
        "xtask/Cargo.toml",
        "spec/openapi.yaml",
        "codegen/tests/fixtures/features.yaml",
        "codegen/tests/fixtures/reserved.yaml",
        "codegen/tests/fixtures/unseen.yaml",
        "codegen/tests/fixtures/openapi31.yaml",
        "codegen/tests/fixtures/openapi32.yaml",
    ] {
        fs::create_dir_all(root.join(file).parent().unwrap()).unwrap();
        fs::copy(here.join(file), root.join(file)).unwrap();
    }
    for dir in [
        "codegen/tests/fixtures/split",
        "generated-client",
        "generated-server-stubs",
        "fixtures/features-client",
        "fixtures/features-server",
        "generated-types",
        "fixtures/features-types",
    ] {
        copy_dir(&here.join(dir), &root.join(dir));
    }
    root
}

/// `xtask codegen --check` started in `dir`, with `CARGO_MANIFEST_DIR` as `cargo run` would set it
/// (or unset, as when the binary is run directly).
fn check_from(dir: &Path, manifest_dir: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_xtask"));
    command.args(["codegen", "--check"]).current_dir(dir).env_remove("CARGO_MANIFEST_DIR");
    if let Some(manifest_dir) = manifest_dir {
        command.env("CARGO_MANIFEST_DIR", manifest_dir);
    }
    command.output().unwrap()
}

#[test]
fn each_checkout_is_checked_where_the_command_runs() {
    let other = second_checkout("check");
    fs::remove_file(other.join("generated-client/src/lib.rs")).unwrap();
    // Run directly from inside the other checkout, from a subdirectory, and as `cargo run` would.
    for (dir, manifest) in
        [(other.clone(), None), (other.join("spec"), None), (other.clone(), Some(other.join("xtask")))]
    {
        let output = check_from(&dir, manifest.as_deref());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "from {}: reported up to date", dir.display());
        assert!(stderr.contains("missing: generated-client/src/lib.rs"), "from {}: {stderr}", dir.display());
    }
    // The same binary still finds this checkout up to date.
    let output = check_from(&this_checkout(), None);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    fs::remove_dir_all(&other).unwrap();
}

#[test]
fn outside_any_checkout_the_error_says_so() {
    let nowhere = std::env::temp_dir().join(format!("xtask-nowhere-{}", std::process::id()));
    fs::create_dir_all(&nowhere).unwrap();
    let output = check_from(&nowhere, None);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("cannot find the workspace"), "{stderr}");
    fs::remove_dir_all(&nowhere).unwrap();
}

#[test]
fn a_reference_with_a_typo_fails_the_projects_own_codegen() {
    let other = second_checkout("typo");
    let spec = other.join("spec/openapi.yaml");
    let text = fs::read_to_string(&spec).unwrap();
    let typo = text.replacen("#/components/schemas/HoldingData'", "#/components/schemas/HoldingDta'", 1);
    assert_ne!(text, typo, "the spec refers to HoldingData");
    fs::write(&spec, typo).unwrap();
    let output = check_from(&other, None);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "a broken contract passed: {stderr}");
    assert!(stderr.contains("#/components/schemas/HoldingDta does not name a schema"), "{stderr}");
    assert!(stderr.contains("This run is strict") && stderr.contains("--lenient"), "{stderr}");
    // Asked to be lenient, the run reads the value as any JSON value and says so.
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["codegen", "--check", "--lenient"])
        .current_dir(&other)
        .env_remove("CARGO_MANIFEST_DIR")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("warning: spec/openapi.yaml: #/") && stderr.contains("any JSON value"), "{stderr}");
    fs::remove_dir_all(&other).unwrap();
}
