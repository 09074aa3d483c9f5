//! Values written into the non-Rust formats the generator writes (TOML manifests, Markdown in
//! READMEs and doc comments), each encoded for the place it lands in. A document's text is never
//! spliced into any of them: a title cannot add a manifest key, and a description cannot become a
//! doctest.

pub mod markdown;
pub mod toml;
