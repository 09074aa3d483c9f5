//! The breaking-change check's classification: one spec, changed one way at a time, and for each
//! change whom it breaks and how far each generated crate moves.

use std::collections::BTreeMap;
use std::process::Command;

use apigen::diff::{Change, Report, Semver, compare};
use apigen::{Config, load, lower};
use serde::Deserialize;

use crate::common;

/// The spec every case of the catalog changes.
const BASE: &str = include_str!("../diff_catalog/base.yaml");

const CATALOG: &str = include_str!("../diff_catalog/catalog.yaml");

#[derive(Deserialize)]
struct Catalog {
    reasons: BTreeMap<String, String>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    replace: Vec<(String, String)>,
    change: String,
    breaks: String,
    #[serde(rename = "openapi-diff")]
    openapi_diff: String,
    differs: Option<String>,
    /// How far the types, client and server crates move: `major minor minor`.
    crates: String,
}

impl Case {
    fn new_spec(&self) -> String {
        let mut spec = BASE.to_string();
        for (from, to) in &self.replace {
            assert_eq!(spec.matches(from.as_str()).count(), 1, "{}: `{from}` is in the spec once", self.name);
            spec = spec.replacen(from.as_str(), to, 1);
        }
        spec
    }
}

fn report(new: &str) -> Report {
    let config = Config { strict: false, ..common::config("shop", "openapi.yaml") };
    let api = |text: &str| lower(&load(text).expect("loads").doc, &config).expect("lowers");
    compare(&api(BASE), &api(new))
}

fn changes(new: &str) -> Vec<Change> {
    report(new).changes
}

fn level(semver: Semver) -> &'static str {
    match semver {
        Semver::None => "none",
        Semver::Patch => "patch",
        Semver::Minor => "minor",
        Semver::Major => "major",
    }
}

/// Applies `from → to` to the base spec, once.
fn changed(from: &str, to: &str) -> String {
    assert_eq!(BASE.matches(from).count(), 1, "`{from}` is in the base spec once");
    BASE.replacen(from, to, 1)
}

/// Whom a change breaks, as the catalog says it.
fn whom(change: &Change) -> &'static str {
    match (change.breaks_clients, change.breaks_servers) {
        (true, true) => "both",
        (true, false) => "clients",
        (false, true) => "servers",
        (false, false) => "none",
    }
}

#[test]
fn each_change_of_the_catalog_breaks_whom_it_should() {
    let catalog: Catalog = serde_yaml_ng::from_str(CATALOG).expect("the catalog parses");
    assert!(catalog.cases.len() >= 40, "{} cases", catalog.cases.len());
    let mut wrong = Vec::new();
    for case in &catalog.cases {
        let report = report(&case.new_spec());
        let levels = [report.crates.types, report.crates.client, report.crates.server].map(level).join(" ");
        if levels != case.crates {
            wrong.push(format!("{}: the crates move {levels}, the catalog says {}", case.name, case.crates));
        }
        let found = report.changes;
        let breaking: Vec<&Change> = found.iter().filter(|c| c.breaks()).collect();
        if case.change.is_empty() {
            if !breaking.is_empty() {
                wrong.push(format!("{}: expected no breaking change, found {breaking:?}", case.name));
            }
        } else {
            match found.iter().find(|c| c.id == case.change) {
                Some(change) if whom(change) == case.breaks => {}
                Some(change) => wrong.push(format!("{}: breaks {}, expected {}", case.name, whom(change), case.breaks)),
                None => wrong.push(format!("{}: `{}` not among {:?}", case.name, case.change, ids(&found))),
            }
            // The change is the only one that breaks anyone.
            if breaking.len() > 1 {
                wrong.push(format!("{}: more than one breaking change: {:?}", case.name, ids(&found)));
            }
        }
        // A difference from openapi-diff is explained, and only a difference is.
        match &case.differs {
            Some(reason) if case.openapi_diff == case.breaks => {
                wrong.push(format!("{}: `differs` but agrees", case.name))
            }
            Some(reason) if !catalog.reasons.contains_key(reason) => {
                wrong.push(format!("{}: no reason `{reason}` under `reasons`", case.name))
            }
            None if case.openapi_diff != case.breaks => wrong.push(format!("{}: differs unexplained", case.name)),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// With OPENAPI_DIFF_MODULES naming a `node_modules` that holds openapi-diff, the catalog's record
/// of what it says is checked against what it says now.
#[test]
fn openapi_diff_says_what_the_catalog_records() {
    let Some(modules) = std::env::var_os("OPENAPI_DIFF_MODULES") else {
        eprintln!("OPENAPI_DIFF_MODULES is not set: openapi-diff's verdicts are not re-checked");
        return;
    };
    let catalog: Catalog = serde_yaml_ng::from_str(CATALOG).expect("the catalog parses");
    let dir = std::env::temp_dir().join(format!("diff-catalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (old, new) = (dir.join("old.yaml"), dir.join("new.yaml"));
    std::fs::write(&old, BASE).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/diff_catalog/verdict.js");
    let mut wrong = Vec::new();
    for case in &catalog.cases {
        std::fs::write(&new, case.new_spec()).unwrap();
        let output = Command::new("node").arg(script).arg(&old).arg(&new).env("NODE_PATH", &modules).output();
        let output = output.expect("node runs");
        assert!(output.status.success(), "{}: {}", case.name, String::from_utf8_lossy(&output.stderr));
        let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a verdict");
        let said = match (verdict["clients"].as_bool(), verdict["servers"].as_bool()) {
            (Some(true), Some(true)) => "both",
            (Some(true), _) => "clients",
            (_, Some(true)) => "servers",
            _ => "none",
        };
        if said != case.openapi_diff {
            wrong.push(format!(
                "{}: openapi-diff says {said} ({}), the catalog {}",
                case.name, verdict["codes"], case.openapi_diff
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn ids(changes: &[Change]) -> Vec<&str> {
    changes.iter().map(|c| c.id.as_str()).collect()
}

#[test]
fn a_schema_reached_from_several_operations_is_one_change_naming_them() {
    let found = changes(&changed(
        "required: [id, item, state]\n      properties:\n        id: {type: string}\n",
        "required: [item, state]\n      properties:\n",
    ));
    let removed = found.iter().find(|c| c.id == "Order.id: field removed").expect("found");
    assert_eq!(removed.reached_from, ["GET /orders (reply)", "POST /orders (reply)"]);
    assert_eq!(found.iter().filter(|c| c.id == removed.id).count(), 1);
}

#[test]
fn the_rust_api_moves_with_each_change() {
    let added = changes(&changed(
        "components:\n",
        "  /health:\n    get:\n      operationId: health\n      responses:\n        \"204\": {description: up}\ncomponents:\n",
    ));
    let operation = added.iter().find(|c| c.id == "GET /health: operation `health` added").expect("found");
    assert!(!operation.breaks());
    // A new client method; a new trait method every server must write.
    assert_eq!((operation.rust.client, operation.rust.server), (Semver::Minor, Semver::Major));

    let limit = changes(&changed("maximum: 100}}", "maximum: 50}}"));
    assert_eq!(limit[0].rust.types, Semver::Patch, "a limit changes no signature");
    assert!(changes(BASE).is_empty(), "a spec compared with itself has no changes");
}
