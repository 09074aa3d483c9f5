//! `api.rs`: the request context, the trait with one method per operation, and its partial twin
//! with a default (501) for every method.

use proc_macro2::TokenStream;
use quote::quote;

use super::{input_name, method_signature, universal};

use crate::emit::{Imports, Uses, doc, ident, names_type, operation_doc, paragraphs};
use crate::ir::{Api, Carrier, Framing, Operation, Reply};
use crate::render::{Block, Part};

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
pub(super) fn add_reply_imports(api: &Api, imports: &mut Imports) {
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
