//! How replies are read: the types crate's readers of documented error bodies, several
//! success replies by status, and reply headers.

use proc_macro2::TokenStream;
use quote::quote;

use crate::emit::ident;
use crate::emit::split::TypesCrate;
use crate::ir::{Api, ErrorStatus, ErrorsDef, RepliesDef, StructDef};

/// The types crate's `client.rs`: `from_error` on every operation's error enum, which needs the
/// client's `Error`; `None` when no operation documents error replies.
pub fn error_readers(api: &Api, part: TypesCrate<'_>) -> Option<TokenStream> {
    let readers: Vec<TokenStream> = crate::emit::split::error_enums(api, part)
        .map(|e| crate::emit::gated(error_reader(e), part.cfg(&e.features)))
        .collect();
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
pub(super) fn read_several(replies: &RepliesDef) -> TokenStream {
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
pub(super) fn read_headers(s: &StructDef) -> TokenStream {
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
    crate::emit::build_headers(quote! { types::#ty }, &required, &optional)
}
