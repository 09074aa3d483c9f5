//! Whether a JSON value is one a schema allows, by the keywords of OpenAPI 3.0's schemas.
//!
//! Generated types hold a value as any JSON where no one Rust type says what the document does (a
//! choice whose members cannot be told apart, keywords of several types, `not`): a server checks
//! such values against the document's own schema here, so that it refuses what the document
//! refuses. The generator checks the document's examples the same way.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::sync::{PoisonError, RwLock};

use serde_json::{Map, Value};

use crate::Format;
use crate::pattern::Pattern;

/// The root key that says how `type: integer` reads a number, and its value for JSON Schema's
/// draft 4 reading. A value read into a Rust float no longer says how it was written, so servers
/// checking their typed values keep the default, whole-value reading.
pub const INTEGERS: &str = "integers";
/// See [`INTEGERS`].
pub const AS_WRITTEN: &str = "as-written";

/// How deep schemas may nest without the value getting smaller (references, `allOf` and choices),
/// before a loop is assumed. Each item and property starts again from nothing: the value, which
/// the parser has bounded, sets how deep those go.
const MAX_DEPTH: usize = 64;

/// How many (schema, value) pairs one check may visit. Choices count every member (`oneOf` must),
/// so nested choices multiply: a schema whose choices refer back to themselves would take time
/// exponential in [`MAX_DEPTH`]. A value that needs more is refused, as too costly to check, rather
/// than holding a server (or the generator, checking an example) for minutes.
const MAX_STEPS: usize = 250_000;

/// How many steps some work on schemas may take: one check, or several that share a bound (the
/// generator samples a value and checks it, attempt after attempt, within one).
#[derive(Debug)]
pub struct Budget {
    spent: Cell<usize>,
    limit: usize,
}

impl Budget {
    /// A budget of `limit` steps.
    pub fn new(limit: usize) -> Self {
        Budget { spent: Cell::new(0), limit }
    }

    /// Counts one step; `false` once more than the limit have been taken.
    pub fn spend(&self) -> bool {
        self.spent.set(self.spent.get() + 1);
        self.spent.get() <= self.limit
    }

    /// Counts `steps` steps at once; `false` once more than the limit have been taken.
    pub fn spend_many(&self, steps: usize) -> bool {
        self.spent.set(self.spent.get().saturating_add(steps));
        self.spent.get() <= self.limit
    }

    /// Whether more steps than the limit have been taken.
    pub fn exhausted(&self) -> bool {
        self.spent.get() > self.limit
    }

    /// The number of steps taken so far.
    pub fn spent(&self) -> usize {
        self.spent.get()
    }

    /// The number of steps allowed.
    pub fn limit(&self) -> usize {
        self.limit
    }
}

/// One check under way: its budget, and the references it is inside of, each with the value it
/// was checking there.
struct Walk<'a> {
    budget: &'a Budget,
    open: RefCell<Vec<(*const Value, *const Value)>>,
}

/// Schemas, and the root their local `$ref`s (`#/components/schemas/Pet`) point into, with each
/// `pattern` compiled once.
pub struct JsonSchemas {
    root: Value,
    /// How a pattern as written is spelled for the regex engine.
    translate: Box<dyn Fn(&str) -> String + Send + Sync>,
    /// Each pattern as written, compiled; `None` where the regex engine cannot read it (it is
    /// then not checked: the generator says so). Those under `root` are compiled up front.
    regexes: RwLock<HashMap<String, Option<Pattern>>>,
    /// How `type: integer` reads a number.
    integers: Integers,
}

/// What counts as an integer, which JSON Schema's drafts answer differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Integers {
    /// Any number whose fraction is zero, `1.0` and `1e3` too (draft 6 on, so OpenAPI 3.1).
    WholeValue,
    /// Only a number written without a fraction or an exponent (draft 4 and Wright's draft 00,
    /// so Swagger 2.0 and OpenAPI 3.0). Chosen by `"integers": "as-written"` at the root.
    AsWritten,
}

impl fmt::Debug for JsonSchemas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonSchemas").field("root", &self.root).finish_non_exhaustive()
    }
}

impl JsonSchemas {
    /// The schemas under `root`, each pattern compiled as `translate` spells it for the regex
    /// engine.
    pub fn new(root: Value, translate: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        let mut patterns = Vec::new();
        collect_patterns(&root, &mut patterns);
        let regexes = patterns
            .into_iter()
            .map(|pattern| {
                let regex = Pattern::new(&translate(&pattern)).ok();
                (pattern, regex)
            })
            .collect();
        let integers = match root.get(INTEGERS).and_then(Value::as_str) {
            Some(AS_WRITTEN) => Integers::AsWritten,
            _ => Integers::WholeValue,
        };
        JsonSchemas { root, translate: Box::new(translate), regexes: RwLock::new(regexes), integers }
    }

    /// The schemas of a JSON document whose patterns are already spelled for the regex engine, as
    /// the generator writes them into a server; text that is not JSON holds none.
    pub fn from_json(text: &str) -> Self {
        Self::new(serde_json::from_str(text).unwrap_or(Value::Null), str::to_string)
    }

    /// The schema a local reference names (`#/components/schemas/Pet`).
    pub fn resolve(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.contains(['~', '%']) {
            return self.root.pointer(&percent_decoded(pointer));
        }
        // Nothing to decode: walked as written, as checks follow references at every step.
        if pointer.is_empty() {
            return Some(&self.root);
        }
        pointer.strip_prefix('/')?.split('/').try_fold(&self.root, |node, key| match node {
            Value::Object(members) => members.get(key),
            Value::Array(items) if key == "0" || !key.starts_with(['0', '+']) => {
                key.parse::<usize>().ok().and_then(|i| items.get(i))
            }
            _ => None,
        })
    }

    /// The compiled `pattern`, when the regex engine reads it.
    pub fn regex(&self, pattern: &str) -> Option<Pattern> {
        let known = self.regexes.read().unwrap_or_else(PoisonError::into_inner).get(pattern).cloned();
        known.unwrap_or_else(|| {
            let regex = Pattern::new(&(self.translate)(pattern)).ok();
            let mut regexes = self.regexes.write().unwrap_or_else(PoisonError::into_inner);
            regexes.entry(pattern.to_string()).or_insert(regex).clone()
        })
    }

    /// `Ok` when the schema at `/checks/{index}` of the root allows `value`, as
    /// [`check`](Self::check) says; an index that names no schema allows anything.
    pub fn check_listed(&self, index: usize, value: &Value) -> Result<(), String> {
        match self.root.get("checks").and_then(|checks| checks.get(index)) {
            Some(schema) => self.check(schema, value),
            None => Ok(()),
        }
    }

    /// `Ok` when `schema` allows `value`, else where in the value (a JSON pointer) and why not.
    pub fn check(&self, schema: &Value, value: &Value) -> Result<(), String> {
        self.check_within(schema, value, &Budget::new(MAX_STEPS))
    }

    /// [`check`](Self::check), taking its steps from `budget`, which other work may share.
    pub fn check_within(&self, schema: &Value, value: &Value, budget: &Budget) -> Result<(), String> {
        let walk = Walk { budget, open: RefCell::new(Vec::new()) };
        let checked = self.check_at(schema, value, "", 0, &walk);
        if budget.exhausted() {
            return Err(format!(
                "the value: takes more than {} steps to check against the schema, whose choices nest too deep; refused as too costly",
                budget.limit()
            ));
        }
        checked
    }

    fn check_at(&self, schema: &Value, value: &Value, at: &str, depth: usize, walk: &Walk) -> Result<(), String> {
        let fail = |why: String| Err(format!("{}: {why}", if at.is_empty() { "the value" } else { at }));
        if !walk.budget.spend() {
            return fail("too costly to check".into());
        }
        if depth > MAX_DEPTH {
            return fail("the schema refers to itself without end".into());
        }
        let Some(schema) = schema.as_object() else { return Ok(()) };
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            // A reference that names nothing allows anything, as the generator reads it (and
            // says so where it is).
            let Some(target) = self.resolve(reference) else { return Ok(()) };
            // Back at a reference for the same value: the schema asks of the value what it is
            // already asking, which no value can settle (a parent whose `oneOf` lists children
            // that each take the parent in `allOf`). Said at once, rather than after every way
            // round the loop up to the depth limit, which choices make exponential.
            let key = (target as *const Value, value as *const Value);
            if walk.open.borrow().contains(&key) {
                return fail(format!("the schema `{reference}` refers to itself for this same value"));
            }
            walk.open.borrow_mut().push(key);
            let checked = self.check_at(target, value, at, depth + 1, walk);
            walk.open.borrow_mut().pop();
            return checked;
        }
        if value.is_null() && schema.get("nullable").and_then(Value::as_bool) == Some(true) {
            return Ok(());
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array)
            && !values.iter().any(|v| same(v, value))
        {
            return fail(format!("{value} is not one of the listed values"));
        }
        if let Some(constant) = schema.get("const")
            && !same(constant, value)
        {
            return fail(format!("{value} is not {constant}"));
        }
        if let Some(ty) = schema.get("type").and_then(Value::as_str)
            && !has_type(value, ty, self.integers)
        {
            return fail(format!("{value} is not of type {ty}"));
        }
        for part in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            self.check_at(part, value, at, depth + 1, walk)?;
        }
        if let Some(choices) = schema.get("anyOf").and_then(Value::as_array)
            && !choices.iter().any(|c| self.check_at(c, value, at, depth + 1, walk).is_ok())
        {
            return fail("matches none of the `anyOf` schemas".into());
        }
        if let Some(choices) = schema.get("oneOf").and_then(Value::as_array) {
            let matching = choices.iter().filter(|c| self.check_at(c, value, at, depth + 1, walk).is_ok()).count();
            if matching != 1 {
                return fail(format!("matches {matching} of the `oneOf` schemas, not exactly one"));
            }
        }
        if let Some(not) = schema.get("not")
            && self.check_at(not, value, at, depth + 1, walk).is_ok()
        {
            return fail("matches the `not` schema".into());
        }
        match value {
            Value::String(text) => self.string(schema, text).or_else(fail),
            Value::Number(n) => number(schema, n.as_f64().unwrap_or(0.0)).or_else(fail),
            Value::Array(items) => self.array(schema, items, at, walk),
            Value::Object(members) => self.object(schema, members, at, walk),
            Value::Bool(_) | Value::Null => Ok(()),
        }
    }

    fn string(&self, schema: &Map<String, Value>, text: &str) -> Result<(), String> {
        let length = text.chars().count() as u64;
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
            && length < min
        {
            return Err(format!("{text:?} is shorter than {min} characters"));
        }
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
            && length > max
        {
            return Err(format!("{text:?} is longer than {max} characters"));
        }
        if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
            && self.regex(pattern).is_some_and(|regex| !regex.is_match(text))
        {
            return Err(format!("{text:?} does not match the pattern {pattern:?}"));
        }
        match schema.get("format").and_then(Value::as_str).and_then(Format::named) {
            Some(format) if !format.matches(text) => Err(format!("{text:?} is not a valid `{}`", format.name())),
            _ => Ok(()),
        }
    }

    fn array(&self, schema: &Map<String, Value>, items: &[Value], at: &str, walk: &Walk) -> Result<(), String> {
        let count = items.len() as u64;
        let here = if at.is_empty() { "the value" } else { at };
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && count < min
        {
            return Err(format!("{here}: has {count} items, fewer than {min}"));
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && count > max
        {
            return Err(format!("{here}: has {count} items, more than {max}"));
        }
        if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            for (i, item) in items.iter().enumerate() {
                if items[..i].iter().any(|earlier| same(earlier, item)) {
                    return Err(format!("{here}: item {i} repeats an earlier item"));
                }
            }
        }
        if let Some(item_schema) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                self.check_at(item_schema, item, &format!("{at}/{i}"), 0, walk)?;
            }
        }
        Ok(())
    }

    fn object(
        &self,
        schema: &Map<String, Value>,
        members: &Map<String, Value>,
        at: &str,
        walk: &Walk,
    ) -> Result<(), String> {
        let here = if at.is_empty() { "the value" } else { at };
        let properties = schema.get("properties").and_then(Value::as_object);
        for name in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            // A read-only property is required in replies, a write-only one in requests; one
            // schema serves both, so neither is asked for.
            let one_way = properties.and_then(|p| p.get(name)).and_then(Value::as_object).is_some_and(|p| {
                ["readOnly", "writeOnly"].iter().any(|k| p.get(*k).and_then(Value::as_bool) == Some(true))
            });
            if !one_way && !members.contains_key(name) {
                return Err(format!("{here}: the required property `{name}` is missing"));
            }
        }
        let count = members.len() as u64;
        if let Some(min) = schema.get("minProperties").and_then(Value::as_u64)
            && count < min
        {
            return Err(format!("{here}: has {count} properties, fewer than {min}"));
        }
        if let Some(max) = schema.get("maxProperties").and_then(Value::as_u64)
            && count > max
        {
            return Err(format!("{here}: has {count} properties, more than {max}"));
        }
        for (name, member) in members {
            let member_at = format!("{at}/{}", name.replace('~', "~0").replace('/', "~1"));
            match (properties.and_then(|p| p.get(name)), schema.get("additionalProperties")) {
                (Some(property), _) => self.check_at(property, member, &member_at, 0, walk)?,
                (None, Some(Value::Bool(false))) => {
                    return Err(format!("{here}: the property `{name}` is not allowed"));
                }
                (None, Some(extra @ Value::Object(_))) => self.check_at(extra, member, &member_at, 0, walk)?,
                (None, _) => {}
            }
        }
        Ok(())
    }
}

/// Every `pattern` string in `value`, at any depth.
fn collect_patterns(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                match member {
                    Value::String(pattern) if key == "pattern" => out.push(pattern.clone()),
                    _ => collect_patterns(member, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_patterns(item, out)),
        _ => {}
    }
}

fn number(schema: &Map<String, Value>, n: f64) -> Result<(), String> {
    let bound = |key| schema.get(key).and_then(Value::as_f64);
    let exclusive = |key| schema.get(key).and_then(Value::as_bool) == Some(true);
    if let Some(min) = bound("minimum")
        && (n < min || (n == min && exclusive("exclusiveMinimum")))
    {
        return Err(format!("{n} is below the minimum {min}"));
    }
    if let Some(max) = bound("maximum")
        && (n > max || (n == max && exclusive("exclusiveMaximum")))
    {
        return Err(format!("{n} is above the maximum {max}"));
    }
    if let Some(step) = bound("multipleOf").filter(|s| *s > 0.0) {
        let ratio = n / step;
        if (ratio - ratio.round()).abs() > 1e-9 * ratio.abs().max(1.0) {
            return Err(format!("{n} is not a multiple of {step}"));
        }
    }
    Ok(())
}

fn has_type(value: &Value, ty: &str, integers: Integers) -> bool {
    match ty {
        "string" => value.is_string(),
        // serde_json keeps a number written whole within 64 bits as an integer; a wider one
        // becomes a float, and is read as whole, as it cannot be told from one written so.
        "integer" if integers == Integers::AsWritten => {
            value.is_i64()
                || value.is_u64()
                || value.as_f64().is_some_and(|n| n.fract() == 0.0 && (n < i64::MIN as f64 || n >= u64::MAX as f64))
        }
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

/// JSON equality, with `1` and `1.0` the same number.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// A JSON pointer as written in a URI fragment, its `%XX` escapes decoded.
fn percent_decoded(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Budget, JsonSchemas};

    fn schemas() -> JsonSchemas {
        let pet = json!({
            "type": "object",
            "required": ["name", "id"],
            "properties": {
                "id": {"type": "integer", "readOnly": true},
                "name": {"type": "string", "minLength": 1},
                "age": {"type": "integer", "minimum": 0}
            },
            "additionalProperties": false
        });
        JsonSchemas::new(json!({"components": {"schemas": {"Pet": pet}}}), str::to_string)
    }

    #[test]
    fn values_outside_a_schema_are_found_and_located() {
        let schemas = schemas();
        let pet = json!({"$ref": "#/components/schemas/Pet"});
        assert_eq!(schemas.check(&pet, &json!({"name": "Rex", "age": 3})), Ok(()), "`id` is read-only");
        let err = schemas.check(&pet, &json!({"name": "Rex", "age": -1})).unwrap_err();
        assert!(err.starts_with("/age: -1 is below the minimum 0"), "{err}");
        let err = schemas.check(&pet, &json!({"age": 1})).unwrap_err();
        assert!(err.contains("`name` is missing"), "{err}");
        let err = schemas.check(&pet, &json!({"name": "a", "colour": "red"})).unwrap_err();
        assert!(err.contains("`colour` is not allowed"), "{err}");
    }

    #[test]
    fn a_schema_asking_of_a_value_what_it_already_asks_is_refused_at_once() {
        // A parent whose `oneOf` lists children that each take the parent in `allOf`: every way
        // round leads back to the parent for the same value. Six children, 64 levels deep, would
        // be 6^64 visits if only the depth ended it.
        let child = |name: &str| json!({"allOf": [{"$ref": "#/components/schemas/Shape"}, {"properties": {name: {"type": "number"}}}]});
        let mut schemas = serde_json::Map::new();
        let names = ["radius", "side", "width", "height", "base", "edge"];
        for name in names {
            schemas.insert(name.to_string(), child(name));
        }
        let members: Vec<_> = names.iter().map(|n| json!({"$ref": format!("#/components/schemas/{n}")})).collect();
        schemas.insert("Shape".into(), json!({"type": "object", "oneOf": members}));
        let schemas = JsonSchemas::new(json!({"components": {"schemas": schemas}}), str::to_string);
        let shape = json!({"$ref": "#/components/schemas/Shape"});
        let budget = Budget::new(1_000);
        let err = schemas.check_within(&shape, &json!({"side": 2}), &budget).unwrap_err();
        // Each child fails on meeting the parent again, so no member matches.
        assert!(err.contains("matches 0 of the `oneOf` schemas"), "{err}");
        assert!(budget.spent() < 100, "settled in {} steps", budget.spent());
        let err = schemas.check(&json!({"$ref": "#/components/schemas/side"}), &json!({"side": 2})).unwrap_err();
        assert!(err.contains("matches 0 of the `oneOf`"), "{err}");
        // A schema that refers to itself for a smaller value is no loop: a tree of any depth.
        let tree = json!({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}}}});
        let schemas = JsonSchemas::new(json!({"components": {"schemas": {"Tree": tree}}}), str::to_string);
        let mut value = json!({});
        for _ in 0..30 {
            value = json!({"children": [value]});
        }
        assert_eq!(schemas.check(&json!({"$ref": "#/components/schemas/Tree"}), &value), Ok(()));
    }

    #[test]
    fn choices_that_multiply_are_refused_within_a_bound() {
        // Forty schemas, each choosing twice between ways to the next: 2^40 visits, no schema
        // met twice on any one way, so only the bound ends it.
        let mut schemas = serde_json::Map::new();
        for i in 0..40 {
            let next = json!({"$ref": format!("#/components/schemas/S{}", i + 1)});
            schemas
                .insert(format!("S{i}"), json!({"anyOf": [{"allOf": [next, {"type": "string"}]}, {"allOf": [next]}]}));
        }
        schemas.insert("S40".into(), json!({"type": "integer"}));
        let schemas = JsonSchemas::new(json!({"components": {"schemas": schemas}}), str::to_string);
        let err = schemas.check(&json!({"$ref": "#/components/schemas/S0"}), &json!({"a": 1})).unwrap_err();
        assert!(err.contains("more than 250000 steps"), "{err}");
        // A large value of a plain schema is well within it.
        let list = json!({"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}});
        let items: Vec<_> = (0..10_000).map(|n| json!({"n": n})).collect();
        assert_eq!(schemas.check(&list, &json!(items)), Ok(()));
    }

    #[test]
    fn formats_patterns_choices_and_not_are_checked() {
        let schemas = JsonSchemas::new(json!({}), str::to_string);
        let date = json!({"type": "string", "format": "date-time"});
        assert!(schemas.check(&date, &json!("2024-02-29T10:00:00.5+01:00")).is_ok());
        assert!(schemas.check(&date, &json!("yesterday")).is_err());
        let code = json!({"type": "string", "pattern": "^[A-Z]{3}$"});
        assert!(schemas.check(&code, &json!("GBP")).is_ok());
        assert!(schemas.check(&code, &json!("gbp")).is_err());
        let one_of = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
        assert!(schemas.check(&one_of, &json!(1.5)).is_ok());
        assert!(schemas.check(&one_of, &json!(1)).is_err(), "1 is both an integer and a number");
        let not = json!({"not": {"type": "string"}});
        assert!(schemas.check(&not, &json!(1)).is_ok());
        assert!(schemas.check(&not, &json!("a")).is_err());
    }

    #[test]
    fn integers_are_read_as_the_root_says() {
        let integer = json!({"type": "integer"});
        let whole = JsonSchemas::new(json!({}), str::to_string);
        let written = JsonSchemas::new(json!({"integers": "as-written"}), str::to_string);
        let exponent: serde_json::Value = serde_json::from_str("-9.223372036854776e+18").unwrap();
        for value in [json!(3), json!(u64::MAX), json!(i64::MIN)] {
            assert!(whole.check(&integer, &value).is_ok() && written.check(&integer, &value).is_ok(), "{value}");
        }
        for value in [json!(3.0), exponent] {
            assert!(whole.check(&integer, &value).is_ok(), "{value} is whole");
            assert!(written.check(&integer, &value).is_err(), "{value} is written with a fraction or exponent");
        }
        let wide: serde_json::Value = serde_json::from_str("123456789012345678901234").unwrap();
        assert!(written.check(&integer, &wide).is_ok(), "past 64 bits it cannot be told from one written whole");
        assert!(written.check(&integer, &json!(1.5)).is_err() && whole.check(&integer, &json!(1.5)).is_err());
    }

    #[test]
    fn listed_schemas_refer_into_the_root() {
        let root = json!({
            "checks": [{"oneOf": [{"$ref": "#/components/schemas/Code"}, {"type": "integer"}]}],
            "components": {"schemas": {"Code": {"type": "string", "pattern": "^[A-Z]+$"}}}
        });
        let schemas = JsonSchemas::new(root, str::to_string);
        assert!(schemas.check_listed(0, &json!("GBP")).is_ok());
        assert!(schemas.check_listed(0, &json!(7)).is_ok());
        assert!(schemas.check_listed(0, &json!("gbp")).is_err());
        assert!(schemas.check_listed(1, &json!("anything")).is_ok(), "no such check");
        assert!(schemas.check(&json!({"$ref": "#/nowhere"}), &json!(1)).is_ok(), "read as any value");
    }

    #[test]
    fn text_that_is_not_json_holds_no_schemas() {
        let schemas = JsonSchemas::from_json("{not json");
        assert!(schemas.resolve("#/checks/0").is_none());
    }
}
