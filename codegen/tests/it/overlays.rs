//! OpenAPI Overlay 1.0 documents applied to a description before it is generated: in order, after
//! the files it refers to are brought in, and every target that selects nothing reported where it
//! is written.

use std::collections::HashMap;

use apigen::{Config, Diagnostics, Generated, SpecFiles, generate_files};

use crate::common;

fn config() -> Config {
    common::config("o", "openapi.yaml")
}

const ROOT: &str = r#"
openapi: 3.0.3
info: {title: Vendor, version: "1"}
paths:
  /pets:
    $ref: paths/pets.yaml
  /internal/stats:
    get:
      operationId: internalStats
      x-internal: true
      responses:
        "204": {description: ok}
"#;

const PETS: &str = r#"
get:
  operationId: get_pets_v1
  responses:
    "200":
      description: ok
      content:
        application/json:
          schema:
            type: array
            items: {$ref: ../schemas/Pet.yaml}
"#;

const PET: &str = "type: object\nproperties:\n  name: {type: string}\n";

fn generated(overlays: &[(&str, &str)]) -> Result<Generated, Diagnostics> {
    let files: HashMap<&str, &str> =
        [("openapi.yaml", ROOT), ("paths/pets.yaml", PETS), ("schemas/Pet.yaml", PET)].into_iter().collect();
    let read = |path: &str| files.get(path).map(|t| t.to_string()).ok_or_else(|| "no such file".to_string());
    let overlays: Vec<(String, String)> = overlays.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
    generate_files(
        SpecFiles { root: "openapi.yaml", read: &read, allow_outside: false, overlays: &overlays },
        &config(),
    )
}

fn file<'g>(generated: &'g Generated, path: &str) -> &'g str {
    &generated.files.iter().find(|f| f.path == path).unwrap_or_else(|| panic!("no {path}")).contents
}

#[test]
fn overlays_fix_a_description_without_editing_it_in_order() {
    let rename = r#"
overlay: 1.0.0
info: {title: Names and limits, version: "1"}
actions:
  - target: $.paths['/pets'].get
    description: The vendor's operationId reads badly in Rust.
    update: {operationId: listPets, summary: Lists the pets.}
  - target: $.components.schemas.Pet.properties.name
    update: {maxLength: 20}
  - target: $.paths.*[?@['x-internal'] == true]
    remove: true
"#;
    // Applied after the first, so it sees its change.
    let describe = r#"
overlay: 1.0.0
info: {title: Docs, version: "1"}
actions:
  - target: $.paths.*[?@.operationId == 'listPets']
    update: {description: Every pet the store has.}
"#;
    let generated = generated(&[("overlays/1-rename.yaml", rename), ("overlays/2-describe.yaml", describe)])
        .expect("the overlays apply");
    let client = file(&generated, "client/src/client.rs");
    assert!(client.contains("pub fn list_pets(&self)"), "renamed by the overlay: {client}");
    assert!(client.contains("Every pet the store has."), "described by the second overlay");
    assert!(!client.contains("internal_stats"), "removed by the overlay");
    // The schema from `schemas/Pet.yaml` is reached by its name in the root's components.
    assert!(file(&generated, "types/src/types.rs").contains("At most 20 characters."));
}

#[test]
fn a_target_that_selects_nothing_fails_the_run_naming_the_overlay_and_line() {
    let stale = "overlay: 1.0.0\ninfo: {title: Stale, version: '1'}\nactions:\n  - target: $.paths['/gone'].get\n    update: {summary: x}\n  - target: $.paths[\n    remove: true\n  - target: $.info\n";
    let problems = generated(&[("overlays/stale.yaml", stale)]).expect_err("a stale overlay").0;
    let found: Vec<String> = problems.iter().map(|d| d.to_string()).collect();
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(
        found[0].starts_with("overlays/stale.yaml#/actions/0/target (line 4): `$.paths['/gone'].get` selects nothing")
    );
    assert!(found[1].starts_with("overlays/stale.yaml#/actions/1/target (line 6): `$.paths[` is not a JSONPath query"));
    assert!(
        found[2].starts_with("overlays/stale.yaml#/actions/2 (line 8): an action has an `update` or `remove: true`")
    );

    let wrong = "overlay: 2.0.0\ninfo: {title: Future, version: '1'}\nactions: []\n";
    let problems = generated(&[("next.yaml", wrong)]).expect_err("another version").0;
    assert!(problems[0].to_string().starts_with("next.yaml#/overlay (line 1): `overlay: 2.0.0` is not a version"));
}
