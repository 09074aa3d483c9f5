//! `client.rs`: the client, its credentials and one method per operation.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{arg_convert, arg_converts, arg_type, body_type, required_params};

use crate::emit::{Imports, Uses, doc, ident, names_type, operation_doc, paragraphs};
use crate::ir::{Api, Carrier, Credential, Operation};
use crate::render::{Block, Part};

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
    let cred_values = credential_values(&credentials);
    let imports = client_imports(api, &credentials);
    let credentials = credentials_items(&credentials);
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
    quote! {
        //! The client, its credentials, and one method per operation.

        #imports

        #version_doc
        pub const API_VERSION: &str = #version;

        #base_const

        #credentials

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

/// `Credentials`, with a constructor taking the ones every client needs and a setter for each of
/// the others, and `CredentialHeaders`, the same as header values checked once.
fn credentials_items(credentials: &[&Credential]) -> TokenStream {
    let cred_fields: Vec<_> = credentials.iter().map(|c| ident(&c.field)).collect();
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
    quote! {
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
    }
}

/// Each credential's value as its header, cookie or query value, checked.
fn credential_values(credentials: &[&Credential]) -> Vec<TokenStream> {
    credentials
        .iter()
        .map(|c| {
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
                let template = format!("{}{{}}", crate::emit::format_literal(&prefix));
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
        })
        .collect()
}

/// What `client.rs` imports: the runtime's credential encoders it uses, and the types its
/// methods' arguments name.
fn client_imports(api: &Api, credentials: &[&Credential]) -> TokenStream {
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
    imports.tokens()
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

/// The client's method for `op`: its required parameters as arguments, returning its builder.
pub(super) fn method(api: &Api, op: &Operation) -> TokenStream {
    let body_note = match &op.body {
        Some(b) if b.required => format!("The {} request body is required.", crate::emit::body_kind(b)),
        Some(b) => format!("The {} request body is optional; set it with `.body(...)`.", crate::emit::body_kind(b)),
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
    let cfg = crate::emit::cfg_any(&op.features);
    quote! {
        #docs
        #cfg
        #deprecated
        pub fn #fn_name(&self, #(#args),*) -> builders::#builder<'_> {
            builders::#builder { client: self, #(#inits,)* timeout: None }
        }
    }
}

/// `ApiClient::sign`: the usual credentials, each in its header.
fn sign_fn(api: &Api) -> TokenStream {
    let usual = crate::emit::facts::usual_credentials(api);
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
