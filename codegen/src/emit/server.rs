//! The server crate: a trait with one method per operation, an input struct per operation, and the
//! axum router that extracts and validates requests before calling the trait.

use std::collections::BTreeSet;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::facts::{calls_validate, holds_validated, validated_types};
use super::routes;
use super::split::TypesCrate;
use super::{Imports, Uses, default_text, doc, ident, inner_doc, names_type, operation_doc, paragraphs, rust_type};

use crate::ir::{
    Api, BodyEncoding, Carrier, Constraints, ErrorList, ErrorShape, ErrorStatus, ErrorsDef, Field, Fill, Framing,
    Location, ObjectStyle, Operation, Param, RepliesDef, Reply, StructDef, TypeDef, TypeId, TypeRef,
};
use crate::render::{Block, Part};

/// Whether every operation requires credential `i`, so the context can hold it as a plain `String`.
fn universal(api: &Api, i: usize) -> bool {
    api.operations.iter().all(|op| op.credential_alternatives.is_empty() && op.credentials.contains(&i))
}

/// Imports for code that holds every operation's parameters and body (inputs and handlers).
fn add_input_imports(api: &Api, imports: &mut Imports, cases: bool) {
    let mut uses = Uses::default();
    let mut needs_types = false;
    let bodies = api.operations.iter().filter_map(|op| op.body.as_ref());
    // A body of several cases is their enum: only the router, which reads each case, names the
    // cases' own types.
    let body_types =
        bodies.flat_map(|b| std::iter::once(&b.ty).chain(b.cases().into_iter().map(|c| &c.ty).filter(|_| cases)));
    for ty in api.operations.iter().flat_map(|op| op.params.iter().map(|p| &p.ty)).chain(body_types) {
        uses.add(ty);
        needs_types |= names_type(ty);
    }
    if needs_types {
        imports.add("crate::types");
    }
    uses.add_to(imports, "crate::DateTime");
}

fn input_name(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Input", op.type_name)
}

/// The signature of an operation's method, the same in the trait, its partial twin and the mock.
fn method_signature(api: &Api, op: &Operation) -> TokenStream {
    let (name, input, reply) = (ident(&op.fn_name), input_name(op), server_reply_type(api, op));
    quote! {
        fn #name(&self, ctx: RequestContext, input: inputs::#input)
            -> impl Future<Output = ApiResult<#reply>> + Send
    }
}

/// The type an operation's method returns in `Ok`.
fn server_reply_type(api: &Api, op: &Operation) -> TokenStream {
    super::reply_type(api, &op.reply, quote! { FileDownload }, quote! { ItemStream }, quote! { Switch })
}

/// `api.rs`: the request context and the trait.
pub fn api_module(api: &Api, trait_name: String) -> Vec<Part<'_>> {
    let ops = &api.operations;
    let trait_doc = format!(
        "The operations of {}, one method each.\n\n\
         Implement every method (the compiler insists; there are no default bodies, so a new\n\
         operation in the spec cannot go unnoticed), then serve the implementation with\n\
         [`router`](crate::router). Methods may be written as `async fn`. Each receives the\n\
         [`RequestContext`] and the operation's validated input with defaults applied; an `Err`\n\
         becomes an error reply with the status the [`ApiError`] carries, written by\n\
         `error_reply`.",
        api.title
    );
    let mut parts = vec![
        Part::items(move || api_head(api)),
        Part::block(
            {
                let trait_name = trait_name.clone();
                move || {
                    let (docs, name) = (doc(&trait_doc), ident(&trait_name));
                    quote! { #docs pub trait #name: Send + Sync + 'static {} }
                }
            },
            Block::Trait,
            ops.len() + 1,
            move |i| match ops.get(i) {
                Some(op) => api_method(api, op),
                None => error_reply_method(),
            },
        ),
    ];
    parts.extend(partial_trait(api, trait_name));
    parts
}

/// The head of `api.rs`: docs, imports and the request context.
fn api_head(api: &Api) -> TokenStream {
    let cred_fields = api.credentials.iter().enumerate().map(|(i, c)| {
        let field = ident(&c.field);
        let how = match &c.carrier {
            Carrier::Header(header) => format!("As received in the `{header}` header."),
            Carrier::Cookie(name) => format!("The value of the `{name}` cookie."),
            Carrier::Query(name) => format!("The value of the `{name}` query parameter."),
            Carrier::Authorization(scheme) => {
                format!("From the `authorization` header, without the leading `{scheme}`.")
            }
        };
        let text = paragraphs([c.doc.as_deref(), Some(&how)]);
        let docs = doc(&text);
        if universal(api, i) {
            quote! { #docs pub #field: String, }
        } else {
            quote! { #docs pub #field: Option<String>, }
        }
    });
    let common_fields = api.common_headers.iter().map(|h| {
        let field = ident(&h.field);
        let docs = doc(&format!("As received in the `{}` header.", h.header));
        quote! { #docs pub #field: String, }
    });
    let debug_fields = api.credentials.iter().map(|c| {
        let name = &c.field;
        quote! { .field(#name, &"<redacted>") }
    });
    let debug_common = api.common_headers.iter().map(|h| {
        let name = &h.field;
        let field = ident(&h.field);
        quote! { .field(#name, &self.#field) }
    });
    let mut imports = Imports::default();
    imports
        .add("std::fmt")
        .add("std::future::Future")
        .add("axum::http::HeaderMap")
        .add("axum::response::Response")
        .add("crate::{ApiError, ApiResult, ErrorReply}")
        .add("crate::inputs");
    add_reply_imports(api, &mut imports);
    let imports = imports.tokens();
    quote! {
        //! The request context and the trait an implementation fills in.

        #imports

        /// What the generated layer learned about a request before calling the implementation.
        #[derive(Clone)]
        pub struct RequestContext {
            #(#cred_fields)*
            #(#common_fields)*
            /// `x-request-id` of the request, when the caller sent one.
            pub request_id: Option<String>,
            /// Every request header, for anything else an implementation needs.
            pub headers: HeaderMap,
        }

        impl fmt::Debug for RequestContext {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("RequestContext")
                    #(#debug_fields)*
                    #(#debug_common)*
                    .field("request_id", &self.request_id)
                    .finish_non_exhaustive()
            }
        }
    }
}

/// A method of the trait: the operation's docs, what its reply is, and its signature.
fn api_method(api: &Api, op: &Operation) -> TokenStream {
    let status = op.reply.status();
    let reply_note = match &op.reply {
        Reply::Empty { headers: Some(h), .. } => {
            let h = &h.name;
            format!("Answers {status} with no body and the returned [`{h}`](types::{h}) as headers.")
        }
        Reply::Json { headers: Some(h), .. } => {
            let h = &h.name;
            format!("Answers {status} with the returned value as JSON and the returned [`{h}`](types::{h}) as headers.")
        }
        Reply::Empty { .. } => format!("Answers {status} with no body when it returns `Ok(())`."),
        Reply::Json { .. } => format!("Answers {status} with the returned value as JSON."),
        Reply::Download { also, .. } if also.is_empty() => {
            format!("Answers {status} with the returned file, streamed.")
        }
        Reply::Stream { framing, .. } => {
            let framing = match framing {
                Framing::JsonLines => "JSON Lines",
                Framing::EventStream => "server-sent events",
            };
            format!("Answers {status} with the returned items as {framing}, each sent as the stream yields it.")
        }
        Reply::Download { also, .. } => {
            let also: Vec<String> = also.iter().map(u16::to_string).collect();
            format!(
                "Answers {status} with the returned file, streamed, or {} when the file says so with `FileDownload::with_status`.",
                also.join(" or ")
            )
        }
        Reply::Several(replies) => {
            let ty = &replies.name;
            let list = replies.cases.iter().map(|c| c.status.to_string()).collect::<Vec<_>>().join(", ");
            format!("Answers {list}: the status of the returned [`{ty}`](types::{ty}) variant.")
        }
        Reply::Upgrade { .. } => "Answers 101 Switching Protocols and hands the connection to the returned \
                                  [`Switch`]'s handler once the reply has left."
            .to_string(),
    };
    let input = input_name(op);
    let fields = match (op.params.is_empty(), &op.body) {
        (true, None) => None,
        (false, None) => Some("Its parameters are"),
        (true, Some(_)) => Some("Its request body is"),
        (false, Some(_)) => Some("Its parameters and request body are"),
    };
    let input_note = fields.map_or(String::new(), |fields| {
        format!("{fields} the fields of [`{input}`](inputs::{input}), each documented there.")
    });
    let docs = doc(&format!("{}\n\n{reply_note}", operation_doc(api, op, false, &input_note)));
    let (attributes, signature) = (method_attributes(op), method_signature(api, op));
    quote! { #docs #attributes #signature; }
}

/// `#[deprecated]` and the lint allowance a method of the trait and its partial twin carry.
fn method_attributes(op: &Operation) -> TokenStream {
    let deprecated = op.deprecated.then(|| quote! { #[deprecated] });
    // Named by its operationId, the method takes `&self` all the same, which clippy's naming
    // convention would flag in every implementor's build.
    let naming = (op.fn_name.starts_with("from_") || op.fn_name.starts_with("into_"))
        .then(|| quote! { #[allow(clippy::wrong_self_convention, reason = "the name is the operationId's")] });
    quote! { #deprecated #naming }
}

/// What the reply types of the trait's methods name: `types`, `FileDownload`, `DateTime`.
fn add_reply_imports(api: &Api, imports: &mut Imports) {
    if api.operations.iter().any(|op| match &op.reply {
        _ if op.reply.headers().is_some() => true,
        Reply::Json { ty, .. } | Reply::Stream { item: ty, .. } => names_type(ty),
        Reply::Several { .. } => true,
        Reply::Empty { .. } | Reply::Download { .. } | Reply::Upgrade { .. } => false,
    }) {
        imports.add("crate::types");
    }
    if api.operations.iter().any(|op| matches!(op.reply, Reply::Upgrade { .. })) {
        imports.add("crate::Switch");
    }
    if api.operations.iter().any(|op| matches!(op.reply, Reply::Download { .. })) {
        imports.add("crate::FileDownload");
    }
    if api.operations.iter().any(|op| matches!(op.reply, Reply::Stream { .. })) {
        imports.add("crate::ItemStream");
    }
    let mut uses = Uses::default();
    for op in &api.operations {
        if let Reply::Json { ty, .. } | Reply::Stream { item: ty, .. } = &op.reply {
            uses.add(ty);
        }
    }
    uses.add_to(imports, "crate::DateTime");
}

/// `mock.rs`: [`MockApi`], the trait implemented by handlers set per operation at run time, and
/// `serve_mock`, which serves it through the real router on a loopback port.
pub fn mock_module(api: &Api, trait_name: String) -> Vec<Part<'_>> {
    let ops = &api.operations;
    let named = trait_name.clone();
    vec![
        Part::items(move || mock_head(api, &named)),
        Part::block(
            || quote! { impl MockApi {} },
            Block::Impl,
            ops.len() + 1,
            move |i| match i.checked_sub(1) {
                Some(i) => mock_setters(api, &ops[i]),
                None => mock_constructors(),
            },
        ),
        Part::block(
            move || {
                let name = ident(&trait_name);
                quote! { impl #name for MockApi {} }
            },
            Block::Impl,
            ops.len(),
            move |i| mock_method(api, &ops[i]),
        ),
    ]
}

/// The head of `mock.rs`: docs, imports and the mock, whose handlers the runtime's `MockState` keeps.
fn mock_head(api: &Api, trait_name: &str) -> TokenStream {
    let mut imports = Imports::default();
    imports
        .add("std::future::Future")
        .add("std::sync::Arc")
        .add("crate::api::RequestContext")
        .add("crate::{ApiResult, ServerConfig, inputs}")
        .add("apigen_runtime::codegen::server::mock::MockState")
        .add(&format!("crate::{trait_name}"));
    if api.operations.iter().any(super::samples::has_sample) {
        imports.add("crate::samples");
    }
    add_reply_imports(api, &mut imports);
    let imports = imports.tokens();
    let docs = doc(&format!(
        "A stand-in for the service in tests of code that calls it: [`{trait_name}`] answered by a\n\
         handler or a canned reply set per operation, run behind the real router, so requests are\n\
         validated against the contract. An operation without a handler answers 501 naming it\n\
         ([`MockApi::new`]) or the document's example or a sampled value ([`MockApi::sampled`]),\n\
         and every call is recorded. Start it with [`MockApi::serve`]."
    ));
    quote! {
        //! A mock of the API for tests of code that calls it.

        #imports

        #docs
        #[derive(Default)]
        pub struct MockApi {
            state: MockState,
        }

        impl std::fmt::Debug for MockApi {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("MockApi").field("calls", &self.calls()).finish_non_exhaustive()
            }
        }
    }
}

/// The mock's own methods: its constructors, `serve` and `calls`.
fn mock_constructors() -> TokenStream {
    quote! {
        /// A mock on which every operation answers 501 until given a handler.
        pub fn new() -> Arc<Self> {
            Arc::new(MockApi::default())
        }

        /// A mock on which every operation without a handler answers as the document shows: its
        /// example where that is valid, else a value sampled from the reply's schema (the same
        /// on every run). Operations it cannot answer (a protocol switch, a schema no value
        /// satisfies) answer 501.
        pub fn sampled() -> Arc<Self> {
            Arc::new(MockApi { state: MockState::sampled() })
        }

        /// Serves the mock on an ephemeral port of 127.0.0.1 for as long as the runtime runs,
        /// and returns its base URL, such as `http://127.0.0.1:49152`.
        pub async fn serve(self: &Arc<Self>) -> std::io::Result<String> {
            let router = crate::router_with(self.clone(), ServerConfig::default());
            apigen_runtime::codegen::server::serve::serve_on_loopback(router, crate::errors::UNROUTED).await
        }

        /// The operations called so far, by operationId, in the order they were called.
        pub fn calls(&self) -> Vec<&'static str> {
            self.state.calls()
        }
    }
}

/// The mock's `on_<operation>` and, for a reply that can be given twice, `returns_<operation>`.
fn mock_setters(api: &Api, op: &Operation) -> TokenStream {
    let (bare, id) = (&op.fn_name, &op.id);
    let (on, input, reply) = (format_ident!("on_{bare}"), input_name(op), server_reply_type(api, op));
    let on_doc = doc(&format!("Answers `{id}` with `handler`, replacing any handler set before."));
    // A download, a stream or a switch is consumed as it is sent, so it cannot be answered twice.
    let canned =
        (!matches!(op.reply, Reply::Download { .. } | Reply::Stream { .. } | Reply::Upgrade { .. })).then(|| {
            let returns = format_ident!("returns_{bare}");
            let docs = doc(&format!("Answers every `{id}` request with `reply`."));
            quote! {
                #docs
                pub fn #returns(&self, reply: ApiResult<#reply>) -> &Self {
                    self.#on(move |_, _| std::future::ready(reply.clone()))
                }
            }
        });
    quote! {
        #on_doc
        pub fn #on<F, Fut>(&self, handler: F) -> &Self
        where
            F: Fn(RequestContext, inputs::#input) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = ApiResult<#reply>> + Send + 'static,
        {
            self.state.set(handler);
            self
        }

        #canned
    }
}

/// The mock's method for `op`: its handler, else its sample or 501.
fn mock_method(api: &Api, op: &Operation) -> TokenStream {
    let (signature, id) = (method_signature(api, op), &op.id);
    let sample = match super::samples::has_sample(op) {
        true => {
            let name = ident(&op.fn_name);
            quote! { Some(samples::#name) }
        }
        false => quote! { None },
    };
    quote! {
        #signature {
            self.state.answer(#id, #sample, ctx, input)
        }
    }
}

/// The router's handler of `op`: `handle_<method name>`, a prefix none of the router's own
/// functions (`router`, `context`, `not_found`, ...) has.
fn handler_name(op: &Operation) -> proc_macro2::Ident {
    format_ident!("handle_{}", op.fn_name)
}

/// `Partial<Trait>`: the trait's methods with bodies that answer 501, for implementations that
/// cover some operations (a service built up a few at a time, a fake in tests), and `Partial`,
/// which serves one as the full trait.
fn partial_trait(api: &Api, trait_name: String) -> Vec<Part<'_>> {
    let ops = &api.operations;
    let partial = format!("Partial{trait_name}");
    let partial_doc = format!(
        "[`{trait_name}`] with a default for every method, which answers 501 naming its operation:\n\
         implement the operations you need and serve the rest as not implemented, through\n\
         [`Partial`]. Prefer [`{trait_name}`] for a complete service: there the compiler lists every\n\
         operation still missing, including ones a newer spec adds."
    );
    let wrapper_doc = format!("Serves a [`{partial}`] as a [`{trait_name}`]: `router(Partial(my_service))`.");
    let named = trait_name.clone();
    let default_method = move |op: &Operation| {
        let docs = doc(&format!("[`{named}::{}`]; unless implemented, answers 501 naming `{}`.", op.fn_name, op.id));
        let (attributes, signature, id) = (method_attributes(op), method_signature(api, op), &op.id);
        quote! {
            #docs
            #attributes
            #signature {
                let _ = (ctx, input);
                async { Err(ApiError::not_implemented(#id)) }
            }
        }
    };
    let forward = |op: &Operation| {
        let allow = op.deprecated.then(|| quote! { #[allow(deprecated)] });
        let (signature, name) = (method_signature(api, op), ident(&op.fn_name));
        quote! {
            #allow
            #signature {
                self.0.#name(ctx, input)
            }
        }
    };
    let forwarded = partial.clone();
    vec![
        Part::block(
            move || {
                let (docs, partial) = (doc(&partial_doc), ident(&partial));
                quote! { #docs pub trait #partial: Send + Sync + 'static {} }
            },
            Block::Trait,
            ops.len() + 1,
            move |i| match i.checked_sub(1) {
                Some(i) => default_method(&ops[i]),
                None => error_reply_method(),
            },
        ),
        Part::items(move || {
            let docs = doc(&wrapper_doc);
            quote! {
                #docs
                #[derive(Debug, Clone, Default)]
                pub struct Partial<T>(pub T);
            }
        }),
        Part::block(
            move || {
                let (partial, name) = (ident(&forwarded), ident(&trait_name));
                quote! { impl<T: #partial> #name for Partial<T> {} }
            },
            Block::Impl,
            ops.len() + 1,
            move |i| match ops.get(i) {
                Some(op) => forward(op),
                None => quote! {
                    fn error_reply(&self, error: ApiError, reply: ErrorReply<'_>) -> Response {
                        self.0.error_reply(error, reply)
                    }
                },
            },
        ),
    ]
}

/// The trait's one provided method: how errors are written, overridable in one place.
fn error_reply_method() -> TokenStream {
    quote! {
        /// The reply for an error: an operation's `Err`, or a request the generated layer turned
        /// away (a bad parameter, a missing credential, an unknown path). By default
        /// ([`ErrorReply::render`]) the body the document gives for the status, filled from the
        /// error, else problem details. Override it to write errors another way.
        fn error_reply(&self, error: ApiError, reply: ErrorReply<'_>) -> Response {
            reply.render(error)
        }
    }
}

/// The types crate's `server.rs`: `From<Errors> for ApiError` for every operation's error enum;
/// `None` when no operation documents error replies.
pub fn error_replies(api: &Api, part: TypesCrate<'_>) -> Option<TokenStream> {
    let impls: Vec<TokenStream> = super::split::error_enums(api, part).map(error_into_api_error).collect();
    (!impls.is_empty()).then(|| {
        quote! {
            //! The documented error replies, returned by a server implementation as an `ApiError`.

            use apigen_runtime::codegen::server::reply;
            use apigen_runtime::server::ApiError;

            use crate::types;

            #(#impls)*
        }
    })
}

/// `From<Errors> for ApiError`: each documented error reply with its status and JSON body.
fn error_into_api_error(errors: &ErrorsDef) -> TokenStream {
    let ty = ident(&errors.name);
    let arms = errors.cases.iter().map(|case| {
        let variant = ident(&case.name);
        match case.status {
            ErrorStatus::Exact(status) => {
                let status = Literal::u16_unsuffixed(status);
                quote! { types::#ty::#variant(body) => ApiError::json(reply::error_status(#status), &body), }
            }
            ErrorStatus::Class(_) | ErrorStatus::Default => {
                quote! { types::#ty::#variant(status, body) => ApiError::json(reply::error_status(status), &body), }
            }
        }
    });
    quote! {
        impl From<types::#ty> for ApiError {
            fn from(error: types::#ty) -> Self {
                match error {
                    #(#arms)*
                }
            }
        }
    }
}

/// The head of `inputs.rs` (docs and imports); [`input_struct`] gives one operation's struct.
pub fn inputs_header(api: &Api) -> TokenStream {
    let mut imports = Imports::default();
    add_input_imports(api, &mut imports, false);
    let imports = imports.tokens();
    quote! {
        //! One input struct per operation: its path, query and header parameters and its body.

        #imports
    }
}

/// The input struct of one operation.
pub fn input_struct(api: &Api, op: &Operation) -> TokenStream {
    let docs = doc(&format!(
        "Input of `{} {}` (operation `{}`), validated, with defaults applied.",
        op.method.as_str(),
        op.path,
        op.id
    ));
    let types = quote! { types:: };
    let params = op.params.iter().map(|p| {
        let ty = rust_type(api, &p.ty, &types);
        let ty = if p.required || p.default.is_some() {
            ty
        } else {
            quote! { Option<#ty> }
        };
        // Where the value comes from, its lower bound and its default, in one line.
        let source = match p.location {
            Location::Path => format!("The `{{{}}}` path segment", p.wire),
            Location::Query => format!("The `{}` query parameter", p.wire),
            Location::Header => format!("The `{}` header", p.wire),
            Location::Cookie => format!("The `{}` cookie", p.wire),
        };
        let limits = (!p.constraints.is_empty()).then(|| super::limit_clauses(&p.constraints).join("; "));
        let default = p.default.as_ref().map(|d| format!("`{}` when the request leaves it out", default_text(api, d)));
        let facts: Vec<String> = limits.into_iter().chain(default).collect();
        let source = if facts.is_empty() { format!("{source}.") } else { format!("{source}: {}.", facts.join("; ")) };
        let (docs, name) = (doc(&paragraphs([p.doc.as_deref(), Some(&source)])), ident(&p.name));
        quote! { #docs pub #name: #ty, }
    });
    let body = op.body.as_ref().map(|b| {
        let ty = rust_type(api, &b.ty, &types);
        let ty = if b.required {
            ty
        } else {
            quote! { Option<#ty> }
        };
        let docs = doc(&paragraphs([
            b.doc.as_deref(),
            Some(match (b.encoding, b.required) {
                _ if b.choice.is_some() && b.required => "The body, in whichever media type the request names.",
                _ if b.choice.is_some() => "The body, in whichever media type the request names, when it has one.",
                (BodyEncoding::Json, true) => "The JSON body.",
                (BodyEncoding::Json, false) => "The JSON body, when the request has one.",
                (BodyEncoding::Form, true) => "The form body.",
                (BodyEncoding::Form, false) => "The form body, when the request has one.",
                (BodyEncoding::Binary, true) => "The body's bytes.",
                (BodyEncoding::Binary, false) => "The body's bytes, when the request has a body.",
                (BodyEncoding::Text, true) => "The body's text.",
                (BodyEncoding::Text, false) => "The body's text, when the request has a body.",
                (BodyEncoding::Multipart, true) => "The multipart body.",
                (BodyEncoding::Multipart, false) => "The multipart body, when the request has one.",
            }),
        ]));
        quote! { #docs pub body: #ty, }
    });
    let name = input_name(op);
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct #name { #(#params)* #body }
    }
}

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
    let operations = api.operations.iter().map(|op| {
        let (id, method, path) = (&op.id, op.method.as_str(), routes::route(op));
        quote! { Operation { id: #id, method: #method, path: #path } }
    });
    let operations = quote! {
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
    };
    let validated = validated_types(api);
    let context = context_fn(api);
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
    // Only the first method of a path is a free function; the others are `MethodRouter` methods.
    let verbs: std::collections::BTreeSet<String> = paths
        .iter()
        .map(|(_, ops)| match ops.iter().find(|op| !is_query(op)) {
            Some(first) => first.method.as_str().to_ascii_lowercase(),
            None => "any".to_string(),
        })
        .collect();
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
    let imports = imports.tokens();
    // A segment starting with `:` or `*` is literal text in OpenAPI; axum refuses such routes
    // unless told they are meant.
    let literal = |path: &str| path.split('/').any(|segment| segment.starts_with([':', '*']));
    let literal_colons = api.operations.iter().any(|op| literal(&op.path)).then(|| quote! { .without_v07_checks() });
    // A chain of calls nests once per call when it is parsed and printed: a few thousand routes
    // would overflow the stack. Past one chunk, the routes are added a chunk per statement.
    let routes: Vec<TokenStream> = routes.collect();
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

/// The structs the document closes (`additionalProperties: false`) that a JSON request body can
/// hold, sorted: the server reads those bodies refusing properties such a struct does not name.
fn closed_in_bodies(api: &Api) -> Vec<&str> {
    let bodies = api.operations.iter().filter_map(|op| op.body.as_ref()).flat_map(|b| b.cases());
    let json = bodies.filter(|b| b.encoding == BodyEncoding::Json);
    let found: BTreeSet<&str> = json.flat_map(|body| closed_within(api, &body.ty)).collect();
    found.into_iter().collect()
}

/// The closed structs a value of `ty` can hold, members of its choices included.
fn closed_within<'a>(api: &'a Api, ty: &'a TypeRef) -> BTreeSet<&'a str> {
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
fn context_fn(api: &Api) -> TokenStream {
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

/// The checks for the operation's credentials that [`context_fn`] has not made: 401 unless they are
/// all present or, when the document accepts several sets, unless one set is.
fn credential_checks(api: &Api, op: &Operation) -> TokenStream {
    if op.credential_alternatives.is_empty() {
        let checks = op.credentials.iter().filter(|&&i| !universal(api, i)).map(|&i| {
            let c = &api.credentials[i];
            let (field, missing) = (ident(&c.field), missing_message(c));
            quote! { if ctx.#field.is_none() { return Err(missing_credential(#missing)); } }
        });
        return quote! { #(#checks)* };
    }
    // A set of credentials the context always holds is always present: nothing to check.
    let sets: Vec<Vec<&crate::ir::Credential>> = op
        .credential_alternatives
        .iter()
        .map(|set| set.iter().filter(|&&i| !universal(api, i)).map(|&i| &api.credentials[i]).collect())
        .collect();
    if sets.iter().any(Vec::is_empty) {
        return TokenStream::new();
    }
    let present = sets.iter().map(|set| {
        let fields = set.iter().map(|c| ident(&c.field));
        let all = quote! { #(ctx.#fields.is_some())&&* };
        if set.len() > 1 {
            quote! { (#all) }
        } else {
            all
        }
    });
    let missing = format!("none of the accepted credentials was sent: {}", super::accepted_sets(&sets));
    quote! {
        if !(#(#present)||*) {
            return Err(missing_credential(#missing));
        }
    }
}

/// What a 401 says when credential `c` is absent.
fn missing_message(c: &crate::ir::Credential) -> String {
    match &c.carrier {
        Carrier::Header(header) => format!("the `{header}` header is missing or empty"),
        Carrier::Cookie(name) => format!("the `{name}` cookie is missing or empty"),
        Carrier::Query(name) => format!("the `{name}` query parameter is missing or empty"),
        Carrier::Authorization(scheme) => {
            format!("the `authorization` header is missing or does not start with `{scheme}`")
        }
    }
}

/// The `kind` shown in validation messages for a parameter type.
fn kind(api: &Api, ty: &TypeRef) -> String {
    match ty {
        TypeRef::String => "string".into(),
        TypeRef::Bool => "boolean (`true` or `false`)".into(),
        TypeRef::I32 => "32-bit integer".into(),
        TypeRef::I64 => "integer".into(),
        TypeRef::F32 | TypeRef::F64 => "number".into(),
        TypeRef::Uuid => "UUID".into(),
        TypeRef::DateTime => "ISO 8601 date-time".into(),
        TypeRef::Vec(item) | TypeRef::Nullable(item) => kind(api, item),
        TypeRef::Named(id) => match api.ty(*id) {
            TypeDef::Alias { target, .. } => kind(api, target),
            // Generated enums say what they expected in their own parse errors.
            _ => String::new(),
        },
        TypeRef::Json | TypeRef::Map(_) | TypeRef::BodyChoice(_) => "value".into(),
        TypeRef::Bytes | TypeRef::File => "bytes".into(),
    }
}

/// The checks of a parameter's limits once it has been read into `p_<name>`: its own, naming it
/// by its wire name, and for an object those of its properties, under that name. `None` when
/// its schema states none.
fn param_checks(api: &Api, p: &Param, validated: &BTreeSet<TypeId>) -> Option<TokenStream> {
    let wire = &p.wire;
    let own = (!p.constraints.is_empty()).then(|| {
        let checks = constraint_checks(&p.constraints, &quote! { value }, &CheckedName::Wire(wire), 0);
        quote! {
            let at = "";
            #(#checks)*
        }
    });
    let nested = validate_value(api, &p.ty, quote! { value }, "at", &quote! { problems }, validated);
    let nested = (!nested.is_empty()).then(|| {
        quote! {
            let at = #wire;
            #nested
        }
    });
    if own.is_none() && nested.is_none() {
        return None;
    }
    let var = format_ident!("p_{}", p.name);
    Some(quote! {
        if let Some(value) = &#var {
            let problems = &mut problems;
            #own
            #nested
        }
    })
}

/// The statement that reads parameter `p` into `p_<name>` (an `Option<T>`, `Option<Vec<T>>` for
/// arrays), recording problems, and the checks of its limits.
fn extract_param(api: &Api, op: &Operation, p: &Param, validated: &BTreeSet<TypeId>) -> TokenStream {
    let var = format_ident!("p_{}", p.name);
    let wire = &p.wire;
    let kind = kind(api, &p.ty);
    let (item, list) = match &p.ty {
        TypeRef::Vec(item) => (rust_type(api, item, &quote! { types:: }), true),
        other => (rust_type(api, other, &quote! { types:: }), false),
    };
    let local_type = if list {
        quote! { Option<Vec<#item>> }
    } else {
        quote! { Option<#item> }
    };
    let required = p.required;
    let whole = rust_type(api, &p.ty, &quote! { types:: });
    let value = match p.location {
        Location::Query if p.json && list => quote! { query.json_list::<#item>(#wire, #required, &mut problems) },
        Location::Query if p.json => quote! { query.json::<#whole>(#wire, #required, &mut problems) },
        Location::Header if p.json => {
            quote! { extract::header_json::<#whole>(&parts.headers, #wire, #required, &mut problems) }
        }
        Location::Path if p.json => quote! {
            path.text(#wire).and_then(|text| extract::path_json::<#whole>(text, #wire, &mut problems))
        },
        Location::Cookie if p.json => quote! {
            extract::cookie::<extract::Json<#whole>>(&parts.headers, #wire, "", #required, &mut problems).map(|json| json.0)
        },
        Location::Query if p.object_style.is_some() => {
            let deep = p.object_style == Some(ObjectStyle::Deep);
            let properties = struct_properties(api, &p.ty);
            // A map exploded into the query takes the pairs no other parameter does.
            let others: Vec<&str> = if !deep && properties.is_empty() {
                let credentials = op.credentials.iter().filter_map(|&i| match &api.credentials[i].carrier {
                    Carrier::Query(name) => Some(name.as_str()),
                    _ => None,
                });
                op.params
                    .iter()
                    .filter(|o| o.location == Location::Query && o.wire != p.wire)
                    .map(|o| o.wire.as_str())
                    .chain(credentials)
                    .collect()
            } else {
                Vec::new()
            };
            quote! { query.object::<#item>(#wire, #deep, &[#(#properties),*], &[#(#others),*], #required, &mut problems) }
        }
        Location::Query => {
            let delimiter = if p.explode {
                quote! { None }
            } else {
                let d = p.delimiter;
                quote! { Some(#d) }
            };
            match (list, required) {
                (true, true) => quote! { query.required_list(#wire, #kind, #delimiter, &mut problems) },
                (true, false) => quote! { query.optional_list(#wire, #kind, #delimiter, &mut problems) },
                (false, true) => quote! { query.required(#wire, #kind, &mut problems) },
                (false, false) => quote! { query.optional(#wire, #kind, &mut problems) },
            }
        }
        Location::Header if p.object_style.is_some() => {
            let explode = p.explode;
            quote! { extract::header_object::<#item>(&parts.headers, #wire, #explode, #required, &mut problems) }
        }
        Location::Header if list => {
            quote! { extract::header_list(&parts.headers, #wire, #kind, #required, &mut problems) }
        }
        Location::Header => quote! { extract::header(&parts.headers, #wire, #kind, #required, &mut problems) },
        Location::Cookie => quote! { extract::cookie(&parts.headers, #wire, #kind, #required, &mut problems) },
        Location::Path if p.object_style.is_some() => {
            let explode = p.explode;
            quote! {
                path.text(#wire).and_then(|text| extract::path_object::<#item>(text, #wire, #explode, &mut problems))
            }
        }
        Location::Path if list => {
            let (prefix, separator) = (&p.path_prefix, p.path_separator());
            quote! {
                path.text(#wire).and_then(|text| {
                    extract::path_list::<#item>(text, #prefix, #separator, #wire, #kind, &mut problems)
                })
            }
        }
        Location::Path if !p.path_prefix.is_empty() => {
            let prefix = &p.path_prefix;
            quote! {
                path.text(#wire).and_then(|text| {
                    extract::parse_path_styled::<#item>(text, #prefix, #wire, #kind, &mut problems)
                })
            }
        }
        Location::Path => quote! { path.param(#wire, #kind, &mut problems) },
    };
    let checks = param_checks(api, p, validated);
    quote! {
        let #var: #local_type = #value;
        #checks
    }
}

/// The wire names of a struct's properties (through aliases).
fn struct_properties<'a>(api: &'a Api, ty: &TypeRef) -> Vec<&'a str> {
    match ty {
        TypeRef::Named(id) => match api.ty(*id) {
            TypeDef::Struct(s) => s.fields.iter().map(|f| f.wire.as_str()).collect(),
            TypeDef::Alias { target, .. } => struct_properties(api, target),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The router's handler of `op`: what it reads from the request, how it checks it, the trait
/// call and the reply; [`reply::serve`](apigen_runtime) does the rest (span, panics, error
/// replies).
pub fn handler(api: &Api, op: &Operation, trait_name: &str, validated: &BTreeSet<TypeId>) -> TokenStream {
    let (trait_ident, name, method) = (ident(trait_name), handler_name(op), ident(&op.fn_name));
    let docs = doc(&format!(
        "`{} {}`: extracts and validates, then calls [`{trait_name}::{}`].",
        op.method.as_str(),
        op.path,
        op.fn_name
    ));
    let allow = op.deprecated.then(|| quote! { #[allow(deprecated)] });
    // A `QUERY` handler is its path's fallback (axum routes no such method), so it turns the
    // other methods away itself.
    let query_method = (op.method == crate::ir::Method::Query).then(|| {
        quote! {
            if request.method().as_str() != "QUERY" {
                return method_not_allowed(State(state), request).await;
            }
        }
    });
    // A query the path fixes is part of where the operation is: without it, nothing is here.
    let fixed = &op.fixed_query;
    let fixed = (!fixed.is_empty()).then(|| {
        let pairs = fixed.iter().map(|(name, value)| quote! { (#name, #value) });
        quote! { extract::fixed_query(parts.uri.query(), &[#(#pairs),*])?; }
    });
    let credentials = credential_checks(api, op);
    let validates = !op.params.is_empty() || op.body.is_some();
    let problems = validates.then(|| quote! { let mut problems = Problems::default(); });
    let path = op.params.iter().any(|p| p.location == Location::Path).then(|| path_params(op));
    let query = op.params.iter().any(|p| p.location == Location::Query).then(|| {
        let empty: Vec<&str> = op.params.iter().filter(|p| p.empty_is_absent).map(|p| p.wire.as_str()).collect();
        match empty.as_slice() {
            [] => quote! { let query = QueryParams::parse(parts.uri.query(), &mut problems); },
            _ => quote! {
                let query = QueryParams::parse(parts.uri.query(), &mut problems).empty_is_absent(&[#(#empty),*]);
            },
        }
    });
    let params = op.params.iter().map(|p| extract_param(api, op, p, validated));
    let body = op.body.as_ref().map(|b| read_body(api, b, validated));
    // Required values must be present once `problems` is empty; destructuring proves it.
    let required: Vec<proc_macro2::Ident> = op
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| format_ident!("p_{}", p.name))
        .chain(op.body.iter().filter(|b| b.required).map(|_| format_ident!("body")))
        .collect();
    let unwrap = match required.as_slice() {
        [] => None,
        [one] => Some(quote! { let Some(#one) = #one else { return Err(problems.into_error()) }; }),
        several => Some(quote! {
            let (#(Some(#several)),*) = (#(#several),*) else { return Err(problems.into_error()) };
        }),
    };
    let check = validates.then(|| quote! { problems.check()?; });
    let fields = op.params.iter().map(|p| {
        let (field, var) = (ident(&p.name), format_ident!("p_{}", p.name));
        match (&p.default, p.required) {
            (Some(d), false) => {
                let default = super::default_expr(api, d, &quote! { types:: });
                quote! { #field: #var.unwrap_or(#default) }
            }
            _ => quote! { #field: #var },
        }
    });
    let body_field = op.body.is_some().then(|| quote! { body });
    let input = input_name(op);
    let status = Literal::u16_unsuffixed(op.reply.status());
    let call = quote! { state.api.#method(ctx, input).await? };
    let reply = match &op.reply {
        Reply::Empty { headers: None, .. } => quote! {
            #call;
            Ok(reply::empty(#status))
        },
        Reply::Json { headers: None, .. } => quote! { reply::json(#status, &#call) },
        _ => {
            let write = write_reply(op);
            quote! {
                let value = #call;
                #write
            }
        }
    };
    let body_arg = if op.body.is_some() {
        quote! { body }
    } else {
        quote! { _body }
    };
    let shapes = match op.error_shapes.is_empty() {
        true => quote! { &[] },
        false => {
            let shapes = shapes_name(api, op);
            quote! { errors::#shapes }
        }
    };
    let (id, http_method, template) = (&op.id, op.method.as_str(), &op.path);
    quote! {
        #docs
        #allow
        async fn #name<A: #trait_ident>(State(state): State<Shared<A>>, request: Request) -> Response {
            static ROUTE: Route = Route::new(#id, #http_method, #template, #shapes);
            #query_method
            let work = async |mut parts: Parts, #body_arg: Body| {
                #fixed
                let mut ctx = context(&parts, &state.config)?;
                #credentials
                #problems
                #path
                #query
                #(#params)*
                #body
                #unwrap
                #check
                let input = inputs::#input { #(#fields,)* #body_field };
                ctx.headers = std::mem::take(&mut parts.headers);
                #reply
            };
            reply::serve(&ROUTE, request, work, |error, at| state.api.error_reply(error, at)).await
        }
    }
}

/// The path's parameters, captured by the route and by name: renamed where the route is shared
/// with other names, and split where a segment holds several.
fn path_params(op: &Operation) -> TokenStream {
    let renames = routes::renames(op);
    let renamed = (!renames.is_empty()).then(|| {
        // Captured under the names of the route this path shares.
        let pairs = renames.iter().map(|(routed, own)| quote! { (#routed, #own) });
        quote! { let path_params = extract::renamed(path_params, &[#(#pairs),*]); }
    });
    let splits = routes::splits(&op.path).into_iter().map(|split| {
        // A segment of parameters among literal text, captured whole.
        let (capture, literals, names) = (&split.capture, &split.literals, &split.names);
        quote! {
            let path_params = extract::split_segment(path_params, #capture, &[#(#literals),*], &[#(#names),*])?;
        }
    });
    let splits: Vec<TokenStream> = splits.collect();
    if renamed.is_none() && splits.is_empty() {
        return quote! {
            let raw = extract::raw_path(&mut parts).await?;
            let path = PathParams(raw.iter().collect());
        };
    }
    quote! {
        let raw = extract::raw_path(&mut parts).await?;
        let path_params: Vec<(&str, &str)> = raw.iter().collect();
        #renamed
        #(#splits)*
        let path = PathParams(path_params);
    }
}

/// Statements that read, and check, an operation's body into `body`.
fn read_body(api: &Api, b: &crate::ir::Body, validated: &std::collections::BTreeSet<TypeId>) -> TokenStream {
    let Some(choice) = &b.choice else {
        let mut read = read_expr(api, b, &b.accepted);
        // Sent as XML, the body is read into JSON by its schema, then as JSON.
        if let Some(xml) = &b.xml {
            let (types, index) = (&xml.media_types, Literal::usize_unsuffixed(xml.schema));
            let (ty, required) = (rust_type(api, &b.ty, &quote! { types:: }), b.required);
            read = quote! {
                if extract::names_media_type(&parts.headers, &[#(#types),*]) {
                    extract::xml_body::<#ty>(&parts.headers, body, state.body(), &[#(#types),*], #required, |text| types::read_xml(#index, text), &mut problems).await?
                } else {
                    #read
                }
            };
        }
        let check = validate_value(api, &b.ty, quote! { body }, "at", &quote! { &mut problems }, validated);
        let check = (!check.is_empty()).then(|| quote! { if let Some(body) = &body { let at = "body"; #check } });
        let limits = body_limits(&b.constraints, quote! { value })
            .map(|limits| quote! { if let Some(value) = &body { #limits } });
        return quote! { let body = #read; #check #limits };
    };
    // The case whose media types name the request's; with none, the first, told to accept every
    // case's types, answers as a body of no listed type is answered (415, or absent).
    let name = format_ident!("{}", choice.name);
    let mut branches = Vec::new();
    let (mut checks, mut checked) = (Vec::new(), false);
    for case in &choice.cases {
        let variant = format_ident!("{}", case.name);
        let media: Vec<&String> = case.body.accepted.iter().chain(&case.body.also_form).collect();
        let read = read_expr(api, &case.body, &case.body.accepted);
        branches.push(quote! { if extract::names_media_type(&parts.headers, &[#(#media),*]) { #read.map(types::#name::#variant) } });
        let check = validate_value(api, &case.body.ty, quote! { body }, "at", &quote! { &mut problems }, validated);
        let limits = body_limits(&case.body.constraints, quote! { body });
        let check = quote! { #check #limits };
        checked |= !check.is_empty();
        let bind = if check.is_empty() {
            quote! { _ }
        } else {
            quote! { body }
        };
        checks.push(quote! { types::#name::#variant(#bind) => { #check } });
    }
    let first = &choice.cases[0];
    let variant = format_ident!("{}", first.name);
    let all: Vec<String> =
        choice.cases.iter().flat_map(|c| c.body.accepted.iter().chain(&c.body.also_form)).cloned().collect();
    let fallback = read_expr(api, &first.body, &all);
    let check = checked.then(|| {
        quote! { if let Some(body) = &body { let at = "body"; match body { #(#checks)* } } }
    });
    quote! {
        let body = #(#branches else)* { #fallback.map(types::#name::#variant) };
        #check
    }
}

/// The checks of the limits of a body that is no object, once it has been read (`value`, a
/// reference), naming it `body` (its items `body[0]`); none when its schema states none.
fn body_limits(c: &Constraints, value: TokenStream) -> Option<TokenStream> {
    if c.is_empty() {
        return None;
    }
    let checks = constraint_checks(c, &value, &CheckedName::Wire("body"), 0);
    Some(quote! {
        let (at, problems) = ("", &mut problems);
        #(#checks)*
    })
}

/// The expression that reads a body of one media type, accepting `accepted` (and its forms), as
/// an `Option`.
fn read_expr(api: &Api, b: &crate::ir::Body, accepted: &[String]) -> TokenStream {
    let ty = rust_type(api, &b.ty, &quote! { types:: });
    let closed = (!closed_within(api, &b.ty).is_empty()).then(|| quote! { CLOSED, });
    let read = match b.encoding {
        BodyEncoding::Json if closed.is_some() && b.also_form.is_empty() => quote! { extract::json_body_closed },
        BodyEncoding::Json => quote! { extract::json_body },
        BodyEncoding::Form => quote! { crate::form::form_body },
        BodyEncoding::Binary => quote! { extract::bytes_body },
        BodyEncoding::Text => quote! { extract::text_body },
        BodyEncoding::Multipart => quote! { crate::multipart::multipart_body },
    };
    let required = b.required;
    // A JSON body the document also takes as a form.
    let (read, accepted, forms) = if b.also_form.is_empty() {
        (read, accepted.to_vec(), None)
    } else {
        let forms = &b.also_form;
        let all = accepted.iter().chain(forms).cloned().collect();
        let closed = closed.clone().unwrap_or_else(|| quote! { &[], });
        (quote! { crate::form::json_or_form_body }, all, Some(quote! { &[#(#forms),*], #closed }))
    };
    let closed = closed.filter(|_| b.encoding == BodyEncoding::Json && b.also_form.is_empty());
    // A multipart body's files come beside it, to be moved into its file fields.
    let (file_fields, take_files) = match b.encoding {
        BodyEncoding::Multipart => {
            let (names, moves) = take_files(api, &b.ty);
            // A multipart body without file fields has no files to move.
            let take = if moves.is_empty() {
                quote! { .map(|(body, _)| body) }
            } else {
                quote! { .map(|(mut body, mut files)| { #(#moves)* body }) }
            };
            (Some(quote! { &[#(#names),*], }), Some(take))
        }
        _ => (None, None),
    };
    // Required lists and maps a form or multipart body leaves out when they are empty.
    let empties = matches!(b.encoding, BodyEncoding::Form | BodyEncoding::Multipart) || !b.also_form.is_empty();
    // Required lists and maps a form leaves out when empty, and fields that may be `null` whose
    // type has no text `null` (a form writes `null` there as that text).
    let (empties, nulls) = match empties {
        true => {
            let empty = |f: &Field| {
                f.required
                    && (matches!(&f.ty, TypeRef::Vec(item) if **item != TypeRef::File)
                        || matches!(&f.ty, TypeRef::Map(_)))
            };
            let null = |f: &Field| (f.nullable || f.tristate) && !holds_text(api, &f.ty, 0);
            let (empties, nulls) = (field_names(api, &b.ty, empty), field_names(api, &b.ty, null));
            (Some(quote! { &[#(#empties),*], }), Some(quote! { &[#(#nulls),*], }))
        }
        false => (None, None),
    };
    quote! {
        #read::<#ty>(&parts.headers, body, state.body(), &[#(#accepted),*], #forms #required, #closed #file_fields #empties #nulls &mut problems).await? #take_files
    }
}

/// The wire names of the fields of the struct `ty` names that `keep` keeps (none when `ty` is no
/// struct).
fn field_names<'a>(api: &'a Api, ty: &TypeRef, keep: impl Fn(&Field) -> bool) -> Vec<&'a str> {
    match ty {
        TypeRef::Named(id) => match api.ty(*id) {
            TypeDef::Struct(s) => s.fields.iter().filter(|f| keep(f)).map(|f| f.wire.as_str()).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Whether a value of `ty` may be the text `null`: text, any JSON, or a choice or alias that
/// holds either.
fn holds_text(api: &Api, ty: &TypeRef, depth: usize) -> bool {
    match ty {
        TypeRef::String | TypeRef::Json => true,
        TypeRef::Nullable(inner) => holds_text(api, inner, depth),
        TypeRef::Named(id) if depth < 8 => match api.ty(*id) {
            TypeDef::Alias { target, .. } => holds_text(api, target, depth + 1),
            // A choice holds the text when one of its members does (`"auto"` or an object
            // does not).
            TypeDef::Union(u) => u.variants.iter().any(|v| holds_text(api, &v.ty, depth + 1)),
            TypeDef::StringEnum(e) => e.variants.iter().any(|(_, wire)| wire == "null"),
            _ => false,
        },
        _ => false,
    }
}

/// Statements that turn the implementation's `value` into the reply, for replies other than a
/// plain body or none.
fn write_reply(op: &Operation) -> TokenStream {
    let status = Literal::u16_unsuffixed(op.reply.status());
    match &op.reply {
        Reply::Empty { headers: Some(h), .. } => with_headers(h, &quote! { value }, quote! { reply::empty(#status) }),
        Reply::Json { headers: Some(h), .. } => {
            let reply = with_headers(h, &quote! { headers }, quote! { reply::json(#status, &value)? });
            quote! {
                let (value, headers) = value;
                #reply
            }
        }
        Reply::Empty { .. } => quote! { Ok(reply::empty(#status)) },
        Reply::Json { .. } => quote! { reply::json(#status, &value) },
        Reply::Download { also, .. } => quote! { crate::download::reply(&[#status #(, #also)*], value) },
        Reply::Stream { content_type, framing, .. } => {
            let framing = super::framing_variant(*framing);
            quote! { Ok(crate::stream::reply(#status, #content_type, crate::framing::Framing::#framing, value)) }
        }
        Reply::Several(replies) => several_replies(replies),
        Reply::Upgrade { .. } => quote! { crate::upgrade::reply(&mut parts, value) },
    }
}

/// The reply for each variant of an operation's reply enum.
fn several_replies(replies: &RepliesDef) -> TokenStream {
    let ty = ident(&replies.name);
    let arms = replies.cases.iter().map(|case| {
        let (variant, status) = (ident(&case.name), Literal::u16_unsuffixed(case.status));
        match (&case.body, &case.headers) {
            (Some(_), None) => quote! { types::#ty::#variant(value) => reply::json(#status, &value), },
            (None, None) => quote! { types::#ty::#variant => Ok(reply::empty(#status)), },
            (Some(_), Some(h)) => {
                let reply = with_headers(h, &quote! { headers }, quote! { reply::json(#status, &value)? });
                quote! { types::#ty::#variant(value, headers) => { #reply } }
            }
            (None, Some(h)) => {
                let reply = with_headers(h, &quote! { headers }, quote! { reply::empty(#status) });
                quote! { types::#ty::#variant(headers) => { #reply } }
            }
        }
    });
    quote! { match value { #(#arms)* } }
}

/// The wire names of a multipart body's file fields, and the statements that move the files that
/// came into them.
fn take_files(api: &Api, ty: &TypeRef) -> (Vec<String>, Vec<TokenStream>) {
    super::file_fields(api, ty)
        .map(|f| {
            let (field, wire, required) = (ident(&f.name), f.wire.clone(), f.required && !f.nullable);
            let take = match (f.ty == TypeRef::File, required) {
                (true, true) => quote! { files.one(#wire, true, &mut problems).unwrap_or_default() },
                (true, false) => quote! { files.one(#wire, false, &mut problems) },
                (false, true) => quote! { files.all(#wire) },
                (false, false) => quote! { Some(files.all(#wire)).filter(|all| !all.is_empty()) },
            };
            (wire, quote! { body.#field = #take; })
        })
        .unzip()
}

/// Statements that make `response` (an expression), set each header of the headers struct `s`
/// held in `value` on it, and return it.
fn with_headers(s: &StructDef, value: &TokenStream, response: TokenStream) -> TokenStream {
    let sets = s.fields.iter().map(|f| {
        let (field, wire) = (ident(&f.name), f.wire.to_ascii_lowercase());
        if f.required {
            quote! { reply::header(&mut response, #wire, Some(&#value.#field))?; }
        } else {
            quote! { reply::header(&mut response, #wire, #value.#field.as_ref())?; }
        }
    });
    quote! {
        let mut response = #response;
        #(#sets)*
        Ok(response)
    }
}

/// The name of the static holding an operation's error bodies in `errors.rs`: that of the first
/// operation with the same.
fn shapes_name(api: &Api, op: &Operation) -> proc_macro2::Ident {
    let owner = op.error_shapes_of.map_or(op, |index| &api.operations[index]);
    format_ident!("{}", crate::naming::snake(&owner.type_name).to_ascii_uppercase())
}

/// `errors.rs`: the error bodies the document gives, per operation, and the ones used for
/// requests no operation serves (for each status, the body most operations give).
pub fn errors_module(api: &Api) -> TokenStream {
    let list = |shapes: &[&ErrorShape]| {
        let items = shapes.iter().map(|shape| {
            let statuses = match shape.status {
                ErrorStatus::Exact(code) => {
                    let code = Literal::u16_unsuffixed(code);
                    quote! { Statuses::Exact(#code) }
                }
                ErrorStatus::Class(class) => {
                    let class = Literal::u16_unsuffixed(class);
                    quote! { Statuses::Class(#class) }
                }
                ErrorStatus::Default => quote! { Statuses::Default },
            };
            let (content_type, template) = (&shape.content_type, &shape.template);
            let fills = shape.fills.iter().map(|(pointer, fill)| {
                let fill = match fill {
                    Fill::Detail => quote! { Fill::Detail },
                    Fill::Title => quote! { Fill::Title },
                    Fill::Status => quote! { Fill::Status },
                    Fill::StatusText => quote! { Fill::StatusText },
                    Fill::Code => quote! { Fill::Code },
                    Fill::Type => quote! { Fill::Type },
                    Fill::Instance => quote! { Fill::Instance },
                    Fill::Errors(ErrorList::Strings) => quote! { Fill::Errors(ErrorList::Strings) },
                    Fill::Errors(ErrorList::Map) => quote! { Fill::Errors(ErrorList::Map) },
                    Fill::Errors(ErrorList::MapOfLists) => quote! { Fill::Errors(ErrorList::MapOfLists) },
                    Fill::Errors(ErrorList::Objects { name, message }) => {
                        quote! { Fill::Errors(ErrorList::Objects { name: #name, message: #message }) }
                    }
                    Fill::Errors(ErrorList::Messages { message }) => {
                        quote! { Fill::Errors(ErrorList::Messages { message: #message }) }
                    }
                };
                quote! { (#pointer, #fill) }
            });
            quote! {
                ErrorShape {
                    statuses: #statuses,
                    content_type: #content_type,
                    template: #template,
                    fills: &[#(#fills),*],
                }
            }
        });
        quote! { &[#(#items),*] }
    };
    let mut sharing = vec![0usize; api.operations.len()];
    api.operations.iter().filter_map(|op| op.error_shapes_of).for_each(|owner| sharing[owner] += 1);
    let owners = api.operations.iter().zip(sharing);
    let owners = owners.filter(|(op, _)| !op.error_shapes.is_empty() && op.error_shapes_of.is_none());
    let per_operation = owners.map(|(op, sharing)| {
        let name = shapes_name(api, op);
        let docs = doc(&match sharing {
            0 => format!("`{} {}`.", op.method.as_str(), op.path),
            n => format!("`{} {}`, and {n} more operations that document the same.", op.method.as_str(), op.path),
        });
        let shapes = list(&op.error_shapes.iter().collect::<Vec<_>>());
        quote! { #docs pub(crate) static #name: &[ErrorShape] = #shapes; }
    });
    // For each status, the body most operations give it (the first such in document order).
    let mut counts: Vec<(&ErrorShape, usize)> = Vec::new();
    for shape in api.operations.iter().flat_map(|op| &op.error_shapes) {
        match counts.iter_mut().find(|(seen, _)| *seen == shape) {
            Some((_, n)) => *n += 1,
            None => counts.push((shape, 1)),
        }
    }
    let mut unrouted: Vec<&ErrorShape> = Vec::new();
    for &(shape, n) in &counts {
        let best = counts.iter().filter(|(s, _)| s.status == shape.status).map(|(_, n)| *n).max();
        if best == Some(n) && !unrouted.iter().any(|s| s.status == shape.status) {
            unrouted.push(shape);
        }
    }
    unrouted.sort_by_key(|s| s.status);
    let unrouted = list(&unrouted);
    let shapes = || api.operations.iter().flat_map(|op| &op.error_shapes);
    let used = |name: &str| match name {
        "ErrorList" => shapes().flat_map(|s| &s.fills).any(|(_, f)| matches!(f, Fill::Errors(_))),
        "Fill" => shapes().any(|s| !s.fills.is_empty()),
        "Statuses" => shapes().next().is_some(),
        _ => true,
    };
    let imports: Vec<proc_macro2::Ident> =
        ["ErrorList", "ErrorShape", "Fill", "Statuses"].into_iter().filter(|n| used(n)).map(ident).collect();
    quote! {
        //! The error bodies the document gives, in which the server writes its own rejections and
        //! an implementation's errors ([`ErrorReply::render`](crate::ErrorReply::render)).

        use apigen_runtime::server::{#(#imports),*};

        #(#per_operation)*

        /// Requests no operation serves (an unknown path, a method a path does not serve).
        pub(crate) static UNROUTED: &[ErrorShape] = #unrouted;
    }
}

/// `lib.rs` of the server crate.
/// The server crate's copy of the document, beside its `lib.rs`: `openapi.json` or `openapi.yaml`.
pub fn document_file(document: &crate::ir::Document) -> &'static str {
    if document.media_type == "application/json" { "openapi.json" } else { "openapi.yaml" }
}

/// The path of the document's (first) server URL, such as `/v1` of `https://{region}.example.com/v1`,
/// with the URL; nothing for a URL without one or one whose path is a variable.
fn base_path(api: &Api) -> Option<(String, &str)> {
    let url = api.default_base_url.as_deref()?;
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = match url.contains("://") {
        true => after_scheme.find('/').map_or("", |at| &after_scheme[at..]),
        false => after_scheme,
    };
    let path = path.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
    let plain = path.starts_with('/') && !path.contains(['{', '}', ' ']);
    plain.then(|| (path.to_string(), url))
}

pub fn lib_module(api: &Api, trait_name: &str, crate_ident: &str, types: &super::split::Reexport) -> TokenStream {
    let types = types.tokens();
    let trait_ident = ident(trait_name);
    let partial_ident = format_ident!("Partial{trait_name}");
    let crate_doc = inner_doc(&format!(
        "The server side of {} (API version `{}`), on axum.\n\n\
         Implement [`{trait_name}`]: one method per operation, each receiving a [`RequestContext`]\n\
         and its operation's input, already validated, with defaults applied. Serve it with\n\
         [`router`]. Requests are checked in this order: credentials (401), the API version\n\
         header (400), then parameters and body (400, 413, 415); only a valid request reaches the\n\
         implementation. Error replies take the body the document gives for their status, else\n\
         `application/problem+json` (see `error_reply` on the trait); a panic inside an\n\
         implementation becomes a 500 reply.",
        api.title, api.version
    ));
    let has_downloads = api.operations.iter().any(|op| matches!(op.reply, Reply::Download { .. }));
    let download_use = has_downloads.then(|| quote! { FileDownload, });
    let stream_use =
        api.operations.iter().any(|op| matches!(op.reply, Reply::Stream { .. })).then(|| quote! { ItemStream, });
    let upgrade_use =
        api.operations.iter().any(|op| matches!(op.reply, Reply::Upgrade { .. })).then(|| quote! { Switch, Upgraded, });
    let file_use = super::facts::mentions_files(api).then(|| quote! { File, });
    let nullable_use = super::facts::has_tristate(api).then(|| quote! { Nullable, });
    let example = super::example_inner_doc(&format!(
        "# Example\n\n```no_run\nuse {crate_ident}::{{router, {trait_name}}};\n\n# async fn serve(api: impl {trait_name}) -> std::io::Result<()> {{\nlet listener = tokio::net::TcpListener::bind(\"127.0.0.1:8080\").await?;\n{crate_ident}::serve(listener, router(api), {crate_ident}::shutdown_signal()).await\n# }}\n```"
    ));
    let _ = &trait_ident;
    let base_path = base_path(api).map(|(path, url)| {
        let doc = super::doc(&format!(
            "The path of the document's server URL (`{url}`). The router serves the operations at the \
             paths the document gives them; `ServerConfig::default().with_base_path(BASE_PATH)` serves \
             them under this one, as the document describes them."
        ));
        quote! {
            #doc
            pub const BASE_PATH: &str = #path;
        }
    });
    let document = api.document.as_ref().map(|document| {
        let file = document_file(document);
        let media_type = document.media_type;
        quote! {
            /// The OpenAPI document this crate was generated from (feature `document`), which the
            /// router serves at [`ServerConfig::document_route`] when one is set.
            #[cfg(feature = "document")]
            pub const DOCUMENT: &str = include_str!(#file);
            /// The media type of [`DOCUMENT`].
            #[cfg(feature = "document")]
            pub const DOCUMENT_MEDIA_TYPE: &str = #media_type;
        }
    });
    quote! {
        #crate_doc
        #example
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]

        mod api;
        mod errors;
        mod mock;
        mod samples;
        pub mod inputs;
        mod router;

        // The runtime's modules, under the names the generated code calls them by.
        #[allow(unused_imports, reason = "each spec calls some of them")]
        use apigen_runtime::codegen::server::{download, extract, form, multipart, problem, reply, stream, upgrade};
        #[allow(unused_imports, reason = "each spec calls some of them")]
        use apigen_runtime::codegen::{enums, framing};

        pub use api::{Partial, RequestContext, #trait_ident, #partial_ident};
        pub use mock::MockApi;
        pub use apigen_runtime::server::{
            #download_use #stream_use #upgrade_use ApiError, ApiResult, ErrorReply, Operation, ServeConfig, ServerConfig, bind, problem_types, shutdown_signal,
        };
        pub use apigen_runtime::{DateTime, DateTimeError, #file_use #nullable_use UnknownVariant};
        pub use router::{OPERATIONS, operation_of, router, router_with};
        #types

        /// The `time` crate, whose `OffsetDateTime`, `PrimitiveDateTime` and `Date` convert to and
        /// from [`DateTime`] (feature `time`). Its macros (`date!`, `datetime!`) name `::time` in
        /// what they expand to, so they need `time` (0.3) as a direct dependency of the crate
        /// that uses them.
        #[cfg(feature = "time")]
        pub use apigen_runtime::time;
        pub use axum;
        pub use uuid;

        #base_path
        #document

        /// Serves `router` on `listener` with the default [`ServeConfig`] until `shutdown`
        /// completes; see [`serve_with`].
        pub async fn serve(
            listener: apigen_runtime::codegen::server::TcpListener,
            router: axum::Router,
            shutdown: impl std::future::Future<Output = ()> + Send + 'static,
        ) -> std::io::Result<()> {
            serve_with(listener, router, shutdown, ServeConfig::default()).await
        }

        /// Serves `router` on `listener` until `shutdown` completes, then lets the requests in
        /// flight finish for up to [`ServeConfig::grace_period`]. A request too large or too
        /// malformed to reach the router is answered in the document's error body for requests
        /// no operation serves.
        pub async fn serve_with(
            listener: apigen_runtime::codegen::server::TcpListener,
            router: axum::Router,
            shutdown: impl std::future::Future<Output = ()> + Send + 'static,
            config: ServeConfig,
        ) -> std::io::Result<()> {
            let config = config.with_unrouted(errors::UNROUTED);
            apigen_runtime::server::serve_with(listener, router, shutdown, config).await
        }
    }
}

/// Statements that validate `value` (an expression of type `&ty`) found at the path held in the
/// variable `at` (a `&str` or `String`); nested arrays and maps get numbered variables.
fn validate_value(
    api: &Api,
    ty: &TypeRef,
    value: TokenStream,
    at: &str,
    problems: &TokenStream,
    validated: &std::collections::BTreeSet<TypeId>,
) -> TokenStream {
    if !holds_validated(api, ty, validated) {
        return TokenStream::new();
    }
    let depth = at.trim_start_matches(|c: char| !c.is_ascii_digit()).parse::<usize>().map_or(1, |d| d + 1);
    let at_ident = format_ident!("{}", at);
    let (item, key, next) = (format_ident!("item{depth}"), format_ident!("key{depth}"), format!("at{depth}"));
    let next_ident = format_ident!("{}", next);
    match ty {
        TypeRef::Named(id) => match api.ty(*id) {
            // Any JSON value, checked against the document's schema for it.
            TypeDef::Alias { check: Some(index), .. } => {
                let at = if at == "at" {
                    quote! { at }
                } else {
                    quote! { &#at_ident }
                };
                let index = Literal::usize_unsuffixed(*index);
                quote! { types::check_schema(#index, #value, #at, #problems); }
            }
            TypeDef::Alias { target, .. } => validate_value(api, target, value, at, problems, validated),
            // `at` itself is a `&str`; the numbered paths are `String`s.
            _ if at == "at" => quote! { #value.validate(at, #problems); },
            _ => quote! { #value.validate(&#at_ident, #problems); },
        },
        TypeRef::Vec(inner) => {
            let inner = validate_value(api, inner, quote! { #item }, &next, problems, validated);
            let path = format!("{{{at}}}[{{{key}}}]");
            quote! { for (#key, #item) in #value.iter().enumerate() { let #next_ident = format!(#path); #inner } }
        }
        TypeRef::Map(inner) => {
            let inner = validate_value(api, inner, quote! { #item }, &next, problems, validated);
            let path = format!("{{{at}}}.{{{key}}}");
            quote! { for (#key, #item) in #value { let #next_ident = format!(#path); #inner } }
        }
        TypeRef::Nullable(inner) => {
            let some = format_ident!("some{depth}");
            let inner = validate_value(api, inner, quote! { #some }, at, problems, validated);
            quote! { if let Some(#some) = #value { #inner } }
        }
        _ => TokenStream::new(),
    }
}

/// How a checked value is named under `at`: a property by its wire name, or an array item by
/// the variable holding its name (`tags[2]`).
enum CheckedName<'a> {
    Wire(&'a str),
    Var(proc_macro2::Ident),
    /// The value at `at` itself (a union's member).
    Here,
}

impl CheckedName<'_> {
    /// The `format!` template naming an entry of this map by the variable `key` holds it in:
    /// `labels.{key0}`.
    fn entry(&self, key: &proc_macro2::Ident) -> String {
        match self {
            CheckedName::Wire(wire) => format!("{}.{{{key}}}", super::format_literal(wire)),
            CheckedName::Var(var) => format!("{{{var}}}.{{{key}}}"),
            CheckedName::Here => format!("{{{key}}}"),
        }
    }
}

/// Statements that check `value` (a reference) against `c`, naming it `name` under `at`; `depth`
/// numbers the variables of nested array items.
fn constraint_checks(c: &Constraints, value: &TokenStream, checked: &CheckedName, depth: usize) -> Vec<TokenStream> {
    let name = match checked {
        CheckedName::Wire(wire) => quote! { #wire },
        CheckedName::Var(var) => quote! { &#var },
        CheckedName::Here => quote! { "" },
    };
    let opt_usize = |v: Option<usize>| match v {
        Some(v) => {
            let v = Literal::usize_unsuffixed(v);
            quote! { Some(#v) }
        }
        None => quote! { None },
    };
    let opt_f64 = |v: Option<f64>| match v {
        Some(v) => {
            let v = Literal::f64_unsuffixed(v);
            quote! { Some(#v) }
        }
        None => quote! { None },
    };
    if c.nullable {
        let some = format_ident!("some{depth}");
        let inner = constraint_checks(&Constraints { nullable: false, ..c.clone() }, &quote! { #some }, checked, depth);
        return vec![quote! { if let Some(#some) = #value { #(#inner)* } }];
    }
    let mut body = Vec::new();
    if c.min_length.is_some() || c.max_length.is_some() {
        let (min, max) = (opt_usize(c.min_length), opt_usize(c.max_length));
        body.push(quote! { check_length(#value, #min, #max, at, #name, problems); });
    }
    if let Some(pattern) = &c.pattern {
        let matcher = crate::sample::pattern::for_rust(pattern);
        let matcher = matcher.as_ref();
        // Compiled once, on first use; the generator has already checked that it compiles.
        let lazy = match matcher == pattern.as_str() {
            true => quote! { LazyPattern::new(#pattern) },
            false => quote! { LazyPattern::spelled(#matcher, #pattern) },
        };
        body.push(quote! {
            static PATTERN: LazyPattern = #lazy;
            check_pattern(#value, &PATTERN, at, #name, problems);
        });
    }
    if let Some(format) = c.format {
        // The runtime's variants are named as `Debug` prints them.
        let variant = format_ident!("{format:?}");
        body.push(quote! { check_format(#value, Format::#variant, at, #name, problems); });
    }
    if c.min_items.is_some() || c.max_items.is_some() {
        let (min, max) = (opt_usize(c.min_items), opt_usize(c.max_items));
        body.push(quote! { check_items(#value.len(), #min, #max, at, #name, problems); });
    }
    if c.unique_items {
        body.push(quote! { check_unique(#value, at, #name, problems); });
    }
    if c.min_properties.is_some() || c.max_properties.is_some() {
        let (min, max) = (opt_usize(c.min_properties), opt_usize(c.max_properties));
        body.push(quote! { check_properties(#value.len(), #min, #max, at, #name, problems); });
    }
    // Inclusive bounds, then exclusive ones.
    let inclusive = |bound: Option<f64>, exclusive: bool| bound.filter(|_| !exclusive);
    let exclusive = |bound: Option<f64>, exclusive: bool| bound.filter(|_| exclusive);
    let (min, max) = (inclusive(c.minimum, c.exclusive_minimum), inclusive(c.maximum, c.exclusive_maximum));
    if min.is_some() || max.is_some() {
        let (min, max) = (opt_f64(min), opt_f64(max));
        body.push(quote! { check_bounds(*#value as f64, #min, #max, at, #name, problems); });
    }
    let (min, max) = (exclusive(c.minimum, c.exclusive_minimum), exclusive(c.maximum, c.exclusive_maximum));
    if min.is_some() || max.is_some() {
        let (min, max) = (opt_f64(min), opt_f64(max));
        body.push(quote! { check_strict_bounds(*#value as f64, #min, #max, at, #name, problems); });
    }
    if let Some(step) = c.multiple_of {
        let step = Literal::f64_unsuffixed(step);
        body.push(quote! { check_multiple_of(*#value as f64, #step, at, #name, problems); });
    }
    for index in &c.choices {
        let index = Literal::usize_unsuffixed(*index);
        body.push(quote! { types::check_value(#index, #value, at, #name, problems); });
    }
    if let Some(items) = &c.items {
        let (item, index, item_name) =
            (format_ident!("item{depth}"), format_ident!("index{depth}"), format_ident!("name{depth}"));
        let template = match checked {
            CheckedName::Wire(wire) => format!("{}[{{{index}}}]", super::format_literal(wire)),
            CheckedName::Var(var) => format!("{{{var}}}[{{{index}}}]"),
            CheckedName::Here => format!("[{{{index}}}]"),
        };
        let inner = constraint_checks(items, &quote! { #item }, &CheckedName::Var(item_name.clone()), depth + 1);
        body.push(quote! {
            for (#index, #item) in #value.iter().enumerate() {
                let #item_name = format!(#template);
                #(#inner)*
            }
        });
    }
    if let Some(keys) = &c.keys {
        let (key, key_name) = (format_ident!("key{depth}"), format_ident!("name{depth}"));
        let template = checked.entry(&key);
        let inner = constraint_checks(keys, &quote! { #key }, &CheckedName::Var(key_name.clone()), depth + 1);
        body.push(quote! {
            for #key in #value.keys() {
                let #key_name = format!(#template);
                #(#inner)*
            }
        });
    }
    if let Some(values) = &c.values {
        let (entry, key, entry_name) =
            (format_ident!("value{depth}"), format_ident!("key{depth}"), format_ident!("name{depth}"));
        let template = checked.entry(&key);
        let inner = constraint_checks(values, &quote! { #entry }, &CheckedName::Var(entry_name.clone()), depth + 1);
        body.push(quote! {
            for (#key, #entry) in #value {
                let #entry_name = format!(#template);
                #(#inner)*
            }
        });
    }
    body
}

/// The head of `validate.rs` (docs and imports); [`validate_item`] gives its `Validate` impls, one
/// per struct or union with limits. The module is written only when there is one.
pub fn validate_header(api: &Api) -> TokenStream {
    // The checks the project spec needs are always imported, so its module stays as it was.
    let used = |f: &dyn Fn(&Constraints) -> bool| {
        api.types.iter().any(|t| match t {
            TypeDef::Struct(s) => s.fields.iter().any(|field| field.constraints.any(f)),
            TypeDef::Union(u) => u.variants.iter().any(|v| v.constraints.any(f)),
            _ => false,
        })
    };
    let pattern_import = used(&|c| c.pattern.is_some()).then(|| {
        quote! {
            use apigen_runtime::codegen::pattern::LazyPattern;
        }
    });
    let more = [
        ("check_pattern", used(&|c| c.pattern.is_some())),
        ("check_format", used(&|c| c.format.is_some())),
        ("Format", used(&|c| c.format.is_some())),
        ("check_unique", used(&|c| c.unique_items)),
        ("check_properties", used(&|c| c.min_properties.is_some() || c.max_properties.is_some())),
        ("check_strict_bounds", used(&|c| c.exclusive_minimum || c.exclusive_maximum)),
        ("check_multiple_of", used(&|c| c.multiple_of.is_some())),
        ("check_present", used(&|c| c.required_in_requests)),
    ];
    let more: Vec<proc_macro2::Ident> =
        more.iter().filter(|(_, used)| *used).map(|(name, _)| format_ident!("{name}")).collect();
    let more_checks = (!more.is_empty()).then(|| quote! { use crate::extract::{#(#more),*}; });
    quote! {
        //! Limits of request bodies that serde does not check: string lengths, array sizes and
        //! numeric bounds, with the path of every value that breaks one.

        #![allow(unused_imports, reason = "each spec uses some of the checks")]
        #![allow(clippy::unnecessary_cast, reason = "numbers of every width are checked as f64")]

        #pattern_import
        use crate::extract::{Problems, Validate, check_bounds, check_items, check_length};
        #more_checks
        use crate::types;
    }
}

/// The types `validate.rs` has an impl for: the validated structs, then the validated unions,
/// each in the spec's order.
pub fn validate_items<'a>(
    api: &'a Api,
    validated: &std::collections::BTreeSet<TypeId>,
    part: TypesCrate<'_>,
) -> Vec<&'a TypeDef> {
    let features = |id: TypeId| api.tag_features.as_ref().map_or(&[][..], |tags| tags.of_type(id));
    let wanted =
        || api.types_with_ids().filter(|(id, _)| validated.contains(id) && part.holds(features(*id))).map(|(_, t)| t);
    let structs = wanted().filter(|t| matches!(t, TypeDef::Struct(_)));
    let unions = wanted().filter(|t| matches!(t, TypeDef::Union(_)));
    structs.chain(unions).collect()
}

/// `impl Validate` for one of [`validate_items`].
pub fn validate_item(api: &Api, validated: &std::collections::BTreeSet<TypeId>, t: &TypeDef) -> TokenStream {
    match t {
        // A union's value is checked as the member it holds.
        TypeDef::Union(u) => {
            let name = ident(&u.name);
            let arms = u.variants.iter().map(|v| {
                let variant = ident(&v.name);
                let own = constraint_checks(&v.constraints, &quote! { value }, &CheckedName::Here, 0);
                let nested = validate_value(api, &v.ty, quote! { value }, "at", &quote! { problems }, validated);
                let checks = quote! { #(#own)* #nested };
                let binding = if checks.is_empty() {
                    quote! { _ }
                } else {
                    quote! { value }
                };
                quote! { types::#name::#variant(#binding) => { #checks } }
            });
            quote! {
                impl Validate for types::#name {
                    fn validate(&self, at: &str, problems: &mut Problems) {
                        match self {
                            #(#arms)*
                        }
                    }
                }
            }
        }
        TypeDef::Struct(s) => {
            let name = ident(&s.name);
            let checks = s.fields.iter().filter_map(|f| {
                let field = ident(&f.name);
                let wire = &f.wire;
                let body = constraint_checks(&f.constraints, &quote! { value }, &CheckedName::Wire(wire), 0);
                let nested = validate_value(api, &f.ty, quote! { value }, "at0", &quote! { problems }, validated);
                let nested = (!nested.is_empty()).then(|| {
                    let path = format!("{{at}}.{}", super::format_literal(wire));
                    quote! { let at0 = format!(#path); #nested }
                });
                // A write-only property the document requires must come in a request.
                let present = f.constraints.required_in_requests.then(|| {
                    let is_some = if f.tristate {
                        quote! { !self.#field.is_absent() }
                    } else {
                        quote! { self.#field.is_some() }
                    };
                    quote! { check_present(#is_some, at, #wire, problems); }
                });
                let body: Vec<TokenStream> = body.into_iter().filter(|b| !b.is_empty()).collect();
                if body.is_empty() && nested.is_none() {
                    return present;
                }
                let optional = !f.required || f.nullable;
                Some(if f.tristate {
                    quote! { #present if let Some(value) = self.#field.value() { #(#body)* #nested } }
                } else if optional {
                    quote! { #present if let Some(value) = &self.#field { #(#body)* #nested } }
                } else {
                    quote! { { let value = &self.#field; #(#body)* #nested } }
                })
            });
            quote! {
                impl Validate for types::#name {
                    fn validate(&self, at: &str, problems: &mut Problems) {
                        #(#checks)*
                    }
                }
            }
        }
        _ => TokenStream::new(),
    }
}

/// Whether a parameter has a pattern for the router to check: the server crate then needs the
/// runtime's patterns itself.
pub fn has_param_patterns(api: &Api) -> bool {
    router_limits(api).any(|c| c.any(&|c| c.pattern.is_some()))
}

/// The limits the router checks: each parameter's, and those of bodies that are no object.
fn router_limits(api: &Api) -> impl Iterator<Item = &Constraints> {
    let params = api.operations.iter().flat_map(|op| &op.params).map(|p| &p.constraints);
    let bodies = api.operations.iter().flat_map(|op| op.body.iter().flat_map(|b| b.cases())).map(|b| &b.constraints);
    params.chain(bodies)
}

/// Whether the server crate needs regular expressions: a property with a `pattern`.
pub fn has_patterns(api: &Api) -> bool {
    api.types.iter().any(|t| match t {
        TypeDef::Struct(s) => s.fields.iter().any(|f| f.constraints.any(&|c| c.pattern.is_some())),
        TypeDef::Union(u) => u.variants.iter().any(|v| v.constraints.any(&|c| c.pattern.is_some())),
        _ => false,
    })
}
