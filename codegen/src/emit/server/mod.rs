//! The server crate's emitters, one file for each file they write, and what several of them
//! share: the trait method's signature and the input and reply types it names.

mod api;
mod body;
mod errors;
mod handler;
mod inputs;
mod mock;
mod reply;
mod root;
mod router;
mod validate;

pub use api::api_module;
pub use errors::{error_replies, errors_module};
pub use handler::handler;
pub use inputs::{input_struct, inputs_header};
pub use mock::mock_module;
pub use root::{document_file, lib_module};
pub use router::router_header;
pub use validate::{has_param_patterns, has_patterns, validate_header, validate_item, validate_items};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::emit::ident;
use crate::ir::{Api, Operation};

/// Whether every operation requires credential `i`, so the context can hold it as a plain `String`.
fn universal(api: &Api, i: usize) -> bool {
    api.operations.iter().all(|op| op.credential_alternatives.is_empty() && op.credentials.contains(&i))
}

fn input_name(op: &Operation) -> proc_macro2::Ident {
    format_ident!("{}Input", op.type_name)
}

/// The signature of an operation's method, the same in the trait, its partial twin and the mock.
fn method_signature(api: &Api, op: &Operation) -> TokenStream {
    let (name, input, reply) = (ident(&op.fn_name), input_name(op), server_reply_type(api, op));
    quote! {
        fn #name(&self, ctx: RequestContext, input: inputs::#input)
            -> impl Future<Output = ApiResult<#reply>> + Send
    }
}

/// The type an operation's method returns in `Ok`.
fn server_reply_type(api: &Api, op: &Operation) -> TokenStream {
    crate::emit::reply_type(api, &op.reply, quote! { FileDownload }, quote! { ItemStream }, quote! { Switch })
}
