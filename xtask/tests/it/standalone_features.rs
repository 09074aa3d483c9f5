//! Crates written with `--out` ask their dependencies for no more than the generated code uses, so
//! adding them to a project with a usual set of dependencies does not turn on new features of
//! crates it already builds (which would rebuild tokio, hyper, reqwest and everything above them).
//!
//! Feature sets are read from `cargo tree`, which resolves without compiling.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Standalone crates generated from the project spec, once per test run.
fn generated() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let out = std::env::temp_dir().join(format!("standalone-features-{}", std::process::id()));
        let _ = fs::remove_dir_all(&out);
        let status = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["codegen", "--spec", "spec/openapi.yaml", "--out"])
            .arg(&out)
            .args(["--name", "pf"])
            .current_dir(root)
            .status()
            .unwrap();
        assert!(status.success(), "codegen --out failed");
        out
    })
}

/// Every package of a project with `dependencies`, by name and version, with its features.
fn features(name: &str, dependencies: &str) -> BTreeMap<String, String> {
    let dir = generated().join(name);
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\n{dependencies}"
    );
    fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let output = Command::new(env!("CARGO"))
        .args(["tree", "--edges", "normal", "--prefix", "none", "--format", "{p}|{f}"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "cargo tree: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| {
            let (package, features) = line.split_once('|')?;
            // `tokio v1.2.3 (*)` is a repeat; the path of a local package is left out.
            let package = package.split(" (").next()?.to_string();
            Some((package, features.trim_end_matches(" (*)").to_string()))
        })
        .collect()
}

/// Packages of `before` whose features changed once the generated crate was added.
fn changed(before: &BTreeMap<String, String>, after: &BTreeMap<String, String>) -> Vec<String> {
    before
        .iter()
        .filter(|(package, features)| after.get(*package).is_some_and(|f| f != *features))
        .map(|(package, features)| format!("{package}: [{features}] -> [{}]", after[package]))
        .collect()
}

fn path(name: &str) -> String {
    generated().join(name).display().to_string().replace('\\', "/")
}

const CLIENT_USER: &str = "tokio = { version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }\n\
    reqwest = { version = \"0.13\", features = [\"json\"] }\n\
    serde = { version = \"1\", features = [\"derive\"] }\n\
    serde_json = \"1\"\n";

const AXUM_USER: &str = "axum = \"0.8\"\n\
    serde = { version = \"1\", features = [\"derive\"] }\n\
    serde_json = \"1\"\n";

#[test]
fn the_client_turns_on_no_feature_of_a_usual_client_project() {
    let before = features("client-before", CLIENT_USER);
    let after = features("client-after", &format!("{CLIENT_USER}pf-client = {{ path = \"{}\" }}\n", path("pf-client")));
    assert!(after.keys().any(|p| p.starts_with("pf-client ")), "the client is in the tree");
    assert_eq!(changed(&before, &after), Vec::<String>::new());
}

#[test]
fn the_server_turns_on_no_feature_of_a_usual_axum_project_but_signals() {
    let server = format!("pf-server = {{ path = \"{}\" }}\n", path("pf-server"));
    // axum's own examples ask tokio for everything: nothing changes.
    let full = format!("tokio = {{ version = \"1\", features = [\"full\"] }}\n{AXUM_USER}");
    let before = features("server-full-before", &full);
    let after = features("server-full-after", &format!("{full}{server}"));
    assert_eq!(changed(&before, &after), Vec::<String>::new());

    // A leaner project gains only tokio's `signal`, which `serve` needs to stop on SIGINT/SIGTERM.
    let lean = format!("tokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n{AXUM_USER}");
    let before = features("server-lean-before", &lean);
    let after = features("server-lean-after", &format!("{lean}{server}"));
    let changed = changed(&before, &after);
    assert_eq!(changed.len(), 1, "{changed:#?}");
    let tokio = &changed[0];
    assert!(tokio.starts_with("tokio "), "{tokio}");
    let (old, new) = tokio.split_once(" -> ").unwrap();
    let added: Vec<&str> = new
        .trim_matches(['[', ']'])
        .split(',')
        .filter(|f| !old.split_once(": ").unwrap().1.trim_matches(['[', ']']).split(',').any(|o| o == *f))
        .collect();
    assert_eq!(added, ["signal", "signal-hook-registry"], "{tokio}");
}
