//! The head of `router.rs`: the routes, the dispatch of each method and path, and the request
//! context every handler builds.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::handler::{handler_name, missing_message};
use super::inputs::add_input_imports;
use super::universal;
use super::validate::router_limits;

use crate::emit::facts::{calls_validate, validated_types};
use crate::emit::routes;
use crate::emit::{Imports, ident};
use crate::ir::{Api, BodyEncoding, Carrier, Constraints, Location, Operation, Reply, TypeDef, TypeRef};

/// A handler for operations of one method on one route: the first whose segments have its
/// literal text and whose query has the pairs its path fixes, else the one with neither.
fn dispatch(ops: &[&Operation]) -> TokenStream {
    let mut ordered: Vec<&&Operation> = ops.iter().collect();
    ordered.sort_by_key(|op| routes::splits(&op.path).is_empty() && op.fixed_query.is_empty());
    let (last, tried) = ordered.split_last().expect("several operations");
    let tries = tried.iter().map(|op| {
        let handler = handler_name(op);
        let segments = routes::splits(&op.path).into_iter().map(|split| {
            let (index, literals) = (split.index, &split.literals);
            quote! { extract::segment_has(request.uri().path(), #index, &[#(#literals),*]) }
        });
        let fixed = &op.fixed_query;
        let query = (!fixed.is_empty()).then(|| {
            let pairs = fixed.iter().map(|(name, value)| quote! { (#name, #value) });
            quote! { extract::query_has(request.uri().query(), &[#(#pairs),*]) }
        });
        let checks = segments.chain(query);
        quote! { if #(#checks)&&* { return #handler::<A>(state, request).await; } }
    });
    let last = handler_name(last);
    quote! {
        |state: State<Shared<A>>, request: Request| async move {
            #(#tries)*
            #last::<A>(state, request).await
        }
    }
}

/// The head of `router.rs`: configuration, the router and the shared checks; [`handler`] gives
/// one operation's handler.
/// Routes one statement of the router adds, at most.
const ROUTES_PER_STATEMENT: usize = 100;

pub fn router_header(api: &Api, trait_name: &str) -> TokenStream {
    let trait_ident = ident(trait_name);
    let (routes, verbs) = route_calls(api);
    let operations = operations_items(api);
    let context = context_fn(api);
    let (imports, casts) = router_imports(api, trait_name, verbs);
    // A segment starting with `:` or `*` is literal text in OpenAPI; axum refuses such routes
    // unless told they are meant.
    let literal = |path: &str| path.split('/').any(|segment| segment.starts_with([':', '*']));
    let literal_colons = api.operations.iter().any(|op| literal(&op.path)).then(|| quote! { .without_v07_checks() });
    // A chain of calls nests once per call when it is parsed and printed: a few thousand routes
    // would overflow the stack. Past one chunk, the routes are added a chunk per statement.
    let routes = if routes.len() <= ROUTES_PER_STATEMENT {
        quote! { let routes = Router::new() #literal_colons #(#routes)* .method_not_allowed_fallback(method_not_allowed::<A>); }
    } else {
        let chunks = routes.chunks(ROUTES_PER_STATEMENT).map(|chunk| quote! { let routes = routes #(#chunk)*; });
        quote! {
            let routes = Router::new() #literal_colons;
            #(#chunks)*
            let routes = routes.method_not_allowed_fallback(method_not_allowed::<A>);
        }
    };
    let serve_document = api.document.is_some().then(|| {
        quote! {
            #[cfg(feature = "document")]
            if let Some(document) =
                unrouted::document(&state.config, &request, crate::DOCUMENT, crate::DOCUMENT_MEDIA_TYPE)
            {
                return document;
            }
        }
    });
    let closed = closed_in_bodies(api);
    let closed = (!closed.is_empty()).then(|| {
        quote! {
            /// The objects the document closes (`additionalProperties: false`) that request
            /// bodies hold, sorted: a property they do not name is refused.
            const CLOSED: &[&str] = &[#(#closed),*];
        }
    });
    quote! {
        //! The axum router: extraction and validation generated from the spec, then the trait call.

        #casts

        #imports

        /// A router serving `api` with the default [`ServerConfig`].
        pub fn router<A: #trait_ident>(api: A) -> Router {
            router_with(Arc::new(api), ServerConfig::default())
        }

        /// A router serving a shared implementation with `config`, under its
        /// [`base_path`](ServerConfig::base_path) when it has one. Add tower layers (timeouts,
        /// tracing, authentication, rate limits) with `Router::layer` as usual.
        pub fn router_with<A: #trait_ident>(api: Arc<A>, config: ServerConfig) -> Router {
            #routes
            let routes = match config.base_path.as_str() {
                "" => routes,
                base => Router::new().nest(base, routes),
            };
            routes.fallback(not_found::<A>).with_state(Shared::new(api, config))
        }

        /// A path no operation is served at: 404.
        async fn not_found<A: #trait_ident>(State(state): State<Shared<A>>, request: Request) -> Response {
            #serve_document
            let reply = ErrorReply::unrouted(request.uri().path(), errors::UNROUTED);
            state.api.error_reply(unrouted::not_found(&request), reply)
        }

        /// A method the path does not serve: 405.
        async fn method_not_allowed<A: #trait_ident>(State(state): State<Shared<A>>, request: Request) -> Response {
            let reply = ErrorReply::unrouted(request.uri().path(), errors::UNROUTED);
            state.api.error_reply(unrouted::method_not_allowed(&request), reply)
        }

        #context

        #closed

        #operations
    }
}

/// A `.route(path, method(handler)…)` call per path, methods in the spec's order, as axum wants
/// one call per path; and the routing functions the first method of each path names.
fn route_calls(api: &Api) -> (Vec<TokenStream>, BTreeSet<String>) {
    // Routes grouped by path, methods in spec order, as axum wants one `route` call per path.
    let mut paths: Vec<(String, Vec<&Operation>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for op in &api.operations {
        let route = routes::route(op);
        match index.get(&route) {
            Some(&i) => paths[i].1.push(op),
            None => {
                index.insert(route.clone(), paths.len());
                paths.push((route, vec![op]));
            }
        }
    }
    // axum routes no `QUERY`: its handler is the path's fallback, or serves the path alone.
    let is_query = |op: &&&Operation| op.method == crate::ir::Method::Query;
    let routes = paths.iter().map(|(path, ops)| {
        // Each method once; operations that share it (`{id}:archive` and `{id}:unarchive`) are
        // told apart by their segments' literal text, the one without any last.
        let mut by_method: Vec<(crate::ir::Method, Vec<&Operation>)> = Vec::new();
        for op in ops.iter().filter(|op| !is_query(op)) {
            match by_method.iter_mut().find(|(m, _)| *m == op.method) {
                Some((_, same)) => same.push(op),
                None => by_method.push((op.method, vec![op])),
            }
        }
        let methods = by_method.iter().enumerate().map(|(i, (method, same))| {
            let method = format_ident!("{}", method.as_str().to_ascii_lowercase());
            let handler = match same.as_slice() {
                [op] => {
                    let handler = handler_name(op);
                    quote! { #handler::<A> }
                }
                several => dispatch(several),
            };
            if i == 0 {
                quote! { #method(#handler) }
            } else {
                quote! { .#method(#handler) }
            }
        });
        let query = ops.iter().find(is_query).map(|op| {
            let handler = handler_name(op);
            if ops.len() == 1 {
                quote! { any(#handler::<A>) }
            } else {
                quote! { .fallback(#handler::<A>) }
            }
        });
        quote! { .route(#path, #(#methods)* #query) }
    });
    // Only the first method of a path is a free function; the others are `MethodRouter` methods.
    let verbs: BTreeSet<String> = paths
        .iter()
        .map(|(_, ops)| match ops.iter().find(|op| !is_query(op)) {
            Some(first) => first.method.as_str().to_ascii_lowercase(),
            None => "any".to_string(),
        })
        .collect();
    (routes.collect(), verbs)
}

/// `OPERATIONS`, every operation's id, method and route, and `operation_of`.
fn operations_items(api: &Api) -> TokenStream {
    let operations = api.operations.iter().map(|op| {
        let (id, method, path) = (&op.id, op.method.as_str(), routes::route(op));
        quote! { Operation { id: #id, method: #method, path: #path } }
    });
    quote! {
        /// Every operation of the document: its `operationId`, method and path as the router
        /// matches it.
        pub const OPERATIONS: &[Operation] = &[#(#operations),*];

        /// The operation `request` was routed to, for a tower layer added to the router
        /// (`Router::layer` and `Router::route_layer` run once the route is matched): to log,
        /// meter or authorise per operation. `None` for a request no operation serves, and for
        /// operations that share a route and are told apart by their handler.
        pub fn operation_of<B>(request: &axum::http::Request<B>) -> Option<&'static Operation> {
            Operation::of(OPERATIONS, request)
        }
    }
}

/// What `router.rs` imports, and the lint it allows where numbers are checked as `f64`.
fn router_imports(api: &Api, trait_name: &str, verbs: BTreeSet<String>) -> (TokenStream, Option<TokenStream>) {
    let validated = validated_types(api);
    let mut imports = Imports::default();
    imports
        .add("std::sync::Arc")
        .add("axum::Router")
        .add("axum::body::Body")
        .add("crate::reply::{self, Route}")
        .add("axum::extract::{Request, State}")
        .add("apigen_runtime::codegen::server::{Shared, unrouted}")
        .add("crate::{ErrorReply, errors}")
        .add("crate::ServerConfig")
        .add("axum::http::HeaderMap")
        .add("axum::http::request::Parts")
        .add("axum::response::Response")
        .add("crate::ApiError")
        .add("crate::api::RequestContext")
        .add("crate::extract")
        .add("crate::inputs")
        .add("crate::Operation")
        .add(&format!("crate::{trait_name}"));
    // Header names are constants only where an API key header or a version header is read.
    if api.credentials.iter().any(|c| matches!(c.carrier, Carrier::Header(_))) || !api.common_headers.is_empty() {
        imports.add("axum::http::HeaderName");
    }
    imports.add(&format!("axum::routing::{{{}}}", verbs.into_iter().collect::<Vec<_>>().join(", ")));
    if api.operations.iter().any(|op| op.params.iter().any(|p| p.location == Location::Query)) {
        imports.add("crate::extract::QueryParams");
    }
    if api.operations.iter().any(|op| !op.params.is_empty() || op.body.is_some()) {
        imports.add("crate::extract::Problems");
    }
    if api.operations.iter().any(|op| matches!(op.reply, Reply::Several { .. })) {
        imports.add("crate::types");
    }
    let validated_input = |op: &Operation| {
        op.body.iter().flat_map(|b| b.cases()).any(|b| calls_validate(api, &b.ty, &validated))
            || op.params.iter().any(|p| calls_validate(api, &p.ty, &validated))
    };
    if api.operations.iter().any(validated_input) {
        imports.add("crate::extract::Validate");
    }
    if api.operations.iter().any(|op| op.params.iter().any(|p| p.location == Location::Path)) {
        imports.add("crate::extract::PathParams");
    }
    // The checks parameters' limits call, as `validate.rs` calls them for bodies.
    let param_uses = |f: &dyn Fn(&Constraints) -> bool| router_limits(api).any(|c| c.any(f));
    for (check, used) in [
        ("check_length", param_uses(&|c| c.min_length.is_some() || c.max_length.is_some())),
        ("check_pattern", param_uses(&|c| c.pattern.is_some())),
        ("check_format", param_uses(&|c| c.format.is_some())),
        ("Format", param_uses(&|c| c.format.is_some())),
        ("check_items", param_uses(&|c| c.min_items.is_some() || c.max_items.is_some())),
        ("check_unique", param_uses(&|c| c.unique_items)),
        ("check_properties", param_uses(&|c| c.min_properties.is_some() || c.max_properties.is_some())),
        (
            "check_bounds",
            param_uses(&|c| {
                (c.minimum.is_some() && !c.exclusive_minimum) || (c.maximum.is_some() && !c.exclusive_maximum)
            }),
        ),
        ("check_strict_bounds", param_uses(&|c| c.exclusive_minimum || c.exclusive_maximum)),
        ("check_multiple_of", param_uses(&|c| c.multiple_of.is_some())),
    ] {
        if used {
            imports.add(&format!("crate::extract::{check}"));
        }
    }
    if param_uses(&|c| c.pattern.is_some()) {
        imports.add("apigen_runtime::codegen::pattern::LazyPattern");
    }
    let numeric = param_uses(&|c| c.minimum.is_some() || c.maximum.is_some() || c.multiple_of.is_some());
    let casts = numeric.then(|| {
        quote! { #![allow(clippy::unnecessary_cast, reason = "numbers of every width are checked as f64")] }
    });
    add_input_imports(api, &mut imports, true);
    (imports.tokens(), casts)
}

/// The structs the document closes (`additionalProperties: false`) that a JSON request body can
/// hold, sorted: the server reads those bodies refusing properties such a struct does not name.
fn closed_in_bodies(api: &Api) -> Vec<&str> {
    let bodies = api.operations.iter().filter_map(|op| op.body.as_ref()).flat_map(|b| b.cases());
    let json = bodies.filter(|b| b.encoding == BodyEncoding::Json);
    let found: BTreeSet<&str> = json.flat_map(|body| closed_within(api, &body.ty)).collect();
    found.into_iter().collect()
}

/// The closed structs a value of `ty` can hold, members of its choices included.
pub(super) fn closed_within<'a>(api: &'a Api, ty: &'a TypeRef) -> BTreeSet<&'a str> {
    let (mut seen, mut found) = (BTreeSet::new(), BTreeSet::new());
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        match ty {
            TypeRef::Named(id) if seen.insert(*id) => match api.ty(*id) {
                TypeDef::Struct(s) => {
                    if s.closed {
                        found.insert(s.name.as_str());
                    }
                    stack.extend(s.fields.iter().map(|f| &f.ty));
                }
                TypeDef::Alias { target, .. } => stack.push(target),
                TypeDef::Union(u) => stack.extend(u.variants.iter().map(|v| &v.ty)),
                TypeDef::IntEnum(_) | TypeDef::StringEnum(_) => {}
            },
            TypeRef::Vec(item) | TypeRef::Map(item) | TypeRef::Nullable(item) => stack.push(item),
            _ => {}
        }
    }
    found
}

/// `context(parts, config)`: the credential and common header checks, in the order the contract
/// gives: missing credentials 401, then a missing version header 400.
pub(super) fn context_fn(api: &Api) -> TokenStream {
    let creds = api.credentials.iter().enumerate().map(|(i, c)| {
        let field = ident(&c.field);
        let read = match &c.carrier {
            Carrier::Header(header) => {
                let name = header_name(header);
                quote! { extract::text_header(&parts.headers, #name) }
            }
            Carrier::Authorization(scheme) => quote! { extract::scheme_credential(&parts.headers, #scheme) },
            Carrier::Cookie(cookie) => quote! { extract::cookie_credential(&parts.headers, #cookie) },
            Carrier::Query(name) => quote! { extract::query_credential(parts.uri.query(), #name) },
        };
        if universal(api, i) {
            let missing = missing_message(c);
            quote! { let #field = #read.ok_or_else(|| missing_credential(#missing))?; }
        } else {
            quote! { let #field = #read; }
        }
    });
    let cred_fields: Vec<_> = api.credentials.iter().map(|c| ident(&c.field)).collect();
    let commons = api.common_headers.iter().map(|h| {
        let field = ident(&h.field);
        let header = &h.header;
        let name = header_name(header);
        quote! {
            let #field = extract::text_header(&parts.headers, #name).ok_or_else(|| {
                ApiError::bad_request(format!("the `{}` header is required", #header))
                    .with_type(crate::problem::problem_types::INVALID_REQUEST)
                    .with_error(#header, "header is required")
            })?;
            if let Some(supported) = &config.supported_versions
                && !supported.contains(&#field)
            {
                return Err(ApiError::unsupported_api_version(&#field));
            }
        }
    });
    let common_fields: Vec<_> = api.common_headers.iter().map(|h| ident(&h.field)).collect();
    let missing_credential = (!api.credentials.is_empty()).then(|| {
        quote! {
            fn missing_credential(message: &str) -> ApiError {
                ApiError::unauthorized(message).with_type(crate::problem::problem_types::MISSING_CREDENTIALS)
            }
        }
    });
    quote! {
        fn context(parts: &Parts, config: &ServerConfig) -> Result<RequestContext, ApiError> {
            extract::check_head_size(parts, config.max_uri_length, config.max_header_bytes)?;
            #(#creds)*
            #(#commons)*
            Ok(RequestContext {
                #(#cred_fields,)*
                #(#common_fields,)*
                request_id: extract::text_header(&parts.headers, &extract::REQUEST_ID),
                // Filled in just before the call, by moving the request's headers rather than
                // copying them.
                headers: HeaderMap::new(),
            })
        }

        #missing_credential
    }
}

/// A header name as a constant, checked and built at compile time, so that looking it up costs no
/// parsing per request. Lowering has made sure it is a valid name.
fn header_name(name: &str) -> TokenStream {
    let name = name.to_ascii_lowercase();
    quote! { &const { HeaderName::from_static(#name) } }
}
