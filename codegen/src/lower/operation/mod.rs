//! Paths and operations → [`Operation`]s: each operation's names and the parts below, a file
//! each: parameters, request bodies, replies, error replies and credentials.

mod bodies;
mod credentials;
mod errors;
mod params;
mod replies;

pub(crate) use bodies::is_json;
pub(in crate::lower) use bodies::multipart_schemas;

use openapiv3::ReferenceOr;

use params::upgrade_header;

use super::Lowerer;
use super::prune::Unit;
use crate::diagnostic::Pointer;
use crate::front::markers;
use crate::ir::{CommonHeader, Credential, Method, Operation, StructDef, TypeDef, TypeRef};
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
                        Some(first) => self.note(
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
}

impl Lowerer<'_> {
    /// A choice between one value and a list of such values (`oneOf: [string, array of string]`)
    /// is the list: in a query or a header, one value is written exactly as a list of one.
    pub(super) fn one_or_many(&self, ty: TypeRef) -> TypeRef {
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
    pub(super) fn has_files(&self, ty: &TypeRef) -> bool {
        self.struct_named(ty).is_some_and(|s| s.fields.iter().any(|f| f.ty.is_file_part()))
    }

    /// Whether `ty` is a struct whose fields are all single values.
    pub(super) fn simple_fields(&self, ty: &TypeRef) -> bool {
        let TypeRef::Named(id) = self.unaliased(ty) else { return false };
        match self.def(*id) {
            Some(TypeDef::Struct(s)) => s.extra.is_none() && s.fields.iter().all(|f| self.is_simple(&f.ty, false)),
            _ => false,
        }
    }

    /// Whether a type is a struct (through aliases).
    pub(super) fn is_struct(&self, ty: &TypeRef) -> bool {
        matches!(self.unaliased(ty), TypeRef::Named(id) if matches!(self.def(*id), Some(TypeDef::Struct(_))))
    }

    /// Whether a type is written as a JSON object (a struct or a map).
    pub(super) fn is_object(&self, ty: &TypeRef) -> bool {
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

pub(super) struct OpContext<'c> {
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

/// What a reply the document names but never describes may be: any bytes.
pub(super) static UNDESCRIBED_REPLY: std::sync::LazyLock<openapiv3::Response> =
    std::sync::LazyLock::new(|| openapiv3::Response {
        content: openapiv3::Content::from_iter([("*/*".to_string(), openapiv3::MediaType::default())]),
        ..Default::default()
    });

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
pub(super) fn non_null(ty: TypeRef) -> TypeRef {
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
