//! Repairs of parameters: a schema where one is missing, and styles their location does not allow.

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Pointer};

/// Keywords Swagger 2.0 writes on a parameter or header itself, which OpenAPI 3 puts in its
/// `schema`.
const SCHEMA_KEYWORDS: [&str; 14] = [
    "type",
    "format",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
];

/// Parameters and headers written as Swagger 2.0 writes them (`type` on the parameter, no
/// `schema`): their schema keywords are read as their `schema`.
pub(super) fn schemaless_parameters(root: &mut Map<String, Value>, notes: &mut Vec<Diagnostic>) {
    each_parameter(root, &mut |node, at| {
        if ["schema", "content", "$ref"].iter().any(|k| node.contains_key(*k)) || !node.contains_key("type") {
            return;
        }
        let mut schema = Map::new();
        for key in SCHEMA_KEYWORDS {
            if let Some(value) = node.remove(key) {
                schema.insert(key.to_string(), value);
            }
        }
        node.insert("schema".to_string(), Value::Object(schema));
        let message = "`type` on the parameter or header itself is Swagger 2.0's spelling; read as its `schema`".into();
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Note,
            pointer: at.push("type").to_string(),
            line: None,
            message,
        });
    });
}

/// A `style` that OpenAPI does not allow where the parameter is (`simple` in the query, `form` in
/// a header): read as that place's own style, writing values as the named one would by default
/// (one list, comma-separated, unless the style is `form`).
pub(super) fn parameter_styles(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Value::Object(root) = doc else { return };
    each_parameter(root, &mut |node, at| {
        let (Some(place), Some(style)) =
            (node.get("in").and_then(Value::as_str), node.get("style").and_then(Value::as_str))
        else {
            return;
        };
        let allowed: &[&str] = match place {
            "path" => &["simple", "label", "matrix"],
            "query" => &["form", "spaceDelimited", "pipeDelimited", "deepObject"],
            "header" => &["simple"],
            "cookie" => &["form"],
            _ => return,
        };
        if allowed.contains(&style) {
            return;
        }
        let message = format!("`style: {style}` does not apply to a {place} parameter; read as `{}`", allowed[0]);
        let explode = style == "form";
        node.insert("style".to_string(), Value::String(allowed[0].to_string()));
        node.entry("explode").or_insert(Value::Bool(explode));
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            pointer: at.push("style").to_string(),
            line: None,
            message,
        });
    });
}

/// Calls `fix` with every parameter and header the document writes in place (not behind a
/// `$ref`): in `components` and in each path item, operation and reply.
fn each_parameter(root: &mut Map<String, Value>, fix: &mut dyn FnMut(&mut Map<String, Value>, Pointer)) {
    let mut fix = |node: &mut Value, at: Pointer| {
        if let Value::Object(node) = node {
            fix(node, at);
        }
    };
    let each = |list: Option<&mut Value>, at: Pointer, fix: &mut dyn FnMut(&mut Value, Pointer)| match list {
        Some(Value::Array(items)) => items.iter_mut().enumerate().for_each(|(i, p)| fix(p, at.push(i))),
        Some(Value::Object(items)) => items.iter_mut().for_each(|(name, p)| fix(p, at.push(name))),
        _ => {}
    };
    let root_at = Pointer::root();
    if let Some(Value::Object(components)) = root.get_mut("components") {
        let at = root_at.push("components");
        each(components.get_mut("parameters"), at.push("parameters"), &mut fix);
        each(components.get_mut("headers"), at.push("headers"), &mut fix);
        if let Some(Value::Object(responses)) = components.get_mut("responses") {
            for (name, response) in responses.iter_mut() {
                each(response.get_mut("headers"), at.push("responses").push(name).push("headers"), &mut fix);
            }
        }
    }
    let Some(Value::Object(paths)) = root.get_mut("paths") else { return };
    for (path, item) in paths.iter_mut() {
        let Value::Object(item) = item else { continue };
        let at = root_at.push("paths").push(path);
        for (key, value) in item.iter_mut() {
            if key == "parameters" {
                each(Some(value), at.push(key), &mut fix);
                continue;
            }
            let Value::Object(operation) = value else { continue };
            let op_at = at.push(key);
            each(operation.get_mut("parameters"), op_at.push("parameters"), &mut fix);
            if let Some(Value::Object(responses)) = operation.get_mut("responses") {
                for (status, response) in responses.iter_mut() {
                    each(response.get_mut("headers"), op_at.push("responses").push(status).push("headers"), &mut fix);
                }
            }
        }
    }
}
