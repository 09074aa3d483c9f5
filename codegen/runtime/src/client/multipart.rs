//! Request bodies in `multipart/form-data`: a part per property, files as file parts.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

use serde::Serialize;
use serde_json::Value;

use crate::File;

/// One part before it is written: its headers after the name, and its content.
struct Part<'a> {
    name: &'a str,
    file_name: Option<&'a str>,
    content_type: Option<&'a str>,
    bytes: std::borrow::Cow<'a, [u8]>,
}

/// Writes `body` as `multipart/form-data`: the properties it serializes to as text parts (a list
/// repeating its name, an object as a JSON part, `null` left out), then `files`. Returns the
/// content type, which names the boundary, and the bytes.
pub fn multipart_body<T: Serialize>(body: &T, files: &[(&str, &File)]) -> Result<(String, Vec<u8>), serde_json::Error> {
    let Value::Object(map) = serde_json::to_value(body)? else {
        return Err(<serde_json::Error as serde::ser::Error>::custom("a multipart body must be an object"));
    };
    let mut parts = Vec::new();
    for (name, value) in &map {
        let items = match value {
            Value::Array(items) => items.as_slice(),
            single => std::slice::from_ref(single),
        };
        for item in items {
            let (content_type, text) = match item {
                Value::Null => continue,
                Value::String(s) => (None, s.clone()),
                Value::Object(_) | Value::Array(_) => (Some("application/json"), item.to_string()),
                other => (None, other.to_string()),
            };
            parts.push(Part { name, file_name: None, content_type, bytes: text.into_bytes().into() });
        }
    }
    for (name, file) in files {
        let file_name = Some(file.name.as_deref().unwrap_or("file"));
        let content_type = Some(file.content_type.as_deref().unwrap_or("application/octet-stream"));
        parts.push(Part { name, file_name, content_type, bytes: file.bytes.as_ref().into() });
    }
    let boundary = boundary(&parts);
    let mut out = Vec::with_capacity(parts.iter().map(|p| p.bytes.len() + 160).sum());
    for part in &parts {
        out.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{}\"", quoted(part.name)).as_bytes(),
        );
        if let Some(file_name) = part.file_name {
            out.extend_from_slice(format!("; filename=\"{}\"", quoted(file_name)).as_bytes());
        }
        if let Some(content_type) = part.content_type {
            out.extend_from_slice(format!("\r\nContent-Type: {}", content_type.replace(['\r', '\n'], " ")).as_bytes());
        }
        out.extend_from_slice(b"\r\n\r\n");
        out.extend_from_slice(&part.bytes);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok((format!("multipart/form-data; boundary={boundary}"), out))
}

/// A random boundary that occurs in no part, so no content can end its part early.
fn boundary(parts: &[Part<'_>]) -> String {
    loop {
        let random = RandomState::new().hash_one(parts.len());
        let boundary = format!("boundary-{random:016x}");
        let needle = boundary.as_bytes();
        if !parts.iter().any(|p| p.bytes.windows(needle.len()).any(|w| w == needle)) {
            return boundary;
        }
    }
}

/// A name for a quoted header parameter: quotes and line breaks escaped as browsers do.
fn quoted(name: &str) -> String {
    name.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A")
}

#[cfg(test)]
mod tests {
    use super::multipart_body;
    use crate::File;

    #[test]
    fn properties_become_parts_and_files_file_parts() {
        // Keys in order, so the parts come in this order with or without serde_json's `preserve_order`.
        let body =
            serde_json::json!({"caption": "a \"b\"", "gone": null, "meta": {"k": 1}, "n": 3, "tags": ["x", "y"]});
        let file = File::new("p.png", b"\x89PNG".to_vec()).with_content_type("image/png");
        let (content_type, bytes) = multipart_body(&body, &[("photo", &file)]).unwrap();
        let boundary = content_type.strip_prefix("multipart/form-data; boundary=").unwrap();
        let text = String::from_utf8_lossy(&bytes).replace(boundary, "B");
        let expected = "--B\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\na \"b\"\r\n\
            --B\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"k\":1}\r\n\
            --B\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n3\r\n\
            --B\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nx\r\n\
            --B\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\ny\r\n\
            --B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n\u{FFFD}PNG\r\n\
            --B--\r\n";
        assert_eq!(text, expected);
    }
}
