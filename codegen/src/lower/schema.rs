//! Schemas → [`TypeRef`]s and [`TypeDef`]s.

use std::borrow::Borrow;

use openapiv3::{
    AdditionalProperties, IntegerFormat, NumberFormat, ReferenceOr, Schema, SchemaKind, StringFormat, Type,
    VariantOrUnknownOrEmpty,
};

use super::Naming;
use super::{Lowerer, any_schema, union};
use crate::diagnostic::Pointer;
use crate::front::markers;
use crate::ir::{Constraints, DefaultValue, Field, IntEnumDef, StringEnumDef, StructDef, TypeDef, TypeRef};
use crate::naming::{Scope, camel, snake};
pub(crate) use union::finish_unions;

/// The types JSON Schema names, but for `null`.
const JSON_TYPES: [&str; 6] = ["string", "number", "integer", "boolean", "array", "object"];

/// Whether an integer `format` keeps every value within 64 signed bits: `int32`, `int64`, and the
/// narrower sizes some documents name (`int8`, `uint16`, `uint32`).
fn fits_64_bits(format: &VariantOrUnknownOrEmpty<IntegerFormat>) -> bool {
    match format {
        VariantOrUnknownOrEmpty::Item(_) => true,
        VariantOrUnknownOrEmpty::Unknown(f) => {
            matches!(f.as_str(), "int8" | "int16" | "uint8" | "uint16" | "uint32")
        }
        VariantOrUnknownOrEmpty::Empty => false,
    }
}

impl<'a> Lowerer<'a> {
    pub(super) fn lower_component_schema(&mut self, name: &str, schema: &ReferenceOr<Schema>, ptr: &Pointer) {
        let rust = self.schema_names[name].clone();
        let Some(ty) = self.lower_schema(schema, ptr, Naming::Claimed(rust.clone())) else { return };
        if !self.is_named(&ty, &rust) {
            let doc = match schema {
                ReferenceOr::Item(s) => super::prose(&s.schema_data.description),
                ReferenceOr::Reference { .. } => None,
            };
            self.add_type(TypeDef::Alias { name: rust, doc, target: ty, check: None, merged: false });
        }
    }

    /// Lowers a schema in a position that needs a type. Returns `None` after reporting when the
    /// schema cannot be represented.
    /// Lowers a schema or a `$ref` to one, whether the spec model holds it inline or boxed.
    pub(crate) fn lower_schema<S: Borrow<Schema>>(
        &mut self,
        schema: &ReferenceOr<S>,
        ptr: &Pointer,
        naming: Naming,
    ) -> Option<TypeRef> {
        match schema {
            ReferenceOr::Reference { reference } => self.schema_ref(reference, ptr),
            ReferenceOr::Item(schema) => self.lower_item(schema.borrow(), ptr, naming),
        }
    }

    fn schema_ref(&mut self, reference: &str, ptr: &Pointer) -> Option<TypeRef> {
        // A file part given by a reference to a binary string is a file as an inline one is.
        if self.is_file_part(ptr) && self.component_schema(reference).is_some_and(is_file) {
            return Some(TypeRef::File);
        }
        let found = reference.strip_prefix("#/components/schemas/").and_then(|name| self.schema_names.get(name));
        match found.cloned() {
            Some(rust) => Some(self.named(&rust)),
            None if self.foreign(ptr, reference) => None,
            // A typo or a schema the document forgot: leniently, the value is read as any JSON
            // value, and the warning says which (strictly, the warning is an error).
            None => {
                self.warn(
                    ptr,
                    format!(
                        "the reference {reference} does not name a schema in #/components/schemas; the value is read as any JSON value"
                    ),
                );
                Some(TypeRef::Json)
            }
        }
    }

    /// Follows a schema `$ref` to the schema it names, for callers that inspect the target.
    pub(crate) fn resolve_schema<'s, S: Borrow<Schema>>(&self, schema: &'s ReferenceOr<S>) -> Option<&'s Schema>
    where
        'a: 's,
    {
        match schema {
            ReferenceOr::Item(s) => Some(s.borrow()),
            ReferenceOr::Reference { reference } => self.component_schema(reference),
        }
    }

    /// The schema a `#/components/schemas/...` reference names, when it is one.
    fn component_schema(&self, reference: &str) -> Option<&'a Schema> {
        super::component(reference, "schemas", self.doc.components.as_ref().map(|c| &c.schemas))
    }

    fn lower_item(&mut self, schema: &Schema, ptr: &Pointer, naming: Naming) -> Option<TypeRef> {
        // A schema the document wrote malformed, set aside while loading: its values can only be
        // read as they come.
        if let Some(reason) = schema.schema_data.extensions.get(markers::UNREADABLE) {
            let reason = reason.as_str().unwrap_or_default();
            self.warn(ptr, format!("this is not a valid schema ({reason}); the value is read as any JSON value"));
            return Some(TypeRef::Json);
        }
        let doc = super::described(&schema.schema_data.description, schema.schema_data.example.as_ref(), false);
        match &schema.schema_kind {
            SchemaKind::Type(Type::String(s)) => {
                if !s.enumeration.is_empty() {
                    return self.string_enum(schema, &s.enumeration, ptr, naming);
                }
                Some(match &s.format {
                    VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => TypeRef::DateTime,
                    VariantOrUnknownOrEmpty::Unknown(f) if f == "uuid" => TypeRef::Uuid,
                    VariantOrUnknownOrEmpty::Item(StringFormat::Binary) if self.is_file_part(ptr) => TypeRef::File,
                    VariantOrUnknownOrEmpty::Item(StringFormat::Binary) => {
                        self.warn(
                            ptr,
                            "`format: binary` inside a JSON value is read as a string: JSON has no bytes, so the \
                             value is the text the service sends (often base64)",
                        );
                        TypeRef::String
                    }
                    _ => TypeRef::String,
                })
            }
            SchemaKind::Type(Type::Integer(i)) => {
                if !i.enumeration.is_empty() {
                    return self.int_enum(schema, &i.enumeration, ptr, naming);
                }
                if (i.minimum.is_none() || i.maximum.is_none()) && !fits_64_bits(&i.format) {
                    self.wide_integers.get_or_insert_with(|| (ptr.clone(), 0)).1 += 1;
                }
                Some(match i.format {
                    VariantOrUnknownOrEmpty::Item(IntegerFormat::Int32) => TypeRef::I32,
                    _ => TypeRef::I64,
                })
            }
            SchemaKind::Type(Type::Number(n)) => {
                if !n.enumeration.is_empty() {
                    self.warn(
                        &ptr.push("enum"),
                        "an enum of non-integer numbers is read as a plain number; its values are not checked",
                    );
                }
                Some(match n.format {
                    VariantOrUnknownOrEmpty::Item(NumberFormat::Float) => TypeRef::F32,
                    _ => TypeRef::F64,
                })
            }
            SchemaKind::Type(Type::Boolean(_)) => Some(TypeRef::Bool),
            SchemaKind::Type(Type::Array(a)) => {
                let item = match &a.items {
                    Some(items) => {
                        let item = self.lower_schema(items, &ptr.push("items"), naming.derive("Item"))?;
                        self.nullable(items, item)
                    }
                    None => TypeRef::Json,
                };
                Some(TypeRef::Vec(Box::new(item)))
            }
            SchemaKind::Type(Type::Object(o)) => {
                let mut parts = ObjectParts::default();
                parts.add(&o.properties, &o.required, o.additional_properties.as_ref(), ptr);
                self.lower_object(parts, doc, naming)
            }
            // `allOf` with one member is how OpenAPI 3.0 attaches `default`, `description` or
            // `nullable` to a `$ref`; it means that member.
            SchemaKind::AllOf { all_of } if all_of.len() == 1 => {
                self.lower_schema(&all_of[0], &ptr.push("allOf").push(0), naming)
            }
            SchemaKind::AllOf { all_of } => {
                // Faithful to JSON Schema, so no warning: each member of the choice is read
                // together with the other members of the `allOf`.
                if let Some(InnerChoice { choice, members, keyword, at, shared }) = self.choice_in_all_of(all_of, ptr) {
                    let mut data = choice.schema_data.clone();
                    data.description = schema.schema_data.description.clone().or(data.description);
                    let choice = Schema { schema_data: data, schema_kind: SchemaKind::AllOf { all_of: Vec::new() } };
                    return self.union(&choice, members, &shared, keyword, &at, naming);
                }
                for (i, member) in all_of.iter().enumerate() {
                    if let ReferenceOr::Reference { reference } = member
                        && self.foreign(&ptr.push("allOf").push(i), reference)
                    {
                        return None;
                    }
                }
                let mut parts = ObjectParts::default();
                let mut seen = std::collections::HashSet::new();
                if let Err((at, why)) = self.collect_all_of(all_of, &ptr.push("allOf"), &mut parts, &mut seen, 0) {
                    self.warn(
                        &at,
                        format!("{why}; the `allOf` is read as any JSON value, which servers check against it"),
                    );
                    return Some(self.checked_json(schema, ptr, doc, naming));
                }
                self.lower_object(parts, doc, naming)
            }
            SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members }
                if self.is_file_part(ptr)
                    && let Some(choice) = self.file_choice(members) =>
            {
                Some(self.file_choice_type(choice, members, ptr))
            }
            SchemaKind::OneOf { one_of } => self.union(schema, one_of, &[], "oneOf", ptr, naming),
            SchemaKind::AnyOf { any_of } => self.union(schema, any_of, &[], "anyOf", ptr, naming),
            // What a value must not be has no Rust type: any value, honestly looser.
            SchemaKind::Not { .. } => {
                self.warn(&ptr.push("not"), "`not` has no Rust type: the value is read as any JSON value, which servers check against the schema");
                Some(self.checked_json(schema, ptr, doc, naming))
            }
            SchemaKind::Any(any) => {
                if *any == openapiv3::AnySchema::default() {
                    return Some(TypeRef::Json);
                }
                if let Some(typ) = any.typ.as_deref()
                    && !JSON_TYPES.contains(&typ)
                {
                    let hint =
                        if typ == "null" { " (a nullable value is `nullable: true` in OpenAPI 3.0)" } else { "" };
                    self.warn(
                        &ptr.push("type"),
                        format!(
                            "`{typ}` is not a JSON Schema type (string, number, integer, boolean, array or object){hint}; the value is read as any JSON value, which servers check against the schema's other keywords"
                        ),
                    );
                    return Some(self.checked_json(schema, ptr, doc, naming));
                }
                let stripped = any_schema::without_required_choice(any);
                for keyword in stripped.iter().flat_map(|(_, removed)| removed) {
                    self.warn(
                        &ptr.push(keyword),
                        format!("`{keyword}` only states which properties are required, which is not checked"),
                    );
                }
                let any = stripped.as_ref().map_or(any, |(any, _)| any);
                // Beside other keywords, `not` only narrows them: they say the type, `not` is
                // left unchecked.
                if any.not.is_some() {
                    self.warn(&ptr.push("not"), "`not` is not checked: the value is read as the other keywords say");
                    let rest = openapiv3::AnySchema { not: None, ..any.clone() };
                    let schema = Schema { schema_data: schema.schema_data.clone(), schema_kind: SchemaKind::Any(rest) };
                    return self.lower_item(&schema, ptr, naming);
                }
                // Faithful to JSON Schema, so no warning: each member merged with the shared part.
                if let Some(choice) = any_schema::shared_choice(any) {
                    return self.union(schema, &choice.members, &choice.shared, choice.keyword, ptr, naming);
                }
                match any_schema::normalize(any) {
                    Ok((kind, ignored)) => {
                        for keyword in ignored {
                            let what = any.typ.as_deref().unwrap_or("object");
                            self.warn(
                                &ptr.push(keyword),
                                format!("`{keyword}` does not apply to type `{what}` and is ignored"),
                            );
                        }
                        // Without `type`, object or list keywords constrain only values of that
                        // type and let the others through; reading them as that type is an
                        // assumption, said where it is made.
                        let assumed = match (&any.typ, &kind) {
                            (None, SchemaKind::Type(Type::Object(_))) => {
                                Some("object keywords constrain only objects; read as an object")
                            }
                            (None, SchemaKind::Type(Type::Array(_))) => {
                                Some("`items` constrains only lists; read as a list")
                            }
                            _ => None,
                        };
                        if let Some(assumed) = assumed {
                            let message = format!(
                                "without `type`, {assumed}, so values of other types, which the schema allows, are refused"
                            );
                            self.warn(ptr, message);
                        }
                        let schema = Schema { schema_data: schema.schema_data.clone(), schema_kind: kind };
                        self.lower_item(&schema, ptr, naming)
                    }
                    // Nothing says which type is meant: any value, honestly looser.
                    Err(what) if what == any_schema::SEVERAL_TYPES => {
                        let keywords: Vec<String> = any_schema::present(any).iter().map(|k| format!("`{k}`")).collect();
                        self.warn(
                            ptr,
                            format!(
                                "without `type`, {} could belong to several types, so the value is any JSON, which servers check against them",
                                keywords.join(", ")
                            ),
                        );
                        Some(self.checked_json(schema, ptr, doc, naming))
                    }
                    Err(what) => self.loosened(schema, any, ptr, naming, &what),
                }
            }
        }
    }

    /// A schema whose keywords no one Rust type can hold together (`oneOf` beside `anyOf`, a
    /// list beside a choice, an enum value of another type): a typed schema is read as its type
    /// with only the keywords that type holds, anything else as any JSON value; either way
    /// looser than the document, and said where.
    fn loosened(
        &mut self,
        schema: &Schema,
        any: &openapiv3::AnySchema,
        ptr: &Pointer,
        naming: Naming,
        what: &str,
    ) -> Option<TypeRef> {
        // An object keeps every property only as JSON: a struct of some of them would drop the
        // others on the way through.
        if let Some(typ) = any.typ.as_deref().filter(|t| *t != "object") {
            let own = openapiv3::AnySchema {
                all_of: Vec::new(),
                one_of: Vec::new(),
                any_of: Vec::new(),
                not: None,
                enumeration: Vec::new(),
                ..any.clone()
            };
            if let Ok((kind, _)) = any_schema::normalize(&own) {
                let dropped: Vec<String> = any_schema::present(any)
                    .into_iter()
                    .filter(|k| ["allOf", "oneOf", "anyOf", "enum"].contains(k))
                    .chain(any.not.is_some().then_some("not"))
                    .map(|k| format!("`{k}`"))
                    .collect();
                self.warn(ptr, format!("{what}: read as `type: {typ}`, and {} not checked", dropped.join(", ")));
                let schema = Schema { schema_data: schema.schema_data.clone(), schema_kind: kind };
                return self.lower_item(&schema, ptr, naming);
            }
        }
        self.warn(ptr, format!("{what} has no one Rust type; the value is read as any JSON value, which servers check against the schema"));
        let doc = super::prose(&schema.schema_data.description);
        Some(self.checked_json(schema, ptr, doc, naming))
    }

    /// What the members of a choice in a multipart body's property hold: `None` when no member is
    /// a file; otherwise whether one is a list of files, the largest such list's `maxItems` (`None`
    /// for a list without one) and the members that are neither.
    pub(crate) fn file_choice(&self, members: &[ReferenceOr<Schema>]) -> Option<FileChoice> {
        let mut choice = FileChoice { files: false, list: false, max_items: Some(1), others: Vec::new() };
        for (i, member) in members.iter().enumerate() {
            let schema = self.resolve_schema(member);
            let list = schema.and_then(|s| match &s.schema_kind {
                SchemaKind::Type(Type::Array(a)) => a
                    .items
                    .as_ref()
                    .and_then(|items| self.resolve_schema(items))
                    .filter(|s| is_file(s))
                    .map(|_| a.max_items),
                _ => None,
            });
            if let Some(max) = list {
                choice.list = true;
                choice.max_items = choice.max_items.zip(max).map(|(a, b)| a.max(b));
            } else if schema.is_some_and(is_file) {
                choice.files = true;
            } else {
                choice.others.push(i);
            }
        }
        (choice.files || choice.list).then_some(choice)
    }

    /// The type of a multipart property whose choice holds a file: its parts are files, one or
    /// (when a member is a list of files) several. A member that is text or an object arrives as
    /// a part too, whose bytes the file holds, which the warning says.
    fn file_choice_type(&mut self, choice: FileChoice, members: &[ReferenceOr<Schema>], ptr: &Pointer) -> TypeRef {
        if !choice.others.is_empty() {
            let others: Vec<String> = choice
                .others
                .iter()
                .map(|&i| match &members[i] {
                    ReferenceOr::Reference { reference } => format!("`{reference}`"),
                    ReferenceOr::Item(_) => format!("member {i}"),
                })
                .collect();
            self.warn(
                ptr,
                format!(
                    "this choice holds a file, so its parts are read as files; {} {} not a file, and such a value arrives as a part whose bytes the implementation reads itself",
                    others.join(" and "),
                    if others.len() == 1 { "is" } else { "are" },
                ),
            );
        }
        if choice.list { TypeRef::Vec(Box::new(TypeRef::File)) } else { TypeRef::File }
    }

    /// A struct (or a map, without properties) from the properties gathered from one object
    /// schema or the members of an `allOf`.
    fn lower_object(&mut self, parts: ObjectParts, doc: Option<String>, naming: Naming) -> Option<TypeRef> {
        // Across the members of an `allOf`, `additionalProperties: false` in one would refuse the
        // others' properties; only a lone schema's is read as closing the object.
        let closed = parts.schemas == 1 && matches!(parts.extra, Some((AdditionalProperties::Any(false), _)));
        let extra = match parts.extra {
            None | Some((AdditionalProperties::Any(false), _)) => None,
            Some((AdditionalProperties::Any(true), _)) => Some(TypeRef::Json),
            Some((AdditionalProperties::Schema(s), at)) => {
                let value = self.lower_schema(s, &at.push("additionalProperties"), naming.derive("Value"))?;
                Some(self.nullable(s, value))
            }
        };
        // Required names no property describes: the value must carry them, each holding what
        // `additionalProperties` allows (any JSON value unless it says otherwise).
        let undeclared: Vec<&(String, Pointer)> =
            parts.required.iter().filter(|(r, _)| !parts.props.iter().any(|(w, _, _)| w == r)).collect();
        if parts.props.is_empty() && (undeclared.is_empty() || closed) {
            return Some(TypeRef::Map(Box::new(extra.unwrap_or(TypeRef::Json))));
        }
        let name = self.claim(naming);
        let mut scope = Scope::default();
        let mut fields = Vec::new();
        for (wire, prop, prop_ptr) in &parts.props {
            let field_naming = Naming::Derived(format!("{name}{}", camel(wire)));
            let Some(ty) = self.lower_schema(prop, prop_ptr, field_naming) else { continue };
            let (nullable, mut doc, constraints) = match prop {
                ReferenceOr::Item(s) => {
                    // A wrapped reference to a component that may be `null` may be too.
                    let nullable = s.schema_data.nullable || (self.may_be_null(s, 0) && !self.takes_null(&ty, 0));
                    (
                        nullable,
                        super::described(&s.schema_data.description, s.schema_data.example.as_ref(), false),
                        self.constraints(s, prop_ptr),
                    )
                }
                // The limits of a referenced schema hold wherever it is used, and so does its
                // `nullable` (a component `anyOf` of a map and `null`, read as a map): the property
                // may be `null`, unless its type already takes `null` itself.
                ReferenceOr::Reference { reference } => {
                    let nullable =
                        self.resolve_schema(prop).is_some_and(|s| self.may_be_null(s, 0)) && !self.takes_null(&ty, 0);
                    (nullable, None, self.referenced_constraints(reference))
                }
            };
            // A required read-only property is absent from requests, a required write-only one
            // from replies; one Rust type serves both directions, so it is optional in both.
            let one_way = match prop {
                ReferenceOr::Item(s) if s.schema_data.read_only => Some("Read-only: sent in replies, not in requests."),
                ReferenceOr::Item(s) if s.schema_data.write_only => {
                    Some("Write-only: sent in requests, not in replies.")
                }
                _ => None,
            };
            // Formats without a Rust type of their own stay strings; the docs say what they hold.
            let format_note = self.resolve_schema(prop).and_then(|s| match &s.schema_kind {
                SchemaKind::Type(Type::String(t)) => match &t.format {
                    VariantOrUnknownOrEmpty::Item(StringFormat::Date) => Some("A date, `YYYY-MM-DD`.".to_string()),
                    VariantOrUnknownOrEmpty::Item(StringFormat::Byte) => Some("Base64-encoded bytes.".to_string()),
                    VariantOrUnknownOrEmpty::Item(StringFormat::Password) => Some("A password.".to_string()),
                    VariantOrUnknownOrEmpty::Unknown(f) if f != "uuid" => Some(format!("Format: `{f}`.")),
                    _ => None,
                },
                _ => None,
            });
            for note in one_way.map(str::to_string).into_iter().chain(format_note) {
                doc = Some(match doc {
                    Some(text) => format!("{text}\n\n{note}"),
                    None => note,
                });
            }
            let listed = parts.required.iter().any(|(r, _)| r == wire);
            let required = one_way.is_none() && listed;
            let write_only = matches!(prop, ReferenceOr::Item(s) if s.schema_data.write_only);
            let constraints = Constraints { required_in_requests: listed && write_only, ..constraints };
            // Defaults are checked against their types once every type is known.
            let default = self.resolve_schema(prop).and_then(|s| s.schema_data.default.clone());
            if let Some(value) = default.filter(|_| !required) {
                let schema = super::checks::as_json(prop);
                self.pending_defaults.push((name.clone(), fields.len(), value, schema, prop_ptr.push("default")));
            }
            // A file travels as a part or not at all: no `null` to tell from absence.
            let file = matches!(&ty, TypeRef::File) || matches!(&ty, TypeRef::Vec(item) if **item == TypeRef::File);
            let tristate = nullable && !required && !self.null_means_absent() && !file;
            // A schema that allows any value (or a choice with such a member) allows `null`, and
            // so does one without `type` read as the type its keywords suggest: an optional one
            // may be sent as `null`, read as absent.
            let untyped = self
                .resolve_schema(prop)
                .is_some_and(|s| matches!(&s.schema_kind, SchemaKind::Any(any) if any.typ.is_none()));
            let nullable = nullable || (!required && (untyped || self.takes_null(&ty, 0)));
            fields.push(Field {
                wire: wire.clone(),
                name: scope.claim(&snake(wire)),
                ty,
                required,
                nullable,
                tristate,
                boxed: false,
                constraints,
                default: None,
                doc,
            });
        }
        for (required, at) in undeclared {
            if closed {
                let message = format!(
                    "`{required}` is required but not among the properties, which `additionalProperties: false` makes the only ones allowed; no value can satisfy both, and the requirement is ignored"
                );
                self.warn(at, message);
                continue;
            }
            let ty = extra.clone().unwrap_or(TypeRef::Json);
            let message = format!(
                "`{required}` is required but not among the properties; read as a required property holding {}",
                if ty == TypeRef::Json { "any JSON value" } else { "what `additionalProperties` allows" }
            );
            self.warn(at, message);
            fields.push(Field {
                wire: required.clone(),
                name: scope.claim(&snake(required)),
                // `null` is among the values `ty` holds itself.
                nullable: false,
                ty,
                required: true,
                tristate: false,
                boxed: false,
                constraints: Constraints::default(),
                default: None,
                doc: Some("Required by the document, which gives it no schema of its own.".to_string()),
            });
        }
        let extra = extra.map(|ty| (scope.claim("additional_properties"), ty));
        self.add_type(TypeDef::Struct(StructDef { name: name.clone(), doc, fields, extra, closed }));
        Some(self.named(&name))
    }

    /// The one member of an `allOf` that is a choice (`oneOf` or `anyOf`, written inline or
    /// referred to), where it is at, and the other members; `None` unless there is exactly one.
    fn choice_in_all_of<'s>(&self, all_of: &'s [ReferenceOr<Schema>], ptr: &Pointer) -> Option<InnerChoice<'s>>
    where
        'a: 's,
    {
        let resolve = |i: usize, member: &'s ReferenceOr<Schema>| -> Option<(&'s Schema, Pointer)> {
            let (schema, at) = match member {
                ReferenceOr::Item(s) => (s, ptr.push("allOf").push(i)),
                ReferenceOr::Reference { reference } => {
                    let schemas = self.doc.components.as_ref().map(|c| &c.schemas);
                    let (name, s) = super::component_named(reference, "schemas", schemas)?;
                    (s, Pointer::root().push("components").push("schemas").push(name))
                }
            };
            matches!(schema.schema_kind, SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. }).then_some((schema, at))
        };
        let mut choices = all_of.iter().enumerate().filter_map(|(i, m)| resolve(i, m).map(|found| (i, found)));
        let (index, (choice, at)) = choices.next()?;
        if choices.next().is_some() {
            return None;
        }
        let shared = all_of.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, m)| m.clone()).collect();
        let (members, keyword) = match &choice.schema_kind {
            SchemaKind::OneOf { one_of } => (one_of, "oneOf"),
            SchemaKind::AnyOf { any_of } => (any_of, "anyOf"),
            _ => return None,
        };
        Some(InnerChoice { choice, members, keyword, at, shared })
    }

    /// Gathers the properties of every member of an `allOf` (following `$ref`s and nested
    /// `allOf`s) into one object, or says which member is not an object.
    fn collect_all_of<'s>(
        &self,
        members: &'s [ReferenceOr<Schema>],
        ptr: &Pointer,
        parts: &mut ObjectParts<'s>,
        seen: &mut std::collections::HashSet<&'s str>,
        depth: usize,
    ) -> Result<(), (Pointer, String)>
    where
        'a: 's,
    {
        if depth > MOST_ALL_OF_DEPTH {
            return Err((ptr.clone(), format!("`allOf` members nest more than {MOST_ALL_OF_DEPTH} deep")));
        }
        let before = parts.props.len();
        for (i, member) in members.iter().enumerate() {
            let (schema, at) = match member {
                ReferenceOr::Item(s) => (s, ptr.push(i)),
                ReferenceOr::Reference { reference } => {
                    let Some(name) = reference.strip_prefix("#/components/schemas/") else {
                        return Err((
                            ptr.push(i),
                            format!("the reference {reference} does not name a schema in #/components/schemas"),
                        ));
                    };
                    if seen.contains(&name) {
                        return Err((ptr.push(i), format!("`allOf` includes `{name}` within itself")));
                    }
                    // A component that only refers to another (an alias) is that other.
                    let found =
                        super::component_named(reference, "schemas", self.doc.components.as_ref().map(|c| &c.schemas));
                    let Some((name, s)) = found else {
                        return Err((
                            ptr.push(i),
                            format!("the reference {reference} does not name a schema in #/components/schemas"),
                        ));
                    };
                    if !seen.insert(name) {
                        return Err((ptr.push(i), format!("`allOf` includes `{name}` within itself")));
                    }
                    (s, Pointer::root().push("components").push("schemas").push(name))
                }
            };
            // Each merge copies its members' properties into a type of its own: a chain of `allOf`s,
            // each adding to the one before, copies the square of its length.
            let incoming = match &schema.schema_kind {
                SchemaKind::Type(Type::Object(o)) => o.properties.len(),
                SchemaKind::Any(any) => any.properties.len(),
                _ => 0,
            };
            let copied = self.merged.get().saturating_add(parts.props.len()).saturating_add(incoming);
            if copied > self.most_merged {
                let declared = self.most_merged.saturating_sub(LEAST_MERGE_ROOM) / MERGE_FACTOR;
                return Err((
                    at,
                    format!(
                        "`allOf` merges have copied {copied} properties, more than {MERGE_FACTOR} times the {declared} the document declares allow"
                    ),
                ));
            }
            match &schema.schema_kind {
                SchemaKind::Type(Type::Object(o)) => {
                    parts.add(&o.properties, &o.required, o.additional_properties.as_ref(), &at)
                }
                SchemaKind::AllOf { all_of } => {
                    self.collect_all_of(all_of, &at.push("allOf"), parts, seen, depth + 1)?
                }
                SchemaKind::Any(any)
                    if any.one_of.is_empty()
                        && any.any_of.is_empty()
                        && any.not.is_none()
                        && any.typ.as_deref().is_none_or(|t| t == "object") =>
                {
                    parts.add(&any.properties, &any.required, any.additional_properties.as_ref(), &at);
                    self.collect_all_of(&any.all_of, &at.push("allOf"), parts, seen, depth + 1)?;
                }
                _ => return Err((at, "this `allOf` member is not an object, as the others are".to_string())),
            }
        }
        if depth == 0 {
            self.merged.set(self.merged.get().saturating_add(parts.props.len() - before));
        }
        Ok(())
    }

    pub(crate) fn claim(&mut self, naming: Naming) -> String {
        match naming {
            Naming::Claimed(name) => name,
            Naming::Derived(wanted) => self.type_scope.claim(&camel(&wanted)),
        }
    }

    /// Names for an enum's variant of unlisted values, in order of preference; the spec's own
    /// variants are named first, so one called `Unknown` keeps its name.
    const UNLISTED: &'static [&'static str] = &["Unknown", "Unlisted", "UnknownValue"];

    fn int_enum(&mut self, schema: &Schema, values: &[Option<i64>], ptr: &Pointer, naming: Naming) -> Option<TypeRef> {
        // The loader reads `null` among other values as `nullable: true`, so none is left here.
        let values: Vec<i64> = values.iter().flatten().copied().collect();
        let names = self.enum_names(schema, values.len(), ptr);
        let mut scope = Scope::default();
        let variants = values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let wanted = match &names {
                    Some(names) => camel(&names[i]),
                    None if *value < 0 => format!("ValueMinus{}", value.unsigned_abs()),
                    None => format!("Value{value}"),
                };
                (scope.claim(&wanted), *value)
            })
            .collect();
        let name = self.claim(naming);
        self.add_type(TypeDef::IntEnum(IntEnumDef {
            name: name.clone(),
            doc: super::prose(&schema.schema_data.description),
            variants,
            unlisted: scope.claim_first(Self::UNLISTED),
        }));
        Some(self.named(&name))
    }

    /// Variant names from `x-enum-varnames` (or NSwag's `x-enumNames`), checked against the values.
    fn enum_names(&mut self, schema: &Schema, count: usize, ptr: &Pointer) -> Option<Vec<String>> {
        let ext = &schema.schema_data.extensions;
        let (key, names) = ["x-enum-varnames", "x-enumNames"].iter().find_map(|k| ext.get(*k).map(|v| (*k, v)))?;
        let names: Option<Vec<String>> =
            names.as_array().and_then(|a| a.iter().map(|n| n.as_str().map(str::to_string)).collect());
        // Names that do not fit the values are not guessed at: the values name the variants.
        match names {
            Some(names) if names.len() == count => Some(names),
            Some(names) => {
                let message =
                    format!("{} names for {count} enum values; the variants are named by their values", names.len());
                self.warn(&ptr.push(key), message);
                None
            }
            None => {
                self.warn(&ptr.push(key), "not a list of strings; the variants are named by their values");
                None
            }
        }
    }

    fn string_enum(
        &mut self,
        schema: &Schema,
        values: &[Option<String>],
        ptr: &Pointer,
        naming: Naming,
    ) -> Option<TypeRef> {
        // The loader reads `null` among other values as `nullable: true`, so none is left here.
        let values: Vec<&String> = values.iter().flatten().collect();
        let names = self.enum_names(schema, values.len(), ptr);
        let mut scope = Scope::default();
        let variants = values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let wanted = camel(names.as_ref().map_or(value.as_str(), |n| n[i].as_str()));
                (scope.claim(&wanted), value.to_string())
            })
            .collect();
        let name = self.claim(naming);
        self.add_type(TypeDef::StringEnum(StringEnumDef {
            name: name.clone(),
            doc: super::prose(&schema.schema_data.description),
            variants,
            unlisted: scope.claim_first(Self::UNLISTED),
        }));
        Some(self.named(&name))
    }
}

/// A choice found among the members of an `allOf`, with the members it is read together with.
struct InnerChoice<'s> {
    /// The choice's own schema (its discriminator, its description).
    choice: &'s Schema,
    members: &'s [ReferenceOr<Schema>],
    /// `oneOf` or `anyOf`.
    keyword: &'static str,
    /// Where the choice is written.
    at: Pointer,
    /// The other members of the `allOf`.
    shared: Vec<ReferenceOr<Schema>>,
}

/// A binary string of no listed values: in a multipart body, a file part.
fn is_file(schema: &Schema) -> bool {
    matches!(&schema.schema_kind, SchemaKind::Type(Type::String(t))
        if t.format == VariantOrUnknownOrEmpty::Item(StringFormat::Binary) && t.enumeration.is_empty())
}

/// The members of a choice in a multipart property, where some are files (see
/// [`Lowerer::file_choice`]).
pub(crate) struct FileChoice {
    /// A member is one file.
    files: bool,
    /// A member is a list of files.
    list: bool,
    /// How many parts the largest list allows, `None` for no limit.
    max_items: Option<usize>,
    /// Indexes of the members that are neither.
    others: Vec<usize>,
}

/// The properties of an object schema, gathered from one schema or from every member of an `allOf`,
/// each with its location.
#[derive(Default)]
struct ObjectParts<'s> {
    props: Vec<(String, &'s ReferenceOr<Box<Schema>>, Pointer)>,
    required: Vec<(String, Pointer)>,
    extra: Option<(&'s AdditionalProperties, Pointer)>,
    /// How many schemas the properties were gathered from.
    schemas: usize,
    /// Where each property's name stands in `props`, and which names `required` holds: a merge
    /// of many members stays linear.
    prop_index: std::collections::HashMap<&'s str, usize>,
    required_names: std::collections::HashSet<String>,
}

impl<'s> ObjectParts<'s> {
    fn add(
        &mut self,
        properties: &'s indexmap::IndexMap<String, ReferenceOr<Box<Schema>>>,
        required: &[String],
        extra: Option<&'s AdditionalProperties>,
        at: &Pointer,
    ) {
        self.schemas += 1;
        for (wire, prop) in properties {
            let prop_ptr = at.push("properties").push(wire);
            // A property named again by a later member keeps its place and takes the later schema.
            match self.prop_index.get(wire.as_str()) {
                Some(&i) => self.props[i] = (wire.clone(), prop, prop_ptr),
                None => {
                    self.prop_index.insert(wire, self.props.len());
                    self.props.push((wire.clone(), prop, prop_ptr));
                }
            }
        }
        for r in required {
            if self.required_names.insert(r.clone()) {
                self.required.push((r.clone(), at.push("required")));
            }
        }
        if let Some(extra) = extra {
            self.extra = Some((extra, at.clone()));
        }
    }
}

/// How deep `allOf` members may nest inside one another (a member that is itself an `allOf`):
/// far beyond any inheritance a document describes, and a bound on the merge's recursion.
const MOST_ALL_OF_DEPTH: usize = 64;

/// How many times the properties a document declares its `allOf` merges may copy in all, beyond
/// [`LEAST_MERGE_ROOM`]. Public documents copy at most one and a half times (GitHub's: 936 of
/// 36,000).
const MERGE_FACTOR: usize = 4;

/// The properties merges may copy however few a document declares.
const LEAST_MERGE_ROOM: usize = 10_000;

/// How many properties the `allOf` merges of `doc` may copy: [`MERGE_FACTOR`] times those its
/// schemas declare, and at least [`LEAST_MERGE_ROOM`].
pub(crate) fn merge_room(doc: &openapiv3::OpenAPI) -> usize {
    fn declared(schema: &Schema) -> usize {
        let inline = |s: &ReferenceOr<Schema>| match s {
            ReferenceOr::Item(s) => declared(s),
            ReferenceOr::Reference { .. } => 0,
        };
        let boxed = |s: &ReferenceOr<Box<Schema>>| match s {
            ReferenceOr::Item(s) => declared(s),
            ReferenceOr::Reference { .. } => 0,
        };
        let properties = |props: &indexmap::IndexMap<String, ReferenceOr<Box<Schema>>>| {
            props.len() + props.values().map(boxed).sum::<usize>()
        };
        match &schema.schema_kind {
            SchemaKind::Type(Type::Object(o)) => properties(&o.properties),
            SchemaKind::Type(Type::Array(a)) => a.items.as_ref().map_or(0, boxed),
            SchemaKind::AllOf { all_of: members }
            | SchemaKind::OneOf { one_of: members }
            | SchemaKind::AnyOf { any_of: members } => members.iter().map(inline).sum(),
            SchemaKind::Any(any) => {
                properties(&any.properties)
                    + any.all_of.iter().chain(&any.one_of).chain(&any.any_of).map(inline).sum::<usize>()
            }
            _ => 0,
        }
    }
    let schemas = doc.components.iter().flat_map(|c| c.schemas.values());
    let declared: usize = schemas
        .map(|s| match s {
            ReferenceOr::Item(s) => declared(s),
            ReferenceOr::Reference { .. } => 0,
        })
        .sum();
    declared.saturating_mul(MERGE_FACTOR).saturating_add(LEAST_MERGE_ROOM)
}

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

impl Naming {
    /// The naming for a schema nested in this one, e.g. the items of an array.
    pub(crate) fn derive(&self, suffix: &str) -> Naming {
        let base = match self {
            Naming::Claimed(n) | Naming::Derived(n) => n,
        };
        Naming::Derived(format!("{base}{suffix}"))
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
    fn nullable<S: std::borrow::Borrow<Schema>>(&self, schema: &ReferenceOr<S>, ty: TypeRef) -> TypeRef {
        match self.resolve_schema(schema) {
            Some(s) if self.may_be_null(s, 0) && !self.takes_null(&ty, 0) => TypeRef::Nullable(Box::new(ty)),
            _ => ty,
        }
    }

    /// Whether `schema` says `nullable`, or is an `allOf` of one member that does (a reference
    /// wrapped to give it a description, as the 3.1 conversion writes `$ref` with siblings).
    fn may_be_null(&self, schema: &Schema, depth: usize) -> bool {
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
