//! The client crate's emitters, one file for each file they write, and how an operation's
//! arguments are typed, which the client's methods and the builders share.

mod builders;
mod methods;
mod paging;
mod replies;
mod request;
mod root;

pub use builders::{builder, builder_files, builders_header};
pub use methods::client_module;
pub use replies::error_readers;
pub use root::lib_module;

use proc_macro2::TokenStream;
use quote::quote;

use super::rust_type;
use crate::ir::{Api, Body, Operation, Param, TypeRef};

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
