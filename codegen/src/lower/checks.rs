//! Values held as any JSON where the document says more than one Rust type can (a choice whose
//! members cannot be told apart, keywords of several types, `not`): each is a named alias of
//! `serde_json::Value` whose schema servers check values against, gathered here into the one
//! bundle of schemas a server reads.

use openapiv3::Schema;
use serde_json::{Map, Value};

use super::Lowerer;
use super::Naming;
use crate::diagnostic::Pointer;
use crate::ir::{SchemaChecks, TypeDef, TypeRef};

impl Lowerer<'_> {
    /// A named alias of any JSON value for `schema`, found at `ptr`, which servers check values
    /// of it against.
    pub(crate) fn checked_json(
        &mut self,
        schema: &Schema,
        ptr: &Pointer,
        doc: Option<String>,
        naming: Naming,
    ) -> TypeRef {
        let check = Some(self.register_check(as_json(schema), ptr));
        let name = self.claim(naming);
        self.add_type(TypeDef::Alias { name: name.clone(), doc, target: TypeRef::Json, check, merged: false });
        self.named(&name)
    }

    /// Records that values are checked against `schema` (as JSON, found at `ptr`); its index
    /// among the checks.
    pub(crate) fn register_check(&mut self, schema: Value, ptr: &Pointer) -> usize {
        // A schema met again (a referenced one, read at each use) is checked by the same entry.
        if let Some(index) = self.checks.iter().position(|(known, _)| *known == schema) {
            return index;
        }
        self.checks.push((schema, ptr.clone()));
        self.checks.len() - 1
    }

    /// Records that a body is read from XML by `schema`, found at `ptr`; its index among the XML
    /// schemas.
    pub(crate) fn register_xml(&mut self, schema: Value, ptr: &Pointer) -> usize {
        self.xml_reads.push((schema, ptr.clone()));
        self.xml_reads.len() - 1
    }
}

/// A schema as the JSON it is written in (once read: 3.1 and Swagger 2.0 forms converted, slips
/// repaired).
pub(crate) fn as_json(schema: &impl serde::Serialize) -> Value {
    serde_json::to_value(schema).unwrap_or_default()
}

/// The bundle of every registered schema, the component schemas they refer to, and every
/// pattern spelled for the servers' regex engine. A pattern that engine cannot read is left out,
/// with a warning.
pub(crate) fn schema_checks(lowerer: &mut Lowerer) -> Option<SchemaChecks> {
    if lowerer.checks.is_empty() && lowerer.xml_reads.is_empty() {
        return None;
    }
    let spelled = |registered: Vec<(Value, Pointer)>, lowerer: &mut Lowerer| -> Vec<Value> {
        let mut schemas = Vec::new();
        for (mut schema, ptr) in registered {
            spell_patterns(&mut schema, &ptr, lowerer);
            schemas.push(schema);
        }
        schemas
    };
    let checks = spelled(std::mem::take(&mut lowerer.checks), lowerer);
    let xml = spelled(std::mem::take(&mut lowerer.xml_reads), lowerer);
    // The component schemas those refer to, and those they refer to in turn.
    let mut components = Map::new();
    let mut pending: Vec<String> = Vec::new();
    checks.iter().chain(&xml).for_each(|schema| references(schema, &mut pending));
    let all = lowerer.doc.components.as_ref().map(|c| &c.schemas);
    while let Some(name) = pending.pop() {
        if components.contains_key(&name) {
            continue;
        }
        let Some(found) = all.and_then(|all| all.get(&name)) else { continue };
        let mut schema = as_json(found);
        references(&schema, &mut pending);
        spell_patterns(&mut schema, &Pointer::root().push("components").push("schemas").push(&name), lowerer);
        components.insert(name, schema);
    }
    let bundle = serde_json::json!({ "checks": checks, "xml": xml, "components": { "schemas": components } });
    Some(SchemaChecks(bundle))
}

/// The names of the component schemas `value` refers to.
fn references(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                match member {
                    Value::String(reference) if key == "$ref" => {
                        if let Some(name) = reference.strip_prefix("#/components/schemas/") {
                            out.push(name.replace("~1", "/").replace("~0", "~"));
                        }
                    }
                    _ => references(member, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| references(item, out)),
        _ => {}
    }
}

/// Every `pattern` in `value` as the servers' regex engine reads it; one it cannot is removed,
/// said at `at`. Each `xml` object, kept aside while loading, is put back.
fn spell_patterns(value: &mut Value, at: &Pointer, lowerer: &mut Lowerer) {
    match value {
        Value::Object(map) => {
            if let Some(xml) = map.remove(crate::front::markers::XML) {
                map.insert("xml".to_string(), xml);
            }
            let mut unreadable = None;
            for (key, member) in map.iter_mut() {
                match member {
                    Value::String(written) if key == "pattern" => match lowerer.readable_pattern(written) {
                        Ok(spelled) => *written = spelled,
                        Err(_) => unreadable = Some(written.clone()),
                    },
                    _ => spell_patterns(member, at, lowerer),
                }
            }
            if let Some(written) = unreadable {
                map.remove("pattern");
                let message =
                    format!("the pattern {written:?} is one the servers' regex engine cannot read; it is not checked");
                lowerer.warn(at, message);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| spell_patterns(item, at, lowerer)),
        _ => {}
    }
}
