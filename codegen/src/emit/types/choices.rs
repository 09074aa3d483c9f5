//! The enums an operation needs that no schema names: its documented error bodies, its request
//! bodies by media type and its success replies by status.

use proc_macro2::TokenStream;
use quote::quote;

use super::own_type;

use crate::emit::ident;
use crate::ir::{Api, BodiesDef, ErrorStatus, ErrorsDef, RepliesDef};

/// The documented error replies of one operation, a variant per status; the `default` reply's
/// variant also carries the status.
pub(super) fn errors(api: &Api, e: &ErrorsDef) -> TokenStream {
    if let Some(same_as) = &e.same_as {
        let docs = crate::emit::doc(&format!(
            "The documented error replies of `{}`: the same as [`{same_as}`], whose operation documents them too.",
            e.operation
        ));
        let (name, same_as) = (ident(&e.name), ident(same_as));
        return quote! { #docs pub type #name = #same_as; };
    }
    let also = match e.shared {
        0 => String::new(),
        1 => " and of one more operation, which documents the same".to_string(),
        n => format!(" and of {n} more operations, which document the same"),
    };
    let docs = crate::emit::doc(&format!(
        "The documented error replies of `{}`{also}, one variant per status. The client reads them from\n\
         its `Error` with `from_error`; a server implementation returns them as an `ApiError` with\n\
         `.into()`.",
        e.operation
    ));
    let cases = e.cases.iter().map(|case| {
        let status = match case.status {
            ErrorStatus::Exact(status) => status.to_string(),
            ErrorStatus::Class(class) => format!("Any {class}xx status not listed above"),
            ErrorStatus::Default => "Any other status".to_string(),
        };
        let docs = crate::emit::doc(&match &case.doc {
            Some(d) => format!("{status}: {d}"),
            None => format!("{status}."),
        });
        let status = (!matches!(case.status, ErrorStatus::Exact(_))).then(|| quote! { u16, });
        let (name, body) = (ident(&case.name), own_type(api, &case.body));
        quote! { #docs #name(#status #body), }
    });
    let name = ident(&e.name);
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum #name { #(#cases)* }
    }
}

/// The request body of one operation that the document describes differently per media type, a
/// variant per media type./// Exhaustive, unlike the schemas' enums: the server's router matches every case, so a new media
/// type changes the generated crates together.
pub(super) fn bodies(api: &Api, b: &BodiesDef) -> TokenStream {
    let docs = crate::emit::doc(&format!(
        "The request body of `{}`, a variant per media type: the client sends the variant's media type, \
         the server reads the one the request names.",
        b.operation
    ));
    let cases = b.cases.iter().map(|case| {
        let media: Vec<String> =
            case.body.accepted.iter().chain(&case.body.also_form).map(|ct| format!("`{ct}`")).collect();
        let docs = crate::emit::doc(&format!(
            "Sent as `{}`{}.",
            case.body.content_type,
            match media.len() {
                0 | 1 => String::new(),
                _ => format!(", read from any of {}", media.join(", ")),
            }
        ));
        let (name, body) = (ident(&case.name), own_type(api, &case.body.ty));
        quote! { #docs #name(#body), }
    });
    let name = ident(&b.name);
    // Files and bytes make one case far larger than another; a body is built once and moved
    // into the request, so boxing would only cost callers a `Box::new`.
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant, reason = "built once per request and moved")]
        pub enum #name { #(#cases)* }
    }
}

/// The success replies of one operation, a variant per status./// Exhaustive, unlike the schemas' enums: the client's builder and the server's router match every
/// case.
pub(super) fn replies(api: &Api, r: &RepliesDef) -> TokenStream {
    let docs = crate::emit::doc(&format!("The success replies of `{}`, one variant per status.", r.operation));
    let cases = r.cases.iter().map(|case| {
        let docs = crate::emit::doc(&match &case.doc {
            Some(d) => format!("{}: {d}", case.status),
            None => format!("{}.", case.status),
        });
        // The body, then the documented headers: `Created(Pet, PetCreatedHeaders)`.
        let body = case.body.as_ref().map(|ty| own_type(api, ty));
        let headers = case.headers.as_ref().map(|h| {
            let name = ident(&h.name);
            quote! { #name }
        });
        let payload: Vec<TokenStream> = body.into_iter().chain(headers).collect();
        let name = ident(&case.name);
        match payload.as_slice() {
            [] => quote! { #docs #name, },
            _ => quote! { #docs #name(#(#payload),*), },
        }
    });
    let name = ident(&r.name);
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        pub enum #name { #(#cases)* }
    }
}
