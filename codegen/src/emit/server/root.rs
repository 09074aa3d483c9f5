//! The server crate's `lib.rs`: its docs, modules and re-exports, and the document it serves.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::emit::{ident, inner_doc};
use crate::ir::{Api, Reply};

/// `lib.rs` of the server crate.
/// The server crate's copy of the document, beside its `lib.rs`: `openapi.json` or `openapi.yaml`.
pub fn document_file(document: &crate::ir::Document) -> &'static str {
    if document.media_type == "application/json" { "openapi.json" } else { "openapi.yaml" }
}

/// The path of the document's (first) server URL, such as `/v1` of `https://{region}.example.com/v1`,
/// with the URL; nothing for a URL without one or one whose path is a variable.
pub(super) fn base_path(api: &Api) -> Option<(String, &str)> {
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

pub fn lib_module(api: &Api, trait_name: &str, crate_ident: &str, types: &crate::emit::split::Reexport) -> TokenStream {
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
    let file_use = crate::emit::facts::mentions_files(api).then(|| quote! { File, });
    let nullable_use = crate::emit::facts::has_tristate(api).then(|| quote! { Nullable, });
    let example = crate::emit::example_inner_doc(&format!(
        "# Example\n\n```no_run\nuse {crate_ident}::{{router, {trait_name}}};\n\n# async fn serve(api: impl {trait_name}) -> std::io::Result<()> {{\nlet listener = tokio::net::TcpListener::bind(\"127.0.0.1:8080\").await?;\n{crate_ident}::serve(listener, router(api), {crate_ident}::shutdown_signal()).await\n# }}\n```"
    ));
    let _ = &trait_ident;
    let base_path = base_path(api).map(|(path, url)| {
        let doc = crate::emit::doc(&format!(
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
