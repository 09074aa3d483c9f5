//! Synthetic OpenAPI documents of any size, for measuring how the generator scales. Each operation
//! has a path parameter, a few query parameters (one defaulted, one enum, one array), a reply
//! schema with nested objects, and every third one a request body.

use serde_json::{Value, json};

/// A document with `operations` operations, as JSON text.
pub fn spec(operations: usize) -> String {
    let mut paths = serde_json::Map::new();
    let mut schemas = serde_json::Map::new();
    for i in 0..operations {
        let thing = format!("Thing{i}");
        let item = format!("Item{i}");
        schemas.insert(
            thing.clone(),
            json!({
                "type": "object",
                "required": ["Id"],
                "properties": {
                    "Id": {"type": "string"},
                    "Name": {"type": "string", "nullable": true},
                    "Count": {"type": "integer", "format": "int32"},
                    "Amount": {"type": "number", "format": "double"},
                    "Updated": {"type": "string", "format": "date-time"},
                    "Kind": {"type": "integer", "enum": [0, 1, 2], "x-enum-varnames": ["Small", "Medium", "Large"]},
                    "Items": {"type": "array", "items": {"$ref": format!("#/components/schemas/{item}")}}
                }
            }),
        );
        schemas.insert(
            item.clone(),
            json!({"type": "object", "properties": {"Code": {"type": "string", "minLength": 1}, "Weight": {"type": "number"}}}),
        );
        let mut item_ops = serde_json::Map::new();
        item_ops.insert(
            "get".into(),
            json!({
                "operationId": format!("GetThing{i}"),
                "summary": format!("Read thing {i}."),
                "x-apigen-pagination": {"page": "page", "size": "size"},
                "parameters": [
                    {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "page", "in": "query", "schema": {"type": "integer", "format": "int32", "default": 1, "minimum": 1}},
                    {"name": "size", "in": "query", "schema": {"type": "integer", "format": "int32", "default": 50}},
                    {"name": "order", "in": "query", "schema": {"type": "string", "enum": ["asc", "desc"], "default": "asc"}},
                    {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
                    {"name": "since", "in": "query", "schema": {"type": "string", "format": "date-time"}}
                ],
                "responses": {"200": {"description": "The thing.", "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{thing}")}}}}}
            }),
        );
        if i % 3 == 0 {
            item_ops.insert(
                "put".into(),
                json!({
                    "operationId": format!("PutThing{i}"),
                    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{thing}")}}}},
                    "responses": {"204": {"description": "Stored."}}
                }),
            );
        }
        paths.insert(format!("/things{i}/{{id}}"), Value::Object(item_ops));
    }
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Synthetic", "version": "1.0"},
        "paths": paths,
        "components": {"schemas": schemas}
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn synthetic_specs_generate() {
        let config = apigen::Config {
            spec_path: "synthetic.json".into(),
            client: Some(apigen::CrateConfig { name: "s-client".into(), dir: "c".into() }),
            server: Some(apigen::CrateConfig { name: "s-server".into(), dir: "s".into() }),
            types: Some(apigen::CrateConfig { name: "s-types".into(), dir: "t".into() }),
            strict: true,
            ..apigen::Config::new("s")
        };
        let files = apigen::generate(&super::spec(10), &config).unwrap_or_else(|d| panic!("{d}")).files;
        assert!(files.iter().any(|f| f.path == "c/src/builders.rs" && f.contents.contains("GetThing9")));
    }
}
