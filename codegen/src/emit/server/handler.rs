//! The handler of one operation in `router.rs`: credentials, parameters, the body, the call of
//! the trait method and its reply.

use std::collections::BTreeSet;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::body::read_body;
use super::errors::shapes_name;
use super::reply::write_reply;
use super::validate::{CheckedName, constraint_checks, validate_value};
use super::{input_name, universal};

use crate::emit::routes;
use crate::emit::{doc, ident, rust_type};
use crate::ir::{Api, Carrier, Location, ObjectStyle, Operation, Param, Reply, TypeDef, TypeId, TypeRef};

/// The router's handler of `op`: `handle_<method name>`, a prefix none of the router's own
/// functions (`router`, `context`, `not_found`, ...) has.
pub(super) fn handler_name(op: &Operation) -> proc_macro2::Ident {
    format_ident!("handle_{}", op.fn_name)
}

/// The checks for the operation's credentials that [`context_fn`] has not made: 401 unless they are
/// all present or, when the document accepts several sets, unless one set is.
fn credential_checks(api: &Api, op: &Operation) -> TokenStream {
    if op.credential_alternatives.is_empty() {
        let checks = op.credentials.iter().filter(|&&i| !universal(api, i)).map(|&i| {
            let c = &api.credentials[i];
            let (field, missing) = (ident(&c.field), missing_message(c));
            quote! { if ctx.#field.is_none() { return Err(missing_credential(#missing)); } }
        });
        return quote! { #(#checks)* };
    }
    // A set of credentials the context always holds is always present: nothing to check.
    let sets: Vec<Vec<&crate::ir::Credential>> = op
        .credential_alternatives
        .iter()
        .map(|set| set.iter().filter(|&&i| !universal(api, i)).map(|&i| &api.credentials[i]).collect())
        .collect();
    if sets.iter().any(Vec::is_empty) {
        return TokenStream::new();
    }
    let present = sets.iter().map(|set| {
        let fields = set.iter().map(|c| ident(&c.field));
        let all = quote! { #(ctx.#fields.is_some())&&* };
        if set.len() > 1 {
            quote! { (#all) }
        } else {
            all
        }
    });
    let missing = format!("none of the accepted credentials was sent: {}", crate::emit::accepted_sets(&sets));
    quote! {
        if !(#(#present)||*) {
            return Err(missing_credential(#missing));
        }
    }
}

/// What a 401 says when credential `c` is absent.
pub(super) fn missing_message(c: &crate::ir::Credential) -> String {
    match &c.carrier {
        Carrier::Header(header) => format!("the `{header}` header is missing or empty"),
        Carrier::Cookie(name) => format!("the `{name}` cookie is missing or empty"),
        Carrier::Query(name) => format!("the `{name}` query parameter is missing or empty"),
        Carrier::Authorization(scheme) => {
            format!("the `authorization` header is missing or does not start with `{scheme}`")
        }
    }
}

/// The `kind` shown in validation messages for a parameter type.
fn kind(api: &Api, ty: &TypeRef) -> String {
    match ty {
        TypeRef::String => "string".into(),
        TypeRef::Bool => "boolean (`true` or `false`)".into(),
        TypeRef::I32 => "32-bit integer".into(),
        TypeRef::I64 => "integer".into(),
        TypeRef::F32 | TypeRef::F64 => "number".into(),
        TypeRef::Uuid => "UUID".into(),
        TypeRef::DateTime => "ISO 8601 date-time".into(),
        TypeRef::Vec(item) | TypeRef::Nullable(item) => kind(api, item),
        TypeRef::Named(id) => match api.ty(*id) {
            TypeDef::Alias { target, .. } => kind(api, target),
            // Generated enums say what they expected in their own parse errors.
            _ => String::new(),
        },
        TypeRef::Json | TypeRef::Map(_) | TypeRef::BodyChoice(_) => "value".into(),
        TypeRef::Bytes | TypeRef::File => "bytes".into(),
    }
}

/// The checks of a parameter's limits once it has been read into `p_<name>`: its own, naming it
/// by its wire name, and for an object those of its properties, under that name. `None` when
/// its schema states none.
fn param_checks(api: &Api, p: &Param, validated: &BTreeSet<TypeId>) -> Option<TokenStream> {
    let wire = &p.wire;
    let own = (!p.constraints.is_empty()).then(|| {
        let checks = constraint_checks(&p.constraints, &quote! { value }, &CheckedName::Wire(wire), 0);
        quote! {
            let at = "";
            #(#checks)*
        }
    });
    let nested = validate_value(api, &p.ty, quote! { value }, "at", &quote! { problems }, validated);
    let nested = (!nested.is_empty()).then(|| {
        quote! {
            let at = #wire;
            #nested
        }
    });
    if own.is_none() && nested.is_none() {
        return None;
    }
    let var = format_ident!("p_{}", p.name);
    Some(quote! {
        if let Some(value) = &#var {
            let problems = &mut problems;
            #own
            #nested
        }
    })
}

/// The statement that reads parameter `p` into `p_<name>` (an `Option<T>`, `Option<Vec<T>>` for
/// arrays), recording problems, and the checks of its limits.
fn extract_param(api: &Api, op: &Operation, p: &Param, validated: &BTreeSet<TypeId>) -> TokenStream {
    let var = format_ident!("p_{}", p.name);
    let wire = &p.wire;
    let kind = kind(api, &p.ty);
    let (item, list) = match &p.ty {
        TypeRef::Vec(item) => (rust_type(api, item, &quote! { types:: }), true),
        other => (rust_type(api, other, &quote! { types:: }), false),
    };
    let local_type = if list {
        quote! { Option<Vec<#item>> }
    } else {
        quote! { Option<#item> }
    };
    let required = p.required;
    let whole = rust_type(api, &p.ty, &quote! { types:: });
    let value = match p.location {
        Location::Query if p.json && list => quote! { query.json_list::<#item>(#wire, #required, &mut problems) },
        Location::Query if p.json => quote! { query.json::<#whole>(#wire, #required, &mut problems) },
        Location::Header if p.json => {
            quote! { extract::header_json::<#whole>(&parts.headers, #wire, #required, &mut problems) }
        }
        Location::Path if p.json => quote! {
            path.text(#wire).and_then(|text| extract::path_json::<#whole>(text, #wire, &mut problems))
        },
        Location::Cookie if p.json => quote! {
            extract::cookie::<extract::Json<#whole>>(&parts.headers, #wire, "", #required, &mut problems).map(|json| json.0)
        },
        Location::Query if p.object_style.is_some() => {
            let deep = p.object_style == Some(ObjectStyle::Deep);
            let properties = struct_properties(api, &p.ty);
            // A map exploded into the query takes the pairs no other parameter does.
            let others: Vec<&str> = if !deep && properties.is_empty() {
                let credentials = op.credentials.iter().filter_map(|&i| match &api.credentials[i].carrier {
                    Carrier::Query(name) => Some(name.as_str()),
                    _ => None,
                });
                op.params
                    .iter()
                    .filter(|o| o.location == Location::Query && o.wire != p.wire)
                    .map(|o| o.wire.as_str())
                    .chain(credentials)
                    .collect()
            } else {
                Vec::new()
            };
            quote! { query.object::<#item>(#wire, #deep, &[#(#properties),*], &[#(#others),*], #required, &mut problems) }
        }
        Location::Query => {
            let delimiter = if p.explode {
                quote! { None }
            } else {
                let d = p.delimiter;
                quote! { Some(#d) }
            };
            match (list, required) {
                (true, true) => quote! { query.required_list(#wire, #kind, #delimiter, &mut problems) },
                (true, false) => quote! { query.optional_list(#wire, #kind, #delimiter, &mut problems) },
                (false, true) => quote! { query.required(#wire, #kind, &mut problems) },
                (false, false) => quote! { query.optional(#wire, #kind, &mut problems) },
            }
        }
        Location::Header if p.object_style.is_some() => {
            let explode = p.explode;
            quote! { extract::header_object::<#item>(&parts.headers, #wire, #explode, #required, &mut problems) }
        }
        Location::Header if list => {
            quote! { extract::header_list(&parts.headers, #wire, #kind, #required, &mut problems) }
        }
        Location::Header => quote! { extract::header(&parts.headers, #wire, #kind, #required, &mut problems) },
        Location::Cookie => quote! { extract::cookie(&parts.headers, #wire, #kind, #required, &mut problems) },
        Location::Path if p.object_style.is_some() => {
            let explode = p.explode;
            quote! {
                path.text(#wire).and_then(|text| extract::path_object::<#item>(text, #wire, #explode, &mut problems))
            }
        }
        Location::Path if list => {
            let (prefix, separator) = (&p.path_prefix, p.path_separator());
            quote! {
                path.text(#wire).and_then(|text| {
                    extract::path_list::<#item>(text, #prefix, #separator, #wire, #kind, &mut problems)
                })
            }
        }
        Location::Path if !p.path_prefix.is_empty() => {
            let prefix = &p.path_prefix;
            quote! {
                path.text(#wire).and_then(|text| {
                    extract::parse_path_styled::<#item>(text, #prefix, #wire, #kind, &mut problems)
                })
            }
        }
        Location::Path => quote! { path.param(#wire, #kind, &mut problems) },
    };
    let checks = param_checks(api, p, validated);
    quote! {
        let #var: #local_type = #value;
        #checks
    }
}

/// The wire names of a struct's properties (through aliases).
fn struct_properties<'a>(api: &'a Api, ty: &TypeRef) -> Vec<&'a str> {
    match ty {
        TypeRef::Named(id) => match api.ty(*id) {
            TypeDef::Struct(s) => s.fields.iter().map(|f| f.wire.as_str()).collect(),
            TypeDef::Alias { target, .. } => struct_properties(api, target),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The router's handler of `op`: what it reads from the request, how it checks it, the trait
/// call and the reply; [`reply::serve`](apigen_runtime) does the rest (span, panics, error
/// replies).
pub fn handler(api: &Api, op: &Operation, trait_name: &str, validated: &BTreeSet<TypeId>) -> TokenStream {
    let (trait_ident, name, method) = (ident(trait_name), handler_name(op), ident(&op.fn_name));
    let docs = doc(&format!(
        "`{} {}`: extracts and validates, then calls [`{trait_name}::{}`].",
        op.method.as_str(),
        op.path,
        op.fn_name
    ));
    let allow = op.deprecated.then(|| quote! { #[allow(deprecated)] });
    // A `QUERY` handler is its path's fallback (axum routes no such method), so it turns the
    // other methods away itself.
    let query_method = (op.method == crate::ir::Method::Query).then(|| {
        quote! {
            if request.method().as_str() != "QUERY" {
                return method_not_allowed(State(state), request).await;
            }
        }
    });
    // A query the path fixes is part of where the operation is: without it, nothing is here.
    let fixed = &op.fixed_query;
    let fixed = (!fixed.is_empty()).then(|| {
        let pairs = fixed.iter().map(|(name, value)| quote! { (#name, #value) });
        quote! { extract::fixed_query(parts.uri.query(), &[#(#pairs),*])?; }
    });
    let credentials = credential_checks(api, op);
    let validates = !op.params.is_empty() || op.body.is_some();
    let problems = validates.then(|| quote! { let mut problems = Problems::default(); });
    let path = op.params.iter().any(|p| p.location == Location::Path).then(|| path_params(op));
    let query = op.params.iter().any(|p| p.location == Location::Query).then(|| {
        let empty: Vec<&str> = op.params.iter().filter(|p| p.empty_is_absent).map(|p| p.wire.as_str()).collect();
        match empty.as_slice() {
            [] => quote! { let query = QueryParams::parse(parts.uri.query(), &mut problems); },
            _ => quote! {
                let query = QueryParams::parse(parts.uri.query(), &mut problems).empty_is_absent(&[#(#empty),*]);
            },
        }
    });
    let params = op.params.iter().map(|p| extract_param(api, op, p, validated));
    let body = op.body.as_ref().map(|b| read_body(api, b, validated));
    // Required values must be present once `problems` is empty; destructuring proves it.
    let required: Vec<proc_macro2::Ident> = op
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| format_ident!("p_{}", p.name))
        .chain(op.body.iter().filter(|b| b.required).map(|_| format_ident!("body")))
        .collect();
    let unwrap = match required.as_slice() {
        [] => None,
        [one] => Some(quote! { let Some(#one) = #one else { return Err(problems.into_error()) }; }),
        several => Some(quote! {
            let (#(Some(#several)),*) = (#(#several),*) else { return Err(problems.into_error()) };
        }),
    };
    let check = validates.then(|| quote! { problems.check()?; });
    let fields = op.params.iter().map(|p| {
        let (field, var) = (ident(&p.name), format_ident!("p_{}", p.name));
        match (&p.default, p.required) {
            (Some(d), false) => {
                let default = crate::emit::default_expr(api, d, &quote! { types:: });
                quote! { #field: #var.unwrap_or(#default) }
            }
            _ => quote! { #field: #var },
        }
    });
    let body_field = op.body.is_some().then(|| quote! { body });
    let input = input_name(op);
    let status = Literal::u16_unsuffixed(op.reply.status());
    let call = quote! { state.api.#method(ctx, input).await? };
    let reply = match &op.reply {
        Reply::Empty { headers: None, .. } => quote! {
            #call;
            Ok(reply::empty(#status))
        },
        Reply::Json { headers: None, .. } => quote! { reply::json(#status, &#call) },
        _ => {
            let write = write_reply(op);
            quote! {
                let value = #call;
                #write
            }
        }
    };
    let body_arg = if op.body.is_some() {
        quote! { body }
    } else {
        quote! { _body }
    };
    let shapes = match op.error_shapes.is_empty() {
        true => quote! { &[] },
        false => {
            let shapes = shapes_name(api, op);
            quote! { errors::#shapes }
        }
    };
    let (id, http_method, template) = (&op.id, op.method.as_str(), &op.path);
    quote! {
        #docs
        #allow
        async fn #name<A: #trait_ident>(State(state): State<Shared<A>>, request: Request) -> Response {
            static ROUTE: Route = Route::new(#id, #http_method, #template, #shapes);
            #query_method
            let work = async |mut parts: Parts, #body_arg: Body| {
                #fixed
                let mut ctx = context(&parts, &state.config)?;
                #credentials
                #problems
                #path
                #query
                #(#params)*
                #body
                #unwrap
                #check
                let input = inputs::#input { #(#fields,)* #body_field };
                ctx.headers = std::mem::take(&mut parts.headers);
                #reply
            };
            reply::serve(&ROUTE, request, work, |error, at| state.api.error_reply(error, at)).await
        }
    }
}

/// The path's parameters, captured by the route and by name: renamed where the route is shared
/// with other names, and split where a segment holds several.
fn path_params(op: &Operation) -> TokenStream {
    let renames = routes::renames(op);
    let renamed = (!renames.is_empty()).then(|| {
        // Captured under the names of the route this path shares.
        let pairs = renames.iter().map(|(routed, own)| quote! { (#routed, #own) });
        quote! { let path_params = extract::renamed(path_params, &[#(#pairs),*]); }
    });
    let splits = routes::splits(&op.path).into_iter().map(|split| {
        // A segment of parameters among literal text, captured whole.
        let (capture, literals, names) = (&split.capture, &split.literals, &split.names);
        quote! {
            let path_params = extract::split_segment(path_params, #capture, &[#(#literals),*], &[#(#names),*])?;
        }
    });
    let splits: Vec<TokenStream> = splits.collect();
    if renamed.is_none() && splits.is_empty() {
        return quote! {
            let raw = extract::raw_path(&mut parts).await?;
            let path = PathParams(raw.iter().collect());
        };
    }
    quote! {
        let raw = extract::raw_path(&mut parts).await?;
        let path_params: Vec<(&str, &str)> = raw.iter().collect();
        #renamed
        #(#splits)*
        let path = PathParams(path_params);
    }
}
