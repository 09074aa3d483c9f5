//! `diff --base`: the spec as committed against the working tree, in a repository of its own
//! that keeps a changes file beside its spec. A breaking change fails the check until it is
//! accepted for the version that announces it, and the crates' version must move with their API.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const V1: &str = r#"openapi: 3.0.3
info: {title: Pets, version: "1.0.0"}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "schemas/Pet.yaml"}
"#;
const PET: &str = "type: object\nrequired: [id, name]\nproperties:\n  id: {type: string}\n  name: {type: string}\n";

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .unwrap();
    assert!(status.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&status.stderr));
}

/// A repository whose one commit holds the spec `spec/openapi.yaml` (split in two files) and
/// its changes file.
fn repository(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-diff-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("spec/schemas")).unwrap();
    fs::write(dir.join("spec/openapi.yaml"), V1).unwrap();
    fs::write(dir.join("spec/CHANGES.yaml"), "crate-version: 0.1.0\n").unwrap();
    fs::write(dir.join("spec/schemas/Pet.yaml"), PET).unwrap();
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v1"]);
    dir
}

fn diff(dir: &Path, extra: &[&str]) -> Output {
    let spec = dir.join("spec/openapi.yaml");
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("diff")
        .args(["--base", "HEAD", "--spec"])
        .arg(spec)
        .args(extra)
        .output()
        .unwrap()
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn a_breaking_change_fails_until_accepted_for_the_version_that_announces_it() {
    let dir = repository("break");
    let unchanged = diff(&dir, &[]);
    assert!(unchanged.status.success(), "{}", text(&unchanged));

    // A reply field removed in a file the root refers to: clients that read it break.
    fs::write(dir.join("spec/schemas/Pet.yaml"), "type: object\nrequired: [id]\nproperties:\n  id: {type: string}\n")
        .unwrap();
    let broken = diff(&dir, &[]);
    let report = text(&broken);
    assert_eq!(broken.status.code(), Some(1), "{report}");
    assert!(report.contains("Pet.name: field removed\n      breaks clients"), "{report}");
    assert!(report.contains("reached from GET /pets/{} (reply)"), "{report}");
    assert!(report.contains("- change: \"Pet.name: field removed\""), "the fix is spelled out: {report}");

    // Accepted, but for a version the spec does not declare: still failing, and saying why.
    let accepted = "accepted:\n  - change: \"Pet.name: field removed\"\n    version: \"2.0.0\"\n    why: names move to a profile\n";
    fs::write(dir.join("spec/CHANGES.yaml"), accepted).unwrap();
    let unannounced = diff(&dir, &[]);
    assert_eq!(unannounced.status.code(), Some(1), "{}", text(&unannounced));
    assert!(text(&unannounced).contains("the spec now declares 1.0.0"), "{}", text(&unannounced));

    // Announced, but the crates' version has not moved with their API (a field gone).
    fs::write(dir.join("spec/openapi.yaml"), V1.replace("1.0.0", "2.0.0")).unwrap();
    let same_crates = diff(&dir, &[]);
    assert_eq!(same_crates.status.code(), Some(1), "{}", text(&same_crates));
    assert!(text(&same_crates).contains("raise `crate-version`"), "{}", text(&same_crates));
    assert!(text(&same_crates).contains("to 0.2.0 or beyond"), "{}", text(&same_crates));

    // Both raised: the check passes, and the JSON says so.
    fs::write(dir.join("spec/CHANGES.yaml"), format!("crate-version: 0.2.0\n{accepted}")).unwrap();
    let passing = diff(&dir, &["--json"]);
    assert!(passing.status.success(), "{}", text(&passing));
    let json: serde_json::Value = serde_json::from_slice(&passing.stdout).expect("JSON");
    assert_eq!(json["passes"], true);
    let change = &json["report"]["changes"][0];
    assert_eq!(change["id"], "Pet.name: field removed");
    assert_eq!((change["breaks_clients"].as_bool(), change["accepted"].as_str()), (Some(true), Some("2.0.0")));
    assert_eq!(json["report"]["crates"]["types"], "major");
    let versions = &json["crate_version"];
    assert_eq!(
        (&versions["old"], &versions["new"], &versions["least"]),
        (&"0.1.0".into(), &"0.2.0".into(), &"0.2.0".into())
    );
    assert!(versions["changes_file"].as_str().is_some_and(|f| f.ends_with("spec/CHANGES.yaml")), "{versions}");
}

#[test]
fn a_compatible_change_passes_and_a_bad_revision_is_named() {
    let dir = repository("compatible");
    fs::write(dir.join("spec/schemas/Pet.yaml"), format!("{PET}  tag: {{type: string}}\n")).unwrap();
    // A field and its setter added: the crates' version must move by a minor step (a patch
    // below 1.0).
    let output = diff(&dir, &[]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("to 0.1.1 or beyond"), "{}", text(&output));
    fs::write(dir.join("spec/CHANGES.yaml"), "crate-version: 0.1.1\n").unwrap();
    let output = diff(&dir, &[]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("Compatible on the wire (1):\n  Pet.tag: optional field added"),
        "{}",
        text(&output)
    );
    // Without a changes file only a breaking change fails the check.
    fs::remove_file(dir.join("spec/CHANGES.yaml")).unwrap();
    let output = diff(&dir, &[]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("No CHANGES.yaml beside the new spec"), "{}", text(&output));

    let spec = dir.join("spec/openapi.yaml");
    let mut bad = Command::new(env!("CARGO_BIN_EXE_xtask"));
    let output = bad.args(["diff", "--base", "no-such-rev", "--spec"]).arg(&spec).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output).contains("`no-such-rev` names no commit"), "{}", text(&output));
}
