//! Values from schemas: the document's own example where it is valid, else one sampled from the
//! schema, checked against it before use. The mock responder answers with these, and error
//! bodies are filled into them.
//!
//! Works on schemas as JSON (after conversion to the 3.0 form), where every keyword is at hand,
//! rather than on the typed model, which drops some.

mod error_body;
pub(crate) mod pattern;

use apigen_runtime::codegen::json_schema::{Budget, JsonSchemas};
use serde_json::{Map, Value, json};

/// How a schema bundle's root says which numbers `type: integer` allows (see
/// [`JsonSchemas`]).
pub use apigen_runtime::codegen::json_schema::{AS_WRITTEN, INTEGERS};
pub use error_body::error_body;

/// The component schemas that references point into, and compiled patterns.
pub struct Schemas(JsonSchemas);

impl Schemas {
    /// The schemas of `#/components/schemas`, given as one JSON object.
    pub fn new(schemas: Value) -> Self {
        let root = json!({ "components": { "schemas": schemas } });
        Schemas(JsonSchemas::new(root, |p| pattern::for_rust(p).into_owned()))
    }

    /// The component schemas of a document.
    pub fn of(doc: &openapiv3::OpenAPI) -> Self {
        let schemas = doc.components.as_ref().map(|c| serde_json::to_value(&c.schemas).unwrap_or(Value::Null));
        Self::new(schemas.unwrap_or_else(|| json!({})))
    }

    /// The schema a local reference (`#/components/schemas/Pet`) names.
    pub fn resolve(&self, reference: &str) -> Option<&Value> {
        self.0.resolve(reference)
    }

    /// The compiled `pattern`, or `None` when the regex engine cannot read it (then it is not
    /// checked here; the generated code reports it).
    fn regex(&self, pattern: &str) -> Option<apigen_runtime::codegen::pattern::Pattern> {
        self.0.regex(pattern)
    }
}

/// `Ok` when `schema` allows `value`, else where in the value and why not.
pub fn check(schemas: &Schemas, schema: &Value, value: &Value) -> Result<(), String> {
    schemas.0.check(schema, value)
}

/// How to sample. Samples are replies, so `writeOnly` properties are left out.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Varies the choices (enum values, union variants, numbers) for the same schema.
    pub seed: u64,
    /// Fill optional properties and give lists and maps an item, not only what is required.
    pub full: bool,
}

/// How deep sampling follows properties and items before it stops adding optional ones.
const FULL_DEPTH: usize = 3;
/// How deep sampling may go at all; a required property that recurses deeper has no finite value.
const MAX_DEPTH: usize = 24;

/// How many steps one sample may take, visiting schemas to make values and checking them. Each
/// member of a choice is tried in turn, and checked, so choices nested in choices multiply; past
/// this the schema is given up on rather than sampled for minutes.
const MAX_STEPS: usize = 250_000;

/// A value `schema` allows: its example when that is valid, else a sample; `Err` says why no
/// valid value could be made (an impossible or self-contradicting schema, or one whose choices
/// nest too deep to try).
pub fn sample(schemas: &Schemas, schema: &Value, options: Options) -> Result<Value, String> {
    let mut last = String::from("none of the values tried satisfies every keyword");
    let budget = Budget::new(MAX_STEPS);
    for attempt in 0..4 {
        if budget.exhausted() {
            return Err(format!("its choices nest too deep to try within {MAX_STEPS} steps"));
        }
        let salt = options.seed.wrapping_add(attempt);
        let sampler = Sampler { schemas, options, salt, fill_next: false, budget: &budget, open: &[] };
        let Some(value) = sampler.value(schema, 0) else { continue };
        match sampler.check(schema, &value) {
            Ok(()) => return Ok(value),
            Err(why) => last = why,
        }
    }
    Err(last)
}

#[derive(Clone, Copy)]
struct Sampler<'a> {
    schemas: &'a Schemas,
    options: Options,
    salt: u64,
    /// Give the next array an item and the next object its optional properties, however deep:
    /// an empty list or object can satisfy several members of a `oneOf` at once.
    fill_next: bool,
    /// The steps this sample may take, making values and checking them: [`MAX_STEPS`].
    budget: &'a Budget,
    /// The references this value is being sampled inside of. Met again for the same value, a
    /// reference asks of it what it is already asking, which the check refuses: no value comes
    /// of it, so none is tried.
    open: &'a [String],
}

impl Sampler<'_> {
    /// [`check`], within this sample's budget.
    fn check(&self, schema: &Value, value: &Value) -> Result<(), String> {
        self.schemas.0.check_within(schema, value, self.budget)
    }

    fn value(&self, schema: &Value, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || !self.budget.spend() {
            return None;
        }
        let Some(s) = schema.as_object() else { return Some(json!({})) };
        if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
            // A reference that names nothing is read as any value (and warned about) elsewhere.
            let Some(target) = self.schemas.resolve(reference) else { return Some(json!({})) };
            if self.open.iter().any(|open| open == reference) {
                return None;
            }
            let open = [self.open, &[reference.to_string()]].concat();
            return Sampler { open: &open, ..*self }.value(target, depth + 1);
        }
        // A choice set aside when the schema was read as its plain type still holds.
        if let Some(Value::Object(kept)) = s.get(crate::front::markers::NARROWED) {
            let mut restored = s.clone();
            restored.remove(crate::front::markers::NARROWED);
            restored.extend(kept.clone());
            return self.value(&Value::Object(restored), depth + 1);
        }
        // A schema that allows only `null`, read looser.
        if s.get(crate::front::markers::NULL_ONLY) == Some(&Value::Bool(true)) {
            return Some(Value::Null);
        }
        for key in ["example", "default"] {
            if let Some(candidate) = s.get(key).filter(|v| !v.is_null())
                && self.check(schema, candidate).is_ok()
            {
                return Some(candidate.clone());
            }
        }
        if let Some(constant) = s.get("const") {
            return Some(constant.clone());
        }
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            let listed: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
            return Some(pick(&listed, self.salt).map_or(Value::Null, |v| (*v).clone()));
        }
        if s.contains_key("allOf") {
            let merged = merge_all_of(self.schemas, s, &mut self.open.to_vec())?;
            // A merge copies its parts: a step for each property it holds.
            let copied = merged.get("properties").and_then(Value::as_object).map_or(0, Map::len);
            if !self.budget.spend_many(copied) {
                return None;
            }
            return self.value(&Value::Object(merged), depth + 1);
        }
        if let Some(choices) = s.get("oneOf").or_else(|| s.get("anyOf")).and_then(Value::as_array) {
            return self.choice(s, choices, depth);
        }
        match type_of(s) {
            "string" => self.string(s),
            "integer" => integer(s, self.salt),
            "number" => number(s, self.salt),
            "boolean" => Some(Value::Bool(self.salt.is_multiple_of(2))),
            "array" => self.array(s, depth),
            "object" => self.object(s, depth),
            "null" => Some(Value::Null),
            _ => Some(json!({})),
        }
    }

    /// A value of one of `choices` that the whole schema allows, trying each from the seeded one.
    fn choice(&self, s: &Map<String, Value>, choices: &[Value], depth: usize) -> Option<Value> {
        let whole = Value::Object(s.clone());
        let mut siblings = s.clone();
        siblings.remove("oneOf");
        siblings.remove("anyOf");
        let start = (self.salt as usize) % choices.len().max(1);
        let ordered = || (0..choices.len()).map(|i| &choices[(start + i) % choices.len()]);
        let attempt = |sampler: Sampler, choice: &Value| {
            let mut merged = Map::new();
            merged.insert("allOf".into(), json!([Value::Object(siblings.clone()), choice]));
            let mut value = sampler.value(&Value::Object(merged), depth + 1)?;
            tag(self.schemas, s, choice, &mut value);
            self.check(&whole, &value).is_ok().then_some(value)
        };
        let filled = Sampler { fill_next: true, ..*self };
        ordered()
            .find_map(|choice| attempt(*self, choice))
            .or_else(|| ordered().find_map(|choice| attempt(filled, choice)))
    }

    fn string(&self, s: &Map<String, Value>) -> Option<Value> {
        let min = s.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s.get("maxLength").and_then(Value::as_u64).map(|m| m as usize);
        if let Some(pattern) = s.get("pattern").and_then(Value::as_str) {
            let regex = self.schemas.regex(pattern);
            let fits = |text: &String| {
                let length = text.chars().count();
                length >= min && max.is_none_or(|max| length <= max) && regex.as_ref().is_none_or(|r| r.is_match(text))
            };
            let attempts = (0..=16u32).flat_map(|extra| (0..3).map(move |choice| (extra, choice)));
            let salt = self.salt as usize;
            return attempts
                .filter_map(|(extra, choice)| pattern::generate(pattern, extra, salt + choice))
                .find(fits)
                .map(Value::String);
        }
        let formatted = match s.get("format").and_then(Value::as_str).unwrap_or("") {
            "date-time" => Some("2024-01-01T00:00:00Z"),
            "date" => Some("2024-01-01"),
            "time" => Some("12:00:00Z"),
            "uuid" => Some("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
            "email" => Some("user@example.com"),
            "uri" | "url" | "uri-reference" | "iri" => Some("https://example.com/"),
            "hostname" => Some("example.com"),
            "ipv4" => Some("192.0.2.1"),
            "ipv6" => Some("2001:db8::1"),
            "byte" => Some("c2FtcGxl"),
            "duration" => Some("P1D"),
            "idn-email" => Some("user@example.com"),
            "idn-hostname" => Some("example.com"),
            "iri-reference" => Some("https://example.com/"),
            "json-pointer" => Some("/name"),
            "relative-json-pointer" => Some("0/name"),
            "uri-template" => Some("https://example.com/{id}"),
            _ => None,
        };
        if let Some(text) = formatted {
            return Some(Value::String(text.to_string()));
        }
        let mut text = if self.salt == 0 { "string".to_string() } else { format!("string{}", self.salt) };
        while text.chars().count() < min {
            text.push('x');
        }
        if let Some(max) = max {
            text = text.chars().take(max).collect();
        }
        Some(Value::String(text))
    }

    fn array(&self, s: &Map<String, Value>, depth: usize) -> Option<Value> {
        let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s.get("maxItems").and_then(Value::as_u64).map_or(usize::MAX, |m| m as usize);
        let fill = self.fill_next || (self.options.full && depth < FULL_DEPTH);
        let wanted = if fill { min.max(1) } else { min }.min(max);
        let items_schema = s.get("items").cloned().unwrap_or_else(|| json!({}));
        let mut items = Vec::with_capacity(wanted);
        for i in 0..wanted {
            let sampler = Sampler { salt: self.salt.wrapping_add(i as u64), fill_next: false, open: &[], ..*self };
            match sampler.value(&items_schema, depth + 1) {
                Some(item) => items.push(item),
                None if i >= min => break,
                None => return None,
            }
        }
        Some(Value::Array(items))
    }

    fn object(&self, s: &Map<String, Value>, depth: usize) -> Option<Value> {
        let required: Vec<&str> =
            s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let full = self.fill_next || (self.options.full && depth < FULL_DEPTH);
        // Below this object, filling follows the depth again, and each property is a value of
        // its own.
        let this = Sampler { fill_next: false, open: &[], ..*self };
        let hidden = "writeOnly";
        let mut out = Map::new();
        for (name, property) in s.get("properties").and_then(Value::as_object).into_iter().flatten() {
            let is_required = required.contains(&name.as_str());
            let resolved = resolve_shallow(self.schemas, property);
            let is_hidden = resolved.get(hidden).and_then(Value::as_bool) == Some(true);
            if !is_required && (!full || is_hidden) {
                continue;
            }
            match this.value(property, depth + 1) {
                Some(value) => {
                    out.insert(name.clone(), value);
                }
                None if is_required => return None,
                None => {}
            }
        }
        // A required property the schema does not describe can hold anything.
        for name in &required {
            if !out.contains_key(*name) {
                let extra = s.get("additionalProperties").filter(|a| a.is_object());
                out.insert(name.to_string(), extra.and_then(|a| this.value(a, depth + 1)).unwrap_or(json!("string")));
            }
        }
        let min = s.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
        let extra = s.get("additionalProperties").filter(|a| a.is_object());
        let wanted = if full && extra.is_some() && out.is_empty() { min.max(1) } else { min };
        let mut n = 1;
        while out.len() < wanted {
            let value = match extra {
                Some(extra) => this.value(extra, depth + 1)?,
                None => json!("string"),
            };
            out.insert(format!("key{n}"), value);
            n += 1;
        }
        Some(Value::Object(out))
    }
}

fn pick<T>(items: &[T], salt: u64) -> Option<&T> {
    (!items.is_empty()).then(|| &items[(salt as usize) % items.len()])
}

/// The schema a reference names, followed through references, or the schema itself.
fn resolve_shallow<'a>(schemas: &'a Schemas, mut schema: &'a Value) -> &'a Value {
    for _ in 0..MAX_DEPTH {
        match schema.get("$ref").and_then(Value::as_str).and_then(|r| schemas.resolve(r)) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// The type a schema's keywords imply when it names none.
fn type_of(s: &Map<String, Value>) -> &str {
    if let Some(ty) = s.get("type").and_then(Value::as_str) {
        return ty;
    }
    let has = |keys: &[&str]| keys.iter().any(|k| s.contains_key(*k));
    if has(&["properties", "required", "additionalProperties", "minProperties", "maxProperties"]) {
        "object"
    } else if has(&["items", "minItems", "maxItems", "uniqueItems"]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&["minimum", "maximum", "multipleOf"]) {
        "number"
    } else {
        "any"
    }
}

/// `allOf` and the schema around it as one schema: properties and `required` joined, a property
/// named twice holding both schemas, other keywords taken from the first that says them.
///
/// `open` holds the references the value is inside of; `None` when a part refers to one of them
/// again, which no value satisfies (see [`Sampler::open`]).
pub(crate) fn merge_all_of(
    schemas: &Schemas,
    s: &Map<String, Value>,
    open: &mut Vec<String>,
) -> Option<Map<String, Value>> {
    let mut merged = s.clone();
    let Some(Value::Array(parts)) = merged.remove("allOf") else { return Some(merged) };
    for part in &parts {
        let outer = open.len();
        let mut part = part;
        while let Some(reference) = part.get("$ref").and_then(Value::as_str) {
            if open.iter().any(|o| o == reference) || open.len() > MAX_DEPTH {
                return None;
            }
            let Some(target) = schemas.resolve(reference) else { break };
            open.push(reference.to_string());
            part = target;
        }
        let part = match part.as_object() {
            Some(part) if part.contains_key("allOf") => merge_all_of(schemas, part, open)?,
            Some(part) => part.clone(),
            None => Map::new(),
        };
        open.truncate(outer);
        for (key, value) in part {
            match (key.as_str(), merged.get_mut(&key)) {
                ("properties", Some(Value::Object(properties))) => {
                    for (name, property) in value.as_object().into_iter().flatten() {
                        match properties.get_mut(name) {
                            Some(existing) if existing != property => {
                                *existing = json!({ "allOf": [existing.clone(), property] });
                            }
                            Some(_) => {}
                            None => {
                                properties.insert(name.clone(), property.clone());
                            }
                        }
                    }
                }
                ("required", Some(Value::Array(required))) => {
                    for name in value.as_array().into_iter().flatten() {
                        if !required.contains(name) {
                            required.push(name.clone());
                        }
                    }
                }
                // `oneOf`/`anyOf` of several parts must all hold; keep them as a nested `allOf`.
                ("oneOf" | "anyOf", Some(existing)) => {
                    let combined = json!({ "allOf": [{ key.clone(): existing.clone() }, { key.clone(): value }] });
                    merged.insert("allOf".into(), combined["allOf"].clone());
                    merged.remove(&key);
                }
                (_, Some(_)) => {}
                (_, None) => {
                    merged.insert(key, value);
                }
            }
        }
    }
    Some(merged)
}

/// Sets the discriminator property of a value sampled for `choice` to the name that selects it.
fn tag(schemas: &Schemas, parent: &Map<String, Value>, choice: &Value, value: &mut Value) {
    let Some(discriminator) = parent.get("discriminator").and_then(Value::as_object) else { return };
    let Some(property) = discriminator.get("propertyName").and_then(Value::as_str) else { return };
    let Some(reference) = choice.get("$ref").and_then(Value::as_str) else { return };
    let mapped = discriminator
        .get("mapping")
        .and_then(Value::as_object)
        .and_then(|m| m.iter().find(|(_, target)| target.as_str() == Some(reference)).map(|(k, _)| k.clone()));
    let name = mapped.unwrap_or_else(|| reference.rsplit('/').next().unwrap_or(reference).to_string());
    let target = resolve_shallow(schemas, choice);
    let allowed = target.pointer(&format!("/properties/{property}/enum")).and_then(Value::as_array);
    // A variant whose tag property lists its own values keeps the sampled one.
    if allowed.is_some_and(|values| !values.is_empty()) {
        return;
    }
    if let Some(object) = value.as_object_mut() {
        object.insert(property.to_string(), Value::String(name));
    }
}

/// A sampled integer: the lowest allowed at or above a small start, stepping by `multipleOf`.
fn integer(s: &Map<String, Value>, salt: u64) -> Option<Value> {
    let (lo, hi) = bounds(s, 1.0);
    let step = s.get("multipleOf").and_then(Value::as_f64).filter(|m| *m >= 1.0 && m.fract() == 0.0).unwrap_or(1.0);
    let (lo, hi) = (lo.map(f64::ceil), hi.map(f64::floor));
    let start = lo.unwrap_or_else(|| hi.map_or(1.0, |h| h.min(1.0))) + (salt % 8) as f64;
    let start = hi.map_or(start, |h| start.min(h));
    let mut value = (start / step).ceil() * step;
    if hi.is_some_and(|h| value > h) {
        value = (start / step).floor() * step;
    }
    let inside = lo.is_none_or(|l| value >= l) && hi.is_none_or(|h| value <= h);
    inside.then(|| json!(value as i64))
}

fn number(s: &Map<String, Value>, salt: u64) -> Option<Value> {
    // An integer format on a number: a whole number is valid whether a reader checks the format
    // or not.
    let whole = matches!(
        s.get("format").and_then(Value::as_str),
        Some("int8" | "int16" | "int32" | "int64" | "uint8" | "uint16" | "uint32" | "uint64")
    );
    let step = s.get("multipleOf").and_then(Value::as_f64).filter(|m| *m > 0.0).or(whole.then_some(1.0));
    let (lo, hi) = bounds(s, step.unwrap_or(0.5));
    let value = match (lo, hi) {
        (Some(lo), Some(hi)) => lo + (hi - lo) / 2.0,
        (Some(lo), None) => lo + 1.5 + (salt % 8) as f64,
        (None, Some(hi)) => hi.min(1.5) - 1.0,
        (None, None) => 1.5 + (salt % 8) as f64,
    };
    let value = step.map_or(value, |step| {
        let rounded = (value / step).round() * step;
        if lo.is_some_and(|l| rounded < l) { rounded + step } else { rounded }
    });
    serde_json::Number::from_f64(value).map(Value::Number)
}

/// The lowest and highest allowed values, an exclusive bound moved inward by `gap`.
fn bounds(s: &Map<String, Value>, gap: f64) -> (Option<f64>, Option<f64>) {
    let exclusive = |key| s.get(key).and_then(Value::as_bool) == Some(true);
    let lo = s.get("minimum").and_then(Value::as_f64).map(|m| if exclusive("exclusiveMinimum") { m + gap } else { m });
    let hi = s.get("maximum").and_then(Value::as_f64).map(|m| if exclusive("exclusiveMaximum") { m - gap } else { m });
    let format_hi = match s.get("format").and_then(Value::as_str) {
        Some("int32") => Some(i32::MAX as f64),
        Some("int8") => Some(i8::MAX as f64),
        Some("uint8") => Some(u8::MAX as f64),
        Some("int16") => Some(i16::MAX as f64),
        _ => None,
    };
    (lo, hi.or(format_hi))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Options, Schemas, sample};

    const FULL: Options = Options { seed: 0, full: true };

    #[test]
    fn a_one_of_whose_members_share_the_empty_value_gets_a_telling_one() {
        let item = json!({ "type": "object", "required": ["score"], "properties": { "score": { "type": "number" } } });
        let schema = json!({ "oneOf": [
            { "type": "array", "items": item.clone() },
            { "type": "array", "items": { "type": "array", "items": item } }
        ] });
        let lean = Options { seed: 0, full: false };
        let value = sample(&Schemas::new(json!({})), &schema, lean).unwrap();
        assert!(value.as_array().is_some_and(|items| !items.is_empty()), "{value}");
    }

    #[test]
    fn a_number_with_an_integer_format_samples_a_whole_number() {
        let schema = json!({ "type": "number", "oneOf": [
            { "minimum": 0, "maximum": 10, "format": "int32" },
            { "minimum": 100, "maximum": 100, "format": "int32" }
        ] });
        for seed in 0..4 {
            let value = sample(&Schemas::new(json!({})), &schema, Options { seed, ..FULL }).unwrap();
            assert!(value.as_f64().is_some_and(|v| v.fract() == 0.0), "seed {seed}: {value}");
        }
        // Without a format, a number may have a fraction.
        let plain = sample(&Schemas::new(json!({})), &json!({ "type": "number" }), FULL).unwrap();
        assert!(plain.as_f64().is_some_and(|v| v.fract() != 0.0), "{plain}");
    }

    fn schemas() -> Schemas {
        Schemas::new(json!({
            "Cat": {"type": "object", "required": ["kind", "lives"], "properties": {
                "kind": {"type": "string"}, "lives": {"type": "integer", "minimum": 1, "maximum": 9}}},
            "Dog": {"type": "object", "required": ["kind", "bark"], "properties": {
                "kind": {"type": "string"}, "bark": {"type": "string", "enum": ["woof", "yap"]}}},
            "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                    "discriminator": {"propertyName": "kind", "mapping": {"dog": "#/components/schemas/Dog"}}},
            "Node": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "pattern": "^[a-z]{3,}$"},
                "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}},
            "Secret": {"type": "object", "properties": {"password": {"type": "string", "writeOnly": true}, "id": {"type": "integer"}}},
        }))
    }

    #[test]
    fn samples_satisfy_their_schemas() {
        let schemas = schemas();
        for seed in 0..6 {
            let options = Options { seed, ..FULL };
            for name in ["Cat", "Dog", "Pet", "Node"] {
                let schema = json!({ "$ref": format!("#/components/schemas/{name}") });
                let value = sample(&schemas, &schema, options).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(super::check(&schemas, &schema, &value).is_ok(), "{name}: {value}");
            }
        }
    }

    #[test]
    fn every_checked_format_gets_a_value_in_that_format() {
        let schemas = schemas();
        let names = ["date", "time", "date-time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4"];
        let more = ["ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "json-pointer"];
        for name in names.into_iter().chain(more).chain(["relative-json-pointer", "uri-template"]) {
            assert!(apigen_runtime::Format::named(name).is_some(), "{name} is checked");
            let schema = json!({"type": "string", "format": name});
            let value = sample(&schemas, &schema, FULL).unwrap();
            assert!(super::check(&schemas, &schema, &value).is_ok(), "{name}: {value}");
        }
    }

    #[test]
    fn a_discriminated_choice_carries_the_name_that_selects_it() {
        let schemas = schemas();
        let pet = json!({"$ref": "#/components/schemas/Pet"});
        let kinds: Vec<_> =
            (0..2).map(|seed| sample(&schemas, &pet, Options { seed, ..FULL }).unwrap()["kind"].clone()).collect();
        assert_eq!(kinds, [json!("Cat"), json!("dog")]);
    }

    #[test]
    fn a_valid_example_is_used_and_an_invalid_one_is_not() {
        let schemas = schemas();
        let valid = json!({"type": "integer", "minimum": 10, "example": 42});
        assert_eq!(sample(&schemas, &valid, FULL), Ok(json!(42)));
        let invalid = json!({"type": "integer", "minimum": 10, "example": 3});
        assert_eq!(sample(&schemas, &invalid, FULL), Ok(json!(10)));
    }

    #[test]
    fn the_same_seed_gives_the_same_value_and_replies_leave_out_write_only_properties() {
        let schemas = schemas();
        let node = json!({"$ref": "#/components/schemas/Node"});
        assert_eq!(sample(&schemas, &node, FULL), sample(&schemas, &node, FULL));
        let secret = sample(&schemas, &json!({"$ref": "#/components/schemas/Secret"}), FULL).unwrap();
        assert_eq!(secret, json!({"id": 1}));
    }

    #[test]
    fn an_impossible_schema_says_why() {
        let schemas = schemas();
        let impossible = json!({"type": "integer", "minimum": 5, "maximum": 3});
        assert!(sample(&schemas, &impossible, FULL).is_err());
        let contradictory = json!({"allOf": [{"type": "string", "maxLength": 2}, {"minLength": 5}]});
        let err = sample(&schemas, &contradictory, FULL).unwrap_err();
        assert!(err.contains("characters"), "{err}");
    }

    #[test]
    fn a_parent_whose_children_take_it_in_all_of_is_given_up_on_at_once() {
        // Eight children, each taking the parent (and so its choice of the children) in
        // `allOf`: no value satisfies it, and trying every way round used to take minutes.
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
        let mut components = serde_json::Map::new();
        for name in names {
            let part = json!({"properties": {name: {"type": "string"}}});
            components.insert(name.into(), json!({"allOf": [{"$ref": "#/components/schemas/Parent"}, part]}));
        }
        let members: Vec<_> = names.iter().map(|n| json!({"$ref": format!("#/components/schemas/{n}")})).collect();
        components.insert("Parent".into(), json!({"type": "object", "oneOf": members}));
        let schemas = Schemas::new(serde_json::Value::Object(components));
        let parent = json!({"$ref": "#/components/schemas/Parent"});
        assert!(sample(&schemas, &parent, FULL).is_err());
        // Where it is optional, the value goes without it.
        let reply = json!({"type": "object", "properties": {"id": {"type": "integer"}, "config": parent}});
        assert_eq!(sample(&schemas, &reply, FULL), Ok(json!({"id": 1})));
    }
}
