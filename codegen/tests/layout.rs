//! Code written as text must be laid out as prettyplease lays out the same code: the generated
//! files are fixed points of parsing and printing again, blank lines aside. Names of 1 to 90
//! characters cross every width at which a line breaks.

use portfolio_codegen::{Config, CrateConfig, generate};
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

#[test]
fn generated_files_are_laid_out_as_prettyplease_prints_them() {
    let spec = spec_of_growing_names(90).to_string();
    let crate_config = |name: &str| Some(CrateConfig { name: format!("layout-{name}"), dir: name.to_string() });
    let config = Config {
        spec_path: "layout.json".to_string(),
        version_header: None,
        client: crate_config("client"),
        server: crate_config("server"),
        types: crate_config("types"),
        standalone: false,
        runtime_dir: "codegen/runtime".to_string(),
        strict: true,
        tag_features: true,
        mock_seed: 0,
    };
    let files = generate(&spec, &config).unwrap_or_else(|d| panic!("{d}")).files;
    let rust: Vec<_> = files.iter().filter(|f| f.path.ends_with(".rs")).collect();
    assert!(rust.len() >= 10, "{} Rust files", rust.len());
    for file in rust {
        // The header is a plain comment, which a syntax tree does not keep.
        let (_, code) = file.contents.split_once("\n\n").expect("a header line");
        let parsed = syn::parse_file(code).unwrap_or_else(|e| panic!("{}: {e}", file.path));
        let printed = prettyplease::unparse(&parsed);
        let written: Vec<&str> = code.lines().filter(|l| !l.is_empty()).collect();
        for (i, (ours, theirs)) in written.iter().zip(printed.lines()).enumerate() {
            assert_eq!(ours, &theirs, "{} differs from prettyplease at its {}th non-blank line", file.path, i + 1);
        }
        assert_eq!(written.len(), printed.lines().count(), "{}", file.path);
    }
}
