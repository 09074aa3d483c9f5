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
//!   crates the examples are written for;
//! - a serde derive is told where serde is (`#[serde(crate = "…")]`);
//! - a file a crate includes (`include_str!("schema_checks.json")`) is written beside the module,
//!   under the API's name, and included from there.

use std::cell::{Cell, RefCell};
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

/// The module of one API: its text, and the files it includes, as paths relative to the
/// module's directory with their contents.
pub struct Module {
    pub text: String,
    pub included: Vec<(String, String)>,
}

/// One file holding the crates `config` names, from their `files`; `name` is the API's, under
/// which the files it includes are written.
pub fn module(files: &[GeneratedFile], config: &Config, name: &str) -> Result<Module, String> {
    let files: BTreeMap<&str, &str> = files.iter().map(|f| (f.path.as_str(), f.contents.as_str())).collect();
    let types = config.types.as_ref().ok_or("an API included at build time needs its types crate")?;
    let types_name = types.name.replace('-', "_");
    let included = RefCell::new(Vec::new());
    let crate_tokens = |krate: &CrateConfig| {
        let rewrite = Rewrite {
            config,
            files: &files,
            dir: &krate.dir,
            api: name,
            types_name: &types_name,
            fence_open: false.into(),
            included: &included,
        };
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
    Ok(Module { text: prettyplease::unparse(&file), included: included.into_inner() })
}

/// Rewrites one crate's modules for their place in the file.
struct Rewrite<'a> {
    config: &'a Config,
    files: &'a BTreeMap<&'a str, &'a str>,
    /// The crate's directory, whose `src/` holds its modules' files.
    dir: &'a str,
    /// The API's name, the directory the files it includes go to.
    api: &'a str,
    /// The types crate's name as a Rust path segment.
    types_name: &'a str,
    /// Whether a code block in docs is open, across the doc lines that hold it.
    fence_open: Cell<bool>,
    /// The files included so far: where they go, and their contents.
    included: &'a RefCell<Vec<(String, String)>>,
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
        let file_dir = name.rsplit_once('/').map_or("", |(dir, _)| dir);
        self.tokens(tokens, &Place { path, file_dir }, false)
    }

    /// `tokens`, in the module at `place`; `in_attribute` inside `#[…]`.
    fn tokens(&self, tokens: TokenStream, place: &Place<'_>, in_attribute: bool) -> Result<TokenStream, String> {
        let path = place.path;
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
                    let inner = self.tokens(group.stream(), place, in_attribute || attribute)?;
                    out.push(regroup(group, inner));
                    if attribute && derives_serde(group) {
                        out.extend(quote::quote! { #[serde(crate = "apigen_runtime::codegen::deps::serde")] });
                    }
                }
                TokenTree::Ident(ident) if (ident == "include_str" || ident == "include_bytes") => {
                    out.push(tokens[i].clone());
                    if let (Some(bang), Some(TokenTree::Group(args))) = (tokens.get(i + 1), tokens.get(i + 2))
                        && is_punct(bang, '!')
                    {
                        out.push(bang.clone());
                        out.push(regroup(args, self.include(args.stream(), place)?));
                        i += 3;
                        continue;
                    }
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
                            self.tokens(g.stream(), &Place { path: &inner, file_dir: place.file_dir }, false)?
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

    /// The argument of an `include_str!` or `include_bytes!`: the file it names, relative to the
    /// file it is in, taken into the included files and named where it is written.
    fn include(&self, args: TokenStream, place: &Place<'_>) -> Result<TokenStream, String> {
        let not_a_name = || format!("{}: a file is included by a name that is not one string", place.file_dir);
        let args: Vec<TokenTree> = args.into_iter().collect();
        let [TokenTree::Literal(literal)] = args.as_slice() else {
            return Err(not_a_name());
        };
        let name = string(literal).ok_or_else(not_a_name)?;
        let source = format!("{}/{name}", place.file_dir);
        let contents =
            self.files.get(source.as_str()).ok_or_else(|| format!("{source} is included but not generated"))?;
        let written = format!("{}/{source}", self.api);
        self.included.borrow_mut().push((written.clone(), contents.to_string()));
        Ok(TokenTree::Literal(Literal::string(&written)).into())
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

/// Where tokens are: the module's path below the crate's root, and the directory of the file
/// they were read from.
struct Place<'a> {
    path: &'a [String],
    file_dir: &'a str,
}

/// Whether an attribute is a `derive` of serde's `Serialize` or `Deserialize`.
fn derives_serde(attribute: &Group) -> bool {
    let tokens: Vec<TokenTree> = attribute.stream().into_iter().collect();
    let [TokenTree::Ident(derive), TokenTree::Group(list)] = tokens.as_slice() else { return false };
    derive == "derive"
        && list
            .stream()
            .into_iter()
            .any(|t| matches!(&t, TokenTree::Ident(i) if i == "Serialize" || i == "Deserialize"))
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
