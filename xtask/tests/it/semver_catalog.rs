//! `cargo-semver-checks` against the breaking-change check's verdict on the generated crates, for
//! every change of the catalog (`codegen/tests/diff_catalog`): where the check says a crate's
//! public API moves by a major version, semver-checks must find a break, and where it says less,
//! none. Runs when SEMVER_CHECKS names the `cargo-semver-checks` binary (CI installs it); each
//! case generates the crates again and builds their rustdoc JSON, so it takes minutes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

#[derive(Deserialize)]
struct Catalog {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    replace: Vec<(String, String)>,
    /// Crates where the check sees a major change that cargo-semver-checks does not look for (a
    /// field's, argument's or return value's type changed: it has no lint for those).
    #[serde(default, rename = "semver-checks-misses")]
    semver_checks_misses: Vec<String>,
}

const CRATES: [&str; 3] = ["types", "client", "server"];

fn catalog_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../codegen/tests/diff_catalog")
}

fn xtask(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

/// Generates the crates of `spec` into `out` and writes each one's rustdoc JSON into `json`.
fn crates_of(spec: &Path, out: &Path, json: &Path, target: &Path) {
    let generated = xtask(&[
        "codegen",
        "--spec",
        &spec.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
        "--name",
        "shop",
        "--lenient",
    ]);
    assert!(generated.status.success(), "{}", String::from_utf8_lossy(&generated.stderr));
    fs::create_dir_all(json).unwrap();
    for side in CRATES {
        let manifest = out.join(format!("shop-{side}/Cargo.toml"));
        let built = Command::new("cargo")
            .env("RUSTC_BOOTSTRAP", "1")
            .args(["rustdoc", "-q", "--lib", "--all-features", "--manifest-path"])
            .arg(&manifest)
            .arg("--target-dir")
            .arg(target)
            .args(["--", "-Z", "unstable-options", "--output-format", "json"])
            .output()
            .unwrap();
        assert!(built.status.success(), "{side}: {}", String::from_utf8_lossy(&built.stderr));
        fs::copy(target.join(format!("doc/shop_{side}.json")), json.join(format!("{side}.json"))).unwrap();
    }
}

#[test]
fn semver_checks_agrees_with_every_verdict_of_the_catalog() {
    let Some(semver_checks) = std::env::var_os("SEMVER_CHECKS") else {
        eprintln!("SEMVER_CHECKS is not set: the catalog's Rust verdicts are not checked against cargo-semver-checks");
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("semver-catalog");
    let _ = fs::remove_dir_all(dir.join("new"));
    let target = dir.join("target");
    let base = fs::read_to_string(catalog_dir().join("base.yaml")).unwrap();
    let catalog: Catalog =
        serde_yaml_ng::from_str(&fs::read_to_string(catalog_dir().join("catalog.yaml")).unwrap()).unwrap();
    fs::create_dir_all(&dir).unwrap();
    let (old_spec, new_spec) = (dir.join("old.yaml"), dir.join("new.yaml"));
    fs::write(&old_spec, &base).unwrap();
    crates_of(&old_spec, &dir.join("old"), &dir.join("old-json"), &target);

    let mut wrong = Vec::new();
    for case in &catalog.cases {
        let mut spec = base.clone();
        for (from, to) in &case.replace {
            spec = spec.replacen(from.as_str(), to, 1);
        }
        fs::write(&new_spec, &spec).unwrap();
        let report = xtask(&["diff", &old_spec.to_string_lossy(), &new_spec.to_string_lossy(), "--json"]);
        let report: serde_json::Value = serde_json::from_slice(&report.stdout).expect("a JSON report");
        crates_of(&new_spec, &dir.join("new"), &dir.join("new-json"), &target);
        for side in CRATES {
            let checked = Command::new(&semver_checks)
                .args(["semver-checks", "check-release", "--baseline-rustdoc"])
                .arg(dir.join(format!("old-json/{side}.json")))
                .arg("--current-rustdoc")
                .arg(dir.join(format!("new-json/{side}.json")))
                .output()
                .unwrap();
            let breaks = !checked.status.success();
            let ours = report["report"]["crates"][side].as_str().unwrap_or_default().to_string();
            let missed = case.semver_checks_misses.iter().any(|c| c == side);
            let expected = ours == "major" && !missed;
            let said = if breaks { "major" } else { "not major" };
            eprintln!("{} ({side}): the check says {ours}, semver-checks {said}", case.name);
            if breaks != expected {
                let found =
                    String::from_utf8_lossy(&checked.stdout).to_string() + &String::from_utf8_lossy(&checked.stderr);
                let found: Vec<&str> = found.lines().filter(|l| l.contains("FAIL")).collect();
                let listed = if missed { " (listed as missed)" } else { "" };
                wrong.push(format!(
                    "{} ({side}): the check says {ours}{listed}, semver-checks {said}: {found:?}",
                    case.name
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
