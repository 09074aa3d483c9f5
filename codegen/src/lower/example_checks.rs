//! Examples that contradict their own schema: the document's fault, said where it is. A mock or
//! a tool that answers with such an example answers what the schema forbids, so readers of the
//! document need to know.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Pointer};
use crate::sample::{Schemas, check};

/// Keywords that make an object a schema rather than, say, a map of properties.
const SCHEMA_KEYWORDS: [&str; 9] = ["type", "properties", "items", "allOf", "oneOf", "anyOf", "enum", "$ref", "format"];

/// A warning for every `example` in the document that its schema does not allow.
pub(crate) fn contradicting_examples(doc: &Value, schemas: &Schemas) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    walk(doc, doc, &Pointer::root(), None, schemas, &mut found);
    found
}

fn walk(
    doc: &Value,
    node: &Value,
    at: &Pointer,
    parent_key: Option<&str>,
    schemas: &Schemas,
    found: &mut Vec<Diagnostic>,
) {
    match node {
        Value::Object(object) => {
            // A map of properties, examples or extensions holds names, not schemas or examples.
            let holds_names = matches!(parent_key, Some("properties" | "examples"));
            if let (Some(example), false) = (object.get("example"), holds_names) {
                let schema = match object.get("schema") {
                    Some(schema) => Some(schema.clone()),
                    None if SCHEMA_KEYWORDS.iter().any(|k| object.contains_key(*k)) => {
                        let mut own = object.clone();
                        own.remove("example");
                        Some(Value::Object(own))
                    }
                    None => None,
                };
                if let Some(why) = schema.and_then(|schema| check(schemas, &schema, example).err()) {
                    found.push(Diagnostic {
                        severity: crate::diagnostic::Severity::Warning,
                        pointer: at.push("example").to_string(),
                        line: None,
                        message: format!("the example does not match its schema: {why}"),
                    });
                }
            }
            // A media type's or parameter's named examples, each beside the same schema.
            if let (Some(Value::Object(named)), Some(schema)) = (object.get("examples"), object.get("schema")) {
                for (name, entry) in named {
                    // A named example may be shared, in `#/components/examples`.
                    let entry = match entry.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
                        Some(pointer) => doc.pointer(pointer).unwrap_or(entry),
                        None => entry,
                    };
                    let Some(value) = entry.get("value") else { continue };
                    if let Err(why) = check(schemas, schema, value) {
                        found.push(Diagnostic {
                            severity: crate::diagnostic::Severity::Warning,
                            pointer: at.push("examples").push(name).push("value").to_string(),
                            line: None,
                            message: format!("the example does not match its schema: {why}"),
                        });
                    }
                }
            }
            for (key, value) in object {
                if key != "example" && !key.starts_with("x-") {
                    walk(doc, value, &at.push(key), Some(key), schemas, found);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(doc, item, &at.push(i), None, schemas, found);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_example_its_schema_forbids_is_located() {
        let schemas = json!({
            "Client": { "type": "object", "properties": {
                "audience": { "type": "array", "items": { "type": "string" }, "example": "a, b" },
                "example": { "type": "string" }
            } }
        });
        let doc = json!({
            "components": { "schemas": schemas.clone() },
            "paths": { "/c": { "get": { "responses": { "200": { "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Client" },
                "example": { "audience": ["a"], "example": "fine" }
            } } } } } } }
        });
        let found = contradicting_examples(&doc, &Schemas::new(schemas));
        let pointers: Vec<&str> = found.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(pointers, ["#/components/schemas/Client/properties/audience/example"], "{found:?}");
        assert!(found[0].message.contains("array"), "{}", found[0].message);
    }

    #[test]
    fn a_shared_named_example_is_checked_where_it_is_used() {
        let schemas = json!({ "Grant": { "type": "object", "properties": { "balances": { "type": "object" } } } });
        let doc = json!({
            "components": {
                "schemas": schemas.clone(),
                "examples": { "Paid": { "value": { "balances": [{ "total": 1 }] } } }
            },
            "paths": { "/g": { "post": { "responses": { "200": { "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/Grant" },
                "examples": { "paid": { "$ref": "#/components/examples/Paid" } }
            } } } } } } }
        });
        let found = contradicting_examples(&doc, &Schemas::new(schemas));
        let pointers: Vec<&str> = found.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            ["#/paths/~1g/post/responses/200/content/application~1json/examples/paid/value"],
            "{found:?}"
        );
    }
}
