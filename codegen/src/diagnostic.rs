//! What the generator reports instead of panicking: a location in the spec and a sentence.

use std::fmt;

/// One thing found in a spec, located by a JSON pointer such as
/// `#/paths/~1api~1holdings/get/parameters/3`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// JSON pointer (RFC 6901, as a URI fragment) of the offending node.
    pub pointer: String,
    /// 1-based line of the node in the spec text, when it could be found.
    pub line: Option<usize>,
    /// What is wrong, loosened, left out or recognised, as a plain sentence.
    pub message: String,
    /// How much it matters.
    pub severity: Severity,
}

/// How much a [`Diagnostic`] matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The document cannot be generated as it is.
    Error,
    /// Something was loosened or left out: the crates say less than the document. A strict run
    /// refuses it.
    Warning,
    /// Something was recognised or assumed with nothing lost, such as paging by name; the message
    /// says what declaration would say it instead. A strict run lists it and goes on.
    Note,
}

impl Severity {
    /// The word a tool prints before a diagnostic of this severity.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{} (line {line}): {}", self.pointer, self.message),
            None => write!(f, "{}: {}", self.pointer, self.message),
        }
    }
}

/// Every problem found in one run, so a user can fix them all at once.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(f, "{n} problem{} in the spec:", if n == 1 { "" } else { "s" })?;
        for d in &self.0 {
            writeln!(f, "  {d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Builds JSON pointers one segment at a time, escaping `~` and `/` as RFC 6901 requires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointer(String);

impl Pointer {
    pub fn root() -> Self {
        Pointer("#".to_string())
    }

    pub fn push(&self, segment: impl fmt::Display) -> Self {
        let segment = segment.to_string().replace('~', "~0").replace('/', "~1");
        Pointer(format!("{}/{segment}", self.0))
    }

    /// The pointer without its leading `#`, as `serde_json::Value::pointer` takes it.
    pub fn json_pointer(&self) -> &str {
        &self.0[1..]
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_slashes_and_tildes() {
        let p = Pointer::root().push("paths").push("/api/holdings").push("get").push("a~b");
        assert_eq!(p.to_string(), "#/paths/~1api~1holdings/get/a~0b");
    }
}
