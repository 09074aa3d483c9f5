//! Values held as any JSON where the document says more than one Rust type can (a choice whose
//! members cannot be told apart, keywords of several types, `not`): each is a named alias of
//! `serde_json::Value` whose schema servers check values against, gathered here into the one
//! bundle of schemas a server reads.

use serde_json::{Map, Value};

use super::Lowerer;
use super::schema::Naming;
use crate::diagnostic::Pointer;
use crate::ir::{SchemaChecks, TypeDef, TypeRef};
use crate::sample::pattern;

impl Lowerer<'_> {
    /// A named alias of any JSON value for the schema at `ptr`, which servers check values of it
    /// against.
    pub(crate) fn checked_json(&mut self, ptr: &Pointer, doc: Option<String>, naming: Naming) -> TypeRef {
        let check = Some(self.register_check(ptr));
        let name = self.claim(naming);
        self.add_type(TypeDef::Alias { name: name.clone(), doc, target: TypeRef::Json, check });
        TypeRef::Named(name)
    }

    /// Records that values of the schema at `ptr` are checked against it; its index among the
    /// checks.
    pub(crate) fn register_check(&mut self, ptr: &Pointer) -> usize {
        self.checks.push(ptr.clone());
        self.checks.len() - 1
    }

    /// Records that a body of the schema at `ptr` is read from XML by that schema; its index
    /// among the XML schemas.
    pub(crate) fn register_xml(&mut self, ptr: &Pointer) -> usize {
        self.xml_reads.push(ptr.clone());
        self.xml_reads.len() - 1
    }
}

/// The bundle of every registered check: each schema as the document holds it once read (3.1
/// and Swagger 2.0 forms already converted), the component schemas they refer to, and every
/// pattern spelled for the servers' regex engine. A pattern that engine cannot read is left out,
/// with a warning.
pub(crate) fn schema_checks(lowerer: &mut Lowerer) -> Option<SchemaChecks> {
    if lowerer.checks.is_empty() && lowerer.xml_reads.is_empty() {
        return None;
    }
    let doc = serde_json::to_value(lowerer.doc).unwrap_or(Value::Null);
    let found_again = |pointers: Vec<Pointer>, lowerer: &mut Lowerer| -> Vec<Value> {
        let mut schemas = Vec::new();
        for ptr in pointers {
            let found = doc.pointer(ptr.json_pointer()).cloned();
            if found.is_none() {
                lowerer.warn(&ptr, "this schema cannot be found again in the document as read, so it is not used");
            }
            let mut schema = found.unwrap_or_else(|| Value::Object(Map::new()));
            spell_patterns(&mut schema, &ptr, lowerer);
            schemas.push(schema);
        }
        schemas
    };
    let checks = found_again(std::mem::take(&mut lowerer.checks), lowerer);
    let xml = found_again(std::mem::take(&mut lowerer.xml_reads), lowerer);
    // The component schemas those refer to, and those they refer to in turn.
    let mut components = Map::new();
    let mut pending: Vec<String> = Vec::new();
    checks.iter().chain(&xml).for_each(|schema| references(schema, &mut pending));
    while let Some(name) = pending.pop() {
        if components.contains_key(&name) {
            continue;
        }
        let ptr = Pointer::root().push("components").push("schemas").push(&name);
        let Some(mut schema) = doc.pointer(ptr.json_pointer()).cloned() else { continue };
        references(&schema, &mut pending);
        spell_patterns(&mut schema, &ptr, lowerer);
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
            if let Some(xml) = map.remove(crate::repair::XML) {
                map.insert("xml".to_string(), xml);
            }
            let mut unreadable = None;
            for (key, member) in map.iter_mut() {
                match member {
                    Value::String(written) if key == "pattern" => {
                        let spelled = pattern::for_rust(written).into_owned();
                        if regex_lite::Regex::new(&spelled).is_ok() {
                            *written = spelled;
                        } else {
                            unreadable = Some(written.clone());
                        }
                    }
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
