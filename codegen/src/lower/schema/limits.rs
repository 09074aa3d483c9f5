//! What a schema allows: its limits as [`Constraints`], whether it takes `null`, and whether a
//! default or example fits the type it became.

use openapiv3::{
    AdditionalProperties, NumberFormat, ReferenceOr, Schema, SchemaKind, StringFormat, Type, VariantOrUnknownOrEmpty,
};

use crate::diagnostic::Pointer;
use crate::front::markers;
use crate::ir::{Constraints, DefaultValue, TypeDef, TypeRef};
use crate::lower::Lowerer;

/// Checks every property default against its field's type, now that every type is known: a
/// literal where Rust can write one, else (a struct or a choice) decoded from its JSON when
/// needed, once the property's schema allows it. One that does not fit is left out with a
/// warning.
pub(crate) fn finish_defaults(lowerer: &mut Lowerer) {
    for (name, field, value, schema, ptr) in std::mem::take(&mut lowerer.pending_defaults) {
        let Some(index) = lowerer.index_of(&name) else { continue };
        let TypeDef::Struct(s) = &lowerer.types[index] else { continue };
        let ty = s.fields[field].ty.clone();
        let schemas = lowerer.sample_schemas.get_or_init(|| crate::sample::Schemas::of(lowerer.doc));
        let checked = crate::sample::check(schemas, &schema, &value);
        // Decoded when first needed: the schema allows it, and every integer in it fits the Rust
        // integer it is read into (JSON Schema has no bound where `i64` has one).
        let decoded =
            || (checked.is_ok() && lowerer.integers_fit(&ty, &value, 0)).then(|| DefaultValue::Decoded(value.clone()));
        match lowerer.default_value(&ty, &value).or_else(decoded) {
            // One its own schema refuses (`default: []` beside `minItems: 1`) would be written
            // into values that then break the schema: ignored, as one of the wrong type is.
            Some(_) if let Err(why) = &checked => {
                lowerer.warn(&ptr, format!("default {value} does not meet its own schema ({why}) and is ignored"));
            }
            Some(default) => {
                if let TypeDef::Struct(s) = &mut lowerer.types[index] {
                    s.fields[field].default = Some(default);
                }
            }
            None => lowerer.warn(&ptr, format!("default {value} does not fit the property's type and is ignored")),
        }
    }
}

impl Lowerer<'_> {
    /// Whether every integer in `value` fits the Rust integer type `ty` reads it into, for some
    /// member of each choice on the way; anything else is left to the schema's check.
    fn integers_fit(&self, ty: &TypeRef, value: &serde_json::Value, depth: usize) -> bool {
        use serde_json::Value;
        if depth > 64 {
            return true;
        }
        match (ty, value) {
            (TypeRef::I32, Value::Number(n)) => n.as_i64().is_some_and(|v| i32::try_from(v).is_ok()),
            (TypeRef::I64, Value::Number(n)) => n.as_i64().is_some(),
            (TypeRef::Vec(item), Value::Array(items)) => items.iter().all(|v| self.integers_fit(item, v, depth + 1)),
            (TypeRef::Map(item), Value::Object(map)) => map.values().all(|v| self.integers_fit(item, v, depth + 1)),
            (TypeRef::Nullable(inner), value) => value.is_null() || self.integers_fit(inner, value, depth + 1),
            (TypeRef::Named(id), value) => {
                match self.def(*id) {
                    Some(TypeDef::Alias { target, .. }) => self.integers_fit(target, value, depth + 1),
                    // Some member of the kind of JSON value the default is must hold it.
                    Some(TypeDef::Union(u)) => u.variants.iter().any(|v| {
                        self.reads_kind(&v.ty, value, depth + 1) && self.integers_fit(&v.ty, value, depth + 1)
                    }),
                    Some(TypeDef::Struct(s)) => s.fields.iter().all(|f| {
                        value.get(&f.wire).is_none_or(|v| v.is_null() || self.integers_fit(&f.ty, v, depth + 1))
                    }),
                    _ => true,
                }
            }
            _ => true,
        }
    }

    /// Whether `ty` reads the kind of JSON value `value` is (a number, a string, a list…).
    fn reads_kind(&self, ty: &TypeRef, value: &serde_json::Value, depth: usize) -> bool {
        use serde_json::Value;
        match (ty, value) {
            (TypeRef::Json, _) | (_, Value::Null) => true,
            (TypeRef::I32 | TypeRef::I64 | TypeRef::F32 | TypeRef::F64, Value::Number(_)) => true,
            (TypeRef::String | TypeRef::Uuid | TypeRef::DateTime, Value::String(_)) => true,
            (TypeRef::Bool, Value::Bool(_)) => true,
            (TypeRef::Vec(_), Value::Array(_)) | (TypeRef::Map(_), Value::Object(_)) => true,
            (TypeRef::Nullable(inner), value) => self.reads_kind(inner, value, depth + 1),
            (TypeRef::Named(id), value) if depth <= 64 => match self.def(*id) {
                Some(TypeDef::Alias { target, .. }) => self.reads_kind(target, value, depth + 1),
                Some(TypeDef::Union(u)) => u.variants.iter().any(|v| self.reads_kind(&v.ty, value, depth + 1)),
                Some(TypeDef::Struct(_)) => value.is_object(),
                Some(TypeDef::StringEnum(_)) => value.is_string(),
                Some(TypeDef::IntEnum(_)) => value.is_number(),
                _ => true,
            },
            _ => false,
        }
    }

    /// `ty`, or `Option<ty>` when `schema` (an item of a list or a value of a map), or the
    /// component schema it refers to, may be `null` and `ty` does not take `null` already.
    pub(super) fn nullable<S: std::borrow::Borrow<Schema>>(&self, schema: &ReferenceOr<S>, ty: TypeRef) -> TypeRef {
        match self.resolve_schema(schema) {
            Some(s) if self.may_be_null(s, 0) && !self.takes_null(&ty, 0) => TypeRef::Nullable(Box::new(ty)),
            _ => ty,
        }
    }

    /// Whether `schema` says `nullable`, or is an `allOf` of one member that does (a reference
    /// wrapped to give it a description, as the 3.1 conversion writes `$ref` with siblings).
    pub(super) fn may_be_null(&self, schema: &Schema, depth: usize) -> bool {
        schema.schema_data.nullable
            || matches!(&schema.schema_kind, SchemaKind::AllOf { all_of } if all_of.len() == 1 && depth < 8
                && self.resolve_schema(&all_of[0]).is_some_and(|inner| self.may_be_null(inner, depth + 1)))
    }

    /// Whether a value of `ty` may be `null`: any JSON value, or a choice one of whose members
    /// may be (`depth` bounds the walk through choices of choices).
    pub(crate) fn takes_null(&self, ty: &TypeRef, depth: usize) -> bool {
        match self.unaliased(ty) {
            TypeRef::Json | TypeRef::Nullable(_) => true,
            TypeRef::Named(id) if depth < 8 => match self.def(*id) {
                Some(TypeDef::Union(u)) => u.variants.iter().any(|v| self.takes_null(&v.ty, depth + 1)),
                _ => false,
            },
            _ => false,
        }
    }

    /// The limits of the component schema `reference` names, located there.
    /// The limits on a map's keys that its `propertyNames` gives (kept by the 3.1 conversion
    /// under [`markers::PROPERTY_NAMES`]): their length, pattern and format.
    fn key_constraints(&mut self, schema: &Schema, ptr: &Pointer) -> Option<Box<Constraints>> {
        let names = schema.schema_data.extensions.get(markers::PROPERTY_NAMES)?;
        let at = ptr.push("propertyNames");
        const CHECKED: [&str; 9] =
            ["type", "description", "title", "minLength", "maxLength", "pattern", "format", "example", "examples"];
        let unchecked =
            names.as_object().is_some_and(|n| n.keys().any(|k| !CHECKED.contains(&k.as_str()) && k != "$ref"));
        if unchecked {
            self.warn(&at, "only the length, pattern and format of property names are checked");
        }
        let limits = match serde_json::from_value::<ReferenceOr<Schema>>(names.clone()) {
            Ok(ReferenceOr::Reference { reference }) => self.referenced_constraints(&reference),
            Ok(ReferenceOr::Item(names)) => self.constraints(&names, &at),
            Err(_) => {
                self.warn(&at, "`propertyNames` is not a schema; property names are not checked");
                return None;
            }
        };
        Some(Box::new(limits)).filter(|c| !c.is_empty())
    }

    pub(crate) fn referenced_constraints(&mut self, reference: &str) -> Constraints {
        let Some(schema) = self.component_schema(reference) else { return Constraints::default() };
        let name = reference.strip_prefix("#/components/schemas/").unwrap_or(reference);
        let ptr = Pointer::root().push("components").push("schemas").push(name);
        self.constraints(schema, &ptr)
    }

    /// The limits a schema at `ptr` puts on values beyond their type. A pattern the server's
    /// regular expressions cannot read is left unchecked, with a warning.
    pub(crate) fn constraints(&mut self, schema: &Schema, ptr: &Pointer) -> Constraints {
        let mut limits = self.keyword_limits(schema, ptr);
        if let Some(choice) = schema.schema_data.extensions.get(markers::NARROWED) {
            limits.choices.push(self.register_check(choice.clone(), ptr));
        }
        limits
    }

    /// The limits the keywords of a schema's own type state.
    fn keyword_limits(&mut self, schema: &Schema, ptr: &Pointer) -> Constraints {
        match &schema.schema_kind {
            // Files in a multipart body: as many parts as the largest list of them allows.
            SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members }
                if self.is_file_part(ptr)
                    && let Some(choice) = self.file_choice(members).filter(|choice| choice.list) =>
            {
                Constraints { max_items: choice.max_items, ..Constraints::default() }
            }
            // An enum's values are its limits.
            SchemaKind::Type(Type::String(s)) if !s.enumeration.is_empty() => Constraints::default(),
            // A date-time or UUID is a Rust type of its own, whose form its parser checks; text
            // limits do not apply to it.
            SchemaKind::Type(Type::String(s))
                if matches!(&s.format, VariantOrUnknownOrEmpty::Item(StringFormat::DateTime))
                    || matches!(&s.format, VariantOrUnknownOrEmpty::Unknown(f) if f == "uuid") =>
            {
                for (key, present) in [
                    ("minLength", s.min_length.is_some()),
                    ("maxLength", s.max_length.is_some()),
                    ("pattern", s.pattern.is_some()),
                ] {
                    if present {
                        self.warn(
                            &ptr.push(key),
                            format!("`{key}` is not checked on a date-time or UUID, whose form is fixed"),
                        );
                    }
                }
                Constraints::default()
            }
            SchemaKind::Type(Type::String(s)) => {
                // Kept as written; the server matches it as the Rust engine reads it.
                let pattern = s.pattern.clone().filter(|p| match self.readable_pattern(p) {
                    Ok(_) => true,
                    Err(reason) => {
                        self.warn(&ptr.push("pattern"), format!("the pattern is not checked: {reason}"));
                        false
                    }
                });
                let format = match &s.format {
                    VariantOrUnknownOrEmpty::Item(StringFormat::Date) => Some(apigen_runtime::Format::Date),
                    VariantOrUnknownOrEmpty::Unknown(name) => apigen_runtime::Format::named(name),
                    _ => None,
                };
                Constraints {
                    min_length: s.min_length,
                    max_length: s.max_length,
                    pattern,
                    format,
                    ..Constraints::default()
                }
            }
            SchemaKind::Type(Type::Array(a)) => {
                let items = match &a.items {
                    Some(ReferenceOr::Item(item)) => {
                        let limits = self.constraints(item, &ptr.push("items"));
                        // Limits on an item that may be `null` hold when it is not.
                        let nullable = item.schema_data.nullable && !limits.is_empty();
                        Some(Constraints { nullable, ..limits })
                    }
                    Some(ReferenceOr::Reference { reference }) => Some(self.referenced_constraints(reference)),
                    None => None,
                };
                Constraints {
                    min_items: a.min_items,
                    max_items: a.max_items,
                    unique_items: a.unique_items,
                    items: items.filter(|c| !c.is_empty()).map(Box::new),
                    ..Constraints::default()
                }
            }
            // An integer enum's values are its limits too; one the bounds rule out could never be
            // sent, which is the document's to fix.
            SchemaKind::Type(Type::Integer(i)) if !i.enumeration.is_empty() => {
                let outside = i.enumeration.iter().flatten().find(|v| {
                    i.minimum.is_some_and(|min| **v < min || (i.exclusive_minimum && **v == min))
                        || i.maximum.is_some_and(|max| **v > max || (i.exclusive_maximum && **v == max))
                });
                if let Some(value) = outside {
                    self.warn(&ptr.push("enum"), format!("the enum value {value} is outside the schema's bounds"));
                }
                Constraints::default()
            }
            SchemaKind::Type(Type::Integer(i)) => Constraints {
                minimum: i.minimum.map(|m| m as f64),
                maximum: i.maximum.map(|m| m as f64),
                exclusive_minimum: i.exclusive_minimum && i.minimum.is_some(),
                exclusive_maximum: i.exclusive_maximum && i.maximum.is_some(),
                multiple_of: i.multiple_of.map(|m| m as f64).filter(|m| *m > 0.0),
                ..Constraints::default()
            },
            // Each member's limits hold (`allOf: [$ref: Date]` beside a description, most often).
            SchemaKind::AllOf { all_of } => {
                all_of.iter().enumerate().fold(Constraints::default(), |merged, (i, member)| {
                    let limits = match member {
                        ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
                        ReferenceOr::Item(member) => self.constraints(member, &ptr.push("allOf").push(i)),
                    };
                    merged.and(limits)
                })
            }
            // A map (no properties): how many entries, and the limits of each value.
            SchemaKind::Type(Type::Object(o)) if o.properties.is_empty() => {
                let values = match &o.additional_properties {
                    Some(AdditionalProperties::Schema(schema)) => match schema.as_ref() {
                        ReferenceOr::Item(schema) => {
                            let limits = self.constraints(schema, &ptr.push("additionalProperties"));
                            // Limits on a value that may be `null` hold when it is not.
                            let nullable = schema.schema_data.nullable && !limits.is_empty();
                            Constraints { nullable, ..limits }
                        }
                        ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
                    },
                    _ => Constraints::default(),
                };
                Constraints {
                    min_properties: o.min_properties.filter(|n| *n > 0),
                    max_properties: o.max_properties,
                    values: Some(Box::new(values)).filter(|c| !c.is_empty()),
                    keys: self.key_constraints(schema, ptr),
                    ..Constraints::default()
                }
            }
            // A choice of one (what is left of `anyOf: [X, {type: null}]`) is that member.
            SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members } if members.len() == 1 => {
                let key = if matches!(schema.schema_kind, SchemaKind::OneOf { .. }) { "oneOf" } else { "anyOf" };
                match &members[0] {
                    ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
                    ReferenceOr::Item(member) => self.constraints(member, &ptr.push(key).push(0)),
                }
            }
            SchemaKind::Type(Type::Number(n)) => Constraints {
                minimum: n.minimum.map(|b| self.f32_bound(n, "minimum", b, ptr)),
                maximum: n.maximum.map(|b| self.f32_bound(n, "maximum", b, ptr)),
                exclusive_minimum: n.exclusive_minimum && n.minimum.is_some(),
                exclusive_maximum: n.exclusive_maximum && n.maximum.is_some(),
                multiple_of: n.multiple_of.filter(|m| *m > 0.0),
                ..Constraints::default()
            },
            _ => Constraints::default(),
        }
    }
}

impl Lowerer<'_> {
    /// A bound of a `format: float` number, as the `f32` the value is read into can be compared
    /// with it: rounded to the nearest `f32`, or a valid value that rounds past it (9999999998
    /// under `maximum: 9999999999`) would be refused. Noted where rounding changes it.
    fn f32_bound(&mut self, n: &openapiv3::NumberType, key: &str, bound: f64, ptr: &Pointer) -> f64 {
        if !matches!(n.format, VariantOrUnknownOrEmpty::Item(NumberFormat::Float)) {
            return bound;
        }
        let rounded = f64::from(bound as f32);
        // Past f32's range the bound stays as written: no finite f32 reaches it.
        if !rounded.is_finite() {
            return bound;
        }
        if rounded != bound {
            self.warn(
                &ptr.push(key),
                format!("`{key}: {bound}` is compared as the nearest 32-bit float (`format: float`), {rounded}"),
            );
        }
        rounded
    }
}
