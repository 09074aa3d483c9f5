//! Enums of wire values, integers or strings, with a variant for values the spec does not list.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::emit::ident;
use crate::ir::{IntEnumDef, StringEnumDef};

/// The doc of an enum's variant for values the spec does not list.
const UNLISTED_DOC: &str = "A value the spec does not list, as written on the wire. A client reads it from a\n\
     service newer than its spec; a server generated from the spec refuses it in requests.";

/// How an enum's values are written on the wire.
#[derive(Clone, Copy)]
enum Wire {
    Integer,
    Text,
}

/// The declaration of an enum of wire values; the runtime's `int_enum!` or `string_enum!` writes
/// the rest (`ALL`, the wire form, parsing, serde) from the values its variants stand for.
fn wire_enum<'a>(
    name: &str,
    doc: &str,
    variants: impl Iterator<Item = (&'a String, String, TokenStream)> + Clone,
    unlisted: &str,
    wire: Wire,
) -> TokenStream {
    // Integers are `Copy`; text is not.
    let (wire_type, copy, support) = match wire {
        Wire::Integer => (quote! { i64 }, Some(quote! { Copy, }), quote! { int_enum }),
        Wire::Text => (quote! { String }, None, quote! { string_enum }),
    };
    let (name, unlisted) = (ident(name), ident(unlisted));
    let docs = crate::emit::doc(doc);
    let declared = variants.clone().map(|(variant, doc, _)| {
        let (variant, doc) = (ident(variant), crate::emit::doc(&doc));
        quote! { #doc #variant, }
    });
    let pairs = variants.map(|(variant, _, wire)| {
        let variant = ident(variant);
        quote! { #variant(#wire) }
    });
    let unlisted_doc = crate::emit::doc(UNLISTED_DOC);
    quote! {
        #docs
        #[derive(Debug, Clone, #copy PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #(#declared)*
            #unlisted_doc
            #unlisted(#wire_type),
        }

        crate::enums::#support!(#name, #unlisted, [#(#pairs),*]);
    }
}

pub(super) fn int_enum(e: &IntEnumDef) -> TokenStream {
    let doc = e.doc.clone().unwrap_or_else(|| format!("The `{}` enum, written on the wire as an integer.", e.name));
    let variants = e.variants.iter().map(|(variant, value)| {
        let wire = Literal::i64_unsuffixed(*value);
        (variant, format!("`{value}` on the wire."), quote! { #wire })
    });
    wire_enum(&e.name, &doc, variants, &e.unlisted, Wire::Integer)
}

pub(super) fn string_enum(e: &StringEnumDef) -> TokenStream {
    let doc = e.doc.clone().unwrap_or_else(|| format!("The `{}` enum, written on the wire as a string.", e.name));
    let variants =
        e.variants.iter().map(|(variant, wire)| (variant, format!("`{wire:?}` on the wire."), quote! { #wire }));
    wire_enum(&e.name, &doc, variants, &e.unlisted, Wire::Text)
}
