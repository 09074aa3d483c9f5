//! The crates of one API as one file of items for `include!`: each crate's root becomes a module
//! (`client`, `server`, and `shared` for the types crate, whose public items are re-exported at
//! the top), every `mod NAME;` written in place.
//!
//! The crates' code is rewritten token by token, never as text, for where it now stands:
//! - `crate::` becomes a relative path (`self::`, `super::…`) to the module that took the crate's
//!   root, and the types crate's name (`petstore_types::`) a relative path to `shared`, so the
//!   file works in whatever module it is included into;
//! - a crate that generated code names by its own name (`serde`, `uuid`, …) is reached through the
//!   runtime (`apigen_runtime::codegen::deps::`), the one dependency the including crate needs;
//! - `feature = "…"` in a `cfg` becomes `all()` or `any()`: the crates' features are decided
//!   here, as the including crate has none of them;
//! - a code block in docs becomes `text`, as a doctest of the including crate could not name the
//!   crates the examples are written for.

use std::collections::BTreeMap;

use proc_macro2::{Delimiter, Group, Ident, Literal, Spacing, Span, TokenStream, TokenTree};

use crate::{Config, CrateConfig, GeneratedFile};

/// The crates' features that the included code has: those of the crates it holds. `time` and
/// `document` are off (the runtime's `time` is there to use directly, and the document is the
/// spec the build script read).
fn feature_on(config: &Config, name: &str) -> bool {
    match name {
        "client" => config.client.is_some(),
        "server" => config.server.is_some(),
        _ => false,
    }
}

/// The crates generated code reaches by their own names, which the runtime re-exports.
const DEPS: &[&str] = &["axum", "reqwest", "serde", "serde_json", "uuid"];

/// One file holding the crates `config` names, from their `files`.
pub fn module(files: &[GeneratedFile], config: &Config) -> Result<String, String> {
    let files: BTreeMap<&str, &str> = files.iter().map(|f| (f.path.as_str(), f.contents.as_str())).collect();
    let types = config.types.as_ref().ok_or("an API included at build time needs its types crate")?;
    let types_name = types.name.replace('-', "_");
    let crate_tokens = |krate: &CrateConfig| {
        let rewrite =
            Rewrite { config, files: &files, dir: &krate.dir, types_name: &types_name, fence_open: false.into() };
        rewrite.module(&[])
    };
    let shared = crate_tokens(types)?;
    // Nothing in it need be used: the crate including it may be a binary that uses a few types.
    let mut items = vec![quote::quote! {
        #[allow(unused)]
        mod shared { #shared }
        #[allow(unused_imports)]
        pub use self::shared::*;
    }];
    for (side, krate) in [("client", &config.client), ("server", &config.server)] {
        let Some(krate) = krate else { continue };
        let body = crate_tokens(krate)?;
        let name = Ident::new(side, Span::call_site());
        items.push(quote::quote! { #[allow(unused)] pub mod #name { #body } });
    }
    let file: syn::File = syn::parse2(items.into_iter().collect()).map_err(|e| format!("the API's code: {e}"))?;
    Ok(prettyplease::unparse(&file))
}

/// Rewrites one crate's modules for their place in the file.
struct Rewrite<'a> {
    config: &'a Config,
    files: &'a BTreeMap<&'a str, &'a str>,
    /// The crate's directory, whose `src/` holds its modules' files.
    dir: &'a str,
    /// The types crate's name as a Rust path segment.
    types_name: &'a str,
    /// Whether a code block in docs is open, across the doc lines that hold it.
    fence_open: std::cell::Cell<bool>,
}

impl Rewrite<'_> {
    /// The module at `path` below the crate's root (empty for the root): its file's tokens,
    /// rewritten.
    fn module(&self, path: &[String]) -> Result<TokenStream, String> {
        let file = if path.is_empty() { "lib".to_string() } else { path.join("/") };
        let candidates = [format!("{}/src/{file}.rs", self.dir), format!("{}/src/{file}/mod.rs", self.dir)];
        let (name, text) = candidates
            .iter()
            .find_map(|name| self.files.get(name.as_str()).map(|text| (name, *text)))
            .ok_or_else(|| format!("no file for module `{}` of {}", path.join("::"), self.dir))?;
        let tokens: TokenStream = text.parse().map_err(|e| format!("{name} does not parse: {e}"))?;
        self.tokens(tokens, path, false)
    }

    /// `tokens`, in the module at `path`; `in_attribute` inside `#[…]`.
    fn tokens(&self, tokens: TokenStream, path: &[String], in_attribute: bool) -> Result<TokenStream, String> {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut out = Vec::with_capacity(tokens.len());
        let mut i = 0;
        while i < tokens.len() {
            let after_path_sep = i >= 2 && is_punct(&tokens[i - 1], ':') && is_punct(&tokens[i - 2], ':');
            let before_path_sep = is_path_sep(&tokens[i + 1..]);
            match &tokens[i] {
                TokenTree::Group(group) => {
                    // `#[…]` and `#![…]` are attributes.
                    let attribute = group.delimiter() == Delimiter::Bracket
                        && i >= 1
                        && (is_punct(&tokens[i - 1], '#')
                            || (is_punct(&tokens[i - 1], '!') && i >= 2 && is_punct(&tokens[i - 2], '#')));
                    let inner = self.tokens(group.stream(), path, in_attribute || attribute)?;
                    out.push(regroup(group, inner));
                }
                TokenTree::Ident(ident) if ident == "mod" => {
                    let (Some(TokenTree::Ident(name)), Some(next)) = (tokens.get(i + 1), tokens.get(i + 2)) else {
                        out.push(tokens[i].clone());
                        i += 1;
                        continue;
                    };
                    let inner: Vec<String> = path.iter().cloned().chain([name.to_string()]).collect();
                    let body = match next {
                        TokenTree::Punct(p) if p.as_char() == ';' => self.module(&inner)?,
                        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                            self.tokens(g.stream(), &inner, false)?
                        }
                        _ => {
                            out.push(tokens[i].clone());
                            i += 1;
                            continue;
                        }
                    };
                    out.extend([tokens[i].clone(), TokenTree::Ident(name.clone())]);
                    out.push(TokenTree::Group(Group::new(Delimiter::Brace, body)));
                    i += 3;
                    continue;
                }
                TokenTree::Ident(ident) if ident == "crate" && before_path_sep && !after_path_sep => {
                    out.extend(up(path.len()));
                }
                TokenTree::Ident(ident) if *ident == self.types_name && before_path_sep && !after_path_sep => {
                    // Every crate's root is a module of the top.
                    out.extend(up(1 + path.len()));
                    out.extend(quote::quote! { ::shared });
                }
                TokenTree::Ident(ident)
                    if DEPS.iter().any(|dep| ident == dep)
                        && !after_path_sep
                        && (before_path_sep || (i >= 1 && is_ident(&tokens[i - 1], "use"))) =>
                {
                    out.extend(quote::quote! { apigen_runtime::codegen::deps:: });
                    out.push(tokens[i].clone());
                }
                TokenTree::Ident(ident) if in_attribute && ident == "feature" => {
                    if let (Some(eq), Some(TokenTree::Literal(value))) = (tokens.get(i + 1), tokens.get(i + 2))
                        && is_punct(eq, '=')
                    {
                        let on = string(value).is_some_and(|name| feature_on(self.config, &name));
                        let predicate = Ident::new(if on { "all" } else { "any" }, ident.span());
                        out.push(TokenTree::Ident(predicate));
                        out.push(TokenTree::Group(Group::new(Delimiter::Parenthesis, TokenStream::new())));
                        i += 3;
                        continue;
                    }
                    out.push(tokens[i].clone());
                }
                TokenTree::Ident(ident) if in_attribute && ident == "doc" => {
                    out.push(tokens[i].clone());
                    if let (Some(eq), Some(TokenTree::Literal(text))) = (tokens.get(i + 1), tokens.get(i + 2))
                        && is_punct(eq, '=')
                        && let Some(line) = string(text)
                    {
                        out.push(eq.clone());
                        out.push(TokenTree::Literal(Literal::string(&self.doc_line(&line))));
                        i += 3;
                        continue;
                    }
                }
                other => out.push(other.clone()),
            }
            i += 1;
        }
        Ok(out.into_iter().collect())
    }

    /// A line of docs, with a code block's opening fence made `text`.
    fn doc_line(&self, line: &str) -> String {
        let trimmed = line.trim_start();
        if !trimmed.starts_with("```") {
            return line.to_string();
        }
        let open = !self.fence_open.get();
        self.fence_open.set(open);
        if open { format!("{}```text", &line[..line.len() - trimmed.len()]) } else { line.to_string() }
    }
}

/// The path from a module `levels` below the file's top (or a crate's root) up to it: `self`, or
/// `super` as often as it takes.
fn up(levels: usize) -> TokenStream {
    if levels == 0 {
        return quote::quote! { self };
    }
    let supers = (0..levels).map(|_| Ident::new("super", Span::call_site()));
    quote::quote! { #(#supers)::* }
}

/// `group`'s delimiter and span around `stream`.
fn regroup(group: &Group, stream: TokenStream) -> TokenTree {
    let mut out = Group::new(group.delimiter(), stream);
    out.set_span(group.span());
    TokenTree::Group(out)
}

fn is_punct(token: &TokenTree, c: char) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == c)
}

fn is_ident(token: &TokenTree, name: &str) -> bool {
    matches!(token, TokenTree::Ident(i) if i == name)
}

/// Whether `rest` starts with `::`.
fn is_path_sep(rest: &[TokenTree]) -> bool {
    matches!(rest, [TokenTree::Punct(a), TokenTree::Punct(b), ..]
        if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
}

/// The value of a string literal.
fn string(literal: &Literal) -> Option<String> {
    syn::parse2::<syn::LitStr>(TokenTree::Literal(literal.clone()).into()).ok().map(|s| s.value())
}
