//! Tokens → file contents: formatted Rust with a header line. The output depends only on the
//! input, byte for byte.

pub(crate) mod encode;

use proc_macro2::TokenStream;

/// One file of a generated crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Path relative to the output root, with `/` separators, e.g. `generated-client/src/lib.rs`.
    pub path: String,
    /// Full contents.
    pub contents: String,
}

/// What an emitter gives for one chunk of a module, as tokens, which prettyplease prints; the
/// blank lines come after.
pub enum Emitted {
    /// Whole items.
    Tokens(TokenStream),
    /// The head of a block whose members come as chunks of their own: the item (its docs,
    /// attributes and signature) with an empty body, `pub trait Api: Send {}`.
    Open(TokenStream),
    /// Members of the block opened last: methods of a trait or of an impl.
    Members(Block, TokenStream),
    /// The end of the block opened last.
    Close,
}

/// What kind of block members are printed in: a trait's members have no visibility, an impl's
/// may.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    Trait,
    Impl,
}

/// One part of a module given in parts (see [`RustJob::parts`]): items, or a block whose members
/// are emitted and printed a few at a time, so that a trait or impl of thousands of methods is
/// never one syntax tree.
pub enum Part<'a> {
    Items(Box<dyn Fn() -> TokenStream + Send + Sync + 'a>),
    Block {
        /// The block's item with an empty body.
        open: Box<dyn Fn() -> TokenStream + Send + Sync + 'a>,
        kind: Block,
        /// How many chunks of members there are.
        members: usize,
        member: Box<dyn Fn(usize) -> TokenStream + Send + Sync + 'a>,
    },
}

impl<'a> Part<'a> {
    pub fn items(items: impl Fn() -> TokenStream + Send + Sync + 'a) -> Self {
        Part::Items(Box::new(items))
    }

    pub fn block(
        open: impl Fn() -> TokenStream + Send + Sync + 'a,
        kind: Block,
        members: usize,
        member: impl Fn(usize) -> TokenStream + Send + Sync + 'a,
    ) -> Self {
        Part::Block { open: Box::new(open), kind, members, member: Box::new(member) }
    }

    /// How many chunks the part is: one for items; the head, the members and the end of a block.
    fn chunks(&self) -> usize {
        match self {
            Part::Items(_) => 1,
            Part::Block { members, .. } => members + 2,
        }
    }

    /// Chunk `c` of the part.
    fn chunk(&self, c: usize) -> Emitted {
        match self {
            Part::Items(items) => Emitted::Tokens(items()),
            Part::Block { open, .. } if c == 0 => Emitted::Open(open()),
            Part::Block { members, .. } if c == members + 1 => Emitted::Close,
            Part::Block { kind, member, .. } => Emitted::Members(*kind, member(c - 1)),
        }
    }
}

impl From<TokenStream> for Emitted {
    fn from(tokens: TokenStream) -> Self {
        Emitted::Tokens(tokens)
    }
}

/// A Rust module still to be emitted, written to one or more paths (the shared types module goes
/// into both crates). It comes in chunks: chunk 0 is the head (docs, imports), the others are its
/// items, emitted and formatted one at a time so a large spec never holds a whole module's syntax
/// tree, and so the work spreads evenly over the cores. `emit` returns `None` for a module that is
/// not needed.
pub struct RustJob<'a> {
    paths: Vec<String>,
    chunks: usize,
    emit: Box<dyn Fn(usize) -> Option<Emitted> + Send + Sync + 'a>,
}

impl<'a> RustJob<'a> {
    /// A module emitted in one piece.
    pub fn new<E: Into<Emitted>>(path: String, emit: impl Fn() -> Option<E> + Send + Sync + 'a) -> Self {
        RustJob { paths: vec![path], chunks: 1, emit: Box::new(move |_| emit().map(Into::into)) }
    }

    /// A module of a head and `items` items, written to every path in `paths`.
    pub fn chunked<H: Into<Emitted>, I: Into<Emitted>>(
        paths: Vec<String>,
        items: usize,
        head: impl Fn() -> H + Send + Sync + 'a,
        item: impl Fn(usize) -> I + Send + Sync + 'a,
    ) -> Self {
        let emit = move |chunk: usize| Some(if chunk == 0 { head().into() } else { item(chunk - 1).into() });
        RustJob { paths, chunks: items + 1, emit: Box::new(emit) }
    }
}

impl<'a> RustJob<'a> {
    /// A module given as parts: items, and blocks whose members are chunks of their own.
    pub fn parts(path: String, parts: Vec<Part<'a>>) -> Self {
        let chunks = parts.iter().map(Part::chunks).sum();
        let emit = move |mut chunk: usize| {
            for part in &parts {
                if chunk < part.chunks() {
                    return Some(part.chunk(chunk));
                }
                chunk -= part.chunks();
            }
            None
        };
        RustJob { paths: vec![path], chunks, emit: Box::new(emit) }
    }
}

/// A chunk's text, and whether it is glued to the one before (the end of a block), with no blank
/// line between.
type Formatted = (bool, String);

/// Emits and formats every chunk of every job on all cores; tokens cannot cross threads, so each
/// chunk is emitted where it is formatted. The result does not depend on the order chunks finish.
pub fn rust_jobs(jobs: Vec<RustJob<'_>>) -> Result<Vec<GeneratedFile>, String> {
    // Whole modules first: they are the longest tasks, and starting them last would leave one core
    // idle while the other finishes them.
    let mut tasks: Vec<(usize, usize)> =
        jobs.iter().enumerate().flat_map(|(j, job)| (0..job.chunks).map(move |c| (j, c))).collect();
    tasks.sort_by_key(|&(j, _)| jobs[j].chunks > 1);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(tasks.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, usize, Result<Option<Formatted>, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    while let Some(&(j, c)) = tasks.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                        let text = (jobs[j].emit)(c)
                            .map(|emitted| {
                                let glued = matches!(emitted, Emitted::Close);
                                format(&jobs[j].paths[0], emitted).map(|text| (glued, text))
                            })
                            .transpose();
                        out.push((j, c, text));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join().unwrap_or_else(|_| vec![(0, 0, Err("generator bug: an emitter panicked".to_string()))])
            })
            .collect()
    });
    done.sort_by_key(|(j, c, _)| (*j, *c));
    let mut files = Vec::new();
    let mut chunks = done.into_iter().peekable();
    for (j, job) in jobs.iter().enumerate() {
        let mut parts = Vec::new();
        let mut needed = true;
        while let Some((_, c, text)) = chunks.next_if(|(jj, _, _)| *jj == j) {
            match text? {
                Some(text) => parts.push((c, text)),
                None => needed = false,
            }
        }
        // The file is allocated once at its final size, and each chunk's text is freed as soon as
        // it is copied, so a large spec's output is not held twice over.
        let mut contents =
            String::with_capacity(HEADER.len() + parts.iter().map(|(_, (_, text))| text.len() + 1).sum::<usize>());
        contents.push_str(HEADER);
        for (c, (glued, text)) in parts {
            // Chunks are separated by a blank line, except inside a block's braces.
            if c > 0 && !glued && !contents.ends_with("{\n") {
                contents.push('\n');
            }
            contents.push_str(&text);
        }
        if let (true, Some((last, others))) = (needed, job.paths.split_last()) {
            files.extend(others.iter().map(|path| GeneratedFile { path: path.clone(), contents: contents.clone() }));
            files.push(GeneratedFile { path: last.clone(), contents });
        }
    }
    Ok(files)
}

/// Formats whole items, with blank lines where hand-formatted code has them.
fn format(path: &str, emitted: Emitted) -> Result<String, String> {
    let text = match emitted {
        Emitted::Tokens(tokens) => printed(path, tokens)?,
        Emitted::Open(tokens) => {
            let printed = printed(path, tokens)?;
            match printed.strip_suffix("{}\n") {
                // `head` ends with the space before the braces.
                Some(head) => return Ok(format!("{}{{\n", spaced(head).trim_end_matches('\n'))),
                None => return Err(format!("generator bug: {path}: a block opens with `{printed}`")),
            }
        }
        Emitted::Members(kind, tokens) => {
            // Printed inside a block of their kind, at the depth they are written at.
            let wrapped = match kind {
                Block::Trait => quote::quote! { trait Members { #tokens } },
                Block::Impl => quote::quote! { impl Members { #tokens } },
            };
            let printed = printed(path, wrapped)?;
            let inner = printed.split_once('\n').and_then(|(_, rest)| rest.strip_suffix("}\n")).unwrap_or_default();
            inner.to_string()
        }
        Emitted::Close => return Ok("}\n".to_string()),
    };
    Ok(spaced(&text))
}

/// `tokens`, a list of items, printed by prettyplease.
fn printed(path: &str, tokens: TokenStream) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| format!("generator bug: {path} is not valid Rust: {e}"))?;
    Ok(prettyplease::unparse(&file))
}

/// A file that is not Rust, with no header (its format may not allow comments).
pub fn plain(path: String, contents: &str) -> GeneratedFile {
    GeneratedFile { path, contents: contents.to_string() }
}

/// The first lines of every generated Rust file. The spec, the command that regenerates the crate
/// and the generator's version are named in its README (the version in its manifest too), so
/// moving the spec or upgrading the generator changes two files per crate, not every file.
const HEADER: &str =
    "// Generated by apigen from the OpenAPI document named in this crate's README.md. Do not edit by hand.\n\n";

/// prettyplease prints items back to back; a blank line after each item or impl member that ends in
/// a block, after the imports and after the module docs makes the output read like hand-formatted
/// code.
fn spaced(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 8);
    let mut prev: Option<&str> = None;
    for line in code.lines() {
        if let Some(p) = prev {
            let (pt, lt) = (p.trim_start(), line.trim_start());
            let same_indent = indent(p) == indent(line);
            let continues = ["}", ")", "]", "else", ".", "?"].iter().any(|s| lt.starts_with(s));
            let after_block =
                (pt == "}" || pt == "};" || pt.ends_with(" {}")) && same_indent && indent(line) <= 4 && !continues;
            let after_imports = pt.starts_with("use ") && pt.ends_with(';') && same_indent && !lt.starts_with("use ")
                || pt.starts_with("use ") && lt.starts_with("use ") && import_group(pt) != import_group(lt);
            let after_docs = pt.starts_with("//!") && !lt.starts_with("//!");
            let between_declarations =
                pt.ends_with(';') && !pt.starts_with("//") && lt.starts_with("///") && same_indent && indent(line) <= 4;
            let after_attrs = pt.starts_with("#![") && !lt.starts_with("#![");
            let after_mods = (pt.starts_with("mod ") || pt.starts_with("pub mod ")) && lt.starts_with("pub use ");
            let blank_before_last_doc = pt == "//!" && !lt.starts_with("//!");
            if blank_before_last_doc {
                out.truncate(out.len() - "//!\n".len());
            }
            if (after_block || after_imports || after_docs || after_attrs || after_mods || between_declarations)
                && !lt.is_empty()
            {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        prev = Some(line);
    }
    out
}

/// 0 for `std`, 1 for other crates, 2 for this crate: the groups `Imports` sorts by.
fn import_group(line: &str) -> u8 {
    let path = line.trim_start_matches("use ");
    if path.starts_with("std::") {
        0
    } else if path.starts_with("crate::") || path.starts_with("super::") {
        2
    } else {
        1
    }
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

#[cfg(test)]
mod tests {
    use super::spaced;

    #[test]
    fn declarations_are_spaced_but_doc_lines_ending_in_semicolons_are_not() {
        let code = "pub const A: u8 = 1;\n/// Ends one sentence;\n/// starts the next.\npub const B: u8 = 2;\n";
        let expected = "pub const A: u8 = 1;\n\n/// Ends one sentence;\n/// starts the next.\npub const B: u8 = 2;\n";
        assert_eq!(spaced(code), expected);
    }
}
