//! How a handler reads an operation's request body: per media type, within its limits, checked
//! against the document.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::router::closed_within;
use super::validate::{CheckedName, constraint_checks, validate_value};

use crate::emit::{ident, rust_type};
use crate::ir::{Api, BodyEncoding, Constraints, Field, TypeDef, TypeId, TypeRef};

/// Statements that read, and check, an operation's body into `body`.
pub(super) fn read_body(api: &Api, b: &crate::ir::Body, validated: &std::collections::BTreeSet<TypeId>) -> TokenStream {
    let Some(choice) = &b.choice else {
        let mut read = read_expr(api, b, &b.accepted);
        // Sent as XML, the body is read into JSON by its schema, then as JSON.
        if let Some(xml) = &b.xml {
            let (types, index) = (&xml.media_types, Literal::usize_unsuffixed(xml.schema));
            let (ty, required) = (rust_type(api, &b.ty, &quote! { types:: }), b.required);
            read = quote! {
                if extract::names_media_type(&parts.headers, &[#(#types),*]) {
                    extract::xml_body::<#ty>(&parts.headers, body, state.body(), &[#(#types),*], #required, |text| types::read_xml(#index, text), &mut problems).await?
                } else {
                    #read
                }
            };
        }
        let check = validate_value(api, &b.ty, quote! { body }, "at", &quote! { &mut problems }, validated);
        let check = (!check.is_empty()).then(|| quote! { if let Some(body) = &body { let at = "body"; #check } });
        let limits = body_limits(&b.constraints, quote! { value })
            .map(|limits| quote! { if let Some(value) = &body { #limits } });
        return quote! { let body = #read; #check #limits };
    };
    // The case whose media types name the request's; with none, the first, told to accept every
    // case's types, answers as a body of no listed type is answered (415, or absent).
    let name = format_ident!("{}", choice.name);
    let mut branches = Vec::new();
    let (mut checks, mut checked) = (Vec::new(), false);
    for case in &choice.cases {
        let variant = format_ident!("{}", case.name);
        let media: Vec<&String> = case.body.accepted.iter().chain(&case.body.also_form).collect();
        let read = read_expr(api, &case.body, &case.body.accepted);
        branches.push(quote! { if extract::names_media_type(&parts.headers, &[#(#media),*]) { #read.map(types::#name::#variant) } });
        let check = validate_value(api, &case.body.ty, quote! { body }, "at", &quote! { &mut problems }, validated);
        let limits = body_limits(&case.body.constraints, quote! { body });
        let check = quote! { #check #limits };
        checked |= !check.is_empty();
        let bind = if check.is_empty() {
            quote! { _ }
        } else {
            quote! { body }
        };
        checks.push(quote! { types::#name::#variant(#bind) => { #check } });
    }
    let first = &choice.cases[0];
    let variant = format_ident!("{}", first.name);
    let all: Vec<String> =
        choice.cases.iter().flat_map(|c| c.body.accepted.iter().chain(&c.body.also_form)).cloned().collect();
    let fallback = read_expr(api, &first.body, &all);
    let check = checked.then(|| {
        quote! { if let Some(body) = &body { let at = "body"; match body { #(#checks)* } } }
    });
    quote! {
        let body = #(#branches else)* { #fallback.map(types::#name::#variant) };
        #check
    }
}

/// The checks of the limits of a body that is no object, once it has been read (`value`, a
/// reference), naming it `body` (its items `body[0]`); none when its schema states none.
fn body_limits(c: &Constraints, value: TokenStream) -> Option<TokenStream> {
    if c.is_empty() {
        return None;
    }
    let checks = constraint_checks(c, &value, &CheckedName::Wire("body"), 0);
    Some(quote! {
        let (at, problems) = ("", &mut problems);
        #(#checks)*
    })
}

/// The expression that reads a body of one media type, accepting `accepted` (and its forms), as
/// an `Option`.
fn read_expr(api: &Api, b: &crate::ir::Body, accepted: &[String]) -> TokenStream {
    let ty = rust_type(api, &b.ty, &quote! { types:: });
    let closed = (!closed_within(api, &b.ty).is_empty()).then(|| quote! { CLOSED, });
    let read = match b.encoding {
        BodyEncoding::Json if closed.is_some() && b.also_form.is_empty() => quote! { extract::json_body_closed },
        BodyEncoding::Json => quote! { extract::json_body },
        BodyEncoding::Form => quote! { crate::form::form_body },
        BodyEncoding::Binary => quote! { extract::bytes_body },
        BodyEncoding::Text => quote! { extract::text_body },
        BodyEncoding::Multipart => quote! { crate::multipart::multipart_body },
    };
    let required = b.required;
    // A JSON body the document also takes as a form.
    let (read, accepted, forms) = if b.also_form.is_empty() {
        (read, accepted.to_vec(), None)
    } else {
        let forms = &b.also_form;
        let all = accepted.iter().chain(forms).cloned().collect();
        let closed = closed.clone().unwrap_or_else(|| quote! { &[], });
        (quote! { crate::form::json_or_form_body }, all, Some(quote! { &[#(#forms),*], #closed }))
    };
    let closed = closed.filter(|_| b.encoding == BodyEncoding::Json && b.also_form.is_empty());
    // A multipart body's files come beside it, to be moved into its file fields.
    let (file_fields, take_files) = match b.encoding {
        BodyEncoding::Multipart => {
            let (names, moves) = take_files(api, &b.ty);
            // A multipart body without file fields has no files to move.
            let take = if moves.is_empty() {
                quote! { .map(|(body, _)| body) }
            } else {
                quote! { .map(|(mut body, mut files)| { #(#moves)* body }) }
            };
            (Some(quote! { &[#(#names),*], }), Some(take))
        }
        _ => (None, None),
    };
    // Required lists and maps a form or multipart body leaves out when they are empty.
    let empties = matches!(b.encoding, BodyEncoding::Form | BodyEncoding::Multipart) || !b.also_form.is_empty();
    // Required lists and maps a form leaves out when empty, and fields that may be `null` whose
    // type has no text `null` (a form writes `null` there as that text).
    let (empties, nulls) = match empties {
        true => {
            let empty = |f: &Field| {
                f.required
                    && (matches!(&f.ty, TypeRef::Vec(item) if **item != TypeRef::File)
                        || matches!(&f.ty, TypeRef::Map(_)))
            };
            let null = |f: &Field| (f.nullable || f.tristate) && !holds_text(api, &f.ty, 0);
            let (empties, nulls) = (field_names(api, &b.ty, empty), field_names(api, &b.ty, null));
            (Some(quote! { &[#(#empties),*], }), Some(quote! { &[#(#nulls),*], }))
        }
        false => (None, None),
    };
    quote! {
        #read::<#ty>(&parts.headers, body, state.body(), &[#(#accepted),*], #forms #required, #closed #file_fields #empties #nulls &mut problems).await? #take_files
    }
}

/// The wire names of the fields of the struct `ty` names that `keep` keeps (none when `ty` is no
/// struct).
fn field_names<'a>(api: &'a Api, ty: &TypeRef, keep: impl Fn(&Field) -> bool) -> Vec<&'a str> {
    match ty {
        TypeRef::Named(id) => match api.ty(*id) {
            TypeDef::Struct(s) => s.fields.iter().filter(|f| keep(f)).map(|f| f.wire.as_str()).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Whether a value of `ty` may be the text `null`: text, any JSON, or a choice or alias that
/// holds either.
fn holds_text(api: &Api, ty: &TypeRef, depth: usize) -> bool {
    match ty {
        TypeRef::String | TypeRef::Json => true,
        TypeRef::Nullable(inner) => holds_text(api, inner, depth),
        TypeRef::Named(id) if depth < 8 => match api.ty(*id) {
            TypeDef::Alias { target, .. } => holds_text(api, target, depth + 1),
            // A choice holds the text when one of its members does (`"auto"` or an object
            // does not).
            TypeDef::Union(u) => u.variants.iter().any(|v| holds_text(api, &v.ty, depth + 1)),
            TypeDef::StringEnum(e) => e.variants.iter().any(|(_, wire)| wire == "null"),
            _ => false,
        },
        _ => false,
    }
}

/// The wire names of a multipart body's file fields, and the statements that move the files that
/// came into them.
fn take_files(api: &Api, ty: &TypeRef) -> (Vec<String>, Vec<TokenStream>) {
    crate::emit::file_fields(api, ty)
        .map(|f| {
            let (field, wire, required) = (ident(&f.name), f.wire.clone(), f.required && !f.nullable);
            let take = match (f.ty == TypeRef::File, required) {
                (true, true) => quote! { files.one(#wire, true, &mut problems).unwrap_or_default() },
                (true, false) => quote! { files.one(#wire, false, &mut problems) },
                (false, true) => quote! { files.all(#wire) },
                (false, false) => quote! { Some(files.all(#wire)).filter(|all| !all.is_empty()) },
            };
            (wire, quote! { body.#field = #take; })
        })
        .unzip()
}
