//! A request body sent as XML, read into the JSON value its schema describes, so that it is then
//! read like the same body sent as JSON.
//!
//! OpenAPI says how a schema's values look in XML with its `xml` objects: a property is a child
//! element named as the property (or `xml.name`), or an attribute (`xml.attribute`); a list is
//! its items repeated under the property's name, or wrapped in one element (`xml.wrapped`). Text
//! is read as the schema's type says. Documents without DTDs only, as `roxmltree` reads them by
//! default, so no entity can expand.

use serde_json::{Map, Number, Value};

use crate::json_schema::JsonSchemas;

/// How deep elements may nest, and references resolve, before the body is refused.
const MAX_DEPTH: usize = 64;

/// The JSON value `text` (an XML document) holds, as `schema` describes it; `schemas` resolves
/// its references.
pub fn to_json(text: &str, schema: &Value, schemas: &JsonSchemas) -> Result<Value, String> {
    let document = roxmltree::Document::parse(text).map_err(|e| format!("the body is not XML: {e}"))?;
    Reader { schemas }.element(document.root_element(), schema, 0)
}

struct Reader<'a> {
    schemas: &'a JsonSchemas,
}

/// What a schema says about its values, once its references and `allOf` members are followed.
#[derive(Default)]
struct Shape<'s> {
    kind: Option<&'s str>,
    properties: Vec<(&'s str, &'s Value)>,
    items: Option<&'s Value>,
    xml: Option<&'s Map<String, Value>>,
}

impl<'a> Reader<'a> {
    /// `schema` with references followed and `allOf` members joined.
    fn shape(&self, schema: &'a Value, depth: usize) -> Result<Shape<'a>, String> {
        if depth > MAX_DEPTH {
            return Err("the schema refers to itself without end".to_string());
        }
        let Some(map) = schema.as_object() else { return Ok(Shape::default()) };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let target = self.schemas.resolve(reference).ok_or_else(|| format!("{reference} names nothing"))?;
            return self.shape(target, depth + 1);
        }
        let mut shape = Shape {
            kind: map.get("type").and_then(Value::as_str),
            properties: map
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.as_str(), v))
                .collect(),
            items: map.get("items"),
            xml: map.get("xml").and_then(Value::as_object),
        };
        for member in map.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            let member = self.shape(member, depth + 1)?;
            shape.kind = shape.kind.or(member.kind);
            shape.items = shape.items.or(member.items);
            shape.properties.extend(member.properties);
        }
        if shape.kind.is_none() && !shape.properties.is_empty() {
            shape.kind = Some("object");
        }
        Ok(shape)
    }

    /// The value of one element.
    fn element(&self, node: roxmltree::Node, schema: &'a Value, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!("elements nest more than {MAX_DEPTH} deep"));
        }
        let shape = self.shape(schema, 0)?;
        match shape.kind {
            Some("object") => self.object(node, &shape, depth),
            Some("array") => {
                let items = shape.items.unwrap_or(&Value::Null);
                children(node)
                    .map(|child| self.element(child, items, depth + 1))
                    .collect::<Result<_, _>>()
                    .map(Value::Array)
            }
            Some(kind) => Ok(scalar(&text_of(node), kind)),
            // A schema that says no type: elements within are an object, else the text.
            None if children(node).next().is_some() => Ok(untyped(node, depth)),
            None => Ok(Value::String(text_of(node))),
        }
    }

    fn object(&self, node: roxmltree::Node, shape: &Shape<'a>, depth: usize) -> Result<Value, String> {
        // Text where elements belong is no object: it stays text, for the type check to name.
        let text = text_of(node);
        if children(node).next().is_none() && !text.trim().is_empty() {
            return Ok(Value::String(text));
        }
        let mut out = Map::new();
        for &(property, schema) in &shape.properties {
            let inner = self.shape(schema, 0)?;
            // The property's own `xml` names it; a referenced schema's name is for where it is the
            // whole body.
            let own_xml = schema.get("xml").and_then(Value::as_object);
            let flag = |key: &str| own_xml.and_then(|x| x.get(key)).and_then(Value::as_bool) == Some(true);
            let name = own_xml.and_then(|x| x.get("name")).and_then(Value::as_str).unwrap_or(property);
            if flag("attribute") {
                if let Some(text) = node.attribute(name) {
                    out.insert(property.to_string(), scalar(text, inner.kind.unwrap_or("string")));
                }
                continue;
            }
            if inner.kind == Some("array") {
                let items = inner.items.unwrap_or(&Value::Null);
                let item_name = self.shape(items, 0)?.xml.and_then(|x| x.get("name")).and_then(Value::as_str);
                let elements: Vec<roxmltree::Node> = if flag("wrapped") {
                    let Some(wrapper) = named(node, name).next() else { continue };
                    // Text where the items belong is no list: it stays text, as for an object.
                    let text = text_of(wrapper);
                    if children(wrapper).next().is_none() && !text.trim().is_empty() {
                        out.insert(property.to_string(), Value::String(text));
                        continue;
                    }
                    children(wrapper).collect()
                } else {
                    named(node, item_name.unwrap_or(name)).collect()
                };
                if elements.is_empty() && !flag("wrapped") {
                    continue;
                }
                let values =
                    elements.into_iter().map(|e| self.element(e, items, depth + 1)).collect::<Result<_, _>>()?;
                out.insert(property.to_string(), Value::Array(values));
                continue;
            }
            // Writers also name the element by the referenced schema's own `xml.name` (as
            // OpenAPI's petstore writes `<Category>`): either is read.
            let own_name = own_xml.is_some_and(|x| x.contains_key("name"));
            let schema_name = inner.xml.and_then(|x| x.get("name")).and_then(Value::as_str).filter(|_| !own_name);
            let child = named(node, name).next().or_else(|| schema_name.and_then(|n| named(node, n).next()));
            if let Some(child) = child {
                out.insert(property.to_string(), self.element(child, schema, depth + 1)?);
            }
        }
        Ok(Value::Object(out))
    }
}

/// The element children of `node`.
fn children<'a, 'i>(node: roxmltree::Node<'a, 'i>) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    node.children().filter(roxmltree::Node::is_element)
}

/// The element children of `node` called `name` (without regard to their namespace).
fn named<'a, 'i: 'a>(node: roxmltree::Node<'a, 'i>, name: &'a str) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    children(node).filter(move |child| child.tag_name().name() == name)
}

/// The text an element holds, its child elements' text included.
fn text_of(node: roxmltree::Node) -> String {
    node.descendants().filter(roxmltree::Node::is_text).filter_map(|t| t.text()).collect()
}

/// An element whose schema gives no type: its children as members, a name given several times
/// collected into a list.
fn untyped(node: roxmltree::Node, depth: usize) -> Value {
    if depth > MAX_DEPTH || children(node).next().is_none() {
        return Value::String(text_of(node));
    }
    let mut out = Map::new();
    for child in children(node) {
        let value = untyped(child, depth + 1);
        match out.get_mut(child.tag_name().name()) {
            Some(Value::Array(items)) => items.push(value),
            Some(one) => *one = Value::Array(vec![one.take(), value]),
            None => {
                out.insert(child.tag_name().name().to_string(), value);
            }
        }
    }
    Value::Object(out)
}

/// `text` as a value of JSON type `kind`; text that is not one stays text, for the type check to
/// name.
fn scalar(text: &str, kind: &str) -> Value {
    let trimmed = text.trim();
    let parsed = match kind {
        "integer" => trimmed.parse::<i64>().ok().map(Value::from),
        "number" => trimmed.parse::<f64>().ok().and_then(Number::from_f64).map(Value::Number),
        "boolean" => match trimmed {
            "true" | "1" => Some(Value::Bool(true)),
            "false" | "0" => Some(Value::Bool(false)),
            _ => None,
        },
        _ => None,
    };
    parsed.unwrap_or_else(|| Value::String(text.to_string()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::to_json;
    use crate::json_schema::JsonSchemas;

    fn schemas() -> JsonSchemas {
        let root = json!({"components": {"schemas": {
            "Owner": {"type": "object", "properties": {"id": {"type": "string"}}, "xml": {"name": "Owner"}},
            "Tag": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}, "xml": {"name": "tag"}},
            "Pet": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "id": {"type": "integer", "xml": {"attribute": true}},
                    "name": {"type": "string"},
                    "photoUrls": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "string", "xml": {"name": "photoUrl"}}},
                    "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
                    "keeper": {"$ref": "#/components/schemas/Owner"},
                    "sold": {"type": "boolean"},
                    "weight": {"type": "number"}
                },
                "xml": {"name": "pet"}
            }
        }}});
        JsonSchemas::new(root, str::to_string)
    }

    #[test]
    fn elements_attributes_and_lists_are_read_as_the_schema_says() {
        let xml = r#"<?xml version="1.0"?>
            <pet id="7"><name>Rex</name><photoUrls><photoUrl>a</photoUrl><photoUrl>b</photoUrl></photoUrls>
            <tag><id>1</id><name>good</name></tag><tag><id>2</id><name>dog</name></tag>
            <sold>false</sold><weight>12.5</weight></pet>"#;
        let value = to_json(xml, &json!({"$ref": "#/components/schemas/Pet"}), &schemas()).unwrap();
        let expected = json!({
            "id": 7, "name": "Rex", "photoUrls": ["a", "b"],
            "tags": [{"id": 1, "name": "good"}, {"id": 2, "name": "dog"}],
            "sold": false, "weight": 12.5
        });
        assert_eq!(value, expected);
    }

    #[test]
    fn what_is_not_there_is_absent_and_text_of_the_wrong_type_stays_text() {
        let value = to_json("<pet><id>x</id></pet>", &json!({"$ref": "#/components/schemas/Pet"}), &schemas()).unwrap();
        assert_eq!(value, json!({}), "an element where an attribute is expected is not read");
        let value = to_json("<pet><sold>maybe</sold></pet>", &json!({"$ref": "#/components/schemas/Pet"}), &schemas());
        assert_eq!(value.unwrap(), json!({"sold": "maybe"}));
        let value = to_json("<pet><tag>null</tag></pet>", &json!({"$ref": "#/components/schemas/Pet"}), &schemas());
        assert_eq!(value.unwrap(), json!({"tags": ["null"]}), "text where an object belongs");
        for xml in ["<pet><keeper><id>x</id></keeper></pet>", "<pet><Owner><id>x</id></Owner></pet>"] {
            let value = to_json(xml, &json!({"$ref": "#/components/schemas/Pet"}), &schemas());
            assert_eq!(value.unwrap(), json!({"keeper": {"id": "x"}}), "named as its property or its schema: {xml}");
        }
        let value =
            to_json("<pet><photoUrls>AAA</photoUrls></pet>", &json!({"$ref": "#/components/schemas/Pet"}), &schemas());
        assert_eq!(value.unwrap(), json!({"photoUrls": "AAA"}), "text where a wrapped list's items belong");
        let value =
            to_json("<pet><photoUrls> </photoUrls></pet>", &json!({"$ref": "#/components/schemas/Pet"}), &schemas());
        assert_eq!(value.unwrap(), json!({"photoUrls": []}), "an empty wrapper is an empty list");
    }

    #[test]
    fn malformed_xml_and_entities_are_refused() {
        let schema = json!({"$ref": "#/components/schemas/Pet"});
        assert!(to_json("<pet><name>Rex</pet>", &schema, &schemas()).unwrap_err().starts_with("the body is not XML"));
        let bomb = r#"<?xml version="1.0"?><!DOCTYPE pet [<!ENTITY a "aaaa">]><pet><name>&a;</name></pet>"#;
        assert!(to_json(bomb, &schema, &schemas()).is_err(), "no DTD is read");
        let deep = format!("{}{}", "<a>".repeat(200), "</a>".repeat(200));
        assert!(to_json(&deep, &json!({}), &schemas()).is_ok(), "an untyped body stops at the depth limit");
    }
}
