//! Strings that match a regular expression, for sampling schemas with a `pattern`.
//!
//! Handles the part of ECMA-262 syntax that schemas use in practice: literals, escapes, classes,
//! groups, alternation and quantifiers. Anchors and look-arounds generate nothing. The caller
//! checks every string it gets against the real pattern, so a construct read loosely here costs a
//! warning, never a wrong sample.

/// One piece of a parsed pattern.
#[derive(Debug, Clone)]
enum Node {
    /// Any of the listed inclusive ranges, or, negated, any character outside them.
    Class { ranges: Vec<(char, char)>, negated: bool },
    /// One of several sequences.
    Alt(Vec<Vec<Node>>),
    /// `node` at least `min` times, at most `max` (unbounded when `None`).
    Repeat { node: Box<Node>, min: u32, max: Option<u32> },
    /// Generates nothing: an anchor, a word boundary, a look-around.
    Empty,
}

/// A string the pattern `source` matches, repeating each open-ended quantifier `extra` times
/// more than its minimum and taking alternative `choice` (modulo their number) at each
/// alternation; `None` when the pattern uses syntax this reader does not know.
pub fn generate(source: &str, extra: u32, choice: usize) -> Option<String> {
    let mut parser = Parser { chars: source.chars().collect(), at: 0 };
    let tree = parser.alternation()?;
    if parser.at != parser.chars.len() {
        return None;
    }
    let mut out = String::new();
    emit(&tree, extra, choice, &mut out);
    Some(out)
}

fn emit(node: &Node, extra: u32, choice: usize, out: &mut String) {
    match node {
        Node::Class { ranges, negated: false } => out.push(ranges.first().map_or('a', |r| r.0)),
        Node::Class { ranges, negated: true } => {
            let inside = |c: char| ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c));
            let candidates = ('a'..='z').chain('A'..='Z').chain('0'..='9').chain(['-', '_', '.', ' ', '~']);
            out.extend(candidates.into_iter().find(|c| !inside(*c)));
        }
        Node::Alt(branches) => {
            if let Some(branch) = branches.get(choice % branches.len().max(1)) {
                branch.iter().for_each(|n| emit(n, extra, choice, out));
            }
        }
        Node::Repeat { node, min, max } => {
            let count = match max {
                Some(max) => (*min + extra).min(*max),
                None => *min + extra,
            };
            (0..count).for_each(|_| emit(node, extra, choice, out));
        }
        Node::Empty => {}
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        let matched = self.peek() == Some(c);
        if matched {
            self.at += 1;
        }
        matched
    }

    fn alternation(&mut self) -> Option<Node> {
        let mut branches = vec![self.sequence()?];
        while self.eat('|') {
            branches.push(self.sequence()?);
        }
        Some(Node::Alt(branches))
    }

    fn sequence(&mut self) -> Option<Vec<Node>> {
        let mut nodes = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            nodes.push(self.quantified(atom)?);
        }
        Some(nodes)
    }

    fn quantified(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.peek() {
            Some('?') => (0, Some(1)),
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('{') if self.counted().is_some() => {
                let (min, max, width) = self.counted()?;
                self.at += width;
                let node = Node::Repeat { node: Box::new(atom), min, max };
                // A lazy or possessive suffix changes how a matcher searches, not what matches.
                if !self.eat('?') {
                    self.eat('+');
                }
                return Some(node);
            }
            _ => return Some(atom),
        };
        self.at += 1;
        if !self.eat('?') {
            self.eat('+');
        }
        Some(Node::Repeat { node: Box::new(atom), min, max })
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor: the bounds and the characters they take.
    fn counted(&self) -> Option<(u32, Option<u32>, usize)> {
        let rest: String = self.chars[self.at..].iter().take_while(|c| **c != '}').collect();
        let body = rest.strip_prefix('{')?;
        let width = rest.chars().count() + 1;
        if self.chars.get(self.at + width - 1) != Some(&'}') {
            return None;
        }
        let (min, max) = match body.split_once(',') {
            None => {
                let n = body.trim().parse().ok()?;
                (n, Some(n))
            }
            Some((lo, hi)) => {
                let lo = if lo.trim().is_empty() { 0 } else { lo.trim().parse().ok()? };
                let hi = if hi.trim().is_empty() { None } else { Some(hi.trim().parse().ok()?) };
                (lo, hi)
            }
        };
        Some((min, max, width))
    }

    fn atom(&mut self) -> Option<Node> {
        match self.next()? {
            '^' | '$' => Some(Node::Empty),
            '.' => Some(Node::Class { ranges: vec![('a', 'a')], negated: false }),
            '(' => self.group(),
            '[' => self.class(),
            '\\' => self.escape(false),
            c => Some(literal(c)),
        }
    }

    fn group(&mut self) -> Option<Node> {
        let mut generates = true;
        if self.eat('?') {
            match self.next()? {
                ':' => {}
                '=' | '!' => generates = false,
                '<' if matches!(self.peek(), Some('=' | '!')) => {
                    self.at += 1;
                    generates = false;
                }
                '<' | 'P' => {
                    self.eat('<');
                    while self.next()? != '>' {}
                }
                // Inline flags such as `(?i)` or `(?i:...)`.
                _ => {
                    while !matches!(self.peek()?, ')' | ':') {
                        self.at += 1;
                    }
                    if self.eat(')') {
                        return Some(Node::Empty);
                    }
                    self.at += 1;
                }
            }
        }
        let inner = self.alternation()?;
        if !self.eat(')') {
            return None;
        }
        Some(if generates { inner } else { Node::Empty })
    }

    fn class(&mut self) -> Option<Node> {
        let negated = self.eat('^');
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                match self.escape(true)? {
                    Node::Class { ranges: inner, negated: false } if inner.len() == 1 && inner[0].0 == inner[0].1 => {
                        inner[0].0
                    }
                    Node::Class { ranges: inner, negated: false } => {
                        ranges.extend(inner);
                        continue;
                    }
                    // A negated shorthand (`\D`) inside a class: a letter or a digit stands in.
                    _ => {
                        ranges.push(('a', 'a'));
                        continue;
                    }
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|c| *c != ']') {
                self.at += 1;
                let hi = match self.next()? {
                    '\\' => match self.escape(true)? {
                        Node::Class { ranges: inner, .. } if inner.len() == 1 => inner[0].0,
                        _ => return None,
                    },
                    hi => hi,
                };
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Some(Node::Class { ranges, negated })
    }

    fn escape(&mut self, in_class: bool) -> Option<Node> {
        let c = self.next()?;
        let class = |ranges: Vec<(char, char)>, negated| Some(Node::Class { ranges, negated });
        match c {
            'd' => class(vec![('0', '9')], false),
            'D' => class(vec![('0', '9')], true),
            'w' => class(vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')], false),
            'W' => class(vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')], true),
            's' => class(vec![(' ', ' ')], false),
            'S' => class(vec![(' ', ' '), ('\t', '\r')], true),
            'b' if in_class => Some(literal('\u{8}')),
            'b' | 'B' | 'A' | 'z' | 'Z' => Some(Node::Empty),
            'n' => Some(literal('\n')),
            't' => Some(literal('\t')),
            'r' => Some(literal('\r')),
            'f' => Some(literal('\u{c}')),
            'v' => Some(literal('\u{b}')),
            '0' => Some(literal('\0')),
            'x' => self.hex(2),
            'u' if self.eat('{') => {
                let digits: String = std::iter::from_fn(|| self.next().filter(|c| *c != '}')).collect();
                Some(literal(char::from_u32(u32::from_str_radix(&digits, 16).ok()?)?))
            }
            'u' => self.hex(4),
            'p' | 'P' => {
                // A Unicode property (`\p{L}`): a Latin letter has most of the common ones.
                if self.eat('{') {
                    while self.next()? != '}' {}
                } else {
                    self.next()?;
                }
                class(vec![('a', 'a')], c == 'P')
            }
            c if c.is_ascii_digit() => None,
            c => Some(literal(c)),
        }
    }

    fn hex(&mut self, width: usize) -> Option<Node> {
        let digits: String = (0..width).map(|_| self.next()).collect::<Option<_>>()?;
        Some(literal(char::from_u32(u32::from_str_radix(&digits, 16).ok()?)?))
    }
}

/// A pattern as the Rust regex engine reads it: OpenAPI patterns are ECMA-262 regular
/// expressions, whose `\uXXXX` and `\u{X}` escapes Rust writes `\x{X}`, and whose Unicode
/// property classes (`\p{L}`, `\P{Lu}`) the server's engine, which has no Unicode tables, reads
/// as the ranges of code points they stand for.
pub fn for_rust(pattern: &str) -> std::borrow::Cow<'_, str> {
    if !pattern.contains("\\u") && !pattern.contains("\\p") && !pattern.contains("\\P") {
        return pattern.into();
    }
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    // Inside `[...]`, where a property's ranges join the class rather than forming one.
    let mut in_class = false;
    while let Some(c) = chars.next() {
        if c != '\\' {
            match c {
                '[' if !in_class => {
                    in_class = true;
                    out.push(c);
                    // A `]` first in the class (after an optional `^`) is itself.
                    if chars.peek() == Some(&'^') {
                        out.extend(chars.next());
                    }
                    if chars.peek() == Some(&']') {
                        out.extend(chars.next());
                    }
                }
                ']' if in_class => {
                    in_class = false;
                    out.push(c);
                }
                _ => out.push(c),
            }
            continue;
        }
        match chars.next() {
            Some('u') if chars.peek() == Some(&'{') => {
                chars.next();
                let digits: String = chars.by_ref().take_while(|c| *c != '}').collect();
                out.push_str(&format!("\\x{{{digits}}}"));
            }
            Some('u') => {
                let digits: String = chars.by_ref().take(4).collect();
                out.push_str(&format!("\\x{{{digits}}}"));
            }
            Some(p @ ('p' | 'P')) => {
                let name: String = if chars.peek() == Some(&'{') {
                    chars.next();
                    chars.by_ref().take_while(|c| *c != '}').collect()
                } else {
                    chars.next().map(String::from).unwrap_or_default()
                };
                match property_ranges(p, &name) {
                    Some(ranges) if in_class => out.push_str(&ranges),
                    Some(ranges) => out.push_str(&format!("[{ranges}]")),
                    // Left as written: the engine says why it cannot read it.
                    None => out.push_str(&format!("\\{p}{{{name}}}")),
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out.into()
}

/// The code points of the Unicode property `\p{name}` (or, for `P`, of its complement) as the
/// inside of a character class: `\x{41}-\x{5A}\x{61}-\x{7A}…`.
fn property_ranges(p: char, name: &str) -> Option<String> {
    use regex_syntax::hir::{Class, HirKind};
    // ECMA-262 names a property's value after `=` as Rust does, and accepts `General_Category=`.
    let name = name.strip_prefix("General_Category=").or_else(|| name.strip_prefix("gc=")).unwrap_or(name);
    let hir = regex_syntax::Parser::new().parse(&format!("\\{p}{{{name}}}")).ok()?;
    let HirKind::Class(Class::Unicode(class)) = hir.kind() else { return None };
    let mut out = String::new();
    for range in class.iter() {
        let (start, end) = (range.start() as u32, range.end() as u32);
        out.push_str(&format!("\\x{{{start:X}}}"));
        if end != start {
            out.push_str(&format!("-\\x{{{end:X}}}"));
        }
    }
    Some(out)
}

fn literal(c: char) -> Node {
    Node::Class { ranges: vec![(c, c)], negated: false }
}

#[cfg(test)]
mod tests {
    use super::{for_rust, generate};

    #[test]
    fn ecma_unicode_escapes_become_rust_ones() {
        assert_eq!(for_rust(r"^[a-z\u00C0-\u00D6]+$"), r"^[a-z\x{00C0}-\x{00D6}]+$");
        assert_eq!(for_rust(r"\u{1F600}|\\u"), r"\x{1F600}|\\u");
        assert!(regex_lite::Regex::new(&for_rust(r"^[\u00C0-\u00D6]$")).unwrap().is_match("Ö"));
    }

    #[test]
    fn unicode_properties_become_the_ranges_they_stand_for() {
        let names = regex_lite::Regex::new(&for_rust(r"^[\p{L}]+([ '-][\p{L}]+){0,2}\.?$")).unwrap();
        for (name, fits) in [("George", true), ("Zoë O'Brien", true), ("Łukasz", true), ("0", false), ("a1", false)] {
            assert_eq!(names.is_match(name), fits, "{name}");
        }
        let not_upper = regex_lite::Regex::new(&for_rust(r"^\P{Lu}+$")).unwrap();
        assert!(not_upper.is_match("abc1") && !not_upper.is_match("aBc"));
        let mixed = regex_lite::Regex::new(&for_rust(r"^[^\pN\]_]$")).unwrap();
        assert!(mixed.is_match("x") && !mixed.is_match("٣") && !mixed.is_match("]") && !mixed.is_match("_"));
        // A property the tables do not know stays as written, for the engine to refuse.
        assert_eq!(for_rust(r"\p{Nonsense}"), r"\p{Nonsense}");
    }

    fn matches(pattern: &str, text: &str) -> bool {
        regex_lite::Regex::new(pattern).unwrap().is_match(text)
    }

    #[test]
    fn generated_strings_match_their_patterns() {
        for pattern in [
            r"^[A-Z]{3}$",
            r"^\d{4}-\d{2}-\d{2}$",
            r"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$",
            r"^(GBP|EUR|USD)$",
            r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
            r"^[^\s]+$",
            r"^\+?[1-9]\d{1,14}$",
            r"^(?<area>\d{3})-\d{4}$",
            r"^[\w\-\.]+$",
        ] {
            let text = generate(pattern, 1, 0).unwrap_or_else(|| panic!("{pattern} is read"));
            assert!(matches(pattern, &text), "{pattern} matches {text:?}");
        }
    }

    #[test]
    fn a_unicode_property_stands_for_a_latin_letter() {
        assert_eq!(generate(r"^\p{L}+$", 1, 0).unwrap(), "aa");
    }

    #[test]
    fn extra_repeats_lengthen_open_ended_quantifiers_only() {
        assert_eq!(generate("a+b{2}", 0, 0).unwrap(), "abb");
        assert_eq!(generate("a+b{2}", 3, 0).unwrap(), "aaaabb");
        assert_eq!(generate("a{1,2}", 5, 0).unwrap(), "aa");
    }

    #[test]
    fn unknown_syntax_is_none_not_a_guess() {
        assert_eq!(generate(r"(a)\1", 0, 0), None);
        assert_eq!(generate("(unclosed", 0, 0), None);
    }
}
