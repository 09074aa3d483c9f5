//! References: those deeper than a component lifted into components of their own, and the
//! walks that read and rewrite every `$ref`.

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;

/// A schema `$ref` into part of another object (`#/components/schemas/Tag/allOf/0`, or a
/// parameter's `#/components/parameters/limit/schema`) names a schema the rest of the generator
/// cannot find: the part is copied into `components/schemas` under a name made from its path
/// (`Tag_allOf_0`, `limit`), and every such reference points at it.
pub(super) fn lift_deep_references(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    const PREFIX: &str = "#/components/schemas/";
    let mut deep = std::collections::BTreeSet::new();
    collect_references(doc, &mut |r| {
        let into_schema = r.strip_prefix(PREFIX).is_some_and(|rest| rest.contains('/'));
        // Elsewhere, a reference to a schema passes through a `schema` keyword; a component
        // that is only named `schema` (`#/components/parameters/schema`) is no such step.
        let component = r.strip_prefix("#/components/").is_some_and(|rest| rest.split('/').count() == 2);
        let into_other = !r.starts_with(PREFIX) && !component && (r.ends_with("/schema") || r.contains("/schema/"));
        if into_schema || into_other {
            deep.insert(r.to_string());
        }
    });
    if deep.is_empty() {
        return;
    }
    let taken: Vec<(String, Value)> = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let mut lifted: std::collections::BTreeMap<String, (String, Value)> = std::collections::BTreeMap::new();
    for reference in &deep {
        let Some(target) = doc.pointer(&reference[1..]).cloned() else { continue };
        let wanted = lifted_name(reference);
        // A name already given to another schema gets a number.
        let free = |name: &str| {
            taken.iter().all(|(k, v)| k != name || *v == target)
                && lifted.values().all(|(n, v)| n != name || *v == target)
        };
        let name = (1..)
            .map(|i| if i == 1 { wanted.clone() } else { format!("{wanted}_{i}") })
            .find(|name| free(name))
            .unwrap_or(wanted);
        lifted.insert(reference.clone(), (name, target));
    }
    if doc.pointer("/components/schemas").is_none()
        && let Some(top) = doc.as_object_mut()
    {
        let components = top.entry("components").or_insert_with(|| Value::Object(Map::new()));
        if let Some(components) = components.as_object_mut() {
            components.entry("schemas").or_insert_with(|| Value::Object(Map::new()));
        }
    }
    let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") else { return };
    for (reference, (name, target)) in &lifted {
        if !schemas.contains_key(name) {
            schemas.insert(name.clone(), target.clone());
        }
        // A definition under `$defs` (OpenAPI 3.1) is meant as a schema of its own: no warning.
        if reference.starts_with(PREFIX) && reference.contains("/$defs/") {
            continue;
        }
        let whose = if reference.starts_with(PREFIX) { "another schema" } else { "the document" };
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Note,
            pointer: reference.clone(),
            line: None,
            message: format!("references name this part of {whose}; it is read as the schema `{name}`"),
        });
    }
    rewrite_references(doc, &|r| lifted.get(r).map(|(name, _)| format!("{PREFIX}{name}")));
}

/// The schema name for the part of the document `reference` points at: its path, without the
/// `components` section and the `content`/`schema` steps (`Order/$defs/Line` is `Order_Line`,
/// `#/components/parameters/limit/schema` is `limit`).
fn lifted_name(reference: &str) -> String {
    let path = reference.trim_start_matches('#').trim_start_matches('/');
    let path = path.strip_prefix("components/").map_or(path, |rest| rest.split_once('/').map_or(rest, |(_, r)| r));
    let mut segments: Vec<String> = Vec::new();
    let mut after_content = false;
    for segment in path.split('/') {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        // The media type right after `content` is left out, as are `content`, `schema` and `$defs`.
        if std::mem::take(&mut after_content) || matches!(segment.as_str(), "schema" | "$defs") {
            continue;
        }
        if segment == "content" {
            after_content = true;
            continue;
        }
        segments.push(segment);
    }
    segments
        .join("_")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' { c } else { '_' })
        .collect()
}

fn collect_references(value: &Value, f: &mut dyn FnMut(&str)) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                f(r);
            }
            map.values().for_each(|v| collect_references(v, f));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_references(v, f)),
        _ => {}
    }
}

pub(crate) fn rewrite_references(value: &mut Value, to: &dyn Fn(&str) -> Option<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get_mut("$ref")
                && let Some(new) = to(r)
            {
                *r = new;
            }
            map.values_mut().for_each(|v| rewrite_references(v, to));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_references(v, to)),
        _ => {}
    }
}
