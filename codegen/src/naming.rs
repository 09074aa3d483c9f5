//! Rust names for OpenAPI names: decided once, during lowering, and never recomputed.
//!
//! Wire names stay as they are on the wire (serde renames carry them); Rust names are derived with
//! `heck`, made valid identifiers, and de-duplicated in the order the spec declares things, so
//! adding a schema at the end never renames an existing one. A name that is a keyword stays bare
//! (`type`); the emitters write it as a raw identifier (`r#type`) through [`is_keyword`].

use std::collections::BTreeSet;

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Keywords of Rust 2024, strict and reserved: written as raw identifiers (`r#type`) in code.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move",
    "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait", "true", "try", "type", "typeof",
    "union", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers: they get a trailing underscore instead.
const NOT_RAW: &[&str] = &["crate", "self", "super", "Self", "_"];

/// A snake_case identifier for a field, parameter or function, e.g. `AccountId` → `account_id`,
/// `type` → `type` (written `r#type`), `self` → `self_`, `1st` → `n1st`, `""` → `empty`.
pub fn snake(wire: &str) -> String {
    let name = ident_body(&wire.to_snake_case(), "n");
    if name.is_empty() { "empty".to_string() } else { escape(name) }
}

/// An UpperCamelCase identifier for a type or variant, e.g. `ChildAccountAU` → `ChildAccountAu`,
/// `in-progress` → `InProgress`, `""` → `Empty`, `1` → `V1`, `self` → `SelfValue` (an underscore
/// would not be UpperCamelCase).
pub fn camel(wire: &str) -> String {
    let name = ident_body(&wire.to_upper_camel_case(), "V");
    match name.as_str() {
        "" => "Empty".to_string(),
        "Self" => "SelfValue".to_string(),
        _ => escape(name),
    }
}

/// Keeps only identifier characters, with no underscore doubled or at either end where others
/// were dropped (`test/댓글` → `test`), and makes sure the result does not start with a digit.
fn ident_body(name: &str, digit_prefix: &str) -> String {
    let kept: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let cleaned = kept.split('_').filter(|part| !part.is_empty()).collect::<Vec<_>>().join("_");
    match cleaned.chars().next() {
        Some(c) if c.is_ascii_digit() => format!("{digit_prefix}{cleaned}"),
        _ => cleaned,
    }
}

/// Keywords that cannot be raw identifiers get a trailing underscore; the others stay as they are.
fn escape(name: String) -> String {
    if NOT_RAW.contains(&name.as_str()) { format!("{name}_") } else { name }
}

/// Whether Windows reads a file or directory named `stem` (with any extension) as a device, so
/// that a checkout there could not hold it: `con`, `aux`, `nul`, `com1`, ….
pub fn is_device_name(stem: &str) -> bool {
    let numbered =
        |prefix: &str| stem.len() == 4 && stem[..3].eq_ignore_ascii_case(prefix) && stem.as_bytes()[3].is_ascii_digit();
    ["con", "prn", "aux", "nul"].iter().any(|d| d.eq_ignore_ascii_case(stem)) || numbered("com") || numbered("lpt")
}

/// Whether `name` must be written as a raw identifier (`r#type`).
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// The names already taken in one scope (a module, a struct's fields, an enum's variants).
/// `claim` hands out the wanted name, or the first free `name2`, `name3`, … after it.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    taken: BTreeSet<String>,
}

impl Scope {
    /// A scope in which `reserved` names are already taken.
    pub fn with_reserved(reserved: &[&str]) -> Self {
        Scope { taken: reserved.iter().map(|s| s.to_string()).collect() }
    }

    /// Claims `wanted`, or a numbered variant of it when it is taken.
    pub fn claim(&mut self, wanted: &str) -> String {
        let mut name = wanted.to_string();
        let mut n = 2;
        while self.taken.contains(&name) {
            let sep = if wanted.ends_with(|c: char| c.is_ascii_digit()) { "_" } else { "" };
            name = format!("{wanted}{sep}{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    /// Claims the first of `choices` that is free, or a numbered variant of the last.
    pub fn claim_first(&mut self, choices: &[&str]) -> String {
        let free = choices.iter().find(|c| !self.taken.contains(**c));
        self.claim(free.or(choices.last()).copied().unwrap_or_default())
    }
}

/// A name decided during lowering, as Rust source: a keyword (`type`) is written raw (`r#type`).
pub fn rust_ident(name: &str) -> String {
    if is_keyword(name) { format!("r#{name}") } else { name.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_names() {
        assert_eq!(snake("AccountId"), "account_id");
        assert_eq!(snake("accountIds"), "account_ids");
        assert_eq!(snake("GetAUHoldings"), "get_au_holdings");
        assert_eq!(snake("GetPDS"), "get_pds");
        assert_eq!(snake("x-pps-api-version"), "x_pps_api_version");
        assert_eq!(snake("Return1Yr"), "return1_yr");
        assert_eq!(snake(""), "empty", "an empty wire name still needs an identifier");
        assert_eq!(snake("€"), "empty");
        assert_eq!(snake("_"), "empty");
        // Letters outside ASCII are dropped without leaving doubled underscores behind.
        assert_eq!(snake("post-controller-test/포스트를_삭제한다"), "post_controller_test");
        assert_eq!(camel("post-controller-test/포스트를_삭제한다"), "PostControllerTest");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(snake("type"), "type");
        assert_eq!(snake("Type"), "type");
        assert_eq!(snake("match"), "match");
        assert_eq!(snake("self"), "self_");
        assert_eq!(snake("Self"), "self_");
        assert_eq!(camel("self"), "SelfValue");
        assert_eq!(snake("async"), "async");
    }

    #[test]
    fn odd_wire_names_become_identifiers() {
        assert_eq!(snake("1st"), "n1st");
        assert_eq!(snake("a.b"), "a_b");
        assert_eq!(camel("in-progress"), "InProgress");
        assert_eq!(camel("1"), "V1");
        assert_eq!(camel(""), "Empty");
        assert_eq!(camel("ChildAccountAU"), "ChildAccountAu");
        assert_eq!(camel("TransactionIEnumerablePagedResponse"), "TransactionIEnumerablePagedResponse");
        assert_eq!(camel("€"), "Empty");
    }

    #[test]
    fn collisions_get_numbered_in_declaration_order() {
        let mut scope = Scope::default();
        assert_eq!(scope.claim(&snake("AccountId")), "account_id");
        assert_eq!(scope.claim(&snake("accountId")), "account_id2");
        assert_eq!(scope.claim(&snake("account_id")), "account_id3");
        assert_eq!(scope.claim(&snake("type")), "type");
        assert_eq!(scope.claim(&snake("Type")), "type2");
        let mut scope = Scope::default();
        assert_eq!(scope.claim("Value1"), "Value1");
        assert_eq!(scope.claim("Value1"), "Value1_2");
    }

    #[test]
    fn reserved_names_are_never_handed_out() {
        let mut scope = Scope::with_reserved(&["Client", "Error"]);
        assert_eq!(scope.claim("Error"), "Error2");
        assert_eq!(scope.claim("Account"), "Account");
    }
}
