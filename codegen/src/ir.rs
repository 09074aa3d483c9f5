//! The resolved intermediate representation: everything the emitters need, with every `$ref`
//! followed and every Rust name decided. Emitters read only these types, never `openapiv3`.

/// One API, ready to emit.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
    /// `info.title`.
    pub title: String,
    /// `info.version`: the API version, not a crate version.
    pub version: String,
    /// `info.description`.
    pub description: Option<String>,
    /// The first server URL with its variables replaced by their defaults, if any.
    pub default_base_url: Option<String>,
    /// Named types, sorted by Rust name; a [`TypeId`] is an index into it.
    pub types: Vec<TypeDef>,
    /// Operations in the order the spec declares them (path, then method).
    pub operations: Vec<Operation>,
    /// Credentials sent as headers, from the security schemes in use.
    pub credentials: Vec<Credential>,
    /// Header parameters shared by every operation that the client sets once (e.g. the API version).
    pub common_headers: Vec<CommonHeader>,
    /// What the generator simplified, or left out because it cannot represent it (only when
    /// asked to skip unsupported parts), each located in the spec.
    pub warnings: Vec<crate::diagnostic::Diagnostic>,
    /// Cargo features per tag, when [`crate::config::Config::tag_features`] asks for them.
    pub tag_features: Option<TagFeatures>,
    /// The schemas values held as any JSON are checked against, and those XML bodies are read
    /// by, when there are any.
    pub schema_checks: Option<SchemaChecks>,
    /// Some pattern uses what only `fancy-regex` reads (look-around, back-references): the
    /// generated crates turn on the runtime's `fancy-pattern` feature.
    pub fancy_patterns: bool,
    /// The document as the generator read it, which the server crate can serve (feature
    /// `document`); set by [`crate::generate_files`], not by lowering.
    pub document: Option<Document>,
}

/// A document's text and its media type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The text: the file as written when it stands alone, else the tree bundled (and the overlays
    /// applied) as JSON.
    pub text: String,
    /// `application/json` or `application/yaml`.
    pub media_type: &'static str,
}

/// The document's schemas for the values the generated types hold as any JSON (see
/// [`TypeDef::Alias`]) and for the bodies servers read from XML (see [`XmlRead`]), with the
/// component schemas they refer to and their patterns spelled for the servers' regex engine:
/// `{"checks": [...], "xml": [...], "components": {"schemas": {...}}}`, the JSON a server reads.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaChecks(pub serde_json::Value);

/// Which cargo feature compiles which operation and type, so that a crate using a few areas of a
/// large API builds only those.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TagFeatures {
    /// One feature per tag in use, in the order tags first appear, then one per parent tag
    /// (OpenAPI 3.2) above them.
    pub features: Vec<String>,
    /// Features that turn on others: a parent tag's turns on its children's.
    pub children: std::collections::BTreeMap<String, Vec<String>>,
    /// Named types reached only from tagged operations, or from no operation, with the features
    /// any of which compiles them; a type not listed is always compiled.
    pub types: std::collections::BTreeMap<TypeId, Vec<String>>,
    /// The feature that compiles the schemas no operation reaches (off by default), when there
    /// are such schemas.
    pub unused: Option<String>,
}

impl TagFeatures {
    /// The features that compile the type `id`; empty when it is always compiled.
    pub fn of_type(&self, id: TypeId) -> &[String] {
        self.types.get(&id).map_or(&[], Vec::as_slice)
    }
}

/// A handle to a named type: its index in [`Api::types`], so looking it up cannot fail.
///
/// Lowering hands out handles as it names types, before it knows them all, and renumbers them
/// once the types are final; an [`Api`] that lowering returns holds only final handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId(pub(crate) u32);

impl TypeId {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

impl Api {
    /// Whether a server reads some body from XML.
    pub fn reads_xml(&self) -> bool {
        self.operations.iter().filter_map(|op| op.body.as_ref()).any(|body| body.xml.is_some())
    }

    /// Whether some parameter's, property's or member's limits satisfy `f`.
    pub fn any_limits(&self, f: &dyn Fn(&Constraints) -> bool) -> bool {
        let params = self.operations.iter().flat_map(|op| &op.params).map(|p| &p.constraints);
        let members = self.types.iter().flat_map(|t| -> Vec<&Constraints> {
            match t {
                TypeDef::Struct(s) => s.fields.iter().map(|field| &field.constraints).collect(),
                TypeDef::Union(u) => u.variants.iter().map(|v| &v.constraints).collect(),
                _ => Vec::new(),
            }
        });
        params.chain(members).any(|c| c.any(f))
    }

    /// The sets of credentials a client sends for `op`, in the document's order, up to the
    /// first whose credentials the client always holds: a later one would never be chosen.
    pub fn client_sets(&self, op: &Operation) -> Vec<Vec<usize>> {
        if op.credential_alternatives.is_empty() {
            return vec![op.credentials.clone()];
        }
        let mut sets = Vec::new();
        for set in &op.credential_alternatives {
            sets.push(set.clone());
            if set.iter().all(|&i| !self.credentials[i].optional) {
                break;
            }
        }
        sets
    }

    /// The credentials a client may send, in [`Api::credentials`] order: the others only a
    /// server reads.
    pub fn client_credentials(&self) -> Vec<&Credential> {
        let mut sent = vec![false; self.credentials.len()];
        for op in &self.operations {
            self.client_sets(op).iter().flatten().for_each(|&i| sent[i] = true);
        }
        self.credentials.iter().zip(sent).filter_map(|(c, sent)| sent.then_some(c)).collect()
    }

    /// The named type `id` stands for.
    pub fn ty(&self, id: TypeId) -> &TypeDef {
        &self.types[id.index()]
    }

    /// The Rust name of the type `id`.
    pub fn name_of(&self, id: TypeId) -> &str {
        self.ty(id).name()
    }

    /// The handle of the type called `name`, for tools and tests that start from a name; the
    /// emitters only follow handles.
    pub fn type_id(&self, name: &str) -> Option<TypeId> {
        let index = self.types.binary_search_by(|t| t.name().cmp(name)).ok()?;
        Some(TypeId(index as u32))
    }

    /// Every named type with its handle.
    pub fn types_with_ids(&self) -> impl Iterator<Item = (TypeId, &TypeDef)> {
        (0..).map(TypeId).zip(&self.types)
    }

    /// `ty` with named aliases followed to what they stand for.
    pub fn unaliased<'a>(&'a self, mut ty: &'a TypeRef) -> &'a TypeRef {
        // Bounded: an alias cycle cannot be lowered, but a loop here must still end.
        for _ in 0..self.types.len() {
            match ty {
                TypeRef::Named(id) => match self.ty(*id) {
                    TypeDef::Alias { target, .. } => ty = target,
                    _ => break,
                },
                _ => break,
            }
        }
        ty
    }
}

/// A credential carried in a request header: an `apiKey` in a header or cookie, an `http` bearer
/// or basic scheme, or the access token of an `oauth2` or `openIdConnect` scheme.
#[derive(Debug, Clone, PartialEq)]
pub struct Credential {
    /// The security scheme's name in `components/securitySchemes`.
    pub scheme: String,
    /// Where the credential travels.
    pub carrier: Carrier,
    /// Rust field name, e.g. `access_token`.
    pub field: String,
    pub doc: Option<String>,
    /// Whether every operation that sends it could send another set instead, so a client need
    /// not hold it.
    pub optional: bool,
}

/// Where and how a credential travels in a request.
#[derive(Debug, Clone, PartialEq)]
pub enum Carrier {
    /// The whole value of a header (an API key), e.g. `x-api-key`.
    Header(String),
    /// The `Authorization` header after an authentication scheme, `Bearer` or `Basic`.
    Authorization(String),
    /// The cookie of this name.
    Cookie(String),
    /// The query parameter of this name.
    Query(String),
}

impl Carrier {
    /// The header that carries the credential, lowercase for the ones HTTP defines.
    pub fn header(&self) -> &str {
        match self {
            Carrier::Header(header) => header,
            Carrier::Authorization(_) => "authorization",
            Carrier::Cookie(_) => "cookie",
            Carrier::Query(name) => name,
        }
    }

    /// What precedes the credential in its header: `Bearer `, `name=` for a cookie, or nothing.
    pub fn prefix(&self) -> String {
        match self {
            Carrier::Header(_) => String::new(),
            Carrier::Authorization(scheme) => format!("{scheme} "),
            Carrier::Cookie(name) | Carrier::Query(name) => format!("{name}="),
        }
    }
}

/// A header parameter every operation takes, lifted to client configuration and server context.
#[derive(Debug, Clone, PartialEq)]
pub struct CommonHeader {
    pub header: String,
    /// Rust field name, e.g. `api_version`.
    pub field: String,
    /// Value the client sends unless told otherwise.
    pub default: String,
    pub doc: Option<String>,
}

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
        /// index of its schema in [`Api::schema_checks`], which servers check it against.
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
    /// indexes of their schemas in [`Api::schema_checks`], which servers check values against.
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
    /// among the members): the index of its schema in [`Api::schema_checks`], which servers
    /// check values against, so that a value more than one member accepts is refused as the
    /// document says, not read as the first.
    pub check: Option<usize>,
}

/// The success replies of an operation with several success statuses: an enum with one variant
/// per status. Not a schema, so it has no wire form of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct RepliesDef {
    pub name: String,
    /// The operation, for the docs.
    pub operation: String,
    /// One per success status, in ascending order.
    pub cases: Vec<ReplyCase>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReplyCase {
    pub status: u16,
    /// Rust variant name, e.g. `Created`.
    pub name: String,
    /// The JSON body, or `None` for a reply without one.
    pub body: Option<TypeRef>,
    /// The documented reply headers.
    pub headers: Option<StructDef>,
    pub doc: Option<String>,
}

/// The documented error replies of one operation that carry a JSON body other than problem
/// details: an enum with one variant per status. Not a schema either.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorsDef {
    pub name: String,
    /// The operation, for the docs.
    pub operation: String,
    /// One per documented status, ascending, then classes (`4XX`), then `default` if it has a body.
    pub cases: Vec<ErrorCase>,
    /// The enum of an earlier operation that documents the same cases, which this one's name
    /// stands for (`pub type`): a large API documents the same few error replies on hundreds of
    /// operations.
    pub same_as: Option<String>,
    /// How many operations' errors are another name for this enum.
    pub shared: usize,
    /// With features per tag, the features any of which compiles this enum: those of its
    /// operation and of every operation whose `same_as` names it; empty when always compiled.
    pub features: Vec<String>,
}

impl ErrorsDef {
    /// Whether this is the enum itself rather than another name for an earlier operation's.
    pub fn defines(&self) -> bool {
        self.same_as.is_none()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ErrorCase {
    /// The status, class of statuses, or `default` (any status not otherwise listed).
    pub status: ErrorStatus,
    /// Rust variant name, e.g. `NotFound`.
    pub name: String,
    /// The JSON body.
    pub body: TypeRef,
    pub doc: Option<String>,
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
    /// A type from [`Api::types`].
    Named(TypeId),
    /// The enum of a body the document gives in several media types ([`Body::choice`]), by its
    /// Rust name: the operation owns it, so it is not one of [`Api::types`].
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
    fn handles_mut(&mut self, f: &mut dyn FnMut(&mut TypeId)) {
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
    fn handles_mut(&mut self, f: &mut dyn FnMut(&mut TypeId)) {
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

/// One operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// `operationId` as written in the spec.
    pub id: String,
    /// Rust method name, e.g. `get_au_holdings`.
    pub fn_name: String,
    /// UpperCamelCase base for per-operation types, e.g. `GetAuHoldings`.
    pub type_name: String,
    pub method: Method,
    /// Path template as written, e.g. `/api/application/{ApplicationId}/status`.
    pub path: String,
    /// The path template of the first operation whose path matches the same requests (its
    /// literal segments the same, parameters where this one has them): the route that serves
    /// both. This operation's own path when none before it does.
    pub route: String,
    /// The `name=value` pairs the path fixes in the query (`beta=true` of `/items?beta=true`),
    /// which tell this operation from others on the same route; a pair holding a template
    /// (`a={v}`) fixes nothing.
    pub fixed_query: Vec<(String, String)>,
    pub summary: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
    /// The cargo features, one per tag, any of which compiles this operation into the client
    /// (with [`crate::config::Config::tag_features`]); empty when it is always
    /// compiled.
    pub features: Vec<String>,
    pub deprecated: bool,
    pub params: Vec<Param>,
    pub body: Option<Body>,
    pub reply: Reply,
    /// The enum of its documented error bodies, which the operation owns: no other operation
    /// uses it.
    pub errors: Option<ErrorsDef>,
    /// Indexes into [`Api::credentials`] that this operation may send: every credential of every
    /// alternative, in the document's order.
    pub credentials: Vec<usize>,
    /// When the document accepts any one of several sets of credentials, each set (indexes into
    /// [`Api::credentials`]) in the document's order; empty when `credentials` is the one set.
    pub credential_alternatives: Vec<Vec<usize>>,
    /// Indexes into [`Api::common_headers`] that this operation takes.
    pub common_headers: Vec<usize>,
    /// How to walk the operation's pages, when it is paged.
    pub paging: Option<Paging>,
    /// The bodies the document gives its error replies, in which the server writes its own
    /// rejections (exact statuses first, then classes, then `default`).
    pub error_shapes: Vec<ErrorShape>,
    /// The index in [`Api::operations`] of an earlier operation with the same `error_shapes`,
    /// whose list the server shares.
    pub error_shapes_of: Option<usize>,
    /// What a mock answers when no handler is set; `None` when no valid reply could be made.
    pub sample: Option<ReplySample>,
}

/// A reply made up for a mock: the document's example where valid, else sampled from the schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplySample {
    /// The body (for several replies, the first's; for a stream, one item) as JSON text; for a
    /// download, its bytes as text.
    pub body: Option<String>,
    /// Rust field name → JSON text of each documented reply header.
    pub headers: Vec<(String, String)>,
}

/// A documented error body that the server writes its own errors in: a valid body holding what
/// the schema requires, and where in it the error's parts go.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorShape {
    pub status: ErrorStatus,
    pub content_type: String,
    /// The body before filling, as compact JSON text; empty for problem details.
    pub template: String,
    /// JSON pointer into the body → what is written there.
    pub fills: Vec<(String, Fill)>,
}

/// Which statuses a documented reply covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorStatus {
    Exact(u16),
    /// `4XX` or `5XX`: the hundreds digit.
    Class(u16),
    Default,
}

/// A part of an error, written into a documented error body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Fill {
    /// What went wrong with this request (the title when there is no detail).
    Detail,
    /// A short summary (the status's reason phrase unless the error sets one).
    Title,
    /// The status as a number.
    Status,
    /// The status as text (`"404"`).
    StatusText,
    /// A short machine-readable code: the last segment of the problem type, or the reason phrase
    /// in `snake_case`.
    Code,
    /// The problem type URI.
    Type,
    /// The request path.
    Instance,
    /// The per-field messages.
    Errors(ErrorList),
}

/// How a body lists per-field messages.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ErrorList {
    /// `["limit: must be at most 100"]`.
    Strings,
    /// `[{"field": "limit", "message": "must be at most 100"}]`, with these property names.
    Objects { name: String, message: String },
    /// `[{"detail": "`limit` must be at most 100"}]`: objects with a message and no field name,
    /// so each field's message names the field; with none, the one item is the error's detail.
    Messages { message: String },
    /// `{"limit": "must be at most 100"}`.
    Map,
    /// `{"limit": ["must be at most 100"]}`.
    MapOfLists,
}

/// A paged operation: which parameter selects a page, how the next one is found, and where a
/// reply keeps its items.
#[derive(Debug, Clone, PartialEq)]
pub struct Paging {
    pub kind: PageKind,
    /// The page-size parameter, when there is one: an index into [`Operation::params`].
    pub size: Option<usize>,
    /// The spec's default page size, to recognise a short (last) page.
    pub default_size: Option<i64>,
    /// Where the key of the next page is read; `None` for numbered and offset pages, whose next
    /// key is counted.
    pub next: Option<NextKey>,
    /// Type of one item.
    pub item: TypeRef,
    pub shape: PageShape,
}

/// What the paging parameter holds. Each names its parameter by an index into
/// [`Operation::params`].
#[derive(Debug, Clone, PartialEq)]
pub enum PageKind {
    /// A page number; the first page is `first` (0 or 1).
    Number { param: usize, first: i64 },
    /// How many items to skip.
    Offset { param: usize },
    /// An opaque value the previous reply gave; absent for the first page.
    Cursor { param: usize },
}

impl PageKind {
    /// The paging parameter's index into [`Operation::params`].
    pub fn param(&self) -> usize {
        match self {
            PageKind::Number { param, .. } | PageKind::Offset { param } | PageKind::Cursor { param } => *param,
        }
    }
}

/// Where a reply gives the key of the next page.
#[derive(Debug, Clone, PartialEq)]
pub enum NextKey {
    /// A value in the body, by this path from the reply (or from each wrapper).
    Body(FieldPath),
    /// A documented reply header holding the key itself: its field in the headers struct.
    Header(FieldPath),
    /// A documented `Link` header (RFC 8288): the paging parameter's value in the query of its
    /// `rel="next"` URL.
    Link(FieldPath),
}

/// A value inside a reply or its headers: the Rust fields that lead to it, each with how it
/// holds its value, and its type.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldPath {
    pub fields: Vec<(String, Holder)>,
    pub ty: TypeRef,
}

/// How a struct field holds its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// As it is.
    Plain,
    /// In an `Option`.
    Option,
    /// In a `Nullable`, which tells `null` from absent.
    Nullable,
}

impl Holder {
    /// How `field` holds its value.
    pub fn of(field: &Field) -> Holder {
        if field.tristate {
            Holder::Nullable
        } else if !field.required || field.nullable {
            Holder::Option
        } else {
            Holder::Plain
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum PageShape {
    /// The reply is the array of items.
    Array,
    /// The reply is one wrapper object.
    Wrapper(PageWrapper),
    /// The reply is an array of wrapper objects whose items are concatenated.
    ArrayOfWrappers(PageWrapper),
}

/// Where a paged wrapper keeps its items and, when it says, the total that ends the walk: the
/// number of pages for numbered pages, of items for offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct PageWrapper {
    pub items: FieldPath,
    pub total: Option<FieldPath>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Put,
    Post,
    Delete,
    Patch,
    Head,
    Options,
    Trace,
    /// `QUERY` (OpenAPI 3.2): a safe, idempotent request that carries its query in a body.
    Query,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Patch => "PATCH",
            Method::Head => "HEAD",
            Method::Options => "OPTIONS",
            Method::Trace => "TRACE",
            Method::Query => "QUERY",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Path,
    Query,
    Header,
    Cookie,
}

impl Location {
    /// As OpenAPI's `in` names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub wire: String,
    /// Rust name, unique among the operation's parameters and body.
    pub name: String,
    pub location: Location,
    pub ty: TypeRef,
    pub required: bool,
    /// Value applied when the parameter is absent.
    pub default: Option<DefaultValue>,
    /// Arrays in a query: `true` repeats the name per item, `false` joins items with `delimiter`.
    pub explode: bool,
    /// Between the items of an array in a query that is not exploded: `,` (`style: form`), `|`
    /// (`pipeDelimited`) or a space (`spaceDelimited`).
    pub delimiter: char,
    /// Limits of the parameter's schema (and of its items, for a list), checked by the server
    /// as a body's are.
    pub constraints: Constraints,
    /// For an object in the query or the path: how its properties are written.
    pub object_style: Option<ObjectStyle>,
    /// The value travels as its JSON text (in the query, a list's items one each): the document
    /// says so with `content`, or the schema has no plain-text form in its location.
    pub json: bool,
    /// What precedes a path parameter's value in its segment: `.` for `style: label`, `;name=`
    /// for `style: matrix`, nothing for `simple`.
    pub path_prefix: String,
    /// A query parameter sent with an empty value (`name=`) is read as absent
    /// (`allowEmptyValue`).
    pub empty_is_absent: bool,
    pub doc: Option<String>,
}

impl Param {
    /// Between the items of a list in a path segment: `,`, but `.` for an exploded `label` and
    /// the prefix again (`;name=`) for an exploded `matrix` style.
    pub fn path_separator(&self) -> &str {
        match (self.explode, self.path_prefix.as_str()) {
            (true, prefix) if !prefix.is_empty() => prefix,
            _ => ",",
        }
    }
}

/// How an object parameter's properties are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectStyle {
    /// `name[property]=value` in the query (`style: deepObject`).
    Deep,
    /// `property=value` in the query, as if each property were a parameter (`style: form`,
    /// exploded).
    Exploded,
    /// One path segment or header, `property,value,property,value`, or
    /// `property=value,property=value` when exploded (`style: simple`).
    Simple,
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

#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    pub ty: TypeRef,
    pub required: bool,
    /// How the body is written on the wire.
    pub encoding: BodyEncoding,
    /// Content type the client sends.
    pub content_type: String,
    /// Every content type the spec accepts for this body.
    pub accepted: Vec<String>,
    /// Form content types (urlencoded or multipart) the spec also accepts for a JSON body, with
    /// the same schema: the server reads the body from any of them, the client sends JSON.
    pub also_form: Vec<String>,
    pub doc: Option<String>,
    /// Media types the document describes with schemas of their own (JSON beside a multipart
    /// upload, say): `ty` is then this enum, a variant per media type, and the fields above
    /// describe its first case.
    pub choice: Option<BodiesDef>,
    /// XML media types the document also takes for this JSON body, with the same schema: the
    /// server reads the XML as the schema's `xml` objects describe, the client sends JSON.
    pub xml: Option<XmlRead>,
    /// The limits of a body that is no object (a list, a string): its own and its items', which
    /// the server checks as it checks a parameter's. An object's are its type's own.
    pub constraints: Constraints,
}

/// How a server reads a body sent as XML: the media types, and the index of the body's schema in
/// [`SchemaChecks`]' `xml` list, which says how elements and attributes map to properties.
#[derive(Debug, Clone, PartialEq)]
pub struct XmlRead {
    pub media_types: Vec<String>,
    pub schema: usize,
}

impl Body {
    /// The bodies as they go on the wire: the cases of a choice, else the body itself.
    pub fn cases(&self) -> Vec<&Body> {
        match &self.choice {
            Some(choice) => choice.cases.iter().map(|c| &c.body).collect(),
            None => vec![self],
        }
    }
}

/// A request body the document describes differently per media type: an enum in the types module,
/// a variant per media type. Not a schema either.
#[derive(Debug, Clone, PartialEq)]
pub struct BodiesDef {
    pub name: String,
    /// The operation, for the docs.
    pub operation: String,
    pub cases: Vec<BodyCase>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BodyCase {
    /// Rust variant name, e.g. `Multipart`.
    pub name: String,
    /// The body of this media type (never itself a choice).
    pub body: Body,
}

/// The wire form of a request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyEncoding {
    Json,
    /// `application/x-www-form-urlencoded`: one pair per property, a list repeating its name.
    Form,
    /// The bytes as they are (`application/octet-stream` and other binary types).
    Binary,
    /// UTF-8 text as it is (`text/plain`).
    Text,
    /// `multipart/form-data`: a part per property, files (binary properties) as file parts, other
    /// objects as JSON parts.
    Multipart,
}

/// What a successful call returns.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A success status with no body (204, 202, a redirect, or a 200 without content), and the
    /// struct of its documented headers.
    Empty { status: u16, headers: Option<StructDef>, doc: Option<String> },
    /// A JSON body, and the struct of its documented headers.
    Json { status: u16, ty: TypeRef, headers: Option<StructDef>, doc: Option<String> },
    /// A binary body, streamed, at `status` or any of the `also` statuses (`206 Partial Content`
    /// beside a 200, say), which the server picks and the client reports.
    Download { status: u16, also: Vec<u16>, content_type: String, doc: Option<String> },
    /// Items one after another (OpenAPI 3.2's `itemSchema`), each read and written as it arrives.
    Stream { status: u16, item: TypeRef, framing: Framing, content_type: String, doc: Option<String> },
    /// Several success statuses: an enum with a variant per status, at least two.
    Several(RepliesDef),
    /// `101 Switching Protocols`: the connection becomes the protocol the request's `Upgrade`
    /// header names, handed to the caller on the client and to the implementation on the server.
    Upgrade { doc: Option<String> },
}

/// How the items of a streamed reply follow one another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One JSON value per line (`application/jsonl`, `application/x-ndjson`, `application/json-seq`).
    JsonLines,
    /// Server-sent events (`text/event-stream`).
    EventStream,
}

impl Operation {
    /// Calls `f` with every named type the operation's parameters, body and reply mention.
    pub fn visit_types(&self, f: &mut dyn FnMut(TypeId)) {
        self.params.iter().for_each(|p| p.ty.visit_types(f));
        if let Some(body) = &self.body {
            body.cases().iter().for_each(|b| b.ty.visit_types(f));
        }
        let fields =
            |s: &StructDef, f: &mut dyn FnMut(TypeId)| s.fields.iter().for_each(|field| field.ty.visit_types(f));
        match &self.reply {
            Reply::Json { ty, .. } | Reply::Stream { item: ty, .. } => ty.visit_types(f),
            Reply::Several(replies) => replies.cases.iter().for_each(|c| {
                c.body.iter().for_each(|ty| ty.visit_types(f));
                c.headers.iter().for_each(|h| fields(h, f));
            }),
            Reply::Empty { .. } | Reply::Download { .. } | Reply::Upgrade { .. } => {}
        }
        if let Some(headers) = self.reply.headers() {
            fields(headers, f);
        }
        if let Some(errors) = &self.errors {
            errors.cases.iter().for_each(|c| c.body.visit_types(f));
        }
    }

    /// Calls `f` with every handle the operation holds, to change it: unlike
    /// [`Operation::visit_types`], also those of defaults and of the paged item.
    pub(crate) fn handles_mut(&mut self, f: &mut dyn FnMut(&mut TypeId)) {
        for p in &mut self.params {
            p.ty.handles_mut(f);
            p.default.iter_mut().for_each(|d| d.handles_mut(f));
        }
        if let Some(body) = &mut self.body {
            body.ty.handles_mut(f);
            for case in body.choice.iter_mut().flat_map(|c| &mut c.cases) {
                case.body.ty.handles_mut(f);
            }
        }
        match &mut self.reply {
            Reply::Json { ty, headers, .. } => {
                ty.handles_mut(f);
                headers.iter_mut().for_each(|h| h.handles_mut(f));
            }
            Reply::Empty { headers, .. } => headers.iter_mut().for_each(|h| h.handles_mut(f)),
            Reply::Stream { item, .. } => item.handles_mut(f),
            Reply::Several(replies) => replies.cases.iter_mut().for_each(|c| {
                c.body.iter_mut().for_each(|ty| ty.handles_mut(f));
                c.headers.iter_mut().for_each(|h| h.handles_mut(f));
            }),
            Reply::Download { .. } | Reply::Upgrade { .. } => {}
        }
        if let Some(errors) = &mut self.errors {
            errors.cases.iter_mut().for_each(|c| c.body.handles_mut(f));
        }
        if let Some(paging) = &mut self.paging {
            paging.item.handles_mut(f);
        }
    }

    /// The types this operation owns (its reply headers, reply and error enums, body choice), for the
    /// types module, which writes them beside the named types.
    pub fn owned_types(&self) -> Vec<OwnedType<'_>> {
        let mut out = Vec::new();
        match &self.reply {
            Reply::Empty { headers: Some(h), .. } | Reply::Json { headers: Some(h), .. } => {
                out.push(OwnedType::Headers(h));
            }
            Reply::Several(replies) => {
                out.extend(replies.cases.iter().filter_map(|c| c.headers.as_ref()).map(OwnedType::Headers));
                out.push(OwnedType::Replies(replies));
            }
            _ => {}
        }
        out.extend(self.errors.as_ref().map(OwnedType::Errors));
        out.extend(self.body.as_ref().and_then(|b| b.choice.as_ref()).map(OwnedType::Bodies));
        out
    }
}

/// A type an operation owns.
#[derive(Debug, Clone, Copy)]
pub enum OwnedType<'a> {
    Headers(&'a StructDef),
    Replies(&'a RepliesDef),
    Errors(&'a ErrorsDef),
    Bodies(&'a BodiesDef),
}

impl OwnedType<'_> {
    pub fn name(&self) -> &str {
        match self {
            OwnedType::Headers(s) => &s.name,
            OwnedType::Replies(r) => &r.name,
            OwnedType::Errors(e) => &e.name,
            OwnedType::Bodies(b) => &b.name,
        }
    }
}

impl Reply {
    /// The struct of documented headers of a single success reply.
    pub fn headers(&self) -> Option<&StructDef> {
        match self {
            Reply::Empty { headers, .. } | Reply::Json { headers, .. } => headers.as_ref(),
            Reply::Download { .. } | Reply::Stream { .. } | Reply::Several(_) | Reply::Upgrade { .. } => None,
        }
    }

    pub fn status(&self) -> u16 {
        match self {
            Reply::Empty { status, .. }
            | Reply::Json { status, .. }
            | Reply::Download { status, .. }
            | Reply::Stream { status, .. } => *status,
            Reply::Several(replies) => replies.cases.first().map_or(200, |c| c.status),
            Reply::Upgrade { .. } => 101,
        }
    }

    /// Every documented success status, the main one first.
    pub fn statuses(&self) -> Vec<u16> {
        match self {
            Reply::Download { status, also, .. } => std::iter::once(*status).chain(also.iter().copied()).collect(),
            Reply::Several(replies) => replies.cases.iter().map(|c| c.status).collect(),
            _ => vec![self.status()],
        }
    }
}

/// A media type that `range` allows and a message can carry: `range` itself unless it has a
/// wildcard (`*/*`, `image/*`), which names no type a body can be sent as.
pub fn media_type_within(range: &str) -> String {
    let essence = range.split(';').next().unwrap_or(range).trim().to_ascii_lowercase();
    match essence.split_once('/') {
        Some((_, subtype)) if subtype != "*" => range.to_string(),
        Some(("text", _)) => "text/plain".to_string(),
        Some(("image", _)) => "image/png".to_string(),
        Some(("audio", _)) => "audio/mpeg".to_string(),
        Some(("video", _)) => "video/mp4".to_string(),
        _ => "application/octet-stream".to_string(),
    }
}

/// The requests a path template matches, as a key: its literal segments, and `{}` for each that
/// captures; a query the path fixes is no part of it.
pub fn route_key(path: &str) -> String {
    let path = path.split_once('?').map_or(path, |(path, _)| path);
    let segments = path.split('/').map(|s| if s.contains('{') { "{}" } else { s });
    segments.collect::<Vec<_>>().join("/")
}

impl Api {
    /// Sets each operation's [`Operation::route`], in one pass over the operations.
    pub(crate) fn assign_routes(&mut self) {
        let mut first: std::collections::HashMap<String, String> = std::collections::HashMap::new();
        for op in &mut self.operations {
            op.route = first.entry(route_key(&op.path)).or_insert_with(|| op.path.clone()).clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Constraints, media_type_within};

    #[test]
    fn both_sets_of_limits_hold_the_tighter_bound_winning() {
        let a = Constraints { minimum: Some(0.0), maximum: Some(10.0), exclusive_maximum: true, ..Default::default() };
        let b = Constraints { minimum: Some(2.0), maximum: Some(20.0), max_length: Some(3), ..Default::default() };
        let both = a.and(b);
        assert_eq!((both.minimum, both.maximum, both.max_length), (Some(2.0), Some(10.0), Some(3)));
        assert!(both.exclusive_maximum && !both.exclusive_minimum);
    }

    #[test]
    fn a_range_gives_a_type_it_allows() {
        assert_eq!(media_type_within("text/csv"), "text/csv");
        assert_eq!(media_type_within("*/*"), "application/octet-stream");
        assert_eq!(media_type_within("application/*"), "application/octet-stream");
        assert_eq!(media_type_within("text/*; charset=utf-8"), "text/plain");
        assert_eq!(media_type_within("image/*"), "image/png");
    }
}
