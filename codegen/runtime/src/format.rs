//! The text formats a schema can name (`format: date`, `email`, …) that a server checks on strings.
//!
//! JSON Schema defines these formats; a server generated from a document checks them wherever the
//! value stays a string (a `date-time` or `uuid` becomes a type of its own, whose parser checks
//! it). The rules follow the RFCs each format names, read as common validators read them: a
//! value they accept is accepted here.

use std::net::{Ipv4Addr, Ipv6Addr};

/// A format of text that can be checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `date`: an RFC 3339 full-date, `2024-02-29`.
    Date,
    /// `time`: an RFC 3339 full-time, with its offset: `12:00:00Z`, `08:30:00.5+01:00`.
    Time,
    /// `date-time`: an RFC 3339 date-time, `2024-02-29T12:00:00Z`.
    DateTime,
    /// `duration`: an ISO 8601 duration, `P1DT12H`.
    Duration,
    /// `email`: an RFC 5321 mailbox, `user@example.com`.
    Email,
    /// `idn-email`: an email address whose parts may hold any Unicode letter.
    IdnEmail,
    /// `hostname`: an RFC 1123 host name, `api.example.com`.
    Hostname,
    /// `idn-hostname`: a host name whose labels may hold any Unicode letter.
    IdnHostname,
    /// `ipv4`: a dotted-quad IPv4 address.
    Ipv4,
    /// `ipv6`: an RFC 4291 IPv6 address.
    Ipv6,
    /// `uri`: an absolute RFC 3986 URI, `https://example.com/a`.
    Uri,
    /// `uri-reference`: a URI or a relative reference, `../a?b#c`.
    UriReference,
    /// `iri`: an absolute URI whose characters may be any Unicode.
    Iri,
    /// `iri-reference`: an IRI or a relative reference.
    IriReference,
    /// `uuid`: an RFC 4122 UUID.
    Uuid,
    /// `json-pointer`: an RFC 6901 JSON Pointer, `/a/b~1c`.
    JsonPointer,
    /// `relative-json-pointer`: a relative JSON Pointer, `0/a` or `1#`.
    RelativeJsonPointer,
    /// `uri-template`: an RFC 6570 URI template, `/users/{id}`.
    UriTemplate,
}

impl Format {
    /// The format a schema names, when it is one of these.
    pub fn named(name: &str) -> Option<Format> {
        Some(match name {
            "date" => Format::Date,
            "time" => Format::Time,
            "date-time" => Format::DateTime,
            "duration" => Format::Duration,
            "email" => Format::Email,
            "idn-email" => Format::IdnEmail,
            "hostname" => Format::Hostname,
            "idn-hostname" => Format::IdnHostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uri-reference" => Format::UriReference,
            "iri" => Format::Iri,
            "iri-reference" => Format::IriReference,
            "uuid" => Format::Uuid,
            "json-pointer" => Format::JsonPointer,
            "relative-json-pointer" => Format::RelativeJsonPointer,
            "uri-template" => Format::UriTemplate,
            _ => return None,
        })
    }

    /// The format's name in a schema.
    pub fn name(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::Time => "time",
            Format::DateTime => "date-time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::IdnEmail => "idn-email",
            Format::Hostname => "hostname",
            Format::IdnHostname => "idn-hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Iri => "iri",
            Format::IriReference => "iri-reference",
            Format::Uuid => "uuid",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
            Format::UriTemplate => "uri-template",
        }
    }

    /// Whether `text` is written in this format.
    pub fn matches(self, text: &str) -> bool {
        match self {
            Format::Date => is_date(text),
            Format::Time => is_time(text),
            Format::DateTime => text.split_once(['T', 't']).is_some_and(|(date, time)| is_date(date) && is_time(time)),
            Format::Duration => is_duration(text),
            Format::Email => is_email(text, false),
            Format::IdnEmail => is_email(text, true),
            Format::Hostname => is_hostname(text, false),
            Format::IdnHostname => is_hostname(text, true),
            Format::Ipv4 => text.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => text.parse::<Ipv6Addr>().is_ok(),
            Format::Uri => is_uri(text, true, false),
            Format::UriReference => is_uri(text, false, false),
            Format::Iri => is_uri(text, true, true),
            Format::IriReference => is_uri(text, false, true),
            Format::Uuid => is_uuid(text),
            Format::JsonPointer => is_json_pointer(text),
            Format::RelativeJsonPointer => is_relative_json_pointer(text),
            Format::UriTemplate => is_uri_template(text),
        }
    }
}

/// `count` ASCII digits read as a number.
fn digits(text: &str, count: usize) -> Option<u32> {
    (text.len() == count && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok())?
}

fn is_date(text: &str) -> bool {
    let mut parts = text.splitn(3, '-');
    let (Some(year), Some(month), Some(day)) = (parts.next(), parts.next(), parts.next()) else { return false };
    let (Some(year), Some(month), Some(day)) = (digits(year, 4), digits(month, 2), digits(day, 2)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `HH:MM:SS[.fraction]` then `Z` or `±HH:MM`; a leap second (`:60`) is allowed.
fn is_time(text: &str) -> bool {
    let (clock, offset) = match text.find(['Z', 'z', '+', '-']) {
        Some(at) => text.split_at(at),
        None => return false,
    };
    let offset_ok = match offset.as_bytes().first() {
        Some(b'Z' | b'z') => offset.len() == 1,
        _ => offset[1..]
            .split_once(':')
            .is_some_and(|(h, m)| digits(h, 2).is_some_and(|h| h < 24) && digits(m, 2).is_some_and(|m| m < 60)),
    };
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let mut parts = whole.split(':');
    let (Some(h), Some(m), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    offset_ok
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && digits(h, 2).is_some_and(|h| h < 24)
        && digits(m, 2).is_some_and(|m| m < 60)
        && digits(s, 2).is_some_and(|s| s <= 60)
}

/// `P` followed by numbers, each with its designator (`P1Y2M3W4DT5H6M7.5S`).
fn is_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else { return false };
    let (date, time) = rest.split_once('T').unwrap_or((rest, ""));
    let designated = |part: &str, designators: &str| {
        let mut number = false;
        for c in part.chars() {
            if c.is_ascii_digit() || (number && matches!(c, '.' | ',')) {
                number = true;
            } else if number && designators.contains(c) {
                number = false;
            } else {
                return false;
            }
        }
        !number
    };
    designated(date, "YMWD") && designated(time, "HMS")
}

fn is_hostname(text: &str, unicode: bool) -> bool {
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || (unicode && c.is_alphanumeric()))
    };
    !text.is_empty() && text.len() <= 253 && text.split('.').all(label_ok)
}

/// `local@domain`: a dot-separated or quoted local part, then a host name or an address literal.
fn is_email(text: &str, unicode: bool) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else { return false };
    let atom = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || (unicode && !c.is_ascii());
    let local_ok = if let Some(quoted) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        !quoted.chars().any(|c| c == '"' || c.is_control())
    } else {
        !local.is_empty()
            && local.len() <= 64
            && local.split('.').all(|part| !part.is_empty() && part.chars().all(atom))
    };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
            None => literal.parse::<Ipv4Addr>().is_ok(),
        },
        None => is_hostname(domain, unicode),
    };
    local_ok && domain_ok
}

/// RFC 3986's characters with percent-escapes well formed; `absolute` also wants a scheme.
fn is_uri(text: &str, absolute: bool, unicode: bool) -> bool {
    let allowed = |c: char| {
        c.is_ascii_alphanumeric()
            || "-._~:/?#[]@!$&'()*+,;=%".contains(c)
            || (unicode && !c.is_ascii() && !c.is_control())
    };
    if !text.chars().all(allowed) {
        return false;
    }
    let bytes = text.as_bytes();
    let escapes_ok = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'%')
        .all(|(i, _)| bytes.get(i + 1..i + 3).is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)));
    let scheme = text.split_once(':').map(|(scheme, _)| scheme).filter(|scheme| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    // A relative reference's first segment cannot hold a colon (it would read as a scheme).
    let first_segment = text.split(['/', '?', '#']).next().unwrap_or("");
    let shape_ok = if absolute { scheme.is_some() } else { scheme.is_some() || !first_segment.contains(':') };
    escapes_ok && shape_ok
}

fn is_uuid(text: &str) -> bool {
    let text = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')).unwrap_or(text);
    let text = text.strip_prefix("urn:uuid:").unwrap_or(text);
    let hex = |group: &str| group.bytes().all(|b| b.is_ascii_hexdigit());
    let groups: Vec<&str> = text.split('-').collect();
    (groups.len() == 1 && text.len() == 32 && hex(text))
        || (groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12]) && groups.iter().all(|g| hex(g)))
}

fn is_json_pointer(text: &str) -> bool {
    let escapes_ok = text.match_indices('~').all(|(i, _)| matches!(text.as_bytes().get(i + 1), Some(b'0' | b'1')));
    (text.is_empty() || text.starts_with('/')) && escapes_ok
}

fn is_relative_json_pointer(text: &str) -> bool {
    let rest = text.trim_start_matches(|c: char| c.is_ascii_digit());
    let number = &text[..text.len() - rest.len()];
    let number_ok = !number.is_empty() && (number == "0" || !number.starts_with('0'));
    number_ok && (rest == "#" || is_json_pointer(rest))
}

/// Braces balanced and not nested, each expression holding a non-empty name list.
fn is_uri_template(text: &str) -> bool {
    let mut open = false;
    let mut empty = true;
    for c in text.chars() {
        match c {
            '{' if open => return false,
            '{' => (open, empty) = (true, true),
            '}' if !open || empty => return false,
            '}' => open = false,
            ' ' | '"' | '\'' | '<' | '>' | '\\' | '^' | '`' | '|' => return false,
            _ => empty = false,
        }
    }
    !open
}

#[cfg(test)]
mod tests {
    use super::Format;

    fn check(format: &str, good: &[&str], bad: &[&str]) {
        let format = Format::named(format).expect("a known format");
        for text in good {
            assert!(format.matches(text), "{} should accept {text:?}", format.name());
        }
        for text in bad {
            assert!(!format.matches(text), "{} should refuse {text:?}", format.name());
        }
    }

    #[test]
    fn dates_and_times() {
        check("date", &["2024-02-29", "1999-12-31"], &["", "2023-02-29", "2024-1-01", "2024-13-01", "2024-04-31"]);
        check(
            "time",
            &["12:00:00Z", "12:00:00+01:00", "12:00:00.5z", "23:59:60Z"],
            &["12:00:00", "24:00:00Z", "12:00", "12:00:00+1:00", "12:00:00.Z"],
        );
        check(
            "date-time",
            &["2024-01-01T00:00:00Z", "2024-01-01t00:00:00.123-05:30"],
            &["2024-01-01T00:00:00", "2024-01-01 00:00:00Z"],
        );
        check(
            "duration",
            &["P1D", "PT1H", "P1W", "P1Y2M3DT4H5M6S", "PT1.5S", "P"],
            &["", "1D", "P1", "PD", "P1H", "PT1D"],
        );
    }

    #[test]
    fn addresses() {
        check(
            "email",
            &["user@example.com", "a@b", "\"a b\"@c.com", "a@[127.0.0.1]", "a+tag@[IPv6:::1]"],
            &["", "0", "@b", "a@", "a b@c.com", "a@-b.com", "a..b@c.com", "ä@ä.com"],
        );
        check("idn-email", &["ä@ä.com"], &["ä"]);
        check(
            "hostname",
            &["example.com", "a", "1.2.3.4"],
            &["", "-a.com", "a-.com", "a_b.com", "a..b", "example.com.", "ä.com"],
        );
        check("idn-hostname", &["ä.com"], &["", "a b"]);
        check("ipv4", &["192.0.2.1"], &["256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4 "]);
        check("ipv6", &["::1", "2001:db8::1", "::ffff:1.2.3.4"], &["1::2::3", "fe80::1%eth0", "g::1"]);
    }

    #[test]
    fn references() {
        check(
            "uri",
            &["https://example.com/", "a:b", "urn:isbn:123", "http://[::1]/"],
            &["example.com", "/rel", "http://a b", "http://x/%zz"],
        );
        check("uri-reference", &["", "/a", "0/a", "#frag", "../a?b#c"], &["a b", "http://x/{a}", "ä.com", "a:b:c{"]);
        check("iri-reference", &["ä.com", "/ä"], &["a b"]);
        check(
            "uuid",
            &["3fa85f64-5717-4562-b3fc-2c963f66afa6", "3fa85f6457174562b3fc2c963f66afa6"],
            &["", "-1", "3fa85f64"],
        );
        check("json-pointer", &["", "/a", "/a~0b~1c"], &["a", "/~2"]);
        check("relative-json-pointer", &["0", "0/a", "1#"], &["", "/a", "01/a", "#"]);
        check("uri-template", &["", "/users/{id}", "/a{?b,c}"], &["{", "{}", "/{a{b}}", "a b"]);
    }
}
