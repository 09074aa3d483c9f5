//! Object schemas, their `allOf` parts merged, → structs (or maps, for properties not listed).

use openapiv3::{AdditionalProperties, ReferenceOr, Schema, SchemaKind, StringFormat, Type, VariantOrUnknownOrEmpty};

use crate::diagnostic::Pointer;
use crate::ir::{Constraints, Field, StructDef, TypeDef, TypeRef};
use crate::lower::Lowerer;
use crate::lower::Naming;
use crate::naming::{Scope, camel, snake};

impl<'a> Lowerer<'a> {
    /// A struct (or a map, without properties) from the properties gathered from one object
    /// schema or the members of an `allOf`.
    pub(super) fn lower_object(&mut self, parts: ObjectParts, doc: Option<String>, naming: Naming) -> Option<TypeRef> {
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
                        crate::lower::described(&s.schema_data.description, s.schema_data.example.as_ref(), false),
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
                let schema = crate::lower::checks::as_json(prop);
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
    pub(super) fn choice_in_all_of<'s>(
        &self,
        all_of: &'s [ReferenceOr<Schema>],
        ptr: &Pointer,
    ) -> Option<InnerChoice<'s>>
    where
        'a: 's,
    {
        let resolve = |i: usize, member: &'s ReferenceOr<Schema>| -> Option<(&'s Schema, Pointer)> {
            let (schema, at) = match member {
                ReferenceOr::Item(s) => (s, ptr.push("allOf").push(i)),
                ReferenceOr::Reference { reference } => {
                    let schemas = self.doc.components.as_ref().map(|c| &c.schemas);
                    let (name, s) = crate::lower::component_named(reference, "schemas", schemas)?;
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
    pub(super) fn collect_all_of<'s>(
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
                    let found = crate::lower::component_named(
                        reference,
                        "schemas",
                        self.doc.components.as_ref().map(|c| &c.schemas),
                    );
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
}

/// A choice found among the members of an `allOf`, with the members it is read together with.
pub(super) struct InnerChoice<'s> {
    /// The choice's own schema (its discriminator, its description).
    pub(super) choice: &'s Schema,
    pub(super) members: &'s [ReferenceOr<Schema>],
    /// `oneOf` or `anyOf`.
    pub(super) keyword: &'static str,
    /// Where the choice is written.
    pub(super) at: Pointer,
    /// The other members of the `allOf`.
    pub(super) shared: Vec<ReferenceOr<Schema>>,
}

/// The properties of an object schema, gathered from one schema or from every member of an `allOf`,
/// each with its location.
#[derive(Default)]
pub(super) struct ObjectParts<'s> {
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
    pub(super) fn add(
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
