//! Credentials: the schemes an operation asks for and what is left out when one cannot be
//! carried.

use super::*;

#[test]
fn credential_headers_must_be_header_names() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
security: [{key: []}]
paths:
  /a:
    get:
      operationId: a
      responses: {"200": {description: ok}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: "X Api Key"}
"##;
    let errors = lowered(text).unwrap_err();
    let located: Vec<String> = errors.0.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        located,
        ["#/security/0/key: security scheme `key` is an API key in `X Api Key`, which is not a valid header name"]
    );
    assert!(lowered(&text.replace("X Api Key", "X-Api-Key")).is_ok());
}

#[test]
fn an_alternative_set_of_credentials_that_cannot_be_carried_is_left_out_alone() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      security: [{odd: []}, {key: [], bearer: []}, {key: [], bearer: []}]
      responses:
        "204": {description: ok}
  /b:
    get:
      operationId: getB
      security: [{odd: []}]
      responses:
        "204": {description: ok}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
    bearer: {type: http, scheme: bearer}
    odd: {type: apiKey, in: header, name: "X Key"}
"##;
    let api = lower(&load(text).unwrap().doc, &Config { strict: false, ..config() }).unwrap();
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert!(
        notes.contains(&"#/paths/~1a/get/security/0/odd: security scheme `odd` is an API key in `X Key`, which is not a valid header name, so this alternative is not accepted".to_string()),
        "{notes:#?}"
    );
    // The repeated set is one set, so the operation has one set left: no choice to make.
    let a = &api.operations[0];
    assert!(a.credential_alternatives.is_empty());
    assert_eq!(a.credentials.len(), 2);
    assert!(api.credentials.iter().all(|c| !c.optional));
    // With no set left, the operation is left out, with the reason located.
    assert_eq!(api.operations.len(), 1);
    let b = notes
        .iter()
        .filter(|n| n.starts_with("#/paths/~1b/get/security/0/odd") && n.contains("not a valid header name"));
    assert_eq!(b.count(), 1, "{notes:#?}");
}

#[test]
fn a_security_scheme_that_cannot_be_carried_leaves_out_only_what_requires_it() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /jwt:
    get:
      operationId: jwt
      security: [{jwt: []}]
      responses: {"204": {description: ok}}
  /aliased:
    get:
      operationId: aliased
      security: [{aliased: []}]
      responses: {"204": {description: ok}}
  /spaced:
    get:
      operationId: spaced
      security: [{spaced: []}]
      responses: {"204": {description: ok}}
components:
  securitySchemes:
    jwt: {type: apiKey, in: header, name: "Authorization: Bearer"}
    key: {type: apiKey, in: header, name: X-Key}
    aliased: {$ref: "#/components/securitySchemes/key"}
    spaced: {type: apiKey, in: header, name: "X Key"}
"##;
    let api = lower(&load(text).unwrap().doc, &Config { strict: false, ..config() }).unwrap();
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    // A header name with the scheme after a colon is that scheme in `authorization`.
    let jwt = api.credentials.iter().find(|c| c.scheme == "jwt").unwrap();
    assert_eq!(jwt.carrier, Carrier::Authorization("Bearer".into()));
    assert!(notes.contains(&"#/components/securitySchemes/jwt/name: an API key named `Authorization: Bearer` is read as the `authorization` header after `Bearer`".to_string()), "{notes:#?}");
    // A scheme given as a reference is the scheme it refers to.
    let aliased = api.credentials.iter().find(|c| c.scheme == "aliased").unwrap();
    assert_eq!(aliased.carrier, Carrier::Header("X-Key".into()));
    // A header no request can carry leaves out the operation that requires it, not the document.
    let ids: Vec<&str> = api.operations.iter().map(|op| op.id.as_str()).collect();
    assert_eq!(ids, ["jwt", "aliased"]);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("#/paths/~1spaced/get") && n.contains("`X Key`, which is not a valid header name")),
        "{notes:#?}"
    );
}
