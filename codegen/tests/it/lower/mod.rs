//! Lowering: names, references, enums, nullability and the diagnostics for what is unsupported,
//! a module per topic.

mod documents;
mod features;
mod operations;
mod paging;
mod security;
mod types;
mod unions;

use apigen::ir::{
    Api, BodyEncoding, Carrier, DefaultValue, Dispatch, ErrorStatus, Location, Reply, Shape, TypeDef, TypeId, TypeRef,
};
use apigen::{Config, Diagnostics, VersionHeader, load, lower};

fn config() -> Config {
    Config {
        spec_path: "spec.yaml".into(),
        client: None,
        server: None,
        types: None,
        strict: true,
        ..Config::new("api")
    }
}

fn lowered(text: &str) -> Result<Api, Diagnostics> {
    lower(&load(text).expect("fixture parses").doc, &config())
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fixtures/{name}.yaml", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn ty<'a>(api: &'a Api, name: &str) -> &'a TypeDef {
    api.ty(id(api, name))
}

fn id(api: &Api, name: &str) -> TypeId {
    api.type_id(name).unwrap_or_else(|| panic!("no type {name}"))
}

fn named(api: &Api, name: &str) -> TypeRef {
    TypeRef::Named(id(api, name))
}
