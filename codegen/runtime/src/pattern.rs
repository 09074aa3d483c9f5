//! A schema's `pattern`, compiled for matching.
//!
//! `regex-lite` reads nearly every pattern public documents write and compiles small. Look-around
//! (`^(?!tmp_)`, a password's `(?=.*[0-9])`) and back-references it does not read; with the
//! feature `fancy-pattern`, which the generator turns on only for documents that have such
//! patterns, `fancy-regex` matches those.

use std::fmt;
use std::sync::OnceLock;

/// A compiled pattern.
#[derive(Clone)]
pub struct Pattern(Engine);

#[derive(Clone)]
enum Engine {
    Lite(regex_lite::Regex),
    #[cfg(feature = "fancy-pattern")]
    Fancy(fancy_regex::Regex),
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (engine, text) = match &self.0 {
            Engine::Lite(re) => ("regex-lite", re.as_str()),
            #[cfg(feature = "fancy-pattern")]
            Engine::Fancy(re) => ("fancy-regex", re.as_str()),
        };
        f.debug_tuple("Pattern").field(&engine).field(&text).finish()
    }
}

/// Which engine reads a pattern, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// `regex-lite` reads it.
    Lite,
    /// Only `fancy-regex` reads it (look-around, back-references).
    Fancy,
}

impl Pattern {
    /// The pattern `spelled` (already written for Rust's regex syntax), compiled by the first
    /// engine that reads it; where none does, the reason `regex-lite` gives.
    pub fn new(spelled: &str) -> Result<Pattern, String> {
        match regex_lite::Regex::new(spelled) {
            Ok(re) => Ok(Pattern(Engine::Lite(re))),
            #[cfg(feature = "fancy-pattern")]
            Err(lite) => fancy_regex::Regex::new(spelled)
                .map(|re| Pattern(Engine::Fancy(re)))
                .map_err(|_| last_line(&lite.to_string())),
            #[cfg(not(feature = "fancy-pattern"))]
            Err(e) => Err(last_line(&e.to_string())),
        }
    }

    /// Which engine reads `spelled`, or why none does.
    pub fn support(spelled: &str) -> Result<Support, String> {
        Pattern::new(spelled).map(|pattern| match pattern.0 {
            Engine::Lite(_) => Support::Lite,
            #[cfg(feature = "fancy-pattern")]
            Engine::Fancy(_) => Support::Fancy,
        })
    }

    /// Whether `text` matches somewhere. A look-around match that gives up (past
    /// `fancy-regex`'s backtracking limit, which bounds the work a hostile value can cause)
    /// counts as no match, so such a value is refused rather than let through.
    pub fn is_match(&self, text: &str) -> bool {
        match &self.0 {
            Engine::Lite(re) => re.is_match(text),
            #[cfg(feature = "fancy-pattern")]
            Engine::Fancy(re) => re.is_match(text).unwrap_or(false),
        }
    }
}

/// The part of an engine's error that says what is wrong (its first lines repeat the pattern).
fn last_line(message: &str) -> String {
    message.lines().last().unwrap_or_default().to_string()
}

/// A schema's pattern as generated code holds it, in a `static`: compiled on first use, and
/// shown in messages as the document writes it.
pub struct LazyPattern {
    /// As the regex engines read it.
    spelled: &'static str,
    /// As the document writes it.
    written: &'static str,
    compiled: OnceLock<Option<Pattern>>,
}

impl LazyPattern {
    /// A pattern the engines read as the document writes it.
    pub const fn new(written: &'static str) -> LazyPattern {
        LazyPattern::spelled(written, written)
    }

    /// A pattern the document writes as `written`, spelled for the engines as `spelled`.
    pub const fn spelled(spelled: &'static str, written: &'static str) -> LazyPattern {
        LazyPattern { spelled, written, compiled: OnceLock::new() }
    }

    /// Whether `text` matches. A pattern no engine reads matches everything: the generator
    /// warned of it when it wrote the check.
    pub fn matches(&self, text: &str) -> bool {
        self.compiled.get_or_init(|| Pattern::new(self.spelled).ok()).as_ref().is_none_or(|re| re.is_match(text))
    }

    /// The pattern as the document writes it.
    pub fn written(&self) -> &'static str {
        self.written
    }
}

impl fmt::Debug for LazyPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LazyPattern").field(&self.written).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_patterns_use_regex_lite() {
        let pattern = Pattern::new("^[a-z]+$").unwrap();
        assert!(pattern.is_match("abc") && !pattern.is_match("ab1"));
        assert_eq!(Pattern::support("^[a-z]+$"), Ok(Support::Lite));
        assert!(Pattern::new("([a-z]").is_err());
    }

    #[cfg(feature = "fancy-pattern")]
    #[test]
    fn look_around_and_back_references_use_fancy_regex() {
        let prefix = Pattern::new("^(?!src_)[a-zA-Z0-9_-]+$").unwrap();
        assert!(prefix.is_match("abc_1") && !prefix.is_match("src_1"));
        let password = Pattern::new("^(?=.*[0-9])(?=.*[A-Z])(?=.*[^a-zA-Z0-9]).{8,}$").unwrap();
        assert!(password.is_match("Abcdefg1!") && !password.is_match("abcdefg1!"));
        assert_eq!(Pattern::support(r"^(a+)\1$"), Ok(Support::Fancy));
        assert!(Pattern::new(r"^(a+)\1$").unwrap().is_match("aaaa"));
        assert!(Pattern::support("(?!").is_err());
    }

    #[cfg(not(feature = "fancy-pattern"))]
    #[test]
    fn look_around_is_refused_without_fancy_regex() {
        assert!(Pattern::support("^(?!src_)[a-z]+$").unwrap_err().contains("look-around"));
    }
}
