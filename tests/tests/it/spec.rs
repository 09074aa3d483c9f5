//! The contract itself: `spec/openapi.yaml` parses, every `$ref` resolves, and its operations are
//! exactly the 48 of the interface document.

use std::collections::BTreeSet;

use openapiv3::{OpenAPI, ReferenceOr};
use portfolio_tests::spec_text;
use serde_json::Value;

/// One row per operation of the interface document, section 4, written from that document by hand:
/// (operationId, method, path, required parameters other than the shared headers, success status).
const OPERATIONS: &[(&str, &str, &str, &[&str], u16)] = &[
    // 4.2 Accounts, users and applications
    ("GetUser", "GET", "/api/users", &["username"], 200),
    ("CreateUser", "POST", "/api/user", &[], 200),
    ("LinkUserAccounts", "PATCH", "/api/useraccounts", &[], 200),
    ("GetAUAccounts", "GET", "/api/accounts", &[], 200),
    ("GetAUChildAccounts", "GET", "/api/childaccounts", &["accountId"], 200),
    ("GetAccountModelWeightings", "GET", "/api/accountmodelweightings", &["accountId"], 200),
    ("ReplaceAccountModelWeightings", "PUT", "/api/accountmodelweightings", &[], 204),
    ("GetAUAppForm", "GET", "/api/appform", &["AccountId"], 200),
    ("CreateDraftApplication", "POST", "/api/application", &[], 200),
    ("GetDraftApplicationStatus", "GET", "/api/application/{ApplicationId}/status", &["ApplicationId"], 200),
    // 4.3 Reference data
    ("GetPDS", "GET", "/api/pds", &[], 200),
    ("GetUKCedingParties", "GET", "/api/cedingparties", &["search"], 200),
    ("FindAUSecurities", "GET", "/api/securities", &[], 200),
    ("GetAURecalcStatus", "GET", "/api/recalc/status", &[], 200),
    // 4.4 Holdings, transactions, income and expenses
    ("GetAUHoldings", "GET", "/api/holdings", &["AccountIds", "ValuationDate", "ClassificationType"], 200),
    ("GetAUHoldingsPerModel", "GET", "/api/holdingspermodel", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUAssetClassSummary", "GET", "/api/assetclasssummary", &["AccountId", "ValuationDate"], 200),
    ("GetAUTransactions", "GET", "/api/transactions", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUCashTransactions", "GET", "/api/cashtransactions", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUUnsettledTransactions", "GET", "/api/unsettledtransactions", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUDividendReinvestmentDetails", "GET", "/api/dividendreinvestmentdetails", &["accountId"], 200),
    ("GetAUIncomeDetail", "GET", "/api/incomedetail", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUIncomeSchedules", "GET", "/api/incomeschedules", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUIncomeSchedulesBulk", "GET", "/api/incomeschedules/bulk", &["AccountIds", "FromDate", "ToDate"], 200),
    ("GetAUExpenseDetail", "GET", "/api/expensedetail", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUBpay", "GET", "/api/bpay", &["accountIds"], 200),
    // 4.5 Performance
    ("GetAUPerformance", "GET", "/api/performance", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUAssetClassPerformance", "GET", "/api/assetclassperformance", &["AccountId", "FromDate", "ToDate"], 200),
    ("GetAUBenchmarks", "GET", "/api/benchmarks", &[], 200),
    ("GetAUBenchmarkPerformance", "GET", "/api/benchmarkperformance", &["BenchmarkId", "FromDate", "ToDate"], 200),
    // 4.6 Models
    ("GetAUModels", "GET", "/api/models", &[], 200),
    ("GetAUAproximateFum", "GET", "/api/modelapproximatefum", &["modelId", "valuationDate"], 200),
    ("GetAUModelPerformance", "GET", "/api/modelperformance", &["ModelId", "FromDate", "ToDate"], 200),
    ("GetAUModelHoldings", "GET", "/api/modelholdings", &["modelId", "valuationDate"], 200),
    ("GetAUModelWeightAdjustment", "GET", "/api/modelweightadjustment", &["modelId"], 200),
    ("ReplaceAUModelWeightAdjustment", "PUT", "/api/modelweightadjustment", &[], 202),
    // 4.7 ESG categories
    ("GetAUAccountEsgCategories", "GET", "/api/esgcategories", &["accountId"], 200),
    ("AddAUAccountEsgCategories", "POST", "/api/esgcategories", &[], 204),
    ("ReplaceAUAccountEsgCategories", "PUT", "/api/esgcategories", &[], 204),
    ("DeleteAUAccountEsgCategories", "DELETE", "/api/esgcategories", &["accountId"], 204),
    // 4.8 Cashflow instructions
    ("GetAUCashflowInstructions", "GET", "/api/cashflowinstructions", &["accountId"], 200),
    ("AddAUOneOffCashflowInstructions", "POST", "/api/cashflowinstructions/oneoff", &[], 204),
    (
        "DeleteAUOneOffCashflowInstructions",
        "DELETE",
        "/api/cashflowinstructions/oneoff",
        &["accountId", "cashflowInstructionId", "cashflowInstructionType"],
        204,
    ),
    ("UpdateAURegularCashflowInstructions", "PUT", "/api/cashflowinstructions/regular", &[], 204),
    (
        "DeleteAURegularCashflowInstructions",
        "DELETE",
        "/api/cashflowinstructions/regular",
        &["accountId", "cashflowInstructionType"],
        204,
    ),
    // 4.9 Publisher events and files
    ("GetAUPublisherEvents", "GET", "/api/publisherevents", &[], 200),
    ("GetAUPublisherEventDetail", "GET", "/api/publishereventdetail", &["eventId"], 200),
    ("DownloadAUFile", "GET", "/api/file", &["fileId"], 200),
];

const VERSION_HEADER_REF: &str = "#/components/parameters/ApiVersion";

fn spec() -> OpenAPI {
    serde_yaml_ng::from_str(&spec_text()).expect("spec/openapi.yaml parses as OpenAPI 3.0")
}

fn spec_json() -> Value {
    serde_yaml_ng::from_str(&spec_text()).expect("spec/openapi.yaml is YAML")
}

/// What the spec says of one operation, in the shape of a table row.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    id: String,
    method: String,
    path: String,
    required: BTreeSet<String>,
    success: u16,
}

fn spec_rows(api: &OpenAPI) -> Vec<Row> {
    let mut rows = Vec::new();
    for (path, item) in &api.paths.paths {
        let ReferenceOr::Item(item) = item else { panic!("path item {path} is a reference") };
        for (method, op) in item.iter() {
            let mut required = BTreeSet::new();
            for p in &op.parameters {
                match p {
                    ReferenceOr::Reference { reference } => assert_eq!(reference, VERSION_HEADER_REF),
                    ReferenceOr::Item(p) => {
                        let data = p.parameter_data_ref();
                        if data.required {
                            required.insert(data.name.clone());
                        }
                    }
                }
            }
            let successes: Vec<u16> = op
                .responses
                .responses
                .keys()
                .filter_map(|code| match code {
                    openapiv3::StatusCode::Code(c) if (200..300).contains(c) => Some(*c),
                    _ => None,
                })
                .collect();
            assert_eq!(successes.len(), 1, "{path} {method}: one success status");
            rows.push(Row {
                id: op.operation_id.clone().expect("every operation has an operationId"),
                method: method.to_uppercase(),
                path: path.clone(),
                required,
                success: successes[0],
            });
        }
    }
    rows.sort();
    rows
}

#[test]
fn spec_operations_match_the_interface_document_exactly() {
    let api = spec();
    let mut expected: Vec<Row> = OPERATIONS
        .iter()
        .map(|(id, method, path, required, success)| Row {
            id: id.to_string(),
            method: method.to_string(),
            path: path.to_string(),
            required: required.iter().map(|s| s.to_string()).collect(),
            success: *success,
        })
        .collect();
    expected.sort();
    let actual = spec_rows(&api);
    let missing: Vec<_> = expected.iter().filter(|r| !actual.contains(r)).collect();
    let extra: Vec<_> = actual.iter().filter(|r| !expected.contains(r)).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing from spec: {missing:#?}\nnot in the table: {extra:#?}");
    assert_eq!(actual.len(), 48);
}

#[test]
fn every_operation_carries_credentials_version_and_error_replies() {
    let api = spec();
    let global: Vec<_> = api.security.iter().flatten().flat_map(|req| req.keys().cloned()).collect();
    assert_eq!(global, ["AccessToken", "SubscriptionKey"]);
    for (path, method, op) in api.operations() {
        assert!(op.security.is_none(), "{method} {path} must not override the global security");
        let version = op
            .parameters
            .iter()
            .any(|p| matches!(p, ReferenceOr::Reference { reference } if reference == VERSION_HEADER_REF));
        assert!(version, "{method} {path} lacks the version header");
        for code in [400, 401, 403, 404, 429, 500] {
            let response = op.responses.responses.get(&openapiv3::StatusCode::Code(code));
            assert!(
                matches!(response, Some(ReferenceOr::Reference { .. })),
                "{method} {path} lacks the shared {code} reply"
            );
        }
        if let Some(ReferenceOr::Item(body)) = &op.request_body {
            assert!(!body.required, "{method} {path}: request bodies are optional");
            let types: Vec<_> = body.content.keys().map(String::as_str).collect();
            assert_eq!(types, ["application/json", "application/json-patch+json", "text/json", "application/*+json"]);
        }
    }
}

#[test]
fn credentials_are_header_security_schemes() {
    let api = spec();
    let schemes = &api.components.as_ref().unwrap().security_schemes;
    for (name, header) in [("AccessToken", "Authorization"), ("SubscriptionKey", "x-pps-subscription-key")] {
        match schemes.get(name) {
            Some(ReferenceOr::Item(openapiv3::SecurityScheme::APIKey { location, name: n, .. })) => {
                assert_eq!(*location, openapiv3::APIKeyLocation::Header);
                assert_eq!(n, header);
            }
            other => panic!("security scheme {name}: {other:?}"),
        }
    }
}

/// Walks every `$ref` in the document and resolves it as a JSON pointer into the same document.
#[test]
fn every_reference_resolves() {
    let doc = spec_json();
    let mut refs = Vec::new();
    collect_refs(&doc, "#", &mut refs);
    assert!(refs.len() > 500, "expected many references, found {}", refs.len());
    let broken: Vec<_> = refs
        .iter()
        .filter(|(_, target)| {
            let pointer = target.strip_prefix('#').expect("only local references are used");
            doc.pointer(pointer).is_none()
        })
        .collect();
    assert!(broken.is_empty(), "unresolved references (at, target): {broken:#?}");
}

fn collect_refs(value: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                if key == "$ref" {
                    out.push((at.to_string(), child.as_str().expect("$ref is a string").to_string()));
                } else {
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    collect_refs(child, &format!("{at}/{escaped}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                collect_refs(child, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Integer enums carry one `x-enum-varnames` entry per value, so generated code can name them.
#[test]
fn integer_enums_name_every_value() {
    let doc = spec_json();
    let schemas = doc.pointer("/components/schemas").unwrap().as_object().unwrap();
    let mut seen = 0;
    for (name, schema) in schemas {
        if let Some(values) = schema.get("enum") {
            let names = schema.get("x-enum-varnames").unwrap_or_else(|| panic!("{name} lacks x-enum-varnames"));
            assert_eq!(values.as_array().unwrap().len(), names.as_array().unwrap().len(), "{name}");
            assert_eq!(schema["type"], "integer", "{name}");
            seen += 1;
        }
    }
    assert!(seen >= 40, "found only {seen} enums");
}

/// Defaults named by the interface document are in the spec, so the server can apply them.
#[test]
fn documented_defaults_are_in_the_spec() {
    let doc = spec_json();
    let param = |path: &str, name: &str| -> Value {
        let params = doc["paths"][path]["get"]["parameters"].as_array().unwrap();
        params.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{path} {name}")).clone()
    };
    let cases = [
        ("/api/transactions", "Page", Value::from(1)),
        ("/api/transactions", "Size", Value::from(100)),
        ("/api/transactions", "OrderBy", Value::from(0)),
        ("/api/transactions", "Order", Value::from(1)),
        ("/api/transactions", "BuysAndSellsOnly", Value::from(false)),
        ("/api/accounts", "page", Value::from(1)),
        ("/api/accounts", "size", Value::from(100)),
        ("/api/performance", "DisplayReturns", Value::from(2)),
        ("/api/performance", "MultiplePeriods", Value::from(-1)),
        ("/api/assetclassperformance", "CalculationMethod", Value::from(1)),
        ("/api/benchmarkperformance", "MultiplePeriods", Value::from(-1)),
        ("/api/assetclasssummary", "IncludeLoans", Value::from(false)),
    ];
    for (path, name, default) in cases {
        assert_eq!(param(path, name)["schema"]["default"], default, "{path} {name}");
    }
}
