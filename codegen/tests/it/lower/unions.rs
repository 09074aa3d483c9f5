//! `oneOf` and `anyOf` → unions: how members are told apart, merged with shared properties, and
//! checked for exclusivity.

use super::*;

#[test]
fn a_choice_beside_shared_properties_is_a_union_of_merged_members() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Cat: {type: object, required: [meow], properties: {meow: {type: boolean}}}
    Dog: {type: object, required: [bark], properties: {bark: {type: boolean}}}
    Base: {type: object, properties: {name: {type: string}}}
    Pet:
      allOf: [{$ref: "#/components/schemas/Base"}]
      properties: {id: {type: integer, format: int64}}
      oneOf: [{$ref: "#/components/schemas/Cat"}, {type: object, required: [hiss], properties: {hiss: {type: boolean}}}]
    Same:
      oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
      anyOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
    Different:
      oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
      anyOf: [{$ref: "#/components/schemas/Cat"}]
"##;
    // Two different choices have no one Rust type: any JSON value, said where.
    let api = lowered(text).unwrap();
    let located: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        located,
        [
            "#/components/schemas/Different: a schema that combines `oneOf`, `anyOf`, `allOf` or `not` with each other or with `properties` has no one Rust type; the value is read as any JSON value, which servers check against the schema"
        ]
    );
    assert!(matches!(ty(&api, "Different"), TypeDef::Alias { target: TypeRef::Json, check: Some(_), .. }));
    let api = lowered(&text.replace("      anyOf: [{$ref: \"#/components/schemas/Cat\"}]\n", "")).unwrap();
    let TypeDef::Union(pet) = ty(&api, "Pet") else { panic!() };
    let variants: Vec<(&str, &TypeRef)> = pet.variants.iter().map(|v| (v.name.as_str(), &v.ty)).collect();
    assert_eq!(variants, [("Cat", &named(&api, "PetCat")), ("Option2", &named(&api, "PetOption2"))]);
    let TypeDef::Struct(cat) = ty(&api, "PetCat") else { panic!() };
    let fields: Vec<&str> = cat.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["name", "id", "meow"], "the shared part, then the member's own");
    let TypeDef::Union(same) = ty(&api, "Same") else { panic!() };
    assert_eq!(same.variants.len(), 2, "an `anyOf` that repeats the `oneOf` is the same union");
    assert!(api.warnings.is_empty(), "{:?}", api.warnings);
}

#[test]
fn a_choice_of_required_properties_is_not_a_union() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Results:
      type: array
      oneOf:
        - required: [error]
        - required: [series]
      items: {type: string}
"##;
    let api = lowered(text).unwrap();
    assert!(matches!(ty(&api, "Results"), TypeDef::Alias { target: TypeRef::Vec(_), .. }));
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        ["#/components/schemas/Results/oneOf: `oneOf` only states which properties are required, which is not checked"]
    );
}

#[test]
fn members_carrying_the_same_tag_are_read_by_shape() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Event:
      oneOf:
        - {type: object, required: [type, a], properties: {type: {type: string, enum: [x]}, a: {type: integer, format: int64}}}
        - {type: object, required: [type, b], properties: {type: {type: string, enum: [x]}, b: {type: string}}}
      discriminator: {propertyName: type}
"##;
    let api = lowered(text).unwrap();
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        [
            "#/components/schemas/Event/discriminator: members 0 and 1 both carry `type` = \"x\", so the discriminator cannot tell them apart; the value is read by its shape"
        ]
    );
    let TypeDef::Union(event) = ty(&api, "Event") else { panic!() };
    assert!(matches!(event.dispatch, apigen::ir::Dispatch::Shape(_)), "{:?}", event.dispatch);
}

#[test]
fn an_optional_choice_with_a_member_of_any_value_may_be_null() {
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Filter: {type: object, properties: {must: {type: array, items: {type: string}}}}
    Count:
      type: object
      properties:
        filter:
          anyOf: [{$ref: '#/components/schemas/Filter'}, {nullable: true}]
        exact: {type: boolean}
"#;
    let api = lowered(doc).unwrap();
    let TypeDef::Struct(count) = ty(&api, "Count") else { panic!("a struct") };
    let nullable: Vec<(&str, bool)> = count.fields.iter().map(|f| (f.wire.as_str(), f.nullable)).collect();
    assert_eq!(nullable, [("filter", true), ("exact", false)]);
    assert!(matches!(&count.fields[0].ty, TypeRef::Named(n) if matches!(api.ty(*n), TypeDef::Union(_))));
}

#[test]
fn a_member_that_is_itself_a_choice_is_selected_by_each_of_its_members_values() {
    // A discriminator without `mapping` over a plain member and a choice of two: the choice is
    // what the wire names by its members' values, not by its schema's name.
    let doc = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Input:
      oneOf:
        - {type: object, required: [type], properties: {type: {enum: [text, note]}}}
        - {$ref: '#/components/schemas/Call', title: A call}
      discriminator: {propertyName: type}
    Call:
      type: object
      oneOf:
        - {type: object, required: [type], properties: {type: {const: call}}}
        - {type: object, required: [type, id], properties: {type: {const: call_output}, id: {type: string}}}
      discriminator: {propertyName: type}
"#;
    let api = lowered(doc).unwrap();
    let TypeDef::Union(input) = ty(&api, "Input") else { panic!("a union") };
    let Dispatch::Tag { values, .. } = &input.dispatch else { panic!("{:?}", input.dispatch) };
    // A member listing two values is selected by each; so is a choice, by its members' values.
    let expected = [("text", 0), ("note", 0), ("call", 1), ("call_output", 1)].map(|(v, i)| (v.to_string(), i));
    assert_eq!(values, &expected);
}

#[test]
fn members_that_each_fix_a_required_property_are_told_apart_by_it() {
    // An internally tagged enum as schemars writes it: no `discriminator`, one `type` value each.
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Storage:
      oneOf:
        - {type: object, required: [type], properties: {type: {type: string, enum: [in_memory]}}}
        - {type: object, required: [type, path], properties: {type: {type: string, enum: [mmap]}, path: {type: string}}}
    Condition:
      anyOf:
        - {type: object, required: [key], properties: {key: {type: string}}}
        - {type: object, required: [has_id], properties: {has_id: {type: array, items: {type: integer, format: int64}}}}
        - {type: object, properties: {must: {type: array, items: {type: string}}}}
"#;
    let api = lowered(doc).unwrap();
    let TypeDef::Union(storage) = ty(&api, "Storage") else { panic!("a union") };
    let names: Vec<&str> = storage.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["InMemory", "Mmap"], "named by their tags");
    let Dispatch::Tag { property, values } = &storage.dispatch else { panic!("{:?}", storage.dispatch) };
    assert_eq!(property, "type");
    assert_eq!(values, &[("in_memory".to_string(), 0), ("mmap".to_string(), 1)]);
    // One object member without a property of its own is read when no other member's is there.
    let TypeDef::Union(condition) = ty(&api, "Condition") else { panic!("a union") };
    let Dispatch::Shape(order) = &condition.dispatch else { panic!("{:?}", condition.dispatch) };
    let markers: Vec<(Option<&str>, usize)> = order
        .iter()
        .map(|(shape, i)| match shape {
            Shape::Object { marker } => (marker.as_deref(), *i),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(markers, [(Some("key"), 0), (Some("has_id"), 1), (None, 2)]);
    assert!(api.warnings.is_empty(), "{:?}", api.warnings);
}

#[test]
fn one_of_members_that_may_accept_one_value_are_checked_for_exclusivity() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Lists:
      oneOf: [{type: array, items: {type: string}}, {type: object, properties: {a: {type: string}}}, {$ref: '#/components/schemas/Inner'}]
    Inner:
      oneOf: [{type: string}, {type: array, items: {type: integer, format: int64}}]
    Kinds:
      oneOf: [{type: string}, {type: boolean}, {type: array, items: {type: string}}]
    Either:
      anyOf: [{type: array, items: {type: string}}, {type: array, items: {type: boolean}}]
"##;
    let api = lowered(text).unwrap();
    let check = |name: &str| match ty(&api, name) {
        TypeDef::Union(u) => u.check,
        other => panic!("{name} is not a union: {other:?}"),
    };
    // A list member beside a choice with a list member: `[]` fits both.
    assert!(check("Lists").is_some());
    // One member per kind of JSON value: no value fits two.
    assert_eq!(check("Inner"), None);
    assert_eq!(check("Kinds"), None);
    // `anyOf` takes a value any number of members fit.
    assert_eq!(check("Either"), None);
    assert!(api.schema_checks.is_some());
}
