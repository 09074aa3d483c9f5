//! TOML written from typed values: every key and string is encoded, so a value holding quotes,
//! newlines or `#` stays one value.

use std::fmt::Write;

/// A TOML value of the kinds manifests use.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
    Bool(bool),
    /// A list of strings: `["a", "b"]`.
    List(Vec<String>),
    /// An inline table: `{ path = "..", version = "=1" }`.
    Table(Vec<(String, Value)>),
}

impl Value {
    pub fn str(text: impl Into<String>) -> Value {
        Value::Str(text.into())
    }

    pub fn list<S: Into<String>>(items: impl IntoIterator<Item = S>) -> Value {
        Value::List(items.into_iter().map(Into::into).collect())
    }

    fn write(&self, out: &mut String) {
        match self {
            Value::Str(text) => out.push_str(&string(text)),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&string(item));
                }
                out.push(']');
            }
            Value::Table(entries) => {
                out.push_str("{ ");
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&key(k));
                    out.push_str(" = ");
                    v.write(out);
                }
                out.push_str(" }");
            }
        }
    }
}

/// A TOML document: a comment at the top, then tables of `key = value` lines in order.
#[derive(Debug, Default)]
pub struct Document {
    comment: Vec<String>,
    tables: Vec<(String, Vec<(String, Value)>)>,
}

impl Document {
    /// Adds a line to the comment at the top; a line break in it starts another comment line.
    pub fn comment(&mut self, text: &str) -> &mut Self {
        self.comment.extend(text.lines().map(str::to_string));
        self
    }

    /// Adds the table `[name]` with `entries` (which may be empty: `[workspace]`).
    pub fn table(&mut self, name: &str, entries: Vec<(String, Value)>) -> &mut Self {
        self.tables.push((name.to_string(), entries));
        self
    }

    /// The document's text, tables separated by a blank line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for line in &self.comment {
            let _ = writeln!(out, "# {}", line.replace(['\r', '\n'], " "));
        }
        for (i, (name, entries)) in self.tables.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let _ = writeln!(out, "[{}]", name.split('.').map(key).collect::<Vec<_>>().join("."));
            for (k, v) in entries {
                out.push_str(&key(k));
                out.push_str(" = ");
                v.write(&mut out);
                out.push('\n');
            }
        }
        out
    }
}

/// A key: bare when it may be (letters, digits, `-` and `_`), else a quoted string.
pub fn key(text: &str) -> String {
    let bare = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if bare { text.to_string() } else { string(text) }
}

/// A basic string: quotes and backslashes escaped, every control character (line breaks among
/// them) written as an escape.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_keys_are_encoded() {
        assert_eq!(string("a\"b\\c\nd\u{7f}\u{0}"), r#""a\"b\\c\nd\u007F\u0000""#);
        assert_eq!(key("serde_json"), "serde_json");
        assert_eq!(key("a.b"), "\"a.b\"");
        assert_eq!(key(""), "\"\"");
        let mut doc = Document::default();
        doc.comment("top").table("package", vec![("name".into(), Value::str("x\"\nbuild = \"y"))]);
        doc.table("workspace", Vec::new());
        doc.table(
            "dependencies",
            vec![(
                "a".into(),
                Value::Table(vec![("version".into(), Value::str("1")), ("features".into(), Value::list(["f"]))]),
            )],
        );
        assert_eq!(
            doc.render(),
            "# top\n[package]\nname = \"x\\\"\\nbuild = \\\"y\"\n\n[workspace]\n\n[dependencies]\na = { version = \"1\", features = [\"f\"] }\n"
        );
    }
}
