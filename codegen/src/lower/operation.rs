//! Paths and operations → [`Operation`]s.

use openapiv3::{
    Parameter, ParameterSchemaOrContent, PathStyle, QueryStyle, ReferenceOr, Schema, SchemaKind, StatusCode, Type,
};
use serde_json::Value;

use super::Lowerer;
use super::Naming;
use super::prune::Unit;
use crate::diagnostic::Pointer;
use crate::front::markers::{self, ITEM_SCHEMA};
use crate::ir::{
    BodiesDef, Body, BodyCase, BodyEncoding, CommonHeader, Constraints, Credential, DefaultValue, Dispatch, ErrorCase,
    ErrorShape, ErrorStatus, ErrorsDef, Field, Framing, Location, Method, ObjectStyle, Operation, Param, RepliesDef,
    Reply, ReplyCase, StructDef, TypeDef, TypeRef, XmlRead,
};
use crate::naming::{Scope, camel, snake};

/// Methods of the generated client that an operation's method must not shadow: its own and those
/// of the traits it implements. `fixtures/reserved-*` (from `codegen/tests/fixtures/reserved.yaml`)
/// names operations after each, so a name missing here is a compile error in the workspace.
const RESERVED_FN_NAMES: &[&str] = &[
    "base_url",
    "builder",
    "clone",
    "credential_headers",
    "fmt",
    "from_connection",
    "http_client_builder",
    "new",
    "with_http_client",
];

/// Names a request builder uses for itself, and `clone`, which a paged walk calls on it.
const RESERVED_PARAM_NAMES: &[&str] =
    &["body", "client", "clone", "into_future", "into_stream", "new", "send", "timeout"];

/// Methods of std's traits that a method called on a client (which derives `Clone` and `Debug`)
/// or on the `Arc` a server holds its implementation in resolves to before the generated one:
/// an operation named `drop` would call `Drop::drop`, `as_ref` `AsRef::as_ref`.
const STD_METHOD_NAMES: &[&str] = &[
    "as_mut",
    "as_ref",
    "clamp",
    "clone",
    "clone_from",
    "clone_into",
    "cmp",
    "default",
    "drop",
    "eq",
    "fmt",
    "ge",
    "gt",
    "hash",
    "into",
    "into_future",
    "le",
    "lt",
    "max",
    "min",
    "ne",
    "partial_cmp",
    "to_owned",
    "to_string",
    "try_into",
];

/// Names the builders module imports or takes from the prelude, which a request builder's type
/// must not take (an operation `send` would otherwise shadow the `Send` its futures are bound by).
const RESERVED_BUILDER_NAMES: &[&str] = &[
    "AsMut",
    "AsRef",
    "Box",
    "Call",
    "Client",
    "Clone",
    "Copy",
    "Default",
    "DoubleEndedIterator",
    "Drop",
    "Duration",
    "Eq",
    "Err",
    "Error",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Future",
    "HeaderValue",
    "Into",
    "IntoFuture",
    "IntoIterator",
    "Items",
    "Iterator",
    "Method",
    "None",
    "Ok",
    "Option",
    "Ord",
    "Page",
    "PartialEq",
    "PartialOrd",
    "Pin",
    "Query",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

/// Headers OpenAPI says to ignore when declared as parameters.
const IGNORED_HEADERS: &[&str] = &["accept", "content-type", "authorization"];

/// A protocol switch needs the request's `Upgrade` header to name the protocol: a required header
/// parameter of its own, unless the operation declares one.
fn upgrade_header(mut params: Vec<Param>, reply: &Reply) -> Vec<Param> {
    let declared = params.iter().any(|p| p.location == Location::Header && p.wire.eq_ignore_ascii_case("upgrade"));
    if !matches!(reply, Reply::Upgrade { .. }) || declared {
        return params;
    }
    let taken = |name: &str| name == "body" || params.iter().any(|p| p.name == name);
    let name = ["protocol", "upgrade", "upgrade_protocol"].into_iter().find(|n| !taken(n)).unwrap_or("upgrade_to");
    params.push(Param {
        wire: "Upgrade".to_string(),
        name: name.to_string(),
        location: Location::Header,
        ty: TypeRef::String,
        required: true,
        default: None,
        explode: false,
        delimiter: ',',
        constraints: Constraints::default(),
        object_style: None,
        json: false,
        path_prefix: String::new(),
        empty_is_absent: false,
        doc: Some("The protocol to switch the connection to, sent in `Upgrade` (`websocket`, `h2c`, ...).".to_string()),
    });
    params
}

impl<'a> Lowerer<'a> {
    pub(super) fn operations(&mut self, credentials: &[Credential], common: &[CommonHeader]) -> Vec<Operation> {
        let doc = self.doc;
        let mut fn_scope = Scope::with_reserved(&[RESERVED_FN_NAMES, STD_METHOD_NAMES].concat());
        // The client's getter and setter of each common header.
        for header in common {
            fn_scope.claim(&header.field);
            fn_scope.claim(&format!("with_{}", header.field));
        }
        let mut type_scope = Scope::with_reserved(RESERVED_BUILDER_NAMES);
        // Where each explicit operationId was first used: a second use is an error, not a rename.
        let mut ids: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
        let mut out: Vec<Operation> = Vec::new();
        // Each path shape's operations so far (indexes into `out`), so that finding those that
        // share a shape stays linear on large specs.
        let mut shapes: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
        for (path, item) in &doc.paths.paths {
            let path_ptr = Pointer::root().push("paths").push(path);
            let item = match item {
                ReferenceOr::Item(item) => item,
                ReferenceOr::Reference { .. } => {
                    let mark = self.unit_start();
                    self.report(&path_ptr, "a path item given as a $ref is not supported");
                    self.unit_end(mark, Unit::Path { path: path.clone() });
                    continue;
                }
            };
            // Not OpenAPI, but written to give one path several operations by a query value.
            if let Some((route, fixed)) = path.split_once('?') {
                self.warn(
                    &path_ptr,
                    format!(
                        "the path holds a query (`{fixed}`), which OpenAPI paths do not: clients send it, and servers serve requests to `{route}` that carry it with these operations"
                    ),
                );
            }
            let query = self.query_operations.iter().find(|(p, _)| p == path).map(|(_, op)| op);
            let methods = [
                (Method::Get, item.get.as_ref()),
                (Method::Put, item.put.as_ref()),
                (Method::Post, item.post.as_ref()),
                (Method::Delete, item.delete.as_ref()),
                (Method::Options, item.options.as_ref()),
                (Method::Head, item.head.as_ref()),
                (Method::Patch, item.patch.as_ref()),
                (Method::Trace, item.trace.as_ref()),
                (Method::Query, query),
            ];
            for (method, op) in methods {
                let Some(op) = op else { continue };
                let ptr = path_ptr.push(method.as_str().to_ascii_lowercase());
                let id = op.operation_id.clone().unwrap_or_else(|| derived_id(method, path));
                let fn_name = fn_scope.claim(&snake(&id));
                let type_name = type_scope.claim(&camel(&id));
                let ctx = OpContext { method, path, ptr: &ptr, type_name: &type_name };
                let mark = self.unit_start();
                // An operation the document wrote malformed, set aside while loading.
                if let Some(reason) = op.extensions.get(markers::UNREADABLE) {
                    self.report(
                        &ptr,
                        format!("this is not a valid operation: {}", reason.as_str().unwrap_or_default()),
                    );
                    self.unit_end(mark, Unit::Operation { id: id.clone(), method, path: path.clone() });
                    continue;
                }
                if let Some(explicit) = op.operation_id.as_deref() {
                    match ids.get(explicit) {
                        // Ids must be unique, but the Rust names already are: the generator
                        // tells the two apart by those (services that bind one RPC to several
                        // paths repeat its id).
                        Some(first) => self.warn(
                            &ptr.push("operationId"),
                            format!("operationId `{explicit}` is already the id of the operation at {first}; this one is `{fn_name}` in Rust"),
                        ),
                        None => {
                            ids.insert(explicit, ptr.to_string());
                        }
                    }
                }
                let (params, common_headers) = self.params(&ctx, &item.parameters, &op.parameters, common);
                let body = op.request_body.as_ref().and_then(|b| self.body(&ctx, b));
                let reply = self.reply(&ctx, &op.responses);
                let error_responses = self.error_responses(&ctx, &op.responses);
                let errors = self.error_replies(&ctx, &error_responses);
                let produces = op.extensions.get(markers::PRODUCES).and_then(|p| p.as_array());
                let produces: Vec<&str> = produces.into_iter().flatten().filter_map(|p| p.as_str()).collect();
                let error_shapes = self.error_shapes(&ptr, &op.responses, &error_responses, &produces);
                let credentials = self.operation_credentials(&ptr, op.security.as_ref(), credentials);
                // Paths that differ only in their parameters' names are one path (OpenAPI forbids
                // them, and grpc-gateway writes them): served by one route, a method once.
                let shape = path_shape(path);
                let same_shape = || shapes.get(&shape).into_iter().flatten().map(|&i| &out[i]);
                if let Some(other) = same_shape().find(|o| o.path != *path) {
                    let message = format!(
                        "this path differs from {} only in its parameters' names, which OpenAPI forbids; both are served by one route",
                        other.path
                    );
                    self.warn(&Pointer::root().push("paths").push(path), message);
                }
                if let Some(other) = same_shape().find(|o| o.method == method) {
                    self.report(
                        &ptr,
                        format!(
                            "{} {} is already this operation's method and path, but for the parameters' names",
                            method.as_str(),
                            other.path
                        ),
                    );
                }
                let unit = Unit::Operation { id: id.clone(), method, path: path.clone() };
                let (true, Some(reply), Some((credentials, credential_alternatives))) =
                    (self.unit_end(mark, unit), reply, credentials)
                else {
                    continue;
                };
                let paging = self.paging(&ptr, &op.extensions, &params, &reply);
                let sample = self.reply_sample(&ptr, &op.responses, &reply, self.seed);
                let params = upgrade_header(params, &reply);
                shapes.entry(shape).or_default().push(out.len());
                out.push(Operation {
                    route: path.clone(),
                    fixed_query: fixed_query(path),
                    id,
                    fn_name,
                    type_name,
                    method,
                    path: path.clone(),
                    summary: op.summary.clone(),
                    description: super::prose(&op.description),
                    tags: op.tags.clone(),
                    features: Vec::new(),
                    deprecated: op.deprecated,
                    params,
                    body,
                    reply,
                    errors,
                    credentials,
                    credential_alternatives,
                    common_headers,
                    paging,
                    error_shapes,
                    error_shapes_of: None,
                    sample,
                });
            }
        }
        out
    }

    fn params(
        &mut self,
        ctx: &OpContext,
        path_level: &[ReferenceOr<Parameter>],
        op_level: &[ReferenceOr<Parameter>],
        common: &[CommonHeader],
    ) -> (Vec<Param>, Vec<usize>) {
        // Operation-level parameters override path-level ones with the same name and location.
        let mut merged: Vec<(Pointer, &Parameter)> = Vec::new();
        let levels = [(ctx.ptr.clone(), op_level), (Pointer::root().push("paths").push(ctx.path), path_level)];
        for (base, list) in levels {
            for (i, p) in list.iter().enumerate() {
                let ptr = base.push("parameters").push(i);
                let Some(param) = self.resolve_parameter(p) else {
                    self.unresolved(&ptr, p, "a parameter in #/components/parameters", "the parameter is left out");
                    continue;
                };
                let key = (param.parameter_data_ref().name.clone(), std::mem::discriminant(param));
                if !merged.iter().any(|(_, m)| (m.parameter_data_ref().name.clone(), std::mem::discriminant(*m)) == key)
                {
                    merged.push((ptr, param));
                }
            }
        }
        // Path parameters the spec declares, lowered or not (one refused is reported already).
        let declared: Vec<String> = merged
            .iter()
            .filter(|(_, p)| matches!(p, Parameter::Path { .. }))
            .map(|(_, p)| p.parameter_data_ref().name.clone())
            .collect();
        let mut scope = Scope::with_reserved(RESERVED_PARAM_NAMES);
        let mut params = Vec::new();
        let mut common_used = Vec::new();
        // What a media type without a schema carries: text, or any JSON value for a JSON type.
        let (text, any) = (unwritten_schema(false), unwritten_schema(true));
        for (ptr, param) in merged {
            let data = param.parameter_data_ref();
            let mut deep = false;
            let mut delimiter = ',';
            let mut empty_is_absent = false;
            // `label` (`.a`) and `matrix` (`;id=a`) spell even one value differently: a prefix in
            // the segment.
            let path_prefix = match param {
                Parameter::Path { style: PathStyle::Label, .. } => ".".to_string(),
                Parameter::Path { style: PathStyle::Matrix, .. } => format!(";{}=", data.name),
                _ => String::new(),
            };
            let (location, explode) = match param {
                Parameter::Path { .. } => (Location::Path, data.explode.unwrap_or(false)),
                Parameter::Query { style, allow_reserved, allow_empty_value, .. } => {
                    deep = matches!(style, QueryStyle::DeepObject);
                    // `name=` says "no value": read as absent, as no value of most types is
                    // spelled by empty text.
                    empty_is_absent = allow_empty_value.unwrap_or(false) && !data.required;
                    // Reserved characters may go unencoded; encoded, they mean the same to any
                    // server, so they are.
                    if *allow_reserved {
                        self.warn(
                            &ptr.push("allowReserved"),
                            "`allowReserved` is honoured by percent-encoding reserved characters anyway, which servers decode alike",
                        );
                    }
                    // Only `form` explodes unless told otherwise.
                    let explode = data.explode.unwrap_or(matches!(style, QueryStyle::Form));
                    match style {
                        QueryStyle::SpaceDelimited => delimiter = ' ',
                        QueryStyle::PipeDelimited => delimiter = '|',
                        QueryStyle::Form | QueryStyle::DeepObject => {}
                    }
                    (Location::Query, explode)
                }
                Parameter::Header { .. } => {
                    let lower = data.name.to_ascii_lowercase();
                    if IGNORED_HEADERS.contains(&lower.as_str()) {
                        let instead = match lower.as_str() {
                            "accept" => "the replies' media types say what the client accepts",
                            "content-type" => "the request body's media type says it",
                            _ => "credentials are sent as the operation's `security` says",
                        };
                        self.warn(
                            &ptr,
                            format!("header parameter `{}` is ignored, as OpenAPI says: {instead}", data.name),
                        );
                        continue;
                    }
                    if let Some(i) = common.iter().position(|c| c.header.eq_ignore_ascii_case(&data.name)) {
                        common_used.push(i);
                        continue;
                    }
                    (Location::Header, data.explode.unwrap_or(false))
                }
                Parameter::Cookie { .. } => (Location::Cookie, false),
            };
            // `content` names the media type of the value's text: JSON is written as JSON text,
            // anything else is read by its schema as usual.
            let mut json = false;
            let (schema, schema_ptr) = match &data.format {
                ParameterSchemaOrContent::Schema(s) => (s, ptr.push("schema")),
                ParameterSchemaOrContent::Content(content) => match content.iter().next() {
                    None => {
                        self.warn(&ptr.push("content"), "`content` names no media type; the value is read as text");
                        (&text, ptr.push("content"))
                    }
                    Some((media_type, media)) => {
                        json = is_json(media_type);
                        let schema = media.schema.as_ref().unwrap_or_else(|| {
                            let read = if json { "any JSON value" } else { "text" };
                            self.warn(
                                &ptr.push("content").push(media_type),
                                format!("the media type has no schema; the value is read as {read}"),
                            );
                            if json { &any } else { &text }
                        });
                        (schema, ptr.push("content").push(media_type).push("schema"))
                    }
                },
            };
            let naming = Naming::Derived(format!("{}{}", ctx.type_name, camel(&data.name)));
            let Some(ty) = self.lower_schema(schema, &schema_ptr, naming) else { continue };
            // A list behind a reference (`$ref: '#/components/schemas/Ids'`) is written and read
            // exactly as the same list written inline.
            let ty = match self.unaliased(&ty) {
                TypeRef::Vec(_) => self.unaliased(&ty).clone(),
                _ => ty,
            };
            // A parameter cannot carry `null`, so items that may be `null` are plain items here.
            let ty = match ty {
                TypeRef::Vec(item) => TypeRef::Vec(Box::new(non_null(*item))),
                other => other,
            };
            let ty = match location {
                Location::Query | Location::Header => self.one_or_many(ty),
                Location::Path | Location::Cookie => ty,
            };
            // A delimiter joins the items of a list; one value has none to join, and is `form`.
            if delimiter != ',' && !matches!(self.unaliased(&ty), TypeRef::Vec(_)) {
                let style = if delimiter == '|' { "pipeDelimited" } else { "spaceDelimited" };
                self.warn(&ptr.push("style"), format!("style `{style}` applies only to lists; read as `form`"));
                delimiter = ',';
            }
            // An object in the query: its properties as `name[property]` pairs (deepObject) or as
            // parameters of their own (form, exploded). A map's entries are `name[key]` pairs.
            let mut wire = data.name.clone();
            let mut explode = explode;
            let map = matches!(self.unaliased(&ty), TypeRef::Map(_));
            let object_style = match (location, deep, explode, self.is_struct(&ty) || map) {
                (Location::Query, true, _, true) => Some(ObjectStyle::Deep),
                (Location::Query, false, true, true) if !map => Some(ObjectStyle::Exploded),
                (Location::Query, false, true, true) => {
                    self.warn(
                        &ptr,
                        format!(
                            "map `{}` is exploded into the query (`style: form`): each entry is a parameter of its own, and the server reads every query parameter the operation does not declare as an entry",
                            data.name
                        ),
                    );
                    Some(ObjectStyle::Exploded)
                }
                // Properties of one value each, as a path segment or a header can carry them.
                (Location::Path | Location::Header, _, _, true) if !map && self.simple_fields(&ty) => {
                    Some(ObjectStyle::Simple)
                }
                // OpenAPI leaves a `deepObject` list undefined; `name[]=a&name[]=b` is the form
                // the servers that take one read (Stripe's `expand[]`, Rails, PHP).
                (Location::Query, true, _, false) if matches!(self.unaliased(&ty), TypeRef::Vec(_)) => {
                    wire = format!("{}[]", data.name);
                    explode = true;
                    self.warn(
                        &ptr.push("style"),
                        format!("`deepObject` list `{}` is sent as `{wire}=a&{wire}=b`", data.name),
                    );
                    None
                }
                // One value has no properties to spell as `name[property]`: it is `name=value`.
                (Location::Query, true, _, false) => {
                    let message =
                        format!("`deepObject` applies to objects, and `{}` is none; read as `form`", data.name);
                    self.warn(&ptr.push("style"), message);
                    None
                }
                _ => None,
            };
            // OpenAPI's styles spell an object's properties as text; one that is itself an
            // object (or a list of them) has no form there, and is written as its JSON text.
            if matches!(object_style, Some(ObjectStyle::Exploded | ObjectStyle::Deep))
                && let Some(fields) = self.struct_named(self.unaliased(&ty))
            {
                let nested: Vec<String> = fields
                    .fields
                    .iter()
                    .filter(|f| !self.is_simple(&f.ty, true))
                    .map(|f| format!("`{}`", f.wire))
                    .collect();
                if !nested.is_empty() {
                    self.warn(
                        &schema_ptr,
                        format!(
                            "in query object `{}`, {} {} no form in OpenAPI's styles (an object or list of objects inside an object); each is written as its JSON text",
                            data.name,
                            nested.join(", "),
                            if nested.len() == 1 { "has" } else { "have" }
                        ),
                    );
                }
            }
            // A prefix spells one value or a list; objects in those styles are not written yet.
            if !path_prefix.is_empty() && (json || object_style.is_some() || !self.is_simple(&ty, true)) {
                let style = if path_prefix == "." { "label" } else { "matrix" };
                self.report(
                    &ptr.push("style"),
                    format!("an object in a path parameter of style `{style}` is not supported yet"),
                );
                continue;
            }
            let lists = matches!(location, Location::Query | Location::Header | Location::Path);
            if object_style.is_none() && !json && !self.is_simple(&ty, lists) {
                // A value with no plain-text form (a list of objects, a union of shapes) still
                // has a JSON one (percent-encoded in a cookie, as every cookie value is).
                let each = if location == Location::Query && matches!(self.unaliased(&ty), TypeRef::Vec(_)) {
                    ", each item a `name=<JSON>` pair"
                } else {
                    ""
                };
                self.warn(
                    &schema_ptr,
                    format!("parameter `{}` has no plain-text form; it is written as its JSON text{each}", data.name),
                );
                json = true;
            }
            let resolved = self.resolve_schema(schema).cloned();
            let default = match resolved.as_ref().and_then(|s| s.schema_data.default.clone()) {
                Some(value) => match self.default_value(&ty, &value) {
                    Some(d) => Some(d),
                    None => {
                        self.warn(
                            &schema_ptr.push("default"),
                            format!("default {value} does not fit the parameter's type and is ignored"),
                        );
                        None
                    }
                },
                None => None,
            };
            let constraints = match schema {
                ReferenceOr::Item(schema) => self.constraints(schema, &schema_ptr),
                ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
            };
            // A parameter cannot spell `null` but by its absence: one that is required and may be
            // `null` is one that may be left out.
            let mut required = data.required || location == Location::Path;
            if required && location != Location::Path && resolved.as_ref().is_some_and(|s| s.schema_data.nullable) {
                self.warn(
                    &ptr.push("required"),
                    format!(
                        "`{}` is required and may be `null`, which a parameter says by being left out: it is optional",
                        data.name
                    ),
                );
                required = false;
            }
            params.push(Param {
                wire,
                name: scope.claim(&snake(&data.name)),
                location,
                ty,
                required,
                default,
                explode,
                delimiter,
                constraints,
                object_style: object_style.filter(|_| !json),
                json,
                path_prefix,
                empty_is_absent,
                doc: super::described(&data.description, data.example.as_ref(), true),
            });
        }
        self.check_path_template(ctx, &mut params, &declared, &mut scope);
        common_used.sort();
        (params, common_used)
    }

    fn check_path_template(
        &mut self,
        ctx: &OpContext,
        params: &mut Vec<Param>,
        declared: &[String],
        scope: &mut Scope,
    ) {
        let mut names = Vec::new();
        let mut rest = ctx.path;
        while let Some(start) = rest.find('{') {
            let Some(len) = rest[start..].find('}') else {
                self.report(ctx.ptr, "the path template has an unclosed `{`");
                return;
            };
            names.push(&rest[start + 1..start + len]);
            rest = &rest[start + len + 1..];
        }
        let is_path = |p: &Param| p.location == Location::Path;
        for name in &names {
            // A parameter spelled with other letter case than the template is unambiguous.
            if !params.iter().any(|p| is_path(p) && p.wire == *name)
                && let Some(p) = params
                    .iter_mut()
                    .find(|p| is_path(p) && p.wire.eq_ignore_ascii_case(name) && !names.contains(&p.wire.as_str()))
            {
                self.warn(
                    ctx.ptr,
                    format!("path parameter `{}` is spelled `{{{name}}}` in the path template, which is used", p.wire),
                );
                p.wire = name.to_string();
            }
            // A segment nobody declared (a slip large documents make) can only be text.
            if !params.iter().any(|p| is_path(p) && p.wire == *name)
                && !declared.iter().any(|d| d.eq_ignore_ascii_case(name))
            {
                self.warn(
                    ctx.ptr,
                    format!(
                        "the path template names `{{{name}}}` but no path parameter is called `{name}`; it is read as a required string"
                    ),
                );
                params.push(Param {
                    wire: name.to_string(),
                    name: scope.claim(&snake(name)),
                    location: Location::Path,
                    ty: TypeRef::String,
                    required: true,
                    default: None,
                    explode: false,
                    delimiter: ',',
                    constraints: Constraints::default(),
                    object_style: None,
                    json: false,
                    path_prefix: String::new(),
                    empty_is_absent: false,
                    doc: None,
                });
            }
        }
        // A path parameter the template has no place for cannot be sent: it is no part of the
        // operation (a slip of documents that share parameters between paths).
        let (unplaced, kept): (Vec<Param>, Vec<Param>) =
            std::mem::take(params).into_iter().partition(|p| is_path(p) && !names.contains(&p.wire.as_str()));
        *params = kept;
        for p in unplaced {
            self.warn(
                ctx.ptr,
                format!(
                    "path parameter `{}` does not appear in the path template {}; it is left out of the operation",
                    p.wire, ctx.path
                ),
            );
        }
    }

    /// Whether a type can be written as text in a parameter: scalars, enums, and (in a query) arrays
    /// of them.
    pub(crate) fn is_simple(&self, ty: &TypeRef, allow_array: bool) -> bool {
        match ty {
            TypeRef::String
            | TypeRef::Bool
            | TypeRef::I32
            | TypeRef::I64
            | TypeRef::F32
            | TypeRef::F64
            | TypeRef::Uuid
            | TypeRef::DateTime => true,
            TypeRef::Vec(item) => allow_array && self.is_simple(item, false),
            TypeRef::Named(id) => match self.def(*id) {
                Some(TypeDef::IntEnum(_) | TypeDef::StringEnum(_)) => true,
                // A union without a discriminator whose members are all single values.
                Some(TypeDef::Union(u)) => {
                    !matches!(u.dispatch, Dispatch::Tag { .. })
                        && u.variants.iter().all(|v| self.is_simple(&v.ty, false))
                }
                Some(TypeDef::Alias { target, .. }) => self.is_simple(&target.clone(), allow_array),
                _ => false,
            },
            TypeRef::Json
            | TypeRef::Map(_)
            | TypeRef::Bytes
            | TypeRef::File
            | TypeRef::Nullable(_)
            | TypeRef::BodyChoice(_) => false,
        }
    }

    pub(crate) fn default_value(&self, ty: &TypeRef, value: &Value) -> Option<DefaultValue> {
        match (ty, value) {
            (TypeRef::Bool, Value::Bool(b)) => Some(DefaultValue::Bool(*b)),
            (TypeRef::I32, Value::Number(n)) => n.as_i64().filter(|v| i32::try_from(*v).is_ok()).map(DefaultValue::Int),
            (TypeRef::I64, Value::Number(n)) => n.as_i64().map(DefaultValue::Int),
            (TypeRef::F32 | TypeRef::F64, Value::Number(n)) => n.as_f64().map(DefaultValue::Float),
            (TypeRef::String, Value::String(s)) => Some(DefaultValue::String(s.clone())),
            (TypeRef::Vec(item), Value::Array(items)) => {
                items.iter().map(|v| self.default_value(item, v)).collect::<Option<_>>().map(DefaultValue::List)
            }
            (TypeRef::Map(item), Value::Object(map)) => map
                .iter()
                .map(|(k, v)| Some((k.clone(), self.default_value(item, v)?)))
                .collect::<Option<_>>()
                .map(DefaultValue::Map),
            (TypeRef::Json, value) => Some(DefaultValue::Json(value.clone())),
            (TypeRef::Named(id), _) => match self.def(*id)? {
                TypeDef::IntEnum(e) => {
                    let v = value.as_i64()?;
                    let (variant, _) = e.variants.iter().find(|(_, wire)| *wire == v)?;
                    Some(DefaultValue::Variant { ty: *id, variant: variant.clone() })
                }
                TypeDef::StringEnum(e) => {
                    let v = value.as_str()?;
                    let (variant, _) = e.variants.iter().find(|(_, wire)| wire == v)?;
                    Some(DefaultValue::Variant { ty: *id, variant: variant.clone() })
                }
                TypeDef::Alias { target, .. } => self.default_value(&target.clone(), value),
                TypeDef::Struct(_) | TypeDef::Union(_) => None,
            },
            _ => None,
        }
    }

    fn body(&mut self, ctx: &OpContext, body: &ReferenceOr<openapiv3::RequestBody>) -> Option<Body> {
        let ptr = ctx.ptr.push("requestBody");
        let found = super::resolve(body, "requestBodies", self.doc.components.as_ref().map(|c| &c.request_bodies));
        // A body the document names but does not describe is still a body: its bytes, of any
        // media type, as the caller writes them. Another file's is an error until such files are
        // read.
        let unknown;
        let body = match (found, body) {
            (Some(found), _) if !found.content.is_empty() => found,
            (None, ReferenceOr::Reference { reference }) if self.foreign(&ptr, reference) => return None,
            (found, _) => {
                let why = match body {
                    ReferenceOr::Reference { reference } if found.is_none() => {
                        format!("the reference {reference} does not name a request body in #/components/requestBodies")
                    }
                    _ => "the request body lists no media type".to_string(),
                };
                self.warn(
                    &ptr,
                    format!("{why}; the body is read as bytes of any media type, as the caller writes them"),
                );
                let any = openapiv3::Content::from_iter([("*/*".to_string(), openapiv3::MediaType::default())]);
                let required = found.is_some_and(|b| b.required);
                unknown = openapiv3::RequestBody { content: any, required, ..found.cloned().unwrap_or_default() };
                &unknown
            }
        };
        // Media types whose schemas differ make a choice: the body is an enum with a case per
        // media type, each read and written as its own media type says.
        let distinct = body.content.values().map(|m| &m.schema).fold(Vec::new(), |mut seen, s| {
            if !seen.contains(&s) {
                seen.push(s);
            }
            seen
        });
        // (A form and a multipart body of one schema are two cases too, unless JSON reads both.)
        let keys = || body.content.keys();
        // JSON of a schema also given as multipart with files is a case of its own too: JSON
        // cannot carry the files, so it cannot be read as the multipart case's type.
        let json_beside_files = keys().any(|json| {
            is_json(json)
                && keys().any(|ct| {
                    is_multipart(ct)
                        && body.content[ct].schema == body.content[json].schema
                        && has_file_property(self, body.content[ct].schema.as_ref())
                })
        });
        let several = distinct.len() > 1
            || json_beside_files
            || (!keys().any(|ct| is_json(ct)) && keys().any(|ct| is_form(ct)) && keys().any(|ct| is_multipart(ct)));
        let mut left: Vec<&String> = body.content.keys().collect();
        let first = self.media_body(ctx, &ptr, body, &left, several)?;
        let mut cases = vec![first];
        let mut unread: Vec<&str> = Vec::new();
        loop {
            left.retain(|ct| !cases.iter().any(|c| c.accepted.contains(ct) || c.also_form.contains(ct)));
            // A media type of a schema already read that the generator has no reader for (XML
            // beside JSON) is named in a warning; a form or multipart one (multipart beside a
            // form body of its schema) is a case of its own.
            let described: Vec<_> = cases.iter().map(|c| &body.content[&c.described].schema).collect();
            let (same, other): (Vec<&String>, Vec<&String>) = left.iter().partition(|ct| {
                let own_case = is_form(ct) || is_multipart(ct) || (is_json(ct) && json_beside_files);
                described.contains(&&body.content[ct.as_str()].schema) && !own_case
            });
            unread.extend(same.iter().map(|ct| ct.as_str()));
            left = other;
            if left.is_empty() {
                break;
            }
            // A further case that cannot be lowered leaves out that media type only.
            let mark = self.unit_start();
            let case = self.media_body(ctx, &ptr, body, &left, several);
            match case {
                Some(case) if self.diagnostics.len() == mark.diagnostics => cases.push(case),
                _ => {
                    let problems = self.set_aside(mark);
                    let ct = left.remove(0);
                    for p in problems {
                        let message = format!(
                            "the body may also be sent as {ct}, which the generated code does not read: {}",
                            p.message
                        );
                        self.warn_at(p.pointer, message);
                    }
                    if let Some(case) = case {
                        left.retain(|l| !case.accepted.contains(l));
                    }
                }
            }
        }
        // XML beside a JSON body of the same schema is read by the server as the schema's `xml`
        // objects say (the client sends JSON).
        let mut xml = None;
        if let [case] = cases.as_slice()
            && case.body.encoding == BodyEncoding::Json
        {
            let (types, rest): (Vec<&str>, Vec<&str>) = unread.iter().partition(|ct| is_xml(ct));
            if let Some(first) = types.first() {
                let media = &body.content[*first];
                let at = ptr.push("content").push(first).push("schema");
                let schema =
                    self.register_xml(media.schema.as_ref().map(super::checks::as_json).unwrap_or_default(), &at);
                xml = Some(XmlRead { media_types: types.iter().map(|ct| ct.to_string()).collect(), schema });
                unread = rest;
            }
        }
        // A body also listed under types with no form of their own for its schema (`text/plain`
        // or `application/octet-stream` beside JSON, as Docker's API lists them) is read by the
        // server in the form its schema has: a structured value as JSON, a string as text, a
        // file as bytes.
        let mut joined: Vec<(&str, &str, String)> = Vec::new();
        unread.retain(|ct| {
            let schema = &body.content[*ct].schema;
            let plain = (ct.starts_with("text/") || holds_no_structure(ct)) && !is_xml(ct) && !is_yaml(ct);
            let structured = schema.as_ref().is_some_and(|s| self.is_structured(s, 0));
            let case = cases.iter_mut().find(|c| {
                body.content[&c.described].schema == *schema
                    && match c.body.encoding {
                        BodyEncoding::Json => structured,
                        BodyEncoding::Text | BodyEncoding::Binary => true,
                        BodyEncoding::Form | BodyEncoding::Multipart => false,
                    }
            });
            match case {
                Some(case) if plain => {
                    case.body.accepted.push(ct.to_string());
                    let form = match case.body.encoding {
                        BodyEncoding::Json => "JSON",
                        BodyEncoding::Text => "text",
                        _ => "bytes",
                    };
                    joined.push((ct, form, case.body.content_type.clone()));
                    false
                }
                _ => true,
            }
        });
        for (ct, form, sent) in joined {
            let message = format!(
                "the body may also be sent as {ct}, which gives its schema no form of its own: the server reads it as {form}, as the client sends it ({sent})"
            );
            self.warn(&ptr.push("content").push(ct), message);
        }
        if !unread.is_empty() {
            let read: Vec<&str> =
                cases.iter().flat_map(|c| c.accepted.iter().chain(&c.also_form)).map(|s| s.as_str()).collect();
            self.warn(
                &ptr.push("content"),
                format!(
                    "the body may also be sent as {}; the generated code sends and accepts only {}",
                    unread.join(", "),
                    read.join(", ")
                ),
            );
        }
        let required = body.required;
        let doc = super::prose(&body.description);
        let mut cases: Vec<Body> =
            cases.into_iter().map(|c| Body { required, doc: doc.clone(), xml: xml.clone(), ..c.body }).collect();
        if cases.len() == 1 {
            return cases.pop();
        }
        let name = self.claim(Naming::Derived(format!("{}Body", ctx.type_name)));
        let mut scope = Scope::default();
        let cases: Vec<BodyCase> = cases
            .into_iter()
            .map(|body| BodyCase { name: scope.claim(&case_word(body.encoding, &body.content_type)), body })
            .collect();
        let first = cases[0].body.clone();
        let operation = format!("{} {}", ctx.method.as_str(), ctx.path);
        Some(Body {
            ty: TypeRef::BodyChoice(name.clone()),
            accepted: cases.iter().flat_map(|c| c.body.accepted.iter().chain(&c.body.also_form)).cloned().collect(),
            choice: Some(BodiesDef { name, operation, cases }),
            ..first
        })
    }

    /// The body of one media type among `keys` (JSON first, then forms, multipart, text and
    /// bytes) with the others of the same schema it also accepts.
    fn media_body(
        &mut self,
        ctx: &OpContext,
        ptr: &Pointer,
        body: &openapiv3::RequestBody,
        keys: &[&String],
        several: bool,
    ) -> Option<MediaBody> {
        let mut accepted: Vec<String> = keys.iter().filter(|ct| is_json(ct)).map(|ct| ct.to_string()).collect();
        let mut encoding = BodyEncoding::Json;
        let others: Vec<&String> = keys.iter().copied().filter(|ct| !is_json(ct)).collect();
        if accepted.is_empty() && others.iter().any(|ct| is_form(ct)) {
            // A form body stands in for the others only when there is no JSON to prefer.
            encoding = BodyEncoding::Form;
            accepted = others.iter().filter(|ct| is_form(ct)).map(|ct| ct.to_string()).collect();
        }
        let binary = |ct: &str| {
            let schema = body.content[ct].schema.as_ref();
            !ct.starts_with("multipart/") && !is_form(ct) && (schema.is_none() || is_binary(self, schema))
        };
        let text = |ct: &str| {
            let schema = body.content[ct].schema.as_ref().and_then(|s| self.resolve_schema(s));
            // A schema that says nothing (`{}`, or only a title) is any text too.
            ct.starts_with("text/")
                && schema.is_none_or(|s| match &s.schema_kind {
                    SchemaKind::Type(Type::String(t)) => t.enumeration.is_empty(),
                    SchemaKind::Any(any) => *any == openapiv3::AnySchema::default(),
                    _ => false,
                })
        };
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| is_multipart(ct))
        {
            encoding = BodyEncoding::Multipart;
            accepted = vec![ct.to_string()];
        }
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| text(ct))
        {
            // Text as it is: a `text/*` type whose schema, if any, is a plain string.
            encoding = BodyEncoding::Text;
            accepted = vec![ct.to_string()];
        }
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| binary(ct))
        {
            // Raw bytes when that is all the body can be: no schema, or a binary string.
            encoding = BodyEncoding::Binary;
            accepted = vec![ct.to_string()];
        }
        // A wildcard (`*/*`, `application/*`) with a schema that is more than bytes: JSON is one
        // of the types it allows, and the one the schema can be written in.
        let mut wildcard_json = false;
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| ct.contains('*'))
        {
            self.warn(
                &ptr.push("content").push(ct.as_str()),
                format!(
                    "a body of type {ct} is sent as application/json and read as JSON; any content type is accepted"
                ),
            );
            accepted = vec![ct.to_string()];
            wildcard_json = true;
        }
        // Any other media type (`application/xml`, `image/png` with a schema): its bytes as they
        // are, for the caller to write and read; the schema is not checked.
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| !is_multipart(ct) && !is_form(ct))
        {
            self.warn(
                &ptr.push("content").push(ct.as_str()),
                format!("a body of type {ct} is sent and read as bytes, as the caller writes them; its schema is not checked"),
            );
            encoding = BodyEncoding::Binary;
            accepted = vec![ct.to_string()];
        }
        // A body offered as JSON and as multipart of the same schema, which has file parts, goes
        // as multipart: JSON cannot carry the files.
        if encoding == BodyEncoding::Json
            && let Some(ct) = others.iter().find(|ct| is_multipart(ct))
            && accepted.iter().any(|json| body.content[json].schema == body.content[ct.as_str()].schema)
            && has_file_property(self, body.content[ct.as_str()].schema.as_ref())
        {
            encoding = BodyEncoding::Multipart;
            accepted = vec![ct.to_string()];
        }
        // A form (urlencoded or multipart, without files) beside JSON, of the same schema: the
        // server reads any of them, the client sends JSON.
        let mut also_form: Vec<String> = Vec::new();
        if encoding == BodyEncoding::Json
            && let Some(json) = accepted.first()
        {
            let same = |ct: &&&String| body.content[ct.as_str()].schema == body.content[json].schema;
            also_form = others
                .iter()
                .filter(|ct| is_form(ct) || is_multipart(ct))
                .filter(same)
                .map(|ct| ct.to_string())
                .collect();
        }
        if accepted.is_empty() {
            let list = keys.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
            self.report(
                &ptr.push("content"),
                format!(
                    "request bodies of type {list} are not supported yet; only JSON, form, text and binary bodies are"
                ),
            );
            return None;
        }
        // Only JSON wildcards (`application/*+json`): `application/json` is one they allow.
        wildcard_json |= encoding == BodyEncoding::Json && preferred_json(&accepted).is_none();
        let preferred = match encoding {
            BodyEncoding::Json if wildcard_json => Some("application/json".to_string()),
            BodyEncoding::Json => preferred_json(&accepted),
            // A range is no content type: the client sends one it allows.
            BodyEncoding::Binary | BodyEncoding::Text => accepted.first().map(|ct| crate::ir::media_type_within(ct)),
            BodyEncoding::Form | BodyEncoding::Multipart => accepted.first().cloned(),
        };
        let Some(content_type) = preferred else {
            self.report(&ptr.push("content"), "the request body lists no content type");
            return None;
        };
        // The media type whose schema the body is: the one sent, or the wildcard it stands for.
        let described = match body.content.contains_key(&content_type) && !wildcard_json {
            true => content_type.clone(),
            false => accepted[0].clone(),
        };
        let media = &body.content[&described];
        // Accepted types of another schema are a case of their own.
        accepted.retain(|ct| body.content[ct].schema == media.schema);
        let media_ptr = ptr.push("content").push(&described);
        // A form or multipart schema that plainly is no object is not lowered as one would be
        // inside JSON: it is bytes (below), and its JSON reading would only mislead.
        let scalar = media.schema.as_ref().and_then(|s| self.resolve_schema(s)).is_some_and(|s| {
            matches!(
                s.schema_kind,
                SchemaKind::Type(
                    Type::String(_) | Type::Integer(_) | Type::Number(_) | Type::Boolean(_) | Type::Array(_)
                )
            )
        });
        let ty = match (&media.schema, encoding) {
            (_, BodyEncoding::Binary) => TypeRef::Bytes,
            (Some(_), BodyEncoding::Form | BodyEncoding::Multipart) if scalar => TypeRef::Bytes,
            (_, BodyEncoding::Text) => TypeRef::String,
            (Some(schema), _) => {
                // Among several cases the type is named after its media type.
                let word = if several { case_word(encoding, &content_type) } else { String::new() };
                let naming = Naming::Derived(format!("{}{word}Body", ctx.type_name));
                self.lower_schema(schema, &media_ptr.push("schema"), naming)?
            }
            (None, _) => TypeRef::Json,
        };
        // Form and multipart bodies are the properties of an object; anything else under those
        // media types can only be the caller's own bytes.
        let (ty, encoding) = if matches!(encoding, BodyEncoding::Form | BodyEncoding::Multipart) && !self.is_object(&ty)
        {
            self.warn(
                &media_ptr.push("schema"),
                format!(
                    "a {content_type} body whose schema is not an object is sent and read as bytes, as the caller writes them"
                ),
            );
            (TypeRef::Bytes, BodyEncoding::Binary)
        } else {
            (ty, encoding)
        };
        // Only an object's properties can be form pairs.
        if !also_form.is_empty() && !self.is_object(&ty) {
            self.warn(
                &ptr.push("content"),
                format!(
                    "the body may also be sent as {}, but its schema is not an object: the generated code sends and \
                     accepts only {}",
                    also_form.join(", "),
                    accepted.join(", ")
                ),
            );
            also_form.clear();
        }
        let ty = if encoding != BodyEncoding::Multipart && self.has_files(&ty) {
            self.warn(&media_ptr.push("schema"), FILES_IN_JSON);
            TypeRef::Json
        } else {
            ty
        };
        // A JSON body whose schema allows `null` may be `null`: an `Option` of its type.
        let nullable =
            media.schema.as_ref().and_then(|s| self.resolve_schema(s)).is_some_and(|s| s.schema_data.nullable);
        let ty = match ty {
            ty if nullable && encoding == BodyEncoding::Json && !self.takes_null(&ty, 0) => {
                TypeRef::Nullable(Box::new(ty))
            }
            ty => ty,
        };
        // A list or a scalar has limits of its own (`maxItems`, its items' `pattern`), which no
        // type carries; an object's are its struct's, and bytes have none to read.
        let mut constraints = match (&media.schema, encoding) {
            (Some(schema), BodyEncoding::Json | BodyEncoding::Text) if !self.is_struct(&ty) => match schema {
                ReferenceOr::Item(item) => self.constraints(item, &media_ptr.push("schema")),
                ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
            },
            _ => Constraints::default(),
        };
        // Text is read as a string whatever its schema says: only a string's limits apply to it.
        if encoding == BodyEncoding::Text {
            let Constraints { min_length, max_length, pattern, format, .. } = constraints;
            constraints = Constraints { min_length, max_length, pattern, format, ..Constraints::default() };
        }
        constraints.nullable = matches!(ty, TypeRef::Nullable(_)) && !constraints.is_empty();
        let body = Body {
            ty,
            required: body.required,
            encoding,
            content_type,
            accepted,
            also_form,
            doc: None,
            choice: None,
            xml: None,
            constraints,
        };
        Some(MediaBody { body, described })
    }

    fn reply(&mut self, ctx: &OpContext, responses: &'a openapiv3::Responses) -> Option<Reply> {
        let ptr = ctx.ptr.push("responses");
        let codes = |range: std::ops::Range<u16>| -> Vec<(u16, &'a ReferenceOr<openapiv3::Response>)> {
            let in_range = |(code, r): (&StatusCode, _)| match code {
                StatusCode::Code(c) if range.contains(c) => Some((*c, r)),
                _ => None,
            };
            let mut found: Vec<_> = responses.responses.iter().filter_map(in_range).collect();
            found.sort_by_key(|(code, _)| *code);
            found
        };
        let mut successes = codes(200..300);
        if successes.is_empty() {
            // Redirect flows (a browser login answering 302) document only 3xx replies: the
            // lowest is the reply, and the client does not follow it.
            successes = codes(300..400).into_iter().take(1).collect();
        }
        if successes.is_empty() {
            // No status given: a `2XX` range, else a `default` that describes every reply.
            let (key, fallback) = match responses.responses.get(&StatusCode::Range(2)) {
                Some(r) => ("2XX", Some(r)),
                None => ("default", responses.default.as_ref()),
            };
            let Some(response) = fallback else {
                // Only error replies documented (a sample petstore's `405 Invalid input`): the
                // success is a plain 200 without a body.
                let switches = codes(100..200);
                let Some((status, response)) = switches.first() else {
                    self.warn(&ptr, "the operation documents no success reply; it is read as a 200 without a body");
                    return Some(Reply::Empty { status: 200, headers: None, doc: None });
                };
                // A protocol switch hands the connection over; the other informational
                // statuses are no reply at all.
                if *status != 101 {
                    let message = format!(
                        "a {status} reply is informational, not an answer, and there is no other; read as a 200 without a body"
                    );
                    self.warn(&ptr.push(status), message);
                    return Some(Reply::Empty { status: 200, headers: None, doc: None });
                }
                let doc = match response {
                    ReferenceOr::Item(r) => super::prose(&Some(r.description.clone())),
                    ReferenceOr::Reference { .. } => None,
                };
                return Some(Reply::Upgrade { doc });
            };
            // A `default` alone describes every reply, so the success is the plain 200; a `2XX`
            // admits statuses the client will refuse, so it is worth a warning.
            if key == "2XX" {
                self.warn(&ptr.push(key), "the `2XX` reply is read as the 200 reply; other 2xx statuses are refused");
            }
            let naming = Naming::Derived(format!("{}Reply", ctx.type_name));
            return self.one_reply(ctx, &ptr.push(key), 200, response, naming);
        }
        if responses.responses.contains_key(&StatusCode::Range(2)) {
            self.warn(&ptr.push("2XX"), "the `2XX` reply is ignored beside the listed success statuses");
        }
        match successes.as_slice() {
            [(status, response)] => {
                let naming = Naming::Derived(format!("{}Reply", ctx.type_name));
                self.one_reply(ctx, &ptr.push(status), *status, response, naming)
            }
            several => self.several_replies(ctx, &ptr, several),
        }
    }

    /// Several success statuses of which some are downloads (a 200 and a `206 Partial Content`,
    /// say): one download, whose status the server picks. `None` when none is a download.
    fn downloads(
        &mut self,
        ctx: &OpContext,
        ptr: &Pointer,
        successes: &[(u16, &'a ReferenceOr<openapiv3::Response>)],
    ) -> Option<Option<Reply>> {
        let contents: Vec<Option<&openapiv3::Content>> =
            successes.iter().map(|(_, response)| self.response_read(response).map(|r| &r.content)).collect();
        // As `one_reply` decides: a binary medium, or none that is JSON.
        let download = |content: &openapiv3::Content| {
            !content.is_empty() && (binary_medium(self, content).is_some() || !content.keys().any(|ct| is_json(ct)))
        };
        // Replies without a body beside downloads (a report sent now, or `204` when it is queued
        // instead) are downloads with no bytes; a JSON reply beside them is a download of its
        // JSON's bytes, since one reply cannot be both a typed value and a stream of bytes.
        if contents.iter().any(Option::is_none) || !contents.iter().any(|c| c.is_some_and(download)) {
            return None;
        }
        let typed: Vec<bool> = contents.iter().map(|c| c.is_some_and(|c| !c.is_empty() && !download(c))).collect();
        let mut replies = Vec::new();
        for ((&(status, response), content), &typed) in successes.iter().zip(&contents).zip(&typed) {
            let at = ptr.push(status);
            if let Some(content) = content.filter(|_| typed) {
                let content_type = content.keys().find(|ct| is_json(ct)).cloned().unwrap_or_default();
                let reply_doc = self.response_read(response).and_then(|r| super::prose(&Some(r.description.clone())));
                self.warn(
                    &at.push("content"),
                    format!("this {content_type} reply beside a file download is read as a download too: its bytes, not a typed value"),
                );
                replies.push(Reply::Download { status, also: Vec::new(), content_type, doc: reply_doc });
                continue;
            }
            let naming = Naming::Derived(format!("{}Reply{status}", ctx.type_name));
            match self.one_reply(ctx, &at, status, response, naming) {
                Some(reply) => replies.push(reply),
                None => return Some(None),
            }
        }
        // One reply cannot be both items and bytes: beside other replies, a stream is its bytes.
        if replies.len() > 1 {
            for reply in &mut replies {
                if let Reply::Stream { status, content_type, doc, .. } = reply {
                    let message =
                        "a stream of items beside other success replies is read as a download: its bytes, not items";
                    self.warn(&ptr.push(*status).push("content").push(content_type.as_str()), message);
                    let (status, content_type, doc) = (*status, std::mem::take(content_type), doc.take());
                    *reply = Reply::Download { status, also: Vec::new(), content_type, doc };
                }
            }
        }
        // A file's own status leads (the mock answers with it), rather than JSON read as bytes.
        let is_file = |(r, typed): (&Reply, &bool)| matches!(r, Reply::Download { .. }) && !typed;
        let primary = replies.iter().zip(&typed).position(is_file).unwrap_or(0);
        let mut first = replies.remove(primary);
        if let Reply::Download { also, content_type, doc, .. } = &mut first {
            for reply in replies {
                if let Reply::Empty { status, headers, doc: other_doc } = reply {
                    if headers.is_some() {
                        let at = ptr.push(status).push("headers");
                        self.warn(&at, "the headers of a reply read as a download without bytes are not read");
                    }
                    also.push(status);
                    if let (Some(doc), Some(other_doc)) = (doc.as_mut(), other_doc) {
                        doc.push_str(&format!("\n\n{status}: {other_doc}"));
                    }
                    continue;
                }
                if let Reply::Download { status, content_type: other, doc: other_doc, .. } = reply {
                    also.push(status);
                    if other != *content_type {
                        content_type.push_str(", ");
                        content_type.push_str(&other);
                    }
                    if let (Some(doc), Some(other_doc)) = (doc.as_mut(), other_doc) {
                        doc.push_str(&format!("\n\n{status}: {other_doc}"));
                    }
                }
            }
        }
        Some(Some(first))
    }

    /// Several success statuses: an enum in the types module with a variant per status.
    fn several_replies(
        &mut self,
        ctx: &OpContext,
        ptr: &Pointer,
        successes: &[(u16, &'a ReferenceOr<openapiv3::Response>)],
    ) -> Option<Reply> {
        if let Some(download) = self.downloads(ctx, ptr, successes) {
            return download;
        }
        let name = self.claim(Naming::Derived(format!("{}Reply", ctx.type_name)));
        let mut cases = Vec::new();
        let mut scope = Scope::default();
        for &(status, response) in successes {
            let naming = Naming::Derived(format!("{name}{status}"));
            let case = match self.one_reply(ctx, &ptr.push(status), status, response, naming)? {
                Reply::Empty { doc, headers, .. } => {
                    ReplyCase { status, name: String::new(), body: None, headers, doc }
                }
                Reply::Json { ty, doc, headers, .. } => {
                    ReplyCase { status, name: String::new(), body: Some(ty), headers, doc }
                }
                Reply::Download { .. } | Reply::Several(_) | Reply::Upgrade { .. } => {
                    self.report(
                        &ptr.push(status),
                        "a file download beside success replies that are not downloads is not supported yet",
                    );
                    return None;
                }
                Reply::Stream { .. } => {
                    self.report(
                        &ptr.push(status),
                        "a stream of items beside other success replies is not supported yet",
                    );
                    return None;
                }
            };
            cases.push(ReplyCase { name: scope.claim(&status_name(status)), ..case });
        }
        let operation = format!("{} {}", ctx.method.as_str(), ctx.path);
        Some(Reply::Several(RepliesDef { name, operation, cases }))
    }

    /// The reply of one success status, documented at `rptr`.
    fn one_reply(
        &mut self,
        ctx: &OpContext,
        rptr: &Pointer,
        status: u16,
        response: &'a ReferenceOr<openapiv3::Response>,
        naming: Naming,
    ) -> Option<Reply> {
        let response = self.resolve_response(rptr, response)?;
        let doc = Some(response.description.clone()).filter(|d| !d.trim().is_empty());
        let (Naming::Derived(base) | Naming::Claimed(base)) = &naming;
        let headers_name = format!("{base}Headers");
        // HTTP gives these statuses no content, whatever the document says.
        if matches!(status, 204 | 205 | 304) && !response.content.is_empty() {
            self.warn(
                &rptr.push("content"),
                format!("a {status} reply has no content in HTTP; the content documented for it is left out"),
            );
            let headers = self.reply_headers(ctx, rptr, status, response, headers_name);
            return Some(Reply::Empty { status, headers, doc });
        }
        if response.content.is_empty() {
            let headers = self.reply_headers(ctx, rptr, status, response, headers_name);
            return Some(Reply::Empty { status, headers, doc });
        }
        if let Some((content_type, media)) =
            response.content.iter().find(|(_, m)| m.extensions.contains_key(ITEM_SCHEMA))
        {
            let at = rptr.push("content").push(content_type).push("itemSchema");
            let framing = match essence(content_type).as_str() {
                "application/jsonl" | "application/x-ndjson" | "application/json-seq" | "application/x-jsonlines" => {
                    Framing::JsonLines
                }
                "text/event-stream" => Framing::EventStream,
                // No framing the generator knows: the stream's bytes, for the caller to split.
                _ => {
                    let message = format!(
                        "items of {content_type} have no framing the generator knows (JSON Lines and server-sent events do); read as a download: its bytes"
                    );
                    self.warn(&at, message);
                    let content_type = content_type.clone();
                    return Some(Reply::Download { status, also: Vec::new(), content_type, doc });
                }
            };
            let item = match &media.schema {
                Some(schema) => {
                    let suffix = if framing == Framing::EventStream { "Event" } else { "Item" };
                    self.lower_schema(schema, &at, naming.derive(suffix))?
                }
                None => TypeRef::Json,
            };
            let content_type = content_type.clone();
            return Some(Reply::Stream { status, item, framing, content_type, doc });
        }
        if let Some(ct) = binary_medium(self, &response.content) {
            // A download carries its length, type and file name itself; any other header is lost.
            let handled = ["content-disposition", "content-length", "content-type"];
            for header in response.headers.keys().filter(|h| !handled.contains(&h.to_ascii_lowercase().as_str())) {
                self.warn(
                    &rptr.push("headers").push(header),
                    format!("header `{header}` of a file download is not read or written by the generated code"),
                );
            }
            return Some(Reply::Download { status, also: Vec::new(), content_type: ct.clone(), doc });
        }
        let json: Vec<String> = response.content.keys().filter(|ct| is_json(ct)).cloned().collect();
        let Some(content_type) = preferred_json(&json) else {
            // Text, images, `*/*`: whatever is not JSON is read as bytes, the way downloads are.
            let list = response.content.keys().cloned().collect::<Vec<_>>();
            let content_type = list.join(", ");
            self.warn(
                &rptr.push("content"),
                format!("a reply of type {content_type} is read as a download: its bytes, streamed"),
            );
            return Some(Reply::Download { status, also: Vec::new(), content_type, doc });
        };
        let media = &response.content[&content_type];
        let ty = match &media.schema {
            Some(s) => self.lower_schema(s, &rptr.push("content").push(&content_type).push("schema"), naming)?,
            None => TypeRef::Json,
        };
        // Other media types (a .NET service also offers `text/plain`) must carry the same schema;
        // the client asks for JSON.
        for (ct, m) in &response.content {
            if *ct == content_type {
                continue;
            }
            if m.schema != media.schema {
                self.warn(
                    &rptr.push("content").push(ct),
                    format!(
                        "this schema differs from the one under {content_type}, which is the one read: the client asks for {content_type}"
                    ),
                );
            }
        }
        let ty = if self.has_files(&ty) {
            self.warn(&rptr.push("content").push(&content_type).push("schema"), FILES_IN_JSON);
            TypeRef::Json
        } else {
            ty
        };
        let headers = self.reply_headers(ctx, rptr, status, response, headers_name);
        Some(Reply::Json { status, ty, headers, doc })
    }

    /// A response, following a `$ref` into `#/components/responses`.
    fn resolve_response(
        &mut self,
        rptr: &Pointer,
        response: &'a ReferenceOr<openapiv3::Response>,
    ) -> Option<&'a openapiv3::Response> {
        match (super::resolve(response, "responses", self.doc.components.as_ref().map(|c| &c.responses)), response) {
            (Some(found), _) => Some(found),
            (None, ReferenceOr::Reference { reference }) if self.foreign(rptr, reference) => None,
            // A reply the document names but does not describe is still a reply: its bytes.
            (None, ReferenceOr::Reference { reference }) => {
                let message = format!(
                    "the reference {reference} does not name a response in #/components/responses; the reply is read as bytes of any media type"
                );
                self.warn(rptr, message);
                Some(&UNDESCRIBED_REPLY)
            }
            (None, ReferenceOr::Item(_)) => None,
        }
    }

    /// Says that a reference names nothing: a warning that `then` happens, unless it is to
    /// another file.
    fn unresolved<T>(&mut self, ptr: &Pointer, item: &ReferenceOr<T>, what: &str, then: &str) {
        if let ReferenceOr::Reference { reference } = item
            && !self.foreign(ptr, reference)
        {
            self.warn(ptr, format!("the reference {reference} does not name {what}; {then}"));
        }
    }

    /// The response `response` is, as [`Self::resolve_response`] reads it, without a word.
    fn response_read(&self, response: &'a ReferenceOr<openapiv3::Response>) -> Option<&'a openapiv3::Response> {
        let found = super::resolve(response, "responses", self.doc.components.as_ref().map(|c| &c.responses));
        let local = matches!(response, ReferenceOr::Reference { reference } if reference.starts_with('#'));
        found.or_else(|| local.then_some(&*UNDESCRIBED_REPLY))
    }

    /// The documented error replies: exact statuses ascending, then classes (`4XX`), then
    /// `default` unless it is the operation's only way to succeed.
    fn error_responses(
        &mut self,
        ctx: &OpContext,
        responses: &'a openapiv3::Responses,
    ) -> Vec<(ErrorStatus, Pointer, &'a openapiv3::Response)> {
        let ptr = ctx.ptr.push("responses");
        let mut listed: Vec<(ErrorStatus, Pointer, &ReferenceOr<openapiv3::Response>)> = responses
            .responses
            .iter()
            .filter_map(|(code, r)| match code {
                StatusCode::Code(c) if *c >= 400 => Some((ErrorStatus::Exact(*c), ptr.push(c), r)),
                StatusCode::Range(r4) if *r4 >= 4 => Some((ErrorStatus::Class(*r4), ptr.push(format!("{r4}XX")), r)),
                _ => None,
            })
            .collect();
        listed.sort_by_key(|(status, ..)| *status);
        let succeeds_otherwise = responses.responses.keys().any(|code| match code {
            StatusCode::Code(c) => (200..400).contains(c),
            StatusCode::Range(r) => *r == 2,
        });
        if let Some(default) = responses.default.as_ref().filter(|_| succeeds_otherwise) {
            listed.push((ErrorStatus::Default, ptr.push("default"), default));
        }
        listed
            .into_iter()
            .filter_map(|(status, rptr, response)| {
                Some((status, rptr.clone(), self.resolve_response(&rptr, response)?))
            })
            .collect()
    }

    /// The documented error replies whose bodies are JSON other than problem details (which the
    /// generated crates already read and write), as an enum with a variant per status.
    fn error_replies(
        &mut self,
        ctx: &OpContext,
        listed: &[(ErrorStatus, Pointer, &'a openapiv3::Response)],
    ) -> Option<ErrorsDef> {
        let wanted = format!("{}Error", ctx.type_name);
        let mut scope = Scope::default();
        let mut cases = Vec::new();
        for &(status, ref rptr, response) in listed {
            let Some(ErrorMedia { listed: content_type, written, media }) = self.error_body_media(response) else {
                continue;
            };
            let Some(schema) = &media.schema else { continue };
            if written != *content_type {
                let message = format!(
                    "this error reply's schema describes a structured value, which `{content_type}` has no form for; it is read and written as JSON, `{written}`, which the document does not list here"
                );
                self.warn(&rptr.push("content").push(content_type), message);
            }
            let variant = match status {
                ErrorStatus::Exact(code) => status_name(code),
                ErrorStatus::Class(4) => "ClientError".to_string(),
                ErrorStatus::Class(5) => "ServerError".to_string(),
                ErrorStatus::Class(other) => format!("Status{other}xx"),
                ErrorStatus::Default => "Other".to_string(),
            };
            let naming = Naming::Derived(format!("{wanted}{variant}"));
            let schema_ptr = rptr.push("content").push(content_type).push("schema");
            let Some(mut body) = self.lower_schema(schema, &schema_ptr, naming) else { continue };
            if self.has_files(&body) {
                self.warn(&schema_ptr, FILES_IN_JSON);
                body = TypeRef::Json;
            }
            let doc = super::prose(&Some(response.description.clone()));
            cases.push(ErrorCase { status, name: scope.claim(&variant), body, doc });
        }
        if cases.is_empty() {
            return None;
        }
        let name = self.claim(Naming::Derived(wanted));
        let operation = format!("{} {}", ctx.method.as_str(), ctx.path);
        Some(ErrorsDef { name, operation, cases, same_as: None, shared: 0, features: Vec::new() })
    }

    /// The documented body of an error reply ([`error_media`]); or else one whose schema describes
    /// a structured value under a media type with no form for it (Swagger 2.0's `produces: [application/x-tar]`
    /// covering an error reply's object too), read and written as JSON.
    fn error_body_media<'r>(&self, response: &'r openapiv3::Response) -> Option<ErrorMedia<'r>> {
        error_media(response).or_else(|| {
            let (listed, media) = response.content.iter().find(|(ct, media)| {
                holds_no_structure(ct) && media.schema.as_ref().is_some_and(|s| self.is_structured(s, 0))
            })?;
            Some(ErrorMedia { listed, written: "application/json".to_string(), media })
        })
    }

    /// Whether `schema` describes an object or a list (directly, or as all of its `allOf`).
    fn is_structured(&self, schema: &ReferenceOr<Schema>, depth: usize) -> bool {
        let Some(schema) = self.resolve_schema(schema).filter(|_| depth < 8) else { return false };
        match &schema.schema_kind {
            SchemaKind::Type(Type::Object(_) | Type::Array(_)) => true,
            SchemaKind::Any(any) => !any.properties.is_empty() || any.items.is_some(),
            SchemaKind::AllOf { all_of } => all_of.iter().any(|s| self.is_structured(s, depth + 1)),
            _ => false,
        }
    }

    /// The documented JSON error bodies as shapes the server writes its own rejections in.
    fn error_shapes(
        &mut self,
        ptr: &Pointer,
        responses: &'a openapiv3::Responses,
        listed: &[(ErrorStatus, Pointer, &'a openapiv3::Response)],
        produces: &[&str],
    ) -> Vec<ErrorShape> {
        let mut shapes = Vec::new();
        for &(status, ref rptr, response) in listed {
            let Some(ErrorMedia { listed, written: content_type, media }) = self.error_body_media(response) else {
                // Problem details documented for this status: the server's default, kept for it
                // rather than a class's or `default`'s body.
                if let Some(problem) = response.content.keys().find(|ct| ct.ends_with("problem+json")) {
                    let (content_type, template, fills) = (problem.clone(), String::new(), Vec::new());
                    shapes.push(ErrorShape { status, content_type, template, fills });
                }
                continue;
            };
            let Some(schema) = &media.schema else { continue };
            let Ok(schema) = serde_json::to_value(schema) else { continue };
            let schemas = self.sample_schemas.get_or_init(|| crate::sample::Schemas::of(self.doc));
            match crate::sample::error_body(schemas, &schema) {
                Some((template, fills)) => shapes.push(ErrorShape {
                    status,
                    content_type,
                    template: template.to_string(),
                    fills,
                }),
                None => self.warn(
                    &rptr.push("content").push(listed).push("schema"),
                    "no body this schema allows could be made, so the server's own rejections with this status are problem details",
                ),
            }
        }
        // Where the operation's replies are all plain JSON, problem details for the statuses the
        // document leaves open go as `application/json` too: a reader of the document expects no
        // other media type from it (Swagger 2.0's `produces` says so for every reply).
        let media: Vec<&str> = responses
            .responses
            .values()
            .chain(&responses.default)
            .filter_map(|r| super::resolve(r, "responses", self.doc.components.as_ref().map(|c| &c.responses)))
            .flat_map(|r| r.content.keys().map(String::as_str))
            .chain(produces.iter().copied())
            .collect();
        let plain_json = media.contains(&"application/json") && !media.iter().any(|ct| ct.ends_with("problem+json"));
        if plain_json && !shapes.iter().any(|s| s.status == ErrorStatus::Default) {
            let (content_type, template) = ("application/json".to_string(), String::new());
            shapes.push(ErrorShape { status: ErrorStatus::Default, content_type, template, fills: Vec::new() });
        }
        // Where none is JSON (a Swagger 2.0 operation that `produces` only `text/plain`, a CSV
        // export, a file of bytes), the problem goes as text in the operation's own text or
        // bytes media type: a reader expects no JSON from the operation at all, and a message
        // is valid text and valid bytes.
        let carries_text =
            |e: &String| (e.starts_with("text/") && e != "text/event-stream") || e == "application/octet-stream";
        let text = media.iter().map(|ct| essence(ct)).filter(carries_text).min_by_key(|e| e != "text/plain");
        if let Some(content_type) = text
            && !media.iter().any(|ct| is_json(ct))
            && !shapes.iter().any(|s| s.status == ErrorStatus::Default)
        {
            shapes.push(ErrorShape {
                status: ErrorStatus::Default,
                content_type,
                template: String::new(),
                fills: Vec::new(),
            });
        }
        // Where Swagger 2.0's `produces`, which covers every reply, lists only media types no
        // message fits in (audio, images, PDF), the server's own rejections stay problem
        // details: the document lists no type they could be written in.
        if !produces.is_empty()
            && !media.iter().any(|ct| is_json(ct) || is_yaml(ct) || ct.contains("xml"))
            && !shapes.iter().any(|s| s.status == ErrorStatus::Default)
        {
            let mut listed: Vec<&str> = produces.to_vec();
            listed.sort_unstable();
            listed.dedup();
            // Statuses whose documented body is read as JSON (`error_body_media`) keep it.
            let which = match shapes.is_empty() {
                true => "the server's own rejections (a bad request, missing credentials)",
                false => "the server's own rejections with a status the operation documents no body for",
            };
            let message = format!(
                "none of the media types the operation `produces` ({}) can carry a message, so {which} are problem details, `application/problem+json`, which the document does not list",
                listed.join(", ")
            );
            self.warn(&ptr.push("responses"), message);
        }
        // Problem details as problem+json only: what the server writes anyway.
        if shapes.iter().all(|s| s.template.is_empty() && s.content_type.ends_with("problem+json")) {
            shapes.clear();
        }
        shapes
    }

    /// The headers a reply documents, as a struct named `name` with a field per header; `None`
    /// when it documents none that the generated code can read and write.
    fn reply_headers(
        &mut self,
        ctx: &OpContext,
        rptr: &Pointer,
        status: u16,
        response: &openapiv3::Response,
        name: String,
    ) -> Option<StructDef> {
        let mut scope = Scope::default();
        let mut fields = Vec::new();
        for (header, value) in &response.headers {
            let ptr = rptr.push("headers").push(header);
            // OpenAPI says a `Content-Type` here is ignored: the media type already says it.
            if header.eq_ignore_ascii_case("content-type") {
                continue;
            }
            let resolved = match value {
                ReferenceOr::Item(h) => Some(h),
                ReferenceOr::Reference { reference } => reference
                    .strip_prefix("#/components/headers/")
                    .and_then(|n| self.doc.components.as_ref()?.headers.get(n))
                    .and_then(|h| h.as_item()),
            };
            let Some(h) = resolved else {
                self.unresolved(&ptr, value, "a header in #/components/headers", "the header is not read");
                continue;
            };
            if !super::is_header_name(header) {
                self.warn(
                    &ptr,
                    format!("`{header}` is not a valid header name, so no reply carries it; it is not read"),
                );
                continue;
            }
            let text = unwritten_schema(false);
            let schema = match &h.format {
                ParameterSchemaOrContent::Schema(schema) => schema,
                // A header holds one line of text: its media type's schema says what it reads as.
                ParameterSchemaOrContent::Content(content) => match content.iter().next() {
                    Some((_, media)) if media.schema.is_some() => media.schema.as_ref().unwrap_or(&text),
                    _ => {
                        self.warn(&ptr.push("content"), "the header's `content` gives no schema; it is read as text");
                        &text
                    }
                },
            };
            let naming = Naming::Derived(format!("{name}{}", camel(header)));
            let Some(ty) = self.lower_schema(schema, &ptr.push("schema"), naming) else { continue };
            if !self.is_simple(&ty, false) {
                self.warn(
                    &ptr.push("schema"),
                    format!("header `{header}` is not a single value, so it is not read or written"),
                );
                continue;
            }
            fields.push(Field {
                wire: header.clone(),
                name: scope.claim(&snake(header)),
                ty,
                required: h.required,
                nullable: false,
                tristate: false,
                boxed: false,
                constraints: Default::default(),
                default: None,
                doc: super::prose(&h.description),
            });
        }
        if fields.is_empty() {
            return None;
        }
        let name = self.claim(Naming::Derived(name));
        let doc = Some(format!("The headers of the {status} reply to `{} {}`.", ctx.method.as_str(), ctx.path));
        Some(StructDef { name, doc, fields, extra: None, closed: false })
    }

    /// The credentials an operation may send and, when the document accepts several sets, each
    /// set. A set with a scheme the generator cannot carry is left out with a warning; the
    /// operation is left out only when no set is left.
    fn operation_credentials(
        &mut self,
        ptr: &Pointer,
        security: Option<&Vec<openapiv3::SecurityRequirement>>,
        credentials: &[Credential],
    ) -> Option<(Vec<usize>, Vec<Vec<usize>>)> {
        let (requirements, sptr) = match security {
            Some(s) => (s, ptr.push("security")),
            None => match &self.doc.security {
                Some(s) => (s, Pointer::root().push("security")),
                None => return Some(Default::default()),
            },
        };
        // An empty requirement makes credentials optional: nothing is sent or checked.
        if requirements.is_empty() || requirements.iter().any(|r| r.is_empty()) {
            if requirements.len() > 1 {
                self.warn(
                    &sptr,
                    "credentials are optional here, so the generated code neither sends nor requires them",
                );
            }
            return Some(Default::default());
        }
        let mut sets: Vec<Vec<usize>> = Vec::new();
        let mut problems = Vec::new();
        for (n, requirement) in requirements.iter().enumerate() {
            let found: Result<Vec<usize>, String> = requirement
                .keys()
                .map(|scheme| credentials.iter().position(|c| &c.scheme == scheme).ok_or_else(|| scheme.clone()))
                .collect();
            match found {
                Ok(found) if !sets.contains(&found) => sets.push(found),
                Ok(_) => {}
                Err(scheme) => problems.push((n, scheme)),
            }
        }
        for (n, scheme) in problems {
            let why = self.scheme_problem(&scheme);
            let at = sptr.push(n).push(&scheme);
            if sets.is_empty() {
                self.report(&at, format!("security scheme `{scheme}` is {why}"));
                return None;
            }
            self.warn(&at, format!("security scheme `{scheme}` is {why}, so this alternative is not accepted"));
        }
        let mut all: Vec<usize> = sets.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        if sets.len() == 1 {
            sets.clear();
        }
        Some((all, sets))
    }

    /// Why a security scheme cannot be used, as the end of a sentence, for diagnostics.
    fn scheme_problem(&self, scheme: &str) -> String {
        use openapiv3::{APIKeyLocation, SecurityScheme};
        let unsupported = |what: String| format!("{what}, which is not supported yet");
        match self.doc.components.as_ref().and_then(|c| c.security_schemes.get(scheme)) {
            Some(ReferenceOr::Item(SecurityScheme::APIKey { location: APIKeyLocation::Header, name, .. }))
                if !super::is_header_name(name) =>
            {
                format!("an API key in `{name}`, which is not a valid header name")
            }
            Some(ReferenceOr::Item(SecurityScheme::HTTP { scheme, .. })) => {
                format!("HTTP authentication named `{scheme}`, which is no valid scheme name")
            }
            Some(_) => unsupported("a scheme of another kind".to_string()),
            None => "not declared in #/components/securitySchemes".to_string(),
        }
    }
}

impl Lowerer<'_> {
    /// A choice between one value and a list of such values (`oneOf: [string, array of string]`)
    /// is the list: in a query or a header, one value is written exactly as a list of one.
    fn one_or_many(&self, ty: TypeRef) -> TypeRef {
        let TypeRef::Named(id) = &ty else { return ty };
        let Some(TypeDef::Union(union)) = self.def(*id) else { return ty };
        let [a, b] = &union.variants[..] else { return ty };
        for (one, many) in [(a, b), (b, a)] {
            if let TypeRef::Vec(item) = self.unaliased(&many.ty)
                && let item = non_null((**item).clone())
                && *self.unaliased(&item) == *self.unaliased(&one.ty)
                && self.is_simple(&item, false)
            {
                return TypeRef::Vec(Box::new(item));
            }
        }
        ty
    }

    /// `ty` with aliases followed to what they stand for; a cycle of aliases stops where it started.
    pub(super) fn unaliased<'t>(&'t self, mut ty: &'t TypeRef) -> &'t TypeRef {
        for _ in 0..=self.types.len() {
            match ty {
                TypeRef::Named(id) => match self.def(*id) {
                    Some(TypeDef::Alias { target, .. }) => ty = target,
                    _ => break,
                },
                _ => break,
            }
        }
        ty
    }

    /// Whether a binary string at `ptr` is a file part: a property (or the items of an array
    /// property) of a multipart body's schema.
    pub(crate) fn is_file_part(&self, ptr: &Pointer) -> bool {
        let ptr = ptr.to_string();
        let is_property_of_body = |p: &str| {
            let Some((parent, _)) = p.rsplit_once('/') else { return false };
            parent.strip_suffix("/properties").is_some_and(|schema| {
                schema.ends_with("/content/multipart~1form-data/schema") || self.multipart_schemas.contains(schema)
            })
        };
        is_property_of_body(&ptr) || ptr.strip_suffix("/items").is_some_and(is_property_of_body)
    }

    /// Whether a body type has file parts, which only a multipart body can carry.
    fn has_files(&self, ty: &TypeRef) -> bool {
        self.struct_named(ty).is_some_and(|s| s.fields.iter().any(|f| f.ty.is_file_part()))
    }

    /// Whether `ty` is a struct whose fields are all single values.
    fn simple_fields(&self, ty: &TypeRef) -> bool {
        let TypeRef::Named(id) = self.unaliased(ty) else { return false };
        match self.def(*id) {
            Some(TypeDef::Struct(s)) => s.extra.is_none() && s.fields.iter().all(|f| self.is_simple(&f.ty, false)),
            _ => false,
        }
    }

    /// Whether a type is a struct (through aliases).
    fn is_struct(&self, ty: &TypeRef) -> bool {
        matches!(self.unaliased(ty), TypeRef::Named(id) if matches!(self.def(*id), Some(TypeDef::Struct(_))))
    }

    /// Whether a type is written as a JSON object (a struct or a map).
    fn is_object(&self, ty: &TypeRef) -> bool {
        matches!(self.unaliased(ty), TypeRef::Map(_)) || self.is_struct(ty)
    }

    pub(super) fn struct_named(&self, ty: &TypeRef) -> Option<&StructDef> {
        let TypeRef::Named(id) = ty else { return None };
        match self.def(*id)? {
            TypeDef::Struct(s) => Some(s),
            _ => None,
        }
    }
}

struct OpContext<'c> {
    method: Method,
    path: &'c str,
    ptr: &'c Pointer,
    type_name: &'c str,
}

/// The `name=value` pairs a path template fixes in the query (`beta=true` of
/// `/items?beta=true`), which tell its operation from others on the same path. A pair holding a
/// template (`a={v}`) fixes nothing.
fn fixed_query(path: &str) -> Vec<(String, String)> {
    let Some((_, query)) = path.split_once('?') else { return Vec::new() };
    let pairs = query.split('&').filter(|pair| !pair.is_empty() && !pair.contains('{'));
    pairs.map(|pair| pair.split_once('=').unwrap_or((pair, ""))).map(|(n, v)| (n.to_string(), v.to_string())).collect()
}

/// A path with its parameters' names left out (`/apps/{}`): paths of one shape match the same
/// requests.
fn path_shape(path: &str) -> String {
    let mut shape = String::with_capacity(path.len());
    let mut in_name = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_name = true;
                shape.push('{');
            }
            '}' => {
                in_name = false;
                shape.push('}');
            }
            _ if in_name => {}
            _ => shape.push(c),
        }
    }
    shape
}

/// Why a schema that is also a multipart body's, whose binary properties are therefore file
/// parts, is read as any JSON value where it appears as JSON.
const FILES_IN_JSON: &str = "this schema is also a multipart body, whose binary properties are file parts, which \
                             JSON cannot carry: here it is read as any JSON value";

/// One media type's body, and the media type whose schema it is (a wildcard JSON body is sent as
/// `application/json` but described under `*/*`).
struct MediaBody {
    body: Body,
    described: String,
}

impl std::ops::Deref for MediaBody {
    type Target = Body;

    fn deref(&self) -> &Body {
        &self.body
    }
}

/// The word a body case is named by: its encoding, or for JSON of a type other than
/// `application/json`, that type (`MergePatchJson`).
fn case_word(encoding: BodyEncoding, content_type: &str) -> String {
    match encoding {
        BodyEncoding::Json if !content_type.eq_ignore_ascii_case("application/json") => {
            let subtype = content_type.split(['/', ';']).nth(1).unwrap_or("json");
            camel(subtype)
        }
        BodyEncoding::Json => "Json".to_string(),
        BodyEncoding::Form => "Form".to_string(),
        BodyEncoding::Multipart => "Multipart".to_string(),
        BodyEncoding::Binary => "Bytes".to_string(),
        BodyEncoding::Text => "Text".to_string(),
    }
}

fn is_form(content_type: &str) -> bool {
    content_type.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

/// What a reply the document names but never describes may be: any bytes.
static UNDESCRIBED_REPLY: std::sync::LazyLock<openapiv3::Response> = std::sync::LazyLock::new(|| openapiv3::Response {
    content: openapiv3::Content::from_iter([("*/*".to_string(), openapiv3::MediaType::default())]),
    ..Default::default()
});

/// A media type without its parameters, lower-case: `text/csv; charset=utf-8` is `text/csv`.
fn essence(content_type: &str) -> String {
    content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

/// Whether `content_type` is XML (`application/xml`, `text/xml`, `application/atom+xml`).
fn is_xml(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence == "application/xml" || essence == "text/xml" || essence.ends_with("+xml")
}

pub(crate) fn is_json(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

/// The content type the client sends or expects: `application/json` when listed, else the first
/// concrete JSON type (never a wildcard such as `application/*+json`).
fn preferred_json(types: &[String]) -> Option<String> {
    types
        .iter()
        .find(|t| t.eq_ignore_ascii_case("application/json"))
        .or_else(|| types.iter().find(|t| !t.contains('*')))
        .cloned()
}

/// The schema of a value whose media type gives none: any JSON value, or text.
fn unwritten_schema(json: bool) -> ReferenceOr<Schema> {
    let kind =
        if json { SchemaKind::Any(Default::default()) } else { SchemaKind::Type(Type::String(Default::default())) };
    ReferenceOr::Item(Schema { schema_data: Default::default(), schema_kind: kind })
}

fn is_multipart(content_type: &str) -> bool {
    content_type.split(';').next().is_some_and(|ct| ct.trim().eq_ignore_ascii_case("multipart/form-data"))
}

/// The component schemas that some operation takes as its multipart body (directly by `$ref`, or
/// through a `$ref` to `#/components/requestBodies`), as pointers.
pub(super) fn multipart_schemas(doc: &openapiv3::OpenAPI) -> std::collections::HashSet<String> {
    let bodies = doc.paths.paths.values().filter_map(|item| item.as_item()).flat_map(|item| item.iter());
    let named = doc.components.iter().flat_map(|c| c.request_bodies.values());
    let direct = bodies.filter_map(|(_, op)| op.request_body.as_ref());
    direct
        .chain(named)
        .filter_map(|body| body.as_item())
        .flat_map(|body| body.content.iter())
        .filter(|(ct, _)| is_multipart(ct))
        .filter_map(|(_, media)| match media.schema.as_ref()? {
            ReferenceOr::Reference { reference } => Some(reference.clone()),
            ReferenceOr::Item(_) => None,
        })
        .collect()
}

/// The media type of a reply's content that is bytes: `application/octet-stream`, or a binary
/// string schema.
fn binary_medium<'c>(
    lowerer: &Lowerer,
    content: &'c indexmap::IndexMap<String, openapiv3::MediaType>,
) -> Option<&'c String> {
    content
        .iter()
        .find(|(ct, m)| *ct == "application/octet-stream" || is_binary(lowerer, m.schema.as_ref()))
        .map(|(ct, _)| ct)
}

/// Whether an object schema has a property that is a file (a binary string, or a list of them).
fn has_file_property(lowerer: &Lowerer, schema: Option<&ReferenceOr<Schema>>) -> bool {
    let Some(schema) = schema.and_then(|s| lowerer.resolve_schema(s)) else { return false };
    let SchemaKind::Type(Type::Object(object)) = &schema.schema_kind else { return false };
    object.properties.values().any(|property| {
        let property = property.clone().unbox();
        let items = match lowerer.resolve_schema(&property).map(|s| &s.schema_kind) {
            Some(SchemaKind::Type(Type::Array(a))) => a.items.clone().map(ReferenceOr::unbox),
            _ => None,
        };
        // A choice with a file among its members is read as file parts too.
        let choice = match lowerer.resolve_schema(&property).map(|s| &s.schema_kind) {
            Some(SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members }) => {
                lowerer.file_choice(members).is_some()
            }
            _ => false,
        };
        is_binary(lowerer, Some(&property)) || is_binary(lowerer, items.as_ref()) || choice
    })
}

fn is_binary(lowerer: &Lowerer, schema: Option<&ReferenceOr<Schema>>) -> bool {
    let Some(schema) = schema.and_then(|s| lowerer.resolve_schema(s)) else { return false };
    matches!(&schema.schema_kind, SchemaKind::Type(Type::String(s))
        if s.format == openapiv3::VariantOrUnknownOrEmpty::Item(openapiv3::StringFormat::Binary))
}

/// The documented body of an error reply, other than problem details (which the generated crates
/// already read and write): where it is listed and in which media type it is written. JSON,
/// `application/json` first, or else YAML, which any JSON text is (so the same body serves).
struct ErrorMedia<'r> {
    /// The media type it is listed under (its key in the reply's `content`).
    listed: &'r String,
    /// The media type it is written in.
    written: String,
    media: &'r openapiv3::MediaType,
}

fn error_media(response: &openapiv3::Response) -> Option<ErrorMedia<'_>> {
    let written =
        response.content.iter().filter(|(ct, _)| (is_json(ct) || is_yaml(ct)) && !ct.ends_with("problem+json"));
    let (listed, media) = written.min_by_key(|(ct, _)| (!is_json(ct), *ct != "application/json"))?;
    Some(ErrorMedia { listed, written: listed.clone(), media })
}

/// Whether `content_type` has no form of its own for a structured value: neither JSON, YAML, XML,
/// text, nor a form (an archive, a stream of frames, an image, bytes).
fn holds_no_structure(content_type: &str) -> bool {
    let essence = essence(content_type);
    !(is_json(&essence)
        || is_yaml(&essence)
        || is_xml(&essence)
        || essence.starts_with("text/")
        || essence.starts_with("multipart/")
        || essence == "application/x-www-form-urlencoded")
}

/// Whether `content_type` is YAML (`application/yaml`, `application/x-yaml`, `text/yaml`, `+yaml`).
fn is_yaml(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence.ends_with("/yaml") || essence.ends_with("/x-yaml") || essence.ends_with("+yaml")
}

/// The variant name for a status: its reason phrase, or `Status` and the code.
fn status_name(status: u16) -> String {
    let name = match status {
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        203 => "NonAuthoritative",
        204 => "NoContent",
        205 => "ResetContent",
        206 => "PartialContent",
        207 => "MultiStatus",
        301 => "MovedPermanently",
        302 => "Found",
        303 => "SeeOther",
        304 => "NotModified",
        307 => "TemporaryRedirect",
        308 => "PermanentRedirect",
        400 => "BadRequest",
        401 => "Unauthorized",
        402 => "PaymentRequired",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        406 => "NotAcceptable",
        408 => "RequestTimeout",
        409 => "Conflict",
        410 => "Gone",
        412 => "PreconditionFailed",
        413 => "ContentTooLarge",
        415 => "UnsupportedMediaType",
        422 => "UnprocessableContent",
        423 => "Locked",
        428 => "PreconditionRequired",
        429 => "TooManyRequests",
        500 => "InternalServerError",
        501 => "NotImplemented",
        502 => "BadGateway",
        503 => "ServiceUnavailable",
        504 => "GatewayTimeout",
        _ => return format!("Status{status}"),
    };
    name.to_string()
}

/// An operation name for operations without `operationId`: method and path, e.g.
/// `GET /users/{id}/posts` → `get_users_by_id_posts`.
fn derived_id(method: Method, path: &str) -> String {
    let mut parts = vec![method.as_str().to_ascii_lowercase()];
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(param) => parts.push(format!("by_{param}")),
            None => parts.push(segment.to_string()),
        }
    }
    parts.join("_")
}

/// `ty` without the `null` a list item or map value may hold.
fn non_null(ty: TypeRef) -> TypeRef {
    match ty {
        TypeRef::Nullable(inner) => *inner,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::fixed_query;

    #[test]
    fn a_path_fixes_the_query_pairs_it_writes_without_a_template() {
        assert_eq!(fixed_query("/r?beta=true&v"), [("beta".into(), "true".into()), ("v".into(), String::new())]);
        assert!(fixed_query("/r").is_empty());
        assert_eq!(fixed_query("/r?a={v}&b=1"), [("b".into(), "1".into())]);
    }
}
