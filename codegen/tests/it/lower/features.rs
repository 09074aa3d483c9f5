//! Tag features: which operations and types each tag's feature compiles.

use super::*;

#[test]
fn tag_features_gate_operations_and_the_types_only_they_reach() {
    let config = Config { tag_features: true, ..config() };
    let api = lower(&load(&fixture("features")).unwrap().doc, &config).unwrap();
    let tags = api.tag_features.as_ref().expect("asked for");
    // Tags in first-use order, as cargo feature names.
    assert_eq!(tags.features, ["pets", "notes", "shape-drawing", "labels"]);
    let op = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap_or_else(|| panic!("no {id}"));
    assert_eq!(op("echoLabel").features, ["labels", "shape-drawing"]);
    assert!(op("follow").features.is_empty(), "an untagged operation is always compiled");
    // A type is compiled by any feature whose operations reach it, through other types too.
    assert_eq!(tags.of_type(id(&api, "Label")), ["shape-drawing", "labels"]);
    assert_eq!(tags.of_type(id(&api, "Circle")), ["shape-drawing"]);
    assert_eq!(tags.of_type(id(&api, "Cat")), ["pets"]);
    // Reached from an untagged operation (`checkLimits`): always compiled.
    assert!(tags.of_type(id(&api, "Limits")).is_empty());
    assert!(tags.of_type(id(&api, "CountryCode")).is_empty());
    // A schema no operation reaches is compiled by a feature of its own, off by default.
    assert_eq!(tags.unused.as_deref(), Some("unused-schemas"));
    assert_eq!(tags.of_type(id(&api, "PetBase")), ["unused-schemas"]);
}

#[test]
fn a_parent_tag_feature_turns_on_its_children() {
    let text = r##"
openapi: 3.2.0
info: {title: t, version: "1"}
tags:
  - {name: Cats, parent: Pets}
  - {name: Dogs, parent: Pets}
  - {name: Pets, parent: Animals, kind: nav}
  - {name: Loop, parent: Loop}
paths:
  /cats: {get: {operationId: listCats, tags: [Cats], responses: {"204": {description: ok}}}}
  /dogs: {get: {operationId: listDogs, tags: [Dogs], responses: {"204": {description: ok}}}}
  /loop: {get: {operationId: spin, tags: [Loop], responses: {"204": {description: ok}}}}
"##;
    let config = Config { tag_features: true, ..config() };
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let tags = api.tag_features.as_ref().expect("asked for");
    // Parents no operation names still become features, after the tags in use.
    assert_eq!(tags.features, ["cats", "dogs", "loop", "pets", "animals"]);
    assert_eq!(tags.children["pets"], ["cats", "dogs"]);
    assert_eq!(tags.children["animals"], ["pets"]);
    assert!(!tags.children.contains_key("loop"), "a tag is not its own child");
    assert!(api.warnings.iter().any(|w| w.pointer == "#/tags/3/parent"), "{:?}", api.warnings);
    // The manifests say the same to cargo.
    let named = |side: &str| Some(apigen::CrateConfig { name: format!("t-{side}"), dir: side.into() });
    // The tag that is its own parent is warned about: a lenient run.
    let config = Config { client: named("client"), types: named("types"), strict: false, ..config };
    let files = apigen::generate(text, &config).unwrap().files;
    let manifest = &files.iter().find(|f| f.path == "client/Cargo.toml").unwrap().contents;
    assert!(manifest.contains("pets = [\"cats\", \"dogs\", \"t-types/pets\"]"), "{manifest}");
    assert!(manifest.contains("animals = [\"pets\", \"t-types/animals\"]"), "{manifest}");
}
