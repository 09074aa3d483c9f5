//! Repairs on the parsed document, before it is typed: slips that public documents make often and
//! whose intent is plain, fixed in place with a located note, so one of them does not stop a whole
//! document from loading.
//!
//! - A length or count limit written as a float (`maxLength: 10.0`), or negative: the integer, or
//!   the limit dropped.
//! - An integer bound that no 64-bit integer holds (`minimum: -9223372036854776000`, a float's
//!   spelling of `i64::MIN` and beyond): the nearest integer that is one, or the bound dropped.
//! - `exclusiveMinimum`/`exclusiveMaximum` given as a number (the JSON Schema 2019 form): the bound
//!   and `true`.
//! - Enum values of another type than the schema's (`true` in a string enum, `"2"` in an integer
//!   one): converted where the value's text says what was meant, dropped otherwise.
//! - `x-enum-varnames` with more names than values: the extra names dropped.
//! - Swagger 2.0 spellings in an OpenAPI 3 document: a top-level `definitions` (moved into
//!   `components/schemas`, its `#/definitions/` references with it) and a `basic` security
//!   scheme (an `http` one of scheme `basic`).
//! - A reply header given as a `$ref` to a header parameter: the header that parameter describes.
//! - `externalDocs` without the `url` it requires: left out.
//! - `nullable: true` beside a `$ref`: the referenced schema or `null`.

use serde_json::{Map, Number, Value};

use crate::diagnostic::{Diagnostic, Pointer};
use crate::front::markers::{CONTRADICTED, NARROWED, NULL_ONLY, XML};

/// Repairs `doc` (in the OpenAPI 3.0 form) in place and says what it changed.
pub(crate) fn repair(doc: &mut Value) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    empty_lists_as_maps(doc, &Pointer::root(), &mut notes);
    required_info(doc, &mut notes);
    reply_descriptions(doc, &mut notes);
    express_path_parameters(doc, &mut notes);
    swagger2_spellings(doc, &mut notes);
    form_data_parameters(doc, &mut notes);
    malformed_examples(doc, &Pointer::root(), &mut notes);
    parameter_styles(doc, &mut notes);
    repair_security(doc, &mut notes);
    oauth_flow_urls(doc, &mut notes);
    responses_from_request_bodies(doc, &mut notes);
    headers_from_parameters(doc, &mut notes);
    external_docs_urls(doc, &mut notes);
    lift_deep_references(doc, &mut notes);
    each_schema_object(doc, &mut |schema, at| nullable_reference(schema, at, &mut notes));
    // Component schemas as written, for `allOf` members that refer to one.
    let components = all_of_targets(doc);
    each_schema(doc, &mut |schema, at| {
        drop_external_docs_without_url(schema, at, &mut notes);
        repair_schema(schema, at, &mut notes);
        hoist_annotation_members(schema);
        merge_plain_all_of(schema, at, &components, &mut notes);
    });
    notes
}

/// The component schemas, as written, that `allOf` members refer to; only those are copied, as a
/// large document may have thousands of schemas and few or no `allOf`s.
fn all_of_targets(doc: &Value) -> Map<String, Value> {
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
const ANNOTATIONS: [&str; 9] =
    ["nullable", "description", "title", "deprecated", "readOnly", "writeOnly", "example", "default", "externalDocs"];

/// An `allOf` member that only annotates (`allOf: [{$ref: X}, {nullable: true}]`) says the same on
/// the `allOf`'s own schema, where the rest of the generator reads it; the meaning is unchanged.
fn hoist_annotation_members(schema: &mut Map<String, Value>) {
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
fn merge_plain_all_of(
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
    notes.push(Diagnostic { pointer: at.push("allOf").to_string(), line: None, message: message.into() });
}

/// A schema `$ref` into part of another object (`#/components/schemas/Tag/allOf/0`, or a
/// parameter's `#/components/parameters/limit/schema`) names a schema the rest of the generator
/// cannot find: the part is copied into `components/schemas` under a name made from its path
/// (`Tag_allOf_0`, `limit`), and every such reference points at it.
fn lift_deep_references(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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

/// A reply that refers to a request body (`$ref: '#/components/requestBodies/X'`, a slip of
/// documents that keep replies and requests side by side) is read as a reply with that content.
fn responses_from_request_bodies(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    const PREFIX: &str = "#/components/requestBodies/";
    let bodies = doc.pointer("/components/requestBodies").and_then(Value::as_object).cloned().unwrap_or_default();
    if bodies.is_empty() {
        return;
    }
    let mut fix = |reply: &mut Value, at: Pointer| {
        let Some(name) = reply.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(PREFIX)) else { return };
        let Some(body) = bodies.get(&name.replace("~1", "/").replace("~0", "~")) else { return };
        let description = body.get("description").cloned().unwrap_or_else(|| Value::from(""));
        let mut read = Map::new();
        read.insert("description".to_string(), description);
        if let Some(content) = body.get("content") {
            read.insert("content".to_string(), content.clone());
        }
        notes.push(Diagnostic {
            pointer: at.to_string(),
            line: None,
            message: format!("the reply refers to the request body `{name}`; its content is read as the reply's"),
        });
        *reply = Value::Object(read);
    };
    if let Some(Value::Object(replies)) = doc.pointer_mut("/components/responses") {
        for (name, reply) in replies.iter_mut() {
            fix(reply, Pointer::root().push("components").push("responses").push(name));
        }
    }
    let Some(Value::Object(paths)) = doc.get_mut("paths") else { return };
    for (path, item) in paths.iter_mut() {
        let Value::Object(item) = item else { continue };
        for (method, operation) in item.iter_mut() {
            let Some(Value::Object(replies)) = operation.get_mut("responses") else { continue };
            for (status, reply) in replies.iter_mut() {
                let at = Pointer::root().push("paths").push(path).push(method).push("responses").push(status);
                fix(reply, at);
            }
        }
    }
}

/// `info.title` and `info.version`, which every document must have and some leave out: the
/// crates need a name for their docs and a version to send.
fn required_info(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Value::Object(root) = doc else { return };
    // Something else in the place of `info` is not a slip whose intent is plain: typing says so.
    let Value::Object(info) = root.entry("info").or_insert_with(|| Value::Object(Map::new())) else { return };
    for (key, assumed) in [("title", "Untitled API"), ("version", "0")] {
        // Unquoted in YAML, `version: 1.0` is a number; its text is plainly what was meant.
        if let Some(scalar @ (Value::Number(_) | Value::Bool(_))) = info.get(key) {
            let text = scalar.to_string();
            let pointer = Pointer::root().push("info").push(key).to_string();
            let message = format!(
                "`info.{key}` is {scalar}, not text (unquoted in YAML); read as the text `{text}`, which may differ from what was written (`1.10` reads as `1.1`): quote it"
            );
            notes.push(Diagnostic { pointer, line: None, message });
            info.insert(key.to_string(), Value::String(text));
        }
        if !info.get(key).is_some_and(Value::is_string) {
            let pointer = Pointer::root().push("info").push(key).to_string();
            let message = format!("the document has no `info.{key}`; `{assumed}` is assumed");
            notes.push(Diagnostic { pointer, line: None, message });
            info.insert(key.to_string(), Value::from(assumed));
        }
    }
}

/// A reply without its required `description` (Django REST framework's generator leaves it out):
/// an empty one is assumed, rather than leaving the operation out.
fn reply_descriptions(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let mut fix = |reply: &mut Value, at: Pointer| {
        if let Value::Object(reply) = reply
            && !reply.contains_key("$ref")
            && !reply.get("description").is_some_and(Value::is_string)
        {
            let message = "the reply has no `description`; an empty one is assumed".to_string();
            notes.push(Diagnostic { pointer: at.to_string(), line: None, message });
            reply.insert("description".to_string(), Value::from(""));
        }
    };
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        for (path, item) in paths.iter_mut() {
            let Value::Object(item) = item else { continue };
            for (method, op) in item.iter_mut() {
                let Some(Value::Object(replies)) = op.get_mut("responses") else { continue };
                for (status, reply) in replies.iter_mut() {
                    fix(reply, Pointer::root().push("paths").push(path).push(method).push("responses").push(status));
                }
            }
        }
    }
    if let Some(Value::Object(replies)) = doc.pointer_mut("/components/responses") {
        for (name, reply) in replies.iter_mut() {
            fix(reply, Pointer::root().push("components").push("responses").push(name));
        }
    }
}

/// A reply header given as a `$ref` into `#/components/parameters` (to a header parameter, which
/// says the same but for `name` and `in`) where `#/components/headers` has no such name: the
/// header that parameter describes, added to `#/components/headers` under its name.
fn headers_from_parameters(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    const PREFIX: &str = "#/components/parameters/";
    let parameters = doc.pointer("/components/parameters").and_then(Value::as_object).cloned().unwrap_or_default();
    if parameters.is_empty() {
        return;
    }
    let declared = |doc: &Value, name: &str| {
        doc.pointer("/components/headers").and_then(Value::as_object).is_some_and(|h| h.contains_key(name))
    };
    // Each reply's headers: the operations' replies and the component replies.
    let mut replies: Vec<Pointer> = Vec::new();
    if let Some(Value::Object(paths)) = doc.get("paths") {
        for (path, item) in paths {
            let Value::Object(item) = item else { continue };
            for (method, op) in item {
                let Some(Value::Object(statuses)) = op.get("responses") else { continue };
                let at = Pointer::root().push("paths").push(path).push(method).push("responses");
                replies.extend(statuses.keys().map(|status| at.push(status)));
            }
        }
    }
    if let Some(Value::Object(components)) = doc.pointer("/components/responses") {
        replies.extend(components.keys().map(|name| Pointer::root().push("components").push("responses").push(name)));
    }
    for reply in replies {
        let headers_at = reply.push("headers");
        let Some(Value::Object(headers)) = doc.pointer(headers_at.json_pointer()) else { continue };
        let misplaced: Vec<(String, String)> = headers
            .iter()
            .filter_map(|(header, value)| {
                let name = value.get("$ref")?.as_str()?.strip_prefix(PREFIX)?;
                Some((header.clone(), name.to_string()))
            })
            .collect();
        for (header, name) in misplaced {
            let Some(Value::Object(parameter)) = parameters.get(&name) else { continue };
            if parameter.get("in").and_then(Value::as_str) != Some("header") {
                continue;
            }
            if !declared(doc, &name) {
                let mut described = parameter.clone();
                described.remove("name");
                described.remove("in");
                let components = doc
                    .as_object_mut()
                    .and_then(|d| d.entry("components").or_insert_with(|| Value::Object(Map::new())).as_object_mut());
                let Some(components) = components else { return };
                let headers = components.entry("headers").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(headers) = headers {
                    headers.insert(name.clone(), Value::Object(described));
                }
            }
            let at = headers_at.push(&header);
            if let Some(value) = doc.pointer_mut(at.json_pointer()) {
                *value = serde_json::json!({ "$ref": format!("#/components/headers/{name}") });
            }
            let message = format!(
                "the header refers to the parameter {PREFIX}{name}; read as the header it describes, \
                 #/components/headers/{name}"
            );
            notes.push(Diagnostic { pointer: at.to_string(), line: None, message });
        }
    }
}

/// `externalDocs` without its required `url` (the document's, a tag's or an operation's): only a
/// link's text, with nowhere to link to, so left out.
fn external_docs_urls(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Value::Object(root) = doc else { return };
    drop_external_docs_without_url(root, &Pointer::root(), notes);
    if let Some(Value::Array(tags)) = root.get_mut("tags") {
        for (i, tag) in tags.iter_mut().enumerate() {
            if let Value::Object(tag) = tag {
                drop_external_docs_without_url(tag, &Pointer::root().push("tags").push(i), notes);
            }
        }
    }
    if let Some(Value::Object(paths)) = root.get_mut("paths") {
        for (path, item) in paths.iter_mut() {
            let Value::Object(item) = item else { continue };
            for (method, op) in item.iter_mut() {
                if let Value::Object(op) = op {
                    drop_external_docs_without_url(op, &Pointer::root().push("paths").push(path).push(method), notes);
                }
            }
        }
    }
}

fn drop_external_docs_without_url(owner: &mut Map<String, Value>, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    let Some(docs) = owner.get("externalDocs") else { return };
    if docs.get("url").is_some_and(Value::is_string) {
        return;
    }
    owner.remove("externalDocs");
    let message = "`externalDocs` has no `url`, which it requires; it is left out".to_string();
    notes.push(Diagnostic { pointer: at.push("externalDocs").to_string(), line: None, message });
}

/// Path segments written as Express and Hono write parameters (`/todos/:id`), read as the
/// template they mean (`/todos/{id}`). A path the document also has in braces is left alone.
fn express_path_parameters(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Some(Value::Object(paths)) = doc.get_mut("paths") else { return };
    let is_name = |name: &str| {
        name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let templated = |path: &str| -> Option<String> {
        let segments: Vec<String> = path
            .split('/')
            .map(|segment| match segment.strip_prefix(':') {
                Some(name) if is_name(name) => format!("{{{name}}}"),
                _ => segment.to_string(),
            })
            .collect();
        let written = segments.join("/");
        (written != path).then_some(written)
    };
    if !paths.keys().any(|path| templated(path).is_some()) {
        return;
    }
    // Rebuilt in the document's order, each key read as its template unless that path is taken.
    let written: std::collections::HashSet<String> = paths.keys().cloned().collect();
    let mut rebuilt = Map::new();
    for (path, item) in std::mem::take(paths) {
        let key = match templated(&path) {
            Some(template) if !written.contains(&template) && !rebuilt.contains_key(&template) => {
                let pointer = Pointer::root().push("paths").push(&path).to_string();
                let message = format!("`{path}` writes its parameters as Express does; read as `{template}`");
                notes.push(Diagnostic { pointer, line: None, message });
                template
            }
            _ => path,
        };
        rebuilt.insert(key, item);
    }
    *paths = rebuilt;
}

/// Swagger 2.0 spellings left in an OpenAPI 3 document, where their meaning is plain.
fn swagger2_spellings(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Value::Object(root) = doc else { return };
    if let Some(Value::Object(schemes)) = root.get_mut("components").and_then(|c| c.get_mut("securitySchemes")) {
        for (name, scheme) in schemes.iter_mut() {
            let Value::Object(scheme) = scheme else { continue };
            if scheme.get("type").and_then(Value::as_str) == Some("basic") {
                scheme.insert("type".to_string(), Value::String("http".to_string()));
                scheme.insert("scheme".to_string(), Value::String("basic".to_string()));
                let pointer = Pointer::root().push("components").push("securitySchemes").push(name).push("type");
                let message = "`type: basic` is Swagger 2.0's spelling; read as `type: http`, `scheme: basic`".into();
                notes.push(Diagnostic { pointer: pointer.to_string(), line: None, message });
            }
        }
    }
    schemaless_parameters(root, notes);
    let Some(Value::Object(definitions)) = root.remove("definitions") else { return };
    let components = root.entry("components").or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(components) = components else { return };
    let schemas = components.entry("schemas").or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(schemas) = schemas else { return };
    let mut moved = Vec::new();
    for (name, schema) in definitions {
        if schemas.contains_key(&name) {
            let pointer = Pointer::root().push("definitions").push(&name).to_string();
            let message = format!("`definitions/{name}` is left out: `components/schemas` has a schema of that name");
            notes.push(Diagnostic { pointer, line: None, message });
        } else {
            schemas.insert(name.clone(), schema);
            moved.push(name);
        }
    }
    if moved.is_empty() {
        return;
    }
    notes.push(Diagnostic {
        pointer: Pointer::root().push("definitions").to_string(),
        line: None,
        message: match moved.len() {
            1 => "`definitions` is Swagger 2.0's place for schemas; its schema is read as one of `components/schemas`"
                .to_string(),
            n => format!(
                "`definitions` is Swagger 2.0's place for schemas; its {n} schemas are read as `components/schemas`"
            ),
        },
    });
    fn rewrite(value: &mut Value, moved: &[String]) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get_mut("$ref")
                    && let Some(name) = reference.strip_prefix("#/definitions/")
                    && moved.iter().any(|m| m == name)
                {
                    *reference = format!("#/components/schemas/{name}");
                }
                map.values_mut().for_each(|v| rewrite(v, moved));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| rewrite(v, moved)),
            _ => {}
        }
    }
    rewrite(doc, &moved);
}

/// Where OpenAPI wants a map, or the object a map holds, an empty list (`[]`, as PHP writes an
/// empty map, in API Platform's output) is read as an empty map.
fn empty_lists_as_maps(value: &mut Value, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    /// Keys whose value is a map in OpenAPI (and `properties` in a schema).
    const MAPS: [&str; 17] = [
        "paths",
        "components",
        "schemas",
        "responses",
        "parameters",
        "requestBodies",
        "headers",
        "securitySchemes",
        "links",
        "callbacks",
        "content",
        "encoding",
        "properties",
        "variables",
        "mapping",
        "examples",
        "definitions",
    ];
    match value {
        Value::Object(map) => {
            // A map whose entries are objects (replies, media types, properties, …).
            let holds_objects = |key: &str| MAPS.contains(&key) && key != "parameters";
            for (key, member) in map.iter_mut() {
                let member_at = at.push(key);
                let empty = matches!(member, Value::Array(items) if items.is_empty());
                // An operation's `parameters` is a list; only `components/parameters` is a map.
                let map_here =
                    MAPS.contains(&key.as_str()) && (key != "parameters" || at.to_string() == "#/components");
                if empty && map_here {
                    *member = Value::Object(Map::new());
                    let message = format!("`{key}` is an empty list where OpenAPI wants a map; read as an empty map");
                    notes.push(Diagnostic { pointer: member_at.to_string(), line: None, message });
                    continue;
                }
                if holds_objects(key)
                    && let Value::Object(entries) = member
                {
                    for (name, entry) in entries.iter_mut() {
                        if matches!(entry, Value::Array(items) if items.is_empty()) {
                            *entry = Value::Object(Map::new());
                            let message =
                                "an empty list where OpenAPI wants an object; read as an empty one".to_string();
                            notes.push(Diagnostic { pointer: member_at.push(name).to_string(), line: None, message });
                        }
                    }
                }
                // Data, not structure.
                if !["example", "default", "enum", "value", "const"].contains(&key.as_str()) && !key.starts_with("x-") {
                    empty_lists_as_maps(member, &member_at, notes);
                }
            }
        }
        Value::Array(items) => {
            items.iter_mut().enumerate().for_each(|(i, item)| empty_lists_as_maps(item, &at.push(i), notes));
        }
        _ => {}
    }
}

/// Swagger 2.0's form parameters (`in: formData`, or `in: form` as some producers write it) left
/// in an OpenAPI 3 operation: read as the form body they stand for, each parameter a property of
/// it (multipart when one is a file), unless the operation has a body already.
fn form_data_parameters(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Some(Value::Object(paths)) = doc.get_mut("paths") else { return };
    for (path, item) in paths.iter_mut() {
        let Value::Object(item) = item else { continue };
        for (method, op) in item.iter_mut() {
            let Value::Object(op) = op else { continue };
            let Some(Value::Array(parameters)) = op.get_mut("parameters") else { continue };
            let is_form = |p: &Value| matches!(p.get("in").and_then(Value::as_str), Some("formData" | "form"));
            if !parameters.iter().any(is_form) {
                continue;
            }
            let at = Pointer::root().push("paths").push(path).push(method.as_str());
            let (form, rest): (Vec<Value>, Vec<Value>) = std::mem::take(parameters).into_iter().partition(is_form);
            *parameters = rest;
            if op.contains_key("requestBody") {
                let message = "form parameters beside a request body are left out: the body is the form".to_string();
                notes.push(Diagnostic { pointer: at.push("parameters").to_string(), line: None, message });
                continue;
            }
            let (mut properties, mut required, mut file) = (Map::new(), Vec::new(), false);
            for parameter in form {
                let Some(name) = parameter.get("name").and_then(Value::as_str) else { continue };
                let mut schema = parameter.get("schema").cloned().unwrap_or_else(|| serde_json::json!({}));
                if let Some(description) = parameter.get("description").filter(|_| schema.get("description").is_none())
                {
                    schema["description"] = description.clone();
                }
                file |= schema.get("type").and_then(Value::as_str) == Some("file")
                    || schema.get("format").and_then(Value::as_str) == Some("binary");
                if parameter.get("required").and_then(Value::as_bool) == Some(true) {
                    required.push(Value::String(name.to_string()));
                }
                properties.insert(name.to_string(), schema);
            }
            let media = if file { "multipart/form-data" } else { "application/x-www-form-urlencoded" };
            let schema = serde_json::json!({ "type": "object", "properties": properties, "required": required });
            let body =
                serde_json::json!({ "required": !required.is_empty(), "content": { media: { "schema": schema } } });
            op.insert("requestBody".to_string(), body);
            let message = format!("form parameters are Swagger 2.0's; read as a {media} request body of them");
            notes.push(Diagnostic { pointer: at.push("parameters").to_string(), line: None, message });
        }
    }
}

/// `examples` where OpenAPI wants a map of Example objects (on media types, parameters and
/// headers, and in `components/examples`), written as a list, as one bare value, or with bare
/// values in the map: read as the named examples they mean. Schemas, whose own `examples` are
/// JSON Schema's, are left to the schema repairs.
fn malformed_examples(value: &mut Value, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    let Value::Object(map) = value else {
        if let Value::Array(items) = value {
            items.iter_mut().enumerate().for_each(|(i, item)| malformed_examples(item, &at.push(i), notes));
        }
        return;
    };
    let mut note =
        |message: String| notes.push(Diagnostic { pointer: at.push("examples").to_string(), line: None, message });
    match map.get_mut("examples") {
        Some(Value::Array(items)) => {
            let named = std::mem::take(items).into_iter().enumerate();
            let named: Map<String, Value> =
                named.map(|(i, item)| (format!("example{}", i + 1), serde_json::json!({ "value": item }))).collect();
            map.insert("examples".to_string(), Value::Object(named));
            note("`examples` is a list; read as examples named `example1`, `example2`, …".to_string());
        }
        Some(Value::Object(named)) => {
            let bare: Vec<String> = named.iter().filter(|(_, e)| !e.is_object()).map(|(n, _)| n.clone()).collect();
            for name in &bare {
                let value = named[name].take();
                named[name] = serde_json::json!({ "value": value });
            }
            if !bare.is_empty() {
                note(format!(
                    "examples {} are bare values, not Example objects; read as their `value`",
                    bare.join(", ")
                ));
            }
        }
        Some(_) => {
            let value = map.remove("examples").unwrap_or_default();
            map.entry("example").or_insert(value);
            note("`examples` is one value, not a map of examples; read as `example`".to_string());
        }
        None => {}
    }
    for (key, member) in map.iter_mut() {
        // Schemas, and values that are the document's data rather than its structure.
        if ["schema", "schemas", "example", "default", "value"].contains(&key.as_str()) || key.starts_with("x-") {
            continue;
        }
        if key != "examples" {
            malformed_examples(member, &at.push(key), notes);
        }
    }
}

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
fn schemaless_parameters(root: &mut Map<String, Value>, notes: &mut Vec<Diagnostic>) {
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
        notes.push(Diagnostic { pointer: at.push("type").to_string(), line: None, message });
    });
}

/// A `style` that OpenAPI does not allow where the parameter is (`simple` in the query, `form` in
/// a header): read as that place's own style, writing values as the named one would by default
/// (one list, comma-separated, unless the style is `form`).
fn parameter_styles(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
        notes.push(Diagnostic { pointer: at.push("style").to_string(), line: None, message });
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

/// `null` for the scopes of a security requirement: no scopes. A scheme a requirement names and
/// the document never declares: the requirement without it, as nothing says how to send it.
fn repair_security(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let declared: Vec<String> = match doc.pointer("/components/securitySchemes") {
        Some(Value::Object(schemes)) => schemes.keys().cloned().collect(),
        _ => Vec::new(),
    };
    let mut fix = |requirements: Option<&mut Value>, at: Pointer| {
        let Some(Value::Array(requirements)) = requirements else { return };
        for (i, requirement) in requirements.iter_mut().enumerate() {
            let Value::Object(schemes) = requirement else { continue };
            schemes.retain(|scheme, _| {
                let known = declared.contains(scheme);
                if !known {
                    let pointer = at.push(i).push(scheme).to_string();
                    let message = format!(
                        "security scheme `{scheme}` is not declared in #/components/securitySchemes; the requirement is read without it"
                    );
                    notes.push(Diagnostic { pointer, line: None, message });
                }
                known
            });
            for (scheme, scopes) in schemes.iter_mut().filter(|(_, scopes)| scopes.is_null()) {
                let pointer = at.push(i).push(scheme).to_string();
                notes.push(Diagnostic { pointer, line: None, message: "`null` scopes are read as none".into() });
                *scopes = Value::Array(Vec::new());
            }
        }
    };
    fix(doc.get_mut("security"), Pointer::root().push("security"));
    let Some(Value::Object(paths)) = doc.get_mut("paths") else { return };
    for (path, item) in paths.iter_mut() {
        let Value::Object(item) = item else { continue };
        for (method, operation) in item.iter_mut() {
            fix(operation.get_mut("security"), Pointer::root().push("paths").push(path).push(method).push("security"));
        }
    }
}

/// The URLs an OAuth2 flow must name (`tokenUrl`, `authorizationUrl`, `scopes`), which some
/// producers leave out: the generated code sends a token it is given and never calls them, so an
/// empty one is assumed rather than refusing the document.
fn oauth_flow_urls(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Some(Value::Object(schemes)) = doc.pointer_mut("/components/securitySchemes") else { return };
    for (name, scheme) in schemes.iter_mut() {
        let Some(Value::Object(flows)) = scheme.get_mut("flows") else { continue };
        for (flow, fields) in flows.iter_mut() {
            let Value::Object(fields) = fields else { continue };
            let needed: &[&str] = match flow.as_str() {
                "implicit" => &["authorizationUrl", "scopes"],
                "password" | "clientCredentials" => &["tokenUrl", "scopes"],
                "authorizationCode" => &["authorizationUrl", "tokenUrl", "scopes"],
                _ => &[],
            };
            let missing: Vec<&str> = needed.iter().copied().filter(|key| !fields.contains_key(*key)).collect();
            for key in missing {
                let at = Pointer::root().push("components").push("securitySchemes").push(name).push("flows").push(flow);
                let (assumed, said) = if key == "scopes" {
                    (Value::Object(Map::new()), "none")
                } else {
                    (Value::from(""), "an empty one")
                };
                let message = format!("the flow has no `{key}`; {said} is assumed");
                notes.push(Diagnostic { pointer: at.to_string(), line: None, message });
                fields.insert(key.to_string(), assumed);
            }
        }
    }
}

/// Limits that count characters, items or properties: whole numbers from zero.
const COUNTS: [&str; 6] = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];

fn repair_schema(schema: &mut Map<String, Value>, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    let mut note = |key: &str, message: String| {
        notes.push(Diagnostic { pointer: at.push(key).to_string(), line: None, message });
    };
    // The typed model keeps no `xml` object, which says how a value is written in XML: it is
    // kept as an extension, for the servers that read XML bodies.
    if let Some(xml) = schema.remove("xml") {
        schema.insert(XML.to_string(), xml);
    }
    if let Some(Value::Array(tuple)) = schema.get_mut("items") {
        let mut members = std::mem::take(tuple);
        let (read, items) = match members.len() {
            0 => ("any value", None),
            1 => ("that schema", members.pop()),
            _ => ("any of those schemas", Some(serde_json::json!({ "anyOf": members }))),
        };
        note(
            "items",
            format!("`items` is a list of schemas (a tuple in JSON Schema draft 4); each item is read as {read}"),
        );
        match items {
            Some(items) => schema.insert("items".to_string(), items),
            None => schema.remove("items"),
        };
    }
    json_schema_forms(schema, &mut note);
    null_only(schema, &mut note);
    repeated_enum_values(schema, &mut note);
    wrong_types(schema, &mut note);
    // A parameter's own schema (not one it refers to), whose value arrives as text.
    let parameter = at.json_pointer().rsplit('/').nth(2) == Some("parameters");
    narrowing_choices(schema, parameter, &mut note);
    typed_reference(schema, &mut note);
    for key in COUNTS {
        let Some(value) = schema.get(key) else { continue };
        if value.as_u64().is_some() {
            continue;
        }
        match value.as_f64().filter(|v| v.is_finite() && *v >= 0.0) {
            Some(v) if v <= u32::MAX as f64 => {
                // A minimum rounds up and a maximum down, so the limit never admits more.
                let whole = if key.starts_with("min") { v.ceil() } else { v.floor() } as u64;
                // A whole number written with a fraction (`1.0`, as Python writes it) loses nothing.
                if whole as f64 != v {
                    note(key, format!("`{key}: {value}` is not a whole number; read as {whole}"));
                }
                schema.insert(key.to_string(), Value::from(whole));
            }
            _ => {
                note(key, format!("`{key}: {value}` is not a count of zero or more and is ignored"));
                schema.remove(key);
            }
        }
    }
    let ty = schema.get("type").and_then(Value::as_str).map(str::to_string);
    if ty.as_deref() == Some("integer") {
        for key in ["minimum", "maximum", "multipleOf"] {
            let Some(value) = schema.get(key) else { continue };
            if value.as_i64().is_some() {
                continue;
            }
            match whole_bound(key, value) {
                Ok(whole) => {
                    if value.as_f64() != Some(whole as f64) {
                        note(key, format!("`{key}: {value}` is not a 64-bit integer; read as {whole}"));
                    }
                    schema.insert(key.to_string(), Value::from(whole));
                }
                Err(why) => {
                    note(key, format!("`{key}: {value}` is {why} and is ignored"));
                    schema.remove(key);
                }
            }
        }
    }
    // `nullable: true` beside an `enum` without `null`: OpenAPI 3.0.3 says the enum still holds,
    // so `null` is not among the values allowed (as in JSON Schema, where 3.1 writes it so).
    if schema.get("nullable") == Some(&Value::Bool(true))
        && let Some(Value::Array(values)) = schema.get("enum")
        && !values.is_empty()
        && !values.iter().any(Value::is_null)
    {
        schema.remove("nullable");
        note(
            "nullable",
            "`nullable: true` beside an `enum` without `null` allows no `null` (OpenAPI 3.0.3); add `null` to the values to allow it"
                .to_string(),
        );
    }
    // `null` among the values: OpenAPI 3.0.3 lists it beside `nullable: true`, as a nullable
    // enum must; without `nullable`, it says the same thing.
    if let Some(Value::Array(values)) = schema.get_mut("enum")
        && values.iter().any(Value::is_null)
        && values.iter().any(|v| !v.is_null())
    {
        values.retain(|v| !v.is_null());
        if schema.get("nullable") != Some(&Value::Bool(true)) {
            schema.insert("nullable".to_string(), Value::Bool(true));
            note("enum", "`null` among the enum values is read as `nullable: true`".to_string());
        }
    }
    if let (Some(ty), Some(Value::Array(values))) = (ty.as_deref(), schema.get_mut("enum")) {
        let before = values.clone();
        let mut changed = Vec::new();
        values.retain_mut(|value| match as_type(value, ty) {
            Some(None) => true,
            Some(Some(fixed)) => {
                changed.push(format!("`{value}` read as `{fixed}`"));
                *value = fixed;
                true
            }
            None => {
                changed.push(format!("`{value}` dropped"));
                false
            }
        });
        if changed.len() == before.len() && !before.is_empty() {
            // As written no value is allowed. Values that convert keep `type`; values that
            // cannot, all of one other type, say the type meant (`type: object` beside strings).
            let read = match (values.is_empty(), value_kind(&before)) {
                (false, _) => changed.join(", "),
                (true, Some(kind)) => {
                    *values = before;
                    schema.insert("type".to_string(), Value::from(kind));
                    format!("the values, all of type `{kind}`, make it `type: {kind}`")
                }
                (true, None) => {
                    schema.remove("enum");
                    format!("the values are dropped, leaving any value of type `{ty}`")
                }
            };
            let why = format!(
                "`type: {ty}` allows none of the enum's values, so as written the schema allows no value; {read}"
            );
            schema.insert(CONTRADICTED.to_string(), Value::from(why.clone()));
            note("enum", why);
        } else if !changed.is_empty() {
            note("enum", format!("enum values that are not of type `{ty}`: {}", changed.join(", ")));
        }
    }
    let values = schema.get("enum").and_then(Value::as_array).map_or(0, Vec::len);
    if let Some(Value::Array(names)) = schema.get_mut("x-enum-varnames")
        && values > 0
        && names.len() > values
    {
        let extra = names.split_off(values);
        let extra: Vec<String> = extra.iter().map(Value::to_string).collect();
        note(
            "x-enum-varnames",
            format!("{} names for {values} enum values; {} dropped", values + extra.len(), extra.join(", ")),
        );
    }
}

/// Keywords that narrow a value of a plain type (a number's range, a string's length) without
/// giving it a shape, by the type they belong to.
const NARROWING: [(&str, &str); 12] = [
    ("minimum", "number"),
    ("maximum", "number"),
    ("exclusiveMinimum", "number"),
    ("exclusiveMaximum", "number"),
    ("multipleOf", "number"),
    ("minLength", "string"),
    ("maxLength", "string"),
    ("pattern", "string"),
    ("minItems", "array"),
    ("maxItems", "array"),
    ("uniqueItems", "array"),
    ("format", ""),
];

/// An `enum` listing a value more than once, which JSON Schema says it must not: each value is
/// kept once, where it is first listed.
fn repeated_enum_values(schema: &mut Map<String, Value>, note: &mut dyn FnMut(&str, String)) {
    let Some(Value::Array(values)) = schema.get_mut("enum") else { return };
    let mut kept: Vec<Value> = Vec::with_capacity(values.len());
    let mut repeated: Vec<String> = Vec::new();
    for value in values.drain(..) {
        if kept.contains(&value) {
            repeated.push(format!("`{value}`"));
        } else {
            kept.push(value);
        }
    }
    *values = kept;
    if !repeated.is_empty() {
        note("enum", format!("values listed more than once are kept once: {}", repeated.join(", ")));
    }
}

/// A `oneOf` or `anyOf` whose members only narrow the value (`[{minimum: 0, maximum: 10},
/// {minimum: 100}]`): no shape to choose between, so the schema is read as its plain type (one
/// without `type` takes the one its members' keywords belong to) and the choice is kept aside
/// under [`NARROWED`], for servers to check and samples to meet.
fn narrowing_choices(schema: &mut Map<String, Value>, parameter: bool, note: &mut dyn FnMut(&str, String)) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(members)) = schema.get(key) else { continue };
        let own_type = schema.get("type").and_then(Value::as_str).map(str::to_string);
        let own_type = own_type.as_deref();
        let mut kinds = std::collections::BTreeSet::new();
        let mut integer = true;
        let narrowing = !members.is_empty()
            && members.iter().all(|m| {
                let Some(m) = m.as_object() else { return false };
                m.iter().all(|(k, v)| {
                    if let Some((_, kind)) = NARROWING.iter().find(|(n, _)| n == k) {
                        if !kind.is_empty() {
                            kinds.insert(*kind);
                        }
                        if *k == "format" {
                            integer &= matches!(v.as_str(), Some("int32" | "int64"));
                        }
                        return true;
                    }
                    ANNOTATIONS.contains(&k.as_str()) || (k == "type" && v.as_str() == own_type)
                })
            });
        if !narrowing {
            continue;
        }
        let kinds: Vec<&str> = kinds.into_iter().collect();
        let inferred = match (own_type, kinds.as_slice()) {
            (Some(_), _) => None,
            (None, ["number"]) if integer => Some("integer"),
            (None, [one]) => Some(*one),
            _ => continue,
        };
        // Without `type`, a parameter's text stays a string, which members narrowing numbers all
        // allow: as written, a `oneOf` of two or more of them allows no value there.
        let count = members.len();
        let slip = (parameter && key == "oneOf" && count > 1 && matches!(inferred, Some("number" | "integer")))
            .then(|| format!(
                "without `type`, the parameter's text is a string, which all {count} members allow, so as written the `oneOf` allows no value"
            ));
        if let Some(why) = &slip {
            schema.insert(CONTRADICTED.to_string(), Value::from(why.clone()));
        }
        if let Some(members) = schema.remove(key)
            && let Value::Object(kept) = schema.entry(NARROWED).or_insert_with(|| Value::Object(Map::new()))
        {
            kept.insert(key.to_string(), members);
        }
        let read = match inferred {
            Some(t) => {
                schema.insert("type".to_string(), Value::from(t));
                format!("read as `type: {t}`")
            }
            None => format!("read as `type: {}`", own_type.unwrap_or_default()),
        };
        let slip = slip.map(|why| format!(" ({why})")).unwrap_or_default();
        note(
            key,
            format!(
                "the `{key}` members only narrow the value; {read}{slip}, and servers check the `{key}` against the document's schema"
            ),
        );
    }
}

/// `nullable: true` beside a `$ref` (Swagger 2.0's `x-nullable` there, as go-swagger writes
/// it): OpenAPI 3.0 ignores a reference's other keywords, but the intent is plain, and tools that
/// send requests (schemathesis among them) honour it. Read as the referenced schema or `null`, in
/// 3.0's own words: an `allOf` of the reference, nullable.
fn nullable_reference(schema: &mut Map<String, Value>, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    if schema.get("nullable") != Some(&Value::Bool(true)) {
        return;
    }
    let Some(reference) = schema.remove("$ref") else { return };
    schema.insert("allOf".into(), Value::Array(vec![serde_json::json!({ "$ref": reference })]));
    let message =
        "`nullable` beside `$ref`, which OpenAPI 3.0 ignores, is read as meant: the referenced schema or `null`";
    notes.push(Diagnostic { pointer: at.push("nullable").to_string(), line: None, message: message.into() });
}

/// `type` beside an `allOf` of one `$ref` (`type: string, allOf: [$ref: Kind]`, a way to add a
/// description to a reference): the referenced schema says the type.
fn typed_reference(schema: &mut Map<String, Value>, note: &mut dyn FnMut(&str, String)) {
    let Some(Value::Array(members)) = schema.get("allOf") else { return };
    let single_reference = members.len() == 1 && members[0].get("$ref").is_some();
    if !single_reference || schema.get("type").is_none_or(|t| t.as_str() == Some("object")) {
        return;
    }
    let written = schema.remove("type").unwrap_or_default();
    note(
        "type",
        format!(
            "`type: {}` beside an `allOf` of one reference is the referenced schema's",
            written.as_str().unwrap_or_default()
        ),
    );
}

/// `type`s that name no JSON type but say plainly what was meant: Swagger 2.0's `file`, and a
/// word such as `enum` beside an `enum` whose values all have one type.
fn wrong_types(schema: &mut Map<String, Value>, note: &mut dyn FnMut(&str, String)) {
    // Swagger 2.0's file type, left in an OpenAPI 3 document.
    if schema.get("type").and_then(Value::as_str) == Some("file") {
        note("type", "`type: file` is Swagger 2.0's spelling; read as `type: string`, `format: binary`".to_string());
        schema.insert("type".to_string(), Value::from("string"));
        schema.insert("format".to_string(), Value::from("binary"));
    }
    // A `type` naming no JSON type beside an `enum` (`type: enum`): the values say which it is.
    let known = ["string", "number", "integer", "boolean", "array", "object"];
    if let Some(written) = schema.get("type").and_then(Value::as_str).filter(|t| !known.contains(t)).map(str::to_string)
        && let Some(Value::Array(values)) = schema.get("enum")
        && !values.is_empty()
        && let Some(read) = value_kind(values)
    {
        note("type", format!("`type: {written}` is no JSON type; the enum's values make it `type: {read}`"));
        schema.insert("type".to_string(), Value::from(read));
    }
}

/// The one JSON type every value has (integers and other numbers make `number`), if there is one.
fn value_kind(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        _ => "",
    };
    let kinds: std::collections::BTreeSet<&str> = values.iter().filter(|v| !v.is_null()).map(kind).collect();
    match kinds.into_iter().collect::<Vec<_>>().as_slice() {
        [one] if !one.is_empty() => Some(*one),
        ["integer", "number"] => Some("number"),
        _ => None,
    }
}

/// JSON Schema's own spellings of what OpenAPI 3.0 writes otherwise, rewritten in the 3.0 form:
/// `null` members of a choice and `type` lists with `"null"` (as `nullable`), several types (as
/// an `anyOf`), and numeric `exclusiveMinimum`/`exclusiveMaximum`. Each rewrite is
/// told to `note`: a slip in a 3.0 document, the plain form of a 3.1 one (whose converter ignores
/// the notes).
pub(crate) fn json_schema_forms(schema: &mut Map<String, Value>, note: &mut dyn FnMut(&str, String)) {
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = schema.get_mut(key) else { continue };
        let before = members.len();
        members.retain(|m| m.get("type").and_then(Value::as_str) != Some("null"));
        if members.len() < before {
            note(key, format!("a `{key}` member of type `null` is read as `nullable: true`"));
            schema.insert("nullable".to_string(), Value::Bool(true));
        }
    }
    for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        if let Some(Value::Number(n)) = schema.get(flag).cloned() {
            note(flag, format!("`{flag}: {n}` is read as `{bound}: {n}` with `{flag}: true`"));
            schema.insert(bound.to_string(), Value::Number(n));
            schema.insert(flag.to_string(), Value::Bool(true));
        }
    }
    if let Some(Value::Array(types)) = schema.get("type").cloned() {
        let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
        let mut kept: Vec<&str> = named.iter().copied().filter(|t| *t != "null").collect();
        kept.dedup();
        let nullable = kept.len() < named.len();
        if nullable {
            schema.insert("nullable".to_string(), Value::Bool(true));
        }
        let read = match kept.as_slice() {
            [] => {
                schema.remove("type");
                "any JSON value".to_string()
            }
            [one] => {
                schema.insert("type".to_string(), Value::from(*one));
                format!("`type: {one}`")
            }
            several => {
                schema.remove("type");
                // Each keyword that belongs to one type goes with the member of that type.
                let members: Vec<Value> = several
                    .iter()
                    .map(|t| {
                        let mut member = serde_json::Map::new();
                        member.insert("type".to_string(), Value::from(*t));
                        for key in type_keywords(schema, t) {
                            if let Some(value) = schema.get(key) {
                                member.insert(key.to_string(), value.clone());
                            }
                        }
                        Value::Object(member)
                    })
                    .collect();
                for t in several {
                    for key in type_keywords(schema, t) {
                        schema.remove(key);
                    }
                }
                schema.insert("anyOf".to_string(), Value::Array(members));
                format!("any of {}", several.join(", "))
            }
        };
        let null = if nullable { ", nullable" } else { "" };
        note("type", format!("`type` is a list ({}); read as {read}{null}", named.join(", ")));
    }
}

/// A schema that allows only `null` (`type: null`, `enum: [null]`), which OpenAPI 3.0 has no
/// form for: read as any JSON value, nullable, which is looser, so said in every version; marked
/// with [`NULL_ONLY`].
pub(crate) fn null_only(schema: &mut Map<String, Value>, note: &mut dyn FnMut(&str, String)) {
    let typed = schema.get("type").and_then(Value::as_str) == Some("null");
    // `null` as the only value. (Beside other values, `null` is the schema being nullable, which
    // `repair_schema` reads.)
    let listed = matches!(schema.get("enum"), Some(Value::Array(values)) if !values.is_empty() && values.iter().all(Value::is_null));
    let key = match (typed, listed) {
        (true, _) => "type",
        (false, true) => "enum",
        (false, false) => return,
    };
    let written = if typed { "`type: null`" } else { "`enum: [null]`" };
    note(key, format!("{written} is read as a value that is always null: any JSON value, nullable"));
    schema.remove("type");
    if listed {
        schema.remove("enum");
    }
    schema.insert("nullable".to_string(), Value::Bool(true));
    schema.insert(NULL_ONLY.to_string(), Value::Bool(true));
}

/// The keywords of `schema` that constrain values of type `t` only (a numeric `format` goes with
/// numbers, any other with strings).
fn type_keywords(schema: &serde_json::Map<String, Value>, t: &str) -> Vec<&'static str> {
    let numeric_format =
        matches!(schema.get("format").and_then(Value::as_str), Some("int32" | "int64" | "float" | "double"));
    let format = |numbers: bool| (schema.contains_key("format") && numeric_format == numbers).then_some("format");
    let mut keys: Vec<&'static str> = match t {
        "string" => vec!["minLength", "maxLength", "pattern"],
        "integer" | "number" => {
            vec!["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]
        }
        "array" => vec!["items", "minItems", "maxItems", "uniqueItems"],
        "object" => vec!["properties", "required", "additionalProperties", "minProperties", "maxProperties"],
        _ => Vec::new(),
    };
    keys.extend(match t {
        "string" => format(false),
        "integer" | "number" => format(true),
        _ => None,
    });
    keys
}

/// The 64-bit integer a bound written as `value` stands for: a whole float in range as itself, a
/// fraction rounded inward (up for a minimum, down for a maximum); or why there is none.
fn whole_bound(key: &str, value: &Value) -> Result<i64, &'static str> {
    let v = value.as_f64().filter(|v| v.is_finite()).ok_or("not a number")?;
    let whole = match key {
        "minimum" => v.ceil(),
        "maximum" => v.floor(),
        _ if v.fract() == 0.0 && v > 0.0 => v,
        _ => return Err("not a positive whole number"),
    };
    // `i64::MIN` is exactly a float; `i64::MAX` is not, and its nearest float is one past it.
    if whole >= i64::MIN as f64 && whole < i64::MAX as f64 {
        Ok(whole as i64)
    } else {
        Err("beyond what a 64-bit integer holds")
    }
}

/// Whether an enum value fits a schema of type `ty`: `Some(None)` as it is, `Some(Some(v))` once
/// converted to `v`, `None` when it cannot be.
fn as_type(value: &Value, ty: &str) -> Option<Option<Value>> {
    let fits = match (ty, value) {
        (_, Value::Null) => true,
        ("string", Value::String(_)) | ("boolean", Value::Bool(_)) | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        _ => false,
    };
    if fits {
        return Some(None);
    }
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let converted = match ty {
        "string" => Some(Value::String(text)),
        "boolean" => text.parse::<bool>().ok().map(Value::Bool),
        "integer" => text
            .parse::<i64>()
            .ok()
            .or_else(|| text.parse::<f64>().ok().filter(|v| v.fract() == 0.0 && v.abs() < 9.0e15).map(|v| v as i64))
            .map(Value::from),
        "number" => text.parse::<f64>().ok().and_then(Number::from_f64).map(Value::Number),
        _ => None,
    };
    converted.map(Some)
}

/// Calls `f` with every schema object of a 3.0 document (component schemas and the schemas of
/// parameters, bodies, replies and headers, and every schema inside them) and its pointer.
/// References are not followed, and a `$ref` object is not a schema to repair.
fn each_schema(doc: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
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
fn walk(schema: &mut Value, at: &Pointer, f: &mut dyn FnMut(&mut Map<String, Value>, &Pointer)) {
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::diagnostic::Diagnostic;
    use crate::front::markers::CONTRADICTED;

    /// The repairs of a document that has the `info` every document needs, which these tests'
    /// documents leave out to stay short.
    fn repair(doc: &mut Value) -> Vec<Diagnostic> {
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
        assert_eq!(
            (&op["responses"]["200"]["headers"], &op["responses"]["201"]["description"]),
            (&json!({}), &json!(""))
        );
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
        let mut doc = json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "components": {"schemas": {"X": schema}}});
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
        let notes: Vec<String> =
            repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
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
        let notes: Vec<String> =
            repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
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
        let notes: Vec<String> =
            repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
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
        let notes: Vec<String> =
            repair(&mut doc).into_iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
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
}
