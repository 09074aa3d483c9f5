//! Request bodies in `multipart/form-data`: text parts are read into the body's type as form
//! pairs are (a JSON part for a nested object), file parts are handed over as [`File`]s.

use axum::body::{Body, Bytes};
use axum::http::HeaderMap;
use axum::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;

use crate::File;
use crate::server::ApiError;
use crate::server::body::{BodyLimit, read_body};
use crate::server::extract::Problems;
use crate::server::pairs::read_pairs;

/// The file parts of a multipart body, by part name, for the generated code to move into the
/// body's file fields.
#[derive(Debug, Default)]
pub struct Files(Vec<(String, File)>);

impl Files {
    /// The one file part called `name`; more than one, or none when `required`, is a problem.
    pub fn one(&mut self, name: &str, required: bool, problems: &mut Problems) -> Option<File> {
        let mut found = self.all(name).into_iter();
        let first = found.next();
        if found.next().is_some() {
            problems.add(format!("body.{name}"), "expected one file part, got several");
        } else if first.is_none() && required {
            problems.add(format!("body.{name}"), "the file part is required");
        }
        first
    }

    /// Every file part called `name`, in the order they came.
    pub fn all(&mut self, name: &str) -> Vec<File> {
        let (matching, rest) = std::mem::take(&mut self.0).into_iter().partition(|(n, _)| n == name);
        self.0 = rest;
        matching.into_iter().map(|(_, file)| file).collect()
    }
}

/// Reads a multipart body, with the same 413/415 rules as a JSON body. Parts named in
/// `file_fields` are files; every other part must be UTF-8 text and is read into `T` like a form
/// pair, and a field of `empties` without parts is an empty list or map. A malformed body or a value that
/// does not fit is a recorded problem. An empty body is `None`.
#[allow(clippy::too_many_arguments, reason = "one call per generated operation, each argument from the spec")]
pub async fn multipart_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    limit: BodyLimit<'_>,
    accepted: &[&str],
    required: bool,
    file_fields: &[&str],
    empties: &[&str],
    nulls: &[&str],
    problems: &mut Problems,
) -> Result<Option<(T, Files)>, ApiError> {
    let Some(bytes) = read_body(headers, body, limit, accepted, required, "a multipart body", problems).await? else {
        return Ok(None);
    };
    let content_type = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let parts = match boundary(content_type).ok_or("the content type names no boundary").and_then(|b| parse(&bytes, &b))
    {
        Ok(parts) => parts,
        Err(reason) => {
            problems.add("body", format!("the multipart body is malformed: {reason}"));
            return Ok(None);
        }
    };
    let mut pairs = Vec::new();
    let mut files = Files::default();
    for part in parts {
        if file_fields.contains(&part.name.as_str()) {
            // The name is the sender's word: only its safe form reaches the implementation.
            let name = part.file_name.as_deref().and_then(crate::safe_file_name);
            let file = File { name, content_type: part.content_type, bytes: part.bytes };
            files.0.push((part.name, file));
        } else {
            match String::from_utf8(part.bytes.to_vec()) {
                Ok(text) => pairs.push((part.name, text)),
                Err(_) => problems.add(format!("body.{}", part.name), "the part is not UTF-8 text"),
            }
        }
    }
    Ok(read_pairs(pairs, empties, nulls, "body", problems).map(|body| (body, files)))
}

/// One part: its name, file name and media type from its headers, and its content.
#[derive(Debug)]
struct Part {
    name: String,
    file_name: Option<String>,
    content_type: Option<String>,
    bytes: Bytes,
}

/// The `boundary` parameter of a `multipart/form-data` content type.
fn boundary(content_type: &str) -> Option<String> {
    parameters(content_type).into_iter().find(|(key, _)| key == "boundary").map(|(_, b)| b).filter(|b| !b.is_empty())
}

/// The parameters of a header value after its first `;` (`form-data; name="a"; filename="a;b"`),
/// keys in lower case and values unquoted: a quoted value (RFC 9110's `quoted-string`) runs to
/// its closing quote, with `\` taking the next character as it is, so `;` and `"` may be inside.
fn parameters(value: &str) -> Vec<(String, String)> {
    let mut params = Vec::new();
    let Some((_, mut rest)) = value.split_once(';') else { return params };
    loop {
        let (key, after) = match rest.split_once('=') {
            Some((key, after)) if !key.contains(';') => (key, after),
            // A parameter without a value: none a part is read by.
            _ => match rest.split_once(';') {
                Some((_, next)) => {
                    rest = next;
                    continue;
                }
                None => return params,
            },
        };
        let key = key.trim().to_ascii_lowercase();
        let after = after.trim_start();
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => {
                let mut value = String::new();
                let mut chars = quoted.char_indices();
                let mut end = quoted.len();
                while let Some((i, c)) = chars.next() {
                    match c {
                        '\\' => value.extend(chars.next().map(|(_, c)| c)),
                        '"' => {
                            end = i + 1;
                            break;
                        }
                        c => value.push(c),
                    }
                }
                // Whatever follows the closing quote up to the next `;` is not part of the value.
                let tail = &quoted[end..];
                (value, tail.split_once(';').map(|(_, next)| next))
            }
            None => match after.split_once(';') {
                Some((token, next)) => (token.trim().to_string(), Some(next)),
                None => (after.trim().to_string(), None),
            },
        };
        if !key.is_empty() {
            params.push((key, value));
        }
        match next {
            Some(next) => rest = next,
            None => return params,
        }
    }
}

/// Splits a body into its parts (RFC 7578): each starts after a `--boundary` line, has headers up
/// to an empty line, and ends before the next `\r\n--boundary`; `--boundary--` closes the body.
fn parse(body: &Bytes, boundary: &str) -> Result<Vec<Part>, &'static str> {
    let delimiter = format!("--{boundary}");
    let start = find(body, delimiter.as_bytes()).ok_or("no part starts with the boundary")?;
    let mut rest = body.slice(start + delimiter.len()..);
    let closing = format!("\r\n--{boundary}");
    let mut parts = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        // Whitespace may pad the delimiter line before its line break.
        let line_end = find(&rest, b"\r\n").ok_or("a boundary line does not end")?;
        if rest[..line_end].iter().any(|b| !matches!(b, b' ' | b'\t')) {
            return Err("a boundary line has text after the boundary");
        }
        rest = rest.slice(line_end + 2..);
        let end = find(&rest, closing.as_bytes()).ok_or("the last part is not closed by the boundary")?;
        parts.push(part(rest.slice(..end))?);
        rest = rest.slice(end + closing.len()..);
    }
}

/// One part's headers and content.
fn part(raw: Bytes) -> Result<Part, &'static str> {
    let (head, bytes) = match find(&raw, b"\r\n\r\n") {
        Some(i) => (&raw[..i], raw.slice(i + 4..)),
        // No headers at all: the part starts with the empty line.
        None if raw.starts_with(b"\r\n") => (&raw[..0], raw.slice(2..)),
        None => return Err("a part's headers do not end with an empty line"),
    };
    let head = std::str::from_utf8(head).map_err(|_| "a part's headers are not UTF-8")?;
    let (mut name, mut file_name, mut content_type) = (None, None, None);
    for line in head.split("\r\n") {
        let Some((key, value)) = line.split_once(':') else { continue };
        if key.trim().eq_ignore_ascii_case("content-disposition") {
            for (key, v) in parameters(value) {
                match key.as_str() {
                    "name" => name = Some(v),
                    "filename" => file_name = Some(v),
                    _ => {}
                }
            }
        } else if key.trim().eq_ignore_ascii_case("content-type") {
            content_type = Some(value.trim().to_string());
        }
    }
    let name = name.ok_or("a part has no name in its Content-Disposition")?;
    Ok(Part { name, file_name, content_type, bytes })
}

/// Where `needle` first occurs in `haystack`, in time linear in both, so a hostile body of
/// near-boundaries costs no more than any other of its size.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

#[cfg(test)]
mod tests {
    use axum::body::Bytes;

    use super::{boundary, parameters, parse};

    #[test]
    fn parts_are_split_at_the_boundary_with_their_names_and_files() {
        let body = Bytes::from_static(
            b"preamble\r\n--XyZ \r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhi\r\nthere\r\n\
              --XyZ\r\ncontent-disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG--XyZ\r\n\
              --XyZ--\r\nepilogue",
        );
        let parts = parse(&body, &boundary("multipart/form-data; boundary=\"XyZ\"").unwrap()).unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(
            (parts[0].name.as_str(), &parts[0].bytes[..], &parts[0].file_name),
            ("caption", &b"hi\r\nthere"[..], &None)
        );
        assert_eq!((parts[1].name.as_str(), &parts[1].bytes[..]), ("photo", &b"\x89PNG--XyZ"[..]));
        assert_eq!(
            (parts[1].file_name.as_deref(), parts[1].content_type.as_deref()),
            (Some("a.png"), Some("image/png"))
        );
    }

    #[test]
    fn malformed_bodies_say_what_is_wrong() {
        let cases: [(&[u8], &str); 4] = [
            (b"no boundary here", "no part starts with the boundary"),
            (
                b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx",
                "the last part is not closed by the boundary",
            ),
            (
                b"--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--",
                "a part has no name in its Content-Disposition",
            ),
            (b"--bb\r\n\r\nx\r\n--b--", "a boundary line has text after the boundary"),
        ];
        for (body, reason) in cases {
            assert_eq!(parse(&Bytes::from_static(body), "b").unwrap_err(), reason);
        }
        assert_eq!(boundary("multipart/form-data"), None);
    }

    #[test]
    fn quoted_parameters_keep_their_semicolons_and_escaped_quotes() {
        let body = Bytes::from_static(
            b"--b\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a;b \\\"c\\\".txt\"\r\n\r\nx\r\n--b--",
        );
        let parts = parse(&body, "b").unwrap();
        assert_eq!((parts[0].name.as_str(), parts[0].file_name.as_deref()), ("doc", Some("a;b \"c\".txt")));
        let params = parameters("form-data; flag; NAME = plain ; filename=\"x\" trailing; size=3");
        let expected = [("name", "plain"), ("filename", "x"), ("size", "3")];
        assert_eq!(params, expected.map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(boundary("multipart/form-data; boundary=\"a;b\"").as_deref(), Some("a;b"));
        // An unclosed quote runs to the end of the value.
        assert_eq!(parameters("form-data; name=\"open"), [("name".to_string(), "open".to_string())]);
    }

    /// Mutated bodies (bytes changed, boundary pieces and line breaks spliced in, cut short) never
    /// panic the parser, and every part it accepts lies inside the body: 20,000 seeded cases.
    #[test]
    fn mutated_bodies_are_parsed_or_refused_without_panics() {
        let valid: &[u8] = b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\r\n\
              --XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\nContent-Type: a/b\r\n\r\n\x00\xff--X\r\n\
              --XyZ--\r\n";
        let pieces: [&[u8]; 6] = [b"--XyZ", b"\r\n", b"\r\n\r\n", b"--", b"name=\"", b"\xe2\x82"];
        // xorshift64: the same cases on every run, so a failure can be replayed.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound.max(1) as u64) as usize
        };
        let mut accepted = 0;
        for _ in 0..20_000 {
            let mut body = valid.to_vec();
            for _ in 0..1 + next(4) {
                let at = next(body.len() + 1);
                match next(4) {
                    0 if !body.is_empty() => {
                        let (i, byte) = (at.min(body.len() - 1), next(256) as u8);
                        body[i] = byte;
                    }
                    1 => {
                        let piece = pieces[next(pieces.len())];
                        body.splice(at..at, piece.iter().copied()).for_each(drop);
                    }
                    2 => body.truncate(at),
                    _ => {
                        let end = (at + next(8)).min(body.len());
                        body.drain(at..end).for_each(drop);
                    }
                }
            }
            let body = Bytes::from(body);
            let range = body.as_ptr() as usize..body.as_ptr() as usize + body.len();
            if let Ok(parts) = parse(&body, "XyZ") {
                accepted += 1;
                for part in parts {
                    let start = part.bytes.as_ptr() as usize;
                    assert!(part.bytes.is_empty() || (range.contains(&start) && start + part.bytes.len() <= range.end));
                }
            }
        }
        assert!(accepted > 100, "the mutations keep some bodies valid: {accepted}");
    }
}
