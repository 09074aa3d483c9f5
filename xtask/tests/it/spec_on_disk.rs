//! `codegen --spec` on a spec split across files on disk: the overlays beside it and those given
//! with `--overlay` apply in order, and no reference leaves the spec's directory unless allowed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory holding `files` (path, text).
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = std::env::temp_dir().join(format!("xtask-spec-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for (path, text) in files {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    root
}

fn codegen(spec: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_xtask"));
    command.arg("codegen").arg("--spec").arg(spec).arg("--out").arg(out).args(["--name", "disk", "--strict"]);
    command.args(extra).output().unwrap()
}

const ROOT: &str =
    "openapi: 3.0.3\ninfo: {title: Disk, version: '1'}\npaths:\n  /things:\n    $ref: paths/things.yaml\n";
const THINGS: &str = "get:\n  operationId: getThings\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema: {$ref: ../shared/Thing.yaml}\n";
const THING: &str = "type: object\nproperties:\n  id: {type: string}\n";

#[test]
fn overlays_beside_the_spec_apply_by_name_then_those_given() {
    let first = "overlay: 1.0.0\ninfo: {title: a, version: '1'}\nactions:\n  - target: $.paths['/things'].get\n    update: {operationId: listThings}\n";
    // Written for what the folder's overlay left.
    let given = "overlay: 1.0.0\ninfo: {title: b, version: '1'}\nactions:\n  - target: $.paths.*[?@.operationId == 'listThings']\n    update: {summary: Every thing there is.}\n";
    let dir = tree(
        "overlays",
        &[
            ("spec/openapi.yaml", ROOT),
            ("spec/paths/things.yaml", THINGS),
            ("spec/shared/Thing.yaml", THING),
            ("spec/overlays/names.yaml", first),
            ("more.yaml", given),
        ],
    );
    let out = dir.join("out");
    let more = dir.join("more.yaml");
    let output = codegen(&dir.join("spec/openapi.yaml"), &out, &["--overlay", more.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let client = fs::read_to_string(out.join("disk-client/src/client.rs")).unwrap();
    assert!(client.contains("pub fn list_things(&self)") && client.contains("Every thing there is."), "{client}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn references_outside_the_directory_need_the_flag_even_through_a_link() {
    let outside_things = THINGS.replace("../shared/Thing.yaml", "../../elsewhere/Thing.yaml");
    let dir = tree(
        "outside",
        &[("spec/openapi.yaml", ROOT), ("spec/paths/things.yaml", &outside_things), ("elsewhere/Thing.yaml", THING)],
    );
    let spec = dir.join("spec/openapi.yaml");
    let refused = codegen(&spec, &dir.join("out"), &[]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        stderr.contains("paths/things.yaml#/get/responses/200/content/application~1json/schema (line 8)"),
        "{stderr}"
    );
    assert!(stderr.contains("reaches outside the spec's directory"), "{stderr}");
    let allowed = codegen(&spec, &dir.join("out"), &["--allow-outside-refs"]);
    assert!(allowed.status.success(), "{}", String::from_utf8_lossy(&allowed.stderr));

    // A link inside the directory to a file outside it is refused the same way.
    #[cfg(unix)]
    {
        fs::create_dir_all(dir.join("spec/shared")).unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere/Thing.yaml"), dir.join("spec/shared/Thing.yaml")).unwrap();
        fs::write(dir.join("spec/paths/things.yaml"), THINGS).unwrap();
        let linked = codegen(&spec, &dir.join("out"), &[]);
        let stderr = String::from_utf8_lossy(&linked.stderr);
        assert!(!linked.status.success(), "a link out of the directory was followed");
        assert!(stderr.contains("leads outside the spec's directory"), "{stderr}");
    }
    fs::remove_dir_all(&dir).unwrap();
}
