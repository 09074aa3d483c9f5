//! Putting parameters on the wire: path segments and query strings.

use std::fmt::Write;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use reqwest::header::HeaderValue;

use crate::client::Error;

/// Path segments: everything but RFC 3986 unreserved characters is escaped.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Query names and values: as segments, but `:` stays readable (RFC 3986 allows it in a query), so
/// date-times read `2024-06-30T00:00:00Z`.
const QUERY: &AsciiSet = &SEGMENT.remove(b':');

/// Form names and values: `application/x-www-form-urlencoded` leaves `*-._` as they are and writes
/// spaces as `+`.
const FORM: &AsciiSet = &NON_ALPHANUMERIC.remove(b'*').remove(b'-').remove(b'.').remove(b'_').remove(b' ');

/// A request body as `application/x-www-form-urlencoded`: a pair per property of the JSON object
/// the body serializes to; a list repeats its name per item, a nested object is written as JSON
/// text, and absent or `null` properties are left out.
pub fn form_body<T: serde::Serialize>(body: &T) -> Result<String, serde_json::Error> {
    let serde_json::Value::Object(map) = serde_json::to_value(body)? else {
        return Err(<serde_json::Error as serde::ser::Error>::custom("a form body must be an object"));
    };
    let mut out = String::new();
    let mut pair = |name: &str, value: &serde_json::Value| {
        let text = match value {
            serde_json::Value::Null => return,
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        if !out.is_empty() {
            out.push('&');
        }
        out.extend(utf8_percent_encode(name, FORM).map(|s| if s == " " { "+" } else { s }));
        out.push('=');
        out.extend(utf8_percent_encode(&text, FORM).map(|s| if s == " " { "+" } else { s }));
    };
    for (name, value) in &map {
        match value {
            serde_json::Value::Array(items) => items.iter().for_each(|item| pair(name, item)),
            other => pair(name, other),
        }
    }
    Ok(out)
}

/// The one `Cookie` header of a request (RFC 6265 allows no second one): its credential cookies
/// and its cookie parameters, joined by `; `.
#[derive(Default)]
pub struct Cookies {
    text: String,
    /// Whether a credential is among them, which keeps the header out of debug output.
    sensitive: bool,
}

impl Cookies {
    fn separate(&mut self) {
        if !self.text.is_empty() {
            self.text.push_str("; ");
        }
    }

    /// Adds a credential cookie, already `name=value` and checked by
    /// [`cookie_credential`](crate::client::cookie_credential).
    pub fn credential(&mut self, cookie: &HeaderValue) {
        self.separate();
        self.text.push_str(cookie.to_str().unwrap_or_default());
        self.sensitive = true;
    }

    /// Adds the parameter `name=value`, the value percent-encoded so that `;`, `,`, spaces and
    /// quotes cannot end it early.
    pub fn push(&mut self, name: &str, value: &str) {
        self.separate();
        self.text.push_str(name);
        self.text.push('=');
        self.text.extend(utf8_percent_encode(value, SEGMENT));
    }

    /// Sets the header on `request`, when there is any cookie to send.
    pub fn set(self, request: reqwest::RequestBuilder) -> Result<reqwest::RequestBuilder, Error> {
        if self.text.is_empty() {
            return Ok(request);
        }
        let mut value = HeaderValue::try_from(self.text)
            .map_err(|_| Error::InvalidArgument { name: "cookie", reason: "not a valid header value".to_string() })?;
        value.set_sensitive(self.sensitive);
        Ok(request.header(reqwest::header::COOKIE, value))
    }
}

/// Checks a path built from `template` (such as `/pets/{id}`): a segment that holds parameters
/// must not be empty, `.` or `..`, which URL parsing would drop or resolve against the path
/// before it (`/v1/pets/..` becomes `/v1/`), sending the request, its credentials and its body
/// somewhere the template does not lead. Percent-encoding cannot help: `%2e` is a dot too. The
/// error names the segment's first parameter.
pub fn check_path(path: &str, template: &'static str) -> Result<(), Error> {
    let mut built = path.split('/');
    for part in template.split('/') {
        let segment = built.next().unwrap_or("");
        let Some(open) = part.find('{') else { continue };
        if !matches!(segment, "" | "." | "..") {
            continue;
        }
        let name = part[open + 1..].split('}').next().unwrap_or(part);
        let reason = match segment {
            "" => format!("an empty value would leave a segment of `{template}` empty"),
            dots => format!("`{dots}` would be read as a dot segment of `{template}`, not as a value"),
        };
        return Err(Error::InvalidArgument { name, reason });
    }
    Ok(())
}

/// `url` with credential pairs (`name=value`, already encoded) appended to its query.
pub fn with_query_credentials(mut url: String, pairs: &[&HeaderValue]) -> String {
    for pair in pairs {
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str(pair.to_str().unwrap_or_default());
    }
    url
}

/// A parameter's value as JSON text, or why it has none (a map with keys that are not text).
pub fn json_text<T: serde::Serialize + ?Sized>(name: &'static str, value: &T) -> Result<String, Error> {
    serde_json::to_string(value).map_err(|e| Error::InvalidArgument { name, reason: e.to_string() })
}

/// Appends one path parameter, percent-encoded so `/`, `?` and `#` stay inside the segment.
pub fn push_segment(url: &mut String, value: &str) {
    url.extend(utf8_percent_encode(value, SEGMENT));
}

/// Appends a list path parameter: its items percent-encoded, joined by `separator` (`,`; `.` for
/// an exploded `label` and `;name=` for an exploded `matrix` style).
pub fn push_list_segment<T: std::fmt::Display>(url: &mut String, separator: &str, items: &[T]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            url.push_str(separator);
        }
        url.extend(utf8_percent_encode(&item.to_string(), SEGMENT));
    }
}

/// Appends an object path parameter (`style: simple`): `property,value,property,value`, or
/// `property=value,property=value` when `explode`; each name and value percent-encoded. (A server
/// that splits the decoded segment still splits a value that holds a comma.)
pub fn push_object_segment<T: serde::Serialize>(url: &mut String, explode: bool, value: &T) {
    write_simple_object(url, explode, value, &|out, text| out.extend(utf8_percent_encode(text, SEGMENT)));
}

/// An object header parameter (`style: simple`): `property,value,property,value`, or
/// `property=value,property=value` when `explode`, as written (a header is not percent-encoded).
pub fn simple_object<T: serde::Serialize>(explode: bool, value: &T) -> String {
    let mut out = String::new();
    write_simple_object(&mut out, explode, value, &|out, text| out.push_str(text));
    out
}

/// Appends `value`'s properties and values (`null` ones left out) in `style: simple`, each name
/// and value written by `write`.
fn write_simple_object<T: serde::Serialize>(
    out: &mut String,
    explode: bool,
    value: &T,
    write: &dyn Fn(&mut String, &str),
) {
    let Ok(serde_json::Value::Object(map)) = serde_json::to_value(value) else { return };
    let mut first = true;
    for (property, value) in &map {
        let text = match value {
            serde_json::Value::Null => continue,
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        if !first {
            out.push(',');
        }
        first = false;
        write(out, property);
        out.push(if explode { '=' } else { ',' });
        write(out, &text);
    }
}

/// Builds a query string: `?` before the first pair, `&` between pairs, names and values encoded.
pub struct Query<'u> {
    url: &'u mut String,
    first: bool,
}

impl<'u> Query<'u> {
    /// A query written onto the end of `url`.
    pub fn new(url: &'u mut String) -> Self {
        // A path that fixes part of the query itself (`/items?beta=true`) is continued.
        let first = !url.contains('?');
        Query { url, first }
    }

    /// Appends `name=value`.
    pub fn push<T: std::fmt::Display + ?Sized>(&mut self, name: &str, value: &T) {
        self.url.push(if self.first { '?' } else { '&' });
        self.first = false;
        self.url.extend(utf8_percent_encode(name, QUERY));
        self.url.push('=');
        let mut text = String::new();
        let _ = write!(text, "{value}");
        self.url.extend(utf8_percent_encode(&text, QUERY));
    }

    /// Appends `name=<value as JSON text>`, for a parameter whose value has no plain-text form.
    pub fn push_json<T: serde::Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<(), Error> {
        self.push(name, &json_text(name, value)?);
        Ok(())
    }

    /// Appends each item as `name=<item as JSON text>`.
    pub fn push_json_each<T: serde::Serialize>(&mut self, name: &'static str, values: &[T]) -> Result<(), Error> {
        for value in values {
            self.push_json(name, value)?;
        }
        Ok(())
    }

    /// Appends an array exploded, `name=a&name=b`, as `style: form, explode: true` says.
    pub fn push_each<T: std::fmt::Display>(&mut self, name: &str, values: &[T]) {
        self.push_all(name, values);
    }

    /// Appends `name=value` for each value given: an optional parameter's value when it is set
    /// (`option.iter()`), or an optional array's items (`list.iter().flatten()`).
    pub fn push_all<T: std::fmt::Display>(&mut self, name: &str, values: impl IntoIterator<Item = T>) {
        for value in values {
            self.push(name, &value);
        }
    }

    /// An object's properties: as `name[property]` pairs when `deep`, else as pairs of their own.
    /// Lists repeat their key, nested objects are written as JSON text, `null`s are left out.
    pub fn push_object<T: serde::Serialize>(&mut self, name: &str, deep: bool, value: &T) {
        let Ok(serde_json::Value::Object(map)) = serde_json::to_value(value) else { return };
        for (property, value) in &map {
            let key = if deep { format!("{name}[{property}]") } else { property.clone() };
            let items = match value {
                serde_json::Value::Array(items) => items.as_slice(),
                other => std::slice::from_ref(other),
            };
            for item in items {
                match item {
                    serde_json::Value::Null => {}
                    serde_json::Value::String(text) => self.push(&key, text),
                    other => self.push(&key, other),
                }
            }
        }
    }

    /// Appends an array as one value, its items joined by `delimiter` (`name=a,b` for `,`), as
    /// `explode: false` says: `,` and `|` as themselves, a space as `%20`. Servers split the
    /// value once it is decoded, so an item holding the delimiter cannot be sent: it is an
    /// [`Error::InvalidArgument`] rather than two items on arrival.
    pub fn push_joined<T: std::fmt::Display>(
        &mut self,
        name: &'static str,
        delimiter: char,
        values: &[T],
    ) -> Result<(), Error> {
        let mut joined = String::new();
        let mut text = String::new();
        for (i, value) in values.iter().enumerate() {
            text.clear();
            let _ = write!(text, "{value}");
            if text.contains(delimiter) {
                let reason = format!("item `{text}` holds `{delimiter}`, which joins the items of this list");
                return Err(Error::InvalidArgument { name, reason });
            }
            if i > 0 {
                match delimiter {
                    ' ' => joined.push_str("%20"),
                    delimiter => joined.push(delimiter),
                }
            }
            joined.extend(utf8_percent_encode(&text, QUERY));
        }
        self.url.push(if self.first { '?' } else { '&' });
        self.first = false;
        self.url.extend(utf8_percent_encode(name, QUERY));
        self.url.push('=');
        self.url.push_str(&joined);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_encode_reserved_characters() {
        let mut url = String::from("/api/x");
        let mut q = Query::new(&mut url);
        q.push("search", "a b&c=d/é");
        q.push("ToDate", "2024-06-30T00:00:00+10:00");
        q.push_each("AccountIds", &["A1", "A 2"]);
        q.push_joined("Codes", ',', &["x", "y"]).unwrap();
        q.push_joined("Pipes", '|', &[1, 2]).unwrap();
        q.push_joined("Spaces", ' ', &["3", "4/5"]).unwrap();
        assert_eq!(
            url,
            "/api/x?search=a%20b%26c%3Dd%2F%C3%A9&ToDate=2024-06-30T00:00:00%2B10:00&AccountIds=A1&AccountIds=A%202&Codes=x,y&Pipes=1|2&Spaces=3%204%2F5"
        );
        // An item holding the delimiter would arrive as two.
        let mut url = String::new();
        let mut q = Query::new(&mut url);
        for (delimiter, item) in [(',', "y,z"), ('|', "a|b"), (' ', "a b")] {
            let error = q.push_joined("Items", delimiter, &["x", item]).unwrap_err();
            assert!(error.to_string().contains("joins the items"), "{error}");
        }
    }

    #[test]
    fn dot_and_empty_segments_from_parameters_are_refused() {
        let refused = |path: &str, template: &'static str| match check_path(path, template) {
            Err(Error::InvalidArgument { name, reason }) => format!("{name}: {reason}"),
            other => panic!("{path}: {other:?}"),
        };
        assert!(refused("/pets/..", "/pets/{id}").starts_with("id: `..` would be read as a dot segment"));
        assert!(refused("/stats/./x", "/stats/{kind}/{from}").starts_with("kind: `.`"));
        assert!(refused("/stats/a/..", "/stats/{kind}/{from}").starts_with("from: `..`"));
        assert!(refused("/pets/", "/pets/{id}").starts_with("id: an empty value"));
        assert!(refused("/files/..", "/files/{name}.{ext}").starts_with("name: `..`"), "assembled from parts");
        for (path, template) in [
            ("/pets/%2E%2E", "/pets/{id}"),
            ("/pets/...", "/pets/{id}"),
            ("/pets/a..b", "/pets/{id}"),
            ("/files/..json", "/files/{name}.json"),
            ("/pets//x", "/pets//{id}"),
            ("/", "/"),
        ] {
            assert!(check_path(path, template).is_ok(), "{path}");
        }
    }

    #[test]
    fn path_segments_keep_slashes_inside() {
        let mut url = String::from("/api/application/");
        push_segment(&mut url, "a/b?c#d");
        assert_eq!(url, "/api/application/a%2Fb%3Fc%23d");
    }
}
