//! The client crate: `Client`, `Credentials`, one method and one request builder per operation.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Imports, Uses, default_text, doc, ident, inner_doc, operation_doc, paragraphs, rust_type};
use crate::ir::{Api, Body, Location, Operation, Param, Reply, TypeRef};

/// `client.rs`: the client, its credentials and one method per operation.
pub fn client_module(api: &Api) -> TokenStream {
    let version = &api.version;
    let version_doc = format!("The API version this client was generated for, from `info.version`: `{version}`.");
    let base_const = api.default_base_url.as_ref().map(|url| {
        let text = format!("Base URL of the first server the spec lists: `{url}`.");
        quote! { #[doc = #text] pub const DEFAULT_BASE_URL: &str = #url; }
    });
    let cred_fields: Vec<_> = api.credentials.iter().map(|c| ident(&c.field)).collect();
    let cred_docs = api.credentials.iter().map(|c| {
        let text = paragraphs([c.doc.as_deref(), Some(&format!("Sent verbatim in the `{}` header.", c.header))]);
        doc(&text)
    });
    let cred_headers = api.credentials.iter().map(|c| c.header.as_str());
    let common_fields: Vec<_> = api.common_headers.iter().map(|h| ident(&h.field)).collect();
    let common_defaults = api.common_headers.iter().map(|h| &h.default);
    let common_names: Vec<_> = api.common_headers.iter().map(|h| h.header.as_str()).collect();
    let common_setters = api.common_headers.iter().map(|h| {
        let field = ident(&h.field);
        let setter = format_ident!("with_{}", h.field);
        let header = &h.header;
        let text = format!("Sends `value` in the `{header}` header instead of the default `{}`.", h.default);
        quote! {
            #[doc = #text]
            pub fn #setter(mut self, value: &str) -> Result<Self, Error> {
                self.#field = header_value(#header, value, false)?;
                Ok(self)
            }

            #[doc = concat!("The value sent in the `", #header, "` header.")]
            pub fn #field(&self) -> &str {
                self.#field.to_str().unwrap_or_default()
            }
        }
    });
    let methods = api.operations.iter().map(|op| method(api, op));
    let mut uses = Uses::default();
    for op in &api.operations {
        required_params(op).for_each(|p| uses.add(&p.ty));
    }
    let mut imports = Imports::default();
    imports.add("std::fmt").add("reqwest::header::HeaderValue").add("crate::Error").add("crate::builders");
    let names_types = api
        .operations
        .iter()
        .any(|op| op.body.as_ref().is_some_and(|b| b.required) || required_params(op).any(|p| names_type(&p.ty)));
    if names_types {
        imports.add("crate::types");
    }
    uses.add_to(&mut imports, "crate::DateTime");
    let imports = imports.tokens();
    let cred_params = cred_fields.iter().map(|f| quote! { #f: impl Into<String> });
    let cred_debug = cred_fields.iter().map(|f| {
        let name = f.to_string();
        quote! { .field(#name, &"<redacted>") }
    });
    let credentials_struct = quote! {
        /// The credentials sent with every request. `Debug` output never shows them.
        #[derive(Clone)]
        pub struct Credentials {
            #(#cred_docs pub #cred_fields: String,)*
        }

        impl Credentials {
            /// Credentials from their values, in the order the spec declares the schemes.
            pub fn new(#(#cred_params),*) -> Self {
                Credentials { #(#cred_fields: #cred_fields.into()),* }
            }
        }

        impl fmt::Debug for Credentials {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("Credentials") #(#cred_debug)* .finish()
            }
        }
    };
    quote! {
        //! The client and one method per operation.

        #imports

        #[doc = #version_doc]
        pub const API_VERSION: &str = #version;

        #base_const

        #credentials_struct

        /// A client for the API: a base URL, credentials and a connection pool.
        ///
        /// Cloning is cheap and shares the pool. Each operation method returns a request builder:
        /// required parameters are the method's arguments, optional ones are set on the builder, and
        /// the builder runs when awaited.
        #[derive(Clone)]
        pub struct Client {
            pub(crate) http: reqwest::Client,
            pub(crate) base_url: String,
            #(pub(crate) #cred_fields: HeaderValue,)*
            #(pub(crate) #common_fields: HeaderValue,)*
        }

        impl fmt::Debug for Client {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("Client")
                    .field("base_url", &self.base_url)
                    #(.field(#common_names, &self.#common_fields))*
                    .finish_non_exhaustive()
            }
        }

        impl Client {
            /// A client for the deployment at `base_url` (scheme, host and optional path prefix),
            /// with a connection pool of its own and TLS through rustls.
            pub fn new(base_url: &str, credentials: Credentials) -> Result<Self, Error> {
                let http = reqwest::Client::builder()
                    .build()
                    .map_err(|source| Error::Transport { operation: "Client::new", source })?;
                Self::with_http_client(http, base_url, credentials)
            }

            /// A client that sends through `http`, so the caller controls TLS, proxies, timeouts
            /// and pooling.
            pub fn with_http_client(http: reqwest::Client, base_url: &str, credentials: Credentials) -> Result<Self, Error> {
                let parsed = reqwest::Url::parse(base_url)
                    .map_err(|e| Error::InvalidArgument { name: "base_url", reason: e.to_string() })?;
                if parsed.cannot_be_a_base() || !matches!(parsed.scheme(), "http" | "https") {
                    return Err(Error::InvalidArgument { name: "base_url", reason: format!("`{base_url}` is not an http(s) URL") });
                }
                if parsed.query().is_some() || parsed.fragment().is_some() {
                    return Err(Error::InvalidArgument { name: "base_url", reason: "a base URL carries no query or fragment".to_string() });
                }
                Ok(Client {
                    http,
                    base_url: parsed.as_str().trim_end_matches('/').to_string(),
                    #(#cred_fields: header_value(#cred_headers, &credentials.#cred_fields, true)?,)*
                    #(#common_fields: HeaderValue::from_static(#common_defaults),)*
                })
            }

            #(#common_setters)*

            /// The base URL requests are sent to, without a trailing slash.
            pub fn base_url(&self) -> &str {
                &self.base_url
            }

            /// The base URL followed by `path`, with room for parameters.
            pub(crate) fn url(&self, path: &str) -> String {
                let mut url = String::with_capacity(self.base_url.len() + path.len() + 64);
                url.push_str(&self.base_url);
                url.push_str(path);
                url
            }

            #(#methods)*
        }

        /// A header value from text, refused when it cannot be sent (line breaks, non-visible bytes).
        fn header_value(name: &'static str, value: &str, sensitive: bool) -> Result<HeaderValue, Error> {
            let mut header = HeaderValue::from_str(value)
                .map_err(|_| Error::InvalidArgument { name, reason: "not a valid header value".to_string() })?;
            header.set_sensitive(sensitive);
            Ok(header)
        }
    }
}

/// How a parameter is taken by the client method or set on the builder.
fn arg_type(ty: &TypeRef) -> TokenStream {
    match ty {
        TypeRef::String => quote! { impl Into<String> },
        TypeRef::DateTime => quote! { impl Into<DateTime> },
        TypeRef::Vec(item) => {
            let item = arg_type(item);
            quote! { impl IntoIterator<Item = #item> }
        }
        other => rust_type(other, &quote! { types:: }),
    }
}

/// Converts an argument taken as [`arg_type`] into the stored type.
fn arg_convert(ty: &TypeRef, value: &TokenStream) -> TokenStream {
    match ty {
        TypeRef::String | TypeRef::DateTime => quote! { #value.into() },
        TypeRef::Vec(item) => {
            let item_value = quote! { item };
            let convert = arg_convert(item, &item_value);
            if convert.to_string() == item_value.to_string() {
                quote! { #value.into_iter().collect() }
            } else {
                quote! { #value.into_iter().map(|item| #convert).collect() }
            }
        }
        _ => value.clone(),
    }
}

/// Whether a type mentions a schema type, so the module must import `types`.
fn names_type(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Named(_) => true,
        TypeRef::Vec(item) | TypeRef::Map(item) => names_type(item),
        _ => false,
    }
}

fn reply_type(reply: &Reply) -> TokenStream {
    match reply {
        Reply::Empty { .. } => quote! { () },
        Reply::Json { ty, .. } => rust_type(ty, &quote! { types:: }),
        Reply::Download { .. } => quote! { crate::Download },
    }
}

fn body_type(body: &Body) -> TokenStream {
    rust_type(&body.ty, &quote! { types:: })
}

fn required_params(op: &Operation) -> impl Iterator<Item = &Param> {
    op.params.iter().filter(|p| p.required)
}

fn method(_api: &Api, op: &Operation) -> TokenStream {
    let fn_name = ident(&op.fn_name);
    let builder = ident(&op.type_name);
    let body_note = match &op.body {
        Some(b) if b.required => "The JSON request body is required.",
        Some(_) => "The JSON request body is optional; set it with `.body(...)`.",
        None => "",
    };
    let docs = doc(&operation_doc(op, body_note));
    let deprecated = op.deprecated.then(|| quote! { #[deprecated] });
    let mut args = Vec::new();
    let mut values = Vec::new();
    for p in required_params(op) {
        let name = ident(&p.name);
        let ty = arg_type(&p.ty);
        args.push(quote! { #name: #ty });
        values.push(arg_convert(&p.ty, &quote! { #name }));
    }
    if let Some(body) = op.body.as_ref().filter(|b| b.required) {
        let ty = body_type(body);
        args.push(quote! { body: #ty });
        values.push(quote! { body });
    }
    quote! {
        #docs
        #deprecated
        pub fn #fn_name(&self, #(#args),*) -> builders::#builder<'_> {
            builders::#builder::new(self, #(#values),*)
        }
    }
}

/// `builders.rs`: one request builder per operation.
pub fn builders_module(api: &Api) -> TokenStream {
    let mut uses = Uses::default();
    for op in &api.operations {
        op.params.iter().for_each(|p| uses.add(&p.ty));
    }
    uses.json = api.operations.iter().any(|op| op.body.as_ref().is_some_and(|b| b.ty == TypeRef::Json))
        || api.operations.iter().any(|op| op.params.iter().any(|p| p.ty == TypeRef::Json));
    let mut imports = Imports::default();
    imports
        .add("std::future::{Future, IntoFuture}")
        .add("std::pin::Pin")
        .add("reqwest::Method")
        .add("reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderValue}")
        .add("crate::encoding::{Query, push_segment}")
        .add("crate::{Client, Error, transport}");
    let names_types = api.operations.iter().any(|op| {
        op.body.is_some()
            || matches!(&op.reply, Reply::Json { ty, .. } if names_type(ty))
            || op.params.iter().any(|p| names_type(&p.ty))
    });
    if names_types {
        imports.add("crate::types");
    }
    uses.add_to(&mut imports, "crate::DateTime");
    let imports = imports.tokens();
    let builders = api.operations.iter().map(|op| builder(api, op));
    quote! {
        //! Request builders: one per operation, returned by the methods of [`Client`].
        //! Set optional parameters with the builder's methods, then `.await` it.

        #imports

        #(#builders)*
    }
}

fn builder(api: &Api, op: &Operation) -> TokenStream {
    let name = ident(&op.type_name);
    let fn_name = &op.fn_name;
    let op_id = &op.id;
    let summary = doc(&format!(
        "Request builder for [`Client::{}`]: `{} {}`.",
        fn_name.trim_start_matches("r#"),
        op.method.as_str(),
        op.path
    ));
    let reply = reply_type(&op.reply);

    let mut fields = Vec::new();
    let mut new_args = Vec::new();
    let mut new_inits = Vec::new();
    let mut setters = Vec::new();
    for p in &op.params {
        let field = ident(&p.name);
        let ty = rust_type(&p.ty, &quote! { types:: });
        if p.required {
            fields.push(quote! { #field: #ty });
            new_args.push(quote! { #field: #ty });
            new_inits.push(quote! { #field });
        } else {
            fields.push(quote! { #field: Option<#ty> });
            new_inits.push(quote! { #field: None });
            let arg = arg_type(&p.ty);
            let convert = arg_convert(&p.ty, &quote! { value });
            let mut text = p.doc.clone().unwrap_or_else(|| format!("Sets `{}`.", p.wire));
            if let Some(d) = &p.default {
                text.push_str(&format!("\n\nWhen not set, the server uses `{}`.", default_text(d)));
            }
            let docs = doc(&text);
            setters.push(quote! {
                #docs
                pub fn #field(mut self, value: #arg) -> Self {
                    self.#field = Some(#convert);
                    self
                }
            });
        }
    }
    if let Some(body) = &op.body {
        let ty = body_type(body);
        if body.required {
            fields.push(quote! { body: #ty });
            new_args.push(quote! { body: #ty });
            new_inits.push(quote! { body });
        } else {
            fields.push(quote! { body: Option<#ty> });
            new_inits.push(quote! { body: None });
            let text = paragraphs([
                body.doc.as_deref(),
                Some("Sets the JSON request body; without it the request has no body."),
            ]);
            let docs = doc(&text);
            setters.push(quote! {
                #docs
                pub fn body(mut self, value: #ty) -> Self {
                    self.body = Some(value);
                    self
                }
            });
        }
    }

    let url = build_url(op);
    let method = format_ident!("{}", op.method.as_str());
    let status = proc_macro2::Literal::u16_unsuffixed(op.reply.status());
    let (accept, read) = match &op.reply {
        Reply::Empty { .. } => ("application/json", quote! { transport::empty }),
        Reply::Json { .. } => ("application/json", quote! { transport::json }),
        Reply::Download { content_type, .. } => (content_type.as_str(), quote! { crate::download::read }),
    };
    let fixed_headers = fixed_headers(api, op);
    let optional = optional_headers_and_body(op);
    let request_mut = (!optional.is_empty()).then(|| quote! { mut });
    let deprecated = op.deprecated.then(|| quote! { #[allow(deprecated)] });
    quote! {
        #summary
        #[derive(Debug, Clone)]
        #[must_use = "a request does nothing until it is awaited"]
        pub struct #name<'a> {
            client: &'a Client,
            #(#fields,)*
        }

        #deprecated
        impl<'a> #name<'a> {
            pub(crate) fn new(client: &'a Client, #(#new_args),*) -> Self {
                #name { client, #(#new_inits),* }
            }

            #(#setters)*

            /// Sends the request and reads the reply.
            pub async fn send(self) -> Result<#reply, Error> {
                const OPERATION: &str = #op_id;
                let client = self.client;
                #url
                let #request_mut request = client
                    .http
                    .request(Method::#method, url)
                    .header(ACCEPT, HeaderValue::from_static(#accept))
                    #fixed_headers;
                #(#optional)*
                let response = transport::send(OPERATION, request).await?;
                #read(OPERATION, response, #status).await
            }
        }

        impl<'a> IntoFuture for #name<'a> {
            type Output = Result<#reply, Error>;
            type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

            fn into_future(self) -> Self::IntoFuture {
                Box::pin(self.send())
            }
        }
    }
}

/// Code that writes the URL: base, path with encoded parameters, query string.
fn build_url(op: &Operation) -> TokenStream {
    let mut steps = Vec::new();
    let mut rest = op.path.as_str();
    let mut first = true;
    while let Some(start) = rest.find('{') {
        let end = start + rest[start..].find('}').expect("templates were checked while lowering");
        let literal = &rest[..start];
        steps.push(if first {
            quote! { let mut url = client.url(#literal); }
        } else {
            quote! { url.push_str(#literal); }
        });
        first = false;
        let wire = &rest[start + 1..end];
        let p = op
            .params
            .iter()
            .find(|p| p.location == Location::Path && p.wire == wire)
            .expect("path parameters were checked while lowering");
        let field = ident(&p.name);
        steps.push(match p.ty {
            TypeRef::String => quote! { push_segment(&mut url, &self.#field); },
            _ => quote! { push_segment(&mut url, &self.#field.to_string()); },
        });
        rest = &rest[end + 1..];
    }
    let query: Vec<_> = op.params.iter().filter(|p| p.location == Location::Query).map(query_step).collect();
    let mutable = (!query.is_empty()).then(|| quote! { mut });
    if first {
        steps.push(quote! { let #mutable url = client.url(#rest); });
    } else if !rest.is_empty() {
        steps.push(quote! { url.push_str(#rest); });
    }
    let query = (!query.is_empty()).then(|| {
        quote! {
            let mut query = Query::new(&mut url);
            #(#query)*
        }
    });
    quote! {
        #(#steps)*
        #query
    }
}

fn query_step(p: &Param) -> TokenStream {
    let field = ident(&p.name);
    let wire = &p.wire;
    let push = match (&p.ty, p.explode) {
        (TypeRef::Vec(_), true) => quote! { push_each },
        (TypeRef::Vec(_), false) => quote! { push_joined },
        _ => quote! { push },
    };
    if p.required {
        quote! { query.#push(#wire, &self.#field); }
    } else {
        quote! { if let Some(value) = &self.#field { query.#push(#wire, value); } }
    }
}

/// `.header(..)` calls for what every call of the operation sends: credentials, common headers and
/// required header parameters.
fn fixed_headers(api: &Api, op: &Operation) -> TokenStream {
    let mut out = Vec::new();
    for &i in &op.credentials {
        let c = &api.credentials[i];
        let (header, field) = (&c.header, ident(&c.field));
        out.push(quote! { .header(#header, client.#field.clone()) });
    }
    for &i in &op.common_headers {
        let h = &api.common_headers[i];
        let (header, field) = (&h.header, ident(&h.field));
        out.push(quote! { .header(#header, client.#field.clone()) });
    }
    quote! { #(#out)* }
}

/// Statements for header parameters and the body, which may fail or be absent.
fn optional_headers_and_body(op: &Operation) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for p in op.params.iter().filter(|p| p.location == Location::Header) {
        let field = ident(&p.name);
        let wire = &p.wire;
        let value = if p.required {
            quote! { &self.#field }
        } else {
            quote! { value }
        };
        let set = quote! {
            let value = HeaderValue::try_from(#value.to_string())
                .map_err(|_| Error::InvalidArgument { name: #wire, reason: "not a valid header value".to_string() })?;
            request = request.header(#wire, value);
        };
        out.push(if p.required {
            quote! { { #set } }
        } else {
            quote! { if let Some(value) = &self.#field { #set } }
        });
    }
    if let Some(b) = &op.body {
        let content_type = &b.content_type;
        let encode = quote! {
            let bytes = serde_json::to_vec(body).map_err(|e| Error::InvalidArgument { name: "body", reason: e.to_string() })?;
            request = request.header(CONTENT_TYPE, HeaderValue::from_static(#content_type)).body(bytes);
        };
        out.push(if b.required {
            quote! { let body = &self.body; #encode }
        } else {
            quote! { if let Some(body) = &self.body { #encode } }
        });
    }
    out
}

/// `lib.rs` of the client crate.
pub fn lib_module(api: &Api, crate_ident: &str) -> TokenStream {
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
    let download_mod = has_downloads.then(|| quote! { mod download; });
    let download_use = has_downloads.then(|| quote! { pub use download::{ByteStream, Download}; });
    let description = api.description.as_deref().map(inner_doc);
    let example = first.map(|op| example_doc(api, op, crate_ident));
    quote! {
        #crate_doc
        #description
        #example
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]

        pub mod builders;
        mod client;
        mod date_time;
        #download_mod
        mod encoding;
        mod enums;
        mod object_only;
        mod error;
        mod transport;
        pub mod types;

        pub use client::*;
        pub use date_time::{DateTime, DateTimeError};
        #download_use
        pub use enums::UnknownVariant;
        pub use error::{Error, ProblemDetails, StatusError};

        pub use reqwest;
        pub use time;
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
    let args: Vec<String> = required_params(op).map(|p| format!("\"{}\"", p.wire)).collect();
    let creds: Vec<String> = api.credentials.iter().map(|c| format!("\"{}\"", c.field)).collect();
    let call = format!("client.{}({})", op.fn_name, args.join(", "));
    let handle = match &op.reply {
        Reply::Download { .. } => "let mut download = reply;\nwhile let Some(chunk) = download.body.next_chunk().await {\n    let _bytes = chunk?;\n}".to_string(),
        _ => "println!(\"{reply:?}\");".to_string(),
    };
    let text = format!(
        "# Example\n\n```no_run\nuse {crate_ident}::{{Client, Credentials}};\n\n# async fn run() -> Result<(), {crate_ident}::Error> {{\nlet client = Client::new(\"https://api.example.com\", Credentials::new({}))?;\nlet reply = {call}.await?;\n{handle}\n# Ok(())\n# }}\n```",
        creds.join(", ")
    );
    inner_doc(&text)
}
