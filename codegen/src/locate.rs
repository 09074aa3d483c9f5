//! Finding the line of a JSON pointer in YAML text, so diagnostics can say where to look.
//!
//! The spec is parsed without positions, so this walks the text instead: each pointer segment is a
//! key (`name:`) or an item (`- `) indented deeper than its parent. Block-style YAML, the usual
//! form of OpenAPI documents, is followed all the way; where the text switches to flow style
//! (`{...}` or `[...]`), the line of the deepest node found is returned.

/// The 1-based line of the node `pointer` (like `#/paths/~1pets/get`) names in `text`.
pub fn line_of(text: &str, pointer: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let segments: Vec<String> =
        pointer.trim_start_matches('#').split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
    // (line index, indentation) of the node found so far; the root is before the first line.
    let mut at: Option<(usize, i64)> = None;
    let mut found = None;
    for segment in &segments {
        let (start, parent_indent) = match at {
            Some((line, indent)) => (line + 1, indent),
            None => (0, -1),
        };
        let next = match segment.parse::<usize>() {
            Ok(index) => find_item(&lines, start, parent_indent, index),
            Err(_) => None,
        }
        .or_else(|| find_key(&lines, start, parent_indent, segment));
        match next {
            Some(node) => {
                at = Some(node);
                found = Some(node.0 + 1);
            }
            None => break,
        }
    }
    found
}

/// The next line (1-based) after `line` that holds the same key at the same indentation, before
/// the mapping ends: where a repeated key stands.
pub fn repeat_of(text: &str, line: usize) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let first = *lines.get(line.checked_sub(1)?)?;
    let key = first.trim_start().split(':').next()?;
    let depth = indent(first);
    for (i, other) in lines.iter().enumerate().skip(line) {
        if !is_content(other) {
            continue;
        }
        if indent(other) < depth {
            return None;
        }
        if indent(other) == depth && other.trim_start().split(':').next() == Some(key) {
            return Some(i + 1);
        }
    }
    None
}

fn indent(line: &str) -> i64 {
    (line.len() - line.trim_start().len()) as i64
}

fn is_content(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// The line of `key:` among the children of a node indented `parent`, from line `start`.
fn find_key(lines: &[&str], start: usize, parent: i64, key: &str) -> Option<(usize, i64)> {
    for (i, line) in lines.iter().enumerate().skip(start) {
        if !is_content(line) {
            continue;
        }
        let indent = indent(line);
        if indent <= parent {
            return None;
        }
        let text = line.trim_start().trim_start_matches("- ");
        let matches = [format!("{key}:"), format!("'{key}':"), format!("\"{key}\":")]
            .iter()
            .any(|k| text.starts_with(k.as_str()));
        if matches {
            // A key after `- ` sits one level deeper than the dash.
            let extra = (line.trim_start().len() - text.len()) as i64;
            return Some((i, indent + extra));
        }
    }
    None
}

/// The line of item `index` (`- `) among the children of a node indented `parent`.
fn find_item(lines: &[&str], start: usize, parent: i64, index: usize) -> Option<(usize, i64)> {
    let mut seen = 0;
    let mut item_indent = None;
    for (i, line) in lines.iter().enumerate().skip(start) {
        if !is_content(line) {
            continue;
        }
        let indent = indent(line);
        if indent <= parent && !(indent == parent && line.trim_start().starts_with("- ")) {
            return None;
        }
        if line.trim_start().starts_with("- ") || line.trim() == "-" {
            let level = *item_indent.get_or_insert(indent);
            if indent == level {
                if seen == index {
                    return Some((i, indent));
                }
                seen += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::line_of;

    const SPEC: &str = "openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\npaths:\n  /pets:\n    get:\n      parameters:\n      - name: a\n        in: query\n      - name: b\n        in: cookie\n      responses: {'200': {description: ok}}\ncomponents:\n  schemas:\n    Pet:\n      oneOf:\n        - type: string\n";

    #[test]
    fn pointers_find_their_lines() {
        assert_eq!(line_of(SPEC, "#/paths/~1pets/get"), Some(7));
        assert_eq!(line_of(SPEC, "#/paths/~1pets/get/parameters/1"), Some(11));
        assert_eq!(line_of(SPEC, "#/paths/~1pets/get/parameters/1/in"), Some(12));
        assert_eq!(line_of(SPEC, "#/components/schemas/Pet"), Some(16));
        // Inside flow style the deepest block node is the answer.
        assert_eq!(line_of(SPEC, "#/paths/~1pets/get/responses/200"), Some(13));
        assert_eq!(line_of(SPEC, "#/nothing"), None);
    }
}
