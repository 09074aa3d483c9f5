//! Keeping a document that does not type because of a few malformed nodes: each schema or
//! operation at fault is replaced by a marker that says why, so the rest of the document loads,
//! and lowering reports the marked part where it is used (leaving it out in a lenient run).

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::front::markers;

/// HTTP methods a path item may hold operations under.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Replaces the schema or operation that holds the fault at `pointer` (with `message`) by a
/// marker; `false` when the fault is in no schema or operation, so the document cannot load.
pub(crate) fn set_aside(doc: &mut Value, pointer: &str, message: &str) -> bool {
    let target = innermost_part(doc, pointer).or_else(|| dig_paths(doc, pointer));
    let Some((at, kind)) = target else { return false };
    let Some(node) = doc.pointer_mut(at.strip_prefix('#').unwrap_or(&at)) else { return false };
    let mut marker = Map::new();
    if kind == Part::Operation {
        // Still an operation to the typed model; lowering reads the marker before anything else.
        marker.insert("responses".to_string(), Value::Object(Map::new()));
    }
    marker.insert(markers::UNREADABLE.to_string(), Value::String(message.to_string()));
    *node = Value::Object(marker);
    true
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Schema,
    Operation,
}

/// The innermost schema or operation along `pointer`: where a schema sits (`.../schema`, a
/// member of `schemas` or `properties`, `items`, ...) or an operation under a path.
fn innermost_part(doc: &Value, pointer: &str) -> Option<(String, Part)> {
    let segments: Vec<&str> = pointer.trim_start_matches('#').split('/').skip(1).collect();
    (1..=segments.len()).rev().find_map(|len| {
        let prefix = &segments[..len];
        let at = format!("#/{}", prefix.join("/"));
        let last = prefix[len - 1];
        let parent = len.checked_sub(2).map(|i| prefix[i]);
        let schema = last == "schema"
            || matches!(last, "items" | "additionalProperties" | "not")
            || matches!(parent, Some("schemas" | "properties" | "allOf" | "oneOf" | "anyOf"));
        let operation = len == 3 && prefix[0] == "paths" && METHODS.contains(&last);
        // Where a schema belongs, whatever is there is set aside (a property written as `true`);
        // an operation must at least be a mapping to be one.
        let node = doc.pointer(at.trim_start_matches('#'));
        let exists = node.is_some_and(|n| schema || n.is_object());
        match (exists, schema, operation) {
            (true, true, _) => Some((at, Part::Schema)),
            (true, _, true) => Some((at, Part::Operation)),
            _ => None,
        }
    })
}

/// Where under `#/paths` the fault is, when the parser could only say "somewhere in the paths"
/// (a path item is an untagged choice of `$ref` or item, so its errors lose their place): the
/// first operation that does not type, or the schema inside it that does not.
fn dig_paths(doc: &Value, pointer: &str) -> Option<(String, Part)> {
    if !pointer.starts_with("#/paths") {
        return None;
    }
    let paths = doc.get("paths")?.as_object()?;
    for (path, item) in paths {
        let Some(item) = item.as_object() else { continue };
        let item_at = format!("#/paths/{}", escape(path));
        for method in METHODS {
            let Some(operation) = item.get(method) else { continue };
            if openapiv3::Operation::deserialize(operation).is_ok() {
                continue;
            }
            let at = format!("{item_at}/{method}");
            return Some(bad_schema_in(operation, &at).map_or((at, Part::Operation), |s| (s, Part::Schema)));
        }
    }
    None
}

/// The first schema under an operation (its parameters, request body and replies) that does not
/// type as one.
fn bad_schema_in(node: &Value, at: &str) -> Option<String> {
    let is_schema = |v: &Value| openapiv3::ReferenceOr::<openapiv3::Schema>::deserialize(v).is_ok();
    match node {
        Value::Object(members) => members.iter().find_map(|(key, value)| {
            let here = format!("{at}/{}", escape(key));
            if key == "schema" && !is_schema(value) {
                // Deeper, if a property or item is the one at fault.
                return Some(bad_schema_in(value, &here).unwrap_or(here));
            }
            if key == "properties"
                && let Value::Object(properties) = value
            {
                return properties.iter().find(|(_, p)| !is_schema(p)).map(|(name, p)| {
                    let at = format!("{here}/{}", escape(name));
                    bad_schema_in(p, &at).unwrap_or(at)
                });
            }
            bad_schema_in(value, &here)
        }),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| bad_schema_in(item, &format!("{at}/{i}"))),
        _ => None,
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::front::markers::UNREADABLE;

    #[test]
    fn the_innermost_schema_or_operation_is_set_aside() {
        let mut doc = json!({"paths": {"/a": {"post": {
            "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object", "properties": {"name": "blog"}}}}},
            "responses": {}
        }}}});
        assert!(set_aside(&mut doc, "#/paths", "a property must be a schema"));
        let schema = &doc["paths"]["/a"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"];
        assert_eq!(schema["properties"]["name"], json!({UNREADABLE: "a property must be a schema"}));
        let mut doc = json!({"paths": {"/b": {"get": {"parameters": "none", "responses": {}}}}});
        assert!(set_aside(&mut doc, "#/paths/~1b/get/parameters", "must be a list"));
        assert_eq!(doc["paths"]["/b"]["get"], json!({"responses": {}, UNREADABLE: "must be a list"}));
        let mut doc = json!({"info": {"title": 1}});
        assert!(!set_aside(&mut doc, "#/info/title", "must be text"), "outside any schema or operation");
    }
}
