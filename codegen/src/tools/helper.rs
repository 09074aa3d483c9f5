//! What `serve-mock` and `client-probe` share: the generated crates of a document in a directory
//! of their own, and a small binary crate beside them, built with cargo.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::render::encode::toml::{Document, Value};
use crate::{Diagnostic, Generator, Placement};

/// A crate name from the document's file name: `petstore-v3.yaml` → `petstore-v3`.
pub fn crate_name(spec: &Path) -> String {
    let stem = spec.file_stem().map(|s| s.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let name: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let name = name.trim_matches('-').to_string();
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => name,
        _ => format!("api-{name}"),
    }
}

/// Where a helper's crates and build go when the command is not told (`--dir`): one directory
/// per command under the system's temporary directory, kept between runs so dependencies build
/// once.
pub fn default_dir(command: &str) -> PathBuf {
    std::env::temp_dir().join("apigen").join(command)
}

/// The generator of `spec`'s crates under `out`, leniently, with a workspace of their own (a
/// helper build, even when `out` is inside a workspace).
pub fn generator(spec: &Path, out: &Path, name: &str, seed: u64) -> Result<Generator, String> {
    Ok(Generator::new(spec, out, name)?.strict(false).mock_seed(seed).placement(Placement::Standalone))
}

/// Writes the crates `generator` makes, listing its warnings and what it wrote on stderr.
pub fn write_crates(spec: &Path, generator: Generator) -> Result<(), String> {
    let outcome = generator.write()?;
    print_warnings(spec, &outcome.warnings);
    eprintln!("{}", outcome.files);
    Ok(())
}

fn print_warnings(spec: &Path, warnings: &[Diagnostic]) {
    for warning in warnings {
        eprintln!("{}: {}: {warning}", warning.severity.label(), spec.display());
    }
}

/// A helper binary crate's manifest, every value encoded: a package of its own workspace with
/// `dependencies`.
pub fn manifest(name: &str, dependencies: Vec<(String, Value)>) -> String {
    let mut doc = Document::default();
    let package = [("name", Value::str(name)), ("version", Value::str("0.0.0")), ("edition", Value::str("2024"))];
    let mut package: Vec<(String, Value)> = package.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    package.push(("publish".to_string(), Value::Bool(false)));
    doc.table("package", package).table("workspace", Vec::new()).table("dependencies", dependencies);
    doc.render()
}

/// A dependency on the crate at `path`, with `features`.
pub fn path_dependency(path: &str, features: &[&str]) -> Value {
    let mut table = vec![("path".to_string(), Value::str(path))];
    if !features.is_empty() {
        table.push(("features".to_string(), Value::list(features.iter().copied())));
    }
    Value::Table(table)
}

/// A dependency on a registry crate at `version`, with `features`.
pub fn registry_dependency(version: &str, features: &[&str]) -> Value {
    match features {
        [] => Value::str(version),
        _ => Value::Table(vec![
            ("version".to_string(), Value::str(version)),
            ("features".to_string(), Value::list(features.iter().copied())),
        ]),
    }
}

/// Writes a helper crate's manifest and `src/main.rs`, each only when it changed (so cargo does
/// not rebuild it).
pub fn write_helper(dir: &Path, manifest: &str, main: &str) -> Result<(), String> {
    for (path, text) in [(dir.join("Cargo.toml"), manifest), (dir.join("src").join("main.rs"), main)] {
        fs::create_dir_all(path.parent().unwrap_or(dir))
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        if fs::read_to_string(&path).ok().as_deref() != Some(text) {
            fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Builds the helper crate at `dir` into `target` (shared by every document, so dependencies
/// build once); `Err` when it does not build, after cargo has said why on stderr.
pub fn build_helper(dir: &Path, target: &Path) -> Result<(), String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()))
        .args(["build", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    status.success().then_some(()).ok_or_else(|| format!("{} does not build", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::{crate_name, manifest, path_dependency};
    use std::path::Path;

    #[test]
    fn crate_names_come_from_the_file_name() {
        assert_eq!(crate_name(Path::new("specs/Petstore v3.yaml")), "petstore-v3");
        assert_eq!(crate_name(Path::new("3d.json")), "api-3d");
    }

    #[test]
    fn a_helper_manifest_encodes_every_value() {
        let text = manifest("a-mock", vec![("a-server".to_string(), path_dependency("../a\"b", &[]))]);
        assert!(text.contains("name = \"a-mock\""), "{text}");
        assert!(text.contains("a-server = { path = \"../a\\\"b\" }"), "{text}");
        assert!(text.contains("[workspace]\n"), "{text}");
    }
}
