//! The `types` module: one Rust type per schema, shared verbatim by the client and server crates.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::code::{self, Code, ident, rust_type};
use super::{Imports, Uses, doc, format_literal, inner_doc, paragraphs};
use crate::ir::{
    Api, BodiesDef, Constraints, DefaultValue, Dispatch, ErrorStatus, ErrorsDef, Field, IntEnumDef, Operation,
    OwnedType, RepliesDef, Shape, StringEnumDef, StructDef, TypeDef, TypeRef, UnionDef,
};
use crate::render::Emitted;

/// `lib.rs` of the types crate: the types module, and the impls that need the client's or the
/// server's runtime behind features of the same names.
pub fn lib_module(api: &Api, client_crate: Option<&str>, server_crate: Option<&str>) -> TokenStream {
    let users = match (client_crate, server_crate) {
        (Some(client), Some(server)) => {
            format!("`{client}` and `{server}` both re-export it, so a value of one is a value of the other")
        }
        (Some(only), None) | (None, Some(only)) => format!("`{only}` re-exports it"),
        (None, None) => "no client or server crate was generated with it".to_string(),
    };
    let crate_doc = inner_doc(&format!(
        "The request and reply types of {} (API version `{}`), one per schema: {users}.\n\n\
         Feature `client` adds `from_error` on each operation's error enum; feature `server` adds\n\
         their conversion into the server's `ApiError` and the checks of limits serde does not make.",
        api.title, api.version
    ));
    let errors = api.operations.iter().any(|op| op.errors.is_some());
    let client_mod = errors.then(|| quote! { #[cfg(feature = "client")] mod client; });
    let server_mod = errors.then(|| quote! { #[cfg(feature = "server")] mod server; });
    let validated = !crate::emit::server::validated_types(api).is_empty();
    let checks_mod = api.schema_checks.is_some().then(|| {
        quote! {
            #[cfg(feature = "server")]
            mod schema_checks;
        }
    });
    let validate_mod = validated.then(|| {
        quote! {
            #[cfg(feature = "server")]
            mod validate;
            #[cfg(feature = "server")]
            use portfolio_runtime::codegen::server::extract;
        }
    });
    let file_use = crate::crates::mentions_files(api).then(|| quote! { File, });
    let (tags_attr, tags_doc) = super::tag_features_note(api).map(|(a, d)| (a, inner_doc(&d))).unzip();
    let nullable_use = has_tristate(api).then(|| quote! { Nullable, });
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
        use portfolio_runtime::codegen::{enums, object_only, request_json};

        pub use portfolio_runtime::{DateTime, DateTimeError, #file_use #nullable_use UnknownVariant};
    }
}

/// Whether a struct has a property whose absence and `null` are told apart.
pub(crate) fn has_tristate(api: &Api) -> bool {
    api.types.iter().any(|t| matches!(t, TypeDef::Struct(s) if s.fields.iter().any(|f| f.tristate)))
}

/// One item of `types.rs`: a named type of the spec, or a type an operation owns, which is
/// compiled whenever its operation is.
#[derive(Debug, Clone, Copy)]
pub enum TypeItem<'a> {
    Named(&'a TypeDef),
    Owned(OwnedType<'a>, &'a Operation),
}

impl TypeItem<'_> {
    fn name(&self) -> &str {
        match self {
            TypeItem::Named(t) => t.name(),
            TypeItem::Owned(t, _) => t.name(),
        }
    }
}

/// Every item of `types.rs`, by name, so the module reads like an index.
pub fn items(api: &Api) -> Vec<TypeItem<'_>> {
    let mut items: Vec<TypeItem<'_>> = api.types.iter().map(TypeItem::Named).collect();
    for op in &api.operations {
        items.extend(op.owned_types().into_iter().map(|t| TypeItem::Owned(t, op)));
    }
    items.sort_by(|a, b| a.name().cmp(b.name()));
    items
}

/// The head of `types.rs`: module docs and imports; [`item`] gives the rest, one type at a time.
pub fn header(api: &Api) -> TokenStream {
    let mut uses = Uses::default();
    let add_struct = |s: &StructDef, uses: &mut Uses| {
        s.fields.iter().for_each(|f| uses.add(&f.ty));
        if let Some((_, ty)) = &s.extra {
            uses.map = true;
            uses.add(ty);
        }
    };
    for t in &api.types {
        match t {
            TypeDef::Struct(s) => add_struct(s, &mut uses),
            TypeDef::Alias { target, .. } => uses.add(target),
            TypeDef::Union(u) => u.variants.iter().for_each(|v| uses.add(&v.ty)),
            _ => {}
        }
    }
    for t in api.operations.iter().flat_map(Operation::owned_types) {
        match t {
            OwnedType::Headers(s) => add_struct(s, &mut uses),
            OwnedType::Replies(r) => r.cases.iter().filter_map(|c| c.body.as_ref()).for_each(|ty| uses.add(ty)),
            OwnedType::Errors(e) => e.cases.iter().for_each(|c| uses.add(&c.body)),
            OwnedType::Bodies(b) => b.cases.iter().for_each(|c| uses.add(&c.body.ty)),
        }
    }
    let mut imports = Imports::default();
    // The types operations own (reply enums and reply headers) are not wire forms of their own,
    // so serde has no part in them.
    if !api.types.is_empty() {
        imports.add("serde::{Deserialize, Serialize}");
    }
    if api.types.iter().any(|t| matches!(t, TypeDef::Struct(_))) {
        imports.add("crate::object_only::ObjectOnly");
    }
    if api.types.iter().any(|t| {
        matches!(t, TypeDef::IntEnum(_) | TypeDef::StringEnum(_) | TypeDef::Union(UnionDef { text: true, .. }))
    }) {
        imports.add("std::fmt").add("std::str::FromStr").add("crate::UnknownVariant");
    }
    uses.add_to(&mut imports, "crate::DateTime");
    if has_tristate(api) {
        imports.add("crate::Nullable");
    }
    let imports = imports.tokens();
    // Values held as any JSON are checked by servers through this, from either crate.
    let check = api.schema_checks.is_some().then(|| {
        quote! {
            #[cfg(feature = "server")]
            #[doc(hidden)]
            pub use crate::schema_checks::check as check_schema;
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
    quote! {
        //! Types of the request and reply bodies, one per schema of the spec.

        #![allow(missing_docs, reason = "fields the spec does not describe get no filler docs")]

        #imports
        #check
        #check_value
        #read_xml
    }
}

/// `schema_checks.rs` of the types crate: the document's schemas for the values held as any
/// JSON and for bodies sent as XML, read once from `schema_checks.json`, the check servers make
/// against the first and the reading of the second.
pub fn schema_checks_module(api: &Api) -> TokenStream {
    let exclusive = api.types.iter().any(|t| matches!(t, TypeDef::Union(UnionDef { check: Some(_), .. }))).then(|| {
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
                let at = portfolio_runtime::codegen::server::extract::located(at, name);
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
                    Some(schema) => portfolio_runtime::codegen::xml::to_json(text, schema, &SCHEMAS),
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

        use portfolio_runtime::codegen::json_schema::JsonSchemas;
        use portfolio_runtime::codegen::server::extract::Problems;

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
/// features per tag. Unions, whose readers are expressions of many shapes, are tokens for
/// prettyplease to lay out; every other kind is written as text (see [`super::code`]).
pub fn item(api: &Api, t: &TypeItem<'_>) -> Emitted {
    let features = match t {
        TypeItem::Named(t) => api.tag_features.as_ref().map_or(&[][..], |tags| tags.of_type(t.name())),
        TypeItem::Owned(_, op) => &op.features,
    };
    if let TypeItem::Named(TypeDef::Union(u)) = t {
        let cfg = super::cfg_any(features);
        return super::gated(union(api, u), cfg).into();
    }
    let mut code = Code::new(code::cfg_any(features));
    match t {
        TypeItem::Named(TypeDef::Struct(s)) => struct_def(&mut code, s),
        TypeItem::Named(TypeDef::IntEnum(e)) => int_enum(&mut code, e),
        TypeItem::Named(TypeDef::StringEnum(e)) => string_enum(&mut code, e),
        TypeItem::Named(TypeDef::Union(_)) => {}
        TypeItem::Named(TypeDef::Alias { name, doc, target, .. }) => {
            code.item(Some(doc.as_deref().unwrap_or(&format!("The `{name}` schema."))));
            code.typed(&format!("pub type {} = ", ident(name)), &rust_type(target, ""), ";");
        }
        TypeItem::Owned(OwnedType::Headers(s), _) => headers_struct(&mut code, s),
        TypeItem::Owned(OwnedType::Replies(r), _) => replies(&mut code, r),
        TypeItem::Owned(OwnedType::Errors(e), _) => errors(&mut code, e),
        TypeItem::Owned(OwnedType::Bodies(b), _) => bodies(&mut code, b),
    }
    code.finish()
}

fn struct_def(code: &mut Code, s: &StructDef) {
    let name = ident(&s.name);
    // A required field that may be `null` starts as `None`, as an optional one does.
    let derive_default = s.fields.iter().all(|f| !f.required || f.nullable);
    code.item(Some(s.doc.as_deref().unwrap_or(&format!("The `{}` schema.", s.name))));
    let default = if derive_default { "Default, " } else { "" };
    code.line(format_args!("#[derive(Debug, Clone, PartialEq, {default}Serialize, Deserialize)]"));
    code.line("#[serde(remote = \"Self\")]");
    if s.fields.is_empty() && s.extra.is_none() {
        code.line(format_args!("pub struct {name} {{}}"));
    } else {
        code.open(format_args!("pub struct {name}"));
        s.fields.iter().for_each(|f| field(code, &s.name, f));
        if let Some((field_name, ty)) = &s.extra {
            code.line("/// Properties not listed in the schema, by name.");
            code.line("#[serde(flatten)]");
            let ty = format!("BTreeMap<String, {}>", rust_type(ty, ""));
            code.typed(&format!("pub {}: ", ident(field_name)), &ty, ",");
        }
        code.close("");
    }
    if !derive_default {
        constructor(code, s);
    }
    // Absent optional properties with a spec default read as that default.
    let defaults: Vec<(&Field, String)> =
        s.fields.iter().filter(|f| has_default(f)).filter_map(|f| Some((f, default_value(f)?))).collect();
    if !defaults.is_empty() {
        code.item(None);
        code.open(format_args!("impl {name}"));
        for (f, value) in defaults {
            // An absent property that may also be `null` reads as the default value too.
            let wrapper = if f.tristate { "Nullable" } else { "Option" };
            code.typed(&format!("fn {}() -> ", default_fn(f)), &format!("{wrapper}<{}>", rust_type(&f.ty, "")), " {");
            match (&f.default, f.tristate) {
                // Already an `Option`; absent if it does not decode.
                (Some(DefaultValue::Decoded(_)), false) => code.line(&value),
                (Some(DefaultValue::Decoded(_)), true) => {
                    code.line(&value);
                    code.line("    .map_or(Nullable::Absent, Nullable::Value)");
                }
                _ => some_default(code, if f.tristate { "Nullable::Value" } else { "Some" }, &value),
            }
            code.close("");
        }
        code.close("");
    }
    serde_impls(
        code,
        &name,
        |code| code.list(&format!("{name}::serialize("), &["self".to_string(), "serializer".to_string()], ")"),
        |code| code.list(&format!("{name}::deserialize("), &["ObjectOnly(deserializer)".to_string()], ")"),
    );
}

/// `impl Serialize` and `impl Deserialize` for `name`, their functions' bodies written by
/// `serialize` and `deserialize`.
fn serde_impls(code: &mut Code, name: &str, serialize: impl FnOnce(&mut Code), deserialize: impl FnOnce(&mut Code)) {
    code.item(None);
    code.open_impl("impl Serialize", name);
    code.open("fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>");
    serialize(code);
    code.close("");
    code.close("");
    code.item(None);
    code.open_impl("impl<'de> Deserialize<'de>", name);
    // Broken over lines as prettyplease breaks it at this depth.
    code.line("fn deserialize<D: serde::Deserializer<'de>>(");
    code.line("    deserializer: D,");
    code.open(") -> Result<Self, D::Error>");
    deserialize(code);
    code.close("");
    code.close("");
}

/// `impl fmt::Display for name`, writing `body`.
fn display_impl(code: &mut Code, name: &str, body: &str) {
    code.item(None);
    code.open_impl("impl fmt::Display", name);
    code.open("fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result");
    code.line(body);
    code.close("");
    code.close("");
}

/// The declaration of an enum of wire values: a variant per value, each with `doc` saying its
/// value, and the variant for values the spec does not list, holding `unlisted_type`.
fn enum_declaration<'a>(
    code: &mut Code,
    doc: &str,
    derive: &str,
    name: &str,
    variants: impl Iterator<Item = (&'a String, String)>,
    (unlisted, unlisted_type): (&str, &str),
) {
    code.item(Some(doc));
    code.line(format_args!("#[derive({derive})]"));
    code.open(format_args!("pub enum {name}"));
    for (variant, doc) in variants {
        code.doc(&doc);
        code.line(format_args!("{},", ident(variant)));
    }
    code.doc(UNLISTED_DOC);
    code.line(format_args!("{unlisted}({unlisted_type}),"));
    code.close("");
}

/// `Some(value)`, the body of a default's function. A text default too long for its line has its
/// `.to_string()` on a line of its own, as prettyplease breaks a method call.
fn some_default(code: &mut Code, wrapper: &str, value: &str) {
    match value.strip_suffix(".to_string()") {
        // The argument's own line is one level deeper, and its trailing comma does not count.
        Some(text) if !code.fits(&format!("{wrapper}({value})")) && !code.fits(&format!("    {value}")) => {
            code.line(format_args!("{wrapper}("));
            code.indent();
            code.line(text);
            code.indent();
            code.line(".to_string(),");
            code.dedent();
            code.dedent();
            code.line(")");
        }
        _ => code.list(&format!("{wrapper}("), &[value.to_string()], ")"),
    }
}

/// The headers of a reply: read and written by the client and server code, so no serde.
fn headers_struct(code: &mut Code, s: &StructDef) {
    let derive_default = s.fields.iter().all(|f| !f.required);
    code.item(s.doc.as_deref());
    let default = if derive_default { ", Default" } else { "" };
    code.line(format_args!("#[derive(Debug, Clone, PartialEq{default})]"));
    code.open(format_args!("pub struct {}", ident(&s.name)));
    for f in &s.fields {
        let ty = rust_type(&f.ty, "");
        let ty = if f.required { ty } else { format!("Option<{ty}>") };
        code.doc(&paragraphs([f.doc.as_deref(), Some(&format!("The `{}` header.", f.wire))]));
        code.typed(&format!("pub {}: ", ident(&f.name)), &ty, ",");
    }
    code.close("");
    if !derive_default {
        constructor(code, s);
    }
}

/// `new(required fields)` for structs that cannot derive `Default`: every optional field starts
/// empty, so callers can write `Name { optional: Some(x), ..Name::new(required) }`.
fn constructor(code: &mut Code, s: &StructDef) {
    let name = ident(&s.name);
    let takes = |f: &&Field| f.required && !f.nullable;
    let params: Vec<(String, String)> = s
        .fields
        .iter()
        .filter(takes)
        .map(|f| {
            let ty = rust_type(&f.ty, "");
            let ty = if f.boxed { format!("Box<{ty}>") } else { ty };
            (format!("{}: ", ident(&f.name)), ty)
        })
        .collect();
    let mut inits: Vec<String> = s
        .fields
        .iter()
        .map(|f| match (takes(&f), f.tristate) {
            (true, _) => ident(&f.name),
            (false, true) => format!("{}: Nullable::Absent", ident(&f.name)),
            (false, false) => format!("{}: None", ident(&f.name)),
        })
        .collect();
    if let Some((field, _)) = &s.extra {
        inits.push(format!("{}: BTreeMap::new()", ident(field)));
    }
    code.item(None);
    code.open(format_args!("impl {name}"));
    code.doc(&format!("A `{}` with the required fields set and every optional field empty.", s.name));
    if params.len() > 7 {
        code.line("#[allow(clippy::too_many_arguments)]");
    }
    code.signature("pub fn new", &params, Some("Self"), " {");
    code.list(&format!("{name} {{"), &inits, "}");
    code.close("");
    code.close("");
}

/// Whether an optional, unboxed field reads a spec default when absent.
fn has_default(f: &Field) -> bool {
    f.default.is_some() && !f.required && !f.boxed
}

/// `default_<field>`, the function serde calls for an absent property.
fn default_fn(f: &Field) -> String {
    format!("default_{}", f.name)
}

fn default_value(f: &Field) -> Option<String> {
    Some(code::default_expr(f.default.as_ref()?, ""))
}

fn field(code: &mut Code, struct_name: &str, f: &Field) {
    let mut ty = rust_type(&f.ty, "");
    if f.boxed {
        ty = format!("Box<{ty}>");
    }
    if f.tristate {
        ty = format!("Nullable<{ty}>");
    } else if !f.required || f.nullable {
        ty = format!("Option<{ty}>");
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
    let default = f.default.as_ref().filter(|_| has_default(f)).map(|d| {
        notes.push(format!("Read as `{}` when absent.", super::default_text(d)));
        format!("{struct_name}::{}", default_fn(f))
    });
    // Files travel as parts of their own in a multipart body, never inside JSON or form text.
    if f.ty.is_file_part() {
        notes.push("Sent as a file part of the multipart body.".to_string());
    }
    code.doc(&notes.join("\n\n"));
    let mut serde = Vec::new();
    if f.ty.is_file_part() {
        serde.push("skip".to_string());
    } else {
        if f.name != f.wire {
            serde.push(format!("rename = {}", code::string(&f.wire)));
        }
        // An optional property that may not be `null`: a server refuses a `null` for it.
        let not_null = !f.required && !f.nullable && !f.tristate;
        if let Some(path) = default {
            serde.push(format!("default = {}", code::string(&path)));
        } else if f.tristate || not_null {
            serde.push("default".to_string());
        }
        if not_null {
            serde.push("deserialize_with = \"crate::enums::not_null\"".to_string());
        } else if f.required && f.nullable && !f.tristate {
            serde.push("deserialize_with = \"crate::enums::required_nullable\"".to_string());
        }
        if f.tristate {
            serde.push("skip_serializing_if = \"Nullable::is_absent\"".to_string());
        } else if !f.required {
            serde.push("skip_serializing_if = \"Option::is_none\"".to_string());
        }
    }
    if !serde.is_empty() {
        code.list("#[serde(", &serde, ")]");
    }
    code.typed(&format!("pub {}: ", ident(&f.name)), &ty, ",");
}

/// The limits of a field in words, for its docs: "1 to 50 characters.", "At most 10 items, each
/// unique; each item: 0 to 100."
fn limits(c: &Constraints) -> Option<String> {
    let clauses = limit_clauses(c);
    let text = clauses.join("; ");
    let mut chars = text.chars();
    chars.next().map(|first| format!("{}{}.", first.to_uppercase(), chars.as_str()))
}

/// [`limits`] as lower-case clauses: the value's own, then its items'.
pub(crate) fn limit_clauses(c: &Constraints) -> Vec<String> {
    /// `unit` is a plural noun (or empty); one of it is the noun without its final `s`.
    fn range(min: Option<String>, max: Option<String>, unit: &str) -> Option<String> {
        let unit = |n: &str| match unit {
            "" => String::new(),
            _ if n == "1" => format!(" {}", unit.trim_end_matches('s')),
            _ => format!(" {unit}"),
        };
        match (min, max) {
            (Some(min), Some(max)) if min == max => Some(format!("exactly {min}{}", unit(&min))),
            (Some(min), Some(max)) => Some(format!("{min} to {max}{}", unit(&max))),
            (Some(min), None) => Some(format!("at least {min}{}", unit(&min))),
            (None, Some(max)) => Some(format!("at most {max}{}", unit(&max))),
            (None, None) => None,
        }
    }
    let count = |n: Option<usize>| n.map(|n| n.to_string());
    let mut own: Vec<String> = Vec::new();
    own.extend(range(count(c.min_length), count(c.max_length), "characters"));
    if let Some(pattern) = &c.pattern {
        own.push(format!("matching `{pattern}`"));
    }
    let items = range(count(c.min_items), count(c.max_items), "items");
    match (items, c.unique_items) {
        (Some(items), true) => own.push(format!("{items}, each unique")),
        (Some(items), false) => own.push(items),
        (None, true) => own.push("unique items".to_string()),
        (None, false) => {}
    }
    own.extend(range(count(c.min_properties), count(c.max_properties), "entries"));
    let bound = |v: Option<f64>, exclusive: bool| v.filter(|_| !exclusive).map(|v| v.to_string());
    own.extend(range(bound(c.minimum, c.exclusive_minimum), bound(c.maximum, c.exclusive_maximum), ""));
    if let Some(min) = c.minimum.filter(|_| c.exclusive_minimum) {
        own.push(format!("more than {min}"));
    }
    if let Some(max) = c.maximum.filter(|_| c.exclusive_maximum) {
        own.push(format!("less than {max}"));
    }
    if let Some(step) = c.multiple_of {
        own.push(format!("a multiple of {step}"));
    }
    if !c.choices.is_empty() {
        own.push("meeting the document's `oneOf`/`anyOf` of limits".to_string());
    }
    let mut clauses = Vec::new();
    if !own.is_empty() {
        clauses.push(own.join(", "));
    }
    for (inner, each) in [(&c.items, "each item"), (&c.values, "each value"), (&c.keys, "each key")] {
        let inner = inner.as_deref().map(limit_clauses).unwrap_or_default();
        if !inner.is_empty() {
            clauses.push(format!("{each}: {}", inner.join("; ")));
        }
    }
    clauses
}

/// The doc of an enum's variant for values the spec does not list.
const UNLISTED_DOC: &str = "A value the spec does not list, as written on the wire. A client reads it from a\n\
     service newer than its spec; a server generated from the spec refuses it in requests.";

fn int_enum(code: &mut Code, e: &IntEnumDef) {
    let name = ident(&e.name);
    let unlisted = ident(&e.unlisted);
    enum_declaration(
        code,
        e.doc.as_deref().unwrap_or(&format!("The `{}` enum, written on the wire as an integer.", e.name)),
        "Debug, Clone, Copy, PartialEq, Eq, Hash",
        &name,
        e.variants.iter().map(|(variant, value)| (variant, format!("`{value}` on the wire."))),
        (&unlisted, "i64"),
    );
    let expected = e.variants.iter().map(|(_, v)| v.to_string()).collect::<Vec<_>>().join(", ");
    code.item(None);
    code.open(format_args!("impl {name}"));
    all_const(code, e.variants.iter().map(|(v, _)| v));
    code.line("/// The integer written on the wire.");
    code.open("pub const fn value(self) -> i64");
    code.open("match self");
    for (variant, value) in &e.variants {
        code.arm(&format!("Self::{}", ident(variant)), &value.to_string());
    }
    code.arm(&format!("Self::{unlisted}(value)"), "value");
    code.close("");
    code.close("");
    code.line("/// The variant written on the wire as `value`.");
    code.open("pub const fn from_value(value: i64) -> Self");
    code.open("match value");
    for (variant, value) in &e.variants {
        code.arm(&value.to_string(), &format!("Self::{}", ident(variant)));
    }
    code.arm("other", &format!("Self::{unlisted}(other)"));
    code.close("");
    code.close("");
    code.line("/// Whether the spec lists this value.");
    code.open("pub const fn is_listed(self) -> bool");
    code.line(format_args!("!matches!(self, Self::{unlisted}(_))"));
    code.close("");
    code.line("/// `value`'s variant, or an error when reading a request and the spec does not list it.");
    code.open("fn read(value: i64) -> Result<Self, UnknownVariant>");
    code.line("let read = Self::from_value(value);");
    code.open("if read.is_listed() || crate::enums::unlisted_allowed()");
    code.line("Ok(read)");
    code.reopen("else");
    unknown_variant(code, &e.name, "value", &expected);
    code.close("");
    code.close("");
    code.close("");
    display_impl(code, &name, "write!(f, \"{}\", self.value())");
    code.item(None);
    code.open_impl("impl FromStr", &name);
    code.line("type Err = UnknownVariant;");
    code.open("fn from_str(s: &str) -> Result<Self, UnknownVariant>");
    code.open("match s.parse()");
    code.arm("Ok(value)", "Self::read(value)");
    unknown_variant_arm(code, "Err(_)", &e.name, &expected);
    code.close("");
    code.close("");
    code.close("");
    serde_impls(
        code,
        &name,
        |code| code.line("serializer.serialize_i64(self.value())"),
        |code| code.line("Self::read(i64::deserialize(deserializer)?).map_err(serde::de::Error::custom)"),
    );
}

fn string_enum(code: &mut Code, e: &StringEnumDef) {
    let name = ident(&e.name);
    let unlisted = ident(&e.unlisted);
    enum_declaration(
        code,
        e.doc.as_deref().unwrap_or(&format!("The `{}` enum, written on the wire as a string.", e.name)),
        "Debug, Clone, PartialEq, Eq, Hash",
        &name,
        e.variants.iter().map(|(variant, wire)| (variant, format!("`{wire:?}` on the wire."))),
        (&unlisted, "String"),
    );
    let expected = e.variants.iter().map(|(_, w)| format!("{w:?}")).collect::<Vec<_>>().join(", ");
    code.item(None);
    code.open(format_args!("impl {name}"));
    all_const(code, e.variants.iter().map(|(v, _)| v));
    code.line("/// The text written on the wire.");
    code.open("pub fn as_str(&self) -> &str");
    code.open("match self");
    for (variant, wire) in &e.variants {
        code.arm(&format!("Self::{}", ident(variant)), &code::string(wire));
    }
    code.arm(&format!("Self::{unlisted}(text)"), "text");
    code.close("");
    code.close("");
    code.line("/// Whether the spec lists this value.");
    code.open("pub fn is_listed(&self) -> bool");
    code.line(format_args!("!matches!(self, Self::{unlisted}(_))"));
    code.close("");
    code.close("");
    display_impl(code, &name, "f.write_str(self.as_str())");
    code.item(None);
    code.open_impl("impl FromStr", &name);
    code.line("type Err = UnknownVariant;");
    code.line("/// A listed value's variant; any other text is kept, except when reading a request.");
    code.open("fn from_str(s: &str) -> Result<Self, UnknownVariant>");
    code.open("match s");
    for (variant, wire) in &e.variants {
        code.arm(&code::string(wire), &format!("Ok(Self::{})", ident(variant)));
    }
    code.arm("_ if crate::enums::unlisted_allowed()", &format!("Ok(Self::{unlisted}(s.to_string()))"));
    unknown_variant_arm(code, "_", &e.name, &expected);
    code.close("");
    code.close("");
    code.close("");
    serde_impls(
        code,
        &name,
        |code| code.line("serializer.serialize_str(self.as_str())"),
        |code| {
            code.line("let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;");
            code.line("text.parse().map_err(serde::de::Error::custom)");
        },
    );
}

/// `/// Every value ..` and `pub const ALL: [Self; N] = [Self::A, ..];` of an enum.
fn all_const<'a>(code: &mut Code, variants: impl ExactSizeIterator<Item = &'a String>) {
    code.line("/// Every value the spec lists, in its order.");
    let head = format!("pub const ALL: [Self; {}] = [", variants.len());
    let names: Vec<String> = variants.map(|v| format!("Self::{}", ident(v))).collect();
    code.list(&head, &names, "];");
}

/// `Err(UnknownVariant { .. })` for a value of `type_name` the spec does not list.
fn unknown_variant(code: &mut Code, type_name: &str, value: &str, expected: &str) {
    code.list("Err(UnknownVariant {", &unknown_variant_fields(type_name, value, expected), "})");
}

/// A match arm of `pattern` answering [`unknown_variant`] for the text `s`; the struct is too
/// wide to stay on one line, so the arm is a block.
fn unknown_variant_arm(code: &mut Code, pattern: &str, type_name: &str, expected: &str) {
    code.open(format_args!("{pattern} =>"));
    unknown_variant(code, type_name, "s", expected);
    code.close("");
}

fn unknown_variant_fields(type_name: &str, value: &str, expected: &str) -> [String; 3] {
    [
        format!("type_name: {}", code::string(type_name)),
        format!("value: {value}.to_string()"),
        format!("expected: {}", code::string(expected)),
    ]
}

/// An enum with a variant per member: written as the member itself, read by the union's dispatch.
fn union(api: &Api, u: &UnionDef) -> TokenStream {
    let name = super::ident(&u.name);
    let docs = doc(u.doc.as_deref().unwrap_or(&format!("The `{}` schema: one of several.", u.name)));
    let variants = u.variants.iter().map(|v| {
        let variant = super::ident(&v.name);
        let ty = super::rust_type(&v.ty, &TokenStream::new());
        let docs = doc(&format!("A value of the `{}` member.", v.name));
        quote! { #docs #variant(#ty), }
    });
    let type_name = &u.name;
    let text = u.text.then(|| text_union(api, u));
    let read = |i: usize| {
        let variant = super::ident(&u.variants[i].name);
        let ty = super::rust_type(&u.variants[i].ty, &TokenStream::new());
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
                    crate::schema_checks::exclusive(#index, &value).map_err(serde::de::Error::custom)?;
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
fn errors(code: &mut Code, e: &ErrorsDef) {
    code.item(Some(&format!(
        "The documented error replies of `{}`, one variant per status. The client reads them from\n\
         its `Error` with `from_error`; a server implementation returns them as an `ApiError` with\n\
         `.into()`.",
        e.operation
    )));
    code.line("#[derive(Debug, Clone, PartialEq)]");
    code.open(format_args!("pub enum {}", ident(&e.name)));
    for case in &e.cases {
        let status = match case.status {
            ErrorStatus::Exact(status) => status.to_string(),
            ErrorStatus::Class(class) => format!("Any {class}xx status not listed above"),
            ErrorStatus::Default => "Any other status".to_string(),
        };
        code.doc(&match &case.doc {
            Some(d) => format!("{status}: {d}"),
            None => format!("{status}."),
        });
        let mut fields = Vec::new();
        if !matches!(case.status, ErrorStatus::Exact(_)) {
            fields.push((String::new(), "u16".to_string()));
        }
        fields.push((String::new(), rust_type(&case.body, "")));
        code.typed_list(&format!("{}(", ident(&case.name)), &fields, "),");
    }
    code.close("");
}

/// The request body of one operation that the document describes differently per media type, a
/// variant per media type.
fn bodies(code: &mut Code, b: &BodiesDef) {
    code.item(Some(&format!(
        "The request body of `{}`, a variant per media type: the client sends the variant's media type, \
         the server reads the one the request names.",
        b.operation
    )));
    code.line("#[derive(Debug, Clone, PartialEq)]");
    // Files and bytes make one case far larger than another; a body is built once and moved
    // into the request, so boxing would only cost callers a `Box::new`.
    code.line("#[allow(clippy::large_enum_variant, reason = \"built once per request and moved\")]");
    code.open(format_args!("pub enum {}", ident(&b.name)));
    for case in &b.cases {
        let media: Vec<String> =
            case.body.accepted.iter().chain(&case.body.also_form).map(|ct| format!("`{ct}`")).collect();
        code.doc(&format!(
            "Sent as `{}`{}.",
            case.body.content_type,
            match media.len() {
                0 | 1 => String::new(),
                _ => format!(", read from any of {}", media.join(", ")),
            }
        ));
        code.typed_list(&format!("{}(", ident(&case.name)), &[(String::new(), rust_type(&case.body.ty, ""))], "),");
    }
    code.close("");
}

/// The success replies of one operation, a variant per status.
fn replies(code: &mut Code, r: &RepliesDef) {
    code.item(Some(&format!("The success replies of `{}`, one variant per status.", r.operation)));
    code.line("#[derive(Debug, Clone, PartialEq)]");
    code.open(format_args!("pub enum {}", ident(&r.name)));
    for case in &r.cases {
        code.doc(&match &case.doc {
            Some(d) => format!("{}: {d}", case.status),
            None => format!("{}.", case.status),
        });
        // The body, then the documented headers: `Created(Pet, PetCreatedHeaders)`.
        let body = case.body.as_ref().map(|ty| rust_type(ty, ""));
        let headers = case.headers.as_ref().map(|h| ident(&h.name));
        let payload: Vec<String> = body.into_iter().chain(headers).collect();
        match payload.as_slice() {
            [] => code.line(format_args!("{},", ident(&case.name))),
            _ => {
                let fields: Vec<(String, String)> = payload.into_iter().map(|ty| (String::new(), ty)).collect();
                code.typed_list(&format!("{}(", ident(&case.name)), &fields, "),");
            }
        }
    }
    code.close("");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{DefaultValue, ErrorCase, ErrorStatus, ReplyCase};

    /// Text written by [`Code`] must be what prettyplease prints for the same code: printing it
    /// again changes nothing. Names from 1 to 90 characters cross every width rule.
    #[test]
    fn text_items_are_laid_out_as_prettyplease_prints_them() {
        let field = |name: &str, ty: TypeRef, required: bool, default: Option<DefaultValue>| Field {
            wire: format!("{name}Wire"),
            name: name.to_string(),
            ty,
            required,
            nullable: false,
            tristate: false,
            boxed: false,
            constraints: Constraints::default(),
            default,
            doc: None,
        };
        for n in 1..=90 {
            let long = |prefix: &str| format!("{prefix}{}", "x".repeat(n));
            let named = TypeRef::Named(long("T"));
            let map = TypeRef::Map(Box::new(TypeRef::Vec(Box::new(named.clone()))));
            let structure = StructDef {
                name: long("S"),
                doc: None,
                fields: vec![
                    field(&long("a"), named.clone(), true, None),
                    field("b", TypeRef::Nullable(Box::new(map.clone())), true, None),
                    field(&long("c"), TypeRef::String, false, Some(DefaultValue::String(long("d")))),
                    field("e", named.clone(), false, Some(DefaultValue::Variant { ty: long("T"), variant: long("V") })),
                ],
                extra: Some(("rest".to_string(), map.clone())),
                closed: false,
            };
            let few = StructDef {
                name: long("F"),
                doc: None,
                fields: vec![field("a", TypeRef::I32, true, None)],
                extra: None,
                closed: false,
            };
            let items = [
                TypeDef::Struct(structure.clone()),
                TypeDef::Struct(few),
                TypeDef::IntEnum(IntEnumDef {
                    name: long("I"),
                    doc: None,
                    variants: (0..n as i64 % 7 + 1).map(|i| (format!("{}{i}", long("V")), i * 1000)).collect(),
                    unlisted: "Unknown".to_string(),
                }),
                TypeDef::StringEnum(StringEnumDef {
                    name: long("E"),
                    doc: None,
                    variants: vec![(long("V"), long("w")), ("A".to_string(), "a".to_string())],
                    unlisted: "Unknown".to_string(),
                }),
                TypeDef::Alias { name: long("A"), doc: None, target: map.clone(), check: None },
            ];
            let features = [vec![long("f")], vec!["one".to_string(), long("g")]];
            for (i, t) in items.iter().enumerate() {
                let mut code = Code::new(code::cfg_any(&features[i % 2]));
                match t {
                    TypeDef::Struct(s) => struct_def(&mut code, s),
                    TypeDef::IntEnum(e) => int_enum(&mut code, e),
                    TypeDef::StringEnum(e) => string_enum(&mut code, e),
                    TypeDef::Alias { name, target, .. } => {
                        code.item(None);
                        code.typed(&format!("pub type {name} = "), &rust_type(target, ""), ";");
                    }
                    TypeDef::Union(_) => unreachable!(),
                }
                if i == 0 {
                    headers_struct(&mut code, &structure);
                    errors(
                        &mut code,
                        &ErrorsDef {
                            name: long("Errors"),
                            operation: "op".to_string(),
                            cases: vec![
                                ErrorCase {
                                    status: ErrorStatus::Exact(404),
                                    name: long("N"),
                                    body: named.clone(),
                                    doc: None,
                                },
                                ErrorCase {
                                    status: ErrorStatus::Default,
                                    name: "Other".to_string(),
                                    body: map.clone(),
                                    doc: None,
                                },
                            ],
                        },
                    );
                    replies(
                        &mut code,
                        &RepliesDef {
                            name: long("Replies"),
                            operation: "op".to_string(),
                            cases: vec![
                                ReplyCase {
                                    status: 200,
                                    name: long("Ok"),
                                    body: Some(map.clone()),
                                    headers: None,
                                    doc: None,
                                },
                                ReplyCase {
                                    status: 204,
                                    name: "Empty".to_string(),
                                    body: None,
                                    headers: None,
                                    doc: None,
                                },
                            ],
                        },
                    );
                }
                let crate::render::Emitted::Text(text) = code.finish() else {
                    panic!("names of {n} characters: not valid Rust")
                };
                let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{e} in\n{text}"));
                let printed = prettyplease::unparse(&file);
                if let Some((line, (ours, theirs))) =
                    text.lines().zip(printed.lines()).enumerate().find(|(_, (a, b))| a != b)
                {
                    panic!(
                        "names of {n} characters, line {}:\n  text:         {ours}\n  prettyplease: {theirs}",
                        line + 1
                    );
                }
                assert_eq!(printed, text, "names of {n} characters");
            }
        }
    }

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
