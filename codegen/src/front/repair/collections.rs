//! Lists and maps where OpenAPI wants them: an empty list written for an empty map, and `null`
//! written for a list or a map, both slips of generators that the typed model refuses whole.

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Pointer};

/// Keys whose value is a map in OpenAPI (and `properties` in a schema).
const MAPS: [&str; 19] = [
    "paths",
    "components",
    "schemas",
    "responses",
    "parameters",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "callbacks",
    "content",
    "encoding",
    "properties",
    "variables",
    "mapping",
    "examples",
    "definitions",
    "scopes",
    "webhooks",
];

/// Keys whose value is a list in OpenAPI (and in a schema).
const LISTS: [&str; 9] = ["servers", "tags", "parameters", "security", "required", "enum", "allOf", "anyOf", "oneOf"];

/// Whether a key's value is data (an example, a default, extension content), not structure.
fn is_data(key: &str) -> bool {
    ["example", "default", "enum", "value", "const"].contains(&key) || key.starts_with("x-")
}

/// Where OpenAPI wants a map, or the object a map holds, an empty list (`[]`, as PHP writes an
/// empty map, in API Platform's output) is read as an empty map.
pub(super) fn empty_lists_as_maps(value: &mut Value, at: &Pointer, notes: &mut Vec<Diagnostic>) {
    match value {
        Value::Object(map) => {
            // A map whose entries are objects (replies, media types, properties, …).
            let holds_objects = |key: &str| MAPS.contains(&key) && key != "parameters";
            for (key, member) in map.iter_mut() {
                let member_at = at.push(key);
                let empty = matches!(member, Value::Array(items) if items.is_empty());
                // An operation's `parameters` is a list; only `components/parameters` is a map.
                let map_here =
                    MAPS.contains(&key.as_str()) && (key != "parameters" || at.to_string() == "#/components");
                if empty && map_here {
                    *member = Value::Object(Map::new());
                    let message = format!("`{key}` is an empty list where OpenAPI wants a map; read as an empty map");
                    notes.push(Diagnostic {
                        severity: crate::diagnostic::Severity::Note,
                        pointer: member_at.to_string(),
                        line: None,
                        message,
                    });
                    continue;
                }
                if holds_objects(key)
                    && let Value::Object(entries) = member
                {
                    for (name, entry) in entries.iter_mut() {
                        if matches!(entry, Value::Array(items) if items.is_empty()) {
                            *entry = Value::Object(Map::new());
                            let message =
                                "an empty list where OpenAPI wants an object; read as an empty one".to_string();
                            notes.push(Diagnostic {
                                severity: crate::diagnostic::Severity::Note,
                                pointer: member_at.push(name).to_string(),
                                line: None,
                                message,
                            });
                        }
                    }
                }
                if !is_data(key) {
                    empty_lists_as_maps(member, &member_at, notes);
                }
            }
        }
        Value::Array(items) => {
            items.iter_mut().enumerate().for_each(|(i, item)| empty_lists_as_maps(item, &at.push(i), notes));
        }
        _ => {}
    }
}

/// `null` where OpenAPI wants a list or a map (`tags:` with nothing after it, in YAML) is read as
/// if the key were left out, which means the same for every such key; `paths` and an operation's
/// `responses`, which must be there, are read as empty. Keys inside a map are names (a property
/// called `tags`), not keywords, so only their values are looked into.
pub(super) fn null_collections(doc: &mut Value, notes: &mut Vec<Diagnostic>) {
    nulls_in(doc, &Pointer::root, Place::Root, notes);
}

/// What holds a value, for the keys that mean one thing at the root or in `components` and
/// another elsewhere.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Root,
    Components,
    /// An object of keywords.
    Other,
    /// A map: its keys are names.
    Names,
}

/// The walk of [`null_collections`]. The pointer is made only for a warning: the walk visits
/// every node of documents of millions.
fn nulls_in(value: &mut Value, at: &dyn Fn() -> Pointer, place: Place, notes: &mut Vec<Diagnostic>) {
    match value {
        Value::Object(map) => {
            if place != Place::Names {
                let null_key = |(key, member): (&String, &Value)| {
                    (member.is_null() && (MAPS.contains(&key.as_str()) || LISTS.contains(&key.as_str())))
                        .then(|| key.clone())
                };
                let nulls: Vec<String> = map.iter().filter_map(null_key).collect();
                for key in nulls {
                    let list = LISTS.contains(&key.as_str()) && !(key == "parameters" && place == Place::Components);
                    let required =
                        (key == "paths" && place == Place::Root) || (key == "responses" && place != Place::Components);
                    let read = if required {
                        map.insert(key.clone(), Value::Object(Map::new()));
                        "read as empty"
                    } else {
                        map.remove(&key);
                        "read as if it were left out"
                    };
                    let wants = if list { "a list" } else { "a map" };
                    let message = format!("`{key}` is `null` where OpenAPI wants {wants}; {read}");
                    notes.push(Diagnostic {
                        severity: crate::diagnostic::Severity::Note,
                        pointer: at().push(&key).to_string(),
                        line: None,
                        message,
                    });
                }
            }
            for (key, member) in map.iter_mut() {
                if place != Place::Names && is_data(key) {
                    continue;
                }
                let inner = match place {
                    Place::Names => Place::Other,
                    Place::Root if key == "components" => Place::Components,
                    _ if key == "parameters" && place != Place::Components => Place::Other,
                    _ if MAPS.contains(&key.as_str()) => Place::Names,
                    _ => Place::Other,
                };
                nulls_in(member, &|| at().push(key), inner, notes);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                nulls_in(item, &|| at().push(i), Place::Other, notes);
            }
        }
        _ => {}
    }
}
