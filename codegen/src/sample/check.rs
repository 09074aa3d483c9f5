//! Whether a JSON value is one a schema allows: the document's examples are checked before they
//! are used, and every sampled value before it is written into generated code.

use serde_json::Value;

use super::Schemas;

/// How deep references may nest without the value getting smaller, before a loop is assumed.
const MAX_DEPTH: usize = 64;

/// `Ok` when `schema` allows `value`, else where in the value and why not.
pub fn check(schemas: &Schemas, schema: &Value, value: &Value) -> Result<(), String> {
    Checker { schemas }.check(schema, value, "", 0)
}

struct Checker<'a> {
    schemas: &'a Schemas,
}

impl Checker<'_> {
    fn check(&self, schema: &Value, value: &Value, at: &str, depth: usize) -> Result<(), String> {
        let fail = |why: String| Err(format!("{}: {why}", if at.is_empty() { "the value" } else { at }));
        if depth > MAX_DEPTH {
            return fail("the schema refers to itself without end".into());
        }
        let Some(schema) = schema.as_object() else { return Ok(()) };
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let Some(target) = self.schemas.resolve(reference) else {
                return fail(format!("the reference {reference} names nothing"));
            };
            return self.check(target, value, at, depth + 1);
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
            && !has_type(value, ty)
        {
            return fail(format!("{value} is not of type {ty}"));
        }
        for part in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            self.check(part, value, at, depth + 1)?;
        }
        if let Some(choices) = schema.get("anyOf").and_then(Value::as_array)
            && !choices.iter().any(|c| self.check(c, value, at, depth + 1).is_ok())
        {
            return fail("matches none of the `anyOf` schemas".into());
        }
        if let Some(choices) = schema.get("oneOf").and_then(Value::as_array) {
            let matching = choices.iter().filter(|c| self.check(c, value, at, depth + 1).is_ok()).count();
            if matching != 1 {
                return fail(format!("matches {matching} of the `oneOf` schemas, not exactly one"));
            }
        }
        if let Some(not) = schema.get("not")
            && self.check(not, value, at, depth + 1).is_ok()
        {
            return fail("matches the `not` schema".into());
        }
        match value {
            Value::String(text) => self.string(schema, text).or_else(fail),
            Value::Number(n) => number(schema, n.as_f64().unwrap_or(0.0)).or_else(fail),
            Value::Array(items) => self.array(schema, items, at, depth),
            Value::Object(members) => self.object(schema, members, at, depth),
            Value::Bool(_) | Value::Null => Ok(()),
        }
    }

    fn string(&self, schema: &serde_json::Map<String, Value>, text: &str) -> Result<(), String> {
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
            && let Some(regex) = self.schemas.regex(pattern)
            && !regex.is_match(text)
        {
            return Err(format!("{text:?} does not match the pattern {pattern:?}"));
        }
        match schema.get("format").and_then(Value::as_str).and_then(portfolio_runtime::Format::named) {
            Some(format) if !format.matches(text) => Err(format!("{text:?} is not a valid `{}`", format.name())),
            _ => Ok(()),
        }
    }

    fn array(
        &self,
        schema: &serde_json::Map<String, Value>,
        items: &[Value],
        at: &str,
        depth: usize,
    ) -> Result<(), String> {
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
                self.check(item_schema, item, &format!("{at}/{i}"), depth + 1)?;
            }
        }
        Ok(())
    }

    fn object(
        &self,
        schema: &serde_json::Map<String, Value>,
        members: &serde_json::Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Result<(), String> {
        let here = if at.is_empty() { "the value" } else { at };
        for name in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if !members.contains_key(name) {
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
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, member) in members {
            let member_at = format!("{at}/{}", name.replace('~', "~0").replace('/', "~1"));
            match (properties.and_then(|p| p.get(name)), schema.get("additionalProperties")) {
                (Some(property), _) => self.check(property, member, &member_at, depth + 1)?,
                (None, Some(Value::Bool(false))) => {
                    return Err(format!("{here}: the property `{name}` is not allowed"));
                }
                (None, Some(extra @ Value::Object(_))) => self.check(extra, member, &member_at, depth + 1)?,
                (None, _) => {}
            }
        }
        Ok(())
    }
}

fn number(schema: &serde_json::Map<String, Value>, n: f64) -> Result<(), String> {
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

fn has_type(value: &Value, ty: &str) -> bool {
    match ty {
        "string" => value.is_string(),
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::Schemas;
    use super::check;

    fn schemas() -> Schemas {
        Schemas::new(json!({
            "Pet": {
                "type": "object",
                "required": ["name"],
                "properties": {"name": {"type": "string", "minLength": 1}, "age": {"type": "integer", "minimum": 0}},
                "additionalProperties": false
            }
        }))
    }

    #[test]
    fn values_outside_a_schema_are_found_and_located() {
        let schemas = schemas();
        let pet = json!({"$ref": "#/components/schemas/Pet"});
        assert_eq!(check(&schemas, &pet, &json!({"name": "Rex", "age": 3})), Ok(()));
        let err = check(&schemas, &pet, &json!({"name": "Rex", "age": -1})).unwrap_err();
        assert!(err.starts_with("/age: -1 is below the minimum 0"), "{err}");
        let err = check(&schemas, &pet, &json!({"age": 1})).unwrap_err();
        assert!(err.contains("`name` is missing"), "{err}");
        let err = check(&schemas, &pet, &json!({"name": "a", "colour": "red"})).unwrap_err();
        assert!(err.contains("`colour` is not allowed"), "{err}");
    }

    #[test]
    fn formats_patterns_and_choices_are_checked() {
        let schemas = schemas();
        let date = json!({"type": "string", "format": "date-time"});
        assert!(check(&schemas, &date, &json!("2024-02-29T10:00:00.5+01:00")).is_ok());
        assert!(check(&schemas, &date, &json!("yesterday")).is_err());
        let code = json!({"type": "string", "pattern": "^[A-Z]{3}$"});
        assert!(check(&schemas, &code, &json!("GBP")).is_ok());
        assert!(check(&schemas, &code, &json!("gbp")).is_err());
        let one_of = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
        assert!(check(&schemas, &one_of, &json!(1.5)).is_ok());
        assert!(check(&schemas, &one_of, &json!(1)).is_err(), "1 is both an integer and a number");
    }
}
