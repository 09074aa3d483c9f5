//! An upper bound on the work of a JSONPath query, read from its text before it runs.
//!
//! The query has parsed, so its text follows RFC 9535's grammar and a scan need only find its
//! segments, selectors and the queries inside filters. What the bound follows, per segment:
//!
//! - a name or index selects at most one child of each node; a wildcard, slice or filter at most
//!   all of them, and the children of different nodes are different nodes;
//! - several selectors may choose one node several times (`[0,0]`), so each node may stand in the
//!   list as often as the product of the selectors so far;
//! - a descendant segment visits each node below a set of nodes none of which holds another once,
//!   but below any other set up to once per level of the description;
//! - a filter tests each node it chooses among; a query in it from `@` runs from all of them
//!   together, as a query from that set would (nodes apart from one another share one walk of
//!   the description), and a query from `$` once per node;
//! - every node in a list carries its location, as long as the segments so far.

use super::target::Shape;

/// The running bound while a query's segments are read.
struct Bound {
    /// Nodes in the list so far, counted with repeats.
    list: f64,
    /// How often one node may stand in the list.
    repeats: f64,
    /// Whether no node of the list holds another (true from a single start).
    apart: bool,
    /// How long a location in the list may be, if the query writes locations (queries in
    /// filters do not).
    length: Option<f64>,
    work: f64,
}

/// The nodes a segment's selectors choose among: the children or the descendants of the list.
#[derive(Clone, Copy)]
struct Among {
    /// How many, counted with repeats.
    nodes: f64,
    repeats: f64,
    apart: bool,
    descendants: bool,
}

/// What one segment selects: how many name or index selectors, how many wildcards or slices,
/// and the work of each filter's tests on every node it chooses among.
#[derive(Default)]
struct Selectors {
    singles: f64,
    spreads: f64,
    filters: Vec<f64>,
}

impl Selectors {
    fn count(&self) -> f64 {
        self.singles + self.spreads + self.filters.len() as f64
    }
}

/// `a × b`, with nothing times anything (even an unbounded amount) nothing.
fn times(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 { 0.0 } else { a * b }
}

impl Bound {
    /// From the root, writing the location of each node selected.
    fn start() -> Bound {
        Bound { list: 1.0, repeats: 1.0, apart: true, length: Some(0.0), work: 0.0 }
    }

    /// From each node a filter tests, for its queries from `$`.
    fn root() -> Bound {
        Bound { length: None, ..Bound::start() }
    }

    /// From all the nodes a filter tests, for its queries from `@`.
    fn from(among: Among) -> Bound {
        Bound { list: among.nodes, repeats: among.repeats, apart: among.apart, length: None, work: 0.0 }
    }

    /// The children of the list, or its descendants: a node below a set of nodes none of which
    /// holds another is below one of them, but below any other set below up to one per level.
    fn among(&self, descendants: bool, shape: Shape) -> Among {
        let repeats = if descendants && !self.apart { times(self.repeats, shape.depth + 1.0) } else { self.repeats };
        let nodes = times(self.list, shape.nodes).min(times(shape.nodes, repeats));
        Among { nodes, repeats, apart: self.apart && !descendants, descendants }
    }

    /// A segment's selectors applied to the nodes they choose among, of which a name or index
    /// picks at most one per node of the list (per node visited, below a descendant segment).
    fn segment(&mut self, selectors: &Selectors, among: Among, shape: Shape) {
        let from = if among.descendants {
            self.work += among.nodes;
            self.length = self.length.map(|_| shape.depth + 1.0);
            among.nodes
        } else {
            self.length = self.length.map(|length| length + 1.0);
            self.list
        };
        self.apart = among.apart;
        self.repeats = times(among.repeats, selectors.count());
        let tests: f64 = selectors.filters.iter().sum();
        self.work += times(from, selectors.singles) + times(among.nodes, selectors.spreads) + tests;
        let chosen =
            times(from, selectors.singles) + times(among.nodes, selectors.spreads + selectors.filters.len() as f64);
        self.list = chosen.min(times(shape.nodes, self.repeats));
        self.work += times(self.list, self.length.unwrap_or(0.0));
    }
}

/// The bound for `text`, a query that parses, on a description of `shape`.
pub fn of(text: &str, shape: Shape) -> f64 {
    let mut scan = Scan { chars: text.chars().collect(), at: 0, shape };
    scan.query_from(Bound::start())
}

struct Scan {
    chars: Vec<char>,
    at: usize,
    shape: Shape,
}

impl Scan {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn blank(&mut self) {
        while self.peek().is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) {
            self.at += 1;
        }
    }

    /// The work of the query starting here, from the nodes `bound` starts with.
    fn query_from(&mut self, mut bound: Bound) -> f64 {
        self.at += 1;
        loop {
            let before = self.at;
            self.blank();
            let selectors = match (self.peek(), self.peek_at(1)) {
                (Some('.'), Some('.')) => {
                    self.at += 2;
                    let among = bound.among(true, self.shape);
                    (self.after_dot(among), among)
                }
                (Some('.'), _) => {
                    self.at += 1;
                    let among = bound.among(false, self.shape);
                    (self.after_dot(among), among)
                }
                (Some('['), _) => {
                    let among = bound.among(false, self.shape);
                    (self.bracketed(among), among)
                }
                _ => {
                    self.at = before;
                    return bound.work.max(1.0);
                }
            };
            bound.segment(&selectors.0, selectors.1, self.shape);
        }
    }

    /// What follows `.` or `..`: a wildcard, a bracketed selection or a member's name.
    fn after_dot(&mut self, among: Among) -> Selectors {
        match self.peek() {
            Some('*') => {
                self.at += 1;
                Selectors { spreads: 1.0, ..Selectors::default() }
            }
            Some('[') => self.bracketed(among),
            _ => {
                while self.peek().is_some_and(|c| c == '_' || c.is_alphanumeric() || !c.is_ascii()) {
                    self.at += 1;
                }
                Selectors { singles: 1.0, ..Selectors::default() }
            }
        }
    }

    /// A bracketed selection, from `[` to its `]`.
    fn bracketed(&mut self, among: Among) -> Selectors {
        self.at += 1;
        let mut selectors = Selectors::default();
        loop {
            self.blank();
            match self.peek() {
                Some('\'' | '"') => {
                    self.string();
                    selectors.singles += 1.0;
                }
                Some('*') => {
                    self.at += 1;
                    selectors.spreads += 1.0;
                }
                Some('?') => {
                    self.at += 1;
                    let tests = self.filter(among);
                    selectors.filters.push(tests);
                }
                Some(_) => {
                    let mut slice = false;
                    while let Some(c) = self.peek().filter(|c| !matches!(c, ',' | ']')) {
                        slice |= c == ':';
                        self.at += 1;
                    }
                    if slice {
                        selectors.spreads += 1.0;
                    } else {
                        selectors.singles += 1.0;
                    }
                }
                None => return selectors,
            }
            self.blank();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(']') => {
                    self.at += 1;
                    return selectors;
                }
                // Not reached for a query that parses; ends the scan rather than loop.
                _ => return selectors,
            }
        }
    }

    /// A filter's expression up to the `,` or `]` that ends its selector: the work of testing
    /// every node it chooses among, one step each plus the work of every query in it.
    fn filter(&mut self, among: Among) -> f64 {
        let mut tests = among.nodes;
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                '\'' | '"' => self.string(),
                '@' => tests += self.query_from(Bound::from(among)),
                '$' => tests += times(among.nodes, self.query_from(Bound::root())),
                '(' => {
                    depth += 1;
                    self.at += 1;
                }
                ')' => {
                    depth = depth.saturating_sub(1);
                    self.at += 1;
                }
                ',' | ']' if depth == 0 => break,
                _ => self.at += 1,
            }
        }
        tests
    }

    /// A string literal, quotes and escapes included.
    fn string(&mut self) {
        let Some(quote) = self.peek() else { return };
        self.at += 1;
        while let Some(c) = self.peek() {
            self.at += if c == '\\' { 2 } else { 1 };
            if c == quote {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Shape, of};

    const SHAPE: Shape = Shape { nodes: 1000.0, depth: 10.0 };

    #[test]
    fn names_cost_what_they_walk_and_spreads_what_they_may_select() {
        assert!(of("$.paths['/a'].get", SHAPE) < 10.0);
        // Spreads reach each node at most once, however many follow: the bound grows with the
        // description, not with its square.
        assert!(of("$.paths.*.*", SHAPE) <= 8.0 * SHAPE.nodes, "{}", of("$.paths.*.*", SHAPE));
        let filtered = of("$..[?@.operationId == 'x']", SHAPE);
        assert!(filtered > SHAPE.nodes && filtered < 20.0 * SHAPE.nodes, "{filtered}");
    }

    #[test]
    fn nested_descendant_filters_and_repeated_selectors_multiply() {
        // Below every node, each node is visited once per level above it.
        let levels = SHAPE.depth + 1.0;
        let one = of("$..[?@..x]", SHAPE);
        let two = of("$..[?@..[?@..x]]", SHAPE);
        assert!(one > SHAPE.nodes * levels && two > SHAPE.nodes * levels * levels, "{one} {two}");
        // Below nodes none of which holds another, each node is visited once.
        let apart = of("$.paths.*[?@..x]", SHAPE);
        assert!(apart < 10.0 * SHAPE.nodes, "{apart}");
        // From the root, a filter's query runs once per node tested.
        assert!(of("$.paths.*[?$..x]", SHAPE) > SHAPE.nodes * SHAPE.nodes);
        let repeated = of("$.a[0,0][0,0][0,0][0,0][0,0][0,0][0,0][0,0][0,0][0,0]", SHAPE);
        assert!(repeated >= 1024.0, "{repeated}");
        assert!(of("$..*..*..*", SHAPE) > of("$..*", SHAPE) * SHAPE.depth);
    }

    #[test]
    fn text_inside_strings_is_not_read_as_query() {
        assert_eq!(of("$['..[?@..*]']", SHAPE), of("$['a']", SHAPE));
        assert_eq!(of("$[?@.a == 'it\\'s $..*']", SHAPE), of("$[?@.a == 'x']", SHAPE));
    }
}
