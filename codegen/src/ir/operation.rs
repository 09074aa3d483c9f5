//! An operation in the IR: its parameters, request bodies, replies, errors and media types.

use super::TypeId;
use super::paging::Paging;
use super::types::{Constraints, DefaultValue, StructDef, TypeRef};

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
    /// Indexes into [`Api::credentials`](super::Api::credentials) that this operation may send: every credential of every
    /// alternative, in the document's order.
    pub credentials: Vec<usize>,
    /// When the document accepts any one of several sets of credentials, each set (indexes into
    /// [`Api::credentials`](super::Api::credentials)) in the document's order; empty when `credentials` is the one set.
    pub credential_alternatives: Vec<Vec<usize>>,
    /// Indexes into [`Api::common_headers`](super::Api::common_headers) that this operation takes.
    pub common_headers: Vec<usize>,
    /// How to walk the operation's pages, when it is paged.
    pub paging: Option<Paging>,
    /// The bodies the document gives its error replies, in which the server writes its own
    /// rejections (exact statuses first, then classes, then `default`).
    pub error_shapes: Vec<ErrorShape>,
    /// The index in [`Api::operations`](super::Api::operations) of an earlier operation with the same `error_shapes`,
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
/// [`SchemaChecks`](super::SchemaChecks)' `xml` list, which says how elements and attributes map to properties.
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
