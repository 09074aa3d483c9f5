//! The request a builder sends: its URL, query, headers, cookies and body.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::emit::ident;
use crate::ir::{
    Api, Body, BodyEncoding, Carrier, Credential, Location, ObjectStyle, Operation, Param, Reply, TypeRef,
};

/// The body of `request()`: the URL, the credentials, parameters and body.
/// The body of `request()`: the URL, the credentials (unless the runtime adds the usual ones),
/// parameters and body. The runtime adds the version header.
pub(super) fn request_statements(api: &Api, op: &Operation, signs_usually: bool) -> TokenStream {
    let own_credentials = !op.credentials.is_empty() && !signs_usually;
    let credentials = own_credentials.then(|| quote! { let credentials = client.credentials()?; });
    let sending = Sending::of(api, op);
    let choice = sending.choice(api);
    let url = build_url(op);
    // API keys that travel in the query join it last.
    let in_query: Vec<TokenStream> = sending
        .always()
        .map(|i| &api.credentials[i])
        .filter(|c| matches!(c.carrier, Carrier::Query(_)))
        .map(|c| {
            let field = ident(&c.field);
            quote! { &credentials.#field }
        })
        .collect();
    let in_query = (!in_query.is_empty())
        .then(|| quote! { let url = crate::encoding::with_query_credentials(url, &[#(#in_query),*]); });
    let conditional_query = sending.conditional_query(api);
    let accept = match &op.reply {
        Reply::Download { content_type, .. } | Reply::Stream { content_type, .. } => content_type.as_str(),
        _ => "application/json",
    };
    // A protocol switch is asked for with `Connection: upgrade` beside the `Upgrade` parameter.
    let upgrade = matches!(op.reply, Reply::Upgrade { .. })
        .then(|| quote! { .header(CONNECTION, HeaderValue::from_static("upgrade")) });
    // Credential cookies go in the one `Cookie` header, with the parameters; API keys in the
    // query are in the URL.
    let in_headers = |c: &&Credential| !matches!(c.carrier, Carrier::Cookie(_) | Carrier::Query(_));
    let own = sending.always().filter(|_| own_credentials).map(|i| &api.credentials[i]);
    let credential_headers = own.filter(in_headers).map(|c| {
        let (header, field) = (c.carrier.header(), ident(&c.field));
        quote! { .header(#header, credentials.#field.clone()) }
    });
    let mut headers = header_statements(api, op, &sending);
    headers.extend(sending.conditional_headers(api));
    let body = body_statement(api, op);
    let request = quote! { client.request(&Self::CALL, url, #accept) #upgrade #(#credential_headers)* };
    let request = match headers.is_empty() && body.is_none() {
        true => quote! { Ok(#request) },
        false => quote! {
            let mut request = #request;
            #(#headers)*
            #body
            Ok(request)
        },
    };
    quote! {
        #credentials
        #choice
        #url
        #in_query
        #(#conditional_query)*
        #request
    }
}

/// Code that writes the URL: base, path with encoded parameters, query string.
/// Appends a literal part of a path template, as hand-written code would.
fn push_literal(literal: &str) -> TokenStream {
    let mut chars = literal.chars();
    match (chars.next(), chars.next()) {
        (None, _) => TokenStream::new(),
        (Some(c), None) => quote! { url.push(#c); },
        _ => quote! { url.push_str(#literal); },
    }
}

fn build_url(op: &Operation) -> TokenStream {
    let mut steps = Vec::new();
    let mut rest = op.path.as_str();
    let mut first = true;
    while let Some(start) = rest.find('{') {
        let end = start + rest[start..].find('}').expect("templates were checked while lowering");
        let literal = &rest[..start];
        steps.push(if first {
            quote! { let mut url = client.url(#literal); }
        } else {
            push_literal(literal)
        });
        first = false;
        let wire = &rest[start + 1..end];
        let p = op
            .params
            .iter()
            .find(|p| p.location == Location::Path && p.wire == wire)
            .expect("path parameters were checked while lowering");
        let field = ident(&p.name);
        let wire = &p.wire;
        if !p.path_prefix.is_empty() {
            steps.push(push_literal(&p.path_prefix));
        }
        steps.push(match (&p.ty, p.object_style) {
            _ if p.json => quote! { push_segment(&mut url, &crate::encoding::json_text(#wire, &self.#field)?); },
            (_, Some(_)) => {
                let explode = p.explode;
                quote! { push_object_segment(&mut url, #explode, &self.#field); }
            }
            (TypeRef::Vec(_), None) => {
                let separator = p.path_separator();
                quote! { push_list_segment(&mut url, #separator, &self.#field); }
            }
            (TypeRef::String, None) => quote! { push_segment(&mut url, &self.#field); },
            _ => quote! { push_segment(&mut url, &self.#field.to_string()); },
        });
        rest = &rest[end + 1..];
    }
    let query: Vec<_> = op.params.iter().filter(|p| p.location == Location::Query).map(query_step).collect();
    let mutable = (!query.is_empty()).then(|| quote! { mut });
    if first {
        steps.push(quote! { let #mutable url = client.url(#rest); });
    } else {
        steps.push(push_literal(rest));
        let template = &op.path;
        steps.push(quote! { client.check_path(&url, #template)?; });
    }
    let query = (!query.is_empty()).then(|| {
        quote! {
            let mut query = Query::new(&mut url);
            #(#query)*
        }
    });
    quote! {
        #(#steps)*
        #query
    }
}

fn query_step(p: &Param) -> TokenStream {
    let field = ident(&p.name);
    let wire = &p.wire;
    if p.json {
        let push = if matches!(p.ty, TypeRef::Vec(_)) {
            quote! { push_json_each }
        } else {
            quote! { push_json }
        };
        return if p.required {
            quote! { query.#push(#wire, &self.#field)?; }
        } else {
            quote! { if let Some(value) = &self.#field { query.#push(#wire, value)?; } }
        };
    }
    if let Some(style) = p.object_style {
        let deep = style == ObjectStyle::Deep;
        return if p.required {
            quote! { query.push_object(#wire, #deep, &self.#field); }
        } else {
            quote! { if let Some(value) = &self.#field { query.push_object(#wire, #deep, value); } }
        };
    }
    // A joined list refuses an item that holds its delimiter.
    let (push, delimiter, fallible) = match (&p.ty, p.explode) {
        (TypeRef::Vec(_), true) => (quote! { push_each }, None, None),
        (TypeRef::Vec(_), false) => {
            let delimiter = p.delimiter;
            (quote! { push_joined }, Some(quote! { #delimiter, }), Some(quote! { ? }))
        }
        _ => (quote! { push }, None, None),
    };
    match (p.required, &p.ty, p.explode) {
        (true, ..) => quote! { query.#push(#wire, #delimiter &self.#field)#fallible; },
        // An unset parameter is no pair at all; a set one, a pair per value.
        (false, TypeRef::Vec(_), true) => quote! { query.push_all(#wire, self.#field.iter().flatten()); },
        (false, TypeRef::Vec(_), false) => {
            quote! { if let Some(value) = &self.#field { query.#push(#wire, #delimiter value)#fallible; } }
        }
        (false, ..) => quote! { query.push_all(#wire, self.#field.iter()); },
    }
}

/// Whether `op` sends a `Cookie` header: a credential or a parameter travels as a cookie.
pub(super) fn sends_cookies(api: &Api, op: &Operation) -> bool {
    let sent = Sending::of(api, op);
    sent.sets.iter().flatten().any(|&i| matches!(api.credentials[i].carrier, Carrier::Cookie(_)))
        || op.params.iter().any(|p| p.location == Location::Cookie)
}

/// The credentials a call sends: the sets the document accepts, in its order, up to the first the
/// client always holds (a later one would never be chosen).
pub(super) struct Sending {
    sets: Vec<Vec<usize>>,
}

impl Sending {
    fn of(api: &Api, op: &Operation) -> Sending {
        Sending { sets: api.client_sets(op) }
    }

    /// The credentials sent whatever is set: all of them when there is one set to send.
    fn always(&self) -> impl Iterator<Item = usize> + '_ {
        let one = if let [set] = self.sets.as_slice() { set.as_slice() } else { &[] };
        one.iter().copied()
    }

    /// `let alternative = ...;`: the index of the first set whose credentials are all set, or
    /// an error naming the sets when none is and the client holds none for certain.
    fn choice(&self, api: &Api) -> Option<TokenStream> {
        if self.sets.len() < 2 {
            return None;
        }
        let last = self.sets.len() - 1;
        let always_last = self.sets[last].iter().all(|&i| !api.credentials[i].optional);
        let tested = if always_last { &self.sets[..last] } else { &self.sets[..] };
        let branches = tested.iter().enumerate().map(|(n, set)| {
            let fields =
                set.iter().filter(|&&i| api.credentials[i].optional).map(|&i| ident(&api.credentials[i].field));
            let n = Literal::usize_unsuffixed(n);
            quote! { if #(credentials.#fields.is_some())&&* { #n } }
        });
        let otherwise = if always_last {
            let last = Literal::usize_unsuffixed(last);
            quote! { #last }
        } else {
            let sets: Vec<Vec<&Credential>> =
                self.sets.iter().map(|set| set.iter().map(|&i| &api.credentials[i]).collect()).collect();
            let accepted = crate::emit::accepted_sets(&sets);
            quote! { return Err(Error::MissingCredentials { operation: Self::CALL.operation, accepted: #accepted }) }
        };
        Some(quote! {
            // The first set of credentials the operation accepts that is all set.
            let alternative = #(#branches else)* { #otherwise };
        })
    }

    /// For each credential `include` keeps that only some sets send, `action` on its value (a
    /// `&HeaderValue`) when the chosen set sends it.
    fn conditional(
        &self,
        api: &Api,
        include: impl Fn(&usize) -> bool,
        action: impl Fn(&Credential, TokenStream) -> TokenStream,
    ) -> Vec<TokenStream> {
        if self.sets.len() < 2 {
            return Vec::new();
        }
        let mut all: Vec<usize> = self.sets.iter().flatten().copied().filter(|i| include(i)).collect();
        all.sort_unstable();
        all.dedup();
        all.into_iter()
            .map(|i| {
                let c = &api.credentials[i];
                let field = ident(&c.field);
                let sets = self.sets.iter().enumerate().filter(|(_, set)| set.contains(&i));
                let sets = sets.map(|(n, _)| Literal::usize_unsuffixed(n));
                let act = action(c, quote! { value });
                if c.optional {
                    quote! { if let (#(#sets)|*, Some(value)) = (alternative, &credentials.#field) { #act } }
                } else {
                    quote! { if let (#(#sets)|*, value) = (alternative, &credentials.#field) { #act } }
                }
            })
            .collect()
    }

    /// The chosen set's credentials that travel in headers of their own.
    fn conditional_headers(&self, api: &Api) -> Vec<TokenStream> {
        let in_headers = |i: &usize| !matches!(api.credentials[*i].carrier, Carrier::Cookie(_) | Carrier::Query(_));
        self.conditional(api, in_headers, |c, value| {
            let header = c.carrier.header();
            quote! { request = request.header(#header, #value.clone()); }
        })
    }

    /// The chosen set's API keys that travel in the query, joining it last.
    fn conditional_query(&self, api: &Api) -> Vec<TokenStream> {
        let in_query = |i: &usize| matches!(api.credentials[*i].carrier, Carrier::Query(_));
        self.conditional(api, in_query, |_, value| quote! { crate::encoding::with_query_credentials(url, &[#value]) })
            .into_iter()
            .map(|joined| quote! { let url = #joined else { url }; })
            .collect()
    }
}

/// Statements for header and cookie parameters, which may fail or be absent, and the one
/// `Cookie` header that carries the parameters and credentials sent as cookies.
fn header_statements(api: &Api, op: &Operation, sending: &Sending) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for p in op.params.iter().filter(|p| p.location == Location::Header) {
        let field = ident(&p.name);
        let wire = &p.wire;
        let value = if p.required {
            quote! { &self.#field }
        } else {
            quote! { value }
        };
        // A list is its items joined by commas, an object its properties and values
        // (`style: simple`).
        let text = if p.json {
            quote! { crate::encoding::json_text(#wire, #value)? }
        } else if p.object_style.is_some() {
            let explode = p.explode;
            quote! { crate::encoding::simple_object(#explode, #value) }
        } else if matches!(p.ty, TypeRef::Vec(_)) {
            quote! { #value.iter().map(ToString::to_string).collect::<Vec<_>>().join(",") }
        } else {
            quote! { #value.to_string() }
        };
        let set = quote! {
            let value = HeaderValue::try_from(#text)
                .map_err(|_| Error::InvalidArgument { name: #wire, reason: "not a valid header value".to_string() })?;
            request = request.header(#wire, value);
        };
        out.push(if p.required {
            quote! { { #set } }
        } else {
            quote! { if let Some(value) = &self.#field { #set } }
        });
    }
    if sends_cookies(api, op) {
        let is_cookie = |i: &usize| matches!(api.credentials[*i].carrier, Carrier::Cookie(_));
        let credentials = sending.always().filter(is_cookie).map(|i| {
            let field = ident(&api.credentials[i].field);
            quote! { cookies.credential(&credentials.#field); }
        });
        let chosen = sending.conditional(api, is_cookie, |_, value| quote! { cookies.credential(#value); });
        let params = op.params.iter().filter(|p| p.location == Location::Cookie).map(|p| {
            let (field, wire) = (ident(&p.name), &p.wire);
            let (text, text_of_value) = if p.json {
                (
                    quote! { crate::encoding::json_text(#wire, &self.#field)? },
                    quote! { crate::encoding::json_text(#wire, value)? },
                )
            } else {
                (quote! { self.#field.to_string() }, quote! { value.to_string() })
            };
            if p.required {
                quote! { cookies.push(#wire, &#text); }
            } else {
                quote! { if let Some(value) = &self.#field { cookies.push(#wire, &#text_of_value); } }
            }
        });
        out.push(quote! {
            let mut cookies = Cookies::default();
            #(#credentials)*
            #(#chosen)*
            #(#params)*
            request = cookies.set(request)?;
        });
    }
    out
}

/// The statement that encodes and sets the body, if the operation has one.
fn body_statement(api: &Api, op: &Operation) -> Option<TokenStream> {
    let b = op.body.as_ref()?;
    // Bytes and text go as they are, moved rather than copied; others are encoded from a borrow.
    let by_value = |b: &Body| matches!(b.encoding, BodyEncoding::Binary | BodyEncoding::Text);
    let Some(choice) = &b.choice else {
        let write = encode_body(api, b);
        return Some(match (by_value(b), b.required) {
            (true, true) => quote! { let body = self.body; #write },
            (true, false) => quote! { if let Some(body) = self.body { #write } },
            (false, true) => quote! { let body = &self.body; #write },
            (false, false) => quote! { if let Some(body) = &self.body { #write } },
        });
    };
    // A case at a time, its body bound as a body of its one media type is.
    let name = format_ident!("{}", choice.name);
    let arms = choice.cases.iter().map(|case| {
        let variant = format_ident!("{}", case.name);
        let write = encode_body(api, &case.body);
        let borrow = (!by_value(&case.body)).then(|| quote! { let body = &body; });
        quote! { types::#name::#variant(body) => { #borrow #write } }
    });
    Some(match b.required {
        true => quote! { match self.body { #(#arms)* } },
        false => quote! { if let Some(body) = self.body { match body { #(#arms)* } } },
    })
}

/// The statements that set a body of one media type, bound to `body` (by value for bytes and
/// text, else borrowed).
fn encode_body(api: &Api, b: &Body) -> TokenStream {
    let content_type = &b.content_type;
    let invalid = quote! { map_err(|e| Error::InvalidArgument { name: "body", reason: e.to_string() })? };
    match b.encoding {
        BodyEncoding::Binary | BodyEncoding::Text => {
            quote! { request = request.header(CONTENT_TYPE, HeaderValue::from_static(#content_type)).body(body); }
        }
        BodyEncoding::Multipart => {
            // The content type names the boundary, so it is made with the bytes.
            let (always, files) = file_parts(api, &b.ty);
            // A multipart body without file fields sends none.
            // (No type named, so a crate without files need not re-export `File`.)
            let declare = match (always.is_empty(), files.is_empty()) {
                (true, true) => quote! { let files = Vec::new(); },
                (false, true) => quote! { let files: Vec<(&str, &crate::File)> = vec![#(#always),*]; },
                (true, false) => quote! { let mut files: Vec<(&str, &crate::File)> = Vec::new(); },
                (false, false) => quote! { let mut files: Vec<(&str, &crate::File)> = vec![#(#always),*]; },
            };
            quote! {
                #declare
                #(#files)*
                let (content_type, bytes) = crate::multipart::multipart_body(body, &files).#invalid;
                let content_type = HeaderValue::try_from(content_type).#invalid;
                request = request.header(CONTENT_TYPE, content_type).body(bytes);
            }
        }
        BodyEncoding::Json => quote! { request = transport::json_body(request, #content_type, body)?; },
        BodyEncoding::Form => quote! { request = transport::form_body(request, #content_type, body)?; },
    }
}

/// Statements that list a multipart body's files, by wire name, in `files`.
/// The file parts of a multipart body: those always present (a required single file), as
/// `(name, file)` pairs, and statements adding the others to `files`.
fn file_parts(api: &Api, ty: &TypeRef) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let (mut always, mut others) = (Vec::new(), Vec::new());
    for f in crate::emit::file_fields(api, ty) {
        let (field, wire) = (ident(&f.name), &f.wire);
        let each = match (f.ty == TypeRef::File, f.required && !f.nullable) {
            (true, true) => {
                always.push(quote! { (#wire, &body.#field) });
                continue;
            }
            (true, false) | (false, true) => quote! { body.#field.iter() },
            (false, false) => quote! { body.#field.iter().flatten() },
        };
        others.push(quote! { files.extend(#each.map(|file| (#wire, file))); });
    }
    (always, others)
}
