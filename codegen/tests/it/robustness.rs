//! Mutation fuzzing of the generator: specs derived from real ones by random structural edits go
//! through load, lower, emit and render. Every outcome must be files that parse as Rust or
//! diagnostics with a location, never a panic.
//!
//! Whatever it generates must also compile: a sample of the mutated specs that generate is written
//! out and `cargo check`ed with warnings denied.
//!
//! `cargo test -p apigen --test it robustness::` runs a bounded number of cases and compiles
//! two of them (a different two each day);
//! `FUZZ_CASES=100000 FUZZ_SEED=7 cargo test --release -p apigen --test it robustness:: -- --nocapture`
//! runs a long campaign, and `FUZZ_COMPILE_CASES=20 FUZZ_COMPILE_SEED=7` a longer compile sample.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::Command;

use apigen::{Config, CrateConfig, VersionHeader, generate};

use crate::common;
use serde_json::{Value, json};

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Keys that steer the generator down its less common paths.
const KEYS: &[&str] = &[
    "$ref",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "enum",
    "x-enum-varnames",
    "x-enumNames",
    "nullable",
    "additionalProperties",
    "items",
    "properties",
    "required",
    "type",
    "format",
    "default",
    "minimum",
    "maximum",
    "minLength",
    "minItems",
    "style",
    "explode",
    "in",
    "name",
    "schema",
    "content",
    "requestBody",
    "responses",
    "parameters",
    "operationId",
    "security",
    "discriminator",
    "readOnly",
    "deprecated",
    "allowReserved",
];

fn odd_value(rng: &mut Rng) -> Value {
    let choices = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(9_007_199_254_740_993_u64),
        json!(""),
        json!("{"),
        json!("type"),
        json!("1x"),
        json!("in-progress"),
        json!("#/components/schemas/Nope"),
        json!("#/components/parameters/ApiVersion"),
        json!("http://elsewhere.example/x.yaml#/a"),
        json!("date-time"),
        json!("uuid"),
        json!("binary"),
        json!("integer"),
        json!("object"),
        json!("array"),
        json!("query"),
        json!("cookie"),
        json!("deepObject"),
        json!("ÄÖ-ü €"),
        json!("x".repeat(300)),
        json!([]),
        json!(["a", "A", "a"]),
        json!([1, 1, null]),
        json!({}),
        json!({"type": "string"}),
        json!({"type": "object", "properties": {"type": {"type": "integer"}, "Type": {"type": "string"}}}),
        json!({"$ref": "#/components/schemas/Account"}),
        json!({"allOf": [{"$ref": "#/components/schemas/Account"}, {"type": "object"}]}),
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"type": "array", "items": {"type": "array", "items": {"type": "object", "additionalProperties": true}}}),
        json!({"type": "integer", "enum": [1, 2], "x-enum-varnames": ["One"]}),
        json!({"type": "string", "enum": ["", "-", "_", "1"]}),
        json!({"name": "p", "in": "query", "schema": {"type": "object"}}),
        json!({"name": "{x}", "in": "path", "required": true, "schema": {"type": "string"}}),
        json!({"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}),
        json!({"description": "ok", "content": {"application/octet-stream": {}}}),
    ];
    rng.pick(&choices).clone()
}

/// JSON pointers of every node, so a mutation can target any of them.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                pointers(v, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn mutate(doc: &mut Value, rng: &mut Rng) {
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    let target = rng.pick(&all).clone();
    let donor_at: &String = rng.pick(&all);
    let donor = doc.pointer(donor_at).cloned().unwrap_or(Value::Null);
    let Some(node) = doc.pointer_mut(&target) else { return };
    match rng.below(6) {
        // Replace the node with an odd value.
        0 => *node = odd_value(rng),
        // Replace it with another node of the same document (a schema where a parameter was, ...).
        1 => *node = donor,
        // Add or overwrite a key that matters to the generator.
        2 | 3 => {
            if let Value::Object(map) = node {
                map.insert(rng.pick(KEYS).to_string(), odd_value(rng));
            } else {
                *node = json!({ *rng.pick(KEYS): odd_value(rng) });
            }
        }
        // Remove a key or an item.
        4 => match node {
            Value::Object(map) if !map.is_empty() => {
                let key = map.keys().nth(rng.below(map.len())).cloned().unwrap();
                map.remove(&key);
            }
            Value::Array(items) if !items.is_empty() => {
                items.remove(rng.below(items.len()));
            }
            _ => *node = Value::Null,
        },
        // Duplicate an item or a key under a colliding name.
        _ => match node {
            Value::Array(items) if !items.is_empty() => {
                let item = items[rng.below(items.len())].clone();
                items.push(item);
            }
            Value::Object(map) if !map.is_empty() => {
                let key = map.keys().nth(rng.below(map.len())).cloned().unwrap();
                let value = map[&key].clone();
                map.insert(key.to_lowercase() + "_", value.clone());
                map.insert(key.to_uppercase(), value);
            }
            _ => {}
        },
    }
}

fn config(lenient: bool) -> Config {
    Config {
        version_header: Some(VersionHeader { header: "x-pps-api-version".into(), field: "api_version".into() }),
        strict: !lenient,
        // Gating by tag parses every item again: exercise it on every input.
        tag_features: true,
        ..common::config("fuzz", "fuzz.yaml")
    }
}

/// Runs one spec text through the whole generator and checks the outcome; returns whether it
/// generated. Odd-numbered cases are lenient (they leave out what is unsupported instead of
/// failing), even-numbered ones strict.
fn check(text: &str, case: &str) -> bool {
    let skip = case.split(' ').next().and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n % 2 == 1);
    let outcome = catch_unwind(AssertUnwindSafe(|| generate(text, &config(skip))));
    match outcome {
        Err(_) => panic!("the generator panicked on case {case}:\n{text}"),
        Ok(Ok(generated)) => {
            for file in generated.files.iter().filter(|f| f.path.ends_with(".rs")) {
                if let Err(e) = syn::parse_file(&file.contents) {
                    panic!("case {case}: {} is not valid Rust: {e}\n{text}", file.path);
                }
            }
            for w in &generated.warnings {
                assert!(w.pointer.starts_with('#') && !w.message.is_empty(), "case {case}: {w}");
                assert!(skip || !w.message.starts_with("left out "), "case {case}: left out without asking: {w}");
            }
            true
        }
        Ok(Err(diagnostics)) => {
            assert!(!diagnostics.0.is_empty(), "case {case}: an error without diagnostics");
            for d in &diagnostics.0 {
                assert!(d.pointer.starts_with('#'), "case {case}: diagnostic without a location: {d}");
                assert!(!d.message.is_empty(), "case {case}: empty diagnostic at {}", d.pointer);
                assert!(!d.message.contains("generator bug"), "case {case}: {d}\n{text}");
            }
            false
        }
    }
}

fn seeds() -> Vec<(&'static str, Value)> {
    let read = |path: &str| -> Value {
        let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        serde_yaml_ng::from_str(&text).unwrap()
    };
    vec![
        ("naming fixture", read("tests/fixtures/naming.yaml")),
        ("features fixture", read("tests/fixtures/features.yaml")),
        ("swagger 2.0 fixture", read("tests/fixtures/swagger2.yaml")),
        ("project spec", read("../spec/openapi.yaml")),
    ]
}

#[test]
fn mutated_specs_never_panic_the_generator() {
    let cases: u64 = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(150);
    let seed: u64 = std::env::var("FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5eed);
    let seeds = seeds();
    let mut rng = Rng(seed | 1);
    let (mut generated, mut diagnosed) = (0u64, 0u64);
    for case in 0..cases {
        // Each seed in turn: the fixtures cover what the project spec does not use.
        let (name, base) = &seeds[case as usize % seeds.len()];
        let mut doc = base.clone();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut doc, &mut rng);
        }
        let text = serde_json::to_string(&doc).unwrap();
        if check(&text, &format!("{case} ({name}, seed {seed})")) {
            generated += 1;
        } else {
            diagnosed += 1;
        }
    }
    println!("{cases} cases: {generated} generated, {diagnosed} reported diagnostics, 0 panics");
    assert!(generated > 0 && diagnosed > 0, "mutations should produce both outcomes");
}

/// Cases the long fuzz runs found, kept so they stay fixed.
#[test]
fn regressions() {
    // A query parameter whose name is empty once panicked while naming its Rust identifier.
    let mut doc = seeds().remove(0).1;
    doc["paths"]["/items/{item-id}/parts/{part}"]["get"]["parameters"][2]["name"] = json!("");
    check(&serde_json::to_string(&doc).unwrap(), "empty parameter name");
}

/// Byte-level damage to the text (truncation, stray characters) must give a located parse error.
#[test]
fn damaged_text_is_a_located_parse_error() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/naming.yaml")).unwrap();
    let mut rng = Rng(99);
    for case in 0..200 {
        let mut bytes = text.clone().into_bytes();
        match rng.below(3) {
            0 => bytes.truncate(rng.below(bytes.len())),
            1 => bytes.insert(rng.below(bytes.len()), *rng.pick(b"{}[]:-'\"\t\n#&*!|>%@`")),
            _ => {
                let at = rng.below(bytes.len());
                bytes.remove(at);
            }
        }
        let Ok(damaged) = String::from_utf8(bytes) else { continue };
        check(&damaged, &format!("damaged text {case}"));
    }
}

/// Crates that build on their own, as `--out` writes them: each case is a workspace of its own.
fn standalone_config() -> Config {
    let named = |side: &str| Some(CrateConfig { name: format!("fuzz-{side}"), dir: format!("fuzz-{side}") });
    Config {
        client: named("client"),
        server: named("server"),
        types: named("types"),
        standalone: true,
        runtime: apigen::Runtime::Path { dir: apigen::RUNTIME_CRATE.to_string(), vendored: true },
        ..config(true)
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

#[test]
fn mutated_specs_that_generate_compile() {
    let cases = env_number("FUZZ_COMPILE_CASES").unwrap_or(2);
    // A different sample each day, so the check keeps finding new inputs; the seed is printed.
    let today = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    let seed = env_number("FUZZ_COMPILE_SEED").unwrap_or(today);
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-compile");
    let seeds = seeds();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (mut compiled, mut attempts) = (0, 0);
    while compiled < cases && attempts < 1000 {
        attempts += 1;
        let (name, base) = &seeds[rng.below(seeds.len())];
        let mut doc = base.clone();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut doc, &mut rng);
        }
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let Ok(generated) = generate(&text, &standalone_config()) else { continue };
        let dir = root.join(format!("case-{compiled}"));
        let _ = std::fs::remove_dir_all(&dir);
        for file in &generated.files {
            let path = dir.join(&file.path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, &file.contents).unwrap();
        }
        std::fs::write(dir.join("fuzz.json"), &text).unwrap();
        let case = format!(
            "FUZZ_COMPILE_SEED={seed}, attempt {attempts} ({name}; the spec is {})",
            dir.join("fuzz.json").display()
        );
        for side in ["client", "server"] {
            let manifest = dir.join(format!("fuzz-{side}/Cargo.toml"));
            let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args(["check", "--quiet", "--all-targets", "--manifest-path"])
                .arg(&manifest)
                // One target directory for every case, so dependencies are built once.
                .env("CARGO_TARGET_DIR", root.join("target"))
                .env("RUSTFLAGS", "-D warnings")
                .output()
                .expect("cargo runs");
            assert!(
                output.status.success(),
                "{case}: the generated {side} crate does not compile:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        compiled += 1;
    }
    println!("seed {seed}: {compiled} generated specs compiled, of {attempts} tried");
    assert_eq!(compiled, cases, "too few mutated specs generated to compile {cases}");
}

/// Pieces of text that mean something in TOML, Markdown, HTML or Rust docs.
const HOSTILE: &[&str] = &[
    "\"",
    "\\",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "'''",
    "\"\"\"",
    "[",
    "]",
    "=",
    "#",
    "\nbuild = \"../x/src/openapi.yaml\"\n#",
    "\n[dependencies]\nevil = { path = \"/tmp\" }\n",
    "`",
    "```rust\nfn main() {}\n```",
    "\n    indented()\n",
    "<!--",
    "-->",
    "<script>alert(1)</script>",
    "*",
    "_",
    "[x](javascript:alert(1))",
    "\u{0}",
    "\u{7f}",
    "\u{2028}",
    "é",
    "1.",
    "- ",
    " ",
    "plain",
];

/// A string of a few hostile pieces.
fn hostile(rng: &mut Rng) -> String {
    (0..1 + rng.below(6)).map(|_| *rng.pick(HOSTILE)).collect()
}

/// The text of every inline leaf of a Markdown document (text and code spans), and how many raw
/// HTML nodes and code blocks it holds.
fn markdown_parts(text: &str) -> (Vec<String>, Vec<String>, usize, usize) {
    use pulldown_cmark::{Event, Parser, Tag};
    let (mut texts, mut codes, mut html, mut blocks) = (Vec::new(), Vec::new(), 0, 0);
    for event in Parser::new(text) {
        match event {
            Event::Text(t) => texts.push(t.to_string()),
            Event::Code(c) => codes.push(c.to_string()),
            Event::Html(_) | Event::InlineHtml(_) => html += 1,
            Event::Start(Tag::CodeBlock(_)) => blocks += 1,
            _ => {}
        }
    }
    (texts, codes, html, blocks)
}

#[test]
fn hostile_strings_stay_values_in_every_manifest_and_readme() {
    let mut rng = Rng(0x5eed_cafe);
    for case in 0..200 {
        let (title, version, mut tag) = (hostile(&mut rng), hostile(&mut rng), hostile(&mut rng));
        // A tag named like a feature the manifests define for themselves.
        if case % 3 == 0 {
            tag = ["Time", "default", "all tags", "Rustls"][case / 3 % 4].to_string();
        }
        let spec = json!({
            "openapi": "3.0.3",
            "info": {"title": title, "version": version, "description": hostile(&mut rng)},
            "paths": {"/a": {"get": {
                "operationId": "getA",
                "tags": [tag],
                "description": hostile(&mut rng),
                "responses": {"200": {"description": hostile(&mut rng)}},
            }}},
        });
        let mut config = Config {
            spec_path: hostile(&mut rng),
            command: hostile(&mut rng),
            // One line: a version with a line break is refused (tested in `generator.rs`).
            crate_version: format!("0.1.0{}", hostile(&mut rng).replace(char::is_control, "")),
            strict: false,
            ..config(true)
        };
        if case % 2 == 1 {
            config.runtime = apigen::Runtime::Git { url: hostile(&mut rng), rev: Some(hostile(&mut rng)) };
        }
        let generated = generate(&spec.to_string(), &config).unwrap_or_else(|e| panic!("case {case}: {e}"));
        let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        for file in &generated.files {
            let context = format!("case {case}, {}:\n{}", file.path, file.contents);
            if file.path.ends_with("Cargo.toml") {
                let manifest: toml::Table = toml::from_str(&file.contents).unwrap_or_else(|e| panic!("{context}\n{e}"));
                let keys: Vec<&str> = manifest.keys().map(String::as_str).collect();
                let allowed = ["package", "lib", "workspace", "dependencies", "dev-dependencies", "features"];
                assert!(keys.iter().all(|k| allowed.contains(k)), "{context}\n{keys:?}");
                assert_eq!(manifest["lib"].get("test").and_then(toml::Value::as_bool), Some(false), "{context}");
                let package = manifest["package"].as_table().unwrap();
                let keys: Vec<&str> = package.keys().map(String::as_str).collect();
                assert_eq!(keys, ["description", "edition", "name", "publish", "version"], "{context}");
                assert_eq!(package["version"].as_str(), Some(config.crate_version.as_str()), "{context}");
                let description = package["description"].as_str().unwrap();
                assert!(description.contains(&title) && description.contains(&version), "{context}");
                for section in ["dependencies", "dev-dependencies"] {
                    for (name, dependency) in manifest.get(section).and_then(|d| d.as_table()).into_iter().flatten() {
                        let known = [
                            "apigen-runtime",
                            "fuzz-types",
                            "axum",
                            "reqwest",
                            "serde",
                            "serde_json",
                            "tokio",
                            "tracing",
                            "uuid",
                        ];
                        assert!(known.contains(&name.as_str()), "{context}\nan unknown dependency {name}");
                        let Some(table) = dependency.as_table() else { continue };
                        let fields = ["path", "git", "rev", "version", "features", "default-features"];
                        assert!(table.keys().all(|k| fields.contains(&k.as_str())), "{context}");
                        if let (Some(url), apigen::Runtime::Git { url: given, .. }) =
                            (table.get("git"), &config.runtime)
                        {
                            assert_eq!(url.as_str(), Some(given.as_str()), "{context}");
                        }
                    }
                }
                for (name, on) in manifest.get("features").and_then(|f| f.as_table()).into_iter().flatten() {
                    let ok =
                        |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || "-_/".contains(c));
                    assert!(ok(name), "{context}\nfeature {name:?}");
                    assert!(on.as_array().unwrap().iter().all(|f| ok(f.as_str().unwrap())), "{context}");
                }
            } else if file.path.ends_with("README.md") {
                let (texts, codes, html, blocks) = markdown_parts(&file.contents);
                assert_eq!(html, 1, "{context}\nonly the header comment is HTML");
                assert!(file.contents.starts_with("<!-- ") && file.contents.lines().next().unwrap().ends_with(" -->"));
                let own_blocks = usize::from(file.path.starts_with("client/"));
                assert_eq!(blocks, own_blocks, "{context}\nonly the generator's example is a code block");
                let shown = texts.concat();
                assert!(shown.contains(&format!("API: {}, version", words(&title))), "{context}\n{shown:?}\n{title:?}");
                let line = |text: &str| text.replace(['\r', '\n'], " ");
                for value in [&version, &config.spec_path, &config.command] {
                    assert!(
                        codes.iter().any(|c| c == &line(value) || c.trim() == line(value).trim()),
                        "{context}\n{value:?} in {codes:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn thousands_of_paths_generate_without_deep_recursion() {
    // Large public APIs reach this many paths; the router's routes are many statements, not
    // one chain of calls that printing it would recurse through.
    let mut paths = serde_json::Map::new();
    for i in 0..9_000 {
        paths.insert(
            format!("/r{i}/{{id}}"),
            json!({"get": {"operationId": format!("get{i}"), "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}
            ], "responses": {"204": {"description": "done"}}}}),
        );
    }
    let spec = json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths});
    let generated = generate(&spec.to_string(), &config(true)).expect("generates");
    let router = generated.files.iter().find(|f| f.path == "server/src/router.rs").unwrap();
    assert_eq!(router.contents.matches(".route(").count(), 9_000);
    syn::parse_file(&router.contents).expect("the router parses");
}

/// Generates leniently from `files` (path ↦ text, the root `openapi.yaml`) with `overlays`, and
/// says how long it took.
fn timed(
    files: &[(String, String)],
    overlays: &[(String, String)],
) -> (Result<apigen::Generated, apigen::Diagnostics>, std::time::Duration) {
    let files: std::collections::HashMap<String, String> = files.iter().cloned().collect();
    let read = |path: &str| files.get(path).cloned().ok_or_else(|| "no such file".to_string());
    let started = std::time::Instant::now();
    let specs = apigen::SpecFiles { root: "openapi.yaml", read: &read, allow_outside: false, overlays };
    let generated = apigen::generate_files(specs, &Config { strict: false, ..config(true) });
    (generated, started.elapsed())
}

/// That `outcome` is a refusal saying `expected`, reached within seconds: the bounds are on work
/// (nodes, bytes, steps), and the time only catches work that ran away (unbounded, it takes
/// minutes; a debug build beside other tests takes up to about 15 s).
fn refused_quickly(
    what: &str,
    outcome: (Result<apigen::Generated, apigen::Diagnostics>, std::time::Duration),
    expected: &str,
) {
    let (generated, took) = outcome;
    let error = match generated {
        Ok(g) => panic!("{what}: generated {} files", g.files.len()),
        Err(e) => e.to_string(),
    };
    assert!(error.contains(expected), "{what}: {error}");
    assert!(took < std::time::Duration::from_secs(40), "{what}: refused only after {took:?}");
}

const EMPTY_API: &str = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n";

#[test]
fn yaml_aliases_and_deep_nesting_are_refused_before_they_grow() {
    // Each alias repeats what its anchor holds: a few kilobytes standing for gigabytes.
    let mut text = format!("{EMPTY_API}x-data:\n  a: &a [{}]\n", vec!["\"0123456789\""; 100].join(","));
    text.push_str(&format!("  b: &b [{}]\n", vec!["*a"; 100].join(",")));
    text.push_str(&format!("  c: [{}]\n", vec!["*b"; 1000].join(",")));
    let files = [("openapi.yaml".to_string(), text)];
    refused_quickly("anchors", timed(&files, &[]), "aliases expand it past 8 times the size of its text");
    // The YAML reader slows with the square of the nesting: refused before it reads.
    let files = [("openapi.yaml".to_string(), format!("{EMPTY_API}x-deep: {}\n", "[".repeat(100_000)))];
    refused_quickly("nesting", timed(&files, &[]), "nest more than 128 deep");
}

#[test]
fn references_that_copy_more_than_the_tree_holds_are_refused() {
    // A diamond: each file refers twice to the next, so the last is copied 2^29 times.
    let mut files = vec![("openapi.yaml".to_string(), format!("{EMPTY_API}x-data: {{$ref: 'l0.yaml'}}\n"))];
    for k in 0..30 {
        let body = if k == 29 {
            format!("leaf: \"{}\"\n", "z".repeat(10_000))
        } else {
            format!("a: {{$ref: 'l{}.yaml'}}\nb: {{$ref: 'l{}.yaml'}}\n", k + 1, k + 1)
        };
        files.push((format!("l{k}.yaml"), body));
    }
    refused_quickly("a diamond", timed(&files, &[]), "references copy more than 8 times");
    // One Markdown description brought in by every operation.
    let mut text = EMPTY_API.replace("paths: {}\n", "paths:\n");
    for i in 0..400 {
        text.push_str(&format!(
            "  /p{i}:\n    get:\n      operationId: op{i}\n      description: {{$ref: 'desc.md'}}\n      responses:\n        '204': {{description: {{$ref: 'desc.md'}}}}\n"
        ));
    }
    let files = [("openapi.yaml".to_string(), text), ("desc.md".to_string(), "word ".repeat(40_000))];
    refused_quickly("Markdown fan-out", timed(&files, &[]), "references copy more than 8 times");
}

#[test]
fn overlays_cannot_grow_the_description_or_search_it_without_bound() {
    let files = [("openapi.yaml".to_string(), format!("{EMPTY_API}x-a: {{b: {{c: 1}}}}\n"))];
    let doubling = "  - target: '$..*'\n    update: {k: [1, 2, {m: x}]}\n".repeat(40);
    let overlay = format!("overlay: 1.0.0\ninfo: {{title: o, version: '1'}}\nactions:\n{doubling}");
    let overlays = [("overlays/o.yaml".to_string(), overlay)];
    refused_quickly(
        "an update of every node, again and again",
        timed(&files, &overlays),
        "the updates would make the description",
    );
    // Descendants inside filters inside descendants: the document's size to the fourth power.
    let mut chain = json!({"a": 1});
    for _ in 0..100 {
        chain = json!({"a": chain, "b": 1, "c": 2, "d": 3, "e": 4});
    }
    let text = json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "x-t": chain});
    let files = [("openapi.yaml".to_string(), text.to_string())];
    let search = "overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n  - target: '$..[?@..[?@..[?@..*]]]'\n    update: {z: 1}\n";
    let overlays = [("overlays/o.yaml".to_string(), search.to_string())];
    refused_quickly(
        "nested descendant filters",
        timed(&files, &overlays),
        "steps on this description; target the nodes more directly",
    );
}

/// A document of `schemas` whose one operation replies with `reply`.
fn with_schemas(schemas: serde_json::Map<String, Value>, reply: &str) -> String {
    json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
        "operationId": "a",
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{reply}")}}}}}
    }}}, "components": {"schemas": schemas}})
    .to_string()
}

/// That merging `text`'s `allOf`s stops at a bound, with a warning saying `why`, and what it
/// generates stays within a multiple of its size.
fn merges_within_a_bound(what: &str, text: String, why: &str) {
    let files = [("openapi.yaml".to_string(), text.clone())];
    let (generated, took) = timed(&files, &[]);
    let generated = generated.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(generated.warnings.iter().any(|w| w.message.contains(why)), "{what}: no warning says {why:?}");
    let written: usize = generated.files.iter().map(|f| f.contents.len()).sum();
    assert!(written < 40 * text.len() + (2 << 20), "{what}: {written} bytes from {}", text.len());
    // Unbounded, these ran for minutes; a debug build beside a busy machine takes up to 30 s.
    assert!(took < std::time::Duration::from_secs(60), "{what}: {took:?}");
}

#[test]
fn all_of_merges_stay_within_a_bound_and_the_output_linear() {
    // A chain: each schema adds one property to the one before, so merged whole the fields grow
    // with the square of its length.
    let mut schemas = serde_json::Map::new();
    schemas.insert("S0".into(), json!({"type": "object", "properties": {"p0": {"type": "string"}}}));
    for i in 1..2000 {
        schemas.insert(
            format!("S{i}"),
            json!({"allOf": [
                {"$ref": format!("#/components/schemas/S{}", i - 1)},
                {"type": "object", "properties": {format!("p{i}"): {"type": "string"}}}
            ]}),
        );
    }
    merges_within_a_bound("a chain", with_schemas(schemas, "S1999"), "`allOf` members nest more than 64 deep");
    // A star: a large base that thousands of schemas extend, each copying all of it.
    let base: serde_json::Map<String, Value> =
        (0..3000).map(|i| (format!("b{i}"), json!({"type": "string"}))).collect();
    let mut schemas = serde_json::Map::new();
    schemas.insert("Base".into(), json!({"type": "object", "properties": base}));
    let mut all = serde_json::Map::new();
    for i in 0..2000 {
        let name = format!("E{i}");
        schemas.insert(
            name.clone(),
            json!({"allOf": [
                {"$ref": "#/components/schemas/Base"},
                {"type": "object", "properties": {format!("e{i}"): {"type": "string"}}}
            ]}),
        );
        all.insert(name.clone(), json!({"$ref": format!("#/components/schemas/{name}")}));
    }
    schemas.insert("All".into(), json!({"type": "object", "properties": all}));
    merges_within_a_bound("a star", with_schemas(schemas, "All"), "merges have copied");
}
