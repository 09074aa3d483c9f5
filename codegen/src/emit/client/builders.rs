//! The request builders, a file of them per tag: each operation's builder, its setters and
//! how it becomes a request and reads its reply.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::replies::{read_headers, read_several};
use super::request::{request_statements, sends_cookies};
use super::{arg_convert, arg_type, body_type};

use crate::emit::{Imports, Uses, default_text, doc, ident, names_type, paragraphs, rust_type};
use crate::ir::{Api, Body, BodyEncoding, Location, Operation, Reply, TypeRef};

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
    let usual = crate::emit::facts::usual_credentials(api);
    if ops.iter().copied().any(|op| !crate::emit::facts::signs_usually(api, &usual, op)) {
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
        let doc = crate::emit::inner_doc(&format!(
            "The request builders of the operations only the feature `{tag}` compiles."
        ));
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
/// The request builder of `op`; `usual` is [`crate::emit::facts::usual_credentials`].
pub fn builder(api: &Api, usual: &[usize], op: &Operation, gated: bool) -> TokenStream {
    let name = ident(&op.type_name);
    let reply = crate::emit::reply_type(
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
    let cfg = if gated { crate::emit::cfg_any(&op.features) } else { None };
    let allow = op.deprecated.then(|| quote! { #[allow(deprecated)] });
    let setters = setters(api, op);
    let operation = operation_impl(api, usual, op, &name, &reply);
    let paging = op.paging.as_ref().map(|paging| super::paging::into_stream(api, op, paging));
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
pub(super) fn setters(api: &Api, op: &Operation) -> Vec<TokenStream> {
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
        let note =
            format!("Sets the {} request body; without it the request has no body.", crate::emit::body_kind(body));
        let text = paragraphs([body.doc.as_deref(), Some(&note)]);
        setters.push(setter(text, format_ident!("body"), body_type(api, body), quote! { value }));
    }
    setters
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
    let signs_usually = crate::emit::facts::signs_usually(api, usual, op);
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
            let framing = crate::emit::framing_variant(*framing);
            (quote! { Received }, quote! { Ok(crate::stream::open(reply, crate::framing::Framing::#framing)) })
        }
        Reply::Upgrade { .. } => (quote! { crate::Upgraded }, quote! { Ok(reply) }),
        Reply::Several(replies) => (whole, read_several(replies)),
    }
}
