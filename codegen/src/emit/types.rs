//! The `types` module: one Rust type per schema, shared verbatim by the client and server crates.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{Imports, Uses, doc, format_literal, ident, inner_doc, paragraphs, rust_type};
use crate::ir::{
    Api, Constraints, Dispatch, ErrorsDef, Field, IntEnumDef, Operation, OwnedType, RepliesDef, Shape, StringEnumDef,
    StructDef, TypeDef, TypeRef, UnionDef,
};

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

        // The runtime's modules, under the names the generated code calls them by.
        #[allow(unused_imports, reason = "each spec calls some of them")]
        use portfolio_runtime::codegen::{enums, object_only};

        pub use portfolio_runtime::{DateTime, DateTimeError, #file_use UnknownVariant};
    }
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
    let imports = imports.tokens();
    quote! {
        //! Types of the request and reply bodies, one per schema of the spec.

        #![allow(missing_docs, reason = "fields the spec does not describe get no filler docs")]

        #imports
    }
}

/// The items of one type of `types.rs`, behind the features that compile it when there are
/// features per tag.
pub fn item(api: &Api, t: &TypeItem<'_>) -> TokenStream {
    match t {
        TypeItem::Named(t) => super::gated(named(t), super::type_cfg(api, t.name())),
        TypeItem::Owned(t, op) => {
            let items = match t {
                OwnedType::Headers(s) => headers_struct(s),
                OwnedType::Replies(r) => replies(r),
                OwnedType::Errors(e) => errors(e),
            };
            super::gated(items, super::cfg_any(&op.features))
        }
    }
}

/// The items of one named type.
fn named(t: &TypeDef) -> TokenStream {
    match t {
        TypeDef::Struct(s) => struct_def(s),
        TypeDef::IntEnum(e) => int_enum(e),
        TypeDef::StringEnum(e) => string_enum(e),
        TypeDef::Union(u) => union(u),
        TypeDef::Alias { name, doc: text, target } => {
            let docs = doc(text.as_deref().unwrap_or(&format!("The `{name}` schema.")));
            let name = ident(name);
            let target = rust_type(target, &TokenStream::new());
            quote! { #docs pub type #name = #target; }
        }
    }
}

fn struct_def(s: &StructDef) -> TokenStream {
    let name = ident(&s.name);
    let docs = doc(s.doc.as_deref().unwrap_or(&format!("The `{}` schema.", s.name)));
    let derive_default = s.fields.iter().all(|f| !f.required);
    let default = derive_default.then(|| quote! { Default, });
    let fields = s.fields.iter().map(|f| field(&s.name, f));
    // Absent optional properties with a spec default read as that default.
    let defaults: Vec<TokenStream> = s
        .fields
        .iter()
        .filter(|f| has_default(f))
        .filter_map(|f| {
            let (fn_name, ty, value) = (default_fn(f), rust_type(&f.ty, &TokenStream::new()), default_value(f)?);
            Some(quote! { fn #fn_name() -> Option<#ty> { Some(#value) } })
        })
        .collect();
    let defaults = (!defaults.is_empty()).then(|| {
        quote! {
            impl #name {
                #(#defaults)*
            }
        }
    });
    let extra = s.extra.as_ref().map(|(field_name, ty)| {
        let field_name = ident(field_name);
        let ty = rust_type(ty, &TokenStream::new());
        quote! {
            /// Properties not listed in the schema, by name.
            #[serde(flatten)]
            pub #field_name: BTreeMap<String, #ty>,
        }
    });
    let constructor = (!derive_default).then(|| constructor(s));
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, #default Serialize, Deserialize)]
        #[serde(remote = "Self")]
        pub struct #name {
            #(#fields)*
            #extra
        }

        #constructor

        #defaults

        impl Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #name::serialize(self, serializer)
            }
        }

        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                #name::deserialize(ObjectOnly(deserializer))
            }
        }
    }
}

/// The headers of a reply: read and written by the client and server code, so no serde.
fn headers_struct(s: &StructDef) -> TokenStream {
    let name = ident(&s.name);
    let docs = doc(s.doc.as_deref().unwrap_or_default());
    let derive_default = s.fields.iter().all(|f| !f.required);
    let default = derive_default.then(|| quote! { Default, });
    let fields = s.fields.iter().map(|f| {
        let field = ident(&f.name);
        let ty = rust_type(&f.ty, &TokenStream::new());
        let ty = if f.required {
            ty
        } else {
            quote! { Option<#ty> }
        };
        let docs = doc(&paragraphs([f.doc.as_deref(), Some(&format!("The `{}` header.", f.wire))]));
        quote! { #docs pub #field: #ty, }
    });
    let constructor = (!derive_default).then(|| constructor(s));
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, #default)]
        pub struct #name {
            #(#fields)*
        }

        #constructor
    }
}

/// `new(required fields)` for structs that cannot derive `Default`: every optional field starts
/// empty, so callers can write `Name { optional: Some(x), ..Name::new(required) }`.
fn constructor(s: &StructDef) -> TokenStream {
    let name = ident(&s.name);
    let takes = |f: &&Field| f.required && !f.nullable;
    let params = s.fields.iter().filter(takes).map(|f| {
        let field = ident(&f.name);
        let mut ty = rust_type(&f.ty, &TokenStream::new());
        if f.boxed {
            ty = quote! { Box<#ty> };
        }
        quote! { #field: #ty }
    });
    let inits = s.fields.iter().map(|f| {
        let field = ident(&f.name);
        if takes(&f) {
            quote! { #field }
        } else {
            quote! { #field: None }
        }
    });
    let extra = s.extra.as_ref().map(|(field, _)| {
        let field = ident(field);
        quote! { #field: BTreeMap::new(), }
    });
    let count = s.fields.iter().filter(takes).count();
    let allow = (count > 7).then(|| quote! { #[allow(clippy::too_many_arguments)] });
    let docs = doc(&format!("A `{}` with the required fields set and every optional field empty.", s.name));
    quote! {
        impl #name {
            #docs
            #allow
            pub fn new(#(#params),*) -> Self {
                #name { #(#inits,)* #extra }
            }
        }
    }
}

/// Whether an optional, unboxed field reads a spec default when absent.
fn has_default(f: &Field) -> bool {
    f.default.is_some() && !f.required && !f.boxed
}

/// `default_<field>`, the function serde calls for an absent property.
fn default_fn(f: &Field) -> proc_macro2::Ident {
    quote::format_ident!("default_{}", f.name)
}

fn default_value(f: &Field) -> Option<TokenStream> {
    Some(super::default_expr(f.default.as_ref()?, &TokenStream::new()))
}

fn field(struct_name: &str, f: &Field) -> TokenStream {
    let name = ident(&f.name);
    let mut ty = rust_type(&f.ty, &TokenStream::new());
    if f.boxed {
        ty = quote! { Box<#ty> };
    }
    let optional = !f.required || f.nullable;
    if optional {
        ty = quote! { Option<#ty> };
    }
    // The spec's description, then what the reader cannot see from the field itself.
    let mut notes: Vec<String> = f.doc.iter().cloned().collect();
    // The wire name, where it is not simply the Rust name in another case.
    if f.name != crate::naming::snake(&f.wire) {
        notes.push(format!("`{}` on the wire.", f.wire));
    }
    notes.extend(limits(&f.constraints));
    let default = f.default.as_ref().filter(|_| has_default(f)).map(|d| {
        notes.push(format!("Read as `{}` when absent.", super::default_text(d)));
        format!("{struct_name}::{}", default_fn(f))
    });
    // Files travel as parts of their own in a multipart body, never inside JSON or form text.
    if f.ty.is_file_part() {
        notes.push("Sent as a file part of the multipart body.".to_string());
    }
    let text = notes.join("\n\n");
    if f.ty.is_file_part() {
        let docs = doc(&text);
        return quote! {
            #docs
            #[serde(skip)]
            pub #name: #ty,
        };
    }
    let docs = doc(&text);
    let rename = (f.name != f.wire).then(|| {
        let wire = &f.wire;
        quote! { rename = #wire, }
    });
    let skip = (!f.required).then(|| quote! { skip_serializing_if = "Option::is_none", });
    let default = default.map(|path| quote! { default = #path, });
    let attr =
        (rename.is_some() || skip.is_some() || default.is_some()).then(|| quote! { #[serde(#rename #default #skip)] });
    quote! {
        #docs
        #attr
        pub #name: #ty,
    }
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
fn limit_clauses(c: &Constraints) -> Vec<String> {
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
    let mut clauses = Vec::new();
    if !own.is_empty() {
        clauses.push(own.join(", "));
    }
    if let Some(items) = c.items.as_deref() {
        let inner = limit_clauses(items);
        if !inner.is_empty() {
            clauses.push(format!("each item: {}", inner.join("; ")));
        }
    }
    clauses
}

/// The doc of an enum's variant for values the spec does not list.
const UNLISTED_DOC: &str = "A value the spec does not list, as written on the wire. A client reads it from a\n\
     service newer than its spec; a server generated from the spec refuses it in requests.";

fn int_enum(e: &IntEnumDef) -> TokenStream {
    let name = ident(&e.name);
    let docs = doc(e.doc.as_deref().unwrap_or(&format!("The `{}` enum, written on the wire as an integer.", e.name)));
    let variants = e.variants.iter().map(|(v, value)| {
        let v = ident(v);
        let docs = doc(&format!("`{value}` on the wire."));
        quote! { #docs #v, }
    });
    let (unlisted, unlisted_doc) = (ident(&e.unlisted), doc(UNLISTED_DOC));
    let names: Vec<_> = e.variants.iter().map(|(v, _)| ident(v)).collect();
    let values: Vec<_> = e.variants.iter().map(|(_, value)| Literal::i64_unsuffixed(*value)).collect();
    let count = Literal::usize_unsuffixed(names.len());
    let expected = e.variants.iter().map(|(_, v)| v.to_string()).collect::<Vec<_>>().join(", ");
    let type_name = &e.name;
    quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants)*
            #unlisted_doc
            #unlisted(i64),
        }

        impl #name {
            /// Every value the spec lists, in its order.
            pub const ALL: [Self; #count] = [#(Self::#names),*];

            /// The integer written on the wire.
            pub const fn value(self) -> i64 {
                match self {
                    #(Self::#names => #values,)*
                    Self::#unlisted(value) => value,
                }
            }

            /// The variant written on the wire as `value`.
            pub const fn from_value(value: i64) -> Self {
                match value {
                    #(#values => Self::#names,)*
                    other => Self::#unlisted(other),
                }
            }

            /// Whether the spec lists this value.
            pub const fn is_listed(self) -> bool {
                !matches!(self, Self::#unlisted(_))
            }

            /// `value`'s variant, or an error when reading a request and the spec does not list it.
            fn read(value: i64) -> Result<Self, UnknownVariant> {
                let read = Self::from_value(value);
                if read.is_listed() || crate::enums::unlisted_allowed() {
                    Ok(read)
                } else {
                    Err(UnknownVariant { type_name: #type_name, value: value.to_string(), expected: #expected })
                }
            }
        }

        impl fmt::Display for #name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.value())
            }
        }

        impl FromStr for #name {
            type Err = UnknownVariant;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s.parse() {
                    Ok(value) => Self::read(value),
                    Err(_) => Err(UnknownVariant { type_name: #type_name, value: s.to_string(), expected: #expected }),
                }
            }
        }

        impl Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.value())
            }
        }

        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                Self::read(i64::deserialize(deserializer)?).map_err(serde::de::Error::custom)
            }
        }
    }
}

fn string_enum(e: &StringEnumDef) -> TokenStream {
    let name = ident(&e.name);
    let docs = doc(e.doc.as_deref().unwrap_or(&format!("The `{}` enum, written on the wire as a string.", e.name)));
    let variants = e.variants.iter().map(|(v, wire)| {
        let v = ident(v);
        let docs = doc(&format!("`{wire:?}` on the wire."));
        quote! { #docs #v, }
    });
    let (unlisted, unlisted_doc) = (ident(&e.unlisted), doc(UNLISTED_DOC));
    let names: Vec<_> = e.variants.iter().map(|(v, _)| ident(v)).collect();
    let wires: Vec<_> = e.variants.iter().map(|(_, w)| w.as_str()).collect();
    let count = Literal::usize_unsuffixed(names.len());
    let expected = wires.iter().map(|w| format!("{w:?}")).collect::<Vec<_>>().join(", ");
    let type_name = &e.name;
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variants)*
            #unlisted_doc
            #unlisted(String),
        }

        impl #name {
            /// Every value the spec lists, in its order.
            pub const ALL: [Self; #count] = [#(Self::#names),*];

            /// The text written on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#names => #wires,)*
                    Self::#unlisted(text) => text,
                }
            }

            /// Whether the spec lists this value.
            pub fn is_listed(&self) -> bool {
                !matches!(self, Self::#unlisted(_))
            }
        }

        impl fmt::Display for #name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for #name {
            type Err = UnknownVariant;

            /// A listed value's variant; any other text is kept, except when reading a request.
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    #(#wires => Ok(Self::#names),)*
                    _ if crate::enums::unlisted_allowed() => Ok(Self::#unlisted(s.to_string())),
                    _ => Err(UnknownVariant { type_name: #type_name, value: s.to_string(), expected: #expected }),
                }
            }
        }

        impl Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    }
}

/// An enum with a variant per member: written as the member itself, read by the union's dispatch.
fn union(u: &UnionDef) -> TokenStream {
    let name = ident(&u.name);
    let docs = doc(u.doc.as_deref().unwrap_or(&format!("The `{}` schema: one of several.", u.name)));
    let variants = u.variants.iter().map(|v| {
        let variant = ident(&v.name);
        let ty = rust_type(&v.ty, &TokenStream::new());
        let docs = doc(&format!("A value of the `{}` member.", v.name));
        quote! { #docs #variant(#ty), }
    });
    let type_name = &u.name;
    let text = u.text.then(|| text_union(u));
    let read = |i: usize| {
        let variant = ident(&u.variants[i].name);
        let ty = rust_type(&u.variants[i].ty, &TokenStream::new());
        // A generic type needs the qualified form, `<Vec<T>>::deserialize`.
        let ty = if ty.to_string().contains('<') {
            quote! { <#ty> }
        } else {
            ty
        };
        quote! { #ty::deserialize(&value).map(Self::#variant) }
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
            let tries = order.iter().map(|(shape, i)| {
                let read = read(*i);
                // A member picked by a property it alone requires, or the only one of its kind
                // that can fail, answers with its own error; the others fall through on failure.
                match shape {
                    Shape::Object { marker: Some(marker) } => quote! {
                        if value.get(#marker).is_some() {
                            return #read.map_err(serde::de::Error::custom);
                        }
                    },
                    Shape::Object { marker: None } => quote! {
                        if value.is_object() {
                            return #read.map_err(serde::de::Error::custom);
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
                    Shape::Any => quote! { return #read.map_err(serde::de::Error::custom); },
                }
            });
            let ends_with_any = matches!(order.last(), Some((Shape::Any, _)));
            let none = format!("{{value}} matches none of the schemas of {}", format_literal(type_name));
            let fallback = (!ends_with_any).then(|| quote! { Err(serde::de::Error::custom(format!(#none))) });
            quote! {
                #(#tries)*
                #fallback
            }
        }
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
fn text_union(u: &UnionDef) -> TokenStream {
    let name = ident(&u.name);
    let Dispatch::Shape(order) = &u.dispatch else { return TokenStream::new() };
    let mut order: Vec<&(Shape, usize)> = order.iter().collect();
    order.sort_by_key(|(shape, _)| matches!(shape, Shape::String));
    let shows = u.variants.iter().map(|v| {
        let variant = ident(&v.name);
        quote! { Self::#variant(value) => value.fmt(f), }
    });
    // Plain text takes anything, so it ends the tries.
    let plain = order.iter().position(|(_, i)| u.variants[*i].ty == TypeRef::String);
    let tries = order[..plain.unwrap_or(order.len())].iter().map(|(_, i)| {
        let variant = ident(&u.variants[*i].name);
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
            let variant = ident(&u.variants[order[p].1].name);
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

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                #(#tries)*
                #last
            }
        }
    }
}

/// The documented error replies of one operation, a variant per status; the `default` reply's
/// variant also carries the status.
fn errors(e: &ErrorsDef) -> TokenStream {
    let name = ident(&e.name);
    let docs = doc(&format!(
        "The documented error replies of `{}`, one variant per status. The client reads them from\n\
         its `Error` with `from_error`; a server implementation returns them as an `ApiError` with\n\
         `.into()`.",
        e.operation
    ));
    let variants = e.cases.iter().map(|case| {
        let variant = ident(&case.name);
        let status = case.status.map_or("Any other status".to_string(), |s| s.to_string());
        let text = match &case.doc {
            Some(d) => format!("{status}: {d}"),
            None => format!("{status}."),
        };
        let docs = doc(&text);
        let body = rust_type(&case.body, &TokenStream::new());
        match case.status {
            Some(_) => quote! { #docs #variant(#body), },
            None => quote! { #docs #variant(u16, #body), },
        }
    });
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        pub enum #name {
            #(#variants)*
        }
    }
}

/// The success replies of one operation, a variant per status.
fn replies(r: &RepliesDef) -> TokenStream {
    let name = ident(&r.name);
    let docs = doc(&format!("The success replies of `{}`, one variant per status.", r.operation));
    let variants = r.cases.iter().map(|case| {
        let variant = ident(&case.name);
        let text = match &case.doc {
            Some(d) => format!("{}: {d}", case.status),
            None => format!("{}.", case.status),
        };
        let docs = doc(&text);
        // The body, then the documented headers: `Created(Pet, PetCreatedHeaders)`.
        let body = case.body.as_ref().map(|ty| rust_type(ty, &TokenStream::new()));
        let headers = case.headers.as_ref().map(|h| {
            let h = ident(&h.name);
            quote! { #h }
        });
        let payload: Vec<TokenStream> = body.into_iter().chain(headers).collect();
        if payload.is_empty() {
            quote! { #docs #variant, }
        } else {
            quote! { #docs #variant(#(#payload),*), }
        }
    });
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        pub enum #name {
            #(#variants)*
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
