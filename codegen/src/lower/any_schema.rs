//! Schemas `openapiv3` could not sort into one kind: real specs put `format` on objects, `maximum`
//! on strings, leave out `type: object` beside `properties`, or put `type` beside `allOf`. When
//! the intended kind is unambiguous the schema is rebuilt as that kind, listing the keywords that
//! do not apply so the caller can warn about them.

use openapiv3::{
    AnySchema, ArrayType, BooleanType, IntegerType, NumberType, ObjectType, ReferenceOr, Schema, SchemaKind,
    StringType, Type, VariantOrUnknownOrEmpty,
};
use serde_json::Value;

/// Why [`normalize`] found no kind for a schema without `type` whose keywords (`format`,
/// `minimum`, …) each apply to more than one type: the caller keeps it as any JSON value.
pub(crate) const SEVERAL_TYPES: &str = "a schema without `type` whose keywords belong to several types";

/// The kind `any` stands for, with the keywords (spec spelling) that do not apply to it; or why
/// no single kind fits.
pub(crate) fn normalize(any: &AnySchema) -> Result<(SchemaKind, Vec<&'static str>), String> {
    let compositions = [!any.all_of.is_empty(), !any.one_of.is_empty(), !any.any_of.is_empty(), any.not.is_some()];
    let has_object = !any.properties.is_empty() || !any.required.is_empty() || any.additional_properties.is_some();
    match compositions {
        [false, false, false, false] => {}
        [true, false, false, false] => {
            let mut all_of = any.all_of.clone();
            // Properties beside `allOf` are one more member of it.
            if has_object {
                all_of.push(ReferenceOr::Item(Schema {
                    schema_data: Default::default(),
                    schema_kind: SchemaKind::Type(Type::Object(object(any))),
                }));
            }
            return composition(any, SchemaKind::AllOf { all_of }, &["format"]);
        }
        [false, true, false, false] if !has_object => {
            return composition(any, SchemaKind::OneOf { one_of: any.one_of.clone() }, &["format"]);
        }
        [false, false, true, false] if !has_object => {
            return composition(any, SchemaKind::AnyOf { any_of: any.any_of.clone() }, &["format"]);
        }
        _ => {
            return Err("a schema that combines `oneOf`, `anyOf`, `allOf` or `not` with each other or with \
                        `properties`"
                .to_string());
        }
    }
    let typ = match any.typ.as_deref() {
        Some(t) => t,
        None if has_object => "object",
        None if any.items.is_some() => "array",
        // An `enum` alone: its values say the type.
        None => match enum_type(&any.enumeration) {
            Some(t) => t,
            None => return Err(SEVERAL_TYPES.to_string()),
        },
    };
    let (kind, own): (Type, &[&str]) = match typ {
        "object" => (
            Type::Object(object(any)),
            &["properties", "required", "additionalProperties", "minProperties", "maxProperties"],
        ),
        "array" => (
            Type::Array(ArrayType {
                items: any.items.clone(),
                min_items: any.min_items,
                max_items: any.max_items,
                unique_items: any.unique_items.unwrap_or(false),
            }),
            &["items", "minItems", "maxItems", "uniqueItems"],
        ),
        "string" => {
            let enumeration = values(&any.enumeration, |v| v.as_str().map(str::to_string))?;
            let string = StringType {
                format: format(&any.format),
                pattern: any.pattern.clone(),
                enumeration,
                min_length: any.min_length,
                max_length: any.max_length,
            };
            (Type::String(string), &["format", "pattern", "enum", "minLength", "maxLength"])
        }
        "integer" => {
            let whole = |v: Option<f64>| v.filter(|v| v.fract() == 0.0 && v.abs() < 9.0e15).map(|v| v as i64);
            let integer = IntegerType {
                format: format(&any.format),
                multiple_of: whole(any.multiple_of),
                exclusive_minimum: any.exclusive_minimum.unwrap_or(false),
                exclusive_maximum: any.exclusive_maximum.unwrap_or(false),
                minimum: whole(any.minimum),
                maximum: whole(any.maximum),
                enumeration: values(&any.enumeration, Value::as_i64)?,
            };
            let own: &[&str] =
                &["format", "multipleOf", "exclusiveMinimum", "exclusiveMaximum", "minimum", "maximum", "enum"];
            (Type::Integer(integer), own)
        }
        "number" => {
            let number = NumberType {
                format: format(&any.format),
                multiple_of: any.multiple_of,
                exclusive_minimum: any.exclusive_minimum.unwrap_or(false),
                exclusive_maximum: any.exclusive_maximum.unwrap_or(false),
                minimum: any.minimum,
                maximum: any.maximum,
                enumeration: values(&any.enumeration, Value::as_f64)?,
            };
            let own: &[&str] =
                &["format", "multipleOf", "exclusiveMinimum", "exclusiveMaximum", "minimum", "maximum", "enum"];
            (Type::Number(number), own)
        }
        "boolean" => (Type::Boolean(BooleanType { enumeration: values(&any.enumeration, Value::as_bool)? }), &["enum"]),
        other => return Err(format!("a schema of type `{other}`")),
    };
    let ignored = present(any).into_iter().filter(|k| !own.contains(k)).collect();
    Ok((SchemaKind::Type(kind), ignored))
}

fn composition(any: &AnySchema, kind: SchemaKind, allowed: &[&str]) -> Result<(SchemaKind, Vec<&'static str>), String> {
    let compositions = ["allOf", "oneOf", "anyOf", "properties", "required", "additionalProperties"];
    let ignored = present(any).into_iter().filter(|k| !allowed.contains(k) && !compositions.contains(k)).collect();
    if any.typ.as_deref().is_some_and(|t| t != "object") {
        return Err(format!(
            "a schema of type `{}` combined with `allOf`, `oneOf` or `anyOf`",
            any.typ.as_deref().unwrap_or_default()
        ));
    }
    Ok((kind, ignored))
}

fn object(any: &AnySchema) -> ObjectType {
    ObjectType {
        properties: any.properties.clone(),
        required: any.required.clone(),
        additional_properties: any.additional_properties.clone(),
        min_properties: any.min_properties,
        max_properties: any.max_properties,
    }
}

/// `any` without a `oneOf` or `anyOf` whose members only list required properties (the JSON
/// Schema idiom for "one of these must be present"), and without a `not` that only lists required
/// properties ("not all of these together"); neither adds shape to the value. Also the keywords
/// removed.
pub(crate) fn without_required_choice(any: &AnySchema) -> Option<(AnySchema, Vec<&'static str>)> {
    let required_only = |member: &ReferenceOr<Schema>| match member {
        ReferenceOr::Item(Schema { schema_kind: SchemaKind::Any(m), .. }) => {
            !m.required.is_empty() && *m == AnySchema { required: m.required.clone(), ..AnySchema::default() }
        }
        ReferenceOr::Item(Schema { schema_kind: SchemaKind::Type(Type::Object(o)), .. }) => {
            !o.required.is_empty() && o.properties.is_empty() && o.additional_properties.is_none()
        }
        _ => false,
    };
    let choice = |members: &[ReferenceOr<Schema>]| !members.is_empty() && members.iter().all(required_only);
    let mut stripped = any.clone();
    let mut removed = Vec::new();
    if choice(&any.one_of) {
        stripped.one_of.clear();
        removed.push("oneOf");
    } else if choice(&any.any_of) {
        stripped.any_of.clear();
        removed.push("anyOf");
    }
    if let Some(not) = &any.not
        && required_only(not)
    {
        stripped.not = None;
        removed.push("not");
    }
    (!removed.is_empty()).then_some((stripped, removed))
}

/// A choice (`oneOf` or `anyOf`) beside a part every value shares (`allOf` members, or the
/// schema's own properties): JSON Schema asks for both, so each member of the choice is read
/// together with the shared part.
pub(crate) struct SharedChoice {
    /// `oneOf` or `anyOf`.
    pub keyword: &'static str,
    pub members: Vec<ReferenceOr<Schema>>,
    /// What every member is merged with.
    pub shared: Vec<ReferenceOr<Schema>>,
}

/// `any` as a choice beside a shared part, when that is what it is: no `not`, no `type` other than
/// object, and at most one distinct list of members to choose from (an `anyOf` that lists the
/// same members as the `oneOf` beside it adds nothing).
pub(crate) fn shared_choice(any: &AnySchema) -> Option<SharedChoice> {
    let has_object = !any.properties.is_empty() || !any.required.is_empty() || any.additional_properties.is_some();
    if any.not.is_some() || any.typ.as_deref().is_some_and(|t| t != "object") {
        return None;
    }
    let (keyword, members, same_any_of) = match (any.one_of.is_empty(), any.any_of.is_empty()) {
        (false, true) => ("oneOf", &any.one_of, false),
        (true, false) => ("anyOf", &any.any_of, false),
        (false, false) if any.one_of == any.any_of => ("oneOf", &any.one_of, true),
        _ => return None,
    };
    if any.all_of.is_empty() && !has_object && !same_any_of {
        return None;
    }
    let mut shared = any.all_of.clone();
    if has_object {
        shared.push(ReferenceOr::Item(Schema {
            schema_data: Default::default(),
            schema_kind: SchemaKind::Type(Type::Object(object(any))),
        }));
    }
    Some(SharedChoice { keyword, members: members.clone(), shared })
}

/// The one JSON type of every (non-null) value of an `enum`, if they share one.
fn enum_type(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let mut kinds = values.iter().filter(|v| !v.is_null()).map(kind);
    let first = kinds.next()??;
    kinds.all(|k| k == Some(first)).then_some(first)
}

/// A `format` string as the typed format of a kind; unknown formats stay as text.
fn format<T: serde::de::DeserializeOwned>(format: &Option<String>) -> VariantOrUnknownOrEmpty<T> {
    match format {
        None => VariantOrUnknownOrEmpty::Empty,
        Some(f) => serde_json::from_value(Value::String(f.clone())).unwrap_or(VariantOrUnknownOrEmpty::Empty),
    }
}

/// Enum values of one kind; `null` stays `None` (and is reported by the enum's lowering).
fn values<T>(values: &[Value], each: impl Fn(&Value) -> Option<T>) -> Result<Vec<Option<T>>, String> {
    values
        .iter()
        .map(|v| match v {
            Value::Null => Ok(None),
            v => each(v).map(Some).ok_or_else(|| format!("an enum value {v} that does not match the schema's type")),
        })
        .collect()
}

/// The keywords set in `any` other than `type`, spelled as in the spec.
pub(crate) fn present(any: &AnySchema) -> Vec<&'static str> {
    let checks = [
        (any.pattern.is_some(), "pattern"),
        (any.multiple_of.is_some(), "multipleOf"),
        (any.exclusive_minimum.is_some(), "exclusiveMinimum"),
        (any.exclusive_maximum.is_some(), "exclusiveMaximum"),
        (any.minimum.is_some(), "minimum"),
        (any.maximum.is_some(), "maximum"),
        (!any.properties.is_empty(), "properties"),
        (!any.required.is_empty(), "required"),
        (any.additional_properties.is_some(), "additionalProperties"),
        (any.min_properties.is_some(), "minProperties"),
        (any.max_properties.is_some(), "maxProperties"),
        (any.items.is_some(), "items"),
        (any.min_items.is_some(), "minItems"),
        (any.max_items.is_some(), "maxItems"),
        (any.unique_items.is_some(), "uniqueItems"),
        (!any.enumeration.is_empty(), "enum"),
        (any.format.is_some(), "format"),
        (any.min_length.is_some(), "minLength"),
        (any.max_length.is_some(), "maxLength"),
        (!any.all_of.is_empty(), "allOf"),
        (!any.one_of.is_empty(), "oneOf"),
        (!any.any_of.is_empty(), "anyOf"),
    ];
    checks.into_iter().filter(|(set, _)| *set).map(|(_, k)| k).collect()
}
