//! Tests of the repairs, each on a document as public ones write it.

use serde_json::{Value, json};

use crate::diagnostic::Diagnostic;
use crate::front::markers::CONTRADICTED;

/// The repairs of a document that has the `info` every document needs, which these tests'
/// documents leave out to stay short.
pub(super) fn repair(doc: &mut Value) -> Vec<Diagnostic> {
    if let Value::Object(root) = doc {
        root.entry("info").or_insert_with(|| json!({"title": "t", "version": "1"}));
    }
    super::repair(doc)
}

#[test]
fn a_missing_info_field_is_assumed_and_a_number_read_as_its_text() {
    let mut doc = json!({"openapi": "3.0.0", "info": {"version": 0.1}, "paths": {}});
    let notes = super::repair(&mut doc);
    assert_eq!(doc["info"], json!({"version": "0.1", "title": "Untitled API"}));
    let said: Vec<(&str, &str)> = notes.iter().map(|n| (n.pointer.as_str(), n.message.as_str())).collect();
    assert!(said.iter().any(|(at, m)| *at == "#/info/version" && m.contains("read as the text `0.1`")), "{said:?}");
    assert!(said.iter().any(|(at, m)| *at == "#/info/title" && m.contains("no `info.title`")), "{said:?}");
}

#[test]
fn a_component_named_schema_is_referred_to_as_itself() {
    let mut doc = json!({"openapi": "3.0.0", "paths": {"/a": {"get": {
        "parameters": [{"$ref": "#/components/parameters/schema"}],
        "responses": {"204": {"description": "ok"}}
    }}}, "components": {"parameters": {"schema": {"name": "schema", "in": "query", "schema": {"type": "string"}}}}});
    let notes = repair(&mut doc);
    assert_eq!(doc["paths"]["/a"]["get"]["parameters"][0]["$ref"], "#/components/parameters/schema");
    assert!(doc.pointer("/components/schemas").is_none(), "nothing lifted: {notes:?}");
}

#[test]
fn empty_lists_where_maps_belong_are_empty_maps() {
    let mut doc = json!({"openapi": "3.0.0", "paths": {"/a.json": {"get": {
        "parameters": [],
        "responses": {"200": {"description": "ok", "headers": []}, "201": []}
    }}}, "components": {"schemas": {"Empty": {"type": "object", "properties": []}}}});
    let notes = repair(&mut doc);
    let op = &doc["paths"]["/a.json"]["get"];
    assert_eq!(op["parameters"], json!([]), "an operation's parameters are a list");
    assert_eq!((&op["responses"]["200"]["headers"], &op["responses"]["201"]["description"]), (&json!({}), &json!("")));
    assert_eq!(doc["components"]["schemas"]["Empty"]["properties"], json!({}));
    let said: Vec<&str> = notes.iter().map(|n| n.pointer.as_str()).collect();
    assert!(said.contains(&"#/paths/~1a.json/get/responses/201"), "{said:?}");
}

#[test]
fn form_parameters_in_an_openapi_3_operation_are_its_form_body() {
    let mut doc = json!({"openapi": "3.0.0", "paths": {"/upload": {"post": {"parameters": [
        {"name": "id", "in": "query", "schema": {"type": "string"}},
        {"name": "note", "in": "formData", "type": "string", "required": true, "description": "Why."},
        {"name": "file", "in": "formData", "type": "file"}
    ], "responses": {"204": {"description": "ok"}}}}}});
    let notes = repair(&mut doc);
    let op = &doc["paths"]["/upload"]["post"];
    assert_eq!(op["parameters"].as_array().map(Vec::len), Some(1), "the query parameter stays");
    let schema = &op["requestBody"]["content"]["multipart/form-data"]["schema"];
    assert_eq!(schema["required"], json!(["note"]));
    assert_eq!(schema["properties"]["note"], json!({"type": "string", "description": "Why."}));
    assert_eq!(schema["properties"]["file"], json!({"type": "string", "format": "binary"}));
    assert!(notes.iter().any(|n| n.message.starts_with("form parameters are Swagger 2.0's")), "{notes:?}");
}

#[test]
fn examples_written_as_a_list_or_a_bare_value_are_named_examples() {
    let mut doc = json!({"openapi": "3.0.0", "paths": {"/a": {"post": {
        "requestBody": {"content": {"application/json": {"schema": {"type": "array"}, "examples": [[1], [2]]}}},
        "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}, "examples": {"one": "x"}}],
        "responses": {"200": {"description": "ok", "content": {"text/plain": {"examples": "hello"}}}}
    }}}});
    let notes = repair(&mut doc);
    let op = &doc["paths"]["/a"]["post"];
    let media = &op["requestBody"]["content"]["application/json"];
    assert_eq!(media["examples"], json!({"example1": {"value": [1]}, "example2": {"value": [2]}}));
    assert_eq!(op["parameters"][0]["examples"], json!({"one": {"value": "x"}}));
    let reply = &op["responses"]["200"]["content"]["text/plain"];
    assert_eq!((reply.get("examples"), &reply["example"]), (None, &json!("hello")));
    assert_eq!(notes.len(), 3, "{notes:?}");
}

#[test]
fn nullable_beside_a_reference_is_the_reference_or_null() {
    let (schema, notes) = repaired(json!({"properties": {
        "a": {"$ref": "#/components/schemas/Y", "nullable": true, "description": "Kept."},
        "b": {"$ref": "#/components/schemas/Y", "nullable": false}
    }}));
    let a = json!({"allOf": [{"$ref": "#/components/schemas/Y"}], "nullable": true, "description": "Kept."});
    assert_eq!(schema["properties"]["a"], a);
    assert_eq!(schema["properties"]["b"]["$ref"], "#/components/schemas/Y", "not nullable: as written");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("#/components/schemas/X/properties/a/nullable: "), "{notes:?}");
}

fn repaired(schema: serde_json::Value) -> (serde_json::Value, Vec<String>) {
    let mut doc =
        json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "components": {"schemas": {"X": schema}}});
    let notes = repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    (doc["components"]["schemas"]["X"].clone(), notes)
}

#[test]
fn a_style_that_does_not_apply_where_a_parameter_is_becomes_that_places_own() {
    let mut doc = json!({
        "openapi": "3.0.3",
        "paths": {"/a/{id}": {"get": {"parameters": [
            {"name": "ids", "in": "query", "style": "simple", "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "X-Tags", "in": "header", "style": "form", "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "id", "in": "path", "required": true, "style": "label", "schema": {"type": "string"}},
            {"name": "keep", "in": "query", "style": "simple", "explode": true, "schema": {"type": "string"}}
        ], "responses": {}}}}
    });
    let notes: Vec<String> = repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    let params = &doc["paths"]["/a/{id}"]["get"]["parameters"];
    // `simple` writes one comma-separated list: `form` without exploding.
    assert_eq!((&params[0]["style"], &params[0]["explode"]), (&json!("form"), &json!(false)));
    assert_eq!((&params[1]["style"], &params[1]["explode"]), (&json!("simple"), &json!(true)));
    assert_eq!((&params[2]["style"], params[2].get("explode")), (&json!("label"), None));
    assert_eq!(params[3]["explode"], json!(true), "an explode the document gives is kept");
    assert_eq!(
        notes,
        [
            "#/paths/~1a~1{id}/get/parameters/0/style: `style: simple` does not apply to a query parameter; read as `form`",
            "#/paths/~1a~1{id}/get/parameters/1/style: `style: form` does not apply to a header parameter; read as `simple`",
            "#/paths/~1a~1{id}/get/parameters/3/style: `style: simple` does not apply to a query parameter; read as `form`",
        ]
    );
}

#[test]
fn a_requirement_naming_an_undeclared_scheme_is_read_without_it() {
    let mut doc = json!({
        "openapi": "3.0.3",
        "paths": {"/a": {"get": {"security": [{"key": [], "ghost": []}], "responses": {}}}},
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}}
    });
    let notes: Vec<String> = repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(doc["paths"]["/a"]["get"]["security"], json!([{"key": []}]));
    assert_eq!(
        notes,
        [
            "#/paths/~1a/get/security/0/ghost: security scheme `ghost` is not declared in #/components/securitySchemes; the requirement is read without it"
        ]
    );
}

#[test]
fn an_oauth2_flow_without_its_urls_gets_empty_ones() {
    let mut doc = json!({
        "openapi": "3.0.3", "paths": {},
        "components": {"securitySchemes": {"o": {"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "https://a/authorize"}}}}}
    });
    let notes: Vec<String> = repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    let flow = &doc["components"]["securitySchemes"]["o"]["flows"]["authorizationCode"];
    assert_eq!(flow, &json!({"authorizationUrl": "https://a/authorize", "tokenUrl": "", "scopes": {}}));
    assert_eq!(
        notes,
        [
            "#/components/securitySchemes/o/flows/authorizationCode: the flow has no `tokenUrl`; an empty one is assumed",
            "#/components/securitySchemes/o/flows/authorizationCode: the flow has no `scopes`; none is assumed",
        ]
    );
}

#[test]
fn a_reply_without_a_description_gets_an_empty_one() {
    let mut doc = json!({
        "openapi": "3.0.3",
        "paths": {"/a": {"post": {"responses": {"201": {"content": {}}, "400": {"$ref": "#/components/responses/Bad"}}}}},
        "components": {"responses": {"Bad": {"description": "bad"}, "Gone": {}}}
    });
    let notes: Vec<String> = repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(doc["paths"]["/a"]["post"]["responses"]["201"]["description"], "");
    assert_eq!(doc["components"]["responses"]["Gone"]["description"], "");
    assert_eq!(
        notes,
        [
            "#/paths/~1a/post/responses/201: the reply has no `description`; an empty one is assumed",
            "#/components/responses/Gone: the reply has no `description`; an empty one is assumed",
        ]
    );
}

#[test]
fn counts_written_as_floats_become_whole_numbers_and_only_fractions_are_noted() {
    let (schema, notes) = repaired(json!({"type": "string", "minLength": 1.5, "maxLength": 10.0, "maxItems": -1}));
    assert_eq!(schema, json!({"type": "string", "minLength": 2, "maxLength": 10}));
    assert_eq!(
        notes,
        [
            "#/components/schemas/X/minLength: `minLength: 1.5` is not a whole number; read as 2",
            "#/components/schemas/X/maxItems: `maxItems: -1` is not a count of zero or more and is ignored",
        ]
    );
}

#[test]
fn integer_bounds_beyond_64_bits_are_clamped_or_dropped() {
    let (schema, notes) = repaired(json!({
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": -9223372036854776000.0, "maximum": 9223372036854776000.0}}
    }));
    assert_eq!(schema["properties"]["n"], json!({"type": "integer", "minimum": i64::MIN}));
    // The minimum is exactly -2^63 written as a float, so it is read without a word.
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("#/components/schemas/X/properties/n/maximum: "), "{notes:?}");
}

#[test]
fn enum_values_take_the_schema_type() {
    let (schema, notes) = repaired(json!({"type": "string", "enum": ["Y", "N", true, false]}));
    assert_eq!(schema["enum"], json!(["Y", "N", "true", "false"]));
    assert_eq!(notes.len(), 1);
    // `null` beside `nullable: true` is how OpenAPI 3.0.3 writes a nullable enum: no note.
    let (schema, notes) = repaired(json!({"type": "string", "nullable": true, "enum": ["a", null]}));
    assert_eq!((schema["enum"].clone(), notes.len()), (json!(["a"]), 0));
    let (schema, notes) = repaired(json!({"type": "string", "enum": ["a", null]}));
    assert_eq!((schema["enum"].clone(), schema["nullable"].clone(), notes.len()), (json!(["a"]), json!(true), 1));
    // Without `null` among them, the values are all there is, `nullable` notwithstanding.
    let (schema, notes) = repaired(json!({"type": "string", "nullable": true, "enum": ["a", "b"]}));
    assert_eq!((schema.get("nullable"), notes.len()), (None, 1));
    let (schema, _) = repaired(json!({"type": "integer", "enum": [1, "2", 3.0, "three"]}));
    assert_eq!(schema["enum"], json!([1, 2, 3]));
    assert!(schema.get(CONTRADICTED).is_none(), "`1` is allowed as written");
}

#[test]
fn an_untyped_parameter_choosing_between_number_ranges_allows_no_text_as_written() {
    let narrowing = json!({"oneOf": [{"minimum": 0, "maximum": 10}, {"minimum": 100, "maximum": 100}]});
    let mut doc = json!({
        "paths": {"/cats": {"get": {"parameters": [{"name": "limit", "in": "query", "schema": narrowing}]}}},
        "components": {"schemas": {"Limit": narrowing}}
    });
    let notes = repair(&mut doc);
    let parameter = &doc["paths"]["/cats"]["get"]["parameters"][0]["schema"];
    assert_eq!(parameter["type"], "integer");
    assert!(parameter[CONTRADICTED].as_str().is_some_and(|why| why.contains("allows no value")), "{parameter}");
    assert!(notes.iter().any(|n| n.message.contains("as written the `oneOf` allows no value")), "{notes:?}");
    // In a JSON body the number arrives as a number, which only one member allows.
    let body = &doc["components"]["schemas"]["Limit"];
    assert_eq!((body["type"].clone(), body.get(CONTRADICTED)), (json!("integer"), None));
}

#[test]
fn an_enum_its_type_refuses_entirely_is_marked_and_read_by_its_values() {
    // Strings under `type: object` (a description added the wrong way): the values say the type.
    let (schema, notes) = repaired(json!({"type": "object", "enum": ["A", "B"]}));
    assert_eq!((schema["type"].clone(), schema["enum"].clone()), (json!("string"), json!(["A", "B"])));
    assert!(notes[0].contains("allows no value") && notes[0].contains("`type: string`"), "{notes:?}");
    assert!(schema[CONTRADICTED].as_str().is_some_and(|why| why.contains("allows none")));
    // Values that convert keep the type, still marked: none is allowed as written.
    let (schema, _) = repaired(json!({"type": "integer", "enum": ["1", "2"]}));
    assert_eq!((schema["type"].clone(), schema["enum"].clone()), (json!("integer"), json!([1, 2])));
    assert!(schema.get(CONTRADICTED).is_some());
    // Values of no one type: dropped, leaving the type.
    let (schema, _) = repaired(json!({"type": "object", "enum": ["A", 1]}));
    assert!(schema.get("enum").is_none() && schema.get(CONTRADICTED).is_some());
    assert_eq!(schema["type"], "object");
}

#[test]
fn lists_of_item_schemas_and_null_members_are_read_as_nullable_unions() {
    let (schema, notes) = repaired(json!({
        "type": "array", "items": [{"$ref": "#/components/schemas/A"}, {"type": "null"}]
    }));
    assert_eq!(schema["items"], json!({"anyOf": [{"$ref": "#/components/schemas/A"}], "nullable": true}));
    assert_eq!(notes.len(), 2, "{notes:?}");
    let (schema, _) = repaired(json!({"type": "array", "items": [{"type": "string"}]}));
    assert_eq!(schema["items"], json!({"type": "string"}));
}

#[test]
fn type_lists_become_a_type_and_nullable() {
    let (schema, notes) = repaired(json!({"type": ["null", "string"], "format": "email"}));
    assert_eq!(schema, json!({"type": "string", "format": "email", "nullable": true}));
    assert_eq!(
        notes,
        ["#/components/schemas/X/type: `type` is a list (null, string); read as `type: string`, nullable"]
    );
    let (schema, _) = repaired(json!({"type": ["integer", "string"]}));
    assert_eq!(schema, json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}));
    // Each type's own keywords go with its member, where they are checked.
    let (schema, _) = repaired(json!({
        "type": ["integer", "string", "array"], "description": "Many.", "format": "int64", "minimum": 0,
        "exclusiveMaximum": 10, "maxLength": 3, "items": {"type": "integer"}
    }));
    assert_eq!(
        schema,
        json!({"description": "Many.", "anyOf": [
            {"type": "integer", "minimum": 0, "maximum": 10, "exclusiveMaximum": true, "format": "int64"},
            {"type": "string", "maxLength": 3},
            {"type": "array", "items": {"type": "integer"}}
        ]})
    );
}

#[test]
fn an_all_of_of_plain_schemas_is_one_schema() {
    let mut doc = json!({"components": {"schemas": {
        "Short": {"type": "string", "maxLength": 5},
        "X": {"description": "Both.", "allOf": [{"$ref": "#/components/schemas/Short"}, {"maxLength": 3, "minLength": 1}]},
        "Obj": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"maxLength": 3}]}
    }}});
    let notes = repair(&mut doc);
    assert_eq!(
        doc["components"]["schemas"]["X"],
        json!({"description": "Both.", "type": "string", "maxLength": 3, "minLength": 1})
    );
    assert!(doc["components"]["schemas"]["Obj"]["allOf"].is_array(), "objects are merged by lowering");
    assert_eq!(notes.len(), 1, "{notes:?}");
}

#[test]
fn annotation_members_of_an_all_of_annotate_it() {
    let mut doc = json!({"components": {"schemas": {
        "X": {"allOf": [{"$ref": "#/components/schemas/Y"}, {"nullable": true, "description": "Why."}]},
        "Y": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    }}});
    let notes = repair(&mut doc);
    assert_eq!(
        doc["components"]["schemas"]["X"],
        json!({"allOf": [{"$ref": "#/components/schemas/Y"}], "nullable": true, "description": "Why."})
    );
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn enum_lists_in_an_all_of_meet_or_else_join_with_a_warning() {
    let mut doc = json!({"components": {"schemas": {
        "Kind": {"type": "string", "enum": ["host", "subnet", "domain"], "x-enum-varnames": ["H", "S", "D"]},
        "Meet": {"allOf": [{"$ref": "#/components/schemas/Kind"}, {"enum": ["subnet", "host", "peer"]}]},
        "Join": {"allOf": [{"$ref": "#/components/schemas/Kind"}, {"type": "string", "enum": ["peer"]}]}
    }}});
    let notes = repair(&mut doc);
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["Meet"], json!({"type": "string", "enum": ["host", "subnet"]}));
    let join =
        json!({"type": "string", "enum": ["host", "subnet", "domain", "peer"], (CONTRADICTED): notes[1].message});
    assert_eq!(schemas["Join"], join);
    assert!(notes[1].message.contains("share no value"), "{notes:?}");
    assert_eq!(notes[1].pointer, "#/components/schemas/Join/allOf");
}

#[test]
fn references_into_part_of_a_schema_name_a_schema_of_its_own() {
    let mut doc = json!({"components": {"schemas": {
        "Tag": {"allOf": [{"type": "object", "properties": {"id": {"type": "integer"}}}, {"$ref": "#/components/schemas/Named"}]},
        "Named": {"type": "object", "properties": {"name": {"type": "string"}}},
        "X": {"type": "object", "properties": {"t": {"$ref": "#/components/schemas/Tag/allOf/0"}}}
    }}});
    let notes = repair(&mut doc);
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["X"]["properties"]["t"], json!({"$ref": "#/components/schemas/Tag_allOf_0"}));
    assert_eq!(schemas["Tag_allOf_0"], schemas["Tag"]["allOf"][0]);
    assert_eq!(notes.len(), 1, "{notes:?}");
}

#[test]
fn null_scopes_are_none() {
    let mut doc = json!({
        "paths": {"/a": {"post": {"security": [{"oauth2": null}]}}},
        "components": {"securitySchemes": {"oauth2": {"type": "oauth2", "flows": {}}}}
    });
    let notes = repair(&mut doc);
    assert_eq!(doc["paths"]["/a"]["post"]["security"], json!([{"oauth2": []}]));
    assert_eq!(notes[0].pointer, "#/paths/~1a/post/security/0/oauth2");
}

#[test]
fn extra_enum_names_and_numeric_exclusive_bounds() {
    let (schema, notes) = repaired(json!({
        "type": "integer", "enum": [1, 2], "x-enum-varnames": ["One", "Two", "Three"], "exclusiveMinimum": 0
    }));
    assert_eq!(schema["x-enum-varnames"], json!(["One", "Two"]));
    assert_eq!((schema["minimum"].clone(), schema["exclusiveMinimum"].clone()), (json!(0), json!(true)));
    assert_eq!(notes.len(), 2, "{notes:?}");
}
