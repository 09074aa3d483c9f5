//! `oneOf` and `anyOf` → enums with a variant per member, told apart by a discriminator, by
//! shape or by trying each member.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::emit::{doc, format_literal};
use crate::ir::{Api, Dispatch, Shape, TypeRef, UnionDef};

/// An enum with a variant per member: written as the member itself, read by the union's dispatch.
pub(super) fn union(api: &Api, u: &UnionDef) -> TokenStream {
    let name = crate::emit::ident(&u.name);
    let docs = doc(u.doc.as_deref().unwrap_or(&format!("The `{}` schema: one of several.", u.name)));
    let variants = u.variants.iter().map(|v| {
        let variant = crate::emit::ident(&v.name);
        let ty = crate::emit::rust_type(api, &v.ty, &TokenStream::new());
        let docs = doc(&format!("A value of the `{}` member.", v.name));
        quote! { #docs #variant(#ty), }
    });
    let text = u.text.then(|| text_union(api, u));
    let body = match &u.dispatch {
        Dispatch::Tag { property, values } => tag_dispatch(api, u, property, values),
        Dispatch::Shape(order) => shape_dispatch(api, u, order),
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

/// Reads member `i` of `u` from the JSON `value` the union was read into.
fn member_read(api: &Api, u: &UnionDef, i: usize) -> TokenStream {
    let variant = crate::emit::ident(&u.variants[i].name);
    let ty = crate::emit::rust_type(api, &u.variants[i].ty, &TokenStream::new());
    // A generic type needs the qualified form, `<Vec<T>>::deserialize`.
    let ty = if ty.to_string().contains('<') {
        quote! { <#ty> }
    } else {
        ty
    };
    quote! { #ty::deserialize(crate::request_json::member(&value)).map(Self::#variant) }
}

/// [`member_read`] for a single value that may be an enum: read taking only the values the enum
/// lists, so other values reach the members after it.
fn member_read_listed(api: &Api, u: &UnionDef, i: usize) -> TokenStream {
    let read = member_read(api, u, i);
    if matches!(u.variants[i].ty, TypeRef::Named(_)) {
        quote! { crate::enums::listed_only(|| #read) }
    } else {
        read
    }
}

/// The member a discriminator's value names.
fn tag_dispatch(api: &Api, u: &UnionDef, property: &str, values: &[(String, usize)]) -> TokenStream {
    let type_name = &u.name;
    let read = |i: usize| member_read(api, u, i);
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

/// The first member whose shape (object, with its marker property; list; string; number; …) the
/// value has and which reads it.
fn shape_dispatch(api: &Api, u: &UnionDef, order: &[(Shape, usize)]) -> TokenStream {
    let type_name = &u.name;
    let read = |i: usize| member_read(api, u, i);
    let read_listed = |i: usize| member_read_listed(api, u, i);
    let is_object = |shape: &Shape| matches!(shape, Shape::Object { .. });
    // A marked object member that fails falls through to the later object members (the
    // value may carry another's marker, or be the unmarked one's), its error kept as the
    // answer should none of them take the value.
    let falls_through = |at: usize| is_object(&order[at].0) && order[at + 1..].iter().any(|(s, _)| is_object(s));
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

/// `Display` and `FromStr` for a union of single values, so it can be a parameter. Text has no
/// JSON kind to go by, so numbers and booleans are tried before strings, each kind in the JSON
/// reader's order (enums and formats before plain text).
fn text_union(api: &Api, u: &UnionDef) -> TokenStream {
    let name = crate::emit::ident(&u.name);
    let Dispatch::Shape(order) = &u.dispatch else { return TokenStream::new() };
    let mut order: Vec<&(Shape, usize)> = order.iter().collect();
    order.sort_by_key(|(shape, _)| matches!(shape, Shape::String));
    let shows = u.variants.iter().map(|v| {
        let variant = crate::emit::ident(&v.name);
        quote! { Self::#variant(value) => value.fmt(f), }
    });
    // Plain text (a string, or an alias of one) takes anything, so it ends the tries.
    let plain = order.iter().position(|(_, i)| *api.unaliased(&u.variants[*i].ty) == TypeRef::String);
    let tries = order[..plain.unwrap_or(order.len())].iter().map(|(_, i)| {
        let variant = crate::emit::ident(&u.variants[*i].name);
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
            let variant = crate::emit::ident(&u.variants[order[p].1].name);
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
