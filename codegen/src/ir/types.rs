//! The types of the IR: structs, enums, unions, the replies and errors enums, and how a field
//! or value refers to a type ([`TypeRef`]).

use super::TypeId;

/// A named Rust type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeDef {
    Struct(StructDef),
    IntEnum(IntEnumDef),
    StringEnum(StringEnumDef),
    /// `oneOf` or `anyOf`: an enum with one variant per member.
    Union(UnionDef),
    /// `pub type Name = Target;`
    Alias {
        name: String,
        doc: Option<String>,
        target: TypeRef,
        /// For a value held as any JSON where the document says more than a Rust type can: the
        /// index of its schema in [`Api::schema_checks`](super::Api::schema_checks), which servers check it against.
        check: Option<usize>,
        /// Another name for a type of the same structure (see `lower::merge`), kept so that every
        /// name the document gives names a type: compiled whenever its target is.
        merged: bool,
    },
}

impl TypeDef {
    pub fn name(&self) -> &str {
        match self {
            TypeDef::Struct(s) => &s.name,
            TypeDef::IntEnum(e) => &e.name,
            TypeDef::StringEnum(e) => &e.name,
            TypeDef::Union(u) => &u.name,
            TypeDef::Alias { name, .. } => name,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    pub name: String,
    pub doc: Option<String>,
    pub fields: Vec<Field>,
    /// Properties not named in `properties` (`additionalProperties`): the Rust name of the map
    /// field that keeps them, and the type of their values.
    pub extra: Option<(String, TypeRef)>,
    /// `additionalProperties: false` on the one schema the struct comes from: a server refuses
    /// properties it does not name (a client still ignores them).
    pub closed: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Exact name on the wire.
    pub wire: String,
    /// Rust field name.
    pub name: String,
    pub ty: TypeRef,
    /// Listed in `required`: the Rust type is `ty` itself rather than `Option<ty>`.
    pub required: bool,
    /// `nullable: true`: a required field may still be `null`.
    pub nullable: bool,
    /// Optional and nullable, with absent and `null` told apart (`Nullable<T>`), unless the
    /// document says they mean the same (`x-null-means-absent: true`).
    pub tristate: bool,
    /// The field's type contains the struct itself, so it is stored in a `Box`.
    pub boxed: bool,
    /// Limits serde does not check, enforced by the server on request bodies.
    pub constraints: Constraints,
    /// The spec's `default`, read in place of an absent optional property.
    pub default: Option<DefaultValue>,
    pub doc: Option<String>,
}

/// Limits from a schema beyond its type: lengths and patterns of strings, sizes and uniqueness of
/// arrays (and limits on their items), bounds and steps of numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    /// `exclusiveMinimum: true`: the minimum itself is out of range.
    pub exclusive_minimum: bool,
    /// `exclusiveMaximum: true`: the maximum itself is out of range.
    pub exclusive_maximum: bool,
    pub multiple_of: Option<f64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
    /// A regular expression a string must match somewhere, already checked to compile.
    pub pattern: Option<String>,
    /// A format the string must be written in (`date`, `email`, …), for strings that stay
    /// strings.
    pub format: Option<apigen_runtime::Format>,
    /// Limits on each item of an array.
    pub items: Option<Box<Constraints>>,
    /// `minProperties` and `maxProperties` of a map: how many entries it may have.
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    /// Limits on each value of a map (its `additionalProperties` schema's).
    pub values: Option<Box<Constraints>>,
    /// Limits on each key of a map (its `propertyNames` schema's): length, pattern, format.
    pub keys: Option<Box<Constraints>>,
    /// The value may be `null` (an item of a list, `Option<T>`); the limits hold when it is not.
    pub nullable: bool,
    /// A property the document requires and marks write-only: optional in Rust, as replies leave
    /// it out, and required in requests, which the server checks.
    pub required_in_requests: bool,
    /// Choices that only narrow the value (`oneOf: [{maximum: 10}, {minimum: 100}]`): the
    /// indexes of their schemas in [`Api::schema_checks`](super::Api::schema_checks), which servers check values against.
    pub choices: Vec<usize>,
}

impl Constraints {
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }

    /// Whether these limits or those on their items, values or keys satisfy `f`.
    pub fn any(&self, f: &dyn Fn(&Constraints) -> bool) -> bool {
        f(self)
            || [&self.items, &self.values, &self.keys]
                .into_iter()
                .any(|inner| inner.as_deref().is_some_and(|inner| inner.any(f)))
    }

    /// The limits of a value that must satisfy both `self` and `other` (the members of an
    /// `allOf`): the tighter of each bound. Of two patterns or formats, the first is kept.
    pub fn and(self, other: Constraints) -> Constraints {
        fn tighter<T: PartialOrd>(a: Option<T>, b: Option<T>, keep_larger: bool) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(if (a > b) == keep_larger { a } else { b }),
                (a, b) => a.or(b),
            }
        }
        fn both(a: Option<Box<Constraints>>, b: Option<Box<Constraints>>) -> Option<Box<Constraints>> {
            match (a, b) {
                (Some(a), Some(b)) => Some(Box::new(a.and(*b))),
                (a, b) => a.or(b),
            }
        }
        let minimum = tighter(self.minimum, other.minimum, true);
        let maximum = tighter(self.maximum, other.maximum, false);
        // Exclusive where the bound kept came from a schema that said so.
        let exclusive = |bound: Option<f64>, own: (Option<f64>, bool), theirs: (Option<f64>, bool)| {
            (own.1 && own.0 == bound) || (theirs.1 && theirs.0 == bound)
        };
        Constraints {
            min_length: tighter(self.min_length, other.min_length, true),
            max_length: tighter(self.max_length, other.max_length, false),
            min_items: tighter(self.min_items, other.min_items, true),
            max_items: tighter(self.max_items, other.max_items, false),
            exclusive_minimum: exclusive(
                minimum,
                (self.minimum, self.exclusive_minimum),
                (other.minimum, other.exclusive_minimum),
            ),
            exclusive_maximum: exclusive(
                maximum,
                (self.maximum, self.exclusive_maximum),
                (other.maximum, other.exclusive_maximum),
            ),
            minimum,
            maximum,
            multiple_of: self.multiple_of.or(other.multiple_of),
            unique_items: self.unique_items || other.unique_items,
            pattern: self.pattern.or(other.pattern),
            format: self.format.or(other.format),
            items: both(self.items, other.items),
            min_properties: tighter(self.min_properties, other.min_properties, true),
            max_properties: tighter(self.max_properties, other.max_properties, false),
            values: both(self.values, other.values),
            keys: both(self.keys, other.keys),
            nullable: self.nullable && other.nullable,
            required_in_requests: self.required_in_requests || other.required_in_requests,
            choices: self.choices.into_iter().chain(other.choices).collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct IntEnumDef {
    pub name: String,
    pub doc: Option<String>,
    /// (Rust variant name, wire value), in spec order.
    pub variants: Vec<(String, i64)>,
    /// The variant that holds a value the spec does not list.
    pub unlisted: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StringEnumDef {
    pub name: String,
    pub doc: Option<String>,
    /// (Rust variant name, wire value), in spec order.
    pub variants: Vec<(String, String)>,
    /// The variant that holds a value the spec does not list.
    pub unlisted: String,
}

/// A value that is one of several schemas (`oneOf`, or `anyOf` read as the first that fits).
#[derive(Debug, Clone, PartialEq)]
pub struct UnionDef {
    pub name: String,
    pub doc: Option<String>,
    /// One per member, in spec order.
    pub variants: Vec<Variant>,
    /// How a reader tells the members apart.
    pub dispatch: Dispatch,
    /// Every member is one value written as text (a number, string, boolean or enum), so the
    /// union can be a parameter: it is written with `Display` and read with `FromStr`.
    pub text: bool,
    /// A `oneOf` whose members may accept the same value (two lists, two objects, a choice
    /// among the members): the index of its schema in [`Api::schema_checks`](super::Api::schema_checks), which servers
    /// check values against, so that a value more than one member accepts is refused as the
    /// document says, not read as the first.
    pub check: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Rust variant name.
    pub name: String,
    pub ty: TypeRef,
    /// Limits of the member beyond its type (a string's pattern, a list's items), enforced by the
    /// server on the value the variant holds.
    pub constraints: Constraints,
}

/// How a union's reader picks its variant.
#[derive(Debug, Clone, PartialEq)]
pub enum Dispatch {
    /// By the string value of a property every member has (`discriminator`): wire value →
    /// index into the variants.
    Tag { property: String, values: Vec<(String, usize)> },
    /// By the kind of JSON value, trying candidates in this order: index into the variants and
    /// the shape that selects it.
    Shape(Vec<(Shape, usize)>),
}

/// The kind of JSON value a union member accepts.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    String,
    Number,
    Bool,
    Array,
    /// An object; with several object members each is told by a property only it requires.
    Object {
        marker: Option<String>,
    },
    /// Anything (a member without a type).
    Any,
}

/// A reference to a type, as used by fields, parameters, bodies and replies.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypeRef {
    String,
    Bool,
    I32,
    I64,
    F32,
    F64,
    Uuid,
    /// ISO 8601 date-time, with or without an offset.
    DateTime,
    /// Any JSON value.
    Json,
    /// Raw bytes: a whole `application/octet-stream` request body.
    Bytes,
    /// A file part of a multipart body: bytes with a file name and media type.
    File,
    Vec(Box<TypeRef>),
    /// A JSON object with arbitrary keys.
    Map(Box<TypeRef>),
    /// An item of a list or a value of a map that may be `null` (`Option<T>`); a nullable
    /// property is an optional field instead.
    Nullable(Box<TypeRef>),
    /// A type from [`Api::types`](super::Api::types).
    Named(TypeId),
    /// The enum of a body the document gives in several media types ([`Body::choice`](super::Body::choice)), by its
    /// Rust name: the operation owns it, so it is not one of [`Api::types`](super::Api::types).
    BodyChoice(String),
}

impl TypeRef {
    /// A file or a list of files: a property only a multipart body can carry, as file parts.
    pub fn is_file_part(&self) -> bool {
        match self {
            TypeRef::File => true,
            TypeRef::Vec(item) => **item == TypeRef::File,
            _ => false,
        }
    }

    /// Calls `f` with every named type this reference mentions.
    pub fn visit_types(&self, f: &mut dyn FnMut(TypeId)) {
        match self {
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => inner.visit_types(f),
            TypeRef::Named(id) => f(*id),
            _ => {}
        }
    }

    /// Calls `f` with every handle this reference holds, to change it.
    pub(crate) fn handles_mut(&mut self, f: &mut dyn FnMut(&mut TypeId)) {
        match self {
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => inner.handles_mut(f),
            TypeRef::Named(id) => f(id),
            _ => {}
        }
    }
}

impl TypeDef {
    /// Calls `f` with every named type this definition mentions.
    pub fn visit_types(&self, f: &mut dyn FnMut(TypeId)) {
        match self {
            TypeDef::Struct(s) => {
                s.fields.iter().for_each(|field| field.ty.visit_types(f));
                if let Some((_, ty)) = &s.extra {
                    ty.visit_types(f);
                }
            }
            TypeDef::Alias { target, .. } => target.visit_types(f),
            TypeDef::Union(u) => u.variants.iter().for_each(|v| v.ty.visit_types(f)),
            TypeDef::IntEnum(_) | TypeDef::StringEnum(_) => {}
        }
    }

    /// Calls `f` with every handle this definition holds, to change it: those of its types and
    /// of its defaults.
    pub(crate) fn handles_mut(&mut self, f: &mut dyn FnMut(&mut TypeId)) {
        match self {
            TypeDef::Struct(s) => s.handles_mut(f),
            TypeDef::Alias { target, .. } => target.handles_mut(f),
            TypeDef::Union(u) => u.variants.iter_mut().for_each(|v| v.ty.handles_mut(f)),
            TypeDef::IntEnum(_) | TypeDef::StringEnum(_) => {}
        }
    }
}

impl StructDef {
    pub(super) fn handles_mut(&mut self, f: &mut dyn FnMut(&mut TypeId)) {
        for field in &mut self.fields {
            field.ty.handles_mut(f);
            field.default.iter_mut().for_each(|d| d.handles_mut(f));
        }
        if let Some((_, ty)) = &mut self.extra {
            ty.handles_mut(f);
        }
    }
}

impl DefaultValue {
    pub(super) fn handles_mut(&mut self, f: &mut dyn FnMut(&mut TypeId)) {
        match self {
            DefaultValue::Variant { ty, .. } => f(ty),
            DefaultValue::List(items) => items.iter_mut().for_each(|d| d.handles_mut(f)),
            DefaultValue::Map(entries) => entries.iter_mut().for_each(|(_, d)| d.handles_mut(f)),
            DefaultValue::Bool(_)
            | DefaultValue::Int(_)
            | DefaultValue::Float(_)
            | DefaultValue::String(_)
            | DefaultValue::Json(_)
            | DefaultValue::Decoded(_) => {}
        }
    }
}

/// A literal default, already checked against its parameter's type.
#[derive(Debug, Clone, PartialEq)]
pub enum DefaultValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    /// A variant of an integer or string enum, by Rust variant name.
    Variant {
        ty: TypeId,
        variant: String,
    },
    /// A list's items, each checked against the item type.
    List(Vec<DefaultValue>),
    /// A map's entries, each value checked against the map's value type.
    Map(Vec<(String, DefaultValue)>),
    /// Any JSON value, for a property or parameter that holds any JSON.
    Json(serde_json::Value),
    /// A property's value Rust has no literal for (a struct, a choice), which its schema allows:
    /// decoded from this JSON when the property is absent.
    Decoded(serde_json::Value),
}
