//! Structs: their fields, constructor, setters and serde (through the runtime's `record!`), and
//! the structs of reply headers.

use proc_macro2::TokenStream;
use quote::quote;

use super::own_type;

use crate::emit::ident;
use crate::emit::paragraphs;
use crate::ir::{Api, Constraints, DefaultValue, Field, StructDef};

pub(super) fn struct_def(api: &Api, s: &StructDef) -> TokenStream {
    let name = ident(&s.name);
    // A required field that may be `null` starts as `None`, as an optional one does.
    let derive_default = s.fields.iter().all(|f| !f.required || f.nullable);
    let docs = crate::emit::doc(s.doc.as_deref().unwrap_or(&format!("The `{}` schema.", s.name)));
    let default = derive_default.then(|| quote! { , Default });
    let mut fields: Vec<TokenStream> = s.fields.iter().map(|f| field(api, f)).collect();
    if let Some((field, ty)) = &s.extra {
        let (field, ty) = (ident(field), own_type(api, ty));
        fields.push(quote! {
            /// Properties not listed in the schema, by name.
            pub #field: BTreeMap<String, #ty>,
        });
    }
    let constructor = (!derive_default).then(|| constructor(api, s));
    let setters = setters(api, s);
    // Absent optional properties with a spec default read as that default.
    let defaults: Vec<TokenStream> = s
        .fields
        .iter()
        .filter(|f| has_default(f))
        .filter_map(|f| {
            let value = crate::emit::default_expr(api, f.default.as_ref()?, &TokenStream::new());
            let (function, ty) = (default_fn(f), own_type(api, &f.ty));
            // An absent property that may also be `null` reads as the default value too; a
            // decoded default is already an `Option`, absent if it does not decode.
            let (wrapper, body) = match (&f.default, f.tristate) {
                (Some(DefaultValue::Decoded(_)), false) => (quote! { Option }, value),
                (Some(DefaultValue::Decoded(_)), true) => {
                    (quote! { Nullable }, quote! { #value.map_or(Nullable::Absent, Nullable::Value) })
                }
                (_, true) => (quote! { Nullable }, quote! { Nullable::Value(#value) }),
                (_, false) => (quote! { Option }, quote! { Some(#value) }),
            };
            Some(quote! { fn #function() -> #wrapper<#ty> { #body } })
        })
        .collect();
    let methods = methods(&name, constructor, setters, defaults);
    let record = record(s);
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq #default)]
        #[non_exhaustive]
        pub struct #name {
            #(#fields)*
        }
        #methods
        #record
    }
}

/// One `impl` block for a struct's constructor, setters and the default values serde reads, so
/// that the features gating the struct are written once more at most.
fn methods(
    name: &proc_macro2::Ident,
    constructor: Option<TokenStream>,
    setters: Option<TokenStream>,
    defaults: Vec<TokenStream>,
) -> Option<TokenStream> {
    (constructor.is_some() || setters.is_some() || !defaults.is_empty())
        .then(|| quote! { impl #name { #constructor #setters #(#defaults)* } })
}

/// The headers of a reply: read and written by the client and server code, so no serde.
pub(super) fn headers_struct(api: &Api, s: &StructDef) -> TokenStream {
    let derive_default = s.fields.iter().all(|f| !f.required);
    let docs = s.doc.as_deref().map(crate::emit::doc);
    let default = derive_default.then(|| quote! { , Default });
    let fields = s.fields.iter().map(|f| {
        let ty = own_type(api, &f.ty);
        let ty = if f.required {
            ty
        } else {
            quote! { Option<#ty> }
        };
        let docs = crate::emit::doc(&paragraphs([f.doc.as_deref(), Some(&format!("The `{}` header.", f.wire))]));
        let name = ident(&f.name);
        quote! { #docs pub #name: #ty, }
    });
    let name = ident(&s.name);
    let constructor = (!derive_default).then(|| constructor(api, s));
    let methods = methods(&name, constructor, setters(api, s), Vec::new());
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq #default)]
        #[non_exhaustive]
        pub struct #name { #(#fields)* }
        #methods
    }
}

/// `with_<field>` for every field the constructor does not take, so other crates build the
/// `#[non_exhaustive]` struct in one expression: a macro call among the struct's methods.
pub(super) fn setters(api: &Api, s: &StructDef) -> Option<TokenStream> {
    let fields: Vec<TokenStream> = s
        .fields
        .iter()
        .filter(|f| !f.required || f.nullable)
        .map(|f| {
            let (field, setter) = (ident(&f.name), ident(&format!("with_{}", f.name)));
            let ty = own_type(api, &f.ty);
            quote! { #setter(#field: #ty) }
        })
        .collect();
    (!fields.is_empty()).then(|| quote! { crate::setters::setters! { #(#fields),* } })
}

/// `new(required fields)` for structs that cannot derive `Default`, a method of the struct: every
/// optional field starts empty, for the setters to fill: `Name::new(required).with_optional(x)`.
fn constructor(api: &Api, s: &StructDef) -> TokenStream {
    let name = ident(&s.name);
    let takes = |f: &&Field| f.required && !f.nullable;
    let params = s.fields.iter().filter(takes).map(|f| {
        let ty = own_type(api, &f.ty);
        let ty = if f.boxed {
            quote! { Box<#ty> }
        } else {
            ty
        };
        let field = ident(&f.name);
        quote! { #field: #ty }
    });
    let mut inits: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| {
            let field = ident(&f.name);
            match (takes(&f), f.tristate) {
                (true, _) => quote! { #field },
                (false, true) => quote! { #field: Nullable::Absent },
                (false, false) => quote! { #field: None },
            }
        })
        .collect();
    if let Some((field, _)) = &s.extra {
        let field = ident(field);
        inits.push(quote! { #field: BTreeMap::new() });
    }
    let docs =
        crate::emit::doc(&format!("A `{}` with the required fields set and every optional field empty.", s.name));
    let many = (s.fields.iter().filter(takes).count() > 7).then(|| quote! { #[allow(clippy::too_many_arguments)] });
    quote! {
        #docs
        #many
        pub fn new(#(#params),*) -> Self {
            #name { #(#inits),* }
        }
    }
}

/// Whether an optional, unboxed field reads a spec default when absent.
fn has_default(f: &Field) -> bool {
    f.default.is_some() && !f.required && !f.boxed
}

/// `default_<field>`, the function serde calls for an absent property.
fn default_fn(f: &Field) -> proc_macro2::Ident {
    ident(&format!("default_{}", f.name))
}

/// A struct's field: its docs and its type.
fn field(api: &Api, f: &Field) -> TokenStream {
    let mut ty = own_type(api, &f.ty);
    if f.boxed {
        ty = quote! { Box<#ty> };
    }
    if f.tristate {
        ty = quote! { Nullable<#ty> };
    } else if !f.required || f.nullable {
        ty = quote! { Option<#ty> };
    }
    // The spec's description, then what the reader cannot see from the field itself.
    let mut notes: Vec<String> = f.doc.iter().cloned().collect();
    // The wire name, where it is not simply the Rust name in another case.
    if f.name != crate::naming::snake(&f.wire) {
        notes.push(format!("`{}` on the wire.", f.wire));
    }
    notes.extend(limits(&f.constraints));
    if f.tristate {
        notes.push("May be left out or sent as `null`, which are told apart.".to_string());
    } else if f.required && f.nullable {
        notes.push(
            "Required, and may be `null`: `None` is sent as `null`, and a value that leaves it out does not decode."
                .to_string(),
        );
    }
    if let Some(d) = f.default.as_ref().filter(|_| has_default(f)) {
        notes.push(format!("Read as `{}` when absent.", crate::emit::default_text(api, d)));
    }
    // Files travel as parts of their own in a multipart body, never inside JSON or form text.
    if f.ty.is_file_part() {
        notes.push("Sent as a file part of the multipart body.".to_string());
    }
    let docs = crate::emit::doc(&notes.join("\n\n"));
    let name = ident(&f.name);
    quote! { #docs pub #name: #ty, }
}

/// `record! { Name { Form field, … } }`: the runtime's macro that writes the struct's `Serialize`
/// and `Deserialize` from each field's form, wire name and default, in far less code for the
/// compiler than serde's derive.
pub(super) fn record(s: &StructDef) -> TokenStream {
    let name = ident(&s.name);
    let (skipped, fields): (Vec<&Field>, Vec<&Field>) = s.fields.iter().partition(|f| f.ty.is_file_part());
    let fields = fields.iter().map(|f| {
        let form = ident(match (f.required, f.nullable, f.tristate) {
            (_, _, true) => "Tristate",
            (true, true, false) => "RequiredOrNull",
            (true, false, false) => "Required",
            (false, false, false) => "Optional",
            (false, true, false) => "OptionalOrNull",
        });
        let field = ident(&f.name);
        // The wire name, unless it is the field's own (a raw identifier's `r#` is not part of it).
        let wire = (f.name != f.wire || field.to_string().starts_with("r#")).then(|| {
            let wire = &f.wire;
            quote! { = #wire }
        });
        let default = has_default(f).then(|| {
            let function = default_fn(f);
            quote! { default Self::#function }
        });
        quote! { #form #field #wire #default }
    });
    let extra = s.extra.as_ref().map(|(field, _)| {
        let field = ident(field);
        quote! { rest #field }
    });
    let skipped = (!skipped.is_empty()).then(|| {
        let skipped = skipped.iter().map(|f| ident(&f.name));
        quote! { skip { #(#skipped),* } }
    });
    quote! { crate::record::record! { #name { #(#fields),* } #extra #skipped } }
}

/// The limits of a field in words, for its docs: "1 to 50 characters.", "At most 10 items, each
/// unique; each item: 0 to 100."
pub(super) fn limits(c: &Constraints) -> Option<String> {
    let clauses = crate::emit::limit_clauses(c);
    let text = clauses.join("; ");
    let mut chars = text.chars();
    chars.next().map(|first| format!("{}{}.", first.to_uppercase(), chars.as_str()))
}

#[cfg(test)]
mod tests {
    use super::limits;
    use crate::ir::Constraints;

    #[test]
    fn limits_read_as_one_sentence_with_the_items_after() {
        let limits = |c: Constraints| limits(&c);
        assert_eq!(limits(Constraints::default()), None);
        assert_eq!(limits(Constraints { min_length: Some(1), ..Default::default() }).unwrap(), "At least 1 character.");
        let code = Constraints {
            min_length: Some(3),
            max_length: Some(3),
            pattern: Some("^[A-Z]+$".into()),
            ..Default::default()
        };
        assert_eq!(limits(code).unwrap(), "Exactly 3 characters, matching `^[A-Z]+$`.");
        let share =
            Constraints { minimum: Some(0.0), maximum: Some(100.0), exclusive_maximum: true, ..Default::default() };
        assert_eq!(limits(share).unwrap(), "At least 0, less than 100.");
        let tags = Constraints {
            max_items: Some(10),
            unique_items: true,
            items: Some(Box::new(Constraints { max_length: Some(20), ..Default::default() })),
            ..Default::default()
        };
        assert_eq!(limits(tags).unwrap(), "At most 10 items, each unique; each item: at most 20 characters.");
        let nested = Constraints {
            items: Some(Box::new(Constraints { multiple_of: Some(0.5), ..Default::default() })),
            ..Default::default()
        };
        assert_eq!(limits(nested).unwrap(), "Each item: a multiple of 0.5.");
    }
}
