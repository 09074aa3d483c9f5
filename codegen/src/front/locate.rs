//! Finding the line of a JSON pointer in YAML text, so diagnostics can say where to look.
//!
//! The spec is parsed without positions, so this walks the text instead: each pointer segment is a
//! key (`name:`) or an item (`- `) indented deeper than its parent. Block-style YAML, the usual
//! form of OpenAPI documents, is followed all the way; where the text switches to flow style
//! (`{...}` or `[...]`), the line of the deepest node found is returned.

use std::collections::HashMap;

/// The 1-based line of the node `pointer` (like `#/paths/~1pets/get`) names in `text`. For many
/// pointers into one text, keep a [`Locator`].
pub fn line_of(text: &str, pointer: &str) -> Option<usize> {
    Locator::new(text).line_of(pointer)
}

/// Finds the lines of many pointers in one text: each mapping or list it passes through is read
/// once, so locating every diagnostic of a large document costs about one pass over it.
pub struct Locator<'t> {
    lines: Vec<Line<'t>>,
    /// The children of each node met so far, by the node's line (`usize::MAX` for the root).
    children: HashMap<usize, Children<'t>>,
}

/// One line: its indentation and its text after it; blank and comment lines are not content.
struct Line<'t> {
    indent: usize,
    text: &'t str,
    content: bool,
}

/// A node of the block structure: the line it starts on and the column its own children start
/// after (a key's column, or a list item's dash).
#[derive(Clone, Copy)]
struct Node {
    line: usize,
    indent: usize,
}

#[derive(Default)]
struct Children<'t> {
    keys: HashMap<&'t str, Node>,
    items: Vec<Node>,
}

const ROOT: usize = usize::MAX;

impl<'t> Locator<'t> {
    pub fn new(text: &'t str) -> Self {
        let lines = text
            .lines()
            .map(|line| {
                let text = line.trim_start();
                let content = !text.is_empty() && !text.starts_with('#');
                Line { indent: line.len() - text.len(), text, content }
            })
            .collect();
        Locator { lines, children: HashMap::new() }
    }

    /// The 1-based line of the node `pointer` names; where the text switches to flow style or a
    /// segment is not found, the line of the deepest node found.
    pub fn line_of(&mut self, pointer: &str) -> Option<usize> {
        let mut node: Option<Node> = None;
        let mut found = None;
        for segment in pointer.trim_start_matches('#').split('/').skip(1) {
            let segment = segment.replace("~1", "/").replace("~0", "~");
            let children = self.children_of(node);
            let next = segment
                .parse::<usize>()
                .ok()
                .and_then(|i| children.items.get(i).copied())
                .or_else(|| children.keys.get(segment.as_str()).copied());
            match next {
                Some(next) => {
                    node = Some(next);
                    found = Some(next.line + 1);
                }
                None => break,
            }
        }
        found
    }

    /// The keys and items directly under `node` (the root when `None`), read once.
    fn children_of(&mut self, node: Option<Node>) -> &Children<'t> {
        let id = node.map_or(ROOT, |n| n.line);
        if !self.children.contains_key(&id) {
            let children = self.read_children(node);
            self.children.insert(id, children);
        }
        &self.children[&id]
    }

    fn read_children(&self, node: Option<Node>) -> Children<'t> {
        let mut children = Children::default();
        let (start, parent) = match node {
            Some(n) => (n.line + 1, Some(n.indent)),
            None => (0, None),
        };
        // A list item's first key stands on the dash line itself: `- name: a`.
        if let Some(n) = node
            && let Some(after) = self.lines[n.line].text.strip_prefix("- ")
        {
            let column = n.indent + self.lines[n.line].text.len() - after.trim_start().len();
            if let Some(key) = key_of(after.trim_start()) {
                children.keys.insert(key, Node { line: n.line, indent: column });
            }
        }
        let mut level = None;
        for (i, line) in self.lines.iter().enumerate().skip(start) {
            if !line.content {
                continue;
            }
            let dash = line.text.starts_with("- ") || line.text == "-";
            if let Some(parent) = parent {
                // The block ends at a line no deeper than its node, except that a list may stand
                // at its key's own indentation.
                let list_at_key = dash && line.indent == parent && level.is_none_or(|l| l == parent);
                if line.indent < parent || (line.indent == parent && !list_at_key) {
                    break;
                }
            }
            // A lone bracket (JSON written one member a line) opens the block without being in it.
            if matches!(line.text, "{" | "[") {
                continue;
            }
            let level = *level.get_or_insert(line.indent);
            if line.indent != level {
                continue;
            }
            if dash {
                children.items.push(Node { line: i, indent: line.indent });
            } else if let Some(key) = key_of(line.text) {
                children.keys.entry(key).or_insert(Node { line: i, indent: line.indent });
            }
        }
        children
    }
}

/// The key a mapping line starts with: `name:`, `'200':` or `"a:b":`.
fn key_of(text: &str) -> Option<&str> {
    if let Some(quote) = text.chars().next().filter(|c| *c == '\'' || *c == '"') {
        let rest = &text[1..];
        let end = rest.find(quote)?;
        return rest[end + 1..].starts_with(':').then(|| &rest[..end]);
    }
    let end = text.find(": ").or_else(|| text.strip_suffix(':').map(str::len))?;
    Some(&text[..end])
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

    /// Every schema and property of the project spec is found on the line that names it.
    #[test]
    fn every_schema_and_property_of_the_project_spec_is_found() {
        let text = include_str!("../../../spec/openapi.yaml");
        let doc: serde_json::Value = serde_yaml_ng::from_str(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut locator = super::Locator::new(text);
        let mut checked = 0;
        for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
            let mut pointers = vec![(format!("#/components/schemas/{name}"), name.clone())];
            for property in schema["properties"].as_object().into_iter().flat_map(|p| p.keys()) {
                pointers.push((format!("#/components/schemas/{name}/properties/{property}"), property.clone()));
            }
            for (pointer, key) in pointers {
                let line = locator.line_of(&pointer).unwrap_or_else(|| panic!("{pointer} not found"));
                let text = lines[line - 1].trim_start().trim_start_matches("- ");
                assert!(text.starts_with(&format!("{key}:")), "{pointer} found at line {line}: {text}");
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
