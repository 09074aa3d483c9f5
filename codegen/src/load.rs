//! Parsing spec text (YAML or JSON) into `openapiv3::OpenAPI`, converting Swagger 2.0 on the way.

use std::fmt;

use openapiv3::OpenAPI;

use crate::Diagnostic;
use crate::swagger2;

/// A parsed spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The document, in the OpenAPI 3.0 model.
    pub doc: OpenAPI,
    /// For a Swagger 2.0 document: what converting it changed, located in the original.
    pub notes: Vec<Diagnostic>,
    /// Whether the document was Swagger 2.0, so its diagnostics' pointers refer to the converted
    /// form.
    pub converted: bool,
}

/// A spec that could not be parsed, with the line and column where parsing stopped when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// 1-based line of the offending text, when the parser reports one.
    pub line: Option<usize>,
    /// 1-based column of the offending text, when the parser reports one.
    pub column: Option<usize>,
    /// What the parser said.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "line {line}, column {column}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for LoadError {}

/// Parses an OpenAPI 3.0 document, or a Swagger 2.0 one converted to the 3.0 model. Text whose
/// first non-blank character is `{` is read as JSON, anything else as YAML (of which JSON is a
/// subset, but the JSON parser gives better messages).
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    // Only a document with a `swagger` key can be 2.0; the others are parsed once, typed.
    if has_swagger_key(text) {
        let value = parse::<serde_json::Value>(text)?;
        if swagger2::is_swagger2(&value) {
            let (converted, notes) = swagger2::convert(&value);
            let doc = serde_json::from_value(converted).map_err(|e| LoadError {
                line: None,
                column: None,
                message: format!("the Swagger 2.0 document does not convert to OpenAPI 3.0: {e}"),
            })?;
            return Ok(Loaded { doc, notes, converted: true });
        }
    }
    Ok(Loaded { doc: parse(text)?, notes: Vec::new(), converted: false })
}

/// Whether `swagger` may be a key (`swagger:`, `"swagger":`, however indented), not merely text
/// such as a `swagger.io` link. A false positive only costs a second parse; a false negative
/// would refuse a 2.0 document, so anything that looks like a key counts.
fn has_swagger_key(text: &str) -> bool {
    text.match_indices("swagger").any(|(at, _)| {
        let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
        let before = text[..at].chars().next_back();
        let after = text[at + "swagger".len()..].trim_start_matches(['"', '\'']).trim_start_matches([' ', '\t']);
        !before.is_some_and(word) && after.starts_with(':')
    })
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, LoadError> {
    if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| LoadError {
            line: Some(e.line()),
            column: Some(e.column()),
            message: e.to_string(),
        })
    } else {
        serde_yaml_ng::from_str(text).map_err(|e| {
            let location = e.location();
            LoadError {
                line: location.as_ref().map(|l| l.line()),
                column: location.as_ref().map(|l| l.column()),
                message: e.to_string(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_errors_name_the_line() {
        let text = "openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a: [unclosed\n";
        let err = load(text).unwrap_err();
        assert_eq!(err.line, Some(7), "{err}");
        assert!(has_swagger_key("swagger: '2.0'\n") && has_swagger_key("{ \"swagger\" : \"2.0\" }"));
        assert!(has_swagger_key("---\n  swagger: \"2.0\"\n  info: {}\n"), "an indented root mapping");
        assert!(!has_swagger_key("openapi: 3.0.3\ninfo: {termsOfService: http://swagger.io/terms/}\n"));
        let err = load(&text.replace("openapi: 3.0.3", "swagger: '2.0'")).unwrap_err();
        assert_eq!(err.line, Some(7), "a Swagger document's syntax errors are located too: {err}");
    }

    #[test]
    fn json_errors_name_line_and_column() {
        let err = load("{\n  \"openapi\": \"3.0.3\",\n  \"info\": 5\n}").unwrap_err();
        assert_eq!((err.line, err.column.is_some()), (Some(3), true), "{err}");
    }

    #[test]
    fn minimal_documents_load_from_yaml_and_json() {
        let yaml = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n";
        let json = r#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}"#;
        assert_eq!(load(yaml).unwrap().doc, load(json).unwrap().doc);
    }
}
