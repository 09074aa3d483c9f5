//! OpenAPI 3.1 and 3.2 documents in the 3.0 model the rest of the generator reads, converted on
//! the parsed JSON value before it is typed, as Swagger 2.0 documents are.
//!
//! What has an exact 3.0 form is converted without a word: `type` lists (with `"null"` as
//! `nullable`), `const`, numeric `exclusiveMinimum`/`exclusiveMaximum`, `null` members of a
//! choice, `$ref` beside other keywords, `contentEncoding`/`contentMediaType` for bytes, a
//! missing `paths`, path items in `components/pathItems`. What has none is dropped or simplified
//! with a located warning, never turned into a wrong type. Pointers stay those of the document as
//! written: everything is converted where it stands.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Diagnostic, Pointer};
use crate::front::markers;
use crate::front::repair::{each_schema_object, json_schema_forms, null_only, rewrite_references};

/// The dialect a 3.1 document's schemas use unless it says otherwise.
const DEFAULT_DIALECT: &str = "https://spec.openapis.org/oas/3.1/dialect/base";

/// Keywords with no 3.0 form that a Rust type cannot say, dropped with a warning.
const DROPPED: &[(&str, &str)] = &[
    ("if", "a conditional schema"),
    ("then", "a conditional schema"),
    ("else", "a conditional schema"),
    ("dependentRequired", "properties required by others"),
    ("dependentSchemas", "schemas that depend on properties"),
    ("unevaluatedProperties", "a limit on unevaluated properties"),
    ("unevaluatedItems", "a limit on unevaluated items"),
    ("contains", "a schema some item must match"),
    ("minContains", "a count of matching items"),
    ("maxContains", "a count of matching items"),
    ("$dynamicRef", "a dynamic reference"),
    ("$dynamicAnchor", "a dynamic anchor"),
];

/// Whether `doc` says it is OpenAPI 3.1 or 3.2.
pub(crate) fn is_openapi31(doc: &Value) -> bool {
    doc.get("openapi").and_then(Value::as_str).is_some_and(|v| v.starts_with("3.1.") || v.starts_with("3.2."))
}

/// Converts `doc` in place to the 3.0 model and says what it could not keep.
pub(crate) fn convert(doc: &mut Value) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    let root = Pointer::root();
    let Some(top) = doc.as_object_mut() else { return notes };
    let mut note = |at: Pointer, message: String| {
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            pointer: at.to_string(),
            line: None,
            message,
        })
    };
    top.insert("openapi".to_string(), Value::from("3.0.3"));
    if let Some(dialect) = top.remove("jsonSchemaDialect")
        && dialect.as_str() != Some(DEFAULT_DIALECT)
    {
        note(
            root.push("jsonSchemaDialect"),
            format!("schemas are read as the OpenAPI dialect of JSON Schema, not {dialect}"),
        );
    }
    top.entry("paths").or_insert_with(|| json!({}));
    if let Some(Value::Object(webhooks)) = top.remove("webhooks") {
        keep_webhook_payloads(top, &webhooks);
    }
    inline_path_items(top, &mut note);
    drop_mutual_tls(top, &mut note);
    for (path, item) in top.get_mut("paths").and_then(Value::as_object_mut).into_iter().flatten() {
        let Value::Object(item) = item else { continue };
        // `responses` is optional from 3.1 on; the 3.0 model requires it. None is read as the
        // operation documenting no reply, which lowering reports as it does for 3.0.
        for (key, operation) in item.iter_mut() {
            const METHODS: [&str; 9] = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];
            if METHODS.contains(&key.as_str())
                && let Some(operation) = operation.as_object_mut()
            {
                operation.entry("responses").or_insert_with(|| json!({}));
            }
        }
        // `query` (3.2's QUERY method) is an operation like the others: the typed model has no
        // slot for it, so loading keeps it under an extension once repaired.
        if item.remove("additionalOperations").is_some() {
            note(
                root.push("paths").push(path).push("additionalOperations"),
                "`additionalOperations` (OpenAPI 3.2) are not generated yet; the path's other operations are"
                    .to_string(),
            );
        }
    }
    recursive_references(doc, &mut notes);
    named_references(doc);
    item_schemas(doc);
    // A nested tag's `parent` (OpenAPI 3.2) has no field in the typed model: kept as an extension.
    let tags = doc.get_mut("tags").and_then(Value::as_array_mut).into_iter().flatten();
    for tag in tags.filter_map(Value::as_object_mut) {
        if let Some(parent) = tag.remove("parent") {
            tag.insert(markers::TAG_PARENT.to_string(), parent);
        }
    }
    each_schema_object(doc, &mut |schema, at| convert_schema(schema, at, &mut notes));
    notes
}

/// `$recursiveRef: "#"` (JSON Schema 2019-09) inside a component schema means that schema: a
/// recursive structure (a filter made of filters). Read as a `$ref` to it.
fn recursive_references(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    fn rewrite(value: &mut Value, target: &str, at: Pointer, notes: &mut Vec<Diagnostic>) {
        match value {
            Value::Object(map) => {
                if map.get("$recursiveRef").and_then(Value::as_str) == Some("#") {
                    map.remove("$recursiveRef");
                    map.insert("$ref".to_string(), Value::from(target));
                    notes.push(Diagnostic {
                        severity: crate::diagnostic::Severity::Warning,
                        pointer: at.push("$recursiveRef").to_string(),
                        line: None,
                        message: format!(
                            "`$recursiveRef: \"#\"` is read as a reference to {target}, the schema it is in"
                        ),
                    });
                }
                for (key, child) in map.iter_mut() {
                    rewrite(child, target, at.push(key), notes);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    rewrite(child, target, at.push(i), notes);
                }
            }
            _ => {}
        }
    }
    let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") else { return };
    for (name, schema) in schemas.iter_mut() {
        let at = Pointer::root().push("components").push("schemas").push(name);
        let target = at.to_string();
        rewrite(schema, &target, at, notes);
    }
}

/// References by a schema's `$id` or by an `$anchor` (`#name`) become JSON pointers to that schema,
/// the only form the rest of the generator follows. Identifiers are matched as written (no base
/// URI resolution), which is how documents use them to name a schema in the same document.
fn named_references(doc: &mut Value) {
    fn collect(value: &Value, at: Pointer, names: &mut Vec<(String, String)>) {
        match value {
            Value::Object(map) => {
                if let Some(id) = map.get("$id").and_then(Value::as_str) {
                    names.push((id.to_string(), at.to_string()));
                }
                if let Some(anchor) = map.get("$anchor").and_then(Value::as_str) {
                    names.push((format!("#{anchor}"), at.to_string()));
                }
                for (key, child) in map {
                    collect(child, at.push(key), names);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    collect(child, at.push(i), names);
                }
            }
            _ => {}
        }
    }
    let mut names = Vec::new();
    collect(doc, Pointer::root(), &mut names);
    if !names.is_empty() {
        let pointer = |reference: &str| {
            let named = !reference.starts_with("#/");
            names.iter().find(|(name, _)| named && name == reference).map(|(_, at)| at.clone())
        };
        rewrite_references(doc, &pointer);
    }
}

/// A media type's `itemSchema` (OpenAPI 3.2) describes each item of a stream (JSON Lines,
/// server-sent events). The 3.0 model has only `schema`, so the item schema takes its place and
/// the media type is marked, for lowering to read it as a stream of such items.
fn item_schemas(doc: &mut Value) {
    match doc {
        Value::Object(map) => {
            if let Some(Value::Object(content)) = map.get_mut("content") {
                for media in content.values_mut() {
                    let Value::Object(media) = media else { continue };
                    if let Some(items) = media.remove("itemSchema") {
                        media.insert("schema".to_string(), items);
                        media.insert(markers::ITEM_SCHEMA.to_string(), Value::Bool(true));
                    }
                }
            }
            map.values_mut().for_each(item_schemas);
        }
        Value::Array(items) => items.iter_mut().for_each(item_schemas),
        _ => {}
    }
}

/// Webhooks are requests the service sends, not operations it serves, so nothing receives them;
/// their payloads become types, as every component schema does: a payload written inline is
/// named after its webhook (`orderShipped` → `OrderShippedPayload`).
fn keep_webhook_payloads(top: &mut Map<String, Value>, webhooks: &Map<String, Value>) {
    let mut payloads = Vec::new();
    for (name, item) in webhooks {
        for op in item.as_object().into_iter().flat_map(|i| i.values()) {
            let content = op.pointer("/requestBody/content").and_then(Value::as_object);
            for media in content.into_iter().flat_map(|c| c.values()) {
                if let Some(schema) = media.get("schema").filter(|s| s.get("$ref").is_none()) {
                    payloads.push((name.clone(), schema.clone()));
                }
            }
        }
    }
    if payloads.is_empty() {
        return;
    }
    let components = top.entry("components").or_insert_with(|| json!({}));
    let Some(components) = components.as_object_mut() else { return };
    let schemas = components.entry("schemas").or_insert_with(|| json!({}));
    let Some(schemas) = schemas.as_object_mut() else { return };
    for (name, schema) in payloads {
        let base: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let base = format!("{base}Payload");
        let mut unique = base.clone();
        let mut n = 2;
        while schemas.contains_key(&unique) {
            unique = format!("{base}{n}");
            n += 1;
        }
        schemas.insert(unique, schema);
    }
}

/// Path items given as a `$ref` into `components/pathItems` are copied where they are used.
fn inline_path_items(top: &mut Map<String, Value>, note: &mut impl FnMut(Pointer, String)) {
    const PREFIX: &str = "#/components/pathItems/";
    let items = top.get_mut("components").and_then(Value::as_object_mut).and_then(|c| c.remove("pathItems"));
    let items = items.and_then(|v| v.as_object().cloned()).unwrap_or_default();
    let Some(Value::Object(paths)) = top.get_mut("paths") else { return };
    for (path, item) in paths.iter_mut() {
        let Some(reference) = item.get("$ref").and_then(Value::as_str).map(str::to_string) else { continue };
        match reference.strip_prefix(PREFIX).and_then(|name| items.get(name)) {
            Some(found) => *item = found.clone(),
            None => note(
                Pointer::root().push("paths").push(path).push("$ref"),
                format!("`{reference}` does not name a path item in #/components/pathItems"),
            ),
        }
    }
}

/// `mutualTLS` security schemes are the transport's business: they are dropped, with every
/// requirement that names them.
fn drop_mutual_tls(top: &mut Map<String, Value>, note: &mut impl FnMut(Pointer, String)) {
    let schemes = top.get_mut("components").and_then(|c| c.get_mut("securitySchemes")).and_then(Value::as_object_mut);
    let Some(schemes) = schemes else { return };
    let mutual: Vec<String> = schemes
        .iter()
        .filter(|(_, s)| s.get("type").and_then(Value::as_str) == Some("mutualTLS"))
        .map(|(name, _)| name.clone())
        .collect();
    for name in &mutual {
        schemes.remove(name);
        note(
            Pointer::root().push("components").push("securitySchemes").push(name),
            "a `mutualTLS` scheme is set up on the HTTP client or server, not in generated code; requirements naming it are left out"
                .to_string(),
        );
    }
    if mutual.is_empty() {
        return;
    }
    // A requirement of mutual TLS alone goes with it: left empty, it would read as "no
    // credentials", an alternative the document does not offer.
    let drop_from = |requirements: &mut Value| {
        if let Value::Array(list) = requirements {
            list.retain_mut(|requirement| {
                let Value::Object(names) = requirement else { return true };
                let before = names.len();
                names.retain(|name, _| !mutual.contains(name));
                before == 0 || !names.is_empty()
            });
        }
    };
    if let Some(security) = top.get_mut("security") {
        drop_from(security);
    }
    for item in top.get_mut("paths").and_then(Value::as_object_mut).into_iter().flat_map(|p| p.values_mut()) {
        for op in item.as_object_mut().into_iter().flat_map(|i| i.values_mut()) {
            if let Some(security) = op.get_mut("security") {
                drop_from(security);
            }
        }
    }
}

/// A `oneOf` or `anyOf` whose members are each one `const` (with a `title` naming it, as
/// code-first tools write an enum) is that enum; the titles name its values when every member
/// has one.
fn const_choice_as_enum(schema: &mut Map<String, Value>) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(members)) = schema.get(key) else { continue };
        let consts: Option<Vec<(&Value, Option<&str>)>> = members
            .iter()
            .map(|m| {
                let m = m.as_object()?;
                let only_named = m.keys().all(|k| matches!(k.as_str(), "const" | "title" | "description"));
                only_named.then(|| Some((m.get("const")?, m.get("title").and_then(Value::as_str))))?
            })
            .collect();
        let Some(consts) = consts.filter(|c| !c.is_empty()) else { continue };
        let values: Vec<Value> = consts.iter().map(|(v, _)| (*v).clone()).collect();
        let titles: Option<Vec<Value>> = consts.iter().map(|(_, t)| t.map(Value::from)).collect();
        if !schema.contains_key("type") {
            let kind = if values.iter().all(Value::is_string) {
                Some("string")
            } else if values.iter().all(|v| v.is_i64() || v.is_u64()) {
                Some("integer")
            } else {
                None
            };
            if let Some(kind) = kind {
                schema.insert("type".to_string(), Value::from(kind));
            }
        }
        schema.remove(key);
        schema.insert("enum".to_string(), Value::Array(values));
        if let Some(titles) = titles.filter(|_| !schema.contains_key("x-enum-varnames")) {
            schema.insert("x-enum-varnames".to_string(), Value::Array(titles));
        }
        return;
    }
}

fn convert_schema(schema: &mut Map<String, Value>, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    let mut note = |key: &str, message: String| {
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            pointer: at.push(key).to_string(),
            line: None,
            message,
        });
    };
    // A `$ref` beside other keywords: both hold, which 3.0 says with an `allOf` of one member.
    if schema.contains_key("$ref") {
        let siblings = schema.keys().any(|k| !matches!(k.as_str(), "$ref" | "summary" | "$comment" | "$schema"));
        if siblings {
            let reference = schema.remove("$ref").unwrap_or_default();
            schema.remove("summary");
            schema.insert("allOf".to_string(), json!([{ "$ref": reference }]));
        } else {
            return;
        }
    }
    for key in ["$schema", "$comment", "$id", "$anchor"] {
        schema.remove(key);
    }
    const_choice_as_enum(schema);
    // A value list beside an `allOf` of references (`enum: [1]` and the named enum it comes
    // from) says the narrower thing itself.
    let refs_only = |members: &Value| {
        members
            .as_array()
            .is_some_and(|m| m.iter().all(|m| m.as_object().is_some_and(|m| m.len() == 1 && m.contains_key("$ref"))))
    };
    if (schema.contains_key("enum") || schema.contains_key("const")) && schema.get("allOf").is_some_and(refs_only) {
        schema.remove("allOf");
    }
    // The forms a 3.0 document writes as slips are plain 3.1: converted without a note.
    json_schema_forms(schema, &mut |_, _| {});
    // Only `null` has no 3.0 form: read looser, which is said.
    null_only(schema, &mut note);
    if let Some(value) = schema.remove("const") {
        if !schema.contains_key("type") {
            let kind = match &value {
                Value::String(_) => Some("string"),
                Value::Bool(_) => Some("boolean"),
                Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
                Value::Number(_) => Some("number"),
                _ => None,
            };
            if let Some(kind) = kind {
                schema.insert("type".to_string(), Value::from(kind));
            }
        }
        schema.insert("enum".to_string(), Value::Array(vec![value]));
    }
    if let Some(examples) = schema.remove("examples")
        && !schema.contains_key("example")
        && let Some(first) = examples.as_array().and_then(|e| e.first())
    {
        schema.insert("example".to_string(), first.clone());
    }
    let encoding = schema.remove("contentEncoding");
    let media = schema.remove("contentMediaType");
    if schema.get("type").and_then(Value::as_str) == Some("string") && !schema.contains_key("format") {
        match (encoding.as_ref().and_then(Value::as_str), media.as_ref().and_then(Value::as_str)) {
            (Some("base64"), _) => {
                schema.insert("format".to_string(), Value::from("byte"));
            }
            (None, Some(media)) if !media.starts_with("text/") && !media.contains("json") => {
                schema.insert("format".to_string(), Value::from("binary"));
            }
            _ => {}
        }
    }
    if let Some(Value::Array(tuple)) = schema.remove("prefixItems") {
        let rest = schema.remove("items");
        let mut members = tuple;
        if let Some(rest) = rest.filter(|r| *r != Value::Bool(false)) {
            members.push(rest);
        }
        members.dedup();
        let items = match members.len() {
            0 => json!({}),
            1 => members.remove(0),
            _ => json!({ "anyOf": members }),
        };
        note("prefixItems", "a tuple is read as a list whose items may be any of its member schemas".to_string());
        schema.insert("items".to_string(), items);
    }
    match schema.get("items") {
        Some(Value::Bool(true)) => {
            schema.insert("items".to_string(), json!({}));
        }
        Some(Value::Bool(false)) => {
            schema.remove("items");
            schema.insert("maxItems".to_string(), Value::from(0));
        }
        _ => {}
    }
    if let Some(Value::Object(patterns)) = schema.remove("patternProperties") {
        let single = (patterns.len() == 1 && !schema.contains_key("additionalProperties"))
            .then(|| patterns.values().next().cloned())
            .flatten();
        match single {
            Some(values) => {
                note(
                    "patternProperties",
                    "read as `additionalProperties` with its schema; property names are not checked against the pattern"
                        .to_string(),
                );
                schema.insert("additionalProperties".to_string(), values);
            }
            None => note(
                "patternProperties",
                "several patterns, or patterns beside `additionalProperties`, have no Rust type; ignored".to_string(),
            ),
        }
    }
    // Kept where the 3.0 model keeps what it does not know, for lowering to check keys against.
    if let Some(names) = schema.remove("propertyNames") {
        schema.insert(markers::PROPERTY_NAMES.to_string(), names);
    }
    for (key, what) in DROPPED {
        if schema.remove(*key).is_some() {
            note(key, format!("`{key}` ({what}) has no Rust type and is not checked"));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::convert;

    fn converted(schema: serde_json::Value) -> (serde_json::Value, Vec<String>) {
        let mut doc = json!({"openapi": "3.1.0", "components": {"schemas": {"X": schema}}});
        let notes = convert(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
        (doc["components"]["schemas"]["X"].clone(), notes)
    }

    #[test]
    fn exact_forms_are_converted_without_a_word() {
        let (x, notes) = converted(json!({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"], "examples": ["x", "y"]},
                "b": {"const": "cat"},
                "c": {"type": "integer", "exclusiveMinimum": 0},
                "d": {"$ref": "#/components/schemas/Y", "description": "Overrides Y's."},
                "e": {"anyOf": [{"$ref": "#/components/schemas/Y"}, {"type": "null"}]},
                "f": {"type": "string", "contentEncoding": "base64"},
                "g": {"type": "string", "contentMediaType": "image/png"},
                "h": {"type": ["string", "integer"]}
            }
        }));
        assert!(notes.is_empty(), "{notes:?}");
        let p = &x["properties"];
        assert_eq!(p["a"], json!({"type": "string", "nullable": true, "example": "x"}));
        assert_eq!(p["b"], json!({"type": "string", "enum": ["cat"]}));
        assert_eq!(p["c"], json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true}));
        assert_eq!(p["d"], json!({"allOf": [{"$ref": "#/components/schemas/Y"}], "description": "Overrides Y's."}));
        assert_eq!(p["e"], json!({"anyOf": [{"$ref": "#/components/schemas/Y"}], "nullable": true}));
        assert_eq!(p["f"], json!({"type": "string", "format": "byte"}));
        assert_eq!(p["g"], json!({"type": "string", "format": "binary"}));
        assert_eq!(p["h"], json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}));
    }

    #[test]
    fn a_choice_of_constants_is_an_enum_named_by_its_titles() {
        let (x, notes) = converted(json!({
            "type": "object",
            "properties": {
                "timeout": {"type": "integer", "oneOf": [{"title": "ONE_MINUTE", "const": 60}, {"title": "ONE_HOUR", "const": 3600}]},
                "kind": {"type": "integer", "enum": [1], "allOf": [{"$ref": "#/components/schemas/Kinds"}]},
                "mode": {"anyOf": [{"const": "a"}, {"const": "b", "description": "The other."}]}
            }
        }));
        assert!(notes.is_empty(), "{notes:?}");
        let p = &x["properties"];
        assert_eq!(
            p["timeout"],
            json!({"type": "integer", "enum": [60, 3600], "x-enum-varnames": ["ONE_MINUTE", "ONE_HOUR"]})
        );
        assert_eq!(p["kind"], json!({"type": "integer", "enum": [1]}));
        assert_eq!(p["mode"], json!({"type": "string", "enum": ["a", "b"]}));
    }

    #[test]
    fn what_a_rust_type_cannot_say_is_dropped_with_a_warning() {
        let (x, notes) = converted(json!({
            "type": "object",
            "properties": {
                "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
                "tags": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}}
            },
            "if": {"required": ["a"]},
            "then": {"required": ["b"]},
            "dependentRequired": {"a": ["b"]},
            "unevaluatedProperties": false
        }));
        assert_eq!(
            x["properties"]["pair"],
            json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}})
        );
        assert_eq!(x["properties"]["tags"], json!({"type": "object", "additionalProperties": {"type": "string"}}));
        assert_eq!(
            notes,
            [
                "#/components/schemas/X/if: `if` (a conditional schema) has no Rust type and is not checked",
                "#/components/schemas/X/then: `then` (a conditional schema) has no Rust type and is not checked",
                "#/components/schemas/X/dependentRequired: `dependentRequired` (properties required by others) has no Rust type and is not checked",
                "#/components/schemas/X/unevaluatedProperties: `unevaluatedProperties` (a limit on unevaluated properties) has no Rust type and is not checked",
                "#/components/schemas/X/properties/pair/prefixItems: a tuple is read as a list whose items may be any of its member schemas",
                "#/components/schemas/X/properties/tags/patternProperties: read as `additionalProperties` with its schema; property names are not checked against the pattern",
            ]
        );
    }

    #[test]
    fn a_recursive_reference_names_the_schema_it_is_in() {
        let mut doc = json!({"openapi": "3.1.0", "components": {"schemas": {"Filter/All": {
            "type": "object",
            "properties": {"filters": {"type": "array", "items": {"oneOf": [{"type": "string"}, {"$recursiveRef": "#"}]}}}
        }}}});
        let notes = convert(&mut doc);
        let member = &doc["components"]["schemas"]["Filter/All"]["properties"]["filters"]["items"]["oneOf"][1];
        assert_eq!(member, &json!({"$ref": "#/components/schemas/Filter~1All"}));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].pointer.ends_with("/oneOf/1/$recursiveRef"), "{notes:?}");
    }

    #[test]
    fn references_by_id_and_anchor_become_pointers() {
        let mut doc = json!({"openapi": "3.1.0", "components": {"schemas": {
            "A": {"$id": "https://example.com/a", "type": "object"},
            "B": {"type": "object", "$defs": {"C": {"$anchor": "c", "type": "string"}}},
            "D": {"type": "object", "properties": {
                "a": {"$ref": "https://example.com/a"}, "c": {"$ref": "#c"}, "e": {"$ref": "#nowhere"}
            }}
        }}});
        convert(&mut doc);
        let d = &doc["components"]["schemas"]["D"]["properties"];
        assert_eq!(d["a"], json!({"$ref": "#/components/schemas/A"}));
        assert_eq!(d["c"], json!({"$ref": "#/components/schemas/B/$defs/C"}));
        assert_eq!(d["e"], json!({"$ref": "#nowhere"}), "what names nothing is left for lowering to report");
    }

    #[test]
    fn the_document_takes_the_3_0_form() {
        let mut doc = json!({
            "openapi": "3.1.0",
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "info": {"title": "t", "version": "1", "summary": "s", "license": {"name": "MIT", "identifier": "MIT"}},
            "webhooks": {"newPet": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {"200": {"description": "ok"}}
            }}},
            "components": {
                "pathItems": {"Pets": {"get": {"responses": {"200": {"description": "ok"}}}}},
                "securitySchemes": {"tls": {"type": "mutualTLS"}, "key": {"type": "apiKey", "in": "header", "name": "K"}}
            },
            "security": [{"tls": []}, {"key": []}]
        });
        let notes: Vec<String> = convert(&mut doc).into_iter().map(|d| d.pointer).collect();
        assert_eq!(doc["openapi"], "3.0.3");
        assert_eq!(doc["paths"], json!({}));
        assert!(doc.get("webhooks").is_none() && doc.get("jsonSchemaDialect").is_none());
        assert_eq!(doc["components"]["schemas"]["newPetPayload"], json!({"type": "object"}), "a payload is a type");
        assert_eq!(doc["security"], json!([{"key": []}]));
        assert_eq!(notes, ["#/jsonSchemaDialect", "#/components/securitySchemes/tls"]);
        let mut doc = json!({
            "openapi": "3.2.0",
            "paths": {
                "/pets": {"$ref": "#/components/pathItems/Pets"},
                "/q": {"query": {}, "get": {}, "additionalOperations": {"PURGE": {}}}
            },
            "components": {"pathItems": {"Pets": {"get": {"operationId": "listPets"}}}}
        });
        let notes: Vec<String> = convert(&mut doc).into_iter().map(|d| d.pointer).collect();
        assert_eq!(doc["paths"]["/pets"]["get"]["operationId"], "listPets");
        assert!(doc["paths"]["/q"]["query"].is_object(), "a QUERY operation is kept for lowering");
        assert_eq!(doc["paths"]["/q"]["get"]["responses"], json!({}), "`responses` may be left out from 3.1 on");
        assert_eq!(notes, ["#/paths/~1q/additionalOperations"]);
    }
}
