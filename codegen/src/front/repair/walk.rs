//! Walks over every schema object of a document, wherever it sits: components, parameters,
//! bodies, replies and the schemas inside them.

use serde_json::{Map, Value};

use crate::diagnostic::Pointer;

/// Calls `f` with every schema object of a 3.0 document (component schemas and the schemas of
/// parameters, bodies, replies and headers, and every schema inside them) and its pointer.
/// References are not followed, and a `$ref` object is not a schema to repair.
pub(super) fn each_schema(doc: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
    each_schema_object(doc, &mut |schema, at| {
        if !schema.contains_key("$ref") {
            f(schema, at);
        }
    });
}

/// As [`each_schema`], but `f` also sees `$ref` objects (which may carry other keywords in
/// OpenAPI 3.1), before the walk looks inside what `f` left.
pub(crate) fn each_schema_object(doc: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
    let root = Pointer::root();
    let Some(doc) = doc.as_object_mut() else { return };
    if let Some(Value::Object(components)) = doc.get_mut("components") {
        let at = root.push("components");
        for (kind, holder) in components.iter_mut() {
            let Value::Object(items) = holder else { continue };
            let kind_at = at.push(kind);
            for (name, item) in items.iter_mut() {
                let item_at = kind_at.push(name);
                match kind.as_str() {
                    "schemas" => walk(item, &item_at, f),
                    "parameters" | "headers" => in_parameter(item, &item_at, f),
                    "requestBodies" => in_content(item, &item_at, f),
                    "responses" => in_response(item, &item_at, f),
                    _ => {}
                }
            }
        }
    }
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        let at = root.push("paths");
        for (path, item) in paths.iter_mut() {
            let Value::Object(item) = item else { continue };
            let path_at = at.push(path);
            for (key, value) in item.iter_mut() {
                let key_at = path_at.push(key);
                if key == "parameters" {
                    each_item(value, &key_at, &mut |p, at| in_parameter(p, at, f));
                    continue;
                }
                let Value::Object(op) = value else { continue };
                for (part, value) in op.iter_mut() {
                    let part_at = key_at.push(part);
                    match part.as_str() {
                        "parameters" => each_item(value, &part_at, &mut |p, at| in_parameter(p, at, f)),
                        "requestBody" => in_content(value, &part_at, f),
                        "responses" => {
                            let Value::Object(replies) = value else { continue };
                            for (status, reply) in replies.iter_mut() {
                                in_response(reply, &part_at.push(status), f);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
}

fn each_item(list: &mut Value, at: &Pointer, f: &mut dyn FnMut(&mut Value, &Pointer)) {
    if let Value::Array(items) = list {
        for (i, item) in items.iter_mut().enumerate() {
            f(item, &at.push(i));
        }
    }
}

fn in_parameter(parameter: &mut Value, at: &Pointer, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
    if let Some(schema) = parameter.get_mut("schema") {
        walk(schema, &at.push("schema"), f);
    }
    in_content(parameter, at, f);
}

fn in_content(holder: &mut Value, at: &Pointer, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
    let Some(Value::Object(content)) = holder.get_mut("content") else { return };
    let at = at.push("content");
    for (media, value) in content.iter_mut() {
        if let Some(schema) = value.get_mut("schema") {
            walk(schema, &at.push(media).push("schema"), f);
        }
    }
}

fn in_response(reply: &mut Value, at: &Pointer, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
    in_content(reply, at, f);
    if let Some(Value::Object(headers)) = reply.get_mut("headers") {
        let at = at.push("headers");
        for (name, header) in headers.iter_mut() {
            in_parameter(header, &at.push(name), f);
        }
    }
}

/// `f` on `schema` and on every schema inside it.
pub(super) fn walk(schema: &mut Value, at: &Pointer, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
    let Value::Object(map) = schema else { return };
    f(map, at);
    if map.contains_key("$ref") {
        return;
    }
    for (key, value) in map.iter_mut() {
        let key_at = at.push(key);
        match key.as_str() {
            // `$defs` (OpenAPI 3.1) holds schemas by name, as `properties` does.
            "properties" | "$defs" => {
                if let Value::Object(properties) = value {
                    for (name, property) in properties.iter_mut() {
                        walk(property, &key_at.push(name), f);
                    }
                }
            }
            "items" | "additionalProperties" | "not" => walk(value, &key_at, f),
            "allOf" | "anyOf" | "oneOf" => each_item(value, &key_at, &mut |member, at| walk(member, at, f)),
            _ => {}
        }
    }
}
