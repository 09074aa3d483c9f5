//! The README's "Using it for your own API", run as written: `cargo install` the `apigen` tool
//! from this repository, generate two public APIs into two directories of an existing workspace
//! sharing one runtime, and run a new crate of that workspace that uses both over real HTTP on
//! loopback; then compare two versions of one of them with the installed `apigen diff`.
//!
//! The build runs in its own target directory (`target/adoption`, kept between runs), resolved
//! against the registry the rest of the workspace uses, with this workspace's versions.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn run(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{command:?} failed:\n{stdout}\n{stderr}");
    format!("{stdout}{stderr}")
}

/// The README section's code blocks: (language, text), in order.
fn readme_blocks() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme.split_once("\n## Using it for your own API\n").expect("the README's section").1;
    let section = section.split("\n## ").next().unwrap();
    let mut blocks = Vec::new();
    let mut parts = section.split("\n```");
    parts.next();
    while let (Some(open), Some(_)) = (parts.next(), parts.next()) {
        let (language, text) = open.split_once('\n').unwrap();
        blocks.push((language.to_string(), format!("{text}\n")));
    }
    blocks
}

#[test]
fn the_readme_installs_the_tool_and_uses_two_apis_from_one_crate_of_a_workspace() {
    let blocks = readme_blocks();
    let block = |language: &str| blocks.iter().find(|(l, _)| l.starts_with(language)).map(|(_, t)| t.as_str());
    let (script, manifest, main) = (block("sh").unwrap(), block("toml").unwrap(), block("rust").unwrap());

    let root = root();
    let base = root.join("target/adoption");
    let target = base.join("target");
    let (install, ws) = (base.join("install"), base.join("workspace"));
    let _ = std::fs::remove_dir_all(&ws);
    std::fs::create_dir_all(ws.join("app/src")).unwrap();
    // An existing workspace, with the new crate as its member.
    std::fs::write(ws.join("Cargo.toml"), "[workspace]\nresolver = \"3\"\nmembers = [\"app\"]\n").unwrap();
    std::fs::write(ws.join("app/Cargo.toml"), manifest).unwrap();
    std::fs::write(ws.join("app/src/main.rs"), main).unwrap();
    // The same versions of the dependencies as this workspace, which are in the registry.
    std::fs::copy(root.join("Cargo.lock"), ws.join("Cargo.lock")).unwrap();
    // The two documents the commands name: two public APIs.
    let corpus = root.join("codegen/tests/corpus");
    std::fs::copy(corpus.join("oai-petstore.yaml"), ws.join("petstore.yaml")).unwrap();
    std::fs::copy(corpus.join("redocly-museum.yaml"), ws.join("museum.yaml")).unwrap();

    let apigen = install.join("bin").join(format!("apigen{}", std::env::consts::EXE_SUFFIX));
    let mut commands = 0;
    for line in script.lines().filter(|line| !line.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            // From this checkout, into a root of the test's own.
            ["cargo", "install", options @ .., "--path", "codegen"] => run(Command::new(env!("CARGO"))
                .arg("install")
                .args(options)
                .arg("--quiet")
                .arg("--path")
                .arg(root.join("codegen"))
                .arg("--root")
                .arg(&install)
                .arg("--target-dir")
                .arg(&target)),
            ["apigen", args @ ..] => {
                let said = run(Command::new(&apigen).args(args).current_dir(&ws));
                assert!(said.contains("the crates join the workspace at"), "{said}");
                said
            }
            _ => panic!("the test does not know how to run `{line}`"),
        };
        commands += 1;
    }
    assert_eq!(commands, 3, "install, and one command per API");
    // The version and the commit the tool was built from (in a target directory kept between
    // runs, the commit of its first build).
    let version = run(Command::new(&apigen).arg("--version"));
    let commit = version.trim().strip_prefix("apigen ").and_then(|v| v.split_once(" (")).map_or("", |(_, c)| c);
    assert!(commit.len() > 12 && commit[..12].chars().all(|c| c.is_ascii_hexdigit()), "{version}");
    assert!(run(Command::new(&apigen).arg("--help")).contains("apigen generate --spec FILE --out DIR --name NAME"));
    for name in ["petstore", "museum"] {
        let manifest = std::fs::read_to_string(ws.join(format!("apis/{name}/{name}-client/Cargo.toml"))).unwrap();
        assert!(!manifest.contains("[workspace]"), "a crate inside a workspace joins it: {manifest}");
        assert!(manifest.contains("path = \"../../../apigen-runtime\""), "one runtime for both APIs: {manifest}");
    }
    assert!(ws.join("apigen-runtime/Cargo.toml").is_file(), "the runtime at the workspace's root");
    assert!(!ws.join("apis/petstore/apigen-runtime").exists(), "no second copy of the runtime");

    let output = run(Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--package", "app"])
        .current_dir(&ws)
        .env("CARGO_TARGET_DIR", &target));
    assert!(output.contains("pets: ") && output.contains("hours: "), "{output}");
    // A file of the user's beside the generated ones survives regenerating.
    std::fs::write(ws.join("apis/museum/museum-client/src/mine.rs"), "// mine\n").unwrap();
    run(Command::new(&apigen)
        .args(["generate", "--spec", "museum.yaml", "--out", "apis/museum", "--name", "museum"])
        .current_dir(&ws));
    assert!(ws.join("apis/museum/museum-client/src/mine.rs").is_file());

    // The installed tool compares two versions of a document with no changes file beside them:
    // only a breaking change fails.
    let petstore = std::fs::read_to_string(ws.join("petstore.yaml")).unwrap();
    let edits = [
        (
            "a description",
            petstore.replace("description: A paged array of pets", "description: Pets, a page at a time"),
            true,
        ),
        (
            "a required reply field removed",
            petstore.replace("        - name\n", "").replace("        name:\n          type: string\n", ""),
            false,
        ),
    ];
    for (what, text, passes) in edits {
        assert_ne!(text, petstore, "{what}: the edit applies");
        std::fs::write(ws.join("petstore-next.yaml"), text).unwrap();
        let diff = Command::new(&apigen)
            .args(["diff", "petstore.yaml", "petstore-next.yaml"])
            .current_dir(&ws)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&diff.stdout);
        assert_eq!(diff.status.success(), passes, "{what}:\n{said}{}", String::from_utf8_lossy(&diff.stderr));
        assert!(passes || said.contains("Pet.name: field removed"), "{what}:\n{said}");
    }
}
