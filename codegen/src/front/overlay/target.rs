//! An overlay action's target: an RFC 9535 JSONPath query, read and run by `serde_json_path`.
//!
//! Two checks come first, as the library makes neither: how deeply the query nests (its parser
//! recurses once per level, and backtracks over nested filters), and how much work it can take on this description ([`cost`]). Each
//! node the query selects is changed once, however many of its selectors chose it.

use std::collections::HashSet;

use serde_json::Value;
use serde_json_path::{JsonPath, PathElement};

use super::cost;

/// How deeply brackets and parentheses may nest in a query.
pub const MOST_NESTED: usize = 64;

/// How deeply filters may nest in a query: the parser's time doubles with each level (ten take
/// a twentieth of a second), and overlays written by hand use two or three.
pub const MOST_NESTED_FILTERS: usize = 6;

/// One step of a node's location: a member's name or an element's index.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// A parsed target and the text it was read from.
pub struct Target<'t> {
    text: &'t str,
    path: JsonPath,
}

impl<'t> Target<'t> {
    /// Reads `text` as a query, or says why it is not one (with the character where reading
    /// stopped).
    pub fn parse(text: &'t str) -> Result<Target<'t>, String> {
        if let Some((at, what)) = too_deep(text) {
            return Err(format!("at character {}: {what}", at + 1));
        }
        let path = JsonPath::parse(text).map_err(|e| {
            // The library counts bytes from 0, and names most mistakes only "parser error".
            let at = text.get(..e.position()).map_or(e.position(), |before| before.chars().count());
            let found = text.get(e.position()..).and_then(|rest| rest.chars().next());
            let why = match (e.message(), found) {
                (_, Some(c)) if at == 0 && c != '$' => "a query starts with `$`".to_string(),
                ("parser error", Some(c)) => format!("`{c}` is not expected here"),
                ("parser error", None) => "the query ends too early".to_string(),
                (message, _) => message.to_string(),
            };
            let hint = if text.contains("./") {
                "; a name that is not a plain word is written in brackets, as in `$.paths['/pets']`"
            } else {
                ""
            };
            format!("at character {}: {why}{hint}", at + 1)
        })?;
        Ok(Target { text, path })
    }

    /// The most work (nodes visited, filters tested, location steps written) the query can take
    /// on a description of this shape: an upper bound, whatever the description holds.
    pub fn cost(&self, shape: Shape) -> f64 {
        cost::of(self.text, shape)
    }

    /// The locations of the nodes the query selects in `doc`, each once, in the order the query
    /// first selects them.
    pub fn locate(&self, doc: &Value) -> Vec<Vec<Step>> {
        let mut seen = HashSet::new();
        let mut found = Vec::new();
        for location in self.path.query_located(doc).locations() {
            let path: Vec<Step> = location
                .iter()
                .map(|element| match element {
                    PathElement::Name(name) => Step::Key((*name).to_string()),
                    PathElement::Index(i) => Step::Index(*i),
                })
                .collect();
            if seen.insert(path.clone()) {
                found.push(path);
            }
        }
        found
    }
}

/// What bounds a query's work on a description: how many nodes it has and how deep they go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub nodes: f64,
    pub depth: f64,
}

impl Shape {
    /// The shape of `doc`, walked without recursion.
    pub fn of(doc: &Value) -> Shape {
        let (mut nodes, mut depth) = (0usize, 0usize);
        let mut stack = vec![(doc, 0usize)];
        while let Some((node, level)) = stack.pop() {
            nodes += 1;
            depth = depth.max(level);
            match node {
                Value::Object(map) => stack.extend(map.values().map(|v| (v, level + 1))),
                Value::Array(items) => stack.extend(items.iter().map(|v| (v, level + 1))),
                _ => {}
            }
        }
        Shape { nodes: nodes as f64, depth: depth as f64 }
    }
}

/// Where, outside string literals, brackets and parentheses first nest past [`MOST_NESTED`] or
/// filters past [`MOST_NESTED_FILTERS`], and which.
fn too_deep(text: &str) -> Option<(usize, String)> {
    // One entry per open bracket or parenthesis: whether it opens a filter (`[?`).
    let mut open: Vec<bool> = Vec::new();
    let mut filters = 0usize;
    let mut quote = None;
    let mut escaped = false;
    let chars: Vec<char> = text.chars().collect();
    for (at, &c) in chars.iter().enumerate() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '[' | '(' => {
                    let rest = chars[at + 1..].iter().find(|c| !matches!(c, ' ' | '\t' | '\n' | '\r'));
                    let filter = c == '[' && rest == Some(&'?');
                    open.push(filter);
                    filters += usize::from(filter);
                    if open.len() > MOST_NESTED {
                        return Some((at, format!("brackets and parentheses nest more than {MOST_NESTED} deep")));
                    }
                    if filters > MOST_NESTED_FILTERS {
                        return Some((at, format!("filters nest more than {MOST_NESTED_FILTERS} deep")));
                    }
                }
                ']' | ')' => filters -= usize::from(open.pop().unwrap_or(false)),
                _ => {}
            },
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{MOST_NESTED, MOST_NESTED_FILTERS, Shape, Step, Target};

    fn keys(query: &str, doc: &serde_json::Value) -> Vec<String> {
        let target = Target::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
        let join = |path: &Vec<Step>| {
            let steps = path.iter().map(|s| match s {
                Step::Key(k) => k.clone(),
                Step::Index(i) => i.to_string(),
            });
            steps.collect::<Vec<_>>().join("/")
        };
        target.locate(doc).iter().map(join).collect()
    }

    #[test]
    fn queries_select_what_rfc_9535_says_each_node_once() {
        let doc = json!({
            "paths": {
                "/pets": {"get": {"operationId": "listPets", "tags": ["pets"]}, "post": {"operationId": "addPet"}},
                "/users": {"get": {"operationId": "listUsers", "x-internal": true}}
            },
            "list": [10, 20, 30, 40]
        });
        assert_eq!(keys("$.paths['/pets'].get", &doc), ["paths//pets/get"]);
        assert_eq!(keys("$.paths[\"/users\"]", &doc), ["paths//users"]);
        assert_eq!(keys("$.paths.*[?@.operationId == 'addPet']", &doc), ["paths//pets/post"]);
        assert_eq!(keys("$.paths.*[?@['x-internal'] == true]", &doc), ["paths//users/get"]);
        assert_eq!(keys("$.paths.*[?@.tags && !@['x-internal']]", &doc), ["paths//pets/get"]);
        assert_eq!(keys("$..operationId", &doc).len(), 3);
        assert_eq!(keys("$.list[-1]", &doc), ["list/3"]);
        assert_eq!(keys("$.list[::-2]", &doc), ["list/3", "list/1"]);
        // The functions RFC 9535 defines.
        assert_eq!(keys("$.paths[?length(@) == 2]", &doc), ["paths//pets"]);
        assert_eq!(keys("$.paths.*[?match(@.operationId, 'list.*')]", &doc).len(), 2);
        assert_eq!(keys("$.paths.*[?count(@.tags[*]) == 1]", &doc), ["paths//pets/get"]);
        // RFC 9535 selects index 0 twice; it is one node to change.
        assert_eq!(keys("$.list[0, 0, 1]", &doc), ["list/0", "list/1"]);
        assert_eq!(keys("$..*..*", &json!({"c": {"d": {"e": 1}}})), ["c/d", "c/d/e"]);
    }

    #[test]
    fn what_does_not_parse_says_where_and_why() {
        let error = |q: &str| Target::parse(q).err().unwrap_or_else(|| panic!("{q} parses"));
        assert!(error("$.paths./pets").contains("`$.paths['/pets']`"), "{}", error("$.paths./pets"));
        assert!(error("$.a]").starts_with("at character 4"), "{}", error("$.a]"));
        assert!(error("paths").starts_with("at character 1"), "{}", error("paths"));
        assert!(error("$.a]").contains("`]` is not expected here"), "{}", error("$.a]"));
        assert!(error("paths").contains("a query starts with `$`"), "{}", error("paths"));
        assert!(error("$[?nope(@)]").contains("'nope' is not defined"), "{}", error("$[?nope(@)]"));
        assert!(error("$['a").starts_with("at character 5"), "{}", error("$['a"));
        assert!(error("$.a[9007199254740992]").starts_with("at character 4"), "{}", error("$.a[9007199254740992]"));
    }

    #[test]
    fn deep_queries_are_refused_before_they_are_parsed() {
        let deep = |open: &str, close: &str, n: usize| format!("$[?{}@{}]", open.repeat(n), close.repeat(n));
        for query in [deep("(", ")", 200_000), deep("length(", ")", 200_000)] {
            let error = Target::parse(&query).err().expect("refused");
            assert!(error.contains(&format!("nest more than {MOST_NESTED} deep")), "{error}");
        }
        assert!(Target::parse(&deep("(", ")", MOST_NESTED - 1)).is_ok(), "{MOST_NESTED} levels are allowed");
        assert!(Target::parse("$['[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[']").is_ok());

        // Nested filters are counted apart: the parser backtracks over each level.
        let filters = |n: usize| format!("$[?{}@{}]", "@[ ?".repeat(n), "]".repeat(n));
        assert!(Target::parse(&filters(MOST_NESTED_FILTERS - 1)).is_ok(), "{MOST_NESTED_FILTERS} filters are allowed");
        let error = Target::parse(&filters(MOST_NESTED_FILTERS)).err().expect("refused");
        assert!(error.contains(&format!("filters nest more than {MOST_NESTED_FILTERS} deep")), "{error}");
        assert!(
            Target::parse(&format!("$[?{}@]", "@[?@] && ".repeat(100))).is_ok(),
            "filters side by side are not nested"
        );
    }

    #[test]
    fn the_bound_covers_what_a_query_does() {
        // Each selected node carries its location: the bound is at least the steps written.
        let queries =
            ["$.paths.*", "$..*", "$..*..*", "$..x[0,0,0]", "$..[?@.x]", "$..[?@..y]", "$.x[?@[?@.y]]", "$.y[*][-1:]"];
        let mut doc = json!(1);
        for _ in 0..8 {
            doc = json!({"x": doc, "y": [doc.clone(), 2], "paths": {"a": 1, "b": 2}});
            let shape = Shape::of(&doc);
            for query in queries {
                let target = Target::parse(query).unwrap();
                let written: usize = target.locate(&doc).iter().map(|path| path.len() + 1).sum();
                let bound = target.cost(shape);
                assert!(written as f64 <= bound, "{query} on {} nodes: wrote {written}, bound {bound}", shape.nodes);
            }
        }
    }
}
