//! Swagger 2.0 → OpenAPI 3.0, on the parsed JSON value, so the rest of the pipeline reads one
//! model. What has no 3.0 form, or is invalid and repaired, becomes a note located in the
//! Swagger document.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Diagnostic, Pointer};
use crate::front::markers;

pub(crate) fn is_swagger2(doc: &Value) -> bool {
    doc.get("swagger").and_then(Value::as_str).is_some_and(|v| v.starts_with("2."))
}

/// The OpenAPI 3.0 form of a Swagger 2.0 document, and notes on what the conversion changed.
pub(crate) fn convert(doc: &Value) -> (Value, Vec<Diagnostic>) {
    let mut converter = Converter { doc, notes: Vec::new() };
    let converted = converter.document();
    (converted, converter.notes)
}

/// A pointer into the 3.0 form, mapped back to the 2.0 document where there is a direct
/// counterpart (schemas, shared parameters and responses, reply schemas), so a diagnostic names
/// what the user wrote; request bodies, which were parameters, keep their 3.0 pointer.
pub(crate) fn original_pointer(pointer: &str) -> String {
    for (old, new) in MOVED {
        if let Some(rest) = pointer.strip_prefix(new) {
            return format!("{old}{rest}");
        }
    }
    // `.../responses/200/content/application~1json/schema/...` was `.../responses/200/schema/...`.
    if let Some((head, tail)) = pointer.split_once("/content/")
        && let Some((_, after)) = tail.split_once('/')
        && head.contains("/responses/")
    {
        return format!("{head}/{after}");
    }
    pointer.to_string()
}

/// Where 2.0 keeps what 3.0 keeps under `components`: references are moved one way, diagnostics'
/// pointers the other.
const MOVED: [(&str, &str); 4] = [
    ("#/definitions/", "#/components/schemas/"),
    ("#/parameters/", "#/components/parameters/"),
    ("#/responses/", "#/components/responses/"),
    ("#/securityDefinitions/", "#/components/securitySchemes/"),
];

struct Converter<'a> {
    doc: &'a Value,
    notes: Vec<Diagnostic>,
}

/// Methods a Swagger 2.0 path item may hold.
const METHODS: [&str; 7] = ["get", "put", "post", "delete", "options", "head", "patch"];

impl<'a> Converter<'a> {
    fn note(&mut self, pointer: &Pointer, message: impl Into<String>) {
        self.notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            pointer: pointer.to_string(),
            line: None,
            message: message.into(),
        });
    }

    fn document(&mut self) -> Value {
        let doc = self.doc;
        let root = Pointer::root();
        let mut out = Map::new();
        out.insert("openapi".into(), json!("3.0.3"));
        // A missing title or version is for the repairs to note, as in any document.
        out.insert("info".into(), doc.get("info").cloned().unwrap_or_else(|| json!({})));
        if let Some(server) = self.server() {
            out.insert("servers".into(), json!([{ "url": server }]));
        }
        for key in ["tags", "security", "externalDocs"] {
            if let Some(value) = doc.get(key) {
                out.insert(key.into(), value.clone());
            }
        }
        let mut paths = Map::new();
        for (path, item) in object(doc.get("paths")) {
            paths.insert(path.clone(), self.path_item(&root.push("paths").push(path), item));
        }
        out.insert("paths".into(), Value::Object(paths));
        let mut components = Map::new();
        let schemas: Map<String, Value> = object(doc.get("definitions"))
            .map(|(name, s)| (name.clone(), self.schema(&root.push("definitions").push(name), s)))
            .collect();
        components.insert("schemas".into(), Value::Object(schemas));
        let mut parameters = Map::new();
        for (name, p) in object(doc.get("parameters")) {
            // Body and form parameters become request bodies where they are used.
            if !matches!(p.get("in").and_then(Value::as_str), Some("body" | "formData")) {
                parameters.insert(name.clone(), self.parameter(&root.push("parameters").push(name), p));
            }
        }
        components.insert("parameters".into(), Value::Object(parameters));
        let produces = strings(doc.get("produces"));
        let mut responses = Map::new();
        for (name, r) in object(doc.get("responses")) {
            responses.insert(name.clone(), self.response(&root.push("responses").push(name), r, &produces));
        }
        components.insert("responses".into(), Value::Object(responses));
        let mut schemes = Map::new();
        for (name, s) in object(doc.get("securityDefinitions")) {
            if let Some(scheme) = self.security_scheme(&root.push("securityDefinitions").push(name), s) {
                schemes.insert(name.clone(), scheme);
            }
        }
        components.insert("securitySchemes".into(), Value::Object(schemes));
        out.insert("components".into(), Value::Object(components));
        Value::Object(out)
    }

    /// `schemes`, `host` and `basePath` as one URL; the first scheme, preferring https.
    fn server(&self) -> Option<String> {
        let base = self.doc.get("basePath").and_then(Value::as_str).unwrap_or("");
        let Some(host) = self.doc.get("host").and_then(Value::as_str) else {
            return (!base.is_empty()).then(|| base.to_string());
        };
        let schemes = strings(self.doc.get("schemes"));
        let scheme = if schemes.is_empty() || schemes.iter().any(|s| s == "https") { "https" } else { &schemes[0] };
        Some(format!("{scheme}://{host}{base}"))
    }

    fn path_item(&mut self, ptr: &Pointer, item: &Value) -> Value {
        if item.get("$ref").is_some() {
            return item.clone();
        }
        let shared: Vec<&Value> =
            item.get("parameters").and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
        let mut out = Map::new();
        for method in METHODS {
            if let Some(op) = item.get(method) {
                out.insert(method.into(), self.operation(&ptr.push(method), op, &shared, &ptr.push("parameters")));
            }
        }
        Value::Object(out)
    }

    fn operation(&mut self, ptr: &Pointer, op: &Value, shared: &[&Value], shared_ptr: &Pointer) -> Value {
        let mut out = Map::new();
        for key in ["tags", "summary", "description", "externalDocs", "operationId", "deprecated", "security"] {
            if let Some(value) = op.get(key) {
                out.insert(key.into(), value.clone());
            }
        }
        let consumes = self.media_types(ptr, op, "consumes");
        let produces = self.media_types(ptr, op, "produces");
        // The operation's own parameters, then the path item's it does not override.
        let own: Vec<(Pointer, &Value)> = op
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, p)| (ptr.push("parameters").push(i), p))
            .collect();
        let key = |p: &Value| {
            let p = self.resolve_parameter(p);
            (p.get("name").cloned(), p.get("in").cloned())
        };
        let inherited: Vec<(Pointer, &Value)> = shared
            .iter()
            .enumerate()
            .filter(|(_, p)| !own.iter().any(|(_, o)| key(o) == key(p)))
            .map(|(i, p)| (shared_ptr.push(i), *p))
            .collect();
        let mut parameters = Vec::new();
        let mut form: Vec<(Pointer, &Value)> = Vec::new();
        let mut body_param = None;
        for (param_ptr, raw) in own.into_iter().chain(inherited) {
            let resolved = self.resolve_parameter(raw);
            match resolved.get("in").and_then(Value::as_str) {
                Some("body") => {
                    let body = self.body(&param_ptr, resolved, &consumes);
                    body_param = Some((param_ptr, body));
                }
                Some("formData") => form.push((param_ptr, resolved)),
                // Not a location of Swagger 2.0; what it can only mean is a form field.
                Some("form") => {
                    self.note(&param_ptr.push("in"), "`in: form` is read as `in: formData`");
                    form.push((param_ptr, resolved));
                }
                _ if raw.get("$ref").is_some() => parameters.push(reference(raw)),
                _ => parameters.push(self.parameter(&param_ptr, raw)),
            }
        }
        let body = match (form.is_empty(), body_param) {
            (true, body) => body.map(|(_, body)| body),
            (false, None) => Some(self.form_body(&form, &consumes)),
            (false, Some((body_ptr, body))) => Some(self.form_and_body(&form, &consumes, &body_ptr, body)),
        };
        if let Some(body) = body {
            out.insert("requestBody".into(), body);
        }
        if !parameters.is_empty() {
            out.insert("parameters".into(), Value::Array(parameters));
        }
        let mut responses = Map::new();
        for (code, r) in object(op.get("responses")) {
            responses.insert(code.clone(), self.response(&ptr.push("responses").push(code), r, &produces));
        }
        if produces.is_empty() && responses.values().any(|r| r.get("content").is_some()) {
            let message = "neither the operation nor the document lists `produces`, so no media type is given for its replies; those with a schema are read as `application/json` (`application/octet-stream` for files)";
            self.note(&ptr.push("responses"), message);
        }
        // Replies without a schema have no content to carry a media type, yet `produces` still
        // says what the operation answers in: kept for the server's own error replies.
        if !produces.is_empty() {
            out.insert(markers::PRODUCES.into(), Value::from(produces.clone()));
        }
        out.insert("responses".into(), Value::Object(responses));
        Value::Object(out)
    }

    /// A parameter, following a `$ref` into `#/parameters` (unchanged when it does not resolve,
    /// so lowering reports it).
    fn resolve_parameter<'v>(&self, p: &'v Value) -> &'v Value
    where
        'a: 'v,
    {
        let name = p.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/parameters/"));
        name.and_then(|n| self.doc.get("parameters")?.get(n)).unwrap_or(p)
    }

    fn body(&mut self, ptr: &Pointer, p: &Value, consumes: &[String]) -> Value {
        let media = json!({ "schema": self.schema(&ptr.push("schema"), p.get("schema").unwrap_or(&json!({}))) });
        let types = if consumes.is_empty() { vec!["application/json".to_string()] } else { consumes.to_vec() };
        let content: Map<String, Value> = types.into_iter().map(|ct| (ct, media.clone())).collect();
        let mut out = json!({ "content": content, "required": p.get("required").cloned().unwrap_or(json!(false)) });
        if consumes.is_empty() {
            let message = "neither the operation nor the document lists `consumes`, so no media type is given for this body; it is read as `application/json`";
            self.note(ptr, message);
            out[markers::ASSUMED_MEDIA_TYPE] = json!(true);
        }
        if let Some(d) = p.get("description") {
            out["description"] = d.clone();
        }
        out
    }

    /// Both a `body` parameter and `formData` parameters, which Swagger 2.0 does not allow
    /// together: the form fields under their form's media type, the body parameter under the
    /// other media types `consumes` lists (none left: it is left out), with a note.
    fn form_and_body(
        &mut self,
        form: &[(Pointer, &Value)],
        consumes: &[String],
        body_ptr: &Pointer,
        body: Value,
    ) -> Value {
        let mut out = self.form_body(form, consumes);
        let is_form = |ct: &str| ct.starts_with("multipart/") || ct.starts_with("application/x-www-form-urlencoded");
        let mut kept = Vec::new();
        for (ct, media) in object(body.get("content")) {
            if !is_form(ct)
                && let Some(content) = out.get_mut("content").and_then(Value::as_object_mut)
            {
                content.insert(ct.clone(), media.clone());
                kept.push(ct.clone());
            }
        }
        let message = match kept.is_empty() {
            true => "Swagger 2.0 takes a `body` parameter or `formData` parameters, not both; every type `consumes` lists is a form, so the form fields are read and this parameter is left out".to_string(),
            false => format!(
                "Swagger 2.0 takes a `body` parameter or `formData` parameters, not both; read as one body: the form fields as a form, this parameter as {}",
                kept.join(", ")
            ),
        };
        self.note(body_ptr, message);
        if body.get("required") == Some(&json!(true)) {
            out["required"] = json!(true);
        }
        out
    }

    /// `formData` parameters as one object schema, multipart when a file is among them or the
    /// operation consumes it, else a form.
    fn form_body(&mut self, params: &[(Pointer, &Value)], consumes: &[String]) -> Value {
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut files = false;
        for (ptr, p) in params {
            let Some(name) = p.get("name").and_then(Value::as_str) else { continue };
            files |= p.get("type").and_then(Value::as_str) == Some("file");
            properties.insert(name.to_string(), self.simple_schema(ptr, p));
            if p.get("required").and_then(Value::as_bool) == Some(true) {
                required.push(json!(name));
            }
        }
        let multipart = files || consumes.iter().any(|c| c.starts_with("multipart/form-data"));
        let content_type = if multipart { "multipart/form-data" } else { "application/x-www-form-urlencoded" };
        let mut object = json!({ "type": "object", "properties": properties });
        if !required.is_empty() {
            object["required"] = Value::Array(required.clone());
        }
        json!({ "required": !required.is_empty(), "content": { content_type: { "schema": object } } })
    }

    /// A path, query, header or cookie parameter: its type keywords move into `schema`, its
    /// `collectionFormat` becomes a style.
    fn parameter(&mut self, ptr: &Pointer, p: &Value) -> Value {
        let mut out = Map::new();
        for key in ["name", "in", "description", "required", "allowEmptyValue", "deprecated"] {
            if let Some(value) = p.get(key) {
                out.insert(key.into(), value.clone());
            }
        }
        out.insert("schema".into(), self.simple_schema(ptr, p));
        let location = p.get("in").and_then(Value::as_str).unwrap_or("");
        if p.get("type").and_then(Value::as_str) == Some("array") {
            let format = p.get("collectionFormat").and_then(Value::as_str).unwrap_or("csv");
            let style = match (format, location) {
                ("multi", _) => Some(("form", true)),
                ("csv", "query") => Some(("form", false)),
                ("ssv", "query") => Some(("spaceDelimited", false)),
                ("pipes", "query") => Some(("pipeDelimited", false)),
                ("csv", _) => None,
                (other, _) => {
                    self.note(
                        &ptr.push("collectionFormat"),
                        format!(
                            "`collectionFormat: {other}` has no OpenAPI 3.0 form here; the items are joined with commas"
                        ),
                    );
                    (location == "query").then_some(("form", false))
                }
            };
            if let Some((style, explode)) = style {
                out.insert("style".into(), json!(style));
                out.insert("explode".into(), json!(explode));
            }
        }
        Value::Object(out)
    }

    /// The schema of a non-body parameter, header or form field from its own type keywords.
    fn simple_schema(&mut self, ptr: &Pointer, p: &Value) -> Value {
        let mut out = Map::new();
        for key in [
            "type",
            "format",
            "enum",
            "default",
            "maximum",
            "exclusiveMaximum",
            "minimum",
            "exclusiveMinimum",
            "maxLength",
            "minLength",
            "pattern",
            "maxItems",
            "minItems",
            "uniqueItems",
            "multipleOf",
        ] {
            if let Some(value) = p.get(key) {
                out.insert(key.into(), value.clone());
            }
        }
        match out.get("type").and_then(Value::as_str) {
            Some("file") => {
                out.insert("type".into(), json!("string"));
                out.insert("format".into(), json!("binary"));
            }
            Some("string" | "number" | "integer" | "boolean") => {}
            None => {
                self.note(ptr, "a parameter without a `type` is read as a string");
                out.insert("type".into(), json!("string"));
            }
            Some("array") => {
                let items = p.get("items").map_or(json!({}), |items| self.simple_schema(&ptr.push("items"), items));
                out.insert("items".into(), items);
            }
            Some(other) => {
                let other = other.to_string();
                self.note(&ptr.push("type"), format!("`{other}` is not a parameter type; it is read as a string"));
                out.insert("type".into(), json!("string"));
            }
        }
        Value::Object(out)
    }

    /// The media types an operation `consumes` or `produces`: its own list, else the document's.
    /// An empty list of its own clears the document's, which leaves a body or reply with a schema
    /// no media type at all; generators write them so where they mean "as the document says", so
    /// the document's list stands, noted.
    fn media_types(&mut self, ptr: &Pointer, op: &Value, key: &str) -> Vec<String> {
        let global = strings(self.doc.get(key));
        // Whether anything of the operation's own would go without a media type.
        let used = match key {
            "produces" => object(op.get("responses")).any(|(_, r)| r.get("schema").is_some()),
            _ => op
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|p| matches!(p.get("in").and_then(Value::as_str), Some("body" | "formData"))),
        };
        match op.get(key) {
            None => global,
            Some(own) if strings(Some(own)).is_empty() && !global.is_empty() && used => {
                let message = format!(
                    "`{key}: []` would leave the operation's schemas without a media type; the document's `{key}` is read instead"
                );
                self.note(&ptr.push(key), message);
                global
            }
            Some(own) => strings(Some(own)),
        }
    }

    fn response(&mut self, ptr: &Pointer, r: &Value, produces: &[String]) -> Value {
        if let Some(target) = r.get("$ref").and_then(Value::as_str) {
            // A shared reply takes the media types of the operation that refers to it: where they
            // are not the document's (which its component was converted with), it is written out
            // here with the operation's.
            let shared = target
                .strip_prefix("#/responses/")
                .and_then(|name| self.doc.get("responses")?.get(name))
                .filter(|shared| shared.get("$ref").is_none());
            return match shared {
                Some(shared) if produces != strings(self.doc.get("produces")).as_slice() => {
                    self.response(ptr, shared, produces)
                }
                _ => reference(r),
            };
        }
        let mut out = Map::new();
        out.insert("description".into(), r.get("description").cloned().unwrap_or(json!("")));
        if let Some(s) = r.get("schema") {
            let file = s.get("type").and_then(Value::as_str) == Some("file");
            let default = if file { "application/octet-stream" } else { "application/json" };
            let types = if produces.is_empty() { vec![default.to_string()] } else { produces.to_vec() };
            let media = json!({ "schema": self.schema(&ptr.push("schema"), s) });
            let content: Map<String, Value> = types.into_iter().map(|ct| (ct, media.clone())).collect();
            out.insert("content".into(), Value::Object(content));
        }
        let mut headers = Map::new();
        for (name, h) in object(r.get("headers")) {
            let mut header = json!({ "schema": self.simple_schema(&ptr.push("headers").push(name), h) });
            if let Some(d) = h.get("description") {
                header["description"] = d.clone();
            }
            headers.insert(name.clone(), header);
        }
        if !headers.is_empty() {
            out.insert("headers".into(), Value::Object(headers));
        }
        Value::Object(out)
    }

    fn security_scheme(&mut self, ptr: &Pointer, s: &Value) -> Option<Value> {
        let text = |key: &str| s.get(key).cloned().unwrap_or(json!(""));
        let scheme = match s.get("type").and_then(Value::as_str) {
            Some("basic") => json!({ "type": "http", "scheme": "basic" }),
            Some("apiKey") => json!({ "type": "apiKey", "name": text("name"), "in": text("in") }),
            Some("oauth2") => {
                let scopes = s.get("scopes").cloned().unwrap_or(json!({}));
                let flow = match s.get("flow").and_then(Value::as_str) {
                    Some("implicit") => {
                        ("implicit", json!({ "authorizationUrl": text("authorizationUrl"), "scopes": scopes }))
                    }
                    Some("password") => ("password", json!({ "tokenUrl": text("tokenUrl"), "scopes": scopes })),
                    Some("application") => {
                        ("clientCredentials", json!({ "tokenUrl": text("tokenUrl"), "scopes": scopes }))
                    }
                    _ => (
                        "authorizationCode",
                        json!({ "authorizationUrl": text("authorizationUrl"), "tokenUrl": text("tokenUrl"), "scopes": scopes }),
                    ),
                };
                json!({ "type": "oauth2", "flows": { flow.0: flow.1 } })
            }
            other => {
                let shown = other.unwrap_or("(none)").to_string();
                self.note(
                    &ptr.push("type"),
                    format!("security scheme type `{shown}` is unknown; the scheme is left out"),
                );
                return None;
            }
        };
        let mut scheme = scheme;
        if let Some(d) = s.get("description") {
            scheme["description"] = d.clone();
        }
        Some(scheme)
    }

    /// A list of schemas, each converted.
    fn schemas(&mut self, ptr: &Pointer, list: &Value) -> Value {
        let items = list.as_array().into_iter().flatten().enumerate();
        Value::Array(items.map(|(i, v)| self.schema(&ptr.push(i), v)).collect())
    }

    /// A schema with its references moved to `#/components` and the 2.0-only keywords
    /// rewritten: `type: file`, `x-nullable`, and a `discriminator` given as a bare property name.
    /// A `type` JSON does not have is dropped, so the value is read as any JSON value.
    fn schema(&mut self, ptr: &Pointer, s: &Value) -> Value {
        let Value::Object(map) = s else { return s.clone() };
        let mut out = Map::new();
        for (key, value) in map {
            let at = ptr.push(key);
            let value = match key.as_str() {
                "$ref" => reference_text(value),
                "properties" => {
                    Value::Object(object(Some(value)).map(|(k, v)| (k.clone(), self.schema(&at.push(k), v))).collect())
                }
                // A list of item schemas (a tuple in JSON Schema draft 4) is repaired after
                // conversion, as in a 3.0 document.
                "items" if value.is_array() => self.schemas(&at, value),
                "items" | "not" => self.schema(&at, value),
                "additionalProperties" if value.is_object() => self.schema(&at, value),
                "allOf" | "oneOf" | "anyOf" => self.schemas(&at, value),
                "discriminator" if value.is_string() => json!({ "propertyName": value }),
                "x-nullable" => {
                    out.insert("nullable".into(), value.clone());
                    continue;
                }
                "type" if value == "file" => {
                    out.insert("format".into(), json!("binary"));
                    json!("string")
                }
                // A list of types is repaired after conversion, as in a 3.0 document.
                "type"
                    if !value.is_array()
                        && !matches!(
                            value.as_str(),
                            Some("string" | "number" | "integer" | "boolean" | "array" | "object" | "null")
                        ) =>
                {
                    let shown = value.as_str().map_or_else(|| value.to_string(), str::to_string);
                    self.note(&at, format!("`{shown}` is not a JSON type; the value is read as any JSON value"));
                    continue;
                }
                _ => value.clone(),
            };
            out.insert(key.clone(), value);
        }
        Value::Object(out)
    }
}

/// A `{"$ref": ..}` object with its target moved to `#/components`.
fn reference(r: &Value) -> Value {
    json!({ "$ref": reference_text(&r["$ref"]) })
}

fn reference_text(r: &Value) -> Value {
    let Some(text) = r.as_str() else { return r.clone() };
    for (old, new) in MOVED {
        if let Some(rest) = text.strip_prefix(old) {
            return json!(format!("{new}{rest}"));
        }
    }
    r.clone()
}

fn object(value: Option<&Value>) -> impl Iterator<Item = (&String, &Value)> {
    value.and_then(Value::as_object).into_iter().flatten()
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
}
