//! `allOf` lists that only add annotations or plain members, merged into the schema they extend.

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Pointer};
use crate::front::markers::CONTRADICTED;

/// The component schemas, as written, that `allOf` members refer to; only those are copied, as a
/// large document may have thousands of schemas and few or no `allOf`s.
pub(super) fn all_of_targets(doc: &Value) -> Map<String, Value> {
    fn scan<'a>(value: &'a Value, found: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Array(members)) = map.get("allOf") {
                    let references = members.iter().filter_map(|m| m.get("$ref")?.as_str());
                    found.extend(references.filter_map(|r| r.strip_prefix("#/components/schemas/")));
                }
                map.values().for_each(|v| scan(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| scan(v, found)),
            _ => {}
        }
    }
    let mut names = Vec::new();
    scan(doc, &mut names);
    let Some(schemas) = doc.pointer("/components/schemas").and_then(Value::as_object) else { return Map::new() };
    names.into_iter().filter_map(|name| Some((name.to_string(), schemas.get(name)?.clone()))).collect()
}

/// Keywords that describe a schema without constraining its values.
pub(super) const ANNOTATIONS: [&str; 9] =
    ["nullable", "description", "title", "deprecated", "readOnly", "writeOnly", "example", "default", "externalDocs"];

/// An `allOf` member that only annotates (`allOf: [{$ref: X}, {nullable: true}]`) says the same on
/// the `allOf`'s own schema, where the rest of the generator reads it; the meaning is unchanged.
pub(super) fn hoist_annotation_members(schema: &mut Map<String, Value>) {
    let Some(Value::Array(members)) = schema.get_mut("allOf") else { return };
    let annotation_only = |m: &Value| {
        m.as_object().is_some_and(|m| {
            !m.is_empty() && m.keys().all(|k| ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-"))
        })
    };
    if !members.iter().any(annotation_only) {
        return;
    }
    let (hoisted, kept): (Vec<Value>, Vec<Value>) = std::mem::take(members).into_iter().partition(annotation_only);
    *members = kept;
    if members.is_empty() {
        schema.remove("allOf");
    }
    for (key, value) in hoisted.into_iter().filter_map(|m| m.as_object().cloned()).flatten() {
        schema.entry(key).or_insert(value);
    }
}

/// An `allOf` of schemas none of which is an object (`[{type: string}, {maxLength: 3}]`) is one
/// schema with all their keywords; where two give the same limit, the tighter one holds, and where
/// two list values, the values both list.
pub(super) fn merge_plain_all_of(
    schema: &mut Map<String, Value>,
    at: &Pointer,
    components: &Map<String, Value>,
    notes: &mut Vec<Diagnostic>,
) {
    let Some(Value::Array(members)) = schema.get("allOf") else { return };
    if members.len() < 2 {
        return;
    }
    let resolved: Option<Vec<&Map<String, Value>>> = members
        .iter()
        .map(|m| {
            let m = m.as_object()?;
            match m.get("$ref").and_then(Value::as_str) {
                Some(r) => components.get(r.strip_prefix("#/components/schemas/")?)?.as_object(),
                None => Some(m),
            }
        })
        .collect();
    let Some(resolved) = resolved else { return };
    let structured = ["properties", "additionalProperties", "allOf", "oneOf", "anyOf", "$ref", "items"];
    if resolved.iter().any(|m| {
        structured.iter().any(|k| m.contains_key(*k)) || m.get("type").and_then(Value::as_str) == Some("object")
    }) {
        return;
    }
    let types: std::collections::BTreeSet<&str> =
        resolved.iter().filter_map(|m| m.get("type").and_then(Value::as_str)).collect();
    if types.len() > 1 {
        return;
    }
    let mut merged = Map::new();
    let lists: Vec<&Vec<Value>> = resolved.iter().filter_map(|m| m.get("enum").and_then(Value::as_array)).collect();
    let mut disjoint = false;
    if let Some((first, others)) = lists.split_first() {
        let mut values: Vec<Value> = first.iter().filter(|v| others.iter().all(|o| o.contains(v))).cloned().collect();
        // Lists that share no value would allow nothing; documents that write them mean either
        // list, as the warning below says.
        if values.is_empty() {
            disjoint = true;
            values = lists.iter().flat_map(|l| l.iter()).cloned().collect();
            let mut seen = Vec::new();
            values.retain(|v| {
                if seen.contains(v) {
                    false
                } else {
                    seen.push(v.clone());
                    true
                }
            });
        }
        merged.insert("enum".to_string(), Value::Array(values));
    }
    for member in &resolved {
        for (key, value) in member.iter() {
            let tighter = match (merged.get(key), key.as_str()) {
                (None, _) => true,
                (Some(old), "minimum" | "minLength" | "minItems") => value.as_f64() > old.as_f64(),
                (Some(old), "maximum" | "maxLength" | "maxItems") => value.as_f64() < old.as_f64(),
                _ => false,
            };
            if tighter {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
    if lists.len() > 1 {
        // Names given for one list no longer line up with the merged values.
        merged.remove("x-enum-varnames");
        merged.remove("x-enumNames");
    }
    schema.remove("allOf");
    for (key, value) in merged {
        schema.entry(key).or_insert(value);
    }
    let message = if disjoint {
        "an `allOf` whose `enum` lists share no value would allow none; read as one schema allowing the values of every list"
    } else {
        "an `allOf` of schemas that are not objects is read as one schema with all their keywords"
    };
    if disjoint {
        schema.insert(CONTRADICTED.to_string(), Value::from(message));
    }
    notes.push(Diagnostic {
        severity: crate::diagnostic::Severity::Warning,
        pointer: at.push("allOf").to_string(),
        line: None,
        message: message.into(),
    });
}
