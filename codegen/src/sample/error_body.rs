//! Documented error bodies as shapes the server fills: which property takes the message, the
//! status, a code, the per-field messages.

use serde_json::{Map, Value, json};

use super::{Options, Schemas, check, merge_all_of, resolve_shallow, sample, type_of};
use crate::ir::{ErrorList, Fill};

/// A documented error body: a valid instance holding what the schema requires, and where the
/// error's parts are written into it. `None` when the schema allows no value the sampler finds.
pub fn error_body(schemas: &Schemas, schema: &Value) -> Option<(Value, Vec<(String, Fill)>)> {
    let options = Options { seed: 0, full: false };
    let template = sample(schemas, schema, options).ok()?;
    let mut fills = Vec::new();
    slots(schemas, schema, "", &mut fills, 0);
    // A slot is kept only when the body with it written still satisfies the schema (an enum of
    // codes, a pattern, a length limit can each rule it out).
    fills.retain(|(pointer, fill)| {
        let mut body = template.clone();
        write(&mut body, pointer, probe(fill));
        check(schemas, schema, &body).is_ok()
    });
    Some((template, fills))
}

/// Writes `value` at `pointer` (one level of properties below the root or a nested object),
/// adding objects on the way.
pub fn write(body: &mut Value, pointer: &str, value: Value) {
    let mut at = body;
    let mut names = pointer.split('/').skip(1).map(|n| n.replace("~1", "/").replace("~0", "~")).peekable();
    while let Some(name) = names.next() {
        let Some(object) = at.as_object_mut() else { return };
        if names.peek().is_none() {
            object.insert(name, value);
            return;
        }
        at = object.entry(name).or_insert_with(|| json!({}));
    }
}

/// A value typical of what the server writes in a slot, to test the slot against the schema.
fn probe(fill: &Fill) -> Value {
    match fill {
        Fill::Detail => json!("the query parameter `limit` must be at most 100"),
        Fill::Title => json!("Bad Request"),
        Fill::Status => json!(400),
        Fill::StatusText => json!("400"),
        Fill::Code => json!("invalid_request"),
        Fill::Type => json!("urn:problem-type:invalid-request"),
        Fill::Instance => json!("/pets"),
        Fill::Errors(ErrorList::Strings) => json!(["limit: must be at most 100"]),
        Fill::Errors(ErrorList::Objects { name, message }) => {
            json!([{ name.clone(): "limit", message.clone(): "must be at most 100" }])
        }
        Fill::Errors(ErrorList::Messages { message }) => json!([{ message.clone(): "limit: must be at most 100" }]),
        Fill::Errors(ErrorList::Map) => json!({ "limit": "must be at most 100" }),
        Fill::Errors(ErrorList::MapOfLists) => json!({ "limit": ["must be at most 100"] }),
    }
}

/// The slots of an object schema, by property name, looking one level into an `error` or `status`
/// object.
fn slots(schemas: &Schemas, schema: &Value, prefix: &str, fills: &mut Vec<(String, Fill)>, depth: usize) {
    let Some(object) = object_schema(schemas, schema) else { return };
    let Some(properties) = object.get("properties").and_then(Value::as_object) else { return };
    let mut taken = Vec::new();
    let squashed = |name: &String| name.to_ascii_lowercase().replace(['_', '-'], "");
    let details = ["message", "detail", "msg", "description", "errordescription", "errormessage", "details"];
    // Without a message beside it, an `error` text is where the problem is said.
    let has_detail = properties.keys().any(|name| details.contains(&squashed(name).as_str()));
    for (name, property) in properties {
        let property = flat(schemas, property);
        let pointer = format!("{prefix}/{}", name.replace('~', "~0").replace('/', "~1"));
        let kind = type_of(&property);
        let lower = squashed(name);
        let fill = match (lower.as_str(), kind) {
            // `{"error": {...}}`, or `{"status": {"error": "..."}}` as some services write.
            ("error" | "status", "object") if depth == 0 => {
                slots(schemas, &Value::Object(property.clone()), &pointer, fills, depth + 1);
                continue;
            }
            ("message" | "detail" | "msg" | "description" | "errordescription" | "errormessage", "string") => {
                Fill::Detail
            }
            ("details", "string") => Fill::Detail,
            ("error", "string") if !has_detail => Fill::Detail,
            ("title" | "error" | "summary" | "reason", "string") => Fill::Title,
            ("status" | "statuscode" | "httpstatus" | "code" | "errorcode", "integer" | "number") => Fill::Status,
            ("status" | "statuscode" | "httpstatus", "string") => Fill::StatusText,
            ("code" | "errorcode" | "errortype", "string") => Fill::Code,
            ("type", "string") => Fill::Type,
            ("instance" | "path", "string") => Fill::Instance,
            (
                "errors" | "details" | "fields" | "violations" | "issues" | "fielderrors" | "validationerrors"
                | "invalidparams" | "invalidfields",
                _,
            ) => match error_list(schemas, &property) {
                Some(list) => Fill::Errors(list),
                None => continue,
            },
            _ => continue,
        };
        // One property per part: `message` and `detail` both present keep the first.
        if taken.contains(&fill) {
            continue;
        }
        taken.push(fill.clone());
        fills.push((pointer, fill));
    }
}

/// How a property lists per-field messages, when it is a list or map of a form the server can
/// write.
fn error_list(schemas: &Schemas, property: &Map<String, Value>) -> Option<ErrorList> {
    match type_of(property) {
        "array" => {
            let items = flat(schemas, property.get("items")?);
            match type_of(&items) {
                "string" => Some(ErrorList::Strings),
                "object" => {
                    let names = items.get("properties")?.as_object()?;
                    let find = |candidates: &[&str]| {
                        names
                            .iter()
                            .find(|(n, p)| {
                                let lower = n.to_ascii_lowercase();
                                candidates.contains(&lower.as_str()) && type_of(&flat(schemas, p)) == "string"
                            })
                            .map(|(n, _)| n.clone())
                    };
                    let name =
                        find(&["field", "name", "path", "param", "parameter", "property", "pointer", "location"]);
                    let message = find(&["message", "msg", "reason", "detail", "description", "error"])?;
                    Some(match name {
                        Some(name) => ErrorList::Objects { name, message },
                        None => ErrorList::Messages { message },
                    })
                }
                _ => None,
            }
        }
        "object" => {
            let values = flat(schemas, property.get("additionalProperties")?);
            match type_of(&values) {
                "string" => Some(ErrorList::Map),
                "array" => {
                    let items = flat(schemas, values.get("items")?);
                    (type_of(&items) == "string").then_some(ErrorList::MapOfLists)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// An object schema with references followed and `allOf` merged.
fn object_schema(schemas: &Schemas, schema: &Value) -> Option<Map<String, Value>> {
    let object = flat(schemas, schema);
    (type_of(&object) == "object").then_some(object)
}

fn flat(schemas: &Schemas, schema: &Value) -> Map<String, Value> {
    let resolved = resolve_shallow(schemas, schema).as_object().cloned().unwrap_or_default();
    // A part that refers back to where it is merged is left unmerged.
    if resolved.contains_key("allOf") {
        merge_all_of(schemas, &resolved, &mut Vec::new()).unwrap_or(resolved)
    } else {
        resolved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(schemas: Value, schema: Value) -> (Value, Vec<(String, Fill)>) {
        error_body(&Schemas::new(schemas), &schema).expect("a body")
    }

    #[test]
    fn code_and_message_take_the_status_and_the_detail() {
        let schema = json!({
            "type": "object", "required": ["code", "message"],
            "properties": { "code": { "type": "integer", "format": "int32" }, "message": { "type": "string" } }
        });
        let (template, fills) = shape(json!({}), schema);
        assert!(template["code"].is_i64() && template["message"].is_string());
        assert_eq!(fills, vec![("/code".to_string(), Fill::Status), ("/message".to_string(), Fill::Detail)]);
    }

    #[test]
    fn a_numeric_error_code_is_the_status() {
        let schema = json!({
            "type": "object", "required": ["error", "errorCode", "errorDescription"],
            "properties": {
                "error": { "type": "string", "example": "Unauthorized" },
                "errorCode": { "type": "integer", "example": 401 },
                "errorDescription": { "type": "string" }
            }
        });
        let (_, fills) = shape(json!({}), schema);
        assert!(fills.contains(&("/errorCode".to_string(), Fill::Status)), "{fills:?}");
        assert!(fills.contains(&("/errorDescription".to_string(), Fill::Detail)), "{fills:?}");
    }

    #[test]
    fn a_nested_error_object_and_a_field_list_are_found_through_references() {
        let schemas = json!({
            "Violation": { "type": "object", "properties": { "field": { "type": "string" }, "message": { "type": "string" } } },
            "Error": { "type": "object", "required": ["error"], "properties": { "error": {
                "type": "object", "required": ["code"],
                "properties": {
                    "code": { "type": "string" },
                    "violations": { "type": "array", "items": { "$ref": "#/components/schemas/Violation" } }
                }
            } } }
        });
        let (template, fills) = shape(schemas, json!({ "$ref": "#/components/schemas/Error" }));
        assert!(template["error"]["code"].is_string());
        let list = ErrorList::Objects { name: "field".into(), message: "message".into() };
        assert_eq!(fills, vec![("/error/code".into(), Fill::Code), ("/error/violations".into(), Fill::Errors(list))]);
    }

    #[test]
    fn a_slot_whose_schema_rules_out_what_the_server_writes_is_left_alone() {
        let schema = json!({
            "type": "object", "required": ["code", "message"],
            "properties": {
                "code": { "type": "string", "enum": ["E_LIMIT", "E_AUTH"] },
                "message": { "type": "string", "maxLength": 8 }
            }
        });
        let (template, fills) = shape(json!({}), schema.clone());
        assert!(fills.is_empty(), "{fills:?}");
        assert!(check(&Schemas::new(json!({})), &schema, &template).is_ok());
    }

    #[test]
    fn an_error_text_inside_a_status_object_takes_the_detail() {
        let (template, fills) = shape(
            json!({}),
            json!({
                "type": "object",
                "properties": {
                    "time": { "type": "number" },
                    "status": { "type": "object", "properties": { "error": { "type": "string" } } }
                }
            }),
        );
        assert!(template.is_object());
        assert_eq!(fills, [("/status/error".to_string(), Fill::Detail)]);
    }

    #[test]
    fn a_list_of_messages_without_field_names_carries_the_detail() {
        let (_, fills) = shape(
            json!({}),
            json!({
                "type": "object", "required": ["errors"],
                "properties": { "errors": { "type": "array", "items": {
                    "type": "object", "required": ["detail"], "properties": { "detail": { "type": "string" } }
                } } }
            }),
        );
        assert_eq!(fills, [("/errors".to_string(), Fill::Errors(ErrorList::Messages { message: "detail".into() }))]);
    }

    #[test]
    fn writing_adds_the_objects_on_the_way() {
        let mut body = json!({});
        write(&mut body, "/error/message", json!("gone"));
        assert_eq!(body, json!({ "error": { "message": "gone" } }));
    }
}
