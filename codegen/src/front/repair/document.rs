//! Repairs of the document around its schemas: info, replies, headers, external docs, path
//! templates, Swagger 2.0 spellings, examples and security.

use serde_json::{Map, Value};

use super::parameters::schemaless_parameters;

use crate::diagnostic::{Diagnostic, Pointer};

/// A reply that refers to a request body (`$ref: '#/components/requestBodies/X'`, a slip of
/// documents that keep replies and requests side by side) is read as a reply with that content.
pub(super) fn responses_from_request_bodies(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
            severity: crate::diagnostic::Severity::Note,
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
pub(super) fn required_info(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
            notes.push(Diagnostic { severity: crate::diagnostic::Severity::Warning, pointer, line: None, message });
            info.insert(key.to_string(), Value::String(text));
        }
        if !info.get(key).is_some_and(Value::is_string) {
            let pointer = Pointer::root().push("info").push(key).to_string();
            let message = format!("the document has no `info.{key}`; `{assumed}` is assumed");
            notes.push(Diagnostic { severity: crate::diagnostic::Severity::Warning, pointer, line: None, message });
            info.insert(key.to_string(), Value::from(assumed));
        }
    }
}

/// A reply without its required `description` (Django REST framework's generator leaves it out):
/// an empty one is assumed, rather than leaving the operation out.
pub(super) fn reply_descriptions(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let mut fix = |reply: &mut Value, at: Pointer| {
        if let Value::Object(reply) = reply
            && !reply.contains_key("$ref")
            && !reply.get("description").is_some_and(Value::is_string)
        {
            let message = "the reply has no `description`; an empty one is assumed".to_string();
            notes.push(Diagnostic {
                severity: crate::diagnostic::Severity::Warning,
                pointer: at.to_string(),
                line: None,
                message,
            });
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
pub(super) fn headers_from_parameters(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
            notes.push(Diagnostic {
                severity: crate::diagnostic::Severity::Note,
                pointer: at.to_string(),
                line: None,
                message,
            });
        }
    }
}

/// `externalDocs` without its required `url` (the document's, a tag's or an operation's): only a
/// link's text, with nowhere to link to, so left out.
pub(super) fn external_docs_urls(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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

pub(super) fn drop_external_docs_without_url(
    owner: &mut Map<String, Value>,
    at: &Pointer,
    notes: &mut Vec<Diagnostic>,
) {
    let Some(docs) = owner.get("externalDocs") else { return };
    if docs.get("url").is_some_and(Value::is_string) {
        return;
    }
    owner.remove("externalDocs");
    let message = "`externalDocs` has no `url`, which it requires; it is left out".to_string();
    notes.push(Diagnostic {
        severity: crate::diagnostic::Severity::Warning,
        pointer: at.push("externalDocs").to_string(),
        line: None,
        message,
    });
}

/// Path segments written as Express and Hono write parameters (`/todos/:id`), read as the
/// template they mean (`/todos/{id}`). A path the document also has in braces is left alone.
pub(super) fn express_path_parameters(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
                notes.push(Diagnostic { severity: crate::diagnostic::Severity::Note, pointer, line: None, message });
                template
            }
            _ => path,
        };
        rebuilt.insert(key, item);
    }
    *paths = rebuilt;
}

/// Swagger 2.0 spellings left in an OpenAPI 3 document, where their meaning is plain.
pub(super) fn swagger2_spellings(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    let Value::Object(root) = doc else { return };
    if let Some(Value::Object(schemes)) = root.get_mut("components").and_then(|c| c.get_mut("securitySchemes")) {
        for (name, scheme) in schemes.iter_mut() {
            let Value::Object(scheme) = scheme else { continue };
            if scheme.get("type").and_then(Value::as_str) == Some("basic") {
                scheme.insert("type".to_string(), Value::String("http".to_string()));
                scheme.insert("scheme".to_string(), Value::String("basic".to_string()));
                let pointer = Pointer::root().push("components").push("securitySchemes").push(name).push("type");
                let message = "`type: basic` is Swagger 2.0's spelling; read as `type: http`, `scheme: basic`".into();
                notes.push(Diagnostic {
                    severity: crate::diagnostic::Severity::Note,
                    pointer: pointer.to_string(),
                    line: None,
                    message,
                });
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
            notes.push(Diagnostic { severity: crate::diagnostic::Severity::Warning, pointer, line: None, message });
        } else {
            schemas.insert(name.clone(), schema);
            moved.push(name);
        }
    }
    if moved.is_empty() {
        return;
    }
    notes.push(Diagnostic {
        severity: crate::diagnostic::Severity::Note,
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

/// Swagger 2.0's form parameters (`in: formData`, or `in: form` as some producers write it) left
/// in an OpenAPI 3 operation: read as the form body they stand for, each parameter a property of
/// it (multipart when one is a file), unless the operation has a body already.
pub(super) fn form_data_parameters(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
                notes.push(Diagnostic {
                    severity: crate::diagnostic::Severity::Warning,
                    pointer: at.push("parameters").to_string(),
                    line: None,
                    message,
                });
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
            notes.push(Diagnostic {
                severity: crate::diagnostic::Severity::Warning,
                pointer: at.push("parameters").to_string(),
                line: None,
                message,
            });
        }
    }
}

/// `examples` where OpenAPI wants a map of Example objects (on media types, parameters and
/// headers, and in `components/examples`), written as a list, as one bare value, or with bare
/// values in the map: read as the named examples they mean. Schemas, whose own `examples` are
/// JSON Schema's, are left to the schema repairs.
pub(super) fn malformed_examples(value: &mut Value, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    let Value::Object(map) = value else {
        if let Value::Array(items) = value {
            items.iter_mut().enumerate().for_each(|(i, item)| malformed_examples(item, &at.push(i), notes));
        }
        return;
    };
    let mut note = |message: String| {
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            pointer: at.push("examples").to_string(),
            line: None,
            message,
        })
    };
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

/// `null` for the scopes of a security requirement: no scopes. A scheme a requirement names and
/// the document never declares: the requirement without it, as nothing says how to send it.
pub(super) fn repair_security(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
                    notes.push(Diagnostic { severity: crate::diagnostic::Severity::Warning, pointer, line: None, message });
                }
                known
            });
            for (scheme, scopes) in schemes.iter_mut().filter(|(_, scopes)| scopes.is_null()) {
                let pointer = at.push(i).push(scheme).to_string();
                notes.push(Diagnostic {
                    severity: crate::diagnostic::Severity::Note,
                    pointer,
                    line: None,
                    message: "`null` scopes are read as none".into(),
                });
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
pub(super) fn oauth_flow_urls(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
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
                notes.push(Diagnostic {
                    severity: crate::diagnostic::Severity::Warning,
                    pointer: at.to_string(),
                    line: None,
                    message,
                });
                fields.insert(key.to_string(), assumed);
            }
        }
    }
}
