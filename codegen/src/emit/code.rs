//! Rust written straight as text, laid out line by line as prettyplease prints the same code.
//!
//! Tokens cost a parse into a syntax tree and a print back to text, which is most of the
//! generator's time on a large spec; the items a spec has thousands of are written this way
//! instead. Blank lines are left to [`crate::render`], as for printed tokens.

use std::fmt::{self, Write};

use crate::ir::{Reply, TypeRef};
use crate::render::Emitted;

/// prettyplease's line width: a group that would reach past it is broken over lines.
const MARGIN: usize = 89;
const INDENT: &str = "    ";

/// Lines of Rust being written, at the depth of the block they are in.
pub struct Code {
    out: String,
    depth: usize,
    /// The `#[cfg(..)]` line every top-level item gets, after its docs.
    gate: Option<String>,
    /// Why a fragment given as tokens or source did not parse: a generator bug, reported by
    /// [`Code::finish`] instead of code that would not compile.
    broken: Option<String>,
}

impl Code {
    /// Empty code whose top-level items are compiled only under `gate` (a `#[cfg(..)]` line).
    pub fn new(gate: Option<String>) -> Self {
        Code { out: String::with_capacity(4096), depth: 0, gate, broken: None }
    }

    /// One line at the current depth.
    pub fn line(&mut self, text: impl fmt::Display) {
        for _ in 0..self.depth {
            self.out.push_str(INDENT);
        }
        // Writing to a `String` cannot fail.
        let _ = write!(self.out, "{text}");
        self.out.push('\n');
    }

    /// `///` lines of `text`, as `#[doc]` attributes from [`super::doc`] print.
    pub fn doc(&mut self, text: &str) {
        for line in super::doc_lines(text.trim()) {
            self.line(format_args!("///{line}"));
        }
    }

    /// The start of a top-level item: its docs, if any, then its `#[cfg(..)]`.
    pub fn item(&mut self, doc: Option<&str>) {
        if let Some(doc) = doc {
            self.doc(doc);
        }
        if let Some(gate) = &self.gate {
            // A top-level line, or lines, laid out already.
            self.out.push_str(gate);
            self.out.push('\n');
        }
    }

    /// `head {`, and the lines after it one level deeper.
    pub fn open(&mut self, head: impl fmt::Display) {
        self.line(format_args!("{head} {{"));
        self.depth += 1;
    }

    /// Back one level, and `}` followed by `tail` (`;`, `)`, or nothing).
    pub fn close(&mut self, tail: &str) {
        self.depth -= 1;
        self.line(format_args!("}}{tail}"));
    }

    /// `prefix`, a type and `suffix` on one line (`pub name: Type,`); a type too long for the line
    /// breaks inside its angle brackets, as prettyplease breaks it. A `suffix` ending in a brace
    /// opens a block.
    pub fn typed(&mut self, prefix: &str, ty: &str, suffix: &str) {
        self.typed_measured(prefix, ty, suffix, true);
    }

    /// [`Code::typed`], where `counted` says whether the suffix counts toward the line width: a
    /// trailing comma that prettyplease prints only on a broken line does not.
    fn typed_measured(&mut self, prefix: &str, ty: &str, suffix: &str, counted: bool) {
        let measured = if counted { format!("{prefix}{ty}{suffix}") } else { format!("{prefix}{ty}") };
        if let Some(inside) = ty.strip_prefix('(').and_then(|t| t.strip_suffix(')'))
            && !self.fits(&measured)
        {
            let items = type_arguments(inside);
            self.line(format_args!("{prefix}("));
            self.depth += 1;
            for (i, item) in items.iter().enumerate() {
                self.typed_measured("", item, ",", i + 1 < items.len());
            }
            self.depth -= 1;
            self.line(format_args!("){suffix}"));
            if suffix.ends_with('{') {
                self.depth += 1;
            }
            return;
        }
        match ty.split_once('<') {
            Some((outer, args)) if !self.fits(&measured) => {
                let args = type_arguments(args.strip_suffix('>').unwrap_or(args));
                self.line(format_args!("{prefix}{outer}<"));
                self.depth += 1;
                for (i, arg) in args.iter().enumerate() {
                    self.typed_measured("", arg, ",", i + 1 < args.len());
                }
                self.depth -= 1;
                self.line(format_args!(">{suffix}"));
            }
            _ => self.line(format_args!("{prefix}{ty}{suffix}")),
        }
        if suffix.ends_with('{') {
            self.depth += 1;
        }
    }

    /// One level deeper, for lines a caller lays out itself.
    pub fn indent(&mut self) {
        self.depth += 1;
    }

    /// Back one level.
    pub fn dedent(&mut self) {
        self.depth -= 1;
    }

    /// Whether `text` fits on one line at the current depth.
    pub fn fits(&self, text: &str) -> bool {
        self.depth * INDENT.len() + text.len() <= MARGIN
    }

    /// `head`, the items separated by commas, then `tail`: on one line when it fits, else one item
    /// a line, each with its comma, between `head` and `tail`. A `head` ending in a brace starts a
    /// struct literal, which has spaces inside its braces on one line (`Name { a, b }`) and, as
    /// prettyplease prints, stays on one line only up to 35 characters (34 when empty). A `tail` ending in a brace
    /// opens a block.
    pub fn list(&mut self, head: &str, items: &[String], tail: &str) {
        let literal = head.strip_suffix(" {");
        let pad = if literal.is_some() && !items.is_empty() { " " } else { "" };
        let joined = items.join(", ");
        let one_line = format!("{head}{pad}{joined}{pad}{tail}");
        let narrow = literal.is_none_or(|name| {
            let name = name.rsplit(['(', ' ']).next().unwrap_or(name);
            match items {
                [] => name.len() + " {}".len() <= 34,
                _ => name.len() + " { ".len() + joined.len() + " }".len() <= 35,
            }
        });
        if (items.is_empty() && literal.is_none()) || (narrow && self.fits(&one_line)) {
            self.line(&one_line);
        } else {
            self.line(head);
            self.depth += 1;
            for item in items {
                self.line(format_args!("{item},"));
            }
            self.depth -= 1;
            self.line(tail);
        }
        if tail.ends_with('{') {
            self.depth += 1;
        }
    }

    /// Top-level items given as tokens, printed by prettyplease: for the few items of a module
    /// not worth writing as text.
    pub fn items(&mut self, tokens: proc_macro2::TokenStream) {
        if let Some(printed) = self.printed(tokens) {
            self.out.push_str(&printed);
        }
    }

    /// Rust source given as text, as tokens for [`Code::members`] or [`Code::statements`].
    pub fn lex(&mut self, source: &str) -> proc_macro2::TokenStream {
        source.parse().unwrap_or_else(|e| {
            self.broken.get_or_insert_with(|| format!("{e} in `{source}`"));
            proc_macro2::TokenStream::new()
        })
    }

    /// `file` printed by prettyplease, or `None`, with the reason kept, when it does not parse.
    fn printed(&mut self, file: proc_macro2::TokenStream) -> Option<String> {
        match syn::parse2::<syn::File>(file) {
            Ok(file) => Some(prettyplease::unparse(&file)),
            Err(e) => {
                self.broken.get_or_insert_with(|| e.to_string());
                None
            }
        }
    }

    /// Opens again the block that the text written so far ends with (`}` on a line of its own at
    /// the top level), to add members to an item printed by [`Code::items`].
    pub fn reopen_last_block(&mut self) {
        if self.out.ends_with("\n}\n") {
            self.out.truncate(self.out.len() - "}\n".len());
            self.depth += 1;
        }
    }

    /// Members of an impl block given as tokens, printed by prettyplease at this depth: for
    /// members whose layout (long where-clauses) is not worth writing as text.
    pub fn members(&mut self, tokens: proc_macro2::TokenStream) {
        let Some(printed) = self.printed(quote::quote! { impl X { #tokens } }) else { return };
        let lines: Vec<&str> = printed.lines().collect();
        let inner = lines.get(1..lines.len().saturating_sub(1)).unwrap_or_default();
        for line in inner {
            // prettyplease indents members one level; the block they go into may be deeper.
            match line.strip_prefix(INDENT) {
                Some(rest) => self.line(rest),
                None => self.out.push('\n'),
            }
        }
    }

    /// Statements given as tokens, printed by prettyplease at this depth (two or more: inside a
    /// function in an impl block): for statements whose layout is not worth writing as text.
    pub fn statements(&mut self, tokens: proc_macro2::TokenStream) {
        // Wrapped in blocks to this depth, so prettyplease breaks lines where it would here.
        let mut wrapped = tokens;
        for _ in 2..self.depth {
            wrapped = quote::quote! { { #wrapped } };
        }
        let Some(printed) = self.printed(quote::quote! { impl X { fn f() { #wrapped } } }) else { return };
        let lines: Vec<&str> = printed.lines().collect();
        let inner = lines.get(self.depth..lines.len().saturating_sub(self.depth)).unwrap_or_default();
        for line in inner {
            self.out.push_str(line);
            self.out.push('\n');
        }
    }

    /// A signature: `head(params) -> ret` then `end` (`;`, or ` {` to open the body). When it
    /// does not fit, the parameters go one a line, and then a return type still too long breaks
    /// inside its angle brackets, as prettyplease breaks a signature.
    pub fn signature(&mut self, head: &str, params: &[(String, String)], ret: Option<&str>, end: &str) {
        let arrow = ret.map(|r| format!(" -> {r}")).unwrap_or_default();
        let joined: Vec<String> = params.iter().map(|(prefix, ty)| format!("{prefix}{ty}")).collect();
        let one_line = format!("{head}({}){arrow}{end}", joined.join(", "));
        if self.fits(&one_line) {
            self.line(&one_line);
            if end.ends_with('{') {
                self.depth += 1;
            }
            return;
        }
        let close = match params {
            [] => format!("{head}() -> "),
            _ => {
                self.line(format_args!("{head}("));
                self.depth += 1;
                for (i, (prefix, ty)) in params.iter().enumerate() {
                    self.typed_measured(prefix, ty, ",", i + 1 < params.len());
                }
                self.depth -= 1;
                ") -> ".to_string()
            }
        };
        match ret {
            Some(ret) => self.typed(&close, ret, end),
            None => {
                self.line(format_args!("){end}"));
                if end.ends_with('{') {
                    self.depth += 1;
                }
            }
        }
    }

    /// The text written, or why part of it is not valid Rust.
    pub fn finish(self) -> Emitted {
        match self.broken {
            None => Emitted::Text(self.out),
            Some(reason) => Emitted::Invalid(reason),
        }
    }
}

/// An identifier from a name decided during lowering; a keyword (`type`) is written raw (`r#type`).
pub fn ident(name: &str) -> String {
    if crate::naming::is_keyword(name) { format!("r#{name}") } else { name.to_string() }
}

/// A string literal, escaped as the token for it prints.
pub fn string(text: &str) -> String {
    proc_macro2::Literal::string(text).to_string()
}

/// The `#[cfg(..)]` attribute that compiles an item when any of `features` is on, laid out as
/// [`super::cfg_any`] prints at the top level; `None` when the list is empty.
pub fn cfg_any(features: &[String]) -> Option<String> {
    let features: Vec<String> = features.iter().map(|f| format!("feature = {}", string(f))).collect();
    let condition = match features.as_slice() {
        [] => return None,
        [one] => one.clone(),
        several => format!("any({})", several.join(", ")),
    };
    let one_line = format!("#[cfg({condition})]");
    if one_line.len() <= MARGIN {
        return Some(one_line);
    }
    // Broken as prettyplease breaks attribute arguments: each group over lines only when it does
    // not fit on its own, and no trailing commas, as the tokens have none.
    if INDENT.len() + condition.len() <= MARGIN || features.len() == 1 {
        return Some(format!("#[cfg(\n{INDENT}{condition}\n)]"));
    }
    let each: String = features.iter().map(|f| format!("{INDENT}{INDENT}{f},\n")).collect();
    Some(format!("#[cfg(\n{INDENT}any(\n{}\n{INDENT})\n)]", each.trim_end_matches(",\n")))
}

/// The Rust type for a [`TypeRef`], as [`super::rust_type`] prints; named types are written after
/// `types` (e.g. `types::`, or nothing inside the types module itself).
pub fn rust_type(ty: &TypeRef, types: &str) -> String {
    match ty {
        TypeRef::String => "String".to_string(),
        TypeRef::Bool => "bool".to_string(),
        TypeRef::I32 => "i32".to_string(),
        TypeRef::I64 => "i64".to_string(),
        TypeRef::F32 => "f32".to_string(),
        TypeRef::F64 => "f64".to_string(),
        TypeRef::Uuid => "Uuid".to_string(),
        TypeRef::DateTime => "DateTime".to_string(),
        TypeRef::Json => "Value".to_string(),
        TypeRef::Bytes => "Vec<u8>".to_string(),
        TypeRef::File => "File".to_string(),
        TypeRef::Vec(item) => format!("Vec<{}>", rust_type(item, types)),
        TypeRef::Map(value) => format!("BTreeMap<String, {}>", rust_type(value, types)),
        TypeRef::Nullable(inner) => format!("Option<{}>", rust_type(inner, types)),
        TypeRef::Named(name) => format!("{types}{}", ident(name)),
    }
}

/// The type arguments written between a type's outer angle brackets (`String, Vec<u8>`), each.
fn type_arguments(text: &str) -> Vec<String> {
    let mut arguments = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                arguments.push(text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    arguments.push(text[start..].trim().to_string());
    arguments
}

/// The Rust type of a reply, as both crates spell it: the body, the documented headers
/// beside it, the reply enum of several statuses, or the crate's `download`, `stream` or
/// `upgrade` type.
pub fn reply_type(reply: &Reply, download: &str, stream: &str, upgrade: &str) -> String {
    let headers = reply.headers().map(|h| format!("types::{}", ident(&h.name)));
    let body = match reply {
        Reply::Empty { .. } => "()".to_string(),
        Reply::Json { ty, .. } => rust_type(ty, "types::"),
        Reply::Download { .. } => download.to_string(),
        Reply::Stream { item, .. } => format!("{stream}<{}>", rust_type(item, "types::")),
        Reply::Several(replies) => format!("types::{}", ident(&replies.name)),
        Reply::Upgrade { .. } => upgrade.to_string(),
    };
    match (reply, headers) {
        (Reply::Empty { .. }, Some(headers)) => headers,
        (Reply::Json { .. }, Some(headers)) => format!("({body}, {headers})"),
        _ => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fragment that is not Rust is a generator bug: reported, never written.
    #[test]
    fn fragments_that_do_not_parse_are_reported_not_written() {
        let mut code = Code::new(None);
        code.open("fn f()");
        code.indent();
        let tokens = code.lex("let x = ;");
        code.statements(tokens);
        assert!(matches!(code.finish(), Emitted::Invalid(reason) if reason.contains("expected")));

        let mut code = Code::new(None);
        code.lex("\"never closed");
        assert!(matches!(code.finish(), Emitted::Invalid(reason) if reason.contains("never closed")));

        let mut code = Code::new(None);
        code.open("impl X");
        let tokens = code.lex("fn f(&self) -> u8 { 1 }");
        code.members(tokens);
        code.close("");
        assert!(
            matches!(code.finish(), Emitted::Text(text) if text == "impl X {\n    fn f(&self) -> u8 {\n        1\n    }\n}\n")
        );
    }
}
