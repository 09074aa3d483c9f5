//! Specs split across files, read from memory: what each reference brings in and under which
//! name, and how every reference that cannot be followed is reported, located in its own file.

use std::collections::HashMap;

use apigen::{Config, Diagnostics, Generated, SpecFiles, generate, generate_files};

use crate::common;

fn config(strict: bool) -> Config {
    Config { strict, ..common::config("split", "openapi.yaml") }
}

/// Generates from `files` (path ↦ text), whose root is `openapi.yaml`.
fn generated(files: &[(&str, &str)], strict: bool, allow_outside: bool) -> Result<Generated, Diagnostics> {
    let files: HashMap<String, String> = files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
    let read = |path: &str| files.get(path).cloned().ok_or_else(|| "no such file".to_string());
    generate_files(SpecFiles { root: "openapi.yaml", read: &read, allow_outside, overlays: &[] }, &config(strict))
}

fn types_rs(generated: &Generated) -> &str {
    &generated.files.iter().find(|f| f.path == "types/src/types.rs").expect("types.rs").contents
}

const PETS: &str = r#"
openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "v1/Pet.yaml"}}
  /pets2:
    get:
      operationId: listPets2
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "v2/Pet.yaml"}}
"#;

#[test]
fn schemas_are_named_by_their_files_and_same_names_in_other_directories_stay_apart() {
    let files = [
        ("openapi.yaml", PETS),
        ("v1/Pet.yaml", "type: object\nproperties:\n  name: {type: string}\n"),
        ("v2/Pet.yaml", "type: object\nproperties:\n  nick: {type: string}\n  older: {$ref: '../v1/Pet.yaml'}\n"),
    ];
    let generated = generated(&files, true, false).expect("generates");
    let types = types_rs(&generated);
    assert!(types.contains("pub struct Pet {"), "{types}");
    assert!(types.contains("pub struct V2Pet {"), "the second `Pet` takes its directory's name: {types}");
    assert!(types.contains("pub older: Option<Pet>"), "`../v1/Pet.yaml` from v2 is the same `Pet`: {types}");
    // Each crate's README names the tree it comes from.
    let readme = generated.files.iter().find(|f| f.path.ends_with("types/README.md")).expect("a README");
    assert!(readme.contents.contains("from openapi.yaml and the 2 files it refers to"), "{}", readme.contents);
    // The server's copy of the document is the tree bundled into one JSON document.
    let document = generated.files.iter().find(|f| f.path == "server/src/openapi.json").expect("the document");
    let bundled: serde_json::Value = serde_json::from_str(&document.contents).expect("JSON");
    assert!(bundled.pointer("/paths").is_some(), "{bundled}");
    assert!(!document.contents.contains("v1/Pet.yaml"), "no reference to another file is left: {bundled}");
    // The same tree gives the same names every time.
    let again = self::generated(&files, true, false).expect("generates");
    assert_eq!(types_rs(&again), types);
}

#[test]
fn every_reference_that_cannot_be_followed_is_named_in_its_file_at_its_line() {
    let root = r#"
openapi: 3.0.3
info: {title: Broken, version: "1"}
paths:
  /a:
    $ref: paths/a.yaml
"#;
    let a = r#"get:
  operationId: getA
  parameters:
    - $ref: ../../outside.yaml
    - $ref: 'params.yaml#/nothing'
  responses:
    "200":
      description: ok
      content:
        application/json:
          schema: {$ref: ../schemas/Missing.yaml}
    "404":
      description: no
      content:
        application/json:
          schema: {$ref: ../schemas/Broken.yaml}
"#;
    let files = [
        ("openapi.yaml", root),
        ("paths/a.yaml", a),
        ("paths/params.yaml", "q: {name: q, in: query, schema: {type: string}}\n"),
        ("schemas/Broken.yaml", "type: object\nproperties:\n  x: [unclosed\n"),
    ];
    let problems = generated(&files, true, false).expect_err("strict: every problem fails the run").0;
    let found: Vec<String> = problems.iter().map(|d| d.to_string()).collect();
    let expect = [
        "paths/a.yaml#/get/parameters/0 (line 4): `../../outside.yaml` reaches outside the spec's directory",
        "paths/a.yaml#/get/parameters/1 (line 5): `params.yaml#/nothing` names nothing",
        "paths/a.yaml#/get/responses/200/content/application~1json/schema (line 11): `../schemas/Missing.yaml` cannot be read: no such file",
        "schemas/Broken.yaml# (line 4): does not parse",
    ];
    for expected in expect {
        assert!(found.iter().any(|f| f.starts_with(expected)), "no `{expected}` in {found:#?}");
    }

    // Leniently, what uses an unfollowed reference is left out and the rest is generated.
    let files = [
        ("openapi.yaml", root),
        (
            "paths/a.yaml",
            "get:\n  operationId: getA\n  parameters:\n    - $ref: nothing.yaml\n  responses:\n    '204': {description: ok}\n",
        ),
    ];
    let lenient = generated(&files, false, false);
    let warnings: Vec<String> = match lenient {
        Ok(generated) => generated.warnings.iter().map(|d| d.to_string()).collect(),
        Err(problems) => problems.0.iter().map(|d| d.to_string()).collect(),
    };
    assert!(
        warnings[0].starts_with("paths/a.yaml#/get/parameters/0 (line 4): `nothing.yaml` cannot be read"),
        "{warnings:#?}"
    );

    // A schema that cannot be read is not guessed at: what uses it is left out, never loosened.
    let root = r#"
openapi: 3.0.3
info: {title: Missing, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "schemas/Gone.yaml"}}}}
  /b:
    get:
      operationId: getB
      responses:
        "204": {description: ok}
"#;
    let generated = generated(&[("openapi.yaml", root)], false, false).expect("the rest generates");
    let warnings: Vec<String> = generated.warnings.iter().map(|d| d.to_string()).collect();
    assert!(warnings.iter().any(|w| w.contains("left out operation `getA`")), "{warnings:#?}");
    assert!(!warnings.iter().any(|w| w.contains("any JSON value")), "{warnings:#?}");
}

#[test]
fn a_reference_outside_the_directory_is_followed_only_when_allowed() {
    let root = r#"
openapi: 3.0.3
info: {title: Shared, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "../shared/Thing.yaml"}
"#;
    let files = [("openapi.yaml", root), ("../shared/Thing.yaml", "type: object\nproperties:\n  id: {type: string}\n")];
    let refused = generated(&files, true, false).expect_err("outside the directory").0;
    assert!(refused[0].message.contains("reaches outside the spec's directory"), "{refused:#?}");
    let allowed = generated(&files, true, true).expect("allowed");
    assert!(types_rs(&allowed).contains("pub struct Thing {"));
}

#[test]
fn path_items_that_lead_back_to_themselves_are_refused_naming_the_chain() {
    let root = "openapi: 3.0.3\ninfo: {title: Loop, version: '1'}\npaths:\n  /a:\n    $ref: a.yaml\n";
    let files = [("openapi.yaml", root), ("a.yaml", "$ref: b.yaml\n"), ("b.yaml", "$ref: a.yaml\n")];
    let problems = generated(&files, true, false).expect_err("a cycle").0;
    let cycle = problems.iter().find(|d| d.message.contains("leads back to itself")).expect("the cycle is named");
    assert!(cycle.message.contains("a.yaml#") && cycle.message.contains("b.yaml#"), "{cycle}");
}

#[test]
fn a_swagger_2_document_split_across_files_brings_its_definitions_in() {
    let root = r#"
swagger: "2.0"
info: {title: Old, version: "1"}
produces: [application/json]
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - $ref: "parameters.yaml#/Limit"
      responses:
        "200":
          description: ok
          schema: {type: array, items: {$ref: "definitions/Thing.yaml"}}
"#;
    let files = [
        ("openapi.yaml", root),
        ("parameters.yaml", "Limit: {name: limit, in: query, type: integer, format: int32}\n"),
        ("definitions/Thing.yaml", "type: object\nproperties:\n  id: {type: string}\n"),
    ];
    let generated = generated(&files, true, false).expect("generates");
    assert!(types_rs(&generated).contains("pub struct Thing {"));
    let builders = &generated.files.iter().find(|f| f.path == "client/src/builders.rs").unwrap().contents;
    assert!(builders.contains("pub fn limit(mut self, value: i32)"), "{builders}");
}

#[test]
fn spec_text_alone_reports_references_to_other_files_instead_of_guessing() {
    let text = PETS;
    let warnings = generate(text, &config(false)).map(|g| g.warnings).unwrap_or_else(|d| d.0);
    let first = warnings.first().expect("a warning");
    assert!(first.message.contains("given as text alone"), "{first}");
}

#[test]
fn the_number_of_files_is_bounded() {
    // A chain of schemas, each in its own file, longer than the bound.
    let root = r#"
openapi: 3.0.3
info: {title: Chain, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "s0.yaml"}
"#;
    let read = |path: &str| match path {
        "openapi.yaml" => Ok(root.to_string()),
        _ => {
            let n: usize =
                path.trim_start_matches('s').trim_end_matches(".yaml").parse().map_err(|_| "no such file")?;
            Ok(format!("type: object\nproperties:\n  next: {{$ref: s{}.yaml}}\n", n + 1))
        }
    };
    let problems = generate_files(
        SpecFiles { root: "openapi.yaml", read: &read, allow_outside: false, overlays: &[] },
        &config(true),
    )
    .expect_err("too many files")
    .0;
    assert!(problems.iter().any(|d| d.message.contains("split into more than")), "{problems:#?}");
}

#[test]
fn a_discriminator_mapping_that_names_files_is_used() {
    let root = r#"
openapi: 3.0.3
info: {title: Shapes, version: "1"}
paths:
  /shape:
    get:
      operationId: getShape
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "schemas/Shape.yaml"}
"#;
    let shape = r#"
oneOf:
  - $ref: ./Circle.yaml
  - $ref: ./Square.yaml
discriminator:
  propertyName: kind
  mapping:
    round: ./Circle.yaml
    square: 'Square.yaml#'
"#;
    let member = |kind: &str, extra: &str| {
        let properties = format!("  kind: {{type: string, enum: [{kind}]}}\n  {extra}: {{type: number}}\n");
        format!("type: object\nrequired: [kind, {extra}]\nproperties:\n{properties}")
    };
    let (circle, square) = (member("round", "radius"), member("square", "side"));
    let files = [
        ("openapi.yaml", root),
        ("schemas/Shape.yaml", shape),
        ("schemas/Circle.yaml", &circle),
        ("schemas/Square.yaml", &square),
    ];
    let generated = generated(&files, true, false).expect("strict: the mapping is followed, not loosened");
    let types = types_rs(&generated);
    assert!(types.contains(r#"value.get("kind")"#), "read by its discriminator: {types}");
    assert!(types.contains(r#"Some("round") =>"#), "{types}");
}

/// A root whose one operation's path item is `item`.
fn root_with_path_item(item: &str) -> String {
    format!("openapi: 3.0.3\ninfo: {{title: Hostile, version: '1'}}\npaths:\n  /a:\n    {item}\n")
}

#[test]
fn references_that_multiply_are_bounded() {
    // Each level refers to the next twice: put in place naively, 2^40 copies.
    let mut levels = String::new();
    for n in 0..40 {
        let next = n + 1;
        levels.push_str(&format!("l{n}:\n  x-a: {{$ref: '#/l{next}'}}\n  x-b: {{$ref: '#/l{next}'}}\n"));
    }
    levels.push_str("l40: {}\n");
    let item = "$ref: 'd.yaml#/l0'";
    let files = [("openapi.yaml", root_with_path_item(item)), ("d.yaml", levels)];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let problems = generated(&files, false, false).expect_err("refused").0;
    assert!(problems.iter().any(|d| d.message.contains("copy more than 1000000 nodes")), "{problems:#?}");
}

#[test]
fn paths_that_are_not_relative_or_leave_the_directory_are_refused() {
    for reference in ["..", "../", "C:secret.yaml", "c:/secret.yaml", "/etc/passwd", "a\\\\b.yaml", "x/../../y.yaml"] {
        let item = format!("$ref: '{reference}'");
        let root = root_with_path_item(&item);
        let read = |path: &str| match path {
            "openapi.yaml" => Ok(root.clone()),
            other => panic!("`{reference}` made the generator read `{other}`"),
        };
        let files = SpecFiles { root: "openapi.yaml", read: &read, allow_outside: false, overlays: &[] };
        let problems = generate_files(files, &config(false)).map(|g| g.warnings).unwrap_or_else(|d| d.0);
        assert!(
            problems.iter().any(|d| d.message.contains("not a path relative") || d.message.contains("reaches outside")),
            "{reference}: {problems:#?}"
        );
    }
}

#[test]
fn the_file_bound_holds_for_files_the_root_puts_in_place() {
    // Every path item in its own file: all read while walking the root, none queued.
    let mut root = "openapi: 3.0.3\ninfo: {title: Wide, version: '1'}\npaths:\n".to_string();
    for n in 0..10_001 {
        root.push_str(&format!("  /p{n}: {{$ref: 'p{n}.yaml'}}\n"));
    }
    let read = |path: &str| match path {
        "openapi.yaml" => Ok(root.clone()),
        _ => Ok("get: {responses: {'204': {description: none}}}\n".to_string()),
    };
    let files = SpecFiles { root: "openapi.yaml", read: &read, allow_outside: false, overlays: &[] };
    let problems = generate_files(files, &config(false)).expect_err("too many files").0;
    assert!(problems.iter().any(|d| d.message.contains("split into more than 10000 files")), "{problems:#?}");
}

#[test]
fn a_paths_map_given_as_a_reference_is_put_in_place_not_named_as_a_callback() {
    let root = "openapi: 3.0.3\ninfo: {title: Paths, version: '1'}\npaths:\n  $ref: paths.yaml\n";
    let paths = "/a:\n  get:\n    operationId: getA\n    responses: {'204': {description: none}}\n";
    let generated = generated(&[("openapi.yaml", root), ("paths.yaml", paths)], true, false).expect("generates");
    let server = &generated.files.iter().find(|f| f.path == "server/src/api.rs").expect("server").contents;
    assert!(server.contains("fn get_a("), "the operation is generated");
}
