//! Repairs of one schema: limits, enum values, types, nullable references and the JSON Schema
//! forms OpenAPI 3.0 spells otherwise.

use serde_json::{Map, Number, Value};

use super::all_of::ANNOTATIONS;

use crate::diagnostic::{Diagnostic, Pointer};
use crate::front::markers::{CONTRADICTED, NARROWED, NULL_ONLY, XML};

/// Limits that count characters, items or properties: whole numbers from zero.
const COUNTS: [&str; 6] = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];

pub(super) fn repair_schema(schema: &mut Map<String, Value>, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    let mut note = |key: &str, message: String| {
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            pointer: at.push(key).to_string(),
            line: None,
            message,
        });
    };
    // The typed model keeps no `xml` object, which says how a value is written in XML: it is
    // kept as an extension, for the servers that read XML bodies.
    if let Some(xml) = schema.remove("xml") {
        schema.insert(XML.to_string(), xml);
    }
    tuple_items(schema, &mut note);
    json_schema_forms(schema, &mut note);
    null_only(schema, &mut note);
    repeated_enum_values(schema, &mut note);
    wrong_types(schema, &mut note);
    // A parameter's own schema (not one it refers to), whose value arrives as text.
    let parameter = at.json_pointer().rsplit('/').nth(2) == Some("parameters");
    narrowing_choices(schema, parameter, &mut note);
    typed_reference(schema, &mut note);
    whole_counts(schema, &mut note);
    let ty = schema.get("type").and_then(Value::as_str).map(str::to_string);
    integer_bounds(schema, ty.as_deref(), &mut note);
    enum_values(schema, ty.as_deref(), &mut note);
}

/// `items` as a list of schemas (a tuple in JSON Schema draft 4): each item read as any of them.
fn tuple_items(schema: &mut Map<String, Value>, note: &mut dyn FnMut(&str, String)) {
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
}

/// Length and count limits as whole numbers of zero or more: a fraction rounded so the limit
/// never admits more, anything else dropped.
fn whole_counts(schema: &mut Map<String, Value>, note: &mut dyn FnMut(&str, String)) {
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
}

/// An integer's bounds and step as 64-bit integers, or dropped.
fn integer_bounds(schema: &mut Map<String, Value>, ty: Option<&str>, note: &mut dyn FnMut(&str, String)) {
    if ty == Some("integer") {
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
}

/// An enum's values as its type and `nullable` say: `null` among them or beside them, values of
/// another type converted or dropped, and no more `x-enum-varnames` than values.
fn enum_values(schema: &mut Map<String, Value>, ty: Option<&str>, note: &mut dyn FnMut(&str, String)) {
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
    if let (Some(ty), Some(Value::Array(values))) = (ty, schema.get_mut("enum")) {
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
pub(super) fn nullable_reference(schema: &mut Map<String, Value>, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    if schema.get("nullable") != Some(&Value::Bool(true)) {
        return;
    }
    let Some(reference) = schema.remove("$ref") else { return };
    schema.insert("allOf".into(), Value::Array(vec![serde_json::json!({ "$ref": reference })]));
    let message =
        "`nullable` beside `$ref`, which OpenAPI 3.0 ignores, is read as meant: the referenced schema or `null`";
    notes.push(Diagnostic {
        severity: crate::diagnostic::Severity::Note,
        pointer: at.push("nullable").to_string(),
        line: None,
        message: message.into(),
    });
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
