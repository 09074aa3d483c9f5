//! `into_stream()` of a paged operation's request builder: the walk from page to page, which
//! the runtime drives, with what this operation decides written out (which parameter moves, how
//! the next key is found, where the items are).

use proc_macro2::TokenStream;
use quote::quote;

use crate::emit::{doc, ident, rust_type};
use crate::ir::{Api, FieldPath, Holder, NextKey, Operation, PageKind, PageShape, PageWrapper, Paging, TypeRef};

/// `into_stream()`: the items of this page and of every later one.
pub(super) fn into_stream(api: &Api, op: &Operation, paging: &Paging) -> TokenStream {
    let param = &op.params[paging.kind.param()];
    let field = ident(&param.name);
    let item = rust_type(api, &paging.item, &quote! { types:: });
    let operation = &op.id;
    let docs = doc(&docs(op, paging));
    // A reply with documented headers is `(body, headers)`.
    let headers = op.reply.headers().map(|_| {
        let name = if matches!(paging.next, Some(NextKey::Header(_) | NextKey::Link(_))) {
            quote! { headers }
        } else {
            quote! { _ }
        };
        quote! { let (reply, #name) = reply; }
    });
    let counted = !matches!(paging.kind, PageKind::Cursor { .. });
    let items = items_and_total(&paging.shape, counted);
    let walk = match &paging.kind {
        PageKind::Cursor { .. } => {
            let next = next_cursor(paging.next.as_ref(), &param.wire, operation);
            let first = if param.ty == TypeRef::String {
                quote! { self.#field.clone() }
            } else {
                quote! { self.#field }
            };
            quote! {
                paging::items(#operation, self.client.connection.max_pages(), #first, move |cursor| {
                    let mut request = self.clone();
                    request.#field = cursor;
                    async move {
                        let reply = request.send().await?;
                        #headers
                        #next
                        #items
                        Ok(Page { items, next })
                    }
                })
            }
        }
        PageKind::Number { first, .. } => {
            let first = proc_macro2::Literal::i64_unsuffixed(*first);
            let next = quote! { paging::next_number(key, #first, items.len(), total, size) };
            counted_walk(op, paging, first, next, headers, items)
        }
        PageKind::Offset { .. } => {
            let next = quote! { paging::next_offset(key, items.len(), total, size) };
            counted_walk(op, paging, proc_macro2::Literal::i64_unsuffixed(0), next, headers, items)
        }
    };
    quote! {
        #docs
        pub fn into_stream(self) -> Items<'a, #item> {
            #walk
        }
    }
}

/// The walk of numbered pages or offsets, from the parameter's value (or `first`) on, each next
/// key counted by `next`.
fn counted_walk(
    op: &Operation,
    paging: &Paging,
    first: proc_macro2::Literal,
    next: TokenStream,
    headers: Option<TokenStream>,
    items: TokenStream,
) -> TokenStream {
    let param = &op.params[paging.kind.param()];
    let field = ident(&param.name);
    let start = match (param.required, param.ty == TypeRef::I32) {
        (true, true) => quote! { i64::from(self.#field) },
        (true, false) => quote! { self.#field },
        (false, true) => quote! { self.#field.map_or(#first, i64::from) },
        (false, false) => quote! { self.#field.unwrap_or(#first) },
    };
    let size = match paging.size.map(|at| &op.params[at]) {
        None => quote! { None },
        Some(size) => {
            let field = ident(&size.name);
            let read = match (size.required, size.ty == TypeRef::I32) {
                (true, true) => quote! { Some(i64::from(self.#field)) },
                (true, false) => quote! { Some(self.#field) },
                (false, true) => quote! { self.#field.map(i64::from) },
                (false, false) => quote! { self.#field },
            };
            match paging.default_size.filter(|_| !size.required) {
                Some(n) => {
                    let n = proc_macro2::Literal::i64_unsuffixed(n);
                    quote! { #read.or(Some(#n)) }
                }
                None => read,
            }
        }
    };
    let name = &param.wire;
    let set = if param.required {
        quote! { request.#field = paging::narrow(#name, key)?; }
    } else {
        quote! { request.#field = Some(paging::narrow(#name, key)?); }
    };
    let operation = &op.id;
    quote! {
        let size = #size;
        paging::items(#operation, self.client.connection.max_pages(), #start, move |key| {
            let mut request = self.clone();
            async move {
                #set
                let reply = request.send().await?;
                #headers
                #items
                Ok(Page { next: #next, items })
            }
        })
    }
}

/// `let items = …;` and, for a `counted` walk, `let total = …;` (an `Option<i64>`), the total
/// read first: reading the items moves them out of the reply.
fn items_and_total(shape: &PageShape, counted: bool) -> TokenStream {
    let total_of = |w: &PageWrapper, root: TokenStream| match &w.total {
        Some(total) => total_expr(root, total),
        None => quote! { None },
    };
    match shape {
        PageShape::Array if counted => quote! { let (items, total) = (reply, None); },
        PageShape::Array => quote! { let items = reply; },
        PageShape::Wrapper(w) => {
            let items = take(quote! { reply }, &w.items);
            if counted {
                let total = total_of(w, quote! { reply });
                quote! { let total = #total; let items = #items; }
            } else {
                quote! { let items = #items; }
            }
        }
        PageShape::ArrayOfWrappers(w) => {
            let items = take(quote! { wrapper }, &w.items);
            if counted {
                let total = total_of(w, quote! { wrapper });
                quote! {
                    let (mut items, mut total) = (Vec::new(), None);
                    for wrapper in reply {
                        total = total.max(#total);
                        items.extend(#items);
                    }
                }
            } else {
                quote! { let items: Vec<_> = reply.into_iter().flat_map(|wrapper| #items).collect(); }
            }
        }
    }
}

/// `let next = …;`: the cursor of the next page, an `Option<Option<_>>` whose `Some(None)` never
/// occurs (an empty cursor ends the walk as an absent one does).
fn next_cursor(next: Option<&NextKey>, param: &str, operation: &str) -> TokenStream {
    let (value, ty) = match next {
        Some(NextKey::Body(path)) => (read(quote! { reply }, path, Take::Clone), &path.ty),
        Some(NextKey::Header(path)) => (read(quote! { headers }, path, Take::Clone), &path.ty),
        Some(NextKey::Link(path)) => {
            let link = match path.fields.as_slice() {
                [(name, Holder::Option)] => {
                    let f = ident(name);
                    quote! { headers.#f.as_deref() }
                }
                _ => {
                    let link = read(quote! { headers }, path, Take::Ref);
                    quote! { #link.map(String::as_str) }
                }
            };
            return quote! { let next = paging::next_in_link(#operation, #link, #param)?.map(Some); };
        }
        None => return quote! { let next = None; },
    };
    let nonempty = (*ty == TypeRef::String).then(|| quote! { .filter(|cursor| !cursor.is_empty()) });
    quote! { let next = #value #nonempty.map(Some); }
}

/// An `Option<i64>` of a total at `path` from `root`.
fn total_expr(root: TokenStream, path: &FieldPath) -> TokenStream {
    let widen = path.ty == TypeRef::I32;
    if path.fields.iter().all(|(_, holder)| *holder == Holder::Plain) {
        let value = chain(root, &path.fields);
        return if widen {
            quote! { Some(i64::from(#value)) }
        } else {
            quote! { Some(#value) }
        };
    }
    let value = read(root, path, Take::Copy);
    let widen = widen.then(|| quote! { .map(i64::from) });
    quote! { #value #widen }
}

/// The items at `path` moved out of `root`; absent items are none.
fn take(root: TokenStream, path: &FieldPath) -> TokenStream {
    if path.fields.iter().all(|(_, holder)| *holder == Holder::Plain) {
        return chain(root, &path.fields);
    }
    let value = read(root, path, Take::Move);
    quote! { #value.unwrap_or_default() }
}

/// How [`read`] takes the value at the end of a path.
#[derive(Clone, Copy, PartialEq)]
enum Take {
    /// Copied: `Option<T>`.
    Copy,
    /// Cloned: `Option<T>`.
    Clone,
    /// Borrowed: `Option<&T>`.
    Ref,
    /// Moved out of the root: `Option<T>`.
    Move,
}

/// The value at `path` from `root` as an `Option`, through each optional field on the way as
/// hand-written code would (`reply.meta.as_ref().and_then(|v| v.next.clone())`).
fn read(root: TokenStream, path: &FieldPath, take: Take) -> TokenStream {
    let fields = &path.fields;
    // Up to the first field that may hold nothing, a plain chain of fields.
    let Some(split) = fields.iter().position(|(_, holder)| *holder != Holder::Plain) else {
        let value = chain(root, fields);
        return match take {
            Take::Copy | Take::Move => quote! { Some(#value) },
            Take::Clone => quote! { Some(#value.clone()) },
            Take::Ref => quote! { Some(&#value) },
        };
    };
    let head = chain(root, &fields[..=split]);
    let rest = &fields[split + 1..];
    let nullable = fields[split].1 == Holder::Nullable;
    if take == Take::Move {
        let head = if nullable {
            quote! { #head.into_value() }
        } else {
            head
        };
        let steps = rest.iter().map(|(name, holder)| {
            let f = ident(name);
            match holder {
                Holder::Plain => quote! { .map(|v| v.#f) },
                Holder::Option => quote! { .and_then(|v| v.#f) },
                Holder::Nullable => quote! { .and_then(|v| v.#f.into_value()) },
            }
        });
        return quote! { #head #(#steps)* };
    }
    // An `Option` last on the path is read as it is.
    if rest.is_empty() && !nullable {
        return match take {
            Take::Copy => head,
            Take::Clone => quote! { #head.clone() },
            _ => quote! { #head.as_ref() },
        };
    }
    // Otherwise borrowed all the way, and copied or cloned at the end.
    let head = if nullable {
        quote! { #head.value() }
    } else {
        quote! { #head.as_ref() }
    };
    // A value copied out of the last field needs no borrow of it.
    let (last, copied_out) = match rest.last() {
        Some((_, Holder::Plain | Holder::Option)) if take == Take::Copy => (rest.len() - 1, true),
        _ => (rest.len(), false),
    };
    let steps = rest.iter().enumerate().map(|(at, (name, holder))| {
        let f = ident(name);
        match (holder, at == last) {
            (Holder::Plain, true) => quote! { .map(|v| v.#f) },
            (Holder::Option, true) => quote! { .and_then(|v| v.#f) },
            (Holder::Plain, _) => quote! { .map(|v| &v.#f) },
            (Holder::Option, _) => quote! { .and_then(|v| v.#f.as_ref()) },
            (Holder::Nullable, _) => quote! { .and_then(|v| v.#f.value()) },
        }
    });
    let end = match take {
        Take::Copy if !copied_out => quote! { .copied() },
        Take::Clone => quote! { .cloned() },
        _ => TokenStream::new(),
    };
    quote! { #head #(#steps)* #end }
}

/// `root.a.b`.
fn chain(root: TokenStream, fields: &[(String, Holder)]) -> TokenStream {
    let names = fields.iter().map(|(name, _)| ident(name));
    quote! { #root #(.#names)* }
}

/// The docs of `into_stream()`: where the walk starts, how it moves on and when it ends.
fn docs(op: &Operation, paging: &Paging) -> String {
    let setter = |at: usize| format!("`.{}(..)`", op.params[at].name);
    let param = setter(paging.kind.param());
    let size = paging.size.map(|at| match paging.default_size {
        Some(n) => format!("{} (default {n})", setter(at)),
        None => setter(at),
    });
    let short = |what: &str| match &size {
        Some(size) => format!(", or when the reply gives no {what}, at a page shorter than {size}"),
        None => String::new(),
    };
    let how = match &paging.kind {
        PageKind::Number { first, .. } => format!(
            "Starts at the page set with {param} (default {first}) and moves on one page at a time. Ends after an empty page, at the reply's page count{}.",
            short("count")
        ),
        PageKind::Offset { .. } => format!(
            "Starts at the offset set with {param} (default 0) and moves on by the number of items read. Ends after an empty page, at the reply's total{}.",
            short("total")
        ),
        PageKind::Cursor { .. } => {
            let from = match &paging.next {
                Some(NextKey::Body(path)) => {
                    let names: Vec<&str> = path.fields.iter().map(|(name, _)| name.as_str()).collect();
                    format!("the reply's `{}`", names.join("."))
                }
                Some(NextKey::Header(path)) => format!("the reply header in `{}`", path.fields[0].0),
                _ => "the `rel=\"next\"` target of the reply's `Link` header (only the parameter's value is taken: the request still goes to this client's base URL)".to_string(),
            };
            format!(
                "Starts at the cursor set with {param} (or at the first page) and follows the next cursor from {from}. Ends at a reply that gives none."
            )
        }
    };
    let first = format!(
        "Every item of this page and the pages after it, fetched one page at a time as the stream is read. {how}"
    );
    format!(
        "{}\n\n\
         Read it with `while let Some(item) = stream.next().await`; an error ends the stream, and so\n\
         do a reply that names a page already read as the next and a walk past the client's\n\
         `max_pages` (10,000 unless set).",
        wrapped(&first, 96)
    )
}

/// `text` broken into lines of at most `width` characters, between words.
fn wrapped(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}
