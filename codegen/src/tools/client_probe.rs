//! `apigen client-probe`: the generated client of any document calls every operation it can
//! with arguments sampled from the document's schemas, against a server of that document (Prism's
//! mock, in the oracle run), and reports each reply that does not decode into its type.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use openapiv3::{OpenAPI, Parameter, ParameterSchemaOrContent, ReferenceOr};
use serde_json::Value;

use super::helper;
use crate::CONTRADICTED;
use crate::ir::{Api, BodyEncoding, Location, ObjectStyle, Operation, TypeRef};
use crate::sample::{self, Options, Schemas, sample};

/// Generates the document's crates and a probe that calls every operation, builds it, and runs
/// it against `url`; the probe prints one line per operation and exits 1 when any failed.
pub fn client_probe(spec: &Path, url: &str, dir: &Path) -> Result<(), String> {
    let name = helper::crate_name(spec);
    let out = dir.join(&name);
    let generator = helper::generator(spec, &out, &name, 0)?;
    let config = generator.config()?;
    helper::write_crates(spec, generator)?;
    let loaded = crate::disk::load_from_disk(spec, false, &[])?;
    let api = crate::lower(&loaded.doc, &config).map_err(|d| d.to_string())?;
    let probe = out.join("probe");
    write_probe(&probe, &name, &loaded, &api)?;
    let target = dir.join("target");
    helper::build_helper(&probe, &target)
        .map_err(|_| format!("the client probe of {} does not build", spec.display()))?;
    let binary = target.join("debug").join(format!("{name}-probe{}", std::env::consts::EXE_SUFFIX));
    let status = Command::new(&binary).arg(url).status().map_err(|e| format!("cannot run the probe: {e}"))?;
    match status.success() {
        true => Ok(()),
        false => Err("some operations failed (listed above)".to_string()),
    }
}

fn write_probe(dir: &Path, name: &str, loaded: &crate::Loaded, api: &Api) -> Result<(), String> {
    let doc = &loaded.doc;
    let client = format!("{}_client", name.replace('-', "_"));
    let manifest = helper::manifest(
        &format!("{name}-probe"),
        vec![
            (format!("{name}-client"), helper::path_dependency(&format!("../{name}-client"), &[])),
            ("apigen-runtime".to_string(), helper::path_dependency("../apigen-runtime", &["json-schema"])),
            ("serde".to_string(), helper::registry_dependency("1", &[])),
            ("serde_json".to_string(), helper::registry_dependency("1", &[])),
            ("tokio".to_string(), helper::registry_dependency("1", &["macros", "rt-multi-thread"])),
        ],
    );
    let schemas = Schemas::of(doc);
    // Each operation's documented JSON replies, to tell a reply the mock got wrong from one the
    // client cannot read.
    let replies: serde_json::Map<String, Value> =
        api.operations.iter().map(|op| (op.id.clone(), Value::Array(json_replies(doc, op)))).collect();
    let components = doc.components.as_ref().map(|c| serde_json::to_value(&c.schemas).unwrap_or(Value::Null));
    // A reply is judged by the document's own draft of JSON Schema: Prism may write int64's
    // minimum as `-9.223372036854776e+18`, which draft 4 does not count as an integer.
    let integers = match loaded.integers_as_written {
        true => Value::from(sample::AS_WRITTEN),
        false => Value::Null,
    };
    let replies = serde_json::json!({
        "components": { "schemas": components },
        "replies": replies,
        sample::INTEGERS: integers,
    });
    // The same replies as the generator reads them: a schema without `type` whose keywords all
    // belong to one type is read as that type (with a warning), so a reply of another type, which
    // the document allows, is refused where the generator said so.
    let mut read = replies.clone();
    typed_as_read(&mut read["components"]["schemas"], Holds::Map);
    typed_as_read(&mut read["replies"], Holds::Map);
    let replies = serde_json::to_string(&replies).map_err(|e| e.to_string())?;
    let read = serde_json::to_string(&read).map_err(|e| e.to_string())?;
    let mut calls = String::new();
    for op in &api.operations {
        match call(api, doc, &schemas, op) {
            Ok(call) => calls.push_str(&call),
            Err(why) => {
                let _ =
                    writeln!(calls, "    println!(\"skipped {}: {}\");", op.id.escape_default(), why.escape_default());
            }
        }
    }
    // Base64 of `oracle:secret`, which passes for a bearer token, an API key and basic
    // credentials alike.
    // Those a client need not hold are set too, so that every operation has a set to send.
    const SECRET: &str = "\"b3JhY2xlOnNlY3JldA==\"";
    let credentials = api.client_credentials();
    let needed = credentials.iter().filter(|c| !c.optional).count();
    let optional: String =
        credentials.iter().filter(|c| c.optional).map(|c| format!(".with_{}({SECRET})", c.field)).collect();
    let credentials = format!("Credentials::new({}){optional}", vec![SECRET; needed].join(", "));
    let main = format!(
        "//! Calls every operation the probe could make arguments for; prints one line each.\n\n\
         #![allow(unused_imports, unused_labels, clippy::all)]\n\n\
         use {client}::{{Client, Credentials, DateTime, Error, types, uuid}};\n\
         use apigen_runtime::codegen::json_schema::JsonSchemas;\n\n\
         #[tokio::main]\nasync fn main() {{\n    \
         let base = std::env::args().nth(1).expect(\"the base URL\");\n    \
         // Prism takes minutes to write an example of a schema of thousands of properties.\n    \
         let client = Client::builder(&base, {credentials}).timeout(std::time::Duration::from_secs(300)).build().expect(\"a client\");\n    \
         let mut failed = 0;\n{calls}    std::process::exit(if failed > 0 {{ 1 }} else {{ 0 }});\n}}\n\n\
         fn arg<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {{\n    \
         serde_json::from_str(json).map_err(|e| format!(\"the sampled argument does not fit its type: {{e}}\"))\n}}\n\n\
         /// Why the mock, not the client, is at fault for `error`, when it is: a server error, or \
         a reply that did not decode and is outside every JSON reply the document gives `op`.\n\
         fn mock_fault(op: &str, error: &Error) -> Option<String> {{\n    \
         static REPLIES: std::sync::LazyLock<JsonSchemas> =\n        \
         std::sync::LazyLock::new(|| JsonSchemas::from_json(include_str!(\"replies.json\")));\n    \
         // A server error the document does not list is the mock failing (Prism cannot write some \
         replies), not the client.\n    \
         if let Error::Status(s) = error && s.status.is_server_error() {{\n        \
         return Some(format!(\"the mock failed with {{}}\", s.status));\n    }}\n    \
         let Error::Decode {{ body, .. }} = error else {{ return None }};\n    \
         let pointer = format!(\"#/replies/{{}}\", op.replace('~', \"~0\").replace('/', \"~1\"));\n    \
         let schemas = REPLIES.resolve(&pointer)?.as_array()?;\n    \
         let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {{\n        \
         return (!schemas.is_empty()).then(|| \"the reply is not JSON\".to_string());\n    }};\n    \
         let whys: Vec<String> = schemas.iter().filter_map(|s| REPLIES.check(s, &value).err()).collect();\n    \
         (!schemas.is_empty() && whys.len() == schemas.len())\n        \
         .then(|| format!(\"the reply is outside the document's schema: {{}}\", whys.join(\"; \")))\n}}\n\n\
         /// Why a reply the client refused, which the document allows, is one the generator said it \
         would refuse: it is outside every JSON reply of `op` as the generator reads the document.\n\
         fn narrowed(op: &str, error: &Error) -> Option<String> {{\n    \
         static READ: std::sync::LazyLock<JsonSchemas> =\n        \
         std::sync::LazyLock::new(|| JsonSchemas::from_json(include_str!(\"read.json\")));\n    \
         let Error::Decode {{ body, .. }} = error else {{ return None }};\n    \
         let pointer = format!(\"#/replies/{{}}\", op.replace('~', \"~0\").replace('/', \"~1\"));\n    \
         let schemas = READ.resolve(&pointer)?.as_array()?;\n    \
         let value = serde_json::from_slice::<serde_json::Value>(body).ok()?;\n    \
         let whys: Vec<String> = schemas.iter().filter_map(|s| READ.check(s, &value).err()).collect();\n    \
         (!schemas.is_empty() && whys.len() == schemas.len()).then(|| format!(\"the generator reads a schema without `type` \
         as its keywords' type, with a warning: {{}}\", whys.join(\"; \")))\n}}\n"
    );
    helper::write_helper(dir, &manifest, &main)?;
    for (file, text) in [("replies.json", replies), ("read.json", read)] {
        let path = dir.join("src").join(file);
        fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// What a JSON value of the replies' document holds: one schema, a list of them, or schemas by
/// name.
#[derive(Clone, Copy)]
enum Holds {
    Schema,
    List,
    Map,
}

/// Gives each schema in `value` without `type` the type its keywords belong to, where they all
/// belong to one (object keywords: `object`; list keywords: `array`), as the generator reads it.
fn typed_as_read(value: &mut Value, holds: Holds) {
    match (holds, value) {
        (Holds::List, Value::Array(list)) => list.iter_mut().for_each(|s| typed_as_read(s, Holds::Schema)),
        (Holds::Map, Value::Object(map)) => map.values_mut().for_each(|s| match s {
            Value::Array(_) => typed_as_read(s, Holds::List),
            _ => typed_as_read(s, Holds::Schema),
        }),
        (Holds::Schema, Value::Object(schema)) => {
            const OBJECT: &[&str] =
                &["properties", "additionalProperties", "required", "minProperties", "maxProperties"];
            const LIST: &[&str] = &["items", "minItems", "maxItems", "uniqueItems"];
            const CHOICE: &[&str] = &["$ref", "type", "allOf", "anyOf", "oneOf", "enum"];
            let has = |keys: &[&str]| keys.iter().any(|k| schema.contains_key(*k));
            if !has(CHOICE) && has(OBJECT) != has(LIST) {
                schema.insert("type".into(), Value::from(if has(OBJECT) { "object" } else { "array" }));
            }
            for (key, inner) in schema.iter_mut() {
                match key.as_str() {
                    "properties" => typed_as_read(inner, Holds::Map),
                    "items" | "additionalProperties" | "not" => typed_as_read(inner, Holds::Schema),
                    "allOf" | "anyOf" | "oneOf" => typed_as_read(inner, Holds::List),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// The schemas of `op`'s documented success replies that are JSON.
fn json_replies(doc: &OpenAPI, op: &Operation) -> Vec<Value> {
    let Some(doc_op) = find_operation(doc, &op.path, op.method.as_str()) else { return Vec::new() };
    let success = |code: &openapiv3::StatusCode| match code {
        openapiv3::StatusCode::Code(c) => (200..400).contains(c),
        openapiv3::StatusCode::Range(r) => *r == 2 || *r == 3,
    };
    let listed: Vec<_> = doc_op.responses.responses.iter().filter(|(code, _)| success(code)).map(|(_, r)| r).collect();
    // `default` describes the success only where no success status is listed.
    let default = doc_op.responses.default.as_ref().filter(|_| listed.is_empty());
    listed
        .into_iter()
        .chain(default)
        .filter_map(|r| match r {
            ReferenceOr::Item(r) => Some(r),
            ReferenceOr::Reference { reference } => {
                doc.components.as_ref()?.responses.get(reference.strip_prefix("#/components/responses/")?)?.as_item()
            }
        })
        .flat_map(|r| &r.content)
        .filter(|(media_type, _)| media_type.contains("json"))
        .filter_map(|(_, media)| serde_json::to_value(media.schema.as_ref()?).ok())
        .collect()
}

/// The statements that call `op` with sampled arguments and report how it went.
fn call(api: &Api, doc: &OpenAPI, schemas: &Schemas, op: &Operation) -> Result<String, String> {
    let doc_op = find_operation(doc, &op.path, op.method.as_str()).ok_or("not found in the document")?;
    let mut args = Vec::new();
    // Why a schema of what is sent allows no value as written, where the document contradicts
    // itself there (its repair says so with a warning).
    let mut slips = Vec::new();
    // Why Prism, reading the document as written, cannot read what is sent, where it cannot.
    let mut prism_slips = Vec::new();
    for p in op.params.iter().filter(|p| p.required) {
        // Prism's reader of the simple style throws on an object in the path and its mock exits,
        // which would leave every later call without a server.
        if p.location == Location::Path && p.object_style.is_some() {
            return Err(format!("Prism's mock exits on an object in a path parameter (`{}`)", p.wire));
        }
        let data = doc_param(doc, &op.path, doc_op, &p.wire, p.location);
        let schema = data.and_then(param_schema).ok_or("a parameter without a schema")?;
        contradictions(schemas, &schema, true, &mut slips, 0);
        // Filled, so that a required list has an item to send (an empty one is not sent at all).
        let mut value = sampled(schemas, &schema, true)?;
        if p.location == Location::Query {
            leave_out_formless(schemas, &schema, &mut value);
        }
        // Prism reads query names in lower case, so it never finds the properties of an object
        // exploded into the query whose names have capitals (`startTime`).
        let exploded = p.location == Location::Query && p.object_style == Some(ObjectStyle::Exploded);
        if let Some(name) =
            value.as_object().filter(|_| exploded).and_then(|o| o.keys().find(|k| k.chars().any(char::is_uppercase)))
        {
            prism_slips.push(format!(
                "Prism reads query names in lower case, and `{name}` of the exploded object `{}` has capitals",
                p.wire
            ));
        }
        args.push((rust_type(api, &p.ty)?, value));
    }
    // Parameters the document requires and the client takes as optional (one that may be
    // `null`, which a parameter can only say by its absence): a server reading the document as
    // written wants them, so they are set.
    let mut setters = Vec::new();
    for p in op.params.iter().filter(|p| !p.required) {
        let Some(data) = doc_param(doc, &op.path, doc_op, &p.wire, p.location).filter(|d| d.required) else { continue };
        let schema = param_schema(data).ok_or("a parameter without a schema")?;
        contradictions(schemas, &schema, true, &mut slips, 0);
        setters.push((p.name.clone(), rust_type(api, &p.ty)?, sampled(schemas, &schema, true)?));
    }
    // A body of several media types is sent as its first.
    let mut wrap = None;
    if let Some(body) = op.body.as_ref().filter(|b| b.required) {
        let body = match &body.choice {
            Some(choice) => {
                wrap = Some(format!("types::{}::{}", choice.name, choice.cases[0].name));
                &choice.cases[0].body
            }
            None => body,
        };
        if matches!(body.encoding, BodyEncoding::Multipart | BodyEncoding::Binary) {
            return Err("a file or binary body".into());
        }
        let doc_body = doc_op.request_body.as_ref().and_then(|b| resolve_body(doc, b));
        // The document names no media type for it: a mock reading the document as written takes
        // no body there, so the call tells nothing about the client.
        if doc_body.is_some_and(|b| b.extensions.contains_key(crate::ASSUMED_MEDIA_TYPE)) {
            return Err("the document names no media type for the body (read as JSON, with a warning)".into());
        }
        let media = doc_body
            .and_then(|b| b.content.get(&body.content_type))
            .and_then(|m| m.schema.as_ref())
            .ok_or("a body without a schema")?;
        let schema = serde_json::to_value(media).map_err(|e| e.to_string())?;
        // A form has no way to say an empty list: its lists are given an item.
        let full = body.encoding == BodyEncoding::Form;
        contradictions(schemas, &schema, full, &mut slips, 0);
        let mut value = sampled(schemas, &schema, full)?;
        // A text body is the text of whatever value its schema allows.
        if body.encoding == BodyEncoding::Text && body.ty == TypeRef::String && !value.is_string() {
            value = Value::String(value.to_string());
        }
        args.push((rust_type(api, &body.ty)?, value));
    }
    args.extend(setters.iter().map(|(_, ty, value)| (ty.clone(), value.clone())));
    let id = op.id.escape_default().to_string();
    let mut out = String::from("    'call: {\n");
    let mut names = Vec::new();
    for (i, (ty, value)) in args.iter().enumerate() {
        let text = value.to_string();
        let _ = writeln!(
            out,
            "        let Ok(a{i}) = arg::<{ty}>({text:?}).map_err(|e| {{ println!(\"FAIL {id}: {{e}}\"); failed += 1; }}) else {{ break 'call; }};"
        );
        names.push(format!("a{i}"));
    }
    // The setters' values come after the positional ones, the body last of those.
    let positional = names.len() - setters.len();
    let set: String = setters
        .iter()
        .zip(names.drain(positional..))
        .map(|((setter, ..), value)| format!(".{}({value})", crate::rust_ident(setter)))
        .collect();
    if let (Some(wrap), Some(last)) = (wrap, names.last()) {
        let _ = writeln!(out, "        let {last} = {wrap}({last});");
    }
    // A status the operation documents, answered by a mock that found the request valid (Prism
    // marks an invalid one with `sl-violations`), is a reply of the operation too: one that
    // documents only errors gets one of them.
    let documented = documented_statuses(doc_op);
    // A request the mock refuses, where the document allows no value as written, is the
    // document's slip.
    let slip = match slips.first() {
        Some(why) => format!(
            "            Err(Error::Status(s)) if s.status.is_client_error() => {{\n                \
             println!(\"document {id}: {{}}: {{}}\", s.status, {why:?});\n            }}\n"
        ),
        None => String::new(),
    };
    let slip = match prism_slips.first() {
        Some(why) => format!(
            "{slip}            Err(Error::Status(s)) if s.status.is_client_error() => {{\n                \
             println!(\"mock {id}: {{}}: {{}}\", s.status, {why:?});\n            }}\n"
        ),
        None => slip,
    };
    let _ = writeln!(
        out,
        "        match client.{}({}){set}.await {{\n            Ok(_) => println!(\"ok {id}\"),\n            \
         Err(Error::Status(s)) if matches!(s.status.as_u16(), {documented}) && !s.headers.contains_key(\"sl-violations\") => {{\n                \
         println!(\"ok {id} (a documented {{}})\", s.status.as_u16());\n            }}\n{slip}            \
         Err(e) => match mock_fault(\"{id}\", &e) {{\n                \
         Some(why) => println!(\"mock {id}: {{e}}: {{why}}\"),\n                \
         None => match narrowed(\"{id}\", &e) {{\n                    \
         Some(why) => println!(\"narrowed {id}: {{e}}: {{why}}\"),\n                    \
         None => {{\n                        println!(\"FAIL {id}: {{e}}\");\n                        failed += 1;\n                    }}\n                }},\n            }},\n        }}\n    }}",
        crate::rust_ident(&op.fn_name),
        names.join(", ")
    );
    Ok(out)
}

/// Leaves out of a query object the optional properties OpenAPI's styles give no form (objects,
/// lists of objects), which the generator warns it writes as JSON text: a mock reading the
/// document as written cannot read them, and a caller can always leave them out.
fn leave_out_formless(schemas: &Schemas, schema: &Value, value: &mut Value) {
    let mut schema = schema;
    for _ in 0..16 {
        match schema.get("$ref").and_then(Value::as_str).and_then(|r| schemas.resolve(r)) {
            Some(target) => schema = target,
            None => break,
        }
    }
    let Value::Object(properties) = value else { return };
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let formless = |v: &Value| match v {
        Value::Object(_) => true,
        Value::Array(items) => items.iter().any(Value::is_object),
        _ => false,
    };
    properties.retain(|name, v| required.contains(&name.as_str()) || !formless(v));
}

/// Collects the reasons the repair gave for parts of `schema` that allow no value as written
/// (see [`CONTRADICTED`]): the schema itself, what it refers to or combines, its items, and its
/// properties that are sent (the required ones, or all when `full`).
fn contradictions(schemas: &Schemas, schema: &Value, full: bool, out: &mut Vec<String>, depth: usize) {
    let Some(schema) = schema.as_object().filter(|_| depth < 16) else { return };
    if let Some(why) = schema.get(CONTRADICTED).and_then(Value::as_str) {
        out.push(why.to_string());
    }
    if let Some(target) = schema.get("$ref").and_then(Value::as_str).and_then(|r| schemas.resolve(r)) {
        contradictions(schemas, target, full, out, depth + 1);
    }
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let properties = schema.get("properties").and_then(Value::as_object).into_iter().flatten();
    let sent = properties.filter(|(name, _)| full || required.contains(&name.as_str())).map(|(_, s)| s);
    for part in
        schema.get("allOf").and_then(Value::as_array).into_iter().flatten().chain(schema.get("items")).chain(sent)
    {
        contradictions(schemas, part, full, out, depth + 1);
    }
}

fn sampled(schemas: &Schemas, schema: &Value, full: bool) -> Result<Value, String> {
    sample(schemas, schema, Options { seed: 0, full }).map_err(|why| format!("no sample: {why}"))
}

/// A Rust pattern for the statuses `op` documents (exact, a class such as `4XX`, or any at all
/// for `default`).
fn documented_statuses(op: &openapiv3::Operation) -> String {
    if op.responses.default.is_some() {
        return "_".into();
    }
    let statuses: Vec<String> = op
        .responses
        .responses
        .keys()
        .map(|code| match code {
            openapiv3::StatusCode::Code(c) => c.to_string(),
            openapiv3::StatusCode::Range(r) => format!("{}..={}", r * 100, r * 100 + 99),
        })
        .collect();
    if statuses.is_empty() { "0".into() } else { statuses.join(" | ") }
}

/// The Rust type of a value the client method takes, as the probe writes it.
fn rust_type(api: &Api, ty: &TypeRef) -> Result<String, String> {
    Ok(match ty {
        TypeRef::String => "String".into(),
        TypeRef::Bool => "bool".into(),
        TypeRef::I32 => "i32".into(),
        TypeRef::I64 => "i64".into(),
        TypeRef::F32 => "f32".into(),
        TypeRef::F64 => "f64".into(),
        TypeRef::Uuid => "uuid::Uuid".into(),
        TypeRef::DateTime => "DateTime".into(),
        TypeRef::Json => "serde_json::Value".into(),
        TypeRef::Bytes | TypeRef::File => return Err("bytes or a file".into()),
        TypeRef::Vec(item) => format!("Vec<{}>", rust_type(api, item)?),
        TypeRef::Map(value) => format!("std::collections::BTreeMap<String, {}>", rust_type(api, value)?),
        TypeRef::Nullable(inner) => format!("Option<{}>", rust_type(api, inner)?),
        TypeRef::Named(id) => format!("types::{}", api.name_of(*id)),
        TypeRef::BodyChoice(name) => format!("types::{name}"),
    })
}

fn find_operation<'a>(doc: &'a OpenAPI, path: &str, method: &str) -> Option<&'a openapiv3::Operation> {
    let item = doc.paths.paths.get(path)?.as_item()?;
    match method.to_ascii_lowercase().as_str() {
        "get" => item.get.as_ref(),
        "put" => item.put.as_ref(),
        "post" => item.post.as_ref(),
        "delete" => item.delete.as_ref(),
        "options" => item.options.as_ref(),
        "head" => item.head.as_ref(),
        "patch" => item.patch.as_ref(),
        "trace" => item.trace.as_ref(),
        _ => None,
    }
}

/// The document's own description of the parameter the lowered `wire` and `location` name.
fn doc_param<'a>(
    doc: &'a OpenAPI,
    path: &str,
    op: &'a openapiv3::Operation,
    wire: &str,
    location: Location,
) -> Option<&'a openapiv3::ParameterData> {
    let item = doc.paths.paths.get(path)?.as_item()?;
    let params = op.parameters.iter().chain(&item.parameters).filter_map(|p| match p {
        ReferenceOr::Item(p) => Some(p),
        ReferenceOr::Reference { reference } => {
            doc.components.as_ref()?.parameters.get(reference.strip_prefix("#/components/parameters/")?)?.as_item()
        }
    });
    params
        .map(|p| match p {
            Parameter::Query { parameter_data, .. } => (parameter_data, Location::Query),
            Parameter::Header { parameter_data, .. } => (parameter_data, Location::Header),
            Parameter::Path { parameter_data, .. } => (parameter_data, Location::Path),
            Parameter::Cookie { parameter_data, .. } => (parameter_data, Location::Cookie),
        })
        .find(|(data, at)| data.name == wire && *at == location)
        .map(|(data, _)| data)
}

/// A parameter's schema, or its content's, as JSON.
fn param_schema(data: &openapiv3::ParameterData) -> Option<Value> {
    match &data.format {
        ParameterSchemaOrContent::Schema(s) => serde_json::to_value(s).ok(),
        ParameterSchemaOrContent::Content(content) => {
            serde_json::to_value(content.values().next()?.schema.as_ref()?).ok()
        }
    }
}

fn resolve_body<'a>(
    doc: &'a OpenAPI,
    body: &'a ReferenceOr<openapiv3::RequestBody>,
) -> Option<&'a openapiv3::RequestBody> {
    match body {
        ReferenceOr::Item(b) => Some(b),
        ReferenceOr::Reference { reference } => doc
            .components
            .as_ref()?
            .request_bodies
            .get(reference.strip_prefix("#/components/requestBodies/")?)?
            .as_item(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Holds, typed_as_read};

    #[test]
    fn schemas_without_type_take_the_type_their_keywords_belong_to() {
        let mut replies = json!({"GetA": [{"properties": {
            "list": {"items": [{"type": "string"}]},
            "items": {"type": "integer"},
            "both": {"items": {}, "properties": {}},
            "choice": {"anyOf": [{"required": ["a"]}], "minItems": 1}
        }}]});
        typed_as_read(&mut replies, Holds::Map);
        let read = &replies["GetA"][0];
        assert_eq!(read["type"], "object");
        assert_eq!(read["properties"]["list"]["type"], "array");
        // A property named as a keyword is a property, and a typed schema stays as it is.
        assert_eq!(read["properties"]["items"], json!({"type": "integer"}));
        // Keywords of two types, or beside a choice, say no one type.
        assert_eq!(read["properties"]["both"].get("type"), None);
        assert_eq!(read["properties"]["choice"].get("type"), None);
        assert_eq!(read["properties"]["choice"]["anyOf"][0]["type"], "object");
    }
}
