//! Files that travel as parts of a multipart body, the same type on both sides.

use bytes::Bytes;

/// A file in a multipart body: sent by a client, received by a server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct File {
    /// The file name. A client offers `file` when it is not set, since many servers only treat a
    /// part with a file name as a file.
    ///
    /// On a server this is the name the client offered made safe to join to a local directory,
    /// by the same rule as a client's `Download::safe_file_name` (see [`safe_file_name`]), or
    /// `None` when the client offered none or nothing of it was usable. The name exactly as sent
    /// is not kept: unlike a download's `file_name`, which is the server's word, this one comes
    /// from whoever sent the request.
    pub name: Option<String>,
    /// The media type of the bytes; a client declares `application/octet-stream` when not set.
    pub content_type: Option<String>,
    /// The content; on a server it shares the request body's memory rather than copying it.
    pub bytes: Bytes,
}

impl File {
    /// A file called `name` holding `bytes`, of no particular media type.
    pub fn new(name: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        File { name: Some(name.into()), content_type: None, bytes: bytes.into() }
    }

    /// The same file, declared to be of `content_type` (e.g. `image/png`).
    pub fn with_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = Some(content_type.into());
        self
    }
}

/// The longest file name most file systems accept, in bytes.
const MAX_NAME: usize = 255;

/// The longest extension kept whole when a name is shortened, in bytes (`.pdf`, `.tar.gz`'s
/// `.gz`, `.xlsx`); a longer tail after the last dot is shortened with the rest.
const MAX_EXTENSION: usize = 16;

/// Names Windows gives to devices: a file called one of them, with or without an extension and in
/// any case, opens the device instead (`CON`, `nul.txt`, `CONOUT$`); `COM` and `LPT` take a digit
/// (0 to 9) or a superscript one, two or three after them.
const DEVICE_NAMES: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];

/// A file name from someone else reduced to one that is safe to join to a local directory, or
/// `None` when nothing usable is left (no name, `..`, only dots or separators):
///
/// - only its last path component is kept (after any `/` or `\`), so it cannot leave the
///   directory;
/// - control characters, the characters Windows forbids in names (`: * ? " < > |`) and invisible
///   formatting characters are removed: the bidirectional controls that can make `exe.pdf` look
///   like `fdp.exe` (U+202E and its kin), zero-width characters, and line and paragraph
///   separators;
/// - leading dots (hidden files, `..`) and leading or trailing spaces and trailing dots (which
///   Windows drops) are removed;
/// - a Windows device name (`CON`, `nul.txt`, `com1.log`) gets a leading `_`;
/// - a name longer than 255 bytes is shortened before its extension, which is kept.
pub fn safe_file_name(name: &str) -> Option<String> {
    let last = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let kept: String = last.chars().filter(|&c| !is_unsafe_in_name(c)).collect();
    let mut clean = kept
        .trim_start_matches(|c: char| c == '.' || c.is_whitespace())
        .trim_end_matches(|c: char| c == '.' || c.is_whitespace())
        .to_string();
    if clean.is_empty() {
        return None;
    }
    if is_device_name(&clean) {
        clean.insert(0, '_');
    }
    if clean.len() > MAX_NAME {
        clean = shortened(&clean);
    }
    Some(clean)
}

/// Characters a safe name leaves out.
fn is_unsafe_in_name(c: char) -> bool {
    c.is_control()
        || matches!(c, ':' | '*' | '?' | '"' | '<' | '>' | '|')
        || matches!(c, '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// Whether Windows reads `name` as a device: its part before the first dot, trailing spaces
/// aside, is a device name.
fn is_device_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).trim_end();
    let numbered = |prefix: &str| {
        let Some(rest) = stem.get(..3).filter(|p| p.eq_ignore_ascii_case(prefix)).map(|_| &stem[3..]) else {
            return false;
        };
        let mut chars = rest.chars();
        matches!((chars.next(), chars.next()), (Some('0'..='9' | '\u{b9}' | '\u{b2}' | '\u{b3}'), None))
    };
    DEVICE_NAMES.iter().any(|device| device.eq_ignore_ascii_case(stem)) || numbered("COM") || numbered("LPT")
}

/// `name` cut to [`MAX_NAME`] bytes at a character boundary, before its extension when it has a
/// short one, so `A…A.exe.pdf` stays a `.pdf`.
fn shortened(name: &str) -> String {
    let (stem, extension) = match name.rfind('.') {
        Some(dot) if dot > 0 && name.len() - dot <= MAX_EXTENSION => name.split_at(dot),
        _ => (name, ""),
    };
    let mut cut = MAX_NAME - extension.len();
    while !stem.is_char_boundary(cut) {
        cut -= 1;
    }
    let stem = stem[..cut].trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    format!("{stem}{extension}")
}

#[cfg(test)]
mod tests {
    use super::safe_file_name;

    #[test]
    fn safe_file_names_cannot_leave_the_directory() {
        assert_eq!(safe_file_name("report.pdf").as_deref(), Some("report.pdf"));
        assert_eq!(safe_file_name("../../etc/passwd").as_deref(), Some("passwd"));
        assert_eq!(safe_file_name("..\\..\\windows\\win.ini").as_deref(), Some("win.ini"));
        assert_eq!(safe_file_name("/absolute/x.csv").as_deref(), Some("x.csv"));
        assert_eq!(safe_file_name("a\u{0}b\r\nc:d.txt").as_deref(), Some("abcd.txt"));
        assert_eq!(safe_file_name(".hidden").as_deref(), Some("hidden"));
        assert_eq!(safe_file_name(" . .x. . ").as_deref(), Some("x"));
        assert_eq!(safe_file_name("..").as_deref(), None);
        assert_eq!(safe_file_name("dir/").as_deref(), None);
        assert_eq!(safe_file_name("\u{202e}").as_deref(), None);
    }

    #[test]
    fn shortened_names_keep_their_extension() {
        let long = format!("{}.exe.pdf", "A".repeat(300));
        let short = safe_file_name(&long).unwrap();
        assert_eq!(short.len(), 255);
        assert!(short.ends_with("AAA.pdf") && !short.contains(".exe"), "{short}");
        assert_eq!(safe_file_name(&"é".repeat(200)).map(|n| n.len()), Some(254), "cut at a character boundary");
        let dotted = format!("{}.{}", "b".repeat(250), "c".repeat(40));
        assert_eq!(safe_file_name(&dotted).map(|n| n.len()), Some(255), "a long tail is not an extension");
    }

    #[test]
    fn device_names_and_invisible_reordering_do_not_pass() {
        for device in [
            "CON",
            "nul.txt",
            "Aux.tar.gz",
            "com1.log",
            "LPT9",
            "con .txt",
            "COM\u{b9}.txt",
            "CONIN$",
            "CONOUT$.txt",
            "conout$",
            "COM0",
            "LPT0.log",
            "lpt\u{b3}",
        ] {
            let safe = safe_file_name(device).unwrap();
            assert!(safe.starts_with('_'), "{device} became {safe}");
        }
        for ordinary in ["console.txt", "nullable.rs", "com10.log", "auxiliary"] {
            assert_eq!(safe_file_name(ordinary).as_deref(), Some(ordinary));
        }
        // "invoice\u{202e}fdp.exe" displays as "invoiceexe.pdf".
        assert_eq!(safe_file_name("invoice\u{202e}fdp.exe").as_deref(), Some("invoicefdp.exe"));
        assert_eq!(safe_file_name("a\u{200b}b\u{2066}c\u{feff}.txt").as_deref(), Some("abc.txt"));
    }
}
