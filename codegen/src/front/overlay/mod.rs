//! OpenAPI Overlay 1.0: documents of ordered actions, each a JSONPath target and either an update
//! merged into every node it selects or their removal, applied to the description before anything
//! else reads it — the way to fix or annotate someone else's description without editing it.
//!
//! An update merges into an object member by member (objects within it merge the same way, lists
//! are appended to, anything else is replaced) and is appended to a list; a target that selects
//! nothing is an error, as an overlay that no longer applies would otherwise change nothing
//! without a word.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::front::bundle::weight;
use target::{Shape, Step, Target};

mod cost;
mod target;

/// Most actions one overlay may hold: a bound on what a hostile overlay can make the generator do.
const MOST_ACTIONS: usize = 10_000;

/// Most steps (nodes visited, filters tested, location steps written) the targets of all overlays
/// together may take, counted as their bound before each runs ([`Target::cost`]): some twenty
/// queries that search the whole of GitHub's description, a few seconds of work at most.
pub const MOST_QUERY_STEPS: f64 = 100_000_000.0;

/// How many times what the description and its overlays weigh (see [`weight`]) the updates may
/// add to it: an update applied to every node (`$..*`) doubles the description each time.
const MOST_GROWTH_FACTOR: usize = 8;

/// What updates may add however small the description: a million nodes and bytes.
const LEAST_GROWTH_ROOM: usize = 1 << 20;

/// One overlay document: its path (for diagnostics) and its parsed content, or why it does not
/// parse.
pub struct Overlay<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub parsed: Result<Value, (String, Option<usize>)>,
}

/// Applies `overlays` to `doc` in order; every problem is reported, located in its overlay.
pub fn apply(doc: &mut Value, overlays: &[Overlay<'_>]) -> Result<(), Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let mut spent = 0.0;
    let mut shape = Shape::of(doc);
    let texts: usize = overlays.iter().map(|o| o.text.len()).sum();
    let room = weight(doc).saturating_add(texts).saturating_mul(MOST_GROWTH_FACTOR).max(LEAST_GROWTH_ROOM);
    let mut grown = 0usize;
    for overlay in overlays {
        let mut fail = |pointer: String, message: String| {
            let line = crate::front::locate::line_of(overlay.text, &pointer);
            problems.push(Diagnostic {
                severity: crate::diagnostic::Severity::Error,
                pointer: format!("{}{pointer}", overlay.path),
                line,
                message,
            });
        };
        let value = match &overlay.parsed {
            Ok(value) => value,
            Err((message, line)) => {
                let pointer = format!("{}#", overlay.path);
                problems.push(Diagnostic {
                    severity: crate::diagnostic::Severity::Error,
                    pointer,
                    line: *line,
                    message: format!("does not parse: {message}"),
                });
                continue;
            }
        };
        match value.get("overlay").and_then(Value::as_str) {
            Some(version) if version.starts_with("1.0.") || version == "1.0" => {}
            Some(version) => {
                fail("#/overlay".into(), format!("`overlay: {version}` is not a version this generator reads; 1.0 is"));
                continue;
            }
            None => {
                fail("#".into(), "an overlay says its version in `overlay: 1.0.0`".into());
                continue;
            }
        }
        let Some(actions) = value.get("actions").and_then(Value::as_array) else {
            fail("#".into(), "an overlay lists its changes under `actions`".into());
            continue;
        };
        if actions.len() > MOST_ACTIONS {
            fail("#/actions".into(), format!("more than {MOST_ACTIONS} actions"));
            continue;
        }
        for (i, action) in actions.iter().enumerate() {
            let at = format!("#/actions/{i}");
            let Some(target) = action.get("target").and_then(Value::as_str) else {
                fail(at, "an action names what it changes in `target`, a JSONPath query".into());
                continue;
            };
            let query = match Target::parse(target) {
                Ok(query) => query,
                Err(e) => {
                    fail(format!("{at}/target"), format!("`{target}` is not a JSONPath query: {e}"));
                    continue;
                }
            };
            let remove = action.get("remove").and_then(Value::as_bool).unwrap_or(false);
            let update = action.get("update");
            if !remove && update.is_none() {
                fail(at, "an action has an `update` or `remove: true`".into());
                continue;
            }
            spent += query.cost(shape);
            // A bound that is not a number is refused too.
            if spent.is_nan() || spent > MOST_QUERY_STEPS {
                fail(
                    format!("{at}/target"),
                    format!(
                        "`{target}` could take the overlays' queries past {MOST_QUERY_STEPS} steps on this description; target the nodes more directly"
                    ),
                );
                return Err(problems);
            }
            let mut found = query.locate(doc);
            if found.is_empty() {
                fail(format!("{at}/target"), format!("`{target}` selects nothing in the description"));
                continue;
            }
            if remove {
                // Later elements of a list first, so the earlier ones keep their indices.
                found.sort();
                for path in found.iter().rev() {
                    remove_at(doc, path);
                }
            } else if let Some(update) = update {
                grown = grown.saturating_add(weight(update).saturating_mul(found.len()));
                if grown > room {
                    fail(
                        format!("{at}/update"),
                        format!(
                            "the updates would make the description more than {MOST_GROWTH_FACTOR} times the size of it and its overlays (this one is applied to {} nodes)",
                            found.len()
                        ),
                    );
                    return Err(problems);
                }
                for path in &found {
                    if let Some(node) = node_at(doc, path) {
                        merge(node, update);
                    }
                }
                // What later targets can meet: the nodes added, as deep as the deepest target.
                let added = Shape::of(update);
                let deepest = found.iter().map(Vec::len).max().unwrap_or(0) as f64;
                shape.nodes += added.nodes * found.len() as f64;
                shape.depth = shape.depth.max(deepest + added.depth);
            }
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

fn node_at<'v>(doc: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter().try_fold(doc, |node, step| match (step, node) {
        (Step::Key(key), Value::Object(map)) => map.get_mut(key),
        (Step::Index(i), Value::Array(items)) => items.get_mut(*i),
        _ => None,
    })
}

fn remove_at(doc: &mut Value, path: &[Step]) {
    let Some((last, parent)) = path.split_last() else {
        // The whole description: nothing is left to describe.
        *doc = Value::Null;
        return;
    };
    match (last, node_at(doc, parent)) {
        (Step::Key(key), Some(Value::Object(map))) => {
            map.shift_remove(key);
        }
        (Step::Index(i), Some(Value::Array(items))) if *i < items.len() => {
            items.remove(*i);
        }
        _ => {}
    }
}

/// Merges `update` into `node`: members into an object, recursively; onto the end of a list;
/// anything else replaces it.
fn merge(node: &mut Value, update: &Value) {
    match (node, update) {
        (Value::Object(map), Value::Object(members)) => {
            for (key, value) in members {
                match map.get_mut(key) {
                    Some(existing @ (Value::Object(_) | Value::Array(_))) => merge(existing, value),
                    _ => {
                        map.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (Value::Array(items), Value::Array(more)) => items.extend(more.iter().cloned()),
        (Value::Array(items), value) => items.push(value.clone()),
        (node, value) => *node = value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Overlay, apply};

    fn overlay(value: serde_json::Value) -> Overlay<'static> {
        Overlay { path: "fix.yaml", text: "", parsed: Ok(value) }
    }

    #[test]
    fn actions_update_append_and_remove_in_order() {
        let mut doc = json!({
            "info": {"title": "T", "version": "1"},
            "tags": [{"name": "a"}],
            "paths": {"/a": {"get": {"operationId": "a", "x-internal": true}}, "/b": {"get": {"operationId": "b"}}}
        });
        let fix = overlay(json!({"overlay": "1.0.0", "info": {"title": "fix", "version": "1"}, "actions": [
            {"target": "$.info", "update": {"description": "Described", "title": "Retitled"}},
            {"target": "$.tags", "update": {"name": "b"}},
            {"target": "$.paths.*[?@['x-internal'] == true]", "remove": true},
            {"target": "$.paths['/b'].get", "update": {"summary": "B"}}
        ]}));
        apply(&mut doc, &[fix]).expect("applies");
        assert_eq!(doc["info"], json!({"title": "Retitled", "version": "1", "description": "Described"}));
        assert_eq!(doc["tags"], json!([{"name": "a"}, {"name": "b"}]));
        assert_eq!(doc["paths"]["/a"], json!({}));
        assert_eq!(doc["paths"]["/b"]["get"]["summary"], "B");
    }

    #[test]
    fn a_node_chosen_by_several_selectors_is_changed_once() {
        let mut doc = json!({"lists": [[1], [2]], "x-removed": [0, 1, 2, 3]});
        let fix = overlay(json!({"overlay": "1.0.0", "info": {"title": "fix", "version": "1"}, "actions": [
            {"target": "$.lists[0, 0, -2]", "update": [9]},
            {"target": "$['x-removed'][1, 1, 2, 1]", "remove": true}
        ]}));
        apply(&mut doc, &[fix]).expect("applies");
        assert_eq!(doc["lists"], json!([[1, 9], [2]]));
        assert_eq!(doc["x-removed"], json!([0, 3]));
    }

    #[test]
    fn a_target_that_selects_nothing_is_an_error_where_it_is_written() {
        let text = "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n  - target: $.paths['/gone']\n    remove: true\n";
        let parsed = json!({"overlay": "1.0.0", "info": {"title": "t", "version": "1"},
                            "actions": [{"target": "$.paths['/gone']", "remove": true}]});
        let fix = Overlay { path: "overlays/fix.yaml", text, parsed: Ok(parsed) };
        let problems = apply(&mut json!({"paths": {}}), &[fix]).unwrap_err();
        assert_eq!(problems[0].pointer, "overlays/fix.yaml#/actions/0/target");
        assert_eq!(problems[0].line, Some(4));
        assert!(problems[0].message.contains("selects nothing"), "{}", problems[0].message);
    }
}
