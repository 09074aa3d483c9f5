//! IR → Rust. Emitters read only the IR and write tokens with `quote!`; [`crate::render`] prints
//! them with prettyplease, the only place that decides layout.

pub mod client;
pub(crate) mod crates;
pub mod facts;
mod routes;
pub mod samples;
pub mod server;
pub mod split;
pub mod types;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::ir::{
    Api, Body, BodyEncoding, Constraints, DefaultValue, Field, Framing, Operation, Reply, TypeDef, TypeRef,
};
use crate::render::encode::markdown;

/// An identifier from a name decided during lowering; a keyword (`type`) is written raw (`r#type`).
pub fn ident(name: &str) -> Ident {
    if crate::naming::is_keyword(name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// `#[doc]` attributes, one per line, so prettyplease prints them as `///` comments. `text` may
/// hold a document's own words, so its code blocks are shown as text, never compiled as doctests,
/// and its raw HTML is shown as written (see [`markdown::doc_text`]).
pub fn doc(text: &str) -> TokenStream {
    let lines = doc_lines(&markdown::doc_text(text.trim()));
    quote! { #(#[doc = #lines])* }
}

/// Inner `#![doc]` attributes for module and crate docs, one per line, each block followed by an
/// empty line so consecutive blocks read as separate paragraphs. Made safe as [`doc`] is.
pub fn inner_doc(text: &str) -> TokenStream {
    let lines = doc_lines(&markdown::doc_text(text.trim_end()));
    quote! { #(#![doc = #lines])* #![doc = ""] }
}

/// Inner `#![doc]` attributes for an example the generator writes, whose code blocks are its own
/// and compiled as doctests: nothing in `text` may come from the document but through
/// [`rust_string`] or an identifier.
pub fn example_inner_doc(text: &str) -> TokenStream {
    let lines = doc_lines(text.trim_end());
    quote! { #(#![doc = #lines])* #![doc = ""] }
}

/// `text` as a Rust string literal, for code the generator writes into its doc examples.
pub fn rust_string(text: &str) -> String {
    Literal::string(text).to_string()
}

/// The lines of a doc comment, each after a space; a lone carriage return, which a doc comment may
/// not hold, ends a line.
fn doc_lines(text: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    text.lines()
        .map(str::trim_end)
        .map(|line| if line.is_empty() { String::new() } else { format!(" {line}") })
        .collect()
}

/// The fields of a multipart body's struct that hold files (`File` or a list of them).
pub fn file_fields<'a>(api: &'a Api, ty: &TypeRef) -> impl Iterator<Item = &'a Field> {
    let fields = match ty {
        TypeRef::Named(id) => match api.ty(*id) {
            TypeDef::Struct(s) => s.fields.as_slice(),
            _ => &[],
        },
        _ => &[],
    };
    fields.iter().filter(|f| f.ty.is_file_part())
}

/// Joins optional paragraphs into one doc text.
/// What kind of body an operation takes, for its docs: `JSON`, `form`, … or, for a body of several
/// media types, each of them (`JSON or multipart`).
pub fn body_kind(b: &Body) -> String {
    let one = |b: &Body| match b.encoding {
        BodyEncoding::Json => "JSON",
        BodyEncoding::Form => "form",
        BodyEncoding::Multipart => "multipart",
        BodyEncoding::Binary => "binary",
        BodyEncoding::Text => "text",
    };
    let kinds: Vec<&str> = b.cases().into_iter().map(one).collect();
    match kinds.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => kinds.concat(),
    }
}

pub fn paragraphs<'a>(parts: impl IntoIterator<Item = Option<&'a str>>) -> String {
    parts.into_iter().flatten().map(str::trim).filter(|p| !p.is_empty()).collect::<Vec<_>>().join("\n\n")
}

/// The Rust type for a [`TypeRef`]; named types are looked up through `types` (e.g. `types::` or
/// nothing inside the types module itself).
pub fn rust_type(api: &Api, ty: &TypeRef, types: &TokenStream) -> TokenStream {
    match ty {
        TypeRef::String => quote! { String },
        TypeRef::Bool => quote! { bool },
        TypeRef::I32 => quote! { i32 },
        TypeRef::I64 => quote! { i64 },
        TypeRef::F32 => quote! { f32 },
        TypeRef::F64 => quote! { f64 },
        TypeRef::Uuid => quote! { Uuid },
        TypeRef::DateTime => quote! { DateTime },
        TypeRef::Json => quote! { Value },
        TypeRef::Bytes => quote! { Vec<u8> },
        TypeRef::File => quote! { File },
        TypeRef::Vec(item) => {
            let item = rust_type(api, item, types);
            quote! { Vec<#item> }
        }
        TypeRef::Map(value) => {
            let value = rust_type(api, value, types);
            quote! { BTreeMap<String, #value> }
        }
        TypeRef::Nullable(inner) => {
            let inner = rust_type(api, inner, types);
            quote! { Option<#inner> }
        }
        TypeRef::Named(id) => {
            let name = ident(api.name_of(*id));
            quote! { #types #name }
        }
        TypeRef::BodyChoice(name) => {
            let name = ident(name);
            quote! { #types #name }
        }
    }
}

/// The Rust type of a reply, as both crates spell it: the body, the documented headers beside
/// it, the reply enum of several statuses, or the crate's `download`, `stream` or `upgrade` type.
pub fn reply_type(
    api: &Api,
    reply: &Reply,
    download: TokenStream,
    stream: TokenStream,
    upgrade: TokenStream,
) -> TokenStream {
    let types = quote! { types:: };
    let headers = reply.headers().map(|h| {
        let name = ident(&h.name);
        quote! { types::#name }
    });
    let body = match reply {
        Reply::Empty { .. } => quote! { () },
        Reply::Json { ty, .. } => rust_type(api, ty, &types),
        Reply::Download { .. } => download,
        Reply::Stream { item, .. } => {
            let item = rust_type(api, item, &types);
            quote! { #stream<#item> }
        }
        Reply::Several(replies) => {
            let name = ident(&replies.name);
            quote! { types::#name }
        }
        Reply::Upgrade { .. } => upgrade,
    };
    match (reply, headers) {
        (Reply::Empty { .. }, Some(headers)) => headers,
        (Reply::Json { .. }, Some(headers)) => quote! { (#body, #headers) },
        _ => body,
    }
}

/// Whether a type mentions a schema type, so the module using it must import `types`.
pub fn names_type(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Named(_) => true,
        TypeRef::Vec(item) | TypeRef::Map(item) | TypeRef::Nullable(item) => names_type(item),
        _ => false,
    }
}

/// Which imported names a set of types needs, so modules import exactly what they use.
#[derive(Debug, Default, Clone, Copy)]
pub struct Uses {
    pub date_time: bool,
    pub uuid: bool,
    pub json: bool,
    pub map: bool,
    pub file: bool,
}

impl Uses {
    pub fn add(&mut self, ty: &TypeRef) {
        match ty {
            TypeRef::DateTime => self.date_time = true,
            TypeRef::Uuid => self.uuid = true,
            TypeRef::Json => self.json = true,
            TypeRef::File => self.file = true,
            TypeRef::Vec(item) | TypeRef::Nullable(item) => self.add(item),
            TypeRef::Map(value) => {
                self.map = true;
                self.add(value);
            }
            _ => {}
        }
    }

    /// Adds the paths of what was seen to `imports`; `date_time` is the path of `DateTime`.
    pub fn add_to(&self, imports: &mut Imports, date_time: &str) {
        if self.map {
            imports.add("std::collections::BTreeMap");
        }
        if self.json {
            imports.add("serde_json::Value");
        }
        if self.uuid {
            imports.add("uuid::Uuid");
        }
        if self.date_time {
            imports.add(date_time);
        }
        if self.file {
            imports.add("crate::File");
        }
    }
}

/// `use` items, printed as hand-written code orders them: `std`, then other crates, then `crate`,
/// each group sorted and separated by a blank line, and names from one module merged into one
/// item (`crate::extract` and `crate::extract::Problems` become `crate::extract::{self, Problems}`).
#[derive(Debug, Default)]
pub struct Imports {
    paths: std::collections::BTreeSet<(u8, String)>,
}

impl Imports {
    pub fn add(&mut self, path: &str) -> &mut Self {
        let group = if path.starts_with("std::") {
            0
        } else if path.starts_with("crate::") || path.starts_with("super::") {
            2
        } else {
            1
        };
        self.paths.insert((group, path.to_string()));
        self
    }

    pub fn tokens(&self) -> TokenStream {
        // Every path as (group, module, name), braces expanded.
        let mut leaves = Vec::new();
        for (group, path) in &self.paths {
            match path.split_once("::{") {
                Some((module, names)) => {
                    for name in names.trim_end_matches('}').split(',').map(str::trim).filter(|n| !n.is_empty()) {
                        leaves.push((*group, module.to_string(), name.to_string()));
                    }
                }
                None => {
                    let (module, name) = path.rsplit_once("::").unwrap_or(("", path));
                    leaves.push((*group, module.to_string(), name.to_string()));
                }
            }
        }
        let modules: std::collections::BTreeSet<String> = leaves.iter().map(|(_, m, _)| m.clone()).collect();
        let mut merged: std::collections::BTreeMap<(u8, String), Vec<String>> = std::collections::BTreeMap::new();
        for (group, module, name) in leaves {
            let full = format!("{module}::{name}");
            // A module imported itself as well as for its names is `self` among them.
            let (module, name) = if modules.contains(&full) { (full, "self".to_string()) } else { (module, name) };
            let names = merged.entry((group, module)).or_default();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let mut paths: Vec<(u8, String)> = merged
            .into_iter()
            .map(|((group, module), mut names)| {
                names.sort_by_key(|n| (n != "self", n.clone()));
                let path = match names.as_slice() {
                    [only] if only == "self" => module,
                    [only] => format!("{module}::{only}"),
                    _ => format!("{module}::{{{}}}", names.join(", ")),
                };
                (group, path)
            })
            .collect();
        paths.sort();
        let items = paths.iter().map(|(_, path)| {
            let path: syn::UseTree = syn::parse_str(path).expect("import paths are written by the emitters");
            quote! { use #path; }
        });
        quote! { #(#items)* }
    }
}

/// Operation docs: summary, description, method and path, parameters with their defaults (when
/// `list_params`; the server's input struct documents its own), then `notes` (the body, the
/// error replies) when there are any.
pub fn operation_doc(api: &Api, op: &Operation, list_params: bool, notes: &str) -> String {
    let mut text = paragraphs([op.summary.as_deref(), op.description.as_deref()]);
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(&format!("`{} {}` (operation `{}`).", op.method.as_str(), op.path, op.id));
    let params: Vec<String> = op
        .params
        .iter()
        .filter(|_| list_params)
        .map(|p| {
            let location = p.location.as_str();
            let mut line = format!("- `{}` (`{}` in {location}", p.name, p.wire);
            if p.required {
                line.push_str(", required");
            }
            if let Some(d) = &p.default {
                line.push_str(&format!(", default `{}`", default_text(api, d)));
            }
            line.push(')');
            if let Some(d) = &p.doc {
                line.push_str(": ");
                line.push_str(&d.replace('\n', " "));
            }
            line
        })
        .collect();
    if !params.is_empty() {
        text.push_str("\n\n# Parameters\n\n");
        text.push_str(&params.join("\n"));
    }
    if !notes.is_empty() {
        text.push_str("\n\n");
        text.push_str(notes);
    }
    text
}

/// Text to put inside a `format!` string as it is: braces doubled.
pub fn format_literal(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

pub fn default_text(api: &Api, d: &DefaultValue) -> String {
    match d {
        DefaultValue::Bool(b) => b.to_string(),
        DefaultValue::Int(i) => i.to_string(),
        DefaultValue::Float(f) => f.to_string(),
        DefaultValue::String(s) => format!("{s:?}"),
        DefaultValue::Variant { ty, variant } => format!("{}::{variant}", api.name_of(*ty)),
        DefaultValue::List(items) => {
            format!("[{}]", items.iter().map(|d| default_text(api, d)).collect::<Vec<_>>().join(", "))
        }
        DefaultValue::Map(entries) => {
            let entries: Vec<String> =
                entries.iter().map(|(k, v)| format!("{k:?}: {}", default_text(api, v))).collect();
            format!("{{{}}}", entries.join(", "))
        }
        DefaultValue::Json(value) | DefaultValue::Decoded(value) => value.to_string(),
    }
}

/// `#[cfg(..)]` that compiles an item when any of `features` is on; `None` when the list is empty
/// and the item is always compiled.
pub fn cfg_any(features: &[String]) -> Option<TokenStream> {
    match features {
        [] => None,
        [one] => Some(quote! { #[cfg(feature = #one)] }),
        several => Some(quote! { #[cfg(any(#(feature = #several),*))] }),
    }
}

/// `items` with `cfg` on each of them: a type's struct, its impls and its helpers come and go
/// together.
pub fn gated(items: TokenStream, cfg: Option<TokenStream>) -> TokenStream {
    let Some(cfg) = cfg else { return items };
    let Ok(mut file) = syn::parse2::<syn::File>(items.clone()) else {
        // Not a list of items (cannot happen for what the emitters write): leave it as it is, so
        // the compiler reports it where it stands.
        return items;
    };
    for item in &mut file.items {
        let attrs = syn::parse::Parser::parse2(syn::Attribute::parse_outer, cfg.clone()).unwrap_or_default();
        if let Some(item_attrs) = item_attrs(item) {
            // After the docs, as one writes by hand.
            let at = item_attrs.iter().take_while(|a| a.path().is_ident("doc")).count();
            item_attrs.splice(at..at, attrs);
        }
    }
    let items = file.items;
    quote! { #(#items)* }
}

/// The outer attributes of an item.
fn item_attrs(item: &mut syn::Item) -> Option<&mut Vec<syn::Attribute>> {
    use syn::Item;
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}

/// With [`crate::config::Config::tag_features`], the crate attribute and docs paragraph that go
/// with them: a build with some tags (or the unused schemas) off leaves imports and helpers of
/// the others unused, which is expected.
pub fn tag_features_note(api: &Api) -> Option<(TokenStream, String)> {
    let tags = api.tag_features.as_ref()?;
    let list = tags.features.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
    let mut note = format!(
        "# Features per tag\n\n\
         Each tag of the spec is a cargo feature ({list}), all on by default through `all-tags`.\n\
         With `default-features = false` and only the tags you call, only their operations and\n\
         the types they reach are compiled."
    );
    if let Some(unused) = &tags.unused {
        note.push_str(&format!(
            "\n\nThe schemas no operation uses are compiled only with the feature `{unused}`, which is off by default."
        ));
    }
    let attr = match &tags.unused {
        Some(unused) => quote! {
            #![cfg_attr(not(all(feature = "all-tags", feature = #unused)), allow(unused_imports, dead_code))]
        },
        None => quote! { #![cfg_attr(not(feature = "all-tags"), allow(unused_imports, dead_code))] },
    };
    Some((attr, note))
}

/// The sets of credentials an operation accepts, for messages: "`a` and `b`, or `c`".
pub(crate) fn accepted_sets(sets: &[Vec<&crate::ir::Credential>]) -> String {
    let name = |c: &crate::ir::Credential| match &c.carrier {
        crate::ir::Carrier::Header(header) => format!("the `{header}` header"),
        crate::ir::Carrier::Cookie(name) => format!("the `{name}` cookie"),
        crate::ir::Carrier::Query(name) => format!("the `{name}` query parameter"),
        crate::ir::Carrier::Authorization(scheme) => format!("`authorization: {scheme}`"),
    };
    let sets: Vec<String> =
        sets.iter().map(|set| set.iter().map(|c| name(c)).collect::<Vec<_>>().join(" and ")).collect();
    sets.join(", or ")
}

/// A default as a Rust expression; enum variants are named after `types` (e.g. `types::`).
pub fn default_expr(api: &Api, d: &DefaultValue, types: &TokenStream) -> TokenStream {
    match d {
        DefaultValue::Bool(b) => quote! { #b },
        DefaultValue::Int(i) => {
            let i = Literal::i64_unsuffixed(*i);
            quote! { #i }
        }
        DefaultValue::Float(f) => {
            let f = Literal::f64_unsuffixed(*f);
            quote! { #f }
        }
        DefaultValue::String(s) => quote! { #s.to_string() },
        DefaultValue::Variant { ty, variant } => {
            let (ty, variant) = (ident(api.name_of(*ty)), ident(variant));
            quote! { #types #ty::#variant }
        }
        DefaultValue::List(items) if items.is_empty() => quote! { Vec::new() },
        DefaultValue::List(items) => {
            let items = items.iter().map(|d| default_expr(api, d, types));
            quote! { vec![#(#items),*] }
        }
        DefaultValue::Map(entries) if entries.is_empty() => quote! { Default::default() },
        DefaultValue::Map(entries) => {
            let entries = entries.iter().map(|(k, v)| {
                let v = default_expr(api, v, types);
                quote! { (#k.to_string(), #v) }
            });
            quote! { [#(#entries),*].into_iter().collect() }
        }
        DefaultValue::Json(serde_json::Value::Object(map)) if map.is_empty() => {
            quote! { serde_json::Value::Object(Default::default()) }
        }
        // JSON text is the macro's own syntax.
        DefaultValue::Json(value) => {
            let value = json_tokens(value);
            quote! { serde_json::json!(#value) }
        }
        // Only properties take such a default, whose reader falls back to absent (an `Option`).
        DefaultValue::Decoded(value) => {
            let value = json_tokens(value);
            quote! { serde_json::from_value(serde_json::json!(#value)).ok() }
        }
    }
}

/// A JSON value as the tokens of its text, for `serde_json::json!`.
fn json_tokens(value: &serde_json::Value) -> TokenStream {
    use serde_json::Value;
    match value {
        // `json!` types an unsuffixed integer as `i32`: one outside its range says its own type.
        Value::Number(n) if n.as_i64().is_some_and(|i| i32::try_from(i).is_err()) => {
            let literal = proc_macro2::Literal::i64_suffixed(n.as_i64().unwrap_or_default());
            quote! { #literal }
        }
        Value::Number(n) if n.is_u64() && n.as_i64().is_none() => {
            let literal = proc_macro2::Literal::u64_suffixed(n.as_u64().unwrap_or_default());
            quote! { #literal }
        }
        Value::Array(items) => {
            let items = items.iter().map(json_tokens);
            quote! { [#(#items),*] }
        }
        Value::Object(members) => {
            let members = members.iter().map(|(key, value)| {
                let value = json_tokens(value);
                quote! { #key: #value }
            });
            quote! { { #(#members),* } }
        }
        // JSON text always lexes as Rust tokens: strings, numbers and three keywords.
        _ => value.to_string().parse().unwrap_or_default(),
    }
}

/// [`limits`] as lower-case clauses: the value's own, then its items'.
pub fn limit_clauses(c: &Constraints) -> Vec<String> {
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

/// The runtime's name for a framing.
pub fn framing_variant(framing: Framing) -> proc_macro2::Ident {
    match framing {
        Framing::JsonLines => format_ident!("JsonLines"),
        Framing::EventStream => format_ident!("EventStream"),
    }
}

/// A reply's header struct `ty` (a path such as `types::PetHeaders`) built from `required`, the
/// constructor's arguments, then `optional`, each field and the value it is set to: the struct is
/// `#[non_exhaustive]` in the types crate, so no literal.
pub fn build_headers(ty: TokenStream, required: &[TokenStream], optional: &[(Ident, TokenStream)]) -> TokenStream {
    let start = if required.is_empty() {
        quote! { #ty::default() }
    } else {
        quote! { #ty::new(#(#required),*) }
    };
    if optional.is_empty() {
        return start;
    }
    let (fields, values): (Vec<&Ident>, Vec<&TokenStream>) = optional.iter().map(|(f, v)| (f, v)).unzip();
    quote! {{
        let mut headers = #start;
        #(headers.#fields = #values;)*
        headers
    }}
}
