//! The client crate: `Client`, `Credentials`, one method and one request builder per operation.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::split::TypesCrate;
use super::{
    Imports, Uses, default_text, doc, example_inner_doc, ident, inner_doc, names_type, operation_doc, paragraphs,
    rust_string, rust_type,
};
use crate::ir::{
    Api, Body, BodyEncoding, Carrier, Credential, ErrorStatus, ErrorsDef, Location, ObjectStyle, Operation, Param,
    RepliesDef, Reply, StructDef, TypeRef,
};
use crate::render::{Block, Part};

mod paging;

/// `client.rs`: the client, its credentials and one method per operation. The builder and the
/// connection are the runtime's; only what the spec decides is written here.
pub fn client_module(api: &Api) -> Vec<Part<'_>> {
    let ops = &api.operations;
    vec![
        Part::items(move || client_head(api)),
        Part::block(
            || quote! { impl Client {} },
            Block::Impl,
            ops.len() + 1,
            move |i| match i.checked_sub(1) {
                Some(i) => method(api, &ops[i]),
                None => client_methods(api),
            },
        ),
    ]
}

/// The head of `client.rs`: docs, imports, the credentials and the client.
fn client_head(api: &Api) -> TokenStream {
    let version = &api.version;
    let version_doc = doc(&format!("The API version this client was generated for, from `info.version`: `{version}`."));
    let base_const = api.default_base_url.as_ref().map(|url| {
        let text = format!("Base URL of the first server the spec lists: `{url}`.");
        let docs = doc(&text);
        quote! { #docs pub const DEFAULT_BASE_URL: &str = #url; }
    });
    // The credentials a client sends; those only a server reads are not asked for.
    let credentials = api.client_credentials();
    let sign = sign_fn(api);
    let cred_fields: Vec<_> = credentials.iter().map(|c| ident(&c.field)).collect();
    let unused_credentials =
        credentials.is_empty().then(|| quote! { #[allow(unused_variables, reason = "this API sends no credentials")] });
    let cred_docs: Vec<_> = credentials
        .iter()
        .map(|c| {
            let how = match &c.carrier {
                Carrier::Header(header) => format!("Sent verbatim in the `{header}` header."),
                Carrier::Cookie(name) => format!("Sent as the `{name}` cookie."),
                Carrier::Query(name) => format!("Sent as the `{name}` query parameter."),
                Carrier::Authorization(scheme) => format!("Sent in the `authorization` header after `{scheme} `."),
            };
            let alternative = c.optional.then_some(
                "Only operations that accept it instead of other credentials send it: set it with the \
                 `with_` method of its name.",
            );
            let text = paragraphs([c.doc.as_deref(), Some(&how), alternative]);
            doc(&text)
        })
        .collect();
    let cred_types = credentials.iter().map(|c| {
        if c.optional {
            quote! { Option<String> }
        } else {
            quote! { String }
        }
    });
    let header_types = credentials.iter().map(|c| {
        if c.optional {
            quote! { Option<HeaderValue> }
        } else {
            quote! { HeaderValue }
        }
    });
    let cred_values = credentials.iter().map(|c| {
        let field = ident(&c.field);
        let (header, prefix) = (c.carrier.header(), c.carrier.prefix());
        let value = if c.optional {
            quote! { value }
        } else {
            quote! { &credentials.#field }
        };
        let checked = if let Carrier::Cookie(name) = &c.carrier {
            quote! { cookie_credential(#name, #value) }
        } else if let Carrier::Query(name) = &c.carrier {
            quote! { query_credential(#name, #value) }
        } else if prefix.is_empty() {
            quote! { header_value(#header, #value, true) }
        } else {
            let template = format!("{}{{}}", super::format_literal(&prefix));
            let shown = if c.optional {
                quote! { value }
            } else {
                quote! { credentials.#field }
            };
            quote! { header_value(#header, &format!(#template, #shown), true) }
        };
        if c.optional {
            quote! { credentials.#field.as_deref().map(|value| #checked).transpose()? }
        } else {
            quote! { #checked? }
        }
    });
    let (needed, optional): (Vec<&Credential>, Vec<&Credential>) = credentials.iter().partition(|c| !c.optional);
    let needed_fields: Vec<_> = needed.iter().map(|c| ident(&c.field)).collect();
    let optional_fields: Vec<_> = optional.iter().map(|c| ident(&c.field)).collect();
    let cred_params = needed_fields.iter().map(|f| quote! { #f: impl Into<String> });
    let setters = optional.iter().map(|c| {
        let field = ident(&c.field);
        let setter = format_ident!("with_{}", c.field);
        let docs = doc(&format!(
            "Sets the `{}` credential, for the operations that accept it instead of other credentials.",
            c.field
        ));
        quote! {
            #docs
            pub fn #setter(mut self, value: impl Into<String>) -> Self {
                self.#field = Some(value.into());
                self
            }
        }
    });
    // An API that sends none, or none that every client needs, can start from `Default`.
    let default = needed.is_empty().then(|| quote! { , Default });
    let cred_debug = cred_fields.iter().map(|f| {
        let name = f.to_string();
        quote! { .field(#name, &"<redacted>") }
    });
    // A documented redirect is the operation's reply, so the client must not follow it.
    let redirects = api.operations.iter().any(|op| (300..400).contains(&op.reply.status()));
    // The version header is a client setting with the spec's version as its default.
    let version_header = match api.common_headers.first() {
        Some(h) => {
            let (header, default) = (&h.header, &h.default);
            quote! { Some((#header, #default)) }
        }
        None => quote! { None },
    };
    let mut uses = Uses::default();
    for op in &api.operations {
        required_params(op).for_each(|p| uses.add(&p.ty));
        // A required body is an argument of the method too.
        if let Some(body) = op.body.as_ref().filter(|b| b.required) {
            uses.add(&body.ty);
        }
    }
    let mut imports = Imports::default();
    imports.add("std::fmt").add("apigen_runtime::client::{ApiClient, Connection}").add("crate::{Error, builders}");
    let is_cookie = |c: &&Credential| matches!(c.carrier, Carrier::Cookie(_));
    let is_query = |c: &&Credential| matches!(c.carrier, Carrier::Query(_));
    if credentials.iter().any(|c| !is_cookie(c) && !is_query(c)) {
        imports.add("apigen_runtime::codegen::client::header_value");
    }
    if credentials.iter().any(is_cookie) {
        imports.add("apigen_runtime::codegen::client::cookie_credential");
    }
    if credentials.iter().any(is_query) {
        imports.add("apigen_runtime::codegen::client::query_credential");
    }
    if !credentials.is_empty() {
        imports.add("reqwest::header::HeaderValue");
    }
    let names_types = api.operations.iter().any(|op| {
        op.body.as_ref().is_some_and(|b| b.required && names_type(&b.ty))
            || required_params(op).any(|p| names_type(&p.ty))
    });
    if names_types {
        imports.add("crate::types");
    }
    uses.add_to(&mut imports, "crate::DateTime");
    let imports = imports.tokens();
    quote! {
        //! The client, its credentials, and one method per operation.

        #imports

        #version_doc
        pub const API_VERSION: &str = #version;

        #base_const

        /// The credentials sent with every request. `Debug` output never shows them.
        #[derive(Clone #default)]
        pub struct Credentials {
            #(#cred_docs pub #cred_fields: #cred_types,)*
        }

        impl Credentials {
            /// Credentials from their values, in the order the spec declares the schemes.
            pub fn new(#(#cred_params),*) -> Self {
                Credentials { #(#needed_fields: #needed_fields.into(),)* #(#optional_fields: None,)* }
            }

            #(#setters)*
        }

        impl fmt::Debug for Credentials {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("Credentials") #(#cred_debug)* .finish()
            }
        }

        /// Credentials as header values, checked once.
        #[doc(hidden)]
        #[derive(Clone)]
        pub struct CredentialHeaders {
            #(pub(crate) #cred_fields: #header_types,)*
        }

        /// Builds a [`Client`]; start with [`Client::builder`], set what differs from the
        /// defaults, then call `build()`.
        ///
        /// | method | sets |
        /// |---|---|
        /// | `timeout(Duration)`, `no_timeout()` | the deadline of every call ([`DEFAULT_TIMEOUT`](crate::DEFAULT_TIMEOUT)) |
        /// | `connect_timeout(Duration)` | how long to wait for a connection ([`DEFAULT_CONNECT_TIMEOUT`](crate::DEFAULT_CONNECT_TIMEOUT)) |
        /// | `read_timeout(Duration)` | how long a reply may send nothing ([`DEFAULT_READ_TIMEOUT`](crate::DEFAULT_READ_TIMEOUT)) |
        /// | `max_reply_size(usize)` | the largest reply body read into memory ([`DEFAULT_MAX_REPLY_SIZE`](crate::DEFAULT_MAX_REPLY_SIZE)) |
        /// | `max_error_body(usize)` | how much of an error reply is kept ([`DEFAULT_MAX_ERROR_BODY`](crate::DEFAULT_MAX_ERROR_BODY)) |
        /// | `stream_idle_timeout`, `stream_timeout`, `max_stream_size` | the bounds of downloads and item streams |
        /// | `retry(RetryPolicy)` | which calls are retried, and how ([`RetryPolicy`](crate::RetryPolicy)) |
        /// | `rate_limit(f64)` | the most requests a second, across clones |
        /// | `request_ids()` | a fresh `x-request-id` on every request |
        /// | `version_header(&str)` | the value of the API's version header, where it has one |
        /// | `credentials_provider(..)` | credentials asked for per request ([`CredentialsProvider`](crate::CredentialsProvider)) |
        /// | `hooks(..)` | your code around every attempt: signing, tracing ([`Hooks`](crate::Hooks)) |
        /// | `http_client(reqwest::Client)` | your own `reqwest::Client`, from [`Client::http_client_builder`] |
        ///
        /// Each is documented in full on `apigen_runtime::client::ClientBuilder`.
        pub type ClientBuilder = apigen_runtime::client::ClientBuilder<Client>;

        /// A client for the API: a base URL, credentials and a connection pool.
        ///
        /// Cloning is cheap and shares the pool, the retry policy and the rate limit. Each
        /// operation method returns a request builder: required parameters are the method's
        /// arguments, optional ones are set on the builder, and the builder runs when awaited.
        /// Dropping the future cancels the call.
        #[derive(Clone)]
        pub struct Client {
            pub(crate) connection: Connection<Client>,
        }

        impl fmt::Debug for Client {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("Client").field("base_url", &self.base_url()).finish_non_exhaustive()
            }
        }

        impl ApiClient for Client {
            type Credentials = Credentials;
            type CredentialHeaders = CredentialHeaders;
            const REDIRECTS_ARE_REPLIES: bool = #redirects;
            const VERSION_HEADER: Option<(&'static str, &'static str)> = #version_header;

            #unused_credentials
            fn credential_headers(credentials: &Credentials) -> Result<CredentialHeaders, Error> {
                Ok(CredentialHeaders { #(#cred_fields: #cred_values,)* })
            }

            #sign

            fn from_connection(connection: Connection<Client>) -> Self {
                Client { connection }
            }
        }

    }
}

/// The client's own methods: its constructors and what it was built with.
fn client_methods(api: &Api) -> TokenStream {
    let redirects = api.operations.iter().any(|op| (300..400).contains(&op.reply.status()));
    let redirect_doc = if redirects {
        "Redirects are not followed: some operations reply with one, which they return."
    } else {
        "Redirects are followed only within the origin of the request (at most 10); one to another \
         origin ends the call with its 3xx status, so no credential, body or query ever reaches a \
         host the caller did not name."
    };
    let http_builder_doc = doc(&format!(
        "A `reqwest::ClientBuilder` with the settings this client relies on, to add TLS, proxy or \
         pool settings to before passing the result to `http_client` on [`ClientBuilder`]: the connect \
         timeout ([`DEFAULT_CONNECT_TIMEOUT`](crate::DEFAULT_CONNECT_TIMEOUT)), the read timeout \
         ([`DEFAULT_READ_TIMEOUT`](crate::DEFAULT_READ_TIMEOUT)), no `Referer` header, and this \
         policy:\n\n{redirect_doc}"
    ));
    let version_methods = api.common_headers.first().map(|h| {
        let field = ident(&h.field);
        let setter = format_ident!("with_{}", h.field);
        let header = &h.header;
        let docs = doc(&format!("Sends `value` in the `{header}` header instead of the default `{}`.", h.default));
        let getter_docs = doc(&format!("The value sent in the `{header}` header."));
        quote! {
            #docs
            pub fn #setter(mut self, value: &str) -> Result<Self, Error> {
                self.connection.set_version(value)?;
                Ok(self)
            }

            #getter_docs
            pub fn #field(&self) -> &str {
                self.connection.version().to_str().unwrap_or_default()
            }
        }
    });
    quote! {
            /// A client for the deployment at `base_url` (scheme, host and optional path prefix),
            /// with a connection pool of its own, TLS through rustls (the default `rustls` feature)
            /// and the default [`RetryPolicy`](crate::RetryPolicy).
            pub fn new(base_url: &str, credentials: Credentials) -> Result<Self, Error> {
                Self::builder(base_url, credentials).build()
            }

            /// A client that sends through `http`, so the caller controls TLS, proxies and pooling.
            ///
            /// Start `http` from [`Client::http_client_builder`]: a `reqwest::Client` of your own
            /// follows reqwest's redirect policy, which sends API-key headers on to any host a
            /// server redirects to.
            pub fn with_http_client(http: reqwest::Client, base_url: &str, credentials: Credentials) -> Result<Self, Error> {
                Self::builder(base_url, credentials).http_client(http).build()
            }

            /// A builder for a client with timeouts, retries, a rate limit or a credentials
            /// provider.
            pub fn builder(base_url: &str, credentials: Credentials) -> ClientBuilder {
                ClientBuilder::new(base_url, credentials)
            }

            #http_builder_doc
            pub fn http_client_builder() -> reqwest::ClientBuilder {
                apigen_runtime::codegen::client::http_client_builder_for::<Client>()
            }

            /// The base URL requests are sent to, without a trailing slash.
            pub fn base_url(&self) -> &str {
                self.connection.base_url()
            }

            #version_methods
    }
}

/// How a parameter is taken by the client method or set on the builder.
fn arg_type(api: &Api, ty: &TypeRef) -> TokenStream {
    match ty {
        TypeRef::String => quote! { impl Into<String> },
        TypeRef::DateTime => quote! { impl Into<DateTime> },
        TypeRef::Vec(item) => {
            let item = arg_type(api, item);
            quote! { impl IntoIterator<Item = #item> }
        }
        other => rust_type(api, other, &quote! { types:: }),
    }
}

/// Whether an argument taken as [`arg_type`] is converted into the stored type.
fn arg_converts(ty: &TypeRef) -> bool {
    matches!(ty, TypeRef::String | TypeRef::DateTime | TypeRef::Vec(_))
}

/// Converts an argument taken as [`arg_type`] into the stored type.
fn arg_convert(ty: &TypeRef, value: &TokenStream) -> TokenStream {
    match ty {
        TypeRef::String | TypeRef::DateTime => quote! { #value.into() },
        TypeRef::Vec(item) if arg_converts(item) => {
            let convert = arg_convert(item, &quote! { item });
            quote! { #value.into_iter().map(|item| #convert).collect() }
        }
        TypeRef::Vec(_) => quote! { #value.into_iter().collect() },
        _ => value.clone(),
    }
}

fn body_type(api: &Api, body: &Body) -> TokenStream {
    rust_type(api, &body.ty, &quote! { types:: })
}

fn required_params(op: &Operation) -> impl Iterator<Item = &Param> {
    op.params.iter().filter(|p| p.required)
}

/// The client's method for `op`: its required parameters as arguments, returning its builder.
fn method(api: &Api, op: &Operation) -> TokenStream {
    let body_note = match &op.body {
        Some(b) if b.required => format!("The {} request body is required.", super::body_kind(b)),
        Some(b) => format!("The {} request body is optional; set it with `.body(...)`.", super::body_kind(b)),
        None => String::new(),
    };
    let errors_note = op.errors.as_ref().map(|e| {
        let e = &e.name;
        format!("A documented error reply comes back as [`Error::Status`]; [`types::{e}::from_error`] reads its body.")
    });
    let notes = paragraphs([Some(body_note.as_str()), errors_note.as_deref()]);
    let docs = doc(&operation_doc(api, op, true, &notes));
    let (fn_name, builder) = (ident(&op.fn_name), ident(&op.type_name));
    let deprecated = op.deprecated.then(|| quote! { #[deprecated] });
    let mut args = Vec::new();
    let mut inits = Vec::new();
    for p in &op.params {
        let name = ident(&p.name);
        if p.required {
            let ty = arg_type(api, &p.ty);
            args.push(quote! { #name: #ty });
            inits.push(match arg_converts(&p.ty) {
                true => {
                    let value = arg_convert(&p.ty, &quote! { #name });
                    quote! { #name: #value }
                }
                false => quote! { #name },
            });
        } else {
            inits.push(quote! { #name: None });
        }
    }
    match op.body.as_ref() {
        Some(body) if body.required => {
            let ty = body_type(api, body);
            args.push(quote! { body: #ty });
            inits.push(quote! { body });
        }
        Some(_) => inits.push(quote! { body: None }),
        None => {}
    }
    let cfg = super::cfg_any(&op.features);
    quote! {
        #docs
        #cfg
        #deprecated
        pub fn #fn_name(&self, #(#args),*) -> builders::#builder<'_> {
            builders::#builder { client: self, #(#inits,)* timeout: None }
        }
    }
}

/// The builders of a large API's operations, a file per tag: those a single tag's feature
/// compiles in `builders/<tag>.rs`, compiled whole with it, the others in `builders.rs`.
pub struct BuilderFile<'a> {
    /// The tag's feature and module; none for `builders.rs`.
    pub tag: Option<(&'a str, String)>,
    pub ops: Vec<&'a Operation>,
}

/// The files of the builders: `builders.rs` first, then a file per tag when there are features
/// per tag.
pub fn builder_files(api: &Api) -> Vec<BuilderFile<'_>> {
    let mut files = vec![BuilderFile { tag: None, ops: Vec::new() }];
    for op in &api.operations {
        let index = match (&api.tag_features, op.features.as_slice()) {
            (Some(_), [tag]) => match files.iter().position(|f| f.tag.as_ref().is_some_and(|(t, _)| t == tag)) {
                Some(index) => index,
                None => {
                    files.push(BuilderFile { tag: Some((tag.as_str(), module_name(tag))), ops: Vec::new() });
                    files.len() - 1
                }
            },
            _ => 0,
        };
        files[index].ops.push(op);
    }
    files
}

/// The module of a tag's builders, and its file's name: its feature in snake case, an identifier
/// that is no Rust keyword and a file name every system can hold.
fn module_name(feature: &str) -> String {
    let name = crate::naming::snake(feature);
    if crate::naming::is_keyword(&name) || crate::naming::is_device_name(&name) { format!("{name}_tag") } else { name }
}

/// The head of a file of builders (docs, imports and, in `builders.rs`, the tags' modules);
/// [`builder`] gives one operation's builder.
pub fn builders_header(api: &Api, files: &[BuilderFile<'_>], index: usize) -> TokenStream {
    let file = &files[index];
    let ops = &file.ops;
    let mut uses = Uses::default();
    for op in ops.iter().copied() {
        op.params.iter().for_each(|p| uses.add(&p.ty));
        if let Some(body) = &op.body {
            uses.add(&body.ty);
        }
        if let Reply::Json { ty, .. } | Reply::Stream { item: ty, .. } = &op.reply {
            uses.add(ty);
        }
        if let Some(paging) = &op.paging {
            uses.add(&paging.item);
        }
    }
    let mut imports = Imports::default();
    imports
        .add("std::time::Duration")
        .add("reqwest::RequestBuilder")
        .add("crate::operation::{Operation, Target}")
        .add("crate::transport::Call")
        .add("crate::{Client, Error}");
    let reads = |read: fn(&Reply) -> bool| ops.iter().copied().any(|op| read(&op.reply));
    let usual = super::facts::usual_credentials(api);
    if ops.iter().copied().any(|op| !super::facts::signs_usually(api, &usual, op)) {
        imports.add("crate::operation::Signing");
    }
    if reads(|r| !matches!(r, Reply::Download { .. } | Reply::Stream { .. } | Reply::Upgrade { .. })) {
        imports.add("crate::operation::Whole");
    }
    if reads(|r| matches!(r, Reply::Download { .. } | Reply::Stream { .. })) {
        imports.add("crate::transport::Received");
    }
    let encodes = |b: &Body| matches!(b.encoding, BodyEncoding::Json | BodyEncoding::Form);
    if ops.iter().copied().filter_map(|op| op.body.as_ref()).any(|b| b.cases().into_iter().any(encodes)) {
        imports.add("crate::transport");
    }
    if ops.iter().copied().any(|op| op.paging.is_some()) {
        imports.add("crate::paging::{self, Items, Page}");
    }
    // Bytes, text and multipart bodies set their content type here; JSON and form bodies in
    // the runtime.
    let sets_content_type =
        |b: &Body| matches!(b.encoding, BodyEncoding::Binary | BodyEncoding::Text | BodyEncoding::Multipart);
    if ops.iter().copied().filter_map(|op| op.body.as_ref()).any(|b| b.cases().into_iter().any(sets_content_type)) {
        imports.add("reqwest::header::{CONTENT_TYPE, HeaderValue}");
    }
    if ops.iter().copied().any(|op| op.params.iter().any(|p| p.location == Location::Header)) {
        imports.add("reqwest::header::HeaderValue");
    }
    if ops.iter().copied().any(|op| matches!(op.reply, Reply::Upgrade { .. })) {
        imports.add("reqwest::header::{CONNECTION, HeaderValue}");
    }
    let has = |location: Location| ops.iter().copied().any(|op| op.params.iter().any(|p| p.location == location));
    if has(Location::Query) {
        imports.add("crate::encoding::Query");
    }
    let path_params = || ops.iter().copied().flat_map(|op| &op.params).filter(|p| p.location == Location::Path);
    if path_params().any(|p| p.object_style.is_none() && !matches!(p.ty, TypeRef::Vec(_))) {
        imports.add("crate::encoding::push_segment");
    }
    if path_params().any(|p| p.object_style.is_none() && matches!(p.ty, TypeRef::Vec(_))) {
        imports.add("crate::encoding::push_list_segment");
    }
    if path_params().any(|p| p.object_style.is_some()) {
        imports.add("crate::encoding::push_object_segment");
    }
    if ops.iter().copied().any(|op| sends_cookies(api, op)) {
        imports.add("crate::encoding::Cookies");
    }
    let names_types = ops.iter().copied().any(|op| {
        op.body.as_ref().is_some_and(|b| names_type(&b.ty))
            || matches!(&op.reply, Reply::Json { ty, .. } | Reply::Stream { item: ty, .. } if names_type(ty))
            || matches!(&op.reply, Reply::Several { .. })
            || op.reply.headers().is_some()
            || op.params.iter().any(|p| names_type(&p.ty))
    });
    if names_types {
        imports.add("crate::types");
    }
    uses.add_to(&mut imports, "crate::DateTime");
    // Where every builder is some tag's, `builders.rs` only gathers the tags' files.
    let imports = (!ops.is_empty()).then(|| imports.tokens());
    if let Some((tag, _)) = &file.tag {
        let doc =
            super::inner_doc(&format!("The request builders of the operations only the feature `{tag}` compiles."));
        return quote! {
            #doc
            #imports
        };
    }
    // Each tag's builders, under the same path as the others'.
    let modules = files.iter().filter_map(|f| f.tag.as_ref()).map(|(tag, module)| {
        let module = ident(module);
        quote! {
            #[cfg(feature = #tag)]
            mod #module;
            #[cfg(feature = #tag)]
            pub use #module::*;
        }
    });
    quote! {
        //! Request builders: one per operation, returned by the methods of [`Client`].
        //! Set optional parameters with the builder's methods, then `.await` it.

        #imports
        #(#modules)*
    }
}

/// The request builder of one operation, behind the features that compile it when there are
/// features per tag.
/// The request builder of `op`; `usual` is [`super::facts::usual_credentials`].
pub fn builder(api: &Api, usual: &[usize], op: &Operation, gated: bool) -> TokenStream {
    let name = ident(&op.type_name);
    let reply = super::reply_type(
        api,
        &op.reply,
        quote! { crate::Download },
        quote! { crate::ItemStream },
        quote! { crate::Upgraded },
    );
    let types = quote! { types:: };
    let mut fields = Vec::new();
    for p in &op.params {
        let (field, ty) = (ident(&p.name), rust_type(api, &p.ty, &types));
        fields.push(if p.required {
            quote! { #field: #ty }
        } else {
            quote! { #field: Option<#ty> }
        });
    }
    if let Some(body) = &op.body {
        let ty = body_type(api, body);
        fields.push(if body.required {
            quote! { body: #ty }
        } else {
            quote! { body: Option<#ty> }
        });
    }
    let docs = doc(&format!("Request builder for [`Client::{}`]: `{} {}`.", op.fn_name, op.method.as_str(), op.path));
    let cfg = if gated { super::cfg_any(&op.features) } else { None };
    let allow = op.deprecated.then(|| quote! { #[allow(deprecated)] });
    let setters = setters(api, op);
    let operation = operation_impl(api, usual, op, &name, &reply);
    let paging = op.paging.as_ref().map(|paging| paging::into_stream(api, op, paging));
    // `Client`'s method fills in the fields; the builder's own methods are its setters.
    let methods = (!setters.is_empty() || paging.is_some()).then(|| {
        quote! {
            #cfg
            #allow
            impl<'a> #name<'a> {
                #(#setters)*

                #paging
            }
        }
    });
    quote! {
        #docs
        #cfg
        #[derive(Debug, Clone)]
        #[must_use = "a request does nothing until it is awaited"]
        pub struct #name<'a> {
            pub(crate) client: &'a Client,
            #(pub(crate) #fields,)*
            pub(crate) timeout: Option<Duration>,
        }

        #methods

        #cfg
        #allow
        #operation

        #cfg
        crate::operation::request_builder!(#name, #reply);
    }
}

/// A setter per optional parameter, and for an optional body.
fn setters(api: &Api, op: &Operation) -> Vec<TokenStream> {
    let setter = |docs: String, field: proc_macro2::Ident, ty: TokenStream, convert: TokenStream| {
        let docs = doc(&docs);
        quote! {
            #docs
            pub fn #field(mut self, value: #ty) -> Self {
                self.#field = Some(#convert);
                self
            }
        }
    };
    let mut setters: Vec<TokenStream> = op
        .params
        .iter()
        .filter(|p| !p.required)
        .map(|p| {
            let mut text = p.doc.clone().unwrap_or_else(|| format!("Sets `{}`.", p.wire));
            if let Some(d) = &p.default {
                text.push_str(&format!("\n\nWhen not set, the server uses `{}`.", default_text(api, d)));
            }
            setter(text, ident(&p.name), arg_type(api, &p.ty), arg_convert(&p.ty, &quote! { value }))
        })
        .collect();
    if let Some(body) = op.body.as_ref().filter(|b| !b.required) {
        let note = format!("Sets the {} request body; without it the request has no body.", super::body_kind(body));
        let text = paragraphs([body.doc.as_deref(), Some(&note)]);
        setters.push(setter(text, format_ident!("body"), body_type(api, body), quote! { value }));
    }
    setters
}

/// `ApiClient::sign`: the usual credentials, each in its header.
fn sign_fn(api: &Api) -> TokenStream {
    let usual = super::facts::usual_credentials(api);
    let headers = usual.iter().map(|&i| {
        let c = &api.credentials[i];
        let (header, field) = (c.carrier.header(), ident(&c.field));
        quote! { .header(#header, credentials.#field.clone()) }
    });
    let credentials = match usual.is_empty() {
        true => quote! { _ },
        false => quote! { credentials },
    };
    quote! {
        fn sign(request: reqwest::RequestBuilder, #credentials: &CredentialHeaders) -> reqwest::RequestBuilder {
            request #(#headers)*
        }
    }
}

/// `impl Operation` for a builder: its call, how its request is built and how a successful reply
/// becomes its answer. The runtime's generic send path does the rest.
fn operation_impl(
    api: &Api,
    usual: &[usize],
    op: &Operation,
    name: &proc_macro2::Ident,
    reply: &TokenStream,
) -> TokenStream {
    let (id, method, path) = (&op.id, op.method.as_str(), &op.path);
    let statuses = op.reply.statuses().into_iter().map(proc_macro2::Literal::u16_unsuffixed);
    let signs_usually = super::facts::signs_usually(api, usual, op);
    let signing = match (op.credentials.is_empty(), signs_usually) {
        (true, _) => Some(quote! { const SIGNING: Signing = Signing::Anonymous; }),
        (false, true) => None,
        (false, false) => Some(quote! { const SIGNING: Signing = Signing::Own; }),
    };
    // The runtime adds the version header unless told the operation does not send it.
    let unversioned = (!api.common_headers.is_empty() && op.common_headers.is_empty())
        .then(|| quote! { const VERSIONED: bool = false; });
    let request = request_statements(api, op, signs_usually);
    // An operation that takes an `Idempotency-Key` gets one on every call, and may be retried.
    let keyed = op
        .params
        .iter()
        .any(|p| p.location == Location::Header && p.wire.eq_ignore_ascii_case("idempotency-key"))
        .then(|| quote! { .keyed() });
    let (read, answer) = read_reply(op);
    let reply_param = match matches!(op.reply, Reply::Empty { headers: None, .. }) {
        true => quote! { _ },
        false => quote! { reply },
    };
    quote! {
        impl Operation<Client> for #name<'_> {
            type Reply = #reply;
            type Read = #read;
            const CALL: Call = Call::new(#id, #method, #path, &[#(#statuses),*]) #keyed;
            #signing
            #unversioned

            fn request(self, client: Target<'_, Client>) -> Result<RequestBuilder, Error> {
                #request
            }

            fn reply(#reply_param: #read) -> Result<Self::Reply, Error> {
                #answer
            }
        }
    }
}

/// The body of `request()`: the URL, the credentials, parameters and body.
/// The body of `request()`: the URL, the credentials (unless the runtime adds the usual ones),
/// parameters and body. The runtime adds the version header.
fn request_statements(api: &Api, op: &Operation, signs_usually: bool) -> TokenStream {
    let own_credentials = !op.credentials.is_empty() && !signs_usually;
    let credentials = own_credentials.then(|| quote! { let credentials = client.credentials()?; });
    let sending = Sending::of(api, op);
    let choice = sending.choice(api);
    let url = build_url(op);
    // API keys that travel in the query join it last.
    let in_query: Vec<TokenStream> = sending
        .always()
        .map(|i| &api.credentials[i])
        .filter(|c| matches!(c.carrier, Carrier::Query(_)))
        .map(|c| {
            let field = ident(&c.field);
            quote! { &credentials.#field }
        })
        .collect();
    let in_query = (!in_query.is_empty())
        .then(|| quote! { let url = crate::encoding::with_query_credentials(url, &[#(#in_query),*]); });
    let conditional_query = sending.conditional_query(api);
    let accept = match &op.reply {
        Reply::Download { content_type, .. } | Reply::Stream { content_type, .. } => content_type.as_str(),
        _ => "application/json",
    };
    // A protocol switch is asked for with `Connection: upgrade` beside the `Upgrade` parameter.
    let upgrade = matches!(op.reply, Reply::Upgrade { .. })
        .then(|| quote! { .header(CONNECTION, HeaderValue::from_static("upgrade")) });
    // Credential cookies go in the one `Cookie` header, with the parameters; API keys in the
    // query are in the URL.
    let in_headers = |c: &&Credential| !matches!(c.carrier, Carrier::Cookie(_) | Carrier::Query(_));
    let own = sending.always().filter(|_| own_credentials).map(|i| &api.credentials[i]);
    let credential_headers = own.filter(in_headers).map(|c| {
        let (header, field) = (c.carrier.header(), ident(&c.field));
        quote! { .header(#header, credentials.#field.clone()) }
    });
    let mut headers = header_statements(api, op, &sending);
    headers.extend(sending.conditional_headers(api));
    let body = body_statement(api, op);
    let request = quote! { client.request(&Self::CALL, url, #accept) #upgrade #(#credential_headers)* };
    let request = match headers.is_empty() && body.is_none() {
        true => quote! { Ok(#request) },
        false => quote! {
            let mut request = #request;
            #(#headers)*
            #body
            Ok(request)
        },
    };
    quote! {
        #credentials
        #choice
        #url
        #in_query
        #(#conditional_query)*
        #request
    }
}

/// How much of a successful reply the runtime reads for `op`, and the body of `reply()`, which
/// turns that into the operation's answer.
fn read_reply(op: &Operation) -> (TokenStream, TokenStream) {
    let whole = quote! { Whole };
    match &op.reply {
        Reply::Empty { headers: Some(h), .. } => {
            let headers = read_headers(h);
            (whole, quote! { Ok(#headers) })
        }
        Reply::Json { headers: Some(h), .. } => {
            let headers = read_headers(h);
            (whole, quote! { Ok((reply.json()?, #headers)) })
        }
        Reply::Empty { .. } => (whole, quote! { Ok(()) }),
        Reply::Json { .. } => (whole, quote! { reply.json() }),
        Reply::Download { .. } => (quote! { Received }, quote! { Ok(crate::download::open(reply)) }),
        Reply::Stream { framing, .. } => {
            let framing = super::framing_variant(*framing);
            (quote! { Received }, quote! { Ok(crate::stream::open(reply, crate::framing::Framing::#framing)) })
        }
        Reply::Upgrade { .. } => (quote! { crate::Upgraded }, quote! { Ok(reply) }),
        Reply::Several(replies) => (whole, read_several(replies)),
    }
}

/// The types crate's `client.rs`: `from_error` on every operation's error enum, which needs the
/// client's `Error`; `None` when no operation documents error replies.
pub fn error_readers(api: &Api, part: TypesCrate<'_>) -> Option<TokenStream> {
    let readers: Vec<TokenStream> =
        super::split::error_enums(api, part).map(|e| super::gated(error_reader(e), part.cfg(&e.features))).collect();
    (!readers.is_empty()).then(|| {
        quote! {
            //! Reading the documented error replies out of the client's errors.

            use apigen_runtime::client::Error;

            use crate::types;

            #(#readers)*
        }
    })
}

/// `from_error` on an operation's error enum: the documented body of an [`Error::Status`].
fn error_reader(errors: &ErrorsDef) -> TokenStream {
    let ty = ident(&errors.name);
    let arms = errors.cases.iter().map(|case| {
        let variant = ident(&case.name);
        match case.status {
            ErrorStatus::Exact(status) => {
                let status = proc_macro2::Literal::u16_unsuffixed(status);
                quote! { #status => crate::request_json::from_slice(&status_error.body).ok().map(Self::#variant), }
            }
            ErrorStatus::Class(class) => {
                let (low, high) = (class * 100, class * 100 + 99);
                quote! {
                    status @ #low..=#high => {
                        crate::request_json::from_slice(&status_error.body).ok().map(|body| Self::#variant(status, body))
                    }
                }
            }
            ErrorStatus::Default => quote! {
                status => crate::request_json::from_slice(&status_error.body).ok().map(|body| Self::#variant(status, body)),
            },
        }
    });
    let fallback = errors.cases.iter().all(|c| c.status != ErrorStatus::Default).then(|| quote! { _ => None, });
    // Only `default`: every status is read the same way, with no match to choose.
    let read = match errors.cases.as_slice() {
        [only] if only.status == ErrorStatus::Default => {
            let variant = ident(&only.name);
            quote! {
                let status = status_error.status.as_u16();
                crate::request_json::from_slice(&status_error.body).ok().map(|body| Self::#variant(status, body))
            }
        }
        _ => quote! { match status_error.status.as_u16() { #(#arms)* #fallback } },
    };
    quote! {
        impl types::#ty {
            /// The documented error reply `error` carries: `None` unless the server answered one of
            /// the documented statuses with a body that decodes as documented.
            pub fn from_error(error: &Error) -> Option<Self> {
                let Error::Status(status_error) = error else { return None };
                #read
            }
        }
    }
}

/// The answer of a reply that may have any of several success statuses: the operation's reply
/// enum, by status.
fn read_several(replies: &RepliesDef) -> TokenStream {
    let ty = ident(&replies.name);
    let last = replies.cases.len() - 1;
    let arms = replies.cases.iter().enumerate().map(|(i, case)| {
        // The last status is the catch-all arm: the runtime has refused every other status.
        let pattern = if i == last {
            quote! { _ }
        } else {
            let s = proc_macro2::Literal::u16_unsuffixed(case.status);
            quote! { #s }
        };
        let variant = ident(&case.name);
        // The variant holds the body, then the headers.
        let body = case.body.as_ref().map(|_| quote! { reply.json()? });
        let headers = case.headers.as_ref().map(read_headers);
        let payload: Vec<TokenStream> = body.into_iter().chain(headers).collect();
        let payload = (!payload.is_empty()).then(|| quote! { (#(#payload),*) });
        quote! { #pattern => Ok(types::#ty::#variant #payload), }
    });
    quote! {
        match reply.status() {
            #(#arms)*
        }
    }
}

/// The reply headers `s`, read from `reply`: built with the struct's constructor, as the types
/// crate may add fields to it in a compatible release (`#[non_exhaustive]`).
fn read_headers(s: &StructDef) -> TokenStream {
    let ty = ident(&s.name);
    let wire = |f: &crate::ir::Field| f.wire.to_ascii_lowercase();
    let required: Vec<TokenStream> = s
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| {
            let wire = wire(f);
            quote! { reply.required_header(#wire)? }
        })
        .collect();
    let optional: Vec<(proc_macro2::Ident, TokenStream)> = s
        .fields
        .iter()
        .filter(|f| !f.required)
        .map(|f| {
            let wire = wire(f);
            (ident(&f.name), quote! { reply.header(#wire)? })
        })
        .collect();
    super::build_headers(quote! { types::#ty }, &required, &optional)
}

/// Code that writes the URL: base, path with encoded parameters, query string.
/// Appends a literal part of a path template, as hand-written code would.
fn push_literal(literal: &str) -> TokenStream {
    let mut chars = literal.chars();
    match (chars.next(), chars.next()) {
        (None, _) => TokenStream::new(),
        (Some(c), None) => quote! { url.push(#c); },
        _ => quote! { url.push_str(#literal); },
    }
}

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
            push_literal(literal)
        });
        first = false;
        let wire = &rest[start + 1..end];
        let p = op
            .params
            .iter()
            .find(|p| p.location == Location::Path && p.wire == wire)
            .expect("path parameters were checked while lowering");
        let field = ident(&p.name);
        let wire = &p.wire;
        if !p.path_prefix.is_empty() {
            steps.push(push_literal(&p.path_prefix));
        }
        steps.push(match (&p.ty, p.object_style) {
            _ if p.json => quote! { push_segment(&mut url, &crate::encoding::json_text(#wire, &self.#field)?); },
            (_, Some(_)) => {
                let explode = p.explode;
                quote! { push_object_segment(&mut url, #explode, &self.#field); }
            }
            (TypeRef::Vec(_), None) => {
                let separator = p.path_separator();
                quote! { push_list_segment(&mut url, #separator, &self.#field); }
            }
            (TypeRef::String, None) => quote! { push_segment(&mut url, &self.#field); },
            _ => quote! { push_segment(&mut url, &self.#field.to_string()); },
        });
        rest = &rest[end + 1..];
    }
    let query: Vec<_> = op.params.iter().filter(|p| p.location == Location::Query).map(query_step).collect();
    let mutable = (!query.is_empty()).then(|| quote! { mut });
    if first {
        steps.push(quote! { let #mutable url = client.url(#rest); });
    } else {
        steps.push(push_literal(rest));
        let template = &op.path;
        steps.push(quote! { client.check_path(&url, #template)?; });
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
    if p.json {
        let push = if matches!(p.ty, TypeRef::Vec(_)) {
            quote! { push_json_each }
        } else {
            quote! { push_json }
        };
        return if p.required {
            quote! { query.#push(#wire, &self.#field)?; }
        } else {
            quote! { if let Some(value) = &self.#field { query.#push(#wire, value)?; } }
        };
    }
    if let Some(style) = p.object_style {
        let deep = style == ObjectStyle::Deep;
        return if p.required {
            quote! { query.push_object(#wire, #deep, &self.#field); }
        } else {
            quote! { if let Some(value) = &self.#field { query.push_object(#wire, #deep, value); } }
        };
    }
    // A joined list refuses an item that holds its delimiter.
    let (push, delimiter, fallible) = match (&p.ty, p.explode) {
        (TypeRef::Vec(_), true) => (quote! { push_each }, None, None),
        (TypeRef::Vec(_), false) => {
            let delimiter = p.delimiter;
            (quote! { push_joined }, Some(quote! { #delimiter, }), Some(quote! { ? }))
        }
        _ => (quote! { push }, None, None),
    };
    match (p.required, &p.ty, p.explode) {
        (true, ..) => quote! { query.#push(#wire, #delimiter &self.#field)#fallible; },
        // An unset parameter is no pair at all; a set one, a pair per value.
        (false, TypeRef::Vec(_), true) => quote! { query.push_all(#wire, self.#field.iter().flatten()); },
        (false, TypeRef::Vec(_), false) => {
            quote! { if let Some(value) = &self.#field { query.#push(#wire, #delimiter value)#fallible; } }
        }
        (false, ..) => quote! { query.push_all(#wire, self.#field.iter()); },
    }
}

/// Whether `op` sends a `Cookie` header: a credential or a parameter travels as a cookie.
fn sends_cookies(api: &Api, op: &Operation) -> bool {
    let sent = Sending::of(api, op);
    sent.sets.iter().flatten().any(|&i| matches!(api.credentials[i].carrier, Carrier::Cookie(_)))
        || op.params.iter().any(|p| p.location == Location::Cookie)
}

/// The credentials a call sends: the sets the document accepts, in its order, up to the first the
/// client always holds (a later one would never be chosen).
struct Sending {
    sets: Vec<Vec<usize>>,
}

impl Sending {
    fn of(api: &Api, op: &Operation) -> Sending {
        Sending { sets: api.client_sets(op) }
    }

    /// The credentials sent whatever is set: all of them when there is one set to send.
    fn always(&self) -> impl Iterator<Item = usize> + '_ {
        let one = if let [set] = self.sets.as_slice() { set.as_slice() } else { &[] };
        one.iter().copied()
    }

    /// `let alternative = ...;`: the index of the first set whose credentials are all set, or
    /// an error naming the sets when none is and the client holds none for certain.
    fn choice(&self, api: &Api) -> Option<TokenStream> {
        if self.sets.len() < 2 {
            return None;
        }
        let last = self.sets.len() - 1;
        let always_last = self.sets[last].iter().all(|&i| !api.credentials[i].optional);
        let tested = if always_last { &self.sets[..last] } else { &self.sets[..] };
        let branches = tested.iter().enumerate().map(|(n, set)| {
            let fields =
                set.iter().filter(|&&i| api.credentials[i].optional).map(|&i| ident(&api.credentials[i].field));
            let n = Literal::usize_unsuffixed(n);
            quote! { if #(credentials.#fields.is_some())&&* { #n } }
        });
        let otherwise = if always_last {
            let last = Literal::usize_unsuffixed(last);
            quote! { #last }
        } else {
            let sets: Vec<Vec<&Credential>> =
                self.sets.iter().map(|set| set.iter().map(|&i| &api.credentials[i]).collect()).collect();
            let accepted = super::accepted_sets(&sets);
            quote! { return Err(Error::MissingCredentials { operation: Self::CALL.operation, accepted: #accepted }) }
        };
        Some(quote! {
            // The first set of credentials the operation accepts that is all set.
            let alternative = #(#branches else)* { #otherwise };
        })
    }

    /// For each credential `include` keeps that only some sets send, `action` on its value (a
    /// `&HeaderValue`) when the chosen set sends it.
    fn conditional(
        &self,
        api: &Api,
        include: impl Fn(&usize) -> bool,
        action: impl Fn(&Credential, TokenStream) -> TokenStream,
    ) -> Vec<TokenStream> {
        if self.sets.len() < 2 {
            return Vec::new();
        }
        let mut all: Vec<usize> = self.sets.iter().flatten().copied().filter(|i| include(i)).collect();
        all.sort_unstable();
        all.dedup();
        all.into_iter()
            .map(|i| {
                let c = &api.credentials[i];
                let field = ident(&c.field);
                let sets = self.sets.iter().enumerate().filter(|(_, set)| set.contains(&i));
                let sets = sets.map(|(n, _)| Literal::usize_unsuffixed(n));
                let act = action(c, quote! { value });
                if c.optional {
                    quote! { if let (#(#sets)|*, Some(value)) = (alternative, &credentials.#field) { #act } }
                } else {
                    quote! { if let (#(#sets)|*, value) = (alternative, &credentials.#field) { #act } }
                }
            })
            .collect()
    }

    /// The chosen set's credentials that travel in headers of their own.
    fn conditional_headers(&self, api: &Api) -> Vec<TokenStream> {
        let in_headers = |i: &usize| !matches!(api.credentials[*i].carrier, Carrier::Cookie(_) | Carrier::Query(_));
        self.conditional(api, in_headers, |c, value| {
            let header = c.carrier.header();
            quote! { request = request.header(#header, #value.clone()); }
        })
    }

    /// The chosen set's API keys that travel in the query, joining it last.
    fn conditional_query(&self, api: &Api) -> Vec<TokenStream> {
        let in_query = |i: &usize| matches!(api.credentials[*i].carrier, Carrier::Query(_));
        self.conditional(api, in_query, |_, value| quote! { crate::encoding::with_query_credentials(url, &[#value]) })
            .into_iter()
            .map(|joined| quote! { let url = #joined else { url }; })
            .collect()
    }
}

/// Statements for header and cookie parameters, which may fail or be absent, and the one
/// `Cookie` header that carries the parameters and credentials sent as cookies.
fn header_statements(api: &Api, op: &Operation, sending: &Sending) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for p in op.params.iter().filter(|p| p.location == Location::Header) {
        let field = ident(&p.name);
        let wire = &p.wire;
        let value = if p.required {
            quote! { &self.#field }
        } else {
            quote! { value }
        };
        // A list is its items joined by commas, an object its properties and values
        // (`style: simple`).
        let text = if p.json {
            quote! { crate::encoding::json_text(#wire, #value)? }
        } else if p.object_style.is_some() {
            let explode = p.explode;
            quote! { crate::encoding::simple_object(#explode, #value) }
        } else if matches!(p.ty, TypeRef::Vec(_)) {
            quote! { #value.iter().map(ToString::to_string).collect::<Vec<_>>().join(",") }
        } else {
            quote! { #value.to_string() }
        };
        let set = quote! {
            let value = HeaderValue::try_from(#text)
                .map_err(|_| Error::InvalidArgument { name: #wire, reason: "not a valid header value".to_string() })?;
            request = request.header(#wire, value);
        };
        out.push(if p.required {
            quote! { { #set } }
        } else {
            quote! { if let Some(value) = &self.#field { #set } }
        });
    }
    if sends_cookies(api, op) {
        let is_cookie = |i: &usize| matches!(api.credentials[*i].carrier, Carrier::Cookie(_));
        let credentials = sending.always().filter(is_cookie).map(|i| {
            let field = ident(&api.credentials[i].field);
            quote! { cookies.credential(&credentials.#field); }
        });
        let chosen = sending.conditional(api, is_cookie, |_, value| quote! { cookies.credential(#value); });
        let params = op.params.iter().filter(|p| p.location == Location::Cookie).map(|p| {
            let (field, wire) = (ident(&p.name), &p.wire);
            let (text, text_of_value) = if p.json {
                (
                    quote! { crate::encoding::json_text(#wire, &self.#field)? },
                    quote! { crate::encoding::json_text(#wire, value)? },
                )
            } else {
                (quote! { self.#field.to_string() }, quote! { value.to_string() })
            };
            if p.required {
                quote! { cookies.push(#wire, &#text); }
            } else {
                quote! { if let Some(value) = &self.#field { cookies.push(#wire, &#text_of_value); } }
            }
        });
        out.push(quote! {
            let mut cookies = Cookies::default();
            #(#credentials)*
            #(#chosen)*
            #(#params)*
            request = cookies.set(request)?;
        });
    }
    out
}

/// The statement that encodes and sets the body, if the operation has one.
fn body_statement(api: &Api, op: &Operation) -> Option<TokenStream> {
    let b = op.body.as_ref()?;
    // Bytes and text go as they are, moved rather than copied; others are encoded from a borrow.
    let by_value = |b: &Body| matches!(b.encoding, BodyEncoding::Binary | BodyEncoding::Text);
    let Some(choice) = &b.choice else {
        let write = encode_body(api, b);
        return Some(match (by_value(b), b.required) {
            (true, true) => quote! { let body = self.body; #write },
            (true, false) => quote! { if let Some(body) = self.body { #write } },
            (false, true) => quote! { let body = &self.body; #write },
            (false, false) => quote! { if let Some(body) = &self.body { #write } },
        });
    };
    // A case at a time, its body bound as a body of its one media type is.
    let name = format_ident!("{}", choice.name);
    let arms = choice.cases.iter().map(|case| {
        let variant = format_ident!("{}", case.name);
        let write = encode_body(api, &case.body);
        let borrow = (!by_value(&case.body)).then(|| quote! { let body = &body; });
        quote! { types::#name::#variant(body) => { #borrow #write } }
    });
    Some(match b.required {
        true => quote! { match self.body { #(#arms)* } },
        false => quote! { if let Some(body) = self.body { match body { #(#arms)* } } },
    })
}

/// The statements that set a body of one media type, bound to `body` (by value for bytes and
/// text, else borrowed).
fn encode_body(api: &Api, b: &Body) -> TokenStream {
    let content_type = &b.content_type;
    let invalid = quote! { map_err(|e| Error::InvalidArgument { name: "body", reason: e.to_string() })? };
    match b.encoding {
        BodyEncoding::Binary | BodyEncoding::Text => {
            quote! { request = request.header(CONTENT_TYPE, HeaderValue::from_static(#content_type)).body(body); }
        }
        BodyEncoding::Multipart => {
            // The content type names the boundary, so it is made with the bytes.
            let (always, files) = file_parts(api, &b.ty);
            // A multipart body without file fields sends none.
            // (No type named, so a crate without files need not re-export `File`.)
            let declare = match (always.is_empty(), files.is_empty()) {
                (true, true) => quote! { let files = Vec::new(); },
                (false, true) => quote! { let files: Vec<(&str, &crate::File)> = vec![#(#always),*]; },
                (true, false) => quote! { let mut files: Vec<(&str, &crate::File)> = Vec::new(); },
                (false, false) => quote! { let mut files: Vec<(&str, &crate::File)> = vec![#(#always),*]; },
            };
            quote! {
                #declare
                #(#files)*
                let (content_type, bytes) = crate::multipart::multipart_body(body, &files).#invalid;
                let content_type = HeaderValue::try_from(content_type).#invalid;
                request = request.header(CONTENT_TYPE, content_type).body(bytes);
            }
        }
        BodyEncoding::Json => quote! { request = transport::json_body(request, #content_type, body)?; },
        BodyEncoding::Form => quote! { request = transport::form_body(request, #content_type, body)?; },
    }
}

/// Statements that list a multipart body's files, by wire name, in `files`.
/// The file parts of a multipart body: those always present (a required single file), as
/// `(name, file)` pairs, and statements adding the others to `files`.
fn file_parts(api: &Api, ty: &TypeRef) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let (mut always, mut others) = (Vec::new(), Vec::new());
    for f in super::file_fields(api, ty) {
        let (field, wire) = (ident(&f.name), &f.wire);
        let each = match (f.ty == TypeRef::File, f.required && !f.nullable) {
            (true, true) => {
                always.push(quote! { (#wire, &body.#field) });
                continue;
            }
            (true, false) | (false, true) => quote! { body.#field.iter() },
            (false, false) => quote! { body.#field.iter().flatten() },
        };
        others.push(quote! { files.extend(#each.map(|file| (#wire, file))); });
    }
    (always, others)
}

/// `lib.rs` of the client crate.
pub fn lib_module(api: &Api, crate_ident: &str, types: &super::split::Reexport) -> TokenStream {
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
    let file_use = super::facts::mentions_files(api).then(|| quote! { File, });
    let nullable_use = super::facts::has_tristate(api).then(|| quote! { Nullable, });
    let description = api.description.as_deref().map(inner_doc);
    let example = first.map(|op| example_doc(api, op, crate_ident));
    let (tags_attr, tags_doc) = super::tag_features_note(api).map(|(a, d)| (a, inner_doc(&d))).unzip();
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
