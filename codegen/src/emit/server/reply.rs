//! How a handler writes an operation's reply: its status, headers and body.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::emit::ident;
use crate::ir::{Operation, RepliesDef, Reply, StructDef};

/// Statements that turn the implementation's `value` into the reply, for replies other than a
/// plain body or none.
pub(super) fn write_reply(op: &Operation) -> TokenStream {
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
            let framing = crate::emit::framing_variant(*framing);
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
