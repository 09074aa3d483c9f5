//! `Generator` on disk: what it writes, what it leaves alone, and what `check` says.

use std::fs;
use std::path::{Path, PathBuf};

use apigen::{Generator, Placement};

use crate::common;

const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/oai-petstore.yaml");

/// A fresh directory under the system's temporary one, outside any workspace.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("apigen-generator-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that cargo loads the workspace at `ws` (its manifests, without building).
fn cargo_loads(ws: &Path) {
    let metadata = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1"])
        .current_dir(ws)
        .output()
        .unwrap();
    assert!(metadata.status.success(), "{}", String::from_utf8_lossy(&metadata.stderr));
}

fn read(path: impl AsRef<Path>) -> String {
    fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

#[test]
fn files_the_generator_did_not_write_survive_regeneration() {
    let out = scratch("survive");
    let generator = Generator::new(SPEC, &out, "petstore").unwrap();
    let first = generator.write().unwrap();
    assert_eq!((first.files.written, first.files.removed), (first.files.generated, 0));
    // What a user or a tool adds beside the generated files.
    fs::write(out.join("petstore-client/Cargo.lock"), "# made by cargo doc\n").unwrap();
    fs::write(out.join("petstore-client/src/extra.rs"), "// mine\n").unwrap();
    fs::write(out.join("notes.md"), "mine\n").unwrap();
    // A file an earlier run wrote that this one no longer generates.
    let list = out.join("petstore-server/.apigen-files");
    fs::write(&list, read(&list) + "src/retired.rs\n").unwrap();
    fs::write(out.join("petstore-server/src/retired.rs"), "// generated once\n").unwrap();

    let check = generator.check().unwrap();
    assert_eq!(check.files.extra, ["petstore-server/src/retired.rs"]);
    let again = generator.write().unwrap();
    assert_eq!((again.files.written, again.files.removed), (1, 1), "the list is rewritten, the retired file removed");
    assert!(!out.join("petstore-server/src/retired.rs").exists());
    for kept in ["petstore-client/Cargo.lock", "petstore-client/src/extra.rs", "notes.md"] {
        assert!(out.join(kept).is_file(), "{kept} was removed");
    }
    assert!(generator.check().unwrap().files.is_current());
    fs::remove_dir_all(out).unwrap();
}

#[test]
fn a_listed_name_cannot_reach_outside_its_directory() {
    let out = scratch("escape");
    let generator = Generator::new(SPEC, out.join("gen"), "petstore").unwrap();
    generator.write().unwrap();
    fs::write(out.join("precious.txt"), "keep\n").unwrap();
    let list = out.join("gen/petstore-types/.apigen-files");
    fs::write(&list, read(&list) + "../../precious.txt\n/etc/hostname\n").unwrap();
    generator.write().unwrap();
    assert!(out.join("precious.txt").is_file());
    fs::remove_dir_all(out).unwrap();
}

#[test]
fn check_names_the_items_that_changed_and_the_command_that_fixes_them() {
    let out = scratch("check");
    let generator = Generator::new(SPEC, &out, "petstore").unwrap();
    generator.write().unwrap();
    let types = out.join("petstore-types/src/types.rs");
    let text = read(&types);
    let edited = text.replacen("pub name: String,", "pub name: u64,", 1);
    assert_ne!(edited, text, "the fixture has a `name` field");
    fs::write(&types, edited).unwrap();
    fs::remove_file(out.join("petstore-client/src/builders.rs")).unwrap();

    let outcome = generator.check().unwrap();
    let report = outcome.files.report();
    assert!(report.contains("stale:   petstore-types/src/types.rs (struct Pet)"), "{report}");
    assert!(report.contains("-     pub name: u64,\n") && report.contains("+     pub name: String,\n"), "{report}");
    assert!(report.contains("missing: petstore-client/src/builders.rs"), "{report}");
    assert!(outcome.command.starts_with("apigen generate --spec ") && outcome.command.ends_with(" --name petstore"));
    fs::remove_dir_all(out).unwrap();
}

#[test]
fn renaming_the_spec_changes_only_the_readmes() {
    let out = scratch("rename");
    let (old, new) = (out.join("petstore.yaml"), out.join("renamed.yaml"));
    fs::copy(SPEC, &old).unwrap();
    fs::copy(SPEC, &new).unwrap();
    let gen_dir = out.join("gen");
    Generator::new(&old, &gen_dir, "petstore").unwrap().command("regenerate").write().unwrap();
    let checked = Generator::new(&new, &gen_dir, "petstore").unwrap().command("regenerate").check().unwrap().files;
    let stale: Vec<&str> = checked.stale.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(stale, ["petstore-client/README.md", "petstore-server/README.md", "petstore-types/README.md"]);
    assert!(checked.missing.is_empty() && checked.extra.is_empty());
    fs::remove_dir_all(out).unwrap();
}

#[test]
fn crates_inside_a_workspace_join_it_and_others_stand_alone() {
    let out = scratch("placement");
    fs::write(out.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
    let manifest = |dir: &str| read(out.join(dir).join("petstore-types/Cargo.toml"));

    Generator::new(SPEC, out.join("inside"), "petstore").unwrap().write().unwrap();
    assert!(!manifest("inside").contains("[workspace]"));
    let forced = Generator::new(SPEC, out.join("forced"), "petstore").unwrap().placement(Placement::Standalone);
    forced.write().unwrap();
    assert!(manifest("forced").contains("\n[workspace]\n"));
    let alone = scratch("placement-alone");
    Generator::new(SPEC, &alone, "petstore").unwrap().write().unwrap();
    assert!(read(alone.join("petstore-types/Cargo.toml")).contains("\n[workspace]\n"));
    fs::remove_dir_all(out).unwrap();
    fs::remove_dir_all(alone).unwrap();
}

#[test]
fn the_runtime_can_be_shared_or_taken_from_git() {
    let out = scratch("runtime");
    let shared = Generator::new(SPEC, out.join("a"), "petstore").unwrap().runtime_dir(out.join("runtime"));
    shared.write().unwrap();
    let manifest = read(out.join("a/petstore-client/Cargo.toml"));
    assert!(manifest.contains("apigen-runtime = { path = \"../../runtime\", version = \"=0.1.0\""), "{manifest}");
    assert!(out.join("runtime/src/lib.rs").is_file() && !out.join("a/apigen-runtime").exists());

    let git = Generator::new(SPEC, out.join("b"), "petstore")
        .unwrap()
        .runtime_git("https://example.com/apigen.git", Some("0123abc"));
    git.write().unwrap();
    let manifest = read(out.join("b/petstore-server/Cargo.toml"));
    assert!(
        manifest.contains(
            "apigen-runtime = { git = \"https://example.com/apigen.git\", rev = \"0123abc\", version = \"=0.1.0\""
        ),
        "{manifest}"
    );
    assert!(!out.join("b/apigen-runtime").exists());
    fs::remove_dir_all(out).unwrap();
}

#[test]
fn a_bad_name_or_spec_is_named_in_the_error() {
    assert!(Generator::new(SPEC, "out", "no spaces").unwrap_err().contains("`no spaces` is not a crate name"));
    let out = scratch("bad");
    let err = Generator::new(out.join("absent.yaml"), &out, "x").unwrap().write().unwrap_err();
    assert!(err.contains("absent.yaml"), "{err}");
    fs::remove_dir_all(out).unwrap();
}

#[test]
fn a_configuration_that_cannot_be_a_manifest_is_refused() {
    let spec = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n";
    let mut config = apigen::Config::new("ok");
    config.crate_version = "0.1.0\nbuild = \"x\"".to_string();
    let err = apigen::generate(spec, &config).unwrap_err().to_string();
    assert!(err.contains("is not a crate version"), "{err}");
    let mut config = apigen::Config::new("ok");
    config.client.as_mut().unwrap().name = "a\"b".to_string();
    let err = apigen::generate(spec, &config).unwrap_err().to_string();
    assert!(err.contains("is not a crate name"), "{err}");
}

#[test]
fn apis_generated_into_one_workspace_share_one_runtime_by_default() {
    let ws = scratch("shared-runtime");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let members = r#"members = ["apis/petstore/petstore-client", "apis/museum/museum-client"]"#;
    fs::write(ws.join("Cargo.toml"), format!("[workspace]\nresolver = \"3\"\n{members}\n")).unwrap();
    for (name, file) in [("petstore", "oai-petstore.yaml"), ("museum", "redocly-museum.yaml")] {
        let out = ws.join("apis").join(name);
        Generator::new(corpus.join(file), &out, name).unwrap().write().unwrap_or_else(|e| panic!("{name}: {e}"));
        let manifest = read(out.join(format!("{name}-types/Cargo.toml")));
        assert!(manifest.contains("path = \"../../../apigen-runtime\""), "{name}: {manifest}");
        assert!(!out.join("apigen-runtime").exists(), "{name}: a copy of its own");
    }
    // cargo loads the workspace: one package named apigen-runtime.
    cargo_loads(&ws);

    // A copy of another version is named, not written over: other APIs' crates ask for it.
    let manifest = ws.join("apigen-runtime/Cargo.toml");
    fs::write(&manifest, read(&manifest).replacen("version = \"", "version = \"0.0.1-", 1)).unwrap();
    let out = ws.join("apis/museum");
    let err = Generator::new(corpus.join("redocly-museum.yaml"), &out, "museum").unwrap().write().unwrap_err();
    assert!(err.contains("holds apigen-runtime 0.0.1-") && err.contains("--runtime-dir"), "{err}");
    let _ = fs::remove_dir_all(&ws);
}

#[test]
fn switching_an_api_to_another_runtime_removes_the_copy_once_no_api_uses_it() {
    let ws = scratch("switch-runtime");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    fs::write(ws.join("Cargo.toml"), "[workspace]\nresolver = \"3\"\n").unwrap();
    let api = |name: &str| {
        let file = if name == "petstore" { "oai-petstore.yaml" } else { "redocly-museum.yaml" };
        Generator::new(corpus.join(file), ws.join("apis").join(name), name).unwrap()
    };
    for name in ["petstore", "museum"] {
        assert_eq!(api(name).write().unwrap().released, None, "{name}: nothing used before");
    }
    let shared = ws.join("apigen-runtime");
    let users = read(shared.join(apigen::disk::USERS_LIST));
    assert!(
        users.contains("../apis/petstore/petstore-client") && users.contains("../apis/museum/museum-client"),
        "{users}"
    );

    // One API moves to a directory of its own: the other still uses the shared copy.
    let outcome = api("petstore").runtime_dir(ws.join("runtime")).write().unwrap();
    assert!(matches!(outcome.released, Some(apigen::disk::Released::Kept { users: 1, .. })), "{:?}", outcome.released);
    assert!(shared.join("src/lib.rs").is_file());
    // Regenerating with the same runtime releases nothing.
    assert_eq!(api("petstore").runtime_dir(ws.join("runtime")).write().unwrap().released, None);

    // The last one moves to git: the copy goes, but a file of the user's in it stays.
    fs::write(shared.join("NOTES.md"), "mine\n").unwrap();
    let outcome = api("museum").runtime_git("https://example.com/apigen.git", None).write().unwrap();
    let Some(apigen::disk::Released::Removed { files, .. }) = outcome.released else {
        panic!("{:?}", outcome.released)
    };
    assert!(files > 10, "{files} files removed");
    assert!(!shared.join("src").exists() && !shared.join("Cargo.toml").exists());
    assert_eq!(read(shared.join("NOTES.md")), "mine\n");

    // A crate deleted by hand no longer holds a copy: moving the other API back and away again
    // removes the directory whole.
    fs::remove_file(shared.join("NOTES.md")).unwrap();
    api("museum").write().unwrap();
    fs::remove_dir_all(ws.join("apis/petstore")).unwrap();
    api("petstore").write().unwrap();
    fs::remove_dir_all(ws.join("apis/petstore")).unwrap();
    api("museum").runtime_dir(ws.join("runtime")).write().unwrap();
    assert!(!shared.exists(), "the shared copy is gone");
    let _ = fs::remove_dir_all(&ws);
}

#[test]
fn a_workspace_that_declares_the_runtime_gives_it_to_the_crates_it_takes() {
    let ws = scratch("declared-runtime");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
    let declared =
        format!("[workspace.dependencies]\napigen-runtime = {{ path = {:?} }}\n", runtime.display().to_string());
    fs::write(
        ws.join("Cargo.toml"),
        format!("[workspace]\nresolver = \"3\"\nmembers = [\"apis/petstore/petstore-server\"]\n{declared}"),
    )
    .unwrap();
    let generator = Generator::new(SPEC, ws.join("apis/petstore"), "petstore").unwrap();
    generator.write().unwrap();
    let manifest = read(ws.join("apis/petstore/petstore-server/Cargo.toml"));
    assert!(manifest.contains("apigen-runtime = { workspace = true, features = [\"server\"] }"), "{manifest}");
    assert!(!ws.join("apigen-runtime").exists() && !ws.join("apis/petstore/apigen-runtime").exists(), "no copy");
    cargo_loads(&ws);

    // A declared runtime of another version is named, not used.
    let other = ws.join("other-runtime");
    fs::create_dir_all(&other).unwrap();
    fs::write(other.join("Cargo.toml"), "[package]\nname = \"apigen-runtime\"\nversion = \"9.9.9\"\n").unwrap();
    let declared = "[workspace.dependencies]\napigen-runtime = { path = \"other-runtime\" }\n";
    fs::write(ws.join("Cargo.toml"), format!("[workspace]\nresolver = \"3\"\n{declared}")).unwrap();
    let err = generator.write().unwrap_err();
    assert!(err.contains("holds apigen-runtime 9.9.9") && err.contains("[workspace.dependencies]"), "{err}");
    let _ = fs::remove_dir_all(&ws);
}

#[test]
fn a_reader_that_has_gone_ends_the_tool_quietly() {
    // As `apigen --help | head -1` once the first line is read: every write finds no reader.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    for args in [&["--help"][..], &["--version"], &["generate", "--help"]] {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_apigen"))
            .args(args)
            .stdout(writer.try_clone().expect("the pipe's writer"))
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("apigen runs");
        let run = child.wait_with_output().expect("apigen ends");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success() && stderr.is_empty(), "{args:?}: {:?}: {stderr}", run.status);
    }
}

#[test]
fn each_crate_names_the_generator_version_in_its_readme_and_manifest() {
    let spec = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n";
    let generated = apigen::generate(spec, &apigen::Config::new("v")).expect("generates");
    let said = concat!("Generated by apigen ", env!("CARGO_PKG_VERSION"), " from");
    let heads: Vec<_> = generated
        .files
        .iter()
        .filter(|f| f.path.ends_with("/README.md") || f.path.ends_with("/Cargo.toml"))
        .filter(|f| !f.path.contains("apigen-runtime"))
        .map(|f| (f.path.as_str(), f.contents.lines().next().unwrap_or_default()))
        .collect();
    assert_eq!(heads.len(), 6, "{heads:?}");
    for (path, head) in heads {
        assert!(head.contains(said), "{path}: {head}");
    }
}

#[test]
fn the_version_names_the_commit_built() {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_apigen")).arg("--version").output().expect("apigen runs");
    let said = String::from_utf8_lossy(&run.stdout);
    let commit =
        said.trim().strip_prefix(concat!("apigen ", env!("CARGO_PKG_VERSION"), " (")).and_then(|c| c.strip_suffix(')'));
    let commit = commit.unwrap_or_else(|| panic!("{said}"));
    assert!(commit.len() >= 12 && commit[..12].chars().all(|c| c.is_ascii_hexdigit()), "{said}");
}

/// Runs the installed tool's `generate` in `dir`, as a user would there.
fn apigen_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_apigen"))
        .current_dir(dir)
        .arg("generate")
        .args(args)
        .output()
        .expect("apigen runs")
}

/// A spec whose schema `Secret` is the file `target` names, by a reference.
fn spec_referring_to(target: &str) -> String {
    format!(
        "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{$ref: '{target}'}}\n"
    )
}

#[cfg(unix)]
#[test]
fn links_out_of_the_tree_are_refused_however_the_spec_is_named() {
    use std::os::unix::fs::symlink;
    let root = scratch("links");
    let (tree, outside) = (root.join("tree"), root.join("outside"));
    fs::create_dir_all(&tree).unwrap();
    fs::create_dir_all(&outside).unwrap();
    let secret = "type: object\ndescription: TOP-SECRET-TEXT\nproperties: {x: {type: string}}\n";
    fs::write(outside.join("secret.yaml"), secret).unwrap();
    symlink(outside.join("secret.yaml"), tree.join("linked.yaml")).unwrap();
    symlink(&outside, tree.join("linked-dir")).unwrap();
    for target in ["linked.yaml", "linked-dir/secret.yaml"] {
        fs::write(tree.join("openapi.yaml"), spec_referring_to(target)).unwrap();
        // The spec named without a directory, as `Generator::new("openapi.yaml", ..)` is; and with one.
        for spec in ["openapi.yaml", "./openapi.yaml"] {
            let out = root.join("out");
            let _ = fs::remove_dir_all(&out);
            let run = apigen_in(&tree, &["--spec", spec, "--out", out.to_str().unwrap(), "--name", "t"]);
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert!(stderr.contains("leads outside the spec's directory"), "{target} from {spec}: {stderr}");
            let written: String = walk(&out).iter().map(|f| fs::read_to_string(f).unwrap_or_default()).collect();
            assert!(!written.contains("TOP-SECRET-TEXT"), "{target} from {spec}: the outside file was read");
        }
    }
    fs::remove_dir_all(root).unwrap();
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() { out.extend(walk(&path)) } else { out.push(path) }
    }
    out
}

#[cfg(unix)]
#[test]
fn overlays_and_referenced_files_must_be_regular_files_of_a_bounded_size_inside_the_tree() {
    use std::os::unix::fs::symlink;
    let root = scratch("overlay-files");
    let tree = root.join("tree");
    fs::create_dir_all(tree.join("overlays")).unwrap();
    fs::write(tree.join("openapi.yaml"), "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n").unwrap();
    fs::write(root.join("outside.yaml"), "overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions: []\n").unwrap();
    let fifo = tree.join("overlays/fifo.yaml");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let big = fs::File::create(tree.join("big.yaml")).unwrap();
    big.set_len(apigen::disk::MOST_FILE_BYTES + 1).unwrap();
    // A device is outside the tree too: it is refused as such, and with outside references allowed.
    type MakeLink<'a> = &'a dyn Fn(&Path);
    let cases: [(&str, MakeLink, &str); 5] = [
        ("a link to a device", &|link| symlink("/dev/zero", link).unwrap(), "leads outside"),
        ("a link to a device, outside allowed", &|link| symlink("/dev/zero", link).unwrap(), "is not a regular file"),
        ("a FIFO", &|link| symlink(&fifo, link).unwrap(), "is not a regular file"),
        ("a link out of the tree", &|link| symlink(root.join("outside.yaml"), link).unwrap(), "leads outside"),
        ("a file too large", &|link| symlink(tree.join("big.yaml"), link).unwrap(), "is larger than"),
    ];
    fs::remove_file(&fifo).unwrap();
    for (what, make, expected) in cases {
        if what == "a FIFO" {
            assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        }
        let link = tree.join("overlays/evil.yaml");
        make(&link);
        let started = std::time::Instant::now();
        let out = root.join("out");
        let mut args = vec!["--spec", "openapi.yaml", "--out", out.to_str().unwrap(), "--name", "t"];
        if what.ends_with("outside allowed") {
            args.push("--allow-outside-refs");
        }
        let run = apigen_in(&tree, &args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && stderr.contains(expected), "{what}: {stderr}");
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{what}: took {:?}", started.elapsed());
        fs::remove_file(&link).unwrap();
        let _ = fs::remove_file(&fifo);
        // The same file reached by a reference is refused for the same reason.
        if what != "a FIFO" {
            make(&tree.join("ref.yaml"));
            fs::write(tree.join("openapi.yaml"), spec_referring_to("ref.yaml")).unwrap();
            let run = apigen_in(&tree, &args);
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert!(stderr.contains(expected), "{what} by reference: {stderr}");
            fs::remove_file(tree.join("ref.yaml")).unwrap();
            fs::write(tree.join("openapi.yaml"), "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n")
                .unwrap();
        }
    }
    fs::remove_dir_all(root).unwrap();
}

/// The contents of the generated file at `path`, which must exist.
fn file<'a>(generated: &'a apigen::Generated, path: &str) -> &'a str {
    let found = generated.files.iter().find(|f| f.path == path);
    &found.unwrap_or_else(|| panic!("{path} is not generated")).contents
}

#[test]
fn a_large_api_with_tag_features_gets_each_tags_own_types_in_a_crate_of_that_tag() {
    let spec = read("tests/fixtures/features.yaml");
    let config = |split_types_from| apigen::Config {
        tag_features: true,
        split_types_from,
        ..common::config("features", "features.yaml")
    };
    // A spec of a few dozen types stays in one crate by default.
    let small = apigen::generate(&spec, &config(apigen::Config::new("x").split_types_from)).unwrap();
    assert!(!small.files.iter().any(|f| f.path.starts_with("types/tags/")), "no split below the default size");

    let split = apigen::generate(&spec, &config(0)).unwrap();
    let notes = file(&split, "types/tags/notes/src/types.rs");
    let core = file(&split, "types/src/types.rs");
    // `Note` only the notes tag reaches; `Stats` both pets and notes do, so it is the core's.
    assert!(notes.contains("pub struct Note {") && !core.contains("pub struct Note {"));
    assert!(core.contains("pub struct Stats {") && !notes.contains("pub struct Stats {"));
    assert!(!notes.contains("#[cfg(feature"), "a tag's crate is compiled whole, never item by item");
    assert!(notes.contains("pub(crate) use features_types::types::*;"));
    // The schemas no operation reaches are a crate of their own, off by default in the client.
    assert!(file(&split, "types/tags/unused-schemas/src/types.rs").contains("pub struct PetBase {"));
    let manifest = file(&split, "types/tags/notes/Cargo.toml");
    assert!(manifest.contains("name = \"features-types-notes\""));
    assert!(manifest.contains("features-types = { path = \"../../../types\""), "{manifest}");
    let client = file(&split, "client/Cargo.toml");
    assert!(client.contains("notes = [\"features-types/notes\", \"dep:features-types-notes\"]"), "{client}");
    let client_lib = file(&split, "client/src/lib.rs");
    assert!(
        client_lib.contains("#[cfg(feature = \"notes\")]\n    pub use features_types_notes::types::*;"),
        "{client_lib}"
    );
    // The server implements every operation: only the unused schemas stay optional.
    let server = file(&split, "server/Cargo.toml");
    assert!(
        server.contains(
            "features-types-notes = { path = \"../types/tags/notes\", version = \"=0.1.0\", features = [\"server\"] }"
        ),
        "{server}"
    );
    assert!(server.contains("optional = true"));
}

#[test]
fn the_types_module_re_exports_only_the_schema_checks_that_are_written() {
    // Documents with values checked against their schema, with and without a checked `oneOf`.
    for spec in [
        "tests/corpus/swagger-petstore.yaml",
        "tests/corpus/scalar-galaxy.yaml",
        "tests/corpus/aspnetcore-openapi31-unions.json",
        "tests/fixtures/unseen.yaml",
    ] {
        let config = apigen::Config { strict: false, ..common::config("checks", "spec.yaml") };
        let generated = apigen::generate(&read(spec), &config).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let Some(checks) = generated.files.iter().find(|f| f.path == "types/src/schema_checks.rs") else {
            panic!("{spec} has no values checked against their schema");
        };
        let types = file(&generated, "types/src/types.rs");
        for line in types.lines().filter(|l| l.starts_with("pub use crate::schema_checks::")) {
            let names = line.trim_start_matches("pub use crate::schema_checks::").trim_matches(['{', '}', ';']);
            for name in names.split(',').filter_map(|n| n.split_whitespace().next()) {
                let name = name.trim_matches(['{', '}', ';']);
                assert!(
                    checks.contents.contains(&format!("pub fn {name}")),
                    "{spec}: `{name}` is re-exported, not written"
                );
            }
        }
    }
}

#[test]
fn tags_named_like_keywords_devices_or_numbers_get_files_every_system_can_hold() {
    let spec = r##"
openapi: 3.0.3
info: { title: Odd tags, version: "1" }
paths:
  /a: { get: { operationId: a, tags: [aux], responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/A" } } } } } } }
  /b: { get: { operationId: b, tags: ["2024 API"], responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/B" } } } } } } }
  /c: { get: { operationId: c, tags: [type], responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/C" } } } } } } }
  /d: { get: { operationId: d, tags: [COM1], responses: { "204": { description: done } } } }
components:
  schemas:
    A: { type: object, properties: { a: { type: string } } }
    B: { type: object, properties: { b: { type: integer, format: int64 } } }
    C: { type: object, properties: { c: { type: boolean } } }
"##;
    let config = apigen::Config { tag_features: true, split_types_from: 0, ..common::config("odd", "spec.yaml") };
    let generated = apigen::generate(spec, &config).unwrap();
    let paths: Vec<&str> = generated.files.iter().map(|f| f.path.as_str()).collect();
    for path in &paths {
        for part in path.split('/') {
            let stem = part.split('.').next().unwrap_or(part);
            let device = ["con", "prn", "aux", "nul", "com1", "lpt1"].contains(&stem.to_ascii_lowercase().as_str());
            assert!(!device, "{path} names a device on Windows");
        }
    }
    for expected in
        ["client/src/builders/aux_tag.rs", "client/src/builders/n2024_api.rs", "client/src/builders/type_tag.rs"]
    {
        assert!(paths.contains(&expected), "{expected} among {paths:?}");
    }
    assert!(paths.contains(&"types/tags/aux-tag/Cargo.toml"), "{paths:?}");
    assert!(file(&generated, "types/tags/aux-tag/Cargo.toml").contains("name = \"odd-types-aux\""));
    // Every module a builders file declares is one of the files written, and with every
    // builder some tag's, `builders.rs` imports nothing it would not use.
    let builders = file(&generated, "client/src/builders.rs");
    assert!(!builders.contains("\nuse "), "{builders}");
    for line in builders.lines().filter_map(|l| l.strip_prefix("mod ")) {
        let module = line.trim_end_matches(';');
        assert!(paths.contains(&format!("client/src/builders/{module}.rs").as_str()), "mod {module}");
    }
}
