//! The `types` module: one Rust type per schema, shared verbatim by the client and server crates.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::facts::TypeItem;
use super::split::TypesCrate;
use super::{Imports, Uses, doc, format_literal, inner_doc, paragraphs};
use super::{ident, rust_type};
use crate::ir::{
    Api, BodiesDef, Constraints, DefaultValue, Dispatch, ErrorStatus, ErrorsDef, Field, IntEnumDef, OwnedType,
    RepliesDef, Shape, StringEnumDef, StructDef, TypeDef, TypeRef, UnionDef,
};

/// What the `lib.rs` of a types crate names besides its types.
pub struct LibModule<'a> {
    /// The client and server crates that re-export the types, where generated.
    pub client_crate: Option<&'a str>,
    pub server_crate: Option<&'a str>,
    /// Which of the types crates this is.
    pub part: TypesCrate<'a>,
    /// Whether it has a `client.rs` (error readers), `server.rs` (error replies) and
    /// `validate.rs` (checks of requests).
    pub client_mod: bool,
    pub server_mod: bool,
    pub validate_mod: bool,
}

/// `lib.rs` of a types crate: the types module, and the impls that need the client's or the
/// server's runtime behind features of the same names.
pub fn lib_module(api: &Api, lib: &LibModule<'_>) -> TokenStream {
    let users = match (lib.client_crate, lib.server_crate) {
        (Some(client), Some(server)) => {
            format!("`{client}` and `{server}` both re-export it, so a value of one is a value of the other")
        }
        (Some(only), None) | (None, Some(only)) => format!("`{only}` re-exports it"),
        (None, None) => "no client or server crate was generated with it".to_string(),
    };
    let what = match lib.part {
        TypesCrate::Whole => "one per schema".to_string(),
        TypesCrate::Core => {
            "those that no single tag's feature owns; each tag's own are in a crate of that tag".to_string()
        }
        TypesCrate::Tag(tag) => format!("those only the feature `{tag}` compiles"),
    };
    let crate_doc = inner_doc(&format!(
        "The request and reply types of {} (API version `{}`), {what}: {users}.\n\n\
         Feature `client` adds `from_error` on each operation's error enum; feature `server` adds\n\
         their conversion into the server's `ApiError` and the checks of limits serde does not make.",
        api.title, api.version
    ));
    let client_mod = lib.client_mod.then(|| quote! { #[cfg(feature = "client")] mod client; });
    let server_mod = lib.server_mod.then(|| quote! { #[cfg(feature = "server")] mod server; });
    let checks_mod = (api.schema_checks.is_some() && lib.part.is_core()).then(|| {
        quote! {
            #[cfg(feature = "server")]
            mod schema_checks;
        }
    });
    let validate_mod = lib.validate_mod.then(|| {
        quote! {
            #[cfg(feature = "server")]
            mod validate;
            #[cfg(feature = "server")]
            use apigen_runtime::codegen::server::extract;
        }
    });
    let file_use = super::facts::mentions_files(api).then(|| quote! { File, });
    let nullable_use = super::facts::has_tristate(api).then(|| quote! { Nullable, });
    let (tags_attr, tags_doc, runtime_values) = match lib.part {
        // A tag's crate is compiled whole, and the client and server name these from the core.
        TypesCrate::Tag(_) => (
            None,
            None,
            quote! {
                #[allow(unused_imports, reason = "each crate's types use some of them")]
                use apigen_runtime::{DateTime, #file_use Nullable, UnknownVariant};
            },
        ),
        TypesCrate::Whole | TypesCrate::Core => {
            let (attr, doc) = super::tag_features_note(api).map(|(a, d)| (a, inner_doc(&d))).unzip();
            (
                attr,
                doc,
                quote! { pub use apigen_runtime::{DateTime, DateTimeError, #file_use #nullable_use UnknownVariant}; },
            )
        }
    };
    quote! {
        #crate_doc
        #tags_doc
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]
        #tags_attr

        pub mod types;
        #client_mod
        #server_mod
        #validate_mod
        #checks_mod

        // The runtime's modules, under the names the generated code calls them by.
        #[allow(unused_imports, reason = "each spec calls some of them")]
        use apigen_runtime::codegen::{enums, record, request_json, setters};

        #runtime_values
    }
}

/// The head of `types.rs` in `part`, whose items are `items`: module docs and imports; [`item`]
/// gives the rest, one type at a time. A tag's crate sees the core's types as its own.
pub fn header(api: &Api, items: &[TypeItem<'_>], part: TypesCrate<'_>, core_crate: &str) -> TokenStream {
    let mut uses = Uses::default();
    let add_struct = |s: &StructDef, uses: &mut Uses| {
        s.fields.iter().for_each(|f| uses.add(&f.ty));
        if let Some((_, ty)) = &s.extra {
            uses.map = true;
            uses.add(ty);
        }
    };
    let (mut serde, mut text_unions, mut tristate) = (false, false, false);
    for t in items {
        match t {
            TypeItem::Named(_, TypeDef::Struct(s)) => {
                add_struct(s, &mut uses);
                tristate |= s.fields.iter().any(|f| f.tristate);
            }
            TypeItem::Named(_, TypeDef::Alias { target, .. }) => uses.add(target),
            TypeItem::Named(_, TypeDef::Union(u)) => {
                u.variants.iter().for_each(|v| uses.add(&v.ty));
                serde = true;
                text_unions |= u.text;
            }
            TypeItem::Named(..) => {}
            TypeItem::Owned(OwnedType::Headers(s), _) => add_struct(s, &mut uses),
            TypeItem::Owned(OwnedType::Replies(r), _) => {
                r.cases.iter().filter_map(|c| c.body.as_ref()).for_each(|ty| uses.add(ty))
            }
            TypeItem::Owned(OwnedType::Errors(e), _) => e.cases.iter().for_each(|c| uses.add(&c.body)),
            TypeItem::Owned(OwnedType::Bodies(b), _) => b.cases.iter().for_each(|c| uses.add(&c.body.ty)),
        }
    }
    let mut imports = Imports::default();
    // Only unions derive serde's traits here: structs and enums take theirs from the runtime's
    // macros, aliases from what they name, and the types operations own (reply enums and reply
    // headers) are not wire forms of their own.
    if serde {
        imports.add("serde::{Deserialize, Serialize}");
    }
    // Enums get these from the runtime's macros; unions of text values write them here.
    if text_unions {
        imports.add("std::fmt").add("std::str::FromStr").add("crate::UnknownVariant");
    }
    uses.add_to(&mut imports, "crate::DateTime");
    if tristate {
        imports.add("crate::Nullable");
    }
    let imports = imports.tokens();
    let core = match part {
        TypesCrate::Tag(_) => {
            let core = ident(core_crate);
            // Crate-wide, so this crate's impls name them as `crate::types::…` too, and not
            // exported: the client and server re-export each crate's own types once.
            return quote! {
                //! Types of the request and reply bodies that only this crate's feature compiles.

                #![allow(missing_docs, reason = "fields the spec does not describe get no filler docs")]

                #[allow(unused_imports, reason = "some tags' types name none of the core's")]
                pub(crate) use #core::types::*;
                #imports
            };
        }
        TypesCrate::Whole | TypesCrate::Core => core_checks(api),
    };
    quote! {
        //! Types of the request and reply bodies, one per schema of the spec.

        #![allow(missing_docs, reason = "fields the spec does not describe get no filler docs")]

        #imports
        #core
    }
}

/// The checks of values held as any JSON and of XML bodies, which servers make through the core
/// types module from any crate.
fn core_checks(api: &Api) -> TokenStream {
    let check = api.schema_checks.is_some().then(|| {
        quote! {
            #[cfg(feature = "server")]
            #[doc(hidden)]
            pub use crate::schema_checks::check as check_schema;
        }
    });
    let exclusive = exclusive_unions(api).then(|| {
        quote! {
            #[cfg(feature = "server")]
            #[doc(hidden)]
            pub use crate::schema_checks::exclusive as check_exclusive;
        }
    });
    let check_value = api.any_limits(&|c| !c.choices.is_empty()).then(|| {
        quote! {
            #[cfg(feature = "server")]
            #[doc(hidden)]
            pub use crate::schema_checks::check_value;
        }
    });
    let read_xml = api.reads_xml().then(|| {
        quote! {
            #[cfg(feature = "server")]
            #[doc(hidden)]
            pub use crate::schema_checks::read_xml;
        }
    });
    quote! { #check #exclusive #check_value #read_xml }
}

/// `schema_checks.rs` of the types crate: the document's schemas for the values held as any
/// JSON and for bodies sent as XML, read once from `schema_checks.json`, the check servers make
/// against the first and the reading of the second.
/// Whether some `oneOf` is checked against its schema once a member has read it.
fn exclusive_unions(api: &Api) -> bool {
    api.types.iter().any(|t| matches!(t, TypeDef::Union(UnionDef { check: Some(_), .. })))
}

pub fn schema_checks_module(api: &Api) -> TokenStream {
    let exclusive = exclusive_unions(api).then(|| {
        quote! {
            /// `Ok` when the document's schema number `index` allows `value`, else why not: for a
            /// `oneOf`, whose value must fit exactly one member, once a member has read it.
            pub fn exclusive(index: usize, value: &serde_json::Value) -> Result<(), String> {
                SCHEMAS.check_listed(index, value).map_err(|why| format!("does not match the document's schema ({why})"))
            }
        }
    });
    let check_value = api.any_limits(&|c| !c.choices.is_empty()).then(|| {
        quote! {
            /// Records a problem under `name` at `at` unless the document's schema number
            /// `index` allows `value` (a typed value whose limits Rust cannot say).
            pub fn check_value<T: serde::Serialize + ?Sized>(
                index: usize,
                value: &T,
                at: &str,
                name: &str,
                problems: &mut Problems,
            ) {
                let value = serde_json::to_value(value).unwrap_or_default();
                let at = apigen_runtime::codegen::server::extract::located(at, name);
                check(index, &value, &at, problems);
            }
        }
    });
    let read_xml = api.reads_xml().then(|| {
        quote! {
            /// The JSON value the XML `text` of a body holds, as the document's schema number
            /// `index` for XML bodies describes it.
            pub fn read_xml(index: usize, text: &str) -> Result<serde_json::Value, String> {
                match SCHEMAS.resolve(&format!("#/xml/{index}")) {
                    Some(schema) => apigen_runtime::codegen::xml::to_json(text, schema, &SCHEMAS),
                    None => Err(format!("no schema numbered {index} for XML bodies")),
                }
            }
        }
    });
    quote! {
        //! The document's schemas for what the types cannot say themselves: values held as any
        //! JSON (a choice whose members cannot be told apart, keywords of several types, `not`),
        //! which servers check against them, so that the types are looser than the document
        //! there but the server is not; and bodies sent as XML, which servers read by them.

        use std::sync::LazyLock;

        use apigen_runtime::codegen::json_schema::JsonSchemas;
        use apigen_runtime::codegen::server::extract::Problems;

        /// Read on first use.
        static SCHEMAS: LazyLock<JsonSchemas> = LazyLock::new(|| JsonSchemas::from_json(include_str!("schema_checks.json")));

        /// Records a problem under `at` unless the document's schema number `index` allows `value`.
        pub fn check(index: usize, value: &serde_json::Value, at: &str, problems: &mut Problems) {
            if let Err(why) = SCHEMAS.check_listed(index, value) {
                problems.add(at, format!("does not match the document's schema ({why})"));
            }
        }

        #exclusive

        #check_value

        #read_xml
    }
}

/// The items of one type of `types.rs`, behind the features that compile it when there are
/// features per tag.
pub fn item(api: &Api, t: &TypeItem<'_>, part: TypesCrate<'_>) -> TokenStream {
    let items = match t {
        TypeItem::Named(_, TypeDef::Struct(s)) => struct_def(api, s),
        TypeItem::Named(_, TypeDef::IntEnum(e)) => int_enum(e),
        TypeItem::Named(_, TypeDef::StringEnum(e)) => string_enum(e),
        TypeItem::Named(_, TypeDef::Union(u)) => union(api, u),
        TypeItem::Named(_, TypeDef::Alias { name, doc, target, .. }) => {
            let docs = super::doc(doc.as_deref().unwrap_or(&format!("The `{name}` schema.")));
            let (name, target) = (ident(name), own_type(api, target));
            quote! { #docs pub type #name = #target; }
        }
        TypeItem::Owned(OwnedType::Headers(s), _) => headers_struct(api, s),
        TypeItem::Owned(OwnedType::Replies(r), _) => replies(api, r),
        TypeItem::Owned(OwnedType::Errors(e), _) => errors(api, e),
        TypeItem::Owned(OwnedType::Bodies(b), _) => bodies(api, b),
    };
    super::gated(items, part.cfg(t.features(api)))
}

/// A type as this module names it: schema types without a path.
fn own_type(api: &Api, ty: &TypeRef) -> TokenStream {
    rust_type(api, ty, &TokenStream::new())
}

fn struct_def(api: &Api, s: &StructDef) -> TokenStream {
    let name = ident(&s.name);
    // A required field that may be `null` starts as `None`, as an optional one does.
    let derive_default = s.fields.iter().all(|f| !f.required || f.nullable);
    let docs = super::doc(s.doc.as_deref().unwrap_or(&format!("The `{}` schema.", s.name)));
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
            let value = super::default_expr(api, f.default.as_ref()?, &TokenStream::new());
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
fn headers_struct(api: &Api, s: &StructDef) -> TokenStream {
    let derive_default = s.fields.iter().all(|f| !f.required);
    let docs = s.doc.as_deref().map(super::doc);
    let default = derive_default.then(|| quote! { , Default });
    let fields = s.fields.iter().map(|f| {
        let ty = own_type(api, &f.ty);
        let ty = if f.required {
            ty
        } else {
            quote! { Option<#ty> }
        };
        let docs = super::doc(&paragraphs([f.doc.as_deref(), Some(&format!("The `{}` header.", f.wire))]));
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
fn setters(api: &Api, s: &StructDef) -> Option<TokenStream> {
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
    let docs = super::doc(&format!("A `{}` with the required fields set and every optional field empty.", s.name));
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
        notes.push(format!("Read as `{}` when absent.", super::default_text(api, d)));
    }
    // Files travel as parts of their own in a multipart body, never inside JSON or form text.
    if f.ty.is_file_part() {
        notes.push("Sent as a file part of the multipart body.".to_string());
    }
    let docs = super::doc(&notes.join("\n\n"));
    let name = ident(&f.name);
    quote! { #docs pub #name: #ty, }
}

/// `record! { Name { Form field, … } }`: the runtime's macro that writes the struct's `Serialize`
/// and `Deserialize` from each field's form, wire name and default, in far less code for the
/// compiler than serde's derive.
fn record(s: &StructDef) -> TokenStream {
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
            quote! { default #name::#function }
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
fn limits(c: &Constraints) -> Option<String> {
    let clauses = super::limit_clauses(c);
    let text = clauses.join("; ");
    let mut chars = text.chars();
    chars.next().map(|first| format!("{}{}.", first.to_uppercase(), chars.as_str()))
}

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
    let docs = super::doc(doc);
    let declared = variants.clone().map(|(variant, doc, _)| {
        let (variant, doc) = (ident(variant), super::doc(&doc));
        quote! { #doc #variant, }
    });
    let pairs = variants.map(|(variant, _, wire)| {
        let variant = ident(variant);
        quote! { #variant(#wire) }
    });
    let unlisted_doc = super::doc(UNLISTED_DOC);
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

fn int_enum(e: &IntEnumDef) -> TokenStream {
    let doc = e.doc.clone().unwrap_or_else(|| format!("The `{}` enum, written on the wire as an integer.", e.name));
    let variants = e.variants.iter().map(|(variant, value)| {
        let wire = Literal::i64_unsuffixed(*value);
        (variant, format!("`{value}` on the wire."), quote! { #wire })
    });
    wire_enum(&e.name, &doc, variants, &e.unlisted, Wire::Integer)
}

fn string_enum(e: &StringEnumDef) -> TokenStream {
    let doc = e.doc.clone().unwrap_or_else(|| format!("The `{}` enum, written on the wire as a string.", e.name));
    let variants =
        e.variants.iter().map(|(variant, wire)| (variant, format!("`{wire:?}` on the wire."), quote! { #wire }));
    wire_enum(&e.name, &doc, variants, &e.unlisted, Wire::Text)
}

/// An enum with a variant per member: written as the member itself, read by the union's dispatch.
fn union(api: &Api, u: &UnionDef) -> TokenStream {
    let name = super::ident(&u.name);
    let docs = doc(u.doc.as_deref().unwrap_or(&format!("The `{}` schema: one of several.", u.name)));
    let variants = u.variants.iter().map(|v| {
        let variant = super::ident(&v.name);
        let ty = super::rust_type(api, &v.ty, &TokenStream::new());
        let docs = doc(&format!("A value of the `{}` member.", v.name));
        quote! { #docs #variant(#ty), }
    });
    let type_name = &u.name;
    let text = u.text.then(|| text_union(api, u));
    let read = |i: usize| {
        let variant = super::ident(&u.variants[i].name);
        let ty = super::rust_type(api, &u.variants[i].ty, &TokenStream::new());
        // A generic type needs the qualified form, `<Vec<T>>::deserialize`.
        let ty = if ty.to_string().contains('<') {
            quote! { <#ty> }
        } else {
            ty
        };
        quote! { #ty::deserialize(crate::request_json::member(&value)).map(Self::#variant) }
    };
    // A single value that may be an enum is read taking only the values the enum lists, so other
    // values reach the members after it.
    let read_listed = |i: usize| {
        let read = read(i);
        if matches!(u.variants[i].ty, TypeRef::Named(_)) {
            quote! { crate::enums::listed_only(|| #read) }
        } else {
            read
        }
    };
    let body = match &u.dispatch {
        Dispatch::Tag { property, values } => {
            let arms = values.iter().map(|(wire, i)| {
                let read = read(*i);
                quote! { Some(#wire) => #read.map_err(serde::de::Error::custom), }
            });
            let expected = values.iter().map(|(w, _)| format!("{w:?}")).collect::<Vec<_>>().join(", ");
            let unknown = format!(
                "{}{{other:?}}{}",
                format_literal(&format!("`{property}` is ")),
                format_literal(&format!(", which is not one of {expected} for {type_name}"))
            );
            let missing = format!("{type_name} needs its `{property}` property");
            quote! {
                match value.get(#property).and_then(serde_json::Value::as_str) {
                    #(#arms)*
                    Some(other) => Err(serde::de::Error::custom(format!(#unknown))),
                    None => Err(serde::de::Error::custom(#missing)),
                }
            }
        }
        Dispatch::Shape(order) => {
            let is_object = |shape: &Shape| matches!(shape, Shape::Object { .. });
            // A marked object member that fails falls through to the later object members (the
            // value may carry another's marker, or be the unmarked one's), its error kept as the
            // answer should none of them take the value.
            let falls_through =
                |at: usize| is_object(&order[at].0) && order[at + 1..].iter().any(|(s, _)| is_object(s));
            let keeps_error = (0..order.len()).any(falls_through);
            let tries = order.iter().enumerate().map(|(at, (shape, i))| {
                let read = read(*i);
                // A member picked by a property it alone requires, or the only one of its kind
                // that can fail, answers with its own error; the others fall through on failure,
                // and so does any member a later one of no fixed kind (a union) may still take.
                let fallible = order[at + 1..]
                    .iter()
                    .any(|(later, _)| *later == Shape::Any || (*later == Shape::Array && *shape == Shape::Array));
                let own_error = if keeps_error {
                    quote! { |e| serde::de::Error::custom(failed.unwrap_or(e)) }
                } else {
                    quote! { serde::de::Error::custom }
                };
                match shape {
                    Shape::Object { marker: Some(marker) } if falls_through(at) => quote! {
                        if value.get(#marker).is_some() {
                            match #read {
                                Ok(v) => return Ok(v),
                                Err(e) => { failed.get_or_insert(e); }
                            }
                        }
                    },
                    Shape::Object { marker: Some(marker) } if fallible => quote! {
                        if value.get(#marker).is_some() && let Ok(v) = #read { return Ok(v); }
                    },
                    Shape::Object { marker: None } if fallible => quote! {
                        if value.is_object() && let Ok(v) = #read { return Ok(v); }
                    },
                    Shape::Array if fallible => quote! { if value.is_array() && let Ok(v) = #read { return Ok(v); } },
                    Shape::Object { marker: Some(marker) } => quote! {
                        if value.get(#marker).is_some() {
                            return #read.map_err(#own_error);
                        }
                    },
                    Shape::Object { marker: None } => quote! {
                        if value.is_object() {
                            return #read.map_err(#own_error);
                        }
                    },
                    Shape::Array => quote! {
                        if value.is_array() {
                            return #read.map_err(serde::de::Error::custom);
                        }
                    },
                    Shape::String => {
                        let read = read_listed(*i);
                        quote! { if value.is_string() && let Ok(v) = #read { return Ok(v); } }
                    }
                    Shape::Number => {
                        let read = read_listed(*i);
                        quote! { if value.is_number() && let Ok(v) = #read { return Ok(v); } }
                    }
                    Shape::Bool => quote! { if value.is_boolean() && let Ok(v) = #read { return Ok(v); } },
                    // Last (it takes anything), so its result is the function's.
                    Shape::Any if at + 1 == order.len() => quote! { #read.map_err(serde::de::Error::custom) },
                    Shape::Any => quote! { return #read.map_err(serde::de::Error::custom); },
                }
            });
            let ends_with_any = matches!(order.last(), Some((Shape::Any, _)));
            let none = format!("{{value}} matches none of the schemas of {}", format_literal(type_name));
            let fallback = (!ends_with_any).then(|| match keeps_error {
                true => quote! {
                    match failed {
                        Some(e) => Err(serde::de::Error::custom(e)),
                        None => Err(serde::de::Error::custom(format!(#none))),
                    }
                },
                false => quote! { Err(serde::de::Error::custom(format!(#none))) },
            });
            let failed = keeps_error.then(|| quote! { let mut failed: Option<serde_json::Error> = None; });
            quote! {
                #failed
                #(#tries)*
                #fallback
            }
        }
    };
    // A server reading a request refuses a value more than one member of a `oneOf` takes, once
    // one has read it (so a value no member takes keeps that member's own error); a client
    // reading a reply takes it as the first.
    let body = match u.check {
        Some(index) => {
            let index = Literal::usize_unsuffixed(index);
            quote! {
                let read = (|| -> Result<Self, D::Error> { #body })()?;
                #[cfg(feature = "server")]
                if !crate::enums::unlisted_allowed() {
                    check_exclusive(#index, &value).map_err(serde::de::Error::custom)?;
                }
                Ok(read)
            }
        }
        None => body,
    };
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
        }

        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = serde_json::Value::deserialize(deserializer)?;
                #body
            }
        }

        #text
    }
}

/// `Display` and `FromStr` for a union of single values, so it can be a parameter. Text has no
/// JSON kind to go by, so numbers and booleans are tried before strings, each kind in the JSON
/// reader's order (enums and formats before plain text).
fn text_union(api: &Api, u: &UnionDef) -> TokenStream {
    let name = super::ident(&u.name);
    let Dispatch::Shape(order) = &u.dispatch else { return TokenStream::new() };
    let mut order: Vec<&(Shape, usize)> = order.iter().collect();
    order.sort_by_key(|(shape, _)| matches!(shape, Shape::String));
    let shows = u.variants.iter().map(|v| {
        let variant = super::ident(&v.name);
        quote! { Self::#variant(value) => value.fmt(f), }
    });
    // Plain text (a string, or an alias of one) takes anything, so it ends the tries.
    let plain = order.iter().position(|(_, i)| *api.unaliased(&u.variants[*i].ty) == TypeRef::String);
    let tries = order[..plain.unwrap_or(order.len())].iter().map(|(_, i)| {
        let variant = super::ident(&u.variants[*i].name);
        let parse = if matches!(u.variants[*i].ty, TypeRef::Named(_)) {
            quote! { crate::enums::listed_only(|| text.parse()) }
        } else {
            quote! { text.parse() }
        };
        quote! { if let Ok(value) = #parse { return Ok(Self::#variant(value)); } }
    });
    let type_name = &u.name;
    let expected = u.variants.iter().map(|v| format!("`{}`", v.name)).collect::<Vec<_>>().join(", ");
    let last = match plain {
        Some(p) => {
            let variant = super::ident(&u.variants[order[p].1].name);
            quote! { Ok(Self::#variant(text.to_string())) }
        }
        None => quote! { Err(UnknownVariant { type_name: #type_name, value: text.to_string(), expected: #expected }) },
    };
    quote! {
        impl fmt::Display for #name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    #(#shows)*
                }
            }
        }

        impl FromStr for #name {
            type Err = UnknownVariant;

            fn from_str(text: &str) -> Result<Self, UnknownVariant> {
                #(#tries)*
                #last
            }
        }
    }
}

/// The documented error replies of one operation, a variant per status; the `default` reply's
/// variant also carries the status.
fn errors(api: &Api, e: &ErrorsDef) -> TokenStream {
    if let Some(same_as) = &e.same_as {
        let docs = super::doc(&format!(
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
    let docs = super::doc(&format!(
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
        let docs = super::doc(&match &case.doc {
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
fn bodies(api: &Api, b: &BodiesDef) -> TokenStream {
    let docs = super::doc(&format!(
        "The request body of `{}`, a variant per media type: the client sends the variant's media type, \
         the server reads the one the request names.",
        b.operation
    ));
    let cases = b.cases.iter().map(|case| {
        let media: Vec<String> =
            case.body.accepted.iter().chain(&case.body.also_form).map(|ct| format!("`{ct}`")).collect();
        let docs = super::doc(&format!(
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
fn replies(api: &Api, r: &RepliesDef) -> TokenStream {
    let docs = super::doc(&format!("The success replies of `{}`, one variant per status.", r.operation));
    let cases = r.cases.iter().map(|case| {
        let docs = super::doc(&match &case.doc {
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

#[cfg(test)]
mod tests {
    use super::*;
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
