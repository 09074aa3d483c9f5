//! `inputs.rs`: an input struct per operation, its parameters and body as the router validated
//! them.

use proc_macro2::TokenStream;
use quote::quote;

use super::input_name;

use crate::emit::{Imports, Uses, default_text, doc, ident, names_type, paragraphs, rust_type};
use crate::ir::{Api, BodyEncoding, Location, Operation};

/// Imports for code that holds every operation's parameters and body (inputs and handlers).
pub(super) fn add_input_imports(api: &Api, imports: &mut Imports, cases: bool) {
    let mut uses = Uses::default();
    let mut needs_types = false;
    let bodies = api.operations.iter().filter_map(|op| op.body.as_ref());
    // A body of several cases is their enum: only the router, which reads each case, names the
    // cases' own types.
    let body_types =
        bodies.flat_map(|b| std::iter::once(&b.ty).chain(b.cases().into_iter().map(|c| &c.ty).filter(|_| cases)));
    for ty in api.operations.iter().flat_map(|op| op.params.iter().map(|p| &p.ty)).chain(body_types) {
        uses.add(ty);
        needs_types |= names_type(ty);
    }
    if needs_types {
        imports.add("crate::types");
    }
    uses.add_to(imports, "crate::DateTime");
}

/// The head of `inputs.rs` (docs and imports); [`input_struct`] gives one operation's struct.
pub fn inputs_header(api: &Api) -> TokenStream {
    let mut imports = Imports::default();
    add_input_imports(api, &mut imports, false);
    let imports = imports.tokens();
    quote! {
        //! One input struct per operation: its path, query and header parameters and its body.

        #imports
    }
}

/// The input struct of one operation.
pub fn input_struct(api: &Api, op: &Operation) -> TokenStream {
    let docs = doc(&format!(
        "Input of `{} {}` (operation `{}`), validated, with defaults applied.",
        op.method.as_str(),
        op.path,
        op.id
    ));
    let types = quote! { types:: };
    let params = op.params.iter().map(|p| {
        let ty = rust_type(api, &p.ty, &types);
        let ty = if p.required || p.default.is_some() {
            ty
        } else {
            quote! { Option<#ty> }
        };
        // Where the value comes from, its lower bound and its default, in one line.
        let source = match p.location {
            Location::Path => format!("The `{{{}}}` path segment", p.wire),
            Location::Query => format!("The `{}` query parameter", p.wire),
            Location::Header => format!("The `{}` header", p.wire),
            Location::Cookie => format!("The `{}` cookie", p.wire),
        };
        let limits = (!p.constraints.is_empty()).then(|| crate::emit::limit_clauses(&p.constraints).join("; "));
        let default = p.default.as_ref().map(|d| format!("`{}` when the request leaves it out", default_text(api, d)));
        let facts: Vec<String> = limits.into_iter().chain(default).collect();
        let source = if facts.is_empty() { format!("{source}.") } else { format!("{source}: {}.", facts.join("; ")) };
        let (docs, name) = (doc(&paragraphs([p.doc.as_deref(), Some(&source)])), ident(&p.name));
        quote! { #docs pub #name: #ty, }
    });
    let body = op.body.as_ref().map(|b| {
        let ty = rust_type(api, &b.ty, &types);
        let ty = if b.required {
            ty
        } else {
            quote! { Option<#ty> }
        };
        let docs = doc(&paragraphs([
            b.doc.as_deref(),
            Some(match (b.encoding, b.required) {
                _ if b.choice.is_some() && b.required => "The body, in whichever media type the request names.",
                _ if b.choice.is_some() => "The body, in whichever media type the request names, when it has one.",
                (BodyEncoding::Json, true) => "The JSON body.",
                (BodyEncoding::Json, false) => "The JSON body, when the request has one.",
                (BodyEncoding::Form, true) => "The form body.",
                (BodyEncoding::Form, false) => "The form body, when the request has one.",
                (BodyEncoding::Binary, true) => "The body's bytes.",
                (BodyEncoding::Binary, false) => "The body's bytes, when the request has a body.",
                (BodyEncoding::Text, true) => "The body's text.",
                (BodyEncoding::Text, false) => "The body's text, when the request has a body.",
                (BodyEncoding::Multipart, true) => "The multipart body.",
                (BodyEncoding::Multipart, false) => "The multipart body, when the request has one.",
            }),
        ]));
        quote! { #docs pub body: #ty, }
    });
    let name = input_name(op);
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct #name { #(#params)* #body }
    }
}
