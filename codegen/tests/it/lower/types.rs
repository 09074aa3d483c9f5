//! Schemas → types: names, formats, nullability, boxing, enums, limits, merging, files and
//! examples.

use super::*;

#[test]
fn colliding_schema_and_field_names_get_distinct_rust_names() {
    let api = lowered(&fixture("naming")).unwrap();
    // `Account` and `account` both want `Account`; declaration order decides who gets it.
    assert!(matches!(ty(&api, "Account"), TypeDef::Struct(s) if s.fields[0].wire == "id"));
    assert!(matches!(ty(&api, "Account2"), TypeDef::Struct(s) if s.fields[0].wire == "match"));
    // A schema named like a prelude type is renamed rather than shadowing it.
    assert!(matches!(ty(&api, "Result2"), TypeDef::Alias { target: TypeRef::String, .. }));
    let TypeDef::Struct(part) = ty(&api, "Part") else { panic!() };
    let names: Vec<(&str, &str)> = part.fields.iter().map(|f| (f.wire.as_str(), f.name.as_str())).collect();
    assert_eq!(
        &names[..5],
        [
            ("type", "type"),
            ("self", "self_"),
            ("Self", "self_2"),
            ("AccountId", "account_id"),
            ("accountId", "account_id2")
        ]
    );
}

#[test]
fn formats_nullability_and_recursion() {
    let api = lowered(&fixture("naming")).unwrap();
    let TypeDef::Struct(part) = ty(&api, "Part") else { panic!() };
    let field = |wire: &str| part.fields.iter().find(|f| f.wire == wire).unwrap();
    assert_eq!(field("AccountId").ty, TypeRef::Uuid);
    assert_eq!(field("accountId").ty, TypeRef::DateTime);
    assert!(field("type").required && !field("type").nullable);
    assert!(field("self").required && field("self").nullable);
    assert_eq!(field("labels").ty, TypeRef::Map(Box::new(TypeRef::String)));
    assert_eq!(field("extra").ty, named(&api, "PartExtra"), "inline objects are named from their place");
    assert!(field("parent").boxed, "a struct containing itself is boxed");
    assert!(!field("children").boxed, "a Vec is already an indirection");
}

#[test]
fn fields_of_large_types_are_boxed_and_small_ones_stay_inline() {
    // Objects nested four deep, each with many text properties: held inline, the outermost
    // would be several KiB, and a debug build reading it would need a stack frame per level
    // holding every level below.
    let wide = |next: Option<&str>| {
        let mut props: Vec<String> = (0..30).map(|i| format!("p{i}: {{type: string}}")).collect();
        props.extend(next.map(|n| format!("inner: {{$ref: '#/components/schemas/{n}'}}")));
        format!("{{type: object, properties: {{{}}}}}", props.join(", "))
    };
    let doc = format!(
        "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
         Outer: {}\n    Middle: {}\n    Inner: {}\n    Leaf: {}\n    \
         Small: {{type: object, properties: {{leaf: {{$ref: '#/components/schemas/Point'}}}}}}\n    \
         Point: {{type: object, required: [x, y], properties: {{x: {{type: number}}, y: {{type: number}}}}}}\n",
        wide(Some("Middle")),
        wide(Some("Inner")),
        wide(Some("Leaf")),
        wide(None),
    );
    let api = lowered(&doc).unwrap();
    let inner = |name: &str, field: &str| {
        let TypeDef::Struct(s) = ty(&api, name) else { panic!("{name} is a struct") };
        s.fields.iter().find(|f| f.wire == field).unwrap().boxed
    };
    for name in ["Outer", "Middle", "Inner"] {
        assert!(inner(name, "inner"), "{name}.inner holds a type of 30 strings or more");
    }
    assert!(!inner("Small", "leaf"), "two numbers stay inline");
}

#[test]
fn integer_enums_take_their_names_from_x_enum_varnames() {
    let api = lowered(&fixture("naming")).unwrap();
    let TypeDef::IntEnum(kind) = ty(&api, "Kind") else { panic!() };
    assert_eq!(kind.variants, [("Bolt".to_string(), 1), ("Nut".to_string(), 2)]);
    let TypeDef::IntEnum(status) = ty(&api, "PartStatus") else { panic!() };
    let names: Vec<&str> = status.variants.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Value0", "Value5", "ValueMinus1"], "values without names get names from the value");
}

#[test]
fn string_enums_with_odd_values_get_valid_names() {
    let api = lowered(&fixture("naming")).unwrap();
    let TypeDef::StringEnum(e) = ty(&api, "GetItemPartType") else { panic!() };
    let pairs: Vec<(&str, &str)> = e.variants.iter().map(|(n, w)| (n.as_str(), w.as_str())).collect();
    assert_eq!(pairs, [("InProgress", "in-progress"), ("Done", "done"), ("V1", "1"), ("Empty", "")]);
    assert_eq!(e.unlisted, "Unknown");
    let TypeDef::StringEnum(e) = ty(&api, "Verdict") else { panic!() };
    let names: Vec<&str> = e.variants.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!((&names[..], e.unlisted.as_str()), (&["Unknown", "Unlisted"][..], "UnknownValue"));
}

#[test]
fn binary_properties_are_files_only_in_multipart_bodies() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /upload:
    post:
      operationId: upload
      requestBody:
        content:
          multipart/form-data:
            schema:
              type: object
              properties:
                items: {type: string, format: binary}
                more: {type: array, items: {type: string, format: binary}}
                note: {type: string}
      responses:
        "204": {description: done}
  /shared:
    post:
      operationId: shared
      requestBody:
        content:
          multipart/form-data:
            schema: {$ref: "#/components/schemas/Upload"}
      responses:
        "204": {description: done}
  /json:
    post:
      operationId: json
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Upload"}
      responses:
        "200": {description: done, content: {application/json: {schema: {$ref: "#/components/schemas/Upload"}}}}
components:
  schemas:
    Upload:
      type: object
      properties:
        file: {type: string, format: binary}
    Nested:
      type: object
      properties:
        inner: {type: object, properties: {file: {type: string, format: binary}}}
"##;
    // The multipart schema met as JSON (its file parts have no JSON form) is any JSON value
    // there, with a warning at each place, rather than the operation being left out.
    let api = lowered(text).unwrap();
    let json = api.operations.iter().find(|op| op.id == "json").unwrap();
    assert_eq!(json.body.as_ref().unwrap().ty, TypeRef::Json);
    assert!(matches!(&json.reply, Reply::Json { ty: TypeRef::Json, .. }), "{:?}", json.reply);
    let warned: Vec<&str> =
        api.warnings.iter().filter(|d| d.pointer.starts_with("#/paths/~1json")).map(|d| d.pointer.as_str()).collect();
    assert_eq!(
        warned,
        [
            "#/paths/~1json/post/requestBody/content/application~1json/schema",
            "#/paths/~1json/post/responses/200/content/application~1json/schema",
        ]
    );
    // A binary property outside a multipart body (`Nested`) is a string, with a warning; with the
    // shared schema sent as multipart everywhere, the rest lowers.
    let fixed = text.split("    Nested:").next().unwrap().replace("application/json", "multipart/form-data");
    let fixed =
        fixed.replace(", content: {multipart/form-data: {schema: {$ref: \"#/components/schemas/Upload\"}}}", "");
    let api = lowered(&fixed).unwrap();
    let body = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap().body.clone().unwrap();
    let TypeRef::Named(upload) = body("upload").ty else { panic!() };
    let TypeDef::Struct(s) = api.ty(upload) else { panic!() };
    let types: Vec<&TypeRef> = s.fields.iter().map(|f| &f.ty).collect();
    assert_eq!(types, [&TypeRef::File, &TypeRef::Vec(Box::new(TypeRef::File)), &TypeRef::String]);
    assert_eq!(body("shared").ty, named(&api, "Upload"));
}

#[test]
fn limits_are_lowered_and_patterns_no_engine_reads_are_left_unchecked_with_a_warning() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Limits:
      type: object
      properties:
        code: {type: string, pattern: "^[a-z]+$"}
        lookbehind: {type: string, pattern: "(?<=a)b"}
        broken: {type: string, pattern: "([a-z]"}
        ratio: {type: number, minimum: 0, exclusiveMinimum: true, multipleOf: 0.5}
        tags: {type: array, uniqueItems: true, items: {type: string, maxLength: 3}}
"##;
    let api = lowered(text).unwrap();
    let TypeDef::Struct(s) = ty(&api, "Limits") else { panic!() };
    let c = |wire: &str| &s.fields.iter().find(|f| f.wire == wire).unwrap().constraints;
    assert_eq!(c("code").pattern.as_deref(), Some("^[a-z]+$"));
    // Look-behind is for fancy-regex, which the generated crates then turn on.
    assert_eq!(c("lookbehind").pattern.as_deref(), Some("(?<=a)b"));
    assert!(api.fancy_patterns);
    assert_eq!(c("broken").pattern, None);
    assert!(c("ratio").exclusive_minimum && c("ratio").multiple_of == Some(0.5));
    assert!(c("tags").unique_items);
    assert_eq!(c("tags").items.as_ref().and_then(|i| i.max_length), Some(3));
    assert_eq!(api.warnings.len(), 1);
    assert_eq!(api.warnings[0].pointer, "#/components/schemas/Limits/properties/broken/pattern");
    assert!(api.warnings[0].message.starts_with("the pattern is not checked: "), "{}", api.warnings[0].message);
}

#[test]
fn limits_travel_with_referenced_schemas_and_skip_types_that_fix_their_form() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Code: {type: string, maxLength: 3, pattern: "^[A-Z]+$"}
    Holder:
      type: object
      properties:
        code: {$ref: "#/components/schemas/Code"}
        codes: {type: array, maxItems: 4, items: {$ref: "#/components/schemas/Code"}}
        other: {$ref: "#/components/schemas/Code"}
        id: {type: string, format: uuid, maxLength: 36}
        at: {type: string, format: date-time, pattern: "^2"}
"##;
    // The limits a date-time and a UUID cannot have are warned about: a lenient run.
    let generated = apigen::generate(text, &Config { strict: false, ..config() }).unwrap();
    let api = lowered(text).unwrap();
    let TypeDef::Struct(holder) = ty(&api, "Holder") else { panic!() };
    let field = |wire: &str| &holder.fields.iter().find(|f| f.wire == wire).unwrap().constraints;
    assert_eq!((field("code").max_length, field("code").pattern.as_deref()), (Some(3), Some("^[A-Z]+$")));
    assert_eq!(field("other"), field("code"));
    assert_eq!(field("codes").max_items, Some(4));
    assert_eq!(field("codes").items.as_ref().unwrap().max_length, Some(3));
    assert!(field("id").is_empty() && field("at").is_empty());
    let warnings: Vec<String> = generated.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(
        warnings[0].contains("properties/at/pattern (line 15)") && warnings[0].contains("not checked"),
        "{warnings:#?}"
    );
    assert!(warnings[1].contains("properties/id/maxLength (line 14)"), "{warnings:#?}");
}

const REPEATED: &str = r##"
openapi: 3.0.3
info: { title: t, version: "1" }
tags: [{ name: a }, { name: b }]
paths:
  /a:
    get:
      operationId: getA
      tags: [a]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [owner]
                properties:
                  owner: { type: object, required: [login], properties: { login: { type: string } } }
                  next: { $ref: "#/components/schemas/Node" }
  /b:
    get:
      operationId: getB
      tags: [b]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [owner]
                properties:
                  owner:
                    description: described differently, the same on the wire
                    type: object
                    required: [login]
                    properties: { login: { type: string, description: the login } }
                  next: { $ref: "#/components/schemas/Copy" }
  /c:
    get:
      operationId: getC
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: object, properties: { owner: { type: object, properties: { login: { type: integer } } } } }
components:
  schemas:
    User: { type: object, required: [login], properties: { login: { type: string } } }
    Node: { type: object, properties: { next: { $ref: "#/components/schemas/Node" } } }
    Copy: { type: object, properties: { next: { $ref: "#/components/schemas/Copy" } } }
    Unused: { type: object, properties: { user: { $ref: "#/components/schemas/User" }, size: { type: integer } } }
"##;

#[test]
fn types_of_the_same_structure_become_one_and_the_other_names_stay_as_aliases() {
    let api = lower(&load(REPEATED).unwrap().doc, &Config { tag_features: true, ..config() }).unwrap();
    let alias_of = |name: &str| match ty(&api, name) {
        TypeDef::Alias { target, merged: true, .. } => target.clone(),
        other => panic!("{name} is not a merged alias: {other:?}"),
    };
    // The inline owners are the component `User`, which keeps its name: descriptions do not count.
    assert!(matches!(ty(&api, "User"), TypeDef::Struct(_)));
    assert_eq!(alias_of("GetAReplyOwner"), named(&api, "User"));
    assert_eq!(alias_of("GetBReplyOwner"), named(&api, "User"));
    // Recursive copies merge; of two component names as long, the first in name order is kept.
    assert_eq!(alias_of("Node"), named(&api, "Copy"));
    // The replies are the same in turn, and every reference points at the kept type.
    assert_eq!(alias_of("GetBReply"), named(&api, "GetAReply"));
    let TypeDef::Struct(reply) = ty(&api, "GetAReply") else { panic!("a struct") };
    assert_eq!(reply.fields[0].ty, named(&api, "User"));
    assert_eq!(reply.fields[1].ty, named(&api, "Copy"));
    // A field of another type keeps a copy apart.
    assert!(matches!(ty(&api, "GetCReplyOwner"), TypeDef::Struct(_)));
    // A merged name is compiled with what it names; `User` is reached by both tags and by the
    // schema no operation uses, so by any of their features.
    let tags = api.tag_features.as_ref().unwrap();
    assert_eq!(tags.of_type(id(&api, "GetBReplyOwner")), tags.of_type(id(&api, "User")));
    assert_eq!(tags.of_type(id(&api, "User")), ["a", "b", "unused-schemas"]);
    assert_eq!(tags.of_type(id(&api, "Unused")), ["unused-schemas"]);
}

/// An integer schema that allows values past 64 bits is read as `i64`, which refuses them: one
/// warning says so, where the first is and how many there are; bounds or a format that keep the
/// values within 64 bits need none.
#[test]
fn integers_that_may_pass_64_bits_are_read_as_i64_with_one_warning() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Counts:
      type: object
      properties:
        a: {type: integer}
        b: {type: integer, minimum: 0}
        c: {type: integer, format: uint64}
        d: {type: integer, minimum: -5, maximum: 5}
        e: {type: integer, format: int32}
        f: {type: integer, format: uint32}
        g: {type: integer, format: int64}
"##;
    let api = lowered(text).unwrap();
    let said: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        said,
        [
            "#/components/schemas/Counts/properties/a: an integer without `format` or bounds is read as a 64-bit integer (`i64`) (here and in 2 other places), as Rust generators do: a larger value, which the schema allows, is refused; `format: int64` says so exactly"
        ]
    );
    let TypeDef::Struct(counts) = ty(&api, "Counts") else { panic!("a struct") };
    assert!(counts.fields.iter().all(|f| matches!(f.ty, TypeRef::I64 | TypeRef::I32)));
}

/// Lists of the same items that only their limits tell apart are one JSON value, which servers
/// check against the whole choice: a reader would take the first list and refuse a value of the
/// second by the first's limits.
#[test]
fn lists_told_apart_only_by_their_limits_are_checked_as_a_whole() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Input:
      oneOf:
        - {type: string}
        - {type: array, items: {type: string}, minItems: 1, maxItems: 1}
        - {type: array, items: {type: string}, minItems: 2, maxItems: 2}
    Batch:
      oneOf:
        - {type: array, items: {type: string}, minItems: 2}
        - {type: array, items: {type: array, items: {type: string}}}
    Plain:
      oneOf:
        - {type: array, items: {type: string}}
        - {type: array, items: {type: array, items: {type: string}}}
"##;
    let api = lowered(text).unwrap();
    assert!(matches!(ty(&api, "Input"), TypeDef::Alias { target: TypeRef::Json, check: Some(_), .. }));
    // An empty list reads as either member: only the first's limit could say it is the second.
    assert!(matches!(ty(&api, "Batch"), TypeDef::Alias { target: TypeRef::Json, check: Some(_), .. }));
    assert!(matches!(ty(&api, "Plain"), TypeDef::Union(_)), "lists of other items, without limits");
    assert!(
        api.warnings[0].message.contains("told apart only by their items' types and their limits"),
        "{:?}",
        api.warnings
    );
}

/// The schemas a server reads XML bodies by, and checks values held as JSON against, are the ones
/// the document gives wherever they are written: through a shared request body too.
#[test]
fn xml_and_check_schemas_are_found_through_references() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets:
    post:
      operationId: addPet
      parameters:
        - $ref: "#/components/parameters/Tag"
      requestBody: {$ref: "#/components/requestBodies/Pet"}
      responses:
        "204": {description: ok}
components:
  parameters:
    Tag:
      name: tag
      in: query
      content: {application/json: {schema: {not: {type: string}}}}
  requestBodies:
    Pet:
      content:
        application/json: {schema: {$ref: "#/components/schemas/Pet"}}
        application/xml: {schema: {$ref: "#/components/schemas/Pet"}}
  schemas:
    Pet:
      type: object
      xml: {name: pet}
      properties:
        id: {type: integer, format: int64, xml: {attribute: true}}
"##;
    let api = lower(&load(text).unwrap().doc, &Config { strict: false, ..config() }).unwrap();
    let bundle = &api.schema_checks.as_ref().expect("a check and an XML body").0;
    assert_eq!(bundle["xml"][0], serde_json::json!({"$ref": "#/components/schemas/Pet"}));
    assert_eq!(bundle["checks"][0], serde_json::json!({"not": {"type": "string"}}));
    let pet = &bundle["components"]["schemas"]["Pet"];
    assert_eq!(pet["properties"]["id"]["xml"], serde_json::json!({"attribute": true}), "{pet}");
    assert!(api.warnings.iter().all(|w| !w.message.contains("cannot be found")), "{:?}", api.warnings);
}

#[test]
fn an_alias_inside_an_all_of_is_what_it_names_and_a_loop_through_one_is_any_value() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Base: {type: object, properties: {id: {type: string}}}
    BaseAlias: {$ref: "#/components/schemas/Base"}
    Full: {allOf: [{$ref: "#/components/schemas/BaseAlias"}, {type: object, properties: {name: {type: string}}}]}
"##;
    let api = lowered(text).unwrap();
    let TypeDef::Struct(full) = ty(&api, "Full") else { panic!("a struct") };
    assert_eq!(full.fields.iter().map(|f| f.wire.as_str()).collect::<Vec<_>>(), ["id", "name"]);
    let looped = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    A: {allOf: [{$ref: "#/components/schemas/B"}, {type: object, properties: {x: {type: string}}}]}
    B: {$ref: "#/components/schemas/A"}
"##;
    // A value that must be itself and more has no type: any JSON value, said where.
    let api = lowered(looped).unwrap();
    assert!(api.warnings.iter().any(|d| d.message.contains("within itself")), "{:?}", api.warnings);
    assert!(matches!(ty(&api, "A"), TypeDef::Alias { target: TypeRef::Json, .. }));
}

#[test]
fn keywords_of_several_types_without_a_type_are_any_value_with_a_warning() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  inputs: {type: object, additionalProperties: {format: any}}
                  size: {minimum: 0, format: int64x}
"##;
    let api = lowered(text).unwrap();
    assert_eq!(api.operations.len(), 1, "the operation is kept");
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert!(
        notes.iter().any(|n| n.contains("/inputs/additionalProperties: without `type`, `format` could belong to several types")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("/size: without `type`")), "{notes:?}");
}

#[test]
fn a_default_its_own_schema_refuses_is_ignored_with_a_warning() {
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Flags:
      type: object
      properties:
        flags: {type: array, items: {type: string}, minItems: 1, default: []}
        level: {type: integer, format: int32, maximum: 5, default: 3}
"#;
    let loaded = load(doc).unwrap();
    let api = lower(&loaded.doc, &Config { strict: false, ..config() }).unwrap();
    let TypeDef::Struct(flags) = ty(&api, "Flags") else { panic!("a struct") };
    let defaults: Vec<bool> = flags.fields.iter().map(|f| f.default.is_some()).collect();
    assert_eq!(defaults, [false, true], "only the default the schema allows is kept");
    let warned: Vec<&str> = api.warnings.iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(warned, ["#/components/schemas/Flags/properties/flags/default"]);
}

#[test]
fn not_is_left_unchecked_with_a_warning_and_the_other_keywords_give_the_type() {
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Anything: {not: {type: string}}
    Word: {type: string, maxLength: 5, not: {enum: [admin]}}
    Holder:
      type: object
      properties:
        word: {$ref: '#/components/schemas/Word'}
        anything: {$ref: '#/components/schemas/Anything'}
"#;
    let api = lowered(doc).unwrap();
    assert!(matches!(ty(&api, "Anything"), TypeDef::Alias { target: TypeRef::Json, .. }));
    assert!(matches!(ty(&api, "Word"), TypeDef::Alias { target: TypeRef::String, .. }));
    let warned: Vec<&str> = api.warnings.iter().map(|d| d.pointer.as_str()).collect();
    assert!(warned.contains(&"#/components/schemas/Anything/not"), "{warned:?}");
    assert!(warned.contains(&"#/components/schemas/Word/not"), "{warned:?}");
}

#[test]
fn required_names_without_a_property_are_required_properties() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Bare: {type: object, required: [id]}
    Counted:
      type: object
      required: [total]
      additionalProperties: {type: integer, format: int64}
    Closed:
      type: object
      required: [gone]
      additionalProperties: false
      properties: {kept: {type: string}}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let field = |name: &str, wire: &str| match ty(&api, name) {
        TypeDef::Struct(s) => s.fields.iter().find(|f| f.wire == wire).cloned(),
        other => panic!("{name} is not a struct: {other:?}"),
    };
    // Without properties, the value is still an object that must carry `id`.
    let id = field("Bare", "id").expect("a field for `id`");
    assert!(id.required && id.ty == TypeRef::Json, "{id:?}");
    // The required name holds what `additionalProperties` allows.
    let total = field("Counted", "total").expect("a field for `total`");
    assert!(total.required && total.ty == TypeRef::I64, "{total:?}");
    // A closed object cannot carry it: nothing is added, and the warning says why.
    assert!(field("Closed", "gone").is_none());
    let messages: Vec<&str> = api.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("no value can satisfy both")), "{messages:?}");
}

#[test]
fn a_value_that_is_always_null_is_read_looser_with_a_warning_in_every_version_and_sampled_as_null() {
    for (version, schema, key) in
        [("3.1.0", "{type: 'null'}", "type"), ("3.0.3", "{enum: [null]}", "enum"), ("3.1.0", "{enum: [null]}", "enum")]
    {
        let text = format!(
            "openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
             Member: {{type: object, required: [avatar], properties: {{avatar: {schema}}}}}\n"
        );
        let loaded = load(&text).unwrap();
        let api = lower(&loaded.doc, &Config { strict: false, ..config() }).unwrap();
        let warned = loaded.notes.iter().chain(&api.warnings).any(|w| {
            w.pointer == format!("#/components/schemas/Member/properties/avatar/{key}")
                && w.message.contains("always null")
        });
        assert!(warned, "{version} {schema}: {:?} {:?}", loaded.notes, api.warnings);
        let doc = serde_json::to_value(&loaded.doc).unwrap();
        let schemas = apigen::sample::Schemas::of(&loaded.doc);
        let member = serde_json::json!({"$ref": "#/components/schemas/Member"});
        let options = apigen::sample::Options { seed: 1, full: true };
        let value = apigen::sample::sample(&schemas, &member, options).unwrap();
        assert_eq!(value, serde_json::json!({"avatar": null}), "{version} {schema} in {doc}");
    }
}

#[test]
fn bounds_of_a_32_bit_float_are_compared_as_f32() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Backup:
      type: object
      properties:
        quota: {type: number, format: float, minimum: 0, maximum: 9999999999}
        ratio: {type: number, format: float, maximum: 0.1}
        huge: {type: number, format: float, maximum: 1.0e300}
        exact: {type: number, maximum: 9999999999}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let TypeDef::Struct(backup) = ty(&api, "Backup") else { panic!("a struct") };
    let maximum = |name: &str| backup.fields.iter().find(|f| f.wire == name).and_then(|f| f.constraints.maximum);
    // 9999999998 reads as the f32 10000000000: compared with the bound as written, a valid
    // value would be refused.
    assert_eq!(maximum("quota"), Some(10_000_000_000.0));
    assert_eq!(maximum("ratio"), Some(f64::from(0.1_f32)));
    assert_eq!((maximum("huge"), maximum("exact")), (Some(1.0e300), Some(9_999_999_999.0)));
    let notes: Vec<&str> = api.warnings.iter().map(|d| d.message.as_str()).collect();
    assert!(
        notes.contains(&"`maximum: 9999999999` is compared as the nearest 32-bit float (`format: float`), 10000000000"),
        "{notes:?}"
    );
}

#[test]
fn a_propertys_example_is_shown_in_its_docs() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Pet:
      type: object
      properties:
        name: {type: string, description: What it answers to., example: Tom}
        tags:
          type: array
          items: {type: string}
          example: [indoor, "a long tag that makes the example too long", "for one line of the docs"]
        plain: {type: integer}
"##;
    let api = lowered(text).unwrap();
    let Some(TypeDef::Struct(pet)) = api.types.iter().find(|t| t.name() == "Pet") else { panic!("no Pet") };
    let doc = |name: &str| pet.fields.iter().find(|f| f.name == name).unwrap().doc.clone();
    assert_eq!(doc("name").as_deref(), Some("What it answers to.\n\nExample: `\"Tom\"`."));
    let tags = doc("tags").unwrap();
    assert!(tags.starts_with("Example:\n\n```json\n[\n  \"indoor\","), "{tags}");
    assert_eq!(doc("plain"), None);
}
