//! Schemas → [`TypeRef`]s and [`TypeDef`]s: a schema by its kind, named where it needs a type of
//! its own; objects, enums and limits in the files below.

mod enums;
mod limits;
mod object;

pub(crate) use limits::finish_defaults;
pub(crate) use object::merge_room;

use std::borrow::Borrow;

use openapiv3::{
    IntegerFormat, NumberFormat, ReferenceOr, Schema, SchemaKind, StringFormat, Type, VariantOrUnknownOrEmpty,
};

use object::{InnerChoice, ObjectParts};

use super::Naming;
use super::{Lowerer, any_schema, union};
use crate::diagnostic::Pointer;
use crate::front::markers;
use crate::ir::{TypeDef, TypeRef};
use crate::naming::camel;
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
    pub(super) fn component_schema(&self, reference: &str) -> Option<&'a Schema> {
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
            SchemaKind::AllOf { all_of } => self.lower_all_of(schema, all_of, ptr, naming, doc),
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
            SchemaKind::Any(any) => self.lower_any(schema, any, ptr, naming, doc),
        }
    }

    /// An `allOf` of several members: a choice inside it read with the others, else one object of
    /// every member's properties (or, where they cannot be merged, any JSON value checked
    /// against them).
    fn lower_all_of(
        &mut self,
        schema: &Schema,
        all_of: &[ReferenceOr<Schema>],
        ptr: &Pointer,
        naming: Naming,
        doc: Option<String>,
    ) -> Option<TypeRef> {
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
            self.warn(&at, format!("{why}; the `allOf` is read as any JSON value, which servers check against it"));
            return Some(self.checked_json(schema, ptr, doc, naming));
        }
        self.lower_object(parts, doc, naming)
    }

    /// A schema without `type` or with keywords of several: normalised to the type its keywords
    /// say where they say one, else any JSON value checked against it.
    fn lower_any(
        &mut self,
        schema: &Schema,
        any: &openapiv3::AnySchema,
        ptr: &Pointer,
        naming: Naming,
        doc: Option<String>,
    ) -> Option<TypeRef> {
        if *any == openapiv3::AnySchema::default() {
            return Some(TypeRef::Json);
        }
        if let Some(typ) = any.typ.as_deref()
            && !JSON_TYPES.contains(&typ)
        {
            let hint = if typ == "null" { " (a nullable value is `nullable: true` in OpenAPI 3.0)" } else { "" };
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
                    (None, SchemaKind::Type(Type::Array(_))) => Some("`items` constrains only lists; read as a list"),
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

    pub(crate) fn claim(&mut self, naming: Naming) -> String {
        match naming {
            Naming::Claimed(name) => name,
            Naming::Derived(wanted) => self.type_scope.claim(&camel(&wanted)),
        }
    }

    /// Names for an enum's variant of unlisted values, in order of preference; the spec's own
    /// variants are named first, so one called `Unknown` keeps its name.
    const UNLISTED: &'static [&'static str] = &["Unknown", "Unlisted", "UnknownValue"];
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

impl Naming {
    /// The naming for a schema nested in this one, e.g. the items of an array.
    pub(crate) fn derive(&self, suffix: &str) -> Naming {
        let base = match self {
            Naming::Claimed(n) | Naming::Derived(n) => n,
        };
        Naming::Derived(format!("{base}{suffix}"))
    }
}
