//! The client crate's `lib.rs`: its docs with an example, modules and re-exports.

use proc_macro2::TokenStream;
use quote::quote;

use super::required_params;

use crate::emit::{example_inner_doc, inner_doc, rust_string};
use crate::ir::{Api, Operation, Reply, TypeRef};

/// `lib.rs` of the client crate.
pub fn lib_module(api: &Api, crate_ident: &str, types: &crate::emit::split::Reexport) -> TokenStream {
    let types = types.tokens();
    let title = &api.title;
    let first = api.operations.first();
    let crate_doc = format!(
        "A typed async client for {title} (API version `{}`), on reqwest.\n\n\
         Build one [`Client`] from a base URL and [`Credentials`], then call one method per\n\
         operation. Required parameters are arguments; optional ones are set on the returned\n\
         builder, which runs when awaited. Every failure is an [`Error`].",
        api.version
    );
    let crate_doc = inner_doc(&crate_doc);
    let has_downloads = api.operations.iter().any(|op| matches!(op.reply, Reply::Download { .. }));
    let download_use = has_downloads.then(|| quote! { ByteStream, Download, });
    let stream_use =
        api.operations.iter().any(|op| matches!(op.reply, Reply::Stream { .. })).then(|| quote! { ItemStream, });
    let upgrade_use =
        api.operations.iter().any(|op| matches!(op.reply, Reply::Upgrade { .. })).then(|| quote! { Upgraded, });
    let paging_use = api.operations.iter().any(|op| op.paging.is_some()).then(|| quote! { Items, });
    let file_use = crate::emit::facts::mentions_files(api).then(|| quote! { File, });
    let nullable_use = crate::emit::facts::has_tristate(api).then(|| quote! { Nullable, });
    let description = api.description.as_deref().map(inner_doc);
    let example = first.map(|op| example_doc(api, op, crate_ident));
    let (tags_attr, tags_doc) = crate::emit::tag_features_note(api).map(|(a, d)| (a, inner_doc(&d))).unzip();
    quote! {
        #crate_doc
        #description
        #example
        #tags_doc
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]
        #tags_attr

        pub mod builders;
        mod client;

        // The runtime's modules, under the names the generated code calls them by.
        #[allow(unused_imports, reason = "each spec calls some of them")]
        use apigen_runtime::codegen::client::{download, encoding, multipart, operation, paging, policy, stream, transport, upgrade};
        #[allow(unused_imports, reason = "each spec calls some of them")]
        use apigen_runtime::codegen::{enums, framing};

        pub use client::*;
        #types
        pub use apigen_runtime::client::{
            #download_use #paging_use #stream_use #upgrade_use
            DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_ERROR_BODY, DEFAULT_MAX_PAGES, DEFAULT_MAX_REPLY_SIZE,
            DEFAULT_MIN_DOWNLOAD_RATE, DEFAULT_READ_TIMEOUT, DEFAULT_TIMEOUT, DOWNLOAD_RATE_WINDOW,
            BoxError, CredentialsProvider, Error, Hooks, ProblemDetails, RetryPolicy, Sending, StatusError, TimeoutKind,
        };
        pub use apigen_runtime::{DateTime, DateTimeError, #file_use #nullable_use UnknownVariant};

        pub use reqwest;
        /// The `time` crate, whose `OffsetDateTime`, `PrimitiveDateTime` and `Date` convert to and
        /// from [`DateTime`] (feature `time`). Its macros (`date!`, `datetime!`) name `::time` in
        /// what they expand to, so they need `time` (0.3) as a direct dependency of the crate
        /// that uses them.
        #[cfg(feature = "time")]
        pub use apigen_runtime::time;
        pub use uuid;
    }
}

/// A crate-level example calling the first operation that takes no body, compiled as a doctest.
fn example_doc(api: &Api, first: &Operation, crate_ident: &str) -> TokenStream {
    let op = api
        .operations
        .iter()
        .find(|op| op.body.is_none() && required_params(op).all(|p| p.ty == TypeRef::String))
        .unwrap_or(first);
    let args: Vec<String> = required_params(op).map(|p| rust_string(&p.wire)).collect();
    let creds: Vec<String> =
        api.client_credentials().iter().filter(|c| !c.optional).map(|c| rust_string(&c.field)).collect();
    let call = format!("client.{}({})", op.fn_name, args.join(", "));
    let handle = match &op.reply {
        Reply::Download { .. } => "let mut download = reply;\nwhile let Some(chunk) = download.body.next_chunk().await {\n    let _bytes = chunk?;\n}".to_string(),
        Reply::Stream { .. } => "let mut items = reply;\nwhile let Some(item) = items.next().await {\n    println!(\"{:?}\", item?);\n}".to_string(),
        Reply::Upgrade { .. } => "let _connection = reply; // read and write it with tokio's AsyncRead and AsyncWrite".to_string(),
        _ => "println!(\"{reply:?}\");".to_string(),
    };
    // A paged operation whose required parameters are all strings shows the stream of items.
    let paged =
        api.operations.iter().find(|op| op.paging.is_some() && required_params(op).all(|p| p.ty == TypeRef::String));
    let stream = paged.map(|op| {
        let args: Vec<String> = required_params(op).map(|p| rust_string(&p.wire)).collect();
        format!(
            "\n// Paged operations also stream their items, fetching pages as they are read.\nlet mut items = client.{}({}).into_stream();\nwhile let Some(item) = items.next().await {{\n    println!(\"{{:?}}\", item?);\n}}",
            op.fn_name,
            args.join(", ")
        )
    });
    let text = format!(
        "# Example\n\n```no_run\nuse std::time::Duration;\n\nuse {crate_ident}::{{Client, Credentials, RetryPolicy}};\n\n# async fn run() -> Result<(), {crate_ident}::Error> {{\nlet client = Client::builder(\"https://api.example.com\", Credentials::new({}))\n    .timeout(Duration::from_secs(30))\n    .retry(RetryPolicy::default())\n    .build()?;\nlet reply = {call}.await?;\n{handle}\n{}\n# Ok(())\n# }}\n```\n\nRequests for `GET` are retried on 429 and 503 as [`RetryPolicy`] says; every call can set its\nown `.timeout(..)`; a [`CredentialsProvider`] can refresh credentials per request; every call is a\n`tracing` span named `request` with the operation, method, path template, status and duration.",
        creds.join(", "),
        stream.unwrap_or_default()
    );
    example_inner_doc(&text)
}
