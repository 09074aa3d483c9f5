//! `apigen::Build`, the build-script mode: what it watches, what it writes, and that the file
//! it writes names nothing the including crate lacks. CI's build-time test compiles it.

use std::fs;
use std::path::{Path, PathBuf};

use apigen::Build;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("apigen-build-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file of the split fixture, copied to `to`.
fn copy_tree(from: &Path, to: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            fs::create_dir_all(&target).unwrap();
            files.extend(copy_tree(&path, &target));
        } else {
            fs::copy(&path, &target).unwrap();
            files.push(target);
        }
    }
    files
}

#[test]
fn every_file_of_a_split_spec_and_its_overlays_is_watched() {
    let dir = scratch("watched");
    let spec = dir.join("spec");
    fs::create_dir_all(spec.join("overlays")).unwrap();
    let files = copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/split"), &spec);
    let overlay = "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n  - target: $.info\n    update: {description: changed}\n";
    fs::write(spec.join("overlays/describe.yaml"), overlay).unwrap();
    fs::write(dir.join("given.yaml"), overlay).unwrap();

    let built = Build::new(spec.join("openapi.yaml"), "split")
        .overlay(dir.join("given.yaml"))
        .out_dir(dir.join("out"))
        .generate();
    let included = built.result.as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert!(included.written && included.path.ends_with("apigen/split.rs"));
    let watched: Vec<PathBuf> = built.watched.iter().map(|p| p.canonicalize().unwrap()).collect();
    for file in
        files.iter().chain([&spec.join("overlays/describe.yaml"), &dir.join("given.yaml"), &spec.join("overlays")])
    {
        assert!(watched.contains(&file.canonicalize().unwrap()), "{} is not watched: {watched:?}", file.display());
    }
    // Generating again changes nothing, so cargo rebuilds nothing.
    let again = Build::new(spec.join("openapi.yaml"), "split")
        .overlay(dir.join("given.yaml"))
        .out_dir(dir.join("out"))
        .generate();
    assert!(!again.result.unwrap().written);

    // A spec that cannot be generated is still watched, so fixing it runs the build script again.
    fs::write(spec.join("schemas/Pet.yaml"), "type: [object\n").unwrap();
    let failed = Build::new(spec.join("openapi.yaml"), "split").out_dir(dir.join("out")).generate();
    let message = failed.result.unwrap_err();
    assert!(message.contains("Pet.yaml"), "{message}");
    assert!(failed.watched.iter().any(|p| p.ends_with("schemas/Pet.yaml")), "{:?}", failed.watched);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_module_reaches_everything_through_relative_paths_and_the_runtime() {
    let dir = scratch("paths");
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml");
    let built = Build::new(&spec, "portfolio").out_dir(&dir).generate();
    let text = fs::read_to_string(built.result.unwrap().path).unwrap();
    let tokens: proc_macro2::TokenStream = text.parse().unwrap();
    let mut found = Vec::new();
    walk(tokens, &mut Vec::new(), &mut found);
    assert!(found.is_empty(), "paths the including crate cannot resolve: {found:?}");
    // No example in the docs is a doctest of the including crate.
    let fences = text.lines().filter_map(|l| l.trim_start().strip_prefix("///").or(l.trim_start().strip_prefix("//!")));
    let opening: Vec<&str> = fences.map(str::trim).filter(|l| l.starts_with("```")).step_by(2).collect();
    assert!(!opening.is_empty() && opening.iter().all(|l| *l == "```text"), "{opening:?}");
    assert!(text.contains("apigen_runtime::codegen::same_version(\"0.1.0\")"));
    let _ = fs::remove_dir_all(&dir);
}

/// Collects each `crate::` and each path that starts at a crate other than the runtime, std's
/// and core's.
fn walk(tokens: proc_macro2::TokenStream, before: &mut Vec<String>, found: &mut Vec<String>) {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, token) in tokens.iter().enumerate() {
        if let TokenTree::Group(group) = token {
            walk(group.stream(), &mut Vec::new(), found);
            continue;
        }
        let path_sep = matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
            && matches!(tokens.get(i + 2), Some(TokenTree::Punct(p)) if p.as_char() == ':');
        let after_sep = before.len() >= 2 && before[before.len() - 2..] == [":".to_string(), ":".to_string()];
        if let TokenTree::Ident(ident) = token {
            let name = ident.to_string();
            let crates =
                ["crate", "serde", "serde_json", "uuid", "axum", "reqwest", "tracing", "tokio", "portfolio_types"];
            if path_sep && !after_sep && crates.contains(&name.as_str()) {
                found.push(format!("{name}:: after {:?}", &before[before.len().saturating_sub(4)..]));
            }
        }
        before.push(token.to_string());
    }
}

#[test]
fn a_module_names_the_runtime_features_it_needs_and_brings_the_files_it_includes() {
    let dir = scratch("features");
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/features.yaml");
    let included = Build::new(&spec, "features").out_dir(&dir).generate().result.unwrap();
    for feature in ["client", "server", "pattern", "json-schema"] {
        assert!(included.runtime_features.iter().any(|f| f == feature), "{feature}: {:?}", included.runtime_features);
    }
    let text = fs::read_to_string(&included.path).unwrap();
    assert!(text.contains("with the features client, "), "{}", &text[..300]);
    assert!(text.contains("include_str!(\"features/features-types/src/schema_checks.json\")"));
    assert!(dir.join("apigen/features/features-types/src/schema_checks.json").is_file());
    // Only the server: no client module, and no `client` feature asked for.
    let server = Build::new(&spec, "server-only").server(true).client(false).out_dir(&dir).generate().result.unwrap();
    assert!(!server.runtime_features.iter().any(|f| f == "client"), "{:?}", server.runtime_features);
    assert!(!fs::read_to_string(&server.path).unwrap().contains("pub mod client"));
    let nothing = Build::new(&spec, "none").server(false).client(false).out_dir(&dir).generate();
    assert!(nothing.result.unwrap_err().contains("nothing to generate"));
    let _ = fs::remove_dir_all(&dir);
}
