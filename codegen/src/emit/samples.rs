//! `samples.rs` of the server crate: what [`MockApi::sampled`] answers each operation with when
//! no handler is set, from the document's examples or values sampled from its schemas.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Imports, Uses, ident};
use crate::ir::{Api, Operation, Reply, ReplySample, StructDef};

/// Whether the mock can answer `op` on its own: a sample exists for each part of its reply.
pub fn has_sample(op: &Operation) -> bool {
    sample_expr(op, &ident("sample")).is_some()
}

/// The runtime's reader of a sample's JSON text, under a name no operation's function here takes
/// (`sample` unless an operation is called so).
fn reader_name(api: &Api) -> proc_macro2::Ident {
    let taken = |name: &str| api.operations.iter().any(|op| op.fn_name == name);
    let free = (0..).map(|n| match n {
        0 => "sample".to_string(),
        1 => "read_sample".to_string(),
        n => format!("read_sample{n}"),
    });
    ident(&free.into_iter().find(|name| !taken(name)).unwrap_or_default())
}

/// The module: one function per operation that has a sample.
pub fn samples_module(api: &Api) -> TokenStream {
    let reader = reader_name(api);
    let functions = api.operations.iter().filter_map(|op| {
        let body = sample_expr(op, &reader)?;
        let name = ident(&op.fn_name);
        let reply =
            super::reply_type(api, &op.reply, quote! { FileDownload }, quote! { ItemStream }, quote! { Switch });
        let docs = super::doc(&format!("The reply to `{}` when no handler is set.", op.id));
        Some(quote! {
            #docs
            pub(crate) fn #name() -> ApiResult<#reply> {
                #body
            }
        })
    });
    let functions: Vec<TokenStream> = functions.collect();
    // What the signatures name decides the imports, as in the trait's module.
    let mut imports = Imports::default();
    if !functions.is_empty() {
        imports.add("crate::ApiResult");
    }
    let mut uses = Uses::default();
    let sampled = || api.operations.iter().filter(|op| has_sample(op));
    for op in sampled() {
        match &op.reply {
            Reply::Json { ty, .. } | Reply::Stream { item: ty, .. } => uses.add(ty),
            Reply::Download { .. } => {
                imports.add("crate::FileDownload");
            }
            _ => {}
        }
        if matches!(op.reply, Reply::Stream { .. }) {
            imports.add("crate::ItemStream");
        }
    }
    uses.add_to(&mut imports, "crate::DateTime");
    let text = quote! { #(#functions)* }.to_string();
    if text.contains("types ::") {
        imports.add("crate::types");
    }
    // Only replies with a body or headers read a sample; an empty one or a download does not.
    if text.contains(&format!("{reader} (")) {
        let path = if reader == "sample" {
            "apigen_runtime::codegen::server::mock::sample".to_string()
        } else {
            format!("apigen_runtime::codegen::server::mock::sample as {reader}")
        };
        imports.add(&path);
    }
    let imports = imports.tokens();
    quote! {
        //! What [`MockApi::sampled`](crate::MockApi::sampled) answers each operation with when no
        //! handler is set: the document's example where it is valid, else a value sampled from the
        //! reply's schema.

        #imports

        #(#functions)*
    }
}

/// The function body that makes the sampled reply of `op`.
fn sample_expr(op: &Operation, reader: &proc_macro2::Ident) -> Option<TokenStream> {
    let sample = op.sample.as_ref()?;
    let body = || sample.body.as_ref().map(|text| quote! { #reader(#text)? });
    let expr = match &op.reply {
        Reply::Empty { headers: None, .. } => quote! { () },
        Reply::Empty { headers: Some(h), .. } => headers(h, sample, reader)?,
        // The sample is the whole reply: no `Ok(…?)` around it.
        Reply::Json { headers: None, .. } => {
            let text = sample.body.as_ref()?;
            return Some(quote! { #reader(#text) });
        }
        Reply::Json { headers: Some(h), .. } => {
            let (body, headers) = (body()?, headers(h, sample, reader)?);
            quote! { (#body, #headers) }
        }
        Reply::Several(replies) => {
            let case = replies.cases.first()?;
            let enum_name = ident(&replies.name);
            let variant = ident(&case.name);
            let mut payload = Vec::new();
            if case.body.is_some() {
                payload.push(body()?);
            }
            if let Some(h) = &case.headers {
                payload.push(headers(h, sample, reader)?);
            }
            match payload.is_empty() {
                true => quote! { types::#enum_name::#variant },
                false => quote! { types::#enum_name::#variant(#(#payload),*) },
            }
        }
        Reply::Download { content_type, .. } => {
            // Of several types (a download at several statuses), the first; a range such as `*/*`
            // names no type a reply can carry.
            let first = content_type.split(", ").next().unwrap_or(content_type);
            let content_type = crate::ir::media_type_within(first);
            // Bytes sent as JSON (a file a Swagger 2.0 document produces as JSON) are JSON.
            let json = content_type.contains("json");
            let bytes = match sample.body.as_deref() {
                Some(body) if !json || serde_json::from_str::<serde_json::Value>(body).is_ok() => body,
                _ if json => "\"sample\"",
                _ => "sample",
            };
            quote! { FileDownload::new(#bytes).with_content_type(#content_type) }
        }
        Reply::Stream { .. } => {
            let item = body()?;
            quote! { ItemStream::from_items([#item]) }
        }
        Reply::Upgrade { .. } => return None,
    };
    Some(quote! { Ok(#expr) })
}

/// A reply's header struct with each header sampled (an optional one without a sample is left
/// empty), built with its constructor: the struct is `#[non_exhaustive]` in the types crate.
fn headers(h: &StructDef, sample: &ReplySample, reader: &proc_macro2::Ident) -> Option<TokenStream> {
    let name = ident(&h.name);
    let sampled = |field: &crate::ir::Field| {
        sample.headers.iter().find(|(name, _)| *name == field.name).map(|(_, text)| quote! { #reader(#text)? })
    };
    let required: Vec<TokenStream> = h.fields.iter().filter(|f| f.required).map(sampled).collect::<Option<_>>()?;
    let optional: Vec<(proc_macro2::Ident, TokenStream)> =
        h.fields.iter().filter(|f| !f.required).filter_map(|f| Some((ident(&f.name), sampled(f)?))).collect();
    Some(super::build_headers(quote! { types::#name }, &required, &optional))
}
