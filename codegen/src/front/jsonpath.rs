//! JSONPath (RFC 9535) queries, as overlays' targets are written: child and descendant segments;
//! name, wildcard, index, slice and filter selectors; filters with comparisons, existence tests,
//! `!`, `&&`, `||` and parentheses. Function extensions (`length()`, `match()`…) are refused by
//! name. A query answers with the locations of the nodes it selects, so they can be changed.

use std::collections::HashSet;
use std::fmt;
use std::rc::Rc;

use serde_json::Value;

/// A parsed query.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    segments: Vec<Segment>,
}

/// The work queries may do: a node visited or a filter tested is a step. A bound on what a
/// query (nested descendant filters cost the document's size to the power of their depth) can
/// make the generator do.
#[derive(Debug)]
pub struct Steps {
    left: std::cell::Cell<u64>,
    exhausted: std::cell::Cell<bool>,
}

impl Steps {
    pub fn new(most: u64) -> Steps {
        Steps { left: std::cell::Cell::new(most), exhausted: std::cell::Cell::new(false) }
    }

    /// Takes one step; `false` once there are none left.
    fn spend(&self) -> bool {
        match self.left.get().checked_sub(1) {
            Some(left) => {
                self.left.set(left);
                true
            }
            None => {
                self.exhausted.set(true);
                false
            }
        }
    }

    pub fn exhausted(&self) -> bool {
        self.exhausted.get()
    }
}

/// One step of a node's location: a member's name or an element's index.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Why a query does not parse, with the character (0-based) where reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub at: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at + 1, self.message)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Child(Vec<Selector>),
    Descendant(Vec<Selector>),
}

#[derive(Debug, Clone, PartialEq)]
enum Selector {
    Name(String),
    Wildcard,
    Index(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Filter(Expr),
}

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Or(Vec<Expr>),
    And(Vec<Expr>),
    Not(Box<Expr>),
    /// A query selecting at least one node (`@.tags`, `$.info`).
    Exists(Relative, Query),
    Compare(Comparable, Op, Comparable),
}

/// Whether a query in a filter starts at the current node (`@`) or the root (`$`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Relative {
    Current,
    Root,
}

#[derive(Debug, Clone, PartialEq)]
enum Comparable {
    Literal(Value),
    Query(Relative, Query),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Query {
    /// Parses `text`, which starts with `$`.
    pub fn parse(text: &str) -> Result<Query, ParseError> {
        let mut parser = Parser { chars: text.chars().collect(), at: 0, depth: 0 };
        parser.blank();
        parser.expect('$')?;
        let query = parser.segments()?;
        parser.blank();
        if parser.at < parser.chars.len() {
            return Err(parser.error("unexpected text after the query"));
        }
        Ok(query)
    }

    /// The locations of the nodes the query selects in `root`, in document order, each once; or
    /// `None` when finding them would take more than `steps` has left.
    pub fn locate(&self, root: &Value, steps: &Steps) -> Option<Vec<Vec<Step>>> {
        let found = self.select(root, root, steps);
        (!steps.exhausted()).then(|| found.into_iter().map(|(_, at)| path_of(&at)).collect())
    }

    fn select<'v>(&self, start: &'v Value, root: &'v Value, steps: &Steps) -> Vec<(&'v Value, Loc<'v>)> {
        let mut nodes = vec![(start, None)];
        for segment in &self.segments {
            let mut next = Vec::new();
            for (node, at) in nodes {
                if !steps.spend() {
                    return Vec::new();
                }
                match segment {
                    Segment::Child(selectors) => apply(selectors, node, &at, root, &mut next, steps),
                    Segment::Descendant(selectors) => {
                        let mut stack = vec![(node, at)];
                        // Pre-order: a node, then its children in order.
                        while let Some((node, at)) = stack.pop() {
                            if !steps.spend() {
                                return Vec::new();
                            }
                            apply(selectors, node, &at, root, &mut next, steps);
                            let mut children = children(node, &at);
                            children.reverse();
                            stack.extend(children);
                        }
                    }
                }
            }
            // Each node once per segment, so chained descendant segments (`$..*..*`) stay
            // bounded by the document's size instead of multiplying. A node is where it is in
            // memory: one location, one address.
            let mut seen = HashSet::new();
            next.retain(|(node, _)| seen.insert(std::ptr::from_ref(*node)));
            nodes = next;
        }
        nodes
    }
}

/// Where a node stands: the step from its parent, and the parent's location (`None` for the
/// node a query starts from). Shared, so a child's location costs one link, whatever its depth.
type Loc<'v> = Option<Rc<Link<'v>>>;

struct Link<'v> {
    parent: Loc<'v>,
    step: StepRef<'v>,
}

/// A [`Step`] borrowing the document's key.
#[derive(Clone, Copy)]
enum StepRef<'v> {
    Key(&'v str),
    Index(usize),
}

fn at<'v>(parent: &Loc<'v>, step: StepRef<'v>) -> Loc<'v> {
    Some(Rc::new(Link { parent: parent.clone(), step }))
}

/// The steps from the start to `loc`.
fn path_of(loc: &Loc<'_>) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut link = loc.as_deref();
    while let Some(Link { parent, step }) = link {
        steps.push(match step {
            StepRef::Key(key) => Step::Key(key.to_string()),
            StepRef::Index(i) => Step::Index(*i),
        });
        link = parent.as_deref();
    }
    steps.reverse();
    steps
}

/// The members or elements of `node`, with their locations.
fn children<'v>(node: &'v Value, loc: &Loc<'v>) -> Vec<(&'v Value, Loc<'v>)> {
    match node {
        Value::Object(map) => map.iter().map(|(k, v)| (v, at(loc, StepRef::Key(k)))).collect(),
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (v, at(loc, StepRef::Index(i)))).collect(),
        _ => Vec::new(),
    }
}

fn apply<'v>(
    selectors: &[Selector],
    node: &'v Value,
    loc: &Loc<'v>,
    root: &'v Value,
    out: &mut Vec<(&'v Value, Loc<'v>)>,
    steps: &Steps,
) {
    for selector in selectors {
        match (selector, node) {
            (Selector::Name(name), Value::Object(map)) => {
                if let Some((key, child)) = map.get_key_value(name) {
                    out.push((child, at(loc, StepRef::Key(key))));
                }
            }
            (Selector::Wildcard, _) => out.extend(children(node, loc)),
            (Selector::Index(index), Value::Array(items)) => {
                let len = items.len() as i64;
                let index = if *index < 0 { len + index } else { *index };
                if (0..len).contains(&index) {
                    out.push((&items[index as usize], at(loc, StepRef::Index(index as usize))));
                }
            }
            (Selector::Slice(start, end, step), Value::Array(items)) => {
                for index in slice(items.len() as i64, *start, *end, step.unwrap_or(1)) {
                    out.push((&items[index], at(loc, StepRef::Index(index))));
                }
            }
            (Selector::Filter(expr), Value::Object(_) | Value::Array(_)) => {
                for (child, loc) in children(node, loc) {
                    if steps.spend() && expr.holds(child, root, steps) {
                        out.push((child, loc));
                    }
                }
            }
            _ => {}
        }
    }
}

/// The indices a slice selects from an array of `len` elements, in the order it selects them.
fn slice(len: i64, start: Option<i64>, end: Option<i64>, step: i64) -> Vec<usize> {
    let normal = |i: i64| if i < 0 { len + i } else { i };
    let mut out = Vec::new();
    if step > 0 {
        let lower = normal(start.unwrap_or(0)).clamp(0, len);
        let upper = normal(end.unwrap_or(len)).clamp(0, len);
        let mut i = lower;
        while i < upper {
            out.push(i as usize);
            let Some(next) = i.checked_add(step) else { break };
            i = next;
        }
    } else if step < 0 {
        let upper = normal(start.unwrap_or(len - 1)).clamp(-1, len - 1);
        let lower = end.map_or(-1, |e| normal(e).clamp(-1, len - 1));
        let mut i = upper;
        while lower < i {
            out.push(i as usize);
            let Some(next) = i.checked_add(step) else { break };
            i = next;
        }
    }
    out
}

impl Expr {
    fn holds(&self, current: &Value, root: &Value, steps: &Steps) -> bool {
        match self {
            Expr::Or(all) => all.iter().any(|e| e.holds(current, root, steps)),
            Expr::And(all) => all.iter().all(|e| e.holds(current, root, steps)),
            Expr::Not(inner) => !inner.holds(current, root, steps),
            Expr::Exists(relative, query) => !query.select(start(*relative, current, root), root, steps).is_empty(),
            Expr::Compare(left, op, right) => {
                let (left, right) = (left.value(current, root, steps), right.value(current, root, steps));
                match op {
                    Op::Eq => equal(left, right),
                    Op::Ne => !equal(left, right),
                    Op::Lt => less(left, right),
                    Op::Le => less(left, right) || equal(left, right),
                    Op::Gt => less(right, left),
                    Op::Ge => less(right, left) || equal(left, right),
                }
            }
        }
    }
}

fn start<'v>(relative: Relative, current: &'v Value, root: &'v Value) -> &'v Value {
    match relative {
        Relative::Current => current,
        Relative::Root => root,
    }
}

impl Comparable {
    /// The value compared: a literal, or the one node a query selects (none when it selects
    /// none or several).
    fn value<'v>(&'v self, current: &'v Value, root: &'v Value, steps: &Steps) -> Option<&'v Value> {
        match self {
            Comparable::Literal(value) => Some(value),
            Comparable::Query(relative, query) => {
                match query.select(start(*relative, current, root), root, steps).as_slice() {
                    [(value, _)] => Some(value),
                    _ => None,
                }
            }
        }
    }
}

fn equal(left: Option<&Value>, right: Option<&Value>) -> bool {
    match (left, right) {
        (None, None) => true,
        (Some(Value::Number(a)), Some(Value::Number(b))) => a.as_f64() == b.as_f64(),
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn less(left: Option<&Value>, right: Option<&Value>) -> bool {
    match (left, right) {
        (Some(Value::Number(a)), Some(Value::Number(b))) => a.as_f64() < b.as_f64(),
        (Some(Value::String(a)), Some(Value::String(b))) => a < b,
        _ => false,
    }
}

/// How deeply filters, `!` and parentheses may nest; the parser recurses once per level.
const MOST_NESTED: usize = 64;

/// The largest integer an index or slice may hold (RFC 9535's I-JSON range).
const MOST_INTEGER: i64 = (1 << 53) - 1;

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError { at: self.at, message: message.into() }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn looking_at(&self, text: &str) -> bool {
        text.chars().enumerate().all(|(i, c)| self.chars.get(self.at + i) == Some(&c))
    }

    fn eat(&mut self, text: &str) -> bool {
        let found = self.looking_at(text);
        if found {
            self.at += text.chars().count();
        }
        found
    }

    /// Parses one more level of nesting with `inner`, refusing past [`MOST_NESTED`].
    fn nested<T>(&mut self, inner: impl FnOnce(&mut Self) -> Result<T, ParseError>) -> Result<T, ParseError> {
        if self.depth == MOST_NESTED {
            return Err(self.error(format!("filters nest more than {MOST_NESTED} deep")));
        }
        self.depth += 1;
        let result = inner(self);
        self.depth -= 1;
        result
    }

    fn expect(&mut self, c: char) -> Result<(), ParseError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(format!("expected `{c}`")))
        }
    }

    fn blank(&mut self) {
        while self.peek().is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) {
            self.at += 1;
        }
    }

    /// Segments up to the end of the query or of an enclosing filter's operand.
    fn segments(&mut self) -> Result<Query, ParseError> {
        let mut segments = Vec::new();
        loop {
            let before = self.at;
            self.blank();
            if self.eat("..") {
                segments.push(Segment::Descendant(match self.peek() {
                    Some('[') => self.bracketed()?,
                    Some('*') => {
                        self.at += 1;
                        vec![Selector::Wildcard]
                    }
                    _ => vec![Selector::Name(self.shorthand()?)],
                }));
            } else if self.eat(".") {
                segments.push(Segment::Child(match self.peek() {
                    Some('*') => {
                        self.at += 1;
                        vec![Selector::Wildcard]
                    }
                    _ => vec![Selector::Name(self.shorthand()?)],
                }));
            } else if self.peek() == Some('[') {
                segments.push(Segment::Child(self.bracketed()?));
            } else {
                self.at = before;
                return Ok(Query { segments });
            }
        }
    }

    /// A member name written after `.`: a letter, `_` or non-ASCII, then digits too.
    fn shorthand(&mut self) -> Result<String, ParseError> {
        let first = |c: char| c.is_ascii_alphabetic() || c == '_' || !c.is_ascii();
        let start = self.at;
        if !self.peek().is_some_and(first) {
            let hint = match self.peek() {
                Some('/') => "; a path is selected with brackets: `$.paths['/pets']`",
                _ => "",
            };
            return Err(self.error(format!("expected a member name{hint}")));
        }
        while self.peek().is_some_and(|c| first(c) || c.is_ascii_digit() || c == '-') {
            self.at += 1;
        }
        Ok(self.chars[start..self.at].iter().collect())
    }

    fn bracketed(&mut self) -> Result<Vec<Selector>, ParseError> {
        self.expect('[')?;
        let mut selectors = Vec::new();
        loop {
            self.blank();
            selectors.push(self.selector()?);
            self.blank();
            if self.eat(",") {
                continue;
            }
            self.expect(']')?;
            return Ok(selectors);
        }
    }

    fn selector(&mut self) -> Result<Selector, ParseError> {
        match self.peek() {
            Some('\'' | '"') => Ok(Selector::Name(self.string()?)),
            Some('*') => {
                self.at += 1;
                Ok(Selector::Wildcard)
            }
            Some('?') => {
                self.at += 1;
                self.blank();
                Ok(Selector::Filter(self.nested(Self::or)?))
            }
            _ => {
                let start = self.integer()?;
                self.blank();
                if !self.eat(":") {
                    return start.map(Selector::Index).ok_or_else(|| self.error("expected a selector"));
                }
                self.blank();
                let end = self.integer()?;
                self.blank();
                let step = if self.eat(":") {
                    self.blank();
                    self.integer()?
                } else {
                    None
                };
                Ok(Selector::Slice(start, end, step))
            }
        }
    }

    fn integer(&mut self) -> Result<Option<i64>, ParseError> {
        let start = self.at;
        self.eat("-");
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        match text.as_str() {
            "" => Ok(None),
            "-" => Err(self.error("expected digits after `-`")),
            _ => match text.parse::<i64>() {
                Ok(n) if n.unsigned_abs() <= MOST_INTEGER as u64 => Ok(Some(n)),
                _ => Err(self.error(format!("the integer is beyond ±{MOST_INTEGER}"))),
            },
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let quote = self.peek().unwrap_or('\'');
        self.at += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error("the string is not closed")),
                Some(c) if c == quote => {
                    self.at += 1;
                    return Ok(out);
                }
                Some('\\') => {
                    self.at += 1;
                    let escaped = match self.peek() {
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => {
                            let hex: String = self.chars.iter().skip(self.at + 1).take(4).collect();
                            let code =
                                u32::from_str_radix(&hex, 16).map_err(|_| self.error("expected four hex digits"))?;
                            self.at += 4;
                            char::from_u32(code).ok_or_else(|| self.error("not a character"))?
                        }
                        Some(c @ ('\'' | '"' | '\\' | '/')) => c,
                        _ => return Err(self.error("unknown escape")),
                    };
                    out.push(escaped);
                    self.at += 1;
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn or(&mut self) -> Result<Expr, ParseError> {
        let mut all = vec![self.and()?];
        loop {
            self.blank();
            if !self.eat("||") {
                break;
            }
            self.blank();
            all.push(self.and()?);
        }
        Ok(if all.len() == 1 { all.remove(0) } else { Expr::Or(all) })
    }

    fn and(&mut self) -> Result<Expr, ParseError> {
        let mut all = vec![self.basic()?];
        loop {
            self.blank();
            if !self.eat("&&") {
                break;
            }
            self.blank();
            all.push(self.basic()?);
        }
        Ok(if all.len() == 1 { all.remove(0) } else { Expr::And(all) })
    }

    fn basic(&mut self) -> Result<Expr, ParseError> {
        if self.eat("!") {
            self.blank();
            return Ok(Expr::Not(Box::new(self.nested(Self::basic)?)));
        }
        if self.eat("(") {
            self.blank();
            let inner = self.nested(Self::or)?;
            self.blank();
            self.expect(')')?;
            return Ok(inner);
        }
        let left = self.comparable()?;
        self.blank();
        let op = [("==", Op::Eq), ("!=", Op::Ne), ("<=", Op::Le), (">=", Op::Ge), ("<", Op::Lt), (">", Op::Gt)]
            .into_iter()
            .find(|(text, _)| self.eat(text))
            .map(|(_, op)| op);
        match (op, left) {
            (Some(op), left) => {
                self.blank();
                Ok(Expr::Compare(left, op, self.comparable()?))
            }
            (None, Comparable::Query(relative, query)) => Ok(Expr::Exists(relative, query)),
            (None, Comparable::Literal(_)) => Err(self.error("a literal alone is no test; compare it")),
        }
    }

    fn comparable(&mut self) -> Result<Comparable, ParseError> {
        let relative = match self.peek() {
            Some('@') => Some(Relative::Current),
            Some('$') => Some(Relative::Root),
            _ => None,
        };
        if let Some(relative) = relative {
            self.at += 1;
            return Ok(Comparable::Query(relative, self.segments()?));
        }
        if let Some(c @ ('\'' | '"')) = self.peek() {
            let _ = c;
            return Ok(Comparable::Literal(Value::String(self.string()?)));
        }
        for (word, value) in [("true", Value::Bool(true)), ("false", Value::Bool(false)), ("null", Value::Null)] {
            if self.eat(word) {
                return Ok(Comparable::Literal(value));
            }
        }
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')) {
            self.at += 1;
        }
        let number: String = self.chars[start..self.at].iter().collect();
        if let Ok(value) = serde_json::from_str::<serde_json::Number>(&number) {
            return Ok(Comparable::Literal(Value::Number(value)));
        }
        self.at = start;
        let name: String =
            self.chars[self.at..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == '_').collect();
        if !name.is_empty() && self.chars.get(self.at + name.chars().count()) == Some(&'(') {
            return Err(self.error(format!("the function `{name}()` is not supported in targets")));
        }
        Err(self.error("expected `@`, `$`, a string, a number, `true`, `false` or `null`"))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Query, Step, Steps};

    fn keys(query: &str, doc: &serde_json::Value) -> Vec<String> {
        let query = Query::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
        query
            .locate(doc, &Steps::new(u64::MAX))
            .unwrap()
            .iter()
            .map(|path| {
                path.iter()
                    .map(|s| match s {
                        Step::Key(k) => k.clone(),
                        Step::Index(i) => i.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .collect()
    }

    #[test]
    fn queries_select_what_rfc_9535_says() {
        let doc = json!({
            "paths": {
                "/pets": {"get": {"operationId": "listPets", "tags": ["pets"]}, "post": {"operationId": "addPet"}},
                "/users": {"get": {"operationId": "listUsers", "x-internal": true}}
            },
            "list": [10, 20, 30, 40]
        });
        assert_eq!(keys("$.paths['/pets'].get", &doc), ["paths//pets/get"]);
        assert_eq!(keys("$.paths[\"/users\"]", &doc), ["paths//users"]);
        assert_eq!(keys("$.paths.*.*[?@.operationId == 'addPet']", &doc), Vec::<String>::new());
        assert_eq!(keys("$.paths.*[?@.operationId == 'addPet']", &doc), ["paths//pets/post"]);
        assert_eq!(keys("$.paths.*[?(@['x-internal'] == true)]", &doc), ["paths//users/get"]);
        assert_eq!(keys("$.paths.*[?@.tags && !@['x-internal']]", &doc), ["paths//pets/get"]);
        assert_eq!(keys("$..operationId", &doc).len(), 3);
        assert_eq!(keys("$.list[-1]", &doc), ["list/3"]);
        assert_eq!(keys("$.list[1:3]", &doc), ["list/1", "list/2"]);
        assert_eq!(keys("$.list[::-2]", &doc), ["list/3", "list/1"]);
        assert_eq!(keys("$.list[?@ > 15 && @ <= 30]", &doc), ["list/1", "list/2"]);
        assert_eq!(keys("$.list[0, 0]", &doc), ["list/0"], "a node is selected once");
    }

    #[test]
    fn what_does_not_parse_says_where_and_why() {
        let error = |q: &str| Query::parse(q).unwrap_err().to_string();
        assert!(error("$.paths./pets").contains("`$.paths['/pets']`"), "{}", error("$.paths./pets"));
        assert!(error("paths").contains("expected `$`"));
        assert!(error("$[?length(@) > 1]").contains("`length()` is not supported"));
        assert!(error("$['open").contains("not closed"));
        assert!(error("$.a]").starts_with("at character 4"));
        assert!(error("$.a[9007199254740992]").contains("beyond"));
        assert!(error("$.a[1::-9223372036854775808]").contains("beyond"));
    }

    #[test]
    fn hostile_queries_are_refused_or_bounded() {
        let deep = |open: &str, close: &str| format!("$[?{}@{}]", open.repeat(200_000), close.repeat(200_000));
        for query in [deep("!", ""), deep("(", ")"), deep("@[?", "]")] {
            let error = Query::parse(&query).unwrap_err().to_string();
            assert!(error.contains("nest more than 64"), "{error}");
        }
        assert!(Query::parse(&deep_ok()).is_ok(), "64 levels are allowed");

        let doc = json!({"a": [0, 1, 2, 3]});
        assert_eq!(keys("$.a[1::9007199254740991]", &doc), ["a/1"], "a huge step takes one element");
        assert_eq!(keys("$.a[2::-9007199254740991]", &doc), ["a/2"]);

        // Chained descendants select each node once per segment instead of multiplying.
        let mut chain = json!(1);
        for _ in 0..100 {
            chain = json!({"x": chain});
        }
        assert_eq!(keys("$..*..*..*", &json!({"c": {"d": {"e": {"f": 1}}}})).len(), 2);
        assert_eq!(Query::parse("$..*..*..*..*").unwrap().locate(&chain, &Steps::new(u64::MAX)).unwrap().len(), 97);
    }

    fn deep_ok() -> String {
        format!("$[?{}@]", "!".repeat(63))
    }
}
