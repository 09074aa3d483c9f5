//! The types crates: `lib.rs`, the `types` module's head and one item per type, shared verbatim
//! by the client and server crates; each kind of type in a file below.

mod choices;
mod enums;
mod structs;
mod unions;

use proc_macro2::TokenStream;
use quote::quote;

use choices::{bodies, errors, replies};
use enums::{int_enum, string_enum};
use structs::{headers_struct, struct_def};
use unions::union;

use super::facts::TypeItem;
use super::split::TypesCrate;
use super::{Imports, Uses, inner_doc};
use super::{ident, rust_type};
use crate::ir::{Api, OwnedType, StructDef, TypeDef, TypeRef, UnionDef};

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
pub(super) fn own_type(api: &Api, ty: &TypeRef) -> TokenStream {
    rust_type(api, ty, &TokenStream::new())
}
