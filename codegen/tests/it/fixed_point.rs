//! Every generated Rust file is a fixed point of prettyplease: parsing and printing it again gives
//! it back unchanged, blank lines aside (a syntax tree does not keep them). Checked on every file
//! of the project spec, of every fixture spec and of every corpus document, and on a spec whose
//! names grow from 1 to 90 characters, so that every width at which a line breaks is crossed.

use std::path::Path;

use apigen::{Config, Diagnostics, Generated, SpecFiles, generate, generate_files};

use crate::common;
use serde_json::{Value, json};

/// A spec whose operation `i` has names about `i` characters long: its operationId, parameters,
/// schemas, enum values, reply headers and error replies.
fn spec_of_growing_names(count: usize) -> Value {
    let mut paths = serde_json::Map::new();
    let mut schemas = serde_json::Map::new();
    for n in 1..=count {
        let long = |prefix: &str| format!("{prefix}{}", "x".repeat(n));
        let schema = long("Thing");
        let wire = long("value_");
        schemas.insert(
            schema.clone(),
            json!({
                "type": "object",
                "required": [long("id")],
                "properties": {
                    long("id"): {"type": "string"},
                    "tags": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": format!("#/components/schemas/{schema}")}}},
                    "kind": {"type": "string", "enum": [wire.clone(), "b"], "default": wire},
                    "level": {"type": "integer", "enum": [1, 2, 3]},
                }
            }),
        );
        paths.insert(
            format!("/{}/{{id}}", long("p")),
            json!({
                "get": {
                    "operationId": long("getThing"),
                    "parameters": [
                        {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                        {"name": long("filter"), "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
                        {"name": long("X-Trace-"), "in": "header", "schema": {"type": "string"}},
                    ],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "headers": {long("X-Rate-"): {"schema": {"type": "integer", "format": "int64"}}},
                            "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}}
                        },
                        "404": {"description": "gone", "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}}}
                    }
                },
                "put": {
                    "operationId": long("putThing"),
                    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}}},
                    "responses": {"204": {"description": "stored"}}
                }
            }),
        );
    }
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Layout", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas}
    })
}

fn config(strict: bool) -> Config {
    Config { strict, tag_features: true, ..common::config("fixed", "spec.yaml") }
}

/// Where each generated Rust file of `spec` differs from prettyplease's printing of it: the file
/// and the first line that differs. Empty when every file is a fixed point.
fn differences(name: &str, spec: &str, strict: bool) -> Vec<String> {
    generated_differences(name, generate(spec, &config(strict)), strict)
}

/// [`differences`] of what a run generated.
fn generated_differences(name: &str, generated: Result<Generated, Diagnostics>, strict: bool) -> Vec<String> {
    let generated = match generated {
        Ok(generated) => generated,
        // Documents the generator refuses are another test's concern.
        Err(_) if !strict => return Vec::new(),
        Err(d) => return vec![format!("{name}: {d}")],
    };
    let mut found = Vec::new();
    for file in generated.files.iter().filter(|f| f.path.ends_with(".rs")) {
        let at = format!("{name}: {}", file.path);
        // The header is a plain comment, which a syntax tree does not keep.
        let code = file.contents.split_once("\n\n").map_or(file.contents.as_str(), |(_, code)| code);
        let printed = match syn::parse_file(code) {
            Ok(parsed) => prettyplease::unparse(&parsed),
            Err(e) => {
                found.push(format!("{at}: does not parse: {e}"));
                continue;
            }
        };
        let written = code.lines().filter(|l| !l.is_empty());
        let reprinted = printed.lines().filter(|l| !l.is_empty());
        let mut lines = written.zip(reprinted).enumerate();
        if let Some((i, (ours, theirs))) = lines.find(|(_, (ours, theirs))| ours != theirs) {
            found.push(format!("{at}, non-blank line {}:\n  written: {ours}\n  printed: {theirs}", i + 1));
        } else if code.lines().filter(|l| !l.is_empty()).count() != printed.lines().filter(|l| !l.is_empty()).count() {
            found.push(format!("{at}: a different number of lines"));
        }
    }
    found
}

fn documents(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut specs: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "yaml" || x == "yml"))
        .collect();
    specs.sort();
    specs
}

#[test]
fn names_of_every_length_are_laid_out_as_prettyplease_prints_them() {
    let found = differences("growing names", &spec_of_growing_names(90).to_string(), true);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_project_spec_and_every_fixture_generate_fixed_points() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut specs = documents(&root.join("tests/fixtures"));
    specs.push(root.join("../spec/openapi.yaml"));
    assert!(specs.len() >= 7, "{} specs", specs.len());
    let mut found: Vec<String> = specs
        .iter()
        .flat_map(|spec| {
            differences(&spec.display().to_string(), &std::fs::read_to_string(spec).expect("readable"), false)
        })
        .collect();
    // A spec split across files, read from its directory.
    let split = root.join("tests/fixtures/split");
    let read = |path: &str| std::fs::read_to_string(split.join(path)).map_err(|e| e.to_string());
    let generated = generate_files(
        SpecFiles { root: "openapi.yaml", read: &read, allow_outside: false, overlays: &[] },
        &config(true),
    );
    found.extend(generated_differences("split", generated, true));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_corpus_document_generates_fixed_points() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let specs = documents(&corpus);
    assert!(specs.len() > 50, "the corpus holds {} documents", specs.len());
    let mut found: Vec<String> = specs
        .iter()
        .flat_map(|spec| {
            differences(&spec.display().to_string(), &std::fs::read_to_string(spec).expect("readable"), false)
        })
        .collect();
    // Specs split across files: `NAME.tree` names the root document, under the corpus.
    let mut trees: Vec<_> = std::fs::read_dir(&corpus)
        .expect("the corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tree"))
        .collect();
    trees.sort();
    assert!(trees.len() >= 3, "{} split specs", trees.len());
    for tree in trees {
        let root = corpus.join(std::fs::read_to_string(&tree).expect("readable").trim());
        let directory = root.parent().expect("a directory");
        let read = |path: &str| std::fs::read_to_string(directory.join(path)).map_err(|e| e.to_string());
        let name = root.file_name().expect("a file").to_string_lossy();
        let files = SpecFiles { root: &name, read: &read, allow_outside: false, overlays: &[] };
        found.extend(generated_differences(&tree.display().to_string(), generate_files(files, &config(false)), false));
    }
    assert!(found.is_empty(), "{} differences:\n{}", found.len(), found.join("\n"));
}
