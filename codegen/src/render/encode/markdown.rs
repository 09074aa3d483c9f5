//! Markdown: values put into a README's prose, code spans and comments, and a document's own
//! Markdown made safe for doc comments.
//!
//! rustdoc compiles and runs every code block of a doc comment that is not marked as another
//! language, and renders raw HTML as it is. A description is someone else's text, so in docs its
//! code blocks are shown as `text` whatever their tag, and its raw HTML and script links are
//! shown as written instead of rendered.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag};

/// `text` as inline prose: each run of whitespace (line breaks among it) one space, and every
/// character that could start markup escaped, so it reads as written and nothing more.
pub fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        for c in word.chars() {
            if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '!' | '|' | '~' | '&' | '{' | '}') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    // A line starting `-`, `+` or `=` would be a list item or an underline, and one starting
    // `1.` or `1)` an ordered list item.
    if out.starts_with(['-', '+', '=']) {
        out.insert(0, '\\');
    } else if let Some(at) = out.find(['.', ')']).filter(|at| is_digits(&out[..*at])) {
        out.insert(at, '\\');
    }
    out
}

fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// A code span showing `text` exactly (line breaks as spaces): fenced by one backtick more than
/// the longest run inside it, and padded where it starts or ends with one.
pub fn code(text: &str) -> String {
    let text = text.replace(['\r', '\n'], " ");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if text.is_empty() {
        return "` `".to_string();
    }
    // A span's first and last space are dropped when it has both and is not all spaces.
    let spaced = text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty();
    let pad = if text.starts_with('`') || text.ends_with('`') || spaced { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `text` for the inside of an HTML comment, on one line, which it cannot end: no `--`.
pub fn comment(text: &str) -> String {
    let mut out = text.replace(['\r', '\n'], " ");
    while out.contains("--") {
        out = out.replace("--", "- -");
    }
    out.trim_end_matches('-').to_string()
}

/// A document's Markdown as a doc comment may hold it: every code block shown as `text` (an
/// indented one fenced), raw HTML escaped so it shows as written, and links and images to
/// `javascript:`, `vbscript:` or `data:` URLs shown as their source. Everything else is kept
/// byte for byte.
pub fn doc_text(text: &str) -> String {
    if !might_need_changes(text) {
        return text.to_string();
    }
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut events = Parser::new_ext(text, options()).into_offset_iter().peekable();
    while let Some((event, range)) = events.next() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
                let line_end = text[range.start..].find('\n').map_or(range.end, |n| range.start + n);
                let fence = text[range.start..line_end].chars().take_while(|c| *c == '`' || *c == '~').count();
                let info = range.start + fence..line_end;
                if text[info.clone()].trim_end_matches('\r') != "text" {
                    edits.push((info, "text".to_string()));
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)) => {
                let mut lines = Vec::new();
                while let Some((event, range)) = events.next_if(|(e, _)| !matches!(e, Event::End(_))) {
                    if let Event::Text(_) = event {
                        lines.push(range);
                    }
                }
                fence_indented(text, &lines, &mut edits);
            }
            Event::Html(_) | Event::InlineHtml(_) if text[range.clone()].contains('<') => {
                edits.push((range.clone(), text[range].replace('<', "&lt;")));
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) if runs_script(&dest_url) => {
                edits.push((range.clone(), self::text(&text[range])));
            }
            _ => {}
        }
    }
    apply(text, edits)
}

/// The options rustdoc reads doc comments with, as far as they change what is a block.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_SMART_PUNCTUATION
}

/// Whether `text` holds anything [`doc_text`] may change; most descriptions hold nothing.
fn might_need_changes(text: &str) -> bool {
    text.contains(['`', '~', '<', '\t']) || text.contains("    ") || text.contains("](")
}

/// Whether a link to `url` would run a script when followed.
fn runs_script(url: &str) -> bool {
    let scheme: String = url.trim_start().chars().take(11).filter(|c| !c.is_whitespace()).collect();
    let scheme = scheme.to_ascii_lowercase();
    ["javascript:", "vbscript:", "data:"].iter().any(|s| scheme.starts_with(s))
}

/// The edits that turn an indented code block, whose lines' contents are `lines`, into a fenced
/// `text` block: each line keeps its containers' prefix (`> `, a list item's indent) and loses the
/// four columns that made it code, with a fence before the first and after the last.
fn fence_indented(text: &str, lines: &[Range<usize>], edits: &mut Vec<(Range<usize>, String)>) {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else { return };
    let content = &text[first.start..last.end];
    let longest = content.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |n| n + 1);
    let container = |line: &Range<usize>| container_prefix(&text[line_start(line.start)..line.start]).to_string();
    for (i, line) in lines.iter().enumerate() {
        let start = line_start(line.start);
        let prefix = container(line);
        let replacement = if i == 0 { format!("{prefix}{fence}text\n{prefix}") } else { prefix };
        edits.push((start..line.start, replacement));
    }
    let prefix = container(last);
    let newline = if text[..last.end].ends_with('\n') { "" } else { "\n" };
    edits.push((last.end..last.end, format!("{newline}{prefix}{fence}\n")));
}

/// What stands before an indented code line's content once the four columns of its indent are
/// taken away: the prefix of the containers it is in.
fn container_prefix(prefix: &str) -> &str {
    if let Some(rest) = prefix.strip_suffix('\t') {
        return rest;
    }
    let spaces = prefix.len() - prefix.trim_end_matches(' ').len();
    &prefix[..prefix.len() - spaces.min(4)]
}

/// `text` with `edits` made, in order of where they start; an edit inside one made already is
/// dropped (the outer one replaced it).
fn apply(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(range, _)| (range.start, range.end));
    let mut out = String::with_capacity(text.len() + 16 * edits.len());
    let mut at = 0;
    for (range, replacement) in edits {
        if range.start < at {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(&replacement);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each code block of `text` as rustdoc sees it: its info string and contents.
    fn code_blocks(text: &str) -> Vec<(String, String)> {
        let mut blocks = Vec::new();
        let mut current: Option<(String, String)> = None;
        for event in Parser::new_ext(text, options()) {
            match event {
                Event::Start(Tag::CodeBlock(kind)) => {
                    let info = match kind {
                        CodeBlockKind::Fenced(info) => info.to_string(),
                        CodeBlockKind::Indented => "(indented)".to_string(),
                    };
                    current = Some((info, String::new()));
                }
                Event::Text(t) => {
                    if let Some((_, body)) = &mut current {
                        body.push_str(&t);
                    }
                }
                Event::End(pulldown_cmark::TagEnd::CodeBlock) => blocks.extend(current.take()),
                _ => {}
            }
        }
        blocks
    }

    #[test]
    fn code_blocks_become_text_with_their_contents_kept() {
        let cases = [
            ("Call it:\n\n```\ncurl https://x\n```\n", "curl https://x\n"),
            ("```rust\nfn main() { std::process::exit(1) }\n```", "fn main() { std::process::exit(1) }\n"),
            ("~~~ rust,no_run\nlet x = 1;\n~~~\n", "let x = 1;\n"),
            ("Para.\n\n    indented();\n    more();\n\nAfter.", "indented();\nmore();\n"),
            ("Para.\n\n    a();\n\n    b();\n", "a();\n\nb();\n"),
            ("\tTabbed();\n", "Tabbed();\n"),
            ("- item\n\n      in_a_list();\n\n- next", "in_a_list();\n"),
            ("> quoted\n>\n>     in_a_quote();\n", "in_a_quote();\n"),
            ("- a\n  ```\n  nested();\n  ```\n", "nested();\n"),
            ("    ```\n    fence_inside();\n", "```\nfence_inside();\n"),
            ("    no_newline_at_end()", "no_newline_at_end()\n"),
        ];
        for (input, contents) in cases {
            let output = doc_text(input);
            let blocks = code_blocks(&output);
            assert_eq!(blocks, [("text".to_string(), contents.to_string())], "{input:?} became {output:?}");
        }
        // Already text, or no code at all: unchanged.
        for same in ["```text\nx\n```\n", "Plain prose, `code` and [a link](https://example.com)."] {
            assert_eq!(doc_text(same), same);
        }
    }

    #[test]
    fn html_and_script_links_show_as_written() {
        let output = doc_text("Hi <script>alert(1)</script> and\n\n<div onclick=\"x\">block</div>\n");
        assert!(!output.contains('<'), "{output}");
        let events: Vec<_> = Parser::new_ext(&output, options()).collect();
        assert!(!events.iter().any(|e| matches!(e, Event::Html(_) | Event::InlineHtml(_))), "{events:?}");
        let output = doc_text("[click](javascript:alert(1)) ![i](data:x) [fine](https://example.com)");
        let links = Parser::new_ext(&output, options())
            .filter(|e| matches!(e, Event::Start(Tag::Link { .. } | Tag::Image { .. })))
            .count();
        assert_eq!(links, 1, "{output}");
    }

    #[test]
    fn prose_code_spans_and_comments_hold_any_text() {
        let hostile = "Inj\"\n# head\n```rust\n<b>[x](y)</b> *a* `b` -->";
        let prose = text(hostile);
        let events: Vec<_> = Parser::new(&prose).collect();
        let shown: String = events
            .iter()
            .filter_map(|e| match e {
                Event::Text(t) => Some(t.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(shown, hostile.split_whitespace().collect::<Vec<_>>().join(" "), "{events:?}");
        for value in ["1.0", "`x`", "a``b", " ", "``"] {
            let span = code(value);
            let events: Vec<_> = Parser::new(&span).collect();
            assert!(
                events.iter().any(|e| matches!(e, Event::Code(c) if c.as_ref() == value)),
                "{value:?} as {span}: {events:?}"
            );
        }
        assert!(!comment("a-->b--").contains("--"));
        assert_eq!(text("1. not a list"), "1\\. not a list");
        assert_eq!(text("- no"), "\\- no");
    }
}
