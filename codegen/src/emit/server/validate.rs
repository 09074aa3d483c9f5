//! The types crate's `validate.rs`: the checks of values a request can hold, against their
//! limits and formats.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::emit::facts::holds_validated;
use crate::emit::ident;
use crate::emit::split::TypesCrate;
use crate::ir::{Api, Constraints, TypeDef, TypeId, TypeRef};

/// Statements that validate `value` (an expression of type `&ty`) found at the path held in the
/// variable `at` (a `&str` or `String`); nested arrays and maps get numbered variables.
pub(super) fn validate_value(
    api: &Api,
    ty: &TypeRef,
    value: TokenStream,
    at: &str,
    problems: &TokenStream,
    validated: &std::collections::BTreeSet<TypeId>,
) -> TokenStream {
    if !holds_validated(api, ty, validated) {
        return TokenStream::new();
    }
    let depth = at.trim_start_matches(|c: char| !c.is_ascii_digit()).parse::<usize>().map_or(1, |d| d + 1);
    let at_ident = format_ident!("{}", at);
    let (item, key, next) = (format_ident!("item{depth}"), format_ident!("key{depth}"), format!("at{depth}"));
    let next_ident = format_ident!("{}", next);
    match ty {
        TypeRef::Named(id) => match api.ty(*id) {
            // Any JSON value, checked against the document's schema for it.
            TypeDef::Alias { check: Some(index), .. } => {
                let at = if at == "at" {
                    quote! { at }
                } else {
                    quote! { &#at_ident }
                };
                let index = Literal::usize_unsuffixed(*index);
                quote! { types::check_schema(#index, #value, #at, #problems); }
            }
            TypeDef::Alias { target, .. } => validate_value(api, target, value, at, problems, validated),
            // `at` itself is a `&str`; the numbered paths are `String`s.
            _ if at == "at" => quote! { #value.validate(at, #problems); },
            _ => quote! { #value.validate(&#at_ident, #problems); },
        },
        TypeRef::Vec(inner) => {
            let inner = validate_value(api, inner, quote! { #item }, &next, problems, validated);
            let path = format!("{{{at}}}[{{{key}}}]");
            quote! { for (#key, #item) in #value.iter().enumerate() { let #next_ident = format!(#path); #inner } }
        }
        TypeRef::Map(inner) => {
            let inner = validate_value(api, inner, quote! { #item }, &next, problems, validated);
            let path = format!("{{{at}}}.{{{key}}}");
            quote! { for (#key, #item) in #value { let #next_ident = format!(#path); #inner } }
        }
        TypeRef::Nullable(inner) => {
            let some = format_ident!("some{depth}");
            let inner = validate_value(api, inner, quote! { #some }, at, problems, validated);
            quote! { if let Some(#some) = #value { #inner } }
        }
        _ => TokenStream::new(),
    }
}

/// How a checked value is named under `at`: a property by its wire name, or an array item by
/// the variable holding its name (`tags[2]`).
pub(super) enum CheckedName<'a> {
    Wire(&'a str),
    Var(proc_macro2::Ident),
    /// The value at `at` itself (a union's member).
    Here,
}

impl CheckedName<'_> {
    /// The `format!` template naming an entry of this map by the variable `key` holds it in:
    /// `labels.{key0}`.
    fn entry(&self, key: &proc_macro2::Ident) -> String {
        match self {
            CheckedName::Wire(wire) => format!("{}.{{{key}}}", crate::emit::format_literal(wire)),
            CheckedName::Var(var) => format!("{{{var}}}.{{{key}}}"),
            CheckedName::Here => format!("{{{key}}}"),
        }
    }
}

/// Statements that check `value` (a reference) against `c`, naming it `name` under `at`; `depth`
/// numbers the variables of nested array items.
pub(super) fn constraint_checks(
    c: &Constraints,
    value: &TokenStream,
    checked: &CheckedName,
    depth: usize,
) -> Vec<TokenStream> {
    let name = match checked {
        CheckedName::Wire(wire) => quote! { #wire },
        CheckedName::Var(var) => quote! { &#var },
        CheckedName::Here => quote! { "" },
    };
    let opt_usize = |v: Option<usize>| match v {
        Some(v) => {
            let v = Literal::usize_unsuffixed(v);
            quote! { Some(#v) }
        }
        None => quote! { None },
    };
    let opt_f64 = |v: Option<f64>| match v {
        Some(v) => {
            let v = Literal::f64_unsuffixed(v);
            quote! { Some(#v) }
        }
        None => quote! { None },
    };
    if c.nullable {
        let some = format_ident!("some{depth}");
        let inner = constraint_checks(&Constraints { nullable: false, ..c.clone() }, &quote! { #some }, checked, depth);
        return vec![quote! { if let Some(#some) = #value { #(#inner)* } }];
    }
    let mut body = Vec::new();
    if c.min_length.is_some() || c.max_length.is_some() {
        let (min, max) = (opt_usize(c.min_length), opt_usize(c.max_length));
        body.push(quote! { check_length(#value, #min, #max, at, #name, problems); });
    }
    if let Some(pattern) = &c.pattern {
        let matcher = crate::sample::pattern::for_rust(pattern);
        let matcher = matcher.as_ref();
        // Compiled once, on first use; the generator has already checked that it compiles.
        let lazy = match matcher == pattern.as_str() {
            true => quote! { LazyPattern::new(#pattern) },
            false => quote! { LazyPattern::spelled(#matcher, #pattern) },
        };
        body.push(quote! {
            static PATTERN: LazyPattern = #lazy;
            check_pattern(#value, &PATTERN, at, #name, problems);
        });
    }
    if let Some(format) = c.format {
        // The runtime's variants are named as `Debug` prints them.
        let variant = format_ident!("{format:?}");
        body.push(quote! { check_format(#value, Format::#variant, at, #name, problems); });
    }
    if c.min_items.is_some() || c.max_items.is_some() {
        let (min, max) = (opt_usize(c.min_items), opt_usize(c.max_items));
        body.push(quote! { check_items(#value.len(), #min, #max, at, #name, problems); });
    }
    if c.unique_items {
        body.push(quote! { check_unique(#value, at, #name, problems); });
    }
    if c.min_properties.is_some() || c.max_properties.is_some() {
        let (min, max) = (opt_usize(c.min_properties), opt_usize(c.max_properties));
        body.push(quote! { check_properties(#value.len(), #min, #max, at, #name, problems); });
    }
    // Inclusive bounds, then exclusive ones.
    let inclusive = |bound: Option<f64>, exclusive: bool| bound.filter(|_| !exclusive);
    let exclusive = |bound: Option<f64>, exclusive: bool| bound.filter(|_| exclusive);
    let (min, max) = (inclusive(c.minimum, c.exclusive_minimum), inclusive(c.maximum, c.exclusive_maximum));
    if min.is_some() || max.is_some() {
        let (min, max) = (opt_f64(min), opt_f64(max));
        body.push(quote! { check_bounds(*#value as f64, #min, #max, at, #name, problems); });
    }
    let (min, max) = (exclusive(c.minimum, c.exclusive_minimum), exclusive(c.maximum, c.exclusive_maximum));
    if min.is_some() || max.is_some() {
        let (min, max) = (opt_f64(min), opt_f64(max));
        body.push(quote! { check_strict_bounds(*#value as f64, #min, #max, at, #name, problems); });
    }
    if let Some(step) = c.multiple_of {
        let step = Literal::f64_unsuffixed(step);
        body.push(quote! { check_multiple_of(*#value as f64, #step, at, #name, problems); });
    }
    for index in &c.choices {
        let index = Literal::usize_unsuffixed(*index);
        body.push(quote! { types::check_value(#index, #value, at, #name, problems); });
    }
    if let Some(items) = &c.items {
        let (item, index, item_name) =
            (format_ident!("item{depth}"), format_ident!("index{depth}"), format_ident!("name{depth}"));
        let template = match checked {
            CheckedName::Wire(wire) => format!("{}[{{{index}}}]", crate::emit::format_literal(wire)),
            CheckedName::Var(var) => format!("{{{var}}}[{{{index}}}]"),
            CheckedName::Here => format!("[{{{index}}}]"),
        };
        let inner = constraint_checks(items, &quote! { #item }, &CheckedName::Var(item_name.clone()), depth + 1);
        body.push(quote! {
            for (#index, #item) in #value.iter().enumerate() {
                let #item_name = format!(#template);
                #(#inner)*
            }
        });
    }
    if let Some(keys) = &c.keys {
        let (key, key_name) = (format_ident!("key{depth}"), format_ident!("name{depth}"));
        let template = checked.entry(&key);
        let inner = constraint_checks(keys, &quote! { #key }, &CheckedName::Var(key_name.clone()), depth + 1);
        body.push(quote! {
            for #key in #value.keys() {
                let #key_name = format!(#template);
                #(#inner)*
            }
        });
    }
    if let Some(values) = &c.values {
        let (entry, key, entry_name) =
            (format_ident!("value{depth}"), format_ident!("key{depth}"), format_ident!("name{depth}"));
        let template = checked.entry(&key);
        let inner = constraint_checks(values, &quote! { #entry }, &CheckedName::Var(entry_name.clone()), depth + 1);
        body.push(quote! {
            for (#key, #entry) in #value {
                let #entry_name = format!(#template);
                #(#inner)*
            }
        });
    }
    body
}

/// The head of `validate.rs` (docs and imports); [`validate_item`] gives its `Validate` impls, one
/// per struct or union with limits. The module is written only when there is one.
pub fn validate_header(api: &Api) -> TokenStream {
    // The checks the project spec needs are always imported, so its module stays as it was.
    let used = |f: &dyn Fn(&Constraints) -> bool| {
        api.types.iter().any(|t| match t {
            TypeDef::Struct(s) => s.fields.iter().any(|field| field.constraints.any(f)),
            TypeDef::Union(u) => u.variants.iter().any(|v| v.constraints.any(f)),
            _ => false,
        })
    };
    let pattern_import = used(&|c| c.pattern.is_some()).then(|| {
        quote! {
            use apigen_runtime::codegen::pattern::LazyPattern;
        }
    });
    let more = [
        ("check_pattern", used(&|c| c.pattern.is_some())),
        ("check_format", used(&|c| c.format.is_some())),
        ("Format", used(&|c| c.format.is_some())),
        ("check_unique", used(&|c| c.unique_items)),
        ("check_properties", used(&|c| c.min_properties.is_some() || c.max_properties.is_some())),
        ("check_strict_bounds", used(&|c| c.exclusive_minimum || c.exclusive_maximum)),
        ("check_multiple_of", used(&|c| c.multiple_of.is_some())),
        ("check_present", used(&|c| c.required_in_requests)),
    ];
    let more: Vec<proc_macro2::Ident> =
        more.iter().filter(|(_, used)| *used).map(|(name, _)| format_ident!("{name}")).collect();
    let more_checks = (!more.is_empty()).then(|| quote! { use crate::extract::{#(#more),*}; });
    quote! {
        //! Limits of request bodies that serde does not check: string lengths, array sizes and
        //! numeric bounds, with the path of every value that breaks one.

        #![allow(unused_imports, reason = "each spec uses some of the checks")]
        #![allow(clippy::unnecessary_cast, reason = "numbers of every width are checked as f64")]

        #pattern_import
        use crate::extract::{Problems, Validate, check_bounds, check_items, check_length};
        #more_checks
        use crate::types;
    }
}

/// The types `validate.rs` has an impl for: the validated structs, then the validated unions,
/// each in the spec's order.
pub fn validate_items<'a>(
    api: &'a Api,
    validated: &std::collections::BTreeSet<TypeId>,
    part: TypesCrate<'_>,
) -> Vec<&'a TypeDef> {
    let features = |id: TypeId| api.tag_features.as_ref().map_or(&[][..], |tags| tags.of_type(id));
    let wanted =
        || api.types_with_ids().filter(|(id, _)| validated.contains(id) && part.holds(features(*id))).map(|(_, t)| t);
    let structs = wanted().filter(|t| matches!(t, TypeDef::Struct(_)));
    let unions = wanted().filter(|t| matches!(t, TypeDef::Union(_)));
    structs.chain(unions).collect()
}

/// `impl Validate` for one of [`validate_items`].
pub fn validate_item(api: &Api, validated: &std::collections::BTreeSet<TypeId>, t: &TypeDef) -> TokenStream {
    match t {
        // A union's value is checked as the member it holds.
        TypeDef::Union(u) => {
            let name = ident(&u.name);
            let arms = u.variants.iter().map(|v| {
                let variant = ident(&v.name);
                let own = constraint_checks(&v.constraints, &quote! { value }, &CheckedName::Here, 0);
                let nested = validate_value(api, &v.ty, quote! { value }, "at", &quote! { problems }, validated);
                let checks = quote! { #(#own)* #nested };
                let binding = if checks.is_empty() {
                    quote! { _ }
                } else {
                    quote! { value }
                };
                quote! { types::#name::#variant(#binding) => { #checks } }
            });
            quote! {
                impl Validate for types::#name {
                    fn validate(&self, at: &str, problems: &mut Problems) {
                        match self {
                            #(#arms)*
                        }
                    }
                }
            }
        }
        TypeDef::Struct(s) => {
            let name = ident(&s.name);
            let checks = s.fields.iter().filter_map(|f| {
                let field = ident(&f.name);
                let wire = &f.wire;
                let body = constraint_checks(&f.constraints, &quote! { value }, &CheckedName::Wire(wire), 0);
                let nested = validate_value(api, &f.ty, quote! { value }, "at0", &quote! { problems }, validated);
                let nested = (!nested.is_empty()).then(|| {
                    let path = format!("{{at}}.{}", crate::emit::format_literal(wire));
                    quote! { let at0 = format!(#path); #nested }
                });
                // A write-only property the document requires must come in a request.
                let present = f.constraints.required_in_requests.then(|| {
                    let is_some = if f.tristate {
                        quote! { !self.#field.is_absent() }
                    } else {
                        quote! { self.#field.is_some() }
                    };
                    quote! { check_present(#is_some, at, #wire, problems); }
                });
                let body: Vec<TokenStream> = body.into_iter().filter(|b| !b.is_empty()).collect();
                if body.is_empty() && nested.is_none() {
                    return present;
                }
                let optional = !f.required || f.nullable;
                Some(if f.tristate {
                    quote! { #present if let Some(value) = self.#field.value() { #(#body)* #nested } }
                } else if optional {
                    quote! { #present if let Some(value) = &self.#field { #(#body)* #nested } }
                } else {
                    quote! { { let value = &self.#field; #(#body)* #nested } }
                })
            });
            quote! {
                impl Validate for types::#name {
                    fn validate(&self, at: &str, problems: &mut Problems) {
                        #(#checks)*
                    }
                }
            }
        }
        _ => TokenStream::new(),
    }
}

/// Whether a parameter has a pattern for the router to check: the server crate then needs the
/// runtime's patterns itself.
pub fn has_param_patterns(api: &Api) -> bool {
    router_limits(api).any(|c| c.any(&|c| c.pattern.is_some()))
}

/// The limits the router checks: each parameter's, and those of bodies that are no object.
pub(super) fn router_limits(api: &Api) -> impl Iterator<Item = &Constraints> {
    let params = api.operations.iter().flat_map(|op| &op.params).map(|p| &p.constraints);
    let bodies = api.operations.iter().flat_map(|op| op.body.iter().flat_map(|b| b.cases())).map(|b| &b.constraints);
    params.chain(bodies)
}

/// Whether the server crate needs regular expressions: a property with a `pattern`.
pub fn has_patterns(api: &Api) -> bool {
    api.types.iter().any(|t| match t {
        TypeDef::Struct(s) => s.fields.iter().any(|f| f.constraints.any(&|c| c.pattern.is_some())),
        TypeDef::Union(u) => u.variants.iter().any(|v| v.constraints.any(&|c| c.pattern.is_some())),
        _ => false,
    })
}
