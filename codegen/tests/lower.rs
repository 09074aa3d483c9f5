//! Lowering: names, references, enums, nullability and the diagnostics for what is unsupported.

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

#[test]
fn colliding_schema_and_field_names_get_distinct_rust_names() {
    let api = lowered(&fixture("naming")).unwrap();
    // `Account` and `account` both want `Account`; declaration order decides who gets it.
    assert!(matches!(ty(&api, "Account"), TypeDef::Struct(s) if s.fields[0].wire == "id"));
    assert!(matches!(ty(&api, "Account2"), TypeDef::Struct(s) if s.fields[0].wire == "match"));
    // A schema named like a prelude type is renamed rather than shadowing it.
    assert!(matches!(ty(&api, "Result2"), TypeDef::Alias { target: TypeRef::String, .. }));
    let TypeDef::Struct(part) = ty(&api, "Part") else { panic!() };
    let names: Vec<(&str, &str)> = part.fields.iter().map(|f| (f.wire.as_str(), f.name.as_str())).collect();
    assert_eq!(
        &names[..5],
        [
            ("type", "type"),
            ("self", "self_"),
            ("Self", "self_2"),
            ("AccountId", "account_id"),
            ("accountId", "account_id2")
        ]
    );
}

#[test]
fn formats_nullability_and_recursion() {
    let api = lowered(&fixture("naming")).unwrap();
    let TypeDef::Struct(part) = ty(&api, "Part") else { panic!() };
    let field = |wire: &str| part.fields.iter().find(|f| f.wire == wire).unwrap();
    assert_eq!(field("AccountId").ty, TypeRef::Uuid);
    assert_eq!(field("accountId").ty, TypeRef::DateTime);
    assert!(field("type").required && !field("type").nullable);
    assert!(field("self").required && field("self").nullable);
    assert_eq!(field("labels").ty, TypeRef::Map(Box::new(TypeRef::String)));
    assert_eq!(field("extra").ty, named(&api, "PartExtra"), "inline objects are named from their place");
    assert!(field("parent").boxed, "a struct containing itself is boxed");
    assert!(!field("children").boxed, "a Vec is already an indirection");
}

#[test]
fn fields_of_large_types_are_boxed_and_small_ones_stay_inline() {
    // Objects nested four deep, each with many text properties: held inline, the outermost
    // would be several KiB, and a debug build reading it would need a stack frame per level
    // holding every level below.
    let wide = |next: Option<&str>| {
        let mut props: Vec<String> = (0..30).map(|i| format!("p{i}: {{type: string}}")).collect();
        props.extend(next.map(|n| format!("inner: {{$ref: '#/components/schemas/{n}'}}")));
        format!("{{type: object, properties: {{{}}}}}", props.join(", "))
    };
    let doc = format!(
        "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
         Outer: {}\n    Middle: {}\n    Inner: {}\n    Leaf: {}\n    \
         Small: {{type: object, properties: {{leaf: {{$ref: '#/components/schemas/Point'}}}}}}\n    \
         Point: {{type: object, required: [x, y], properties: {{x: {{type: number}}, y: {{type: number}}}}}}\n",
        wide(Some("Middle")),
        wide(Some("Inner")),
        wide(Some("Leaf")),
        wide(None),
    );
    let api = lowered(&doc).unwrap();
    let inner = |name: &str, field: &str| {
        let TypeDef::Struct(s) = ty(&api, name) else { panic!("{name} is a struct") };
        s.fields.iter().find(|f| f.wire == field).unwrap().boxed
    };
    for name in ["Outer", "Middle", "Inner"] {
        assert!(inner(name, "inner"), "{name}.inner holds a type of 30 strings or more");
    }
    assert!(!inner("Small", "leaf"), "two numbers stay inline");
}

#[test]
fn integer_enums_take_their_names_from_x_enum_varnames() {
    let api = lowered(&fixture("naming")).unwrap();
    let TypeDef::IntEnum(kind) = ty(&api, "Kind") else { panic!() };
    assert_eq!(kind.variants, [("Bolt".to_string(), 1), ("Nut".to_string(), 2)]);
    let TypeDef::IntEnum(status) = ty(&api, "PartStatus") else { panic!() };
    let names: Vec<&str> = status.variants.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Value0", "Value5", "ValueMinus1"], "values without names get names from the value");
}

#[test]
fn string_enums_with_odd_values_get_valid_names() {
    let api = lowered(&fixture("naming")).unwrap();
    let TypeDef::StringEnum(e) = ty(&api, "GetItemPartType") else { panic!() };
    let pairs: Vec<(&str, &str)> = e.variants.iter().map(|(n, w)| (n.as_str(), w.as_str())).collect();
    assert_eq!(pairs, [("InProgress", "in-progress"), ("Done", "done"), ("V1", "1"), ("Empty", "")]);
    assert_eq!(e.unlisted, "Unknown");
    let TypeDef::StringEnum(e) = ty(&api, "Verdict") else { panic!() };
    let names: Vec<&str> = e.variants.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!((&names[..], e.unlisted.as_str()), (&["Unknown", "Unlisted"][..], "UnknownValue"));
}

#[test]
fn operations_resolve_parameters_and_derive_missing_ids() {
    let api = lowered(&fixture("naming")).unwrap();
    let get = &api.operations[0];
    assert_eq!(
        (get.id.as_str(), get.fn_name.as_str(), get.type_name.as_str()),
        ("get-item.part", "get_item_part", "GetItemPart")
    );
    let wires: Vec<(&str, Location)> = get.params.iter().map(|p| (p.wire.as_str(), p.location)).collect();
    assert_eq!(
        wires,
        [
            ("part", Location::Path),
            ("type", Location::Query),
            ("tags", Location::Query),
            ("X-Trace", Location::Header),
            ("item-id", Location::Path)
        ]
    );
    let kind = get.params.iter().find(|p| p.wire == "type").unwrap();
    assert_eq!(kind.default, Some(DefaultValue::Variant { ty: id(&api, "GetItemPartType"), variant: "Done".into() }));
    assert!(!get.params.iter().find(|p| p.wire == "tags").unwrap().explode);
    assert_eq!(api.credentials[0].carrier, Carrier::Header("X-Key".into()));
    assert_eq!(get.credentials, [0]);
    assert_eq!(api.default_base_url.as_deref(), Some("https://api.example.com/v1"));

    let post = &api.operations[1];
    assert_eq!(post.id, "post_items", "no operationId: named from method and path");
    assert!(matches!(post.reply, Reply::Empty { status: 201, .. }));
    assert!(post.body.as_ref().unwrap().required);
}

#[test]
fn the_project_spec_lowers_with_defaults_applied() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/openapi.yaml")).unwrap();
    let config = Config {
        version_header: Some(VersionHeader { header: "x-pps-api-version".into(), field: "api_version".into() }),
        ..config()
    };
    let api = lower(&load(&text).unwrap().doc, &config).unwrap();
    assert_eq!(api.operations.len(), 48);
    assert_eq!(api.common_headers[0].default, "2022.09.26");
    let tx = api.operations.iter().find(|o| o.id == "GetAUTransactions").unwrap();
    assert!(tx.params.iter().all(|p| p.location == Location::Query), "the version header is lifted to the client");
    let order = tx.params.iter().find(|p| p.wire == "Order").unwrap();
    assert_eq!(order.default, Some(DefaultValue::Variant { ty: id(&api, "SortOrder"), variant: "Desc".into() }));
    let page = tx.params.iter().find(|p| p.wire == "Page").unwrap();
    assert_eq!((page.default.clone(), page.constraints.minimum), (Some(DefaultValue::Int(1)), Some(1.0)));
    let file = api.operations.iter().find(|o| o.id == "DownloadAUFile").unwrap();
    assert!(matches!(&file.reply, Reply::Download { content_type, .. } if content_type == "application/octet-stream"));
}

#[test]
fn unsupported_constructs_are_reported_with_their_location_all_at_once() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: ids, in: query, style: pipeDelimited, schema: {type: string}}
        - $ref: "params.yaml#/Limit"
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
        "404": {$ref: "replies.yaml#/NotFound"}
  /owners:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Missing"}
components:
  schemas:
    Pet:
      not: {type: string}
    Owner: {$ref: "owners.yaml#/Owner"}
"##;
    // What only another file could say is an error where it is used, all of them at once.
    let diagnostics = lowered(text).unwrap_err().0;
    let found: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.pointer.as_str(), d.message.as_str())).collect();
    let foreign =
        |reference: &str| format!("the reference {reference} is to another file, which could not be brought in");
    assert_eq!(
        found,
        [
            ("#/components/schemas/Owner", foreign("owners.yaml#/Owner").as_str()),
            ("#/paths/~1pets/get/parameters/1", foreign("params.yaml#/Limit").as_str()),
            ("#/paths/~1pets/get/responses/404", foreign("replies.yaml#/NotFound").as_str()),
        ]
    );
    // The rest is read, looser where it must be and said where: `not` has no Rust type, a
    // delimiter for one value is `form`, and a reference to a schema the document does not hold
    // is any JSON value.
    let fixed = text
        .replace("        - $ref: \"params.yaml#/Limit\"\n", "")
        .replace("        \"404\": {$ref: \"replies.yaml#/NotFound\"}\n", "");
    let fixed = fixed.replace("    Owner: {$ref: \"owners.yaml#/Owner\"}\n", "");
    let api = lowered(&fixed).unwrap();
    let warned: Vec<(&str, &str)> = api.warnings.iter().map(|d| (d.pointer.as_str(), d.message.as_str())).collect();
    assert!(warned.iter().any(|(p, _)| *p == "#/components/schemas/Pet/not"), "{warned:#?}");
    assert!(
        warned.contains(&(
            "#/paths/~1pets/get/parameters/0/style",
            "style `pipeDelimited` applies only to lists; read as `form`"
        )),
        "{warned:#?}"
    );
    assert!(
        warned.iter().any(|(p, m)| *p == "#/paths/~1owners/get/responses/200/content/application~1json/schema"
            && m.contains("#/components/schemas/Missing")
            && m.contains("any JSON value")),
        "{warned:#?}"
    );
    let owners = api.operations.iter().find(|op| op.path == "/owners").unwrap();
    assert!(matches!(&owners.reply, Reply::Json { ty: TypeRef::Json, .. }));
}

#[test]
fn malformed_specs_name_the_line() {
    let config = Config { client: None, ..config() };
    let err = apigen::generate("openapi: 3.0.3\ninfo:\n  title: [unclosed\n", &config).unwrap_err();
    assert_eq!(err.0.len(), 1);
    assert!(err.0[0].line.is_some(), "{err}");
    assert!(err.to_string().contains("does not parse"), "{err}");
    let err = apigen::generate("openapi: 3.0.3\ninfo: {title: t}\npaths: {}\n", &config).unwrap_err();
    assert!(err.to_string().contains("version"), "a missing required field is named: {err}");
}

#[test]
fn path_templates_and_parameters_must_agree() {
    let text = r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a/{id}:
    get:
      parameters:
        - {name: key, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: none}}
"#;
    // A path parameter the template has no place for cannot be sent: it is left out, with a
    // warning, and the operation stays.
    let api = lowered(text).unwrap();
    let messages: Vec<&str> = api.warnings.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.contains(
            &"path parameter `key` does not appear in the path template /a/{id}; it is left out of the operation"
        ),
        "{messages:?}"
    );
    assert!(api.operations[0].params.iter().all(|p| p.wire != "key"));
    // A template segment nobody declares is read as a required string, with a warning.
    let api = lowered(&text.replace(
        "parameters:\n        - {name: key, in: path, required: true, schema: {type: string}}",
        "parameters: []",
    ))
    .unwrap();
    let param = &api.operations[0].params[0];
    assert_eq!((param.wire.as_str(), &param.ty, param.required), ("id", &TypeRef::String, true));
    assert_eq!(
        api.warnings[0].message,
        "the path template names `{id}` but no path parameter is called `id`; it is read as a required string"
    );
    // Only the letter case differs: unambiguous, so the template's spelling is used, with a warning.
    let api = lowered(&text.replace("name: key", "name: ID")).unwrap();
    assert_eq!(api.operations[0].params[0].wire, "id");
    assert_eq!(api.warnings[0].message, "path parameter `ID` is spelled `{id}` in the path template, which is used");
}

#[test]
fn skipping_leaves_out_what_is_unsupported_and_everything_that_depends_on_it() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
  /owners:
    get:
      operationId: listOwners
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Owner"}}}}
  /toys:
    get:
      operationId: listToys
      parameters:
        - $ref: "params.yaml#/q"
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Toy"}}}}
  /health:
    get:
      operationId: health
      responses: {"204": {description: none}}
components:
  schemas:
    Pet: {$ref: "pets.yaml#/Pet"}
    Owner:
      type: object
      properties:
        pets: {type: array, items: {$ref: "#/components/schemas/Pet"}}
        address: {type: object, properties: {street: {type: string}}}
    Toy:
      type: object
      properties:
        name: {type: string}
"##;
    let strict = lowered(text).unwrap_err().0;
    assert_eq!(strict.len(), 2, "without skipping, both problems fail the run: {strict:#?}");

    let config = Config { strict: false, ..config() };
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let ids: Vec<&str> = api.operations.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["health"]);
    let names: Vec<&str> = api.types.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["Toy"], "Owner and its inline address go with Pet");
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    let expected = [
        "#/components/schemas/Owner: left out schema `Owner`: it uses `Pet`, which was left out",
        "#/components/schemas/Pet: left out schema `Pet`: the reference pets.yaml#/Pet is to another file, which could not be brought in",
        "#/paths/~1owners/get: left out operation `listOwners` (GET /owners): it uses `Pet`, which was left out",
        "#/paths/~1pets/get: left out operation `listPets` (GET /pets): it uses `Pet`, which was left out",
        "#/paths/~1toys/get/parameters/0: left out operation `listToys` (GET /toys): the reference params.yaml#/q is to another file, which could not be brought in",
    ];
    assert_eq!(notes, expected);

    // When nothing is left, the run fails with the reasons rather than generating an empty crate.
    let only_broken = text.replace(
        "  /health:\n    get:\n      operationId: health\n      responses: {\"204\": {description: none}}\n",
        "",
    );
    assert_ne!(only_broken, text);
    let err = lower(&load(&only_broken).unwrap().doc, &config).unwrap_err();
    assert_eq!(err.0.len(), 5, "{err}");
}

#[test]
fn simplifications_are_warnings_located_in_the_spec() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
security: [{key: []}, {bearer: []}]
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Either"}}}}
  /b:
    get:
      operationId: getB
      security: [{}, {key: []}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Odd"}}}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
    bearer: {type: http, scheme: bearer}
  schemas:
    A: {type: object, properties: {x: {type: string}}}
    B: {type: object, properties: {y: {type: string}}}
    Either:
      oneOf: [{$ref: "#/components/schemas/A"}, {$ref: "#/components/schemas/B"}]
    Odd:
      type: object
      format: uri-map
      required: [ghost]
      properties:
        name: {type: string, maximum: 3}
        count: {type: integer, format: int64, default: many}
"##;
    let api = lowered(text).unwrap();
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    let expected = [
        "#/components/schemas/Either: object member `A` requires no property that the other object members lack, nor does `B`; without a `discriminator` the value is kept as untyped JSON, which servers check against the schema",
        "#/components/schemas/Odd/format: `format` does not apply to type `object` and is ignored",
        "#/components/schemas/Odd/properties/count/default: default \"many\" does not fit the property's type and is ignored",
        "#/components/schemas/Odd/properties/name/maximum: `maximum` does not apply to type `string` and is ignored",
        "#/components/schemas/Odd/required: `ghost` is required but not among the properties; read as a required property holding any JSON value",
        "#/paths/~1a/get/responses/200/content/application~1json/schema: no value this schema allows could be made (none of the values tried satisfies every keyword), so mocks cannot answer it",
        "#/paths/~1b/get/security: credentials are optional here, so the generated code neither sends nor requires them",
    ];
    assert_eq!(notes, expected);
    assert!(matches!(ty(&api, "Either"), TypeDef::Alias { target: TypeRef::Json, .. }));
    // The value must carry `ghost`, whatever it holds.
    let TypeDef::Struct(odd) = ty(&api, "Odd") else { panic!("Odd is not a struct") };
    let ghost = odd.fields.iter().find(|f| f.wire == "ghost").expect("a field for `ghost`");
    assert!(ghost.required && ghost.ty == TypeRef::Json, "{ghost:?}");
    // Either alternative is accepted, so a client need hold neither.
    assert_eq!(api.operations[0].credential_alternatives, [vec![0], vec![1]]);
    assert!(api.credentials.iter().all(|c| c.optional), "{:?}", api.credentials);
    assert_eq!(api.operations[1].credentials, Vec::<usize>::new());
}

#[test]
fn replies_without_a_listed_success_and_reply_headers() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /login:
    get:
      operationId: login
      responses:
        "303": {description: see other, headers: {Location: {required: true, schema: {type: string}}}}
        "302": {description: found}
        "500": {description: failed}
  /any:
    get:
      operationId: any
      responses:
        default: {description: anything, content: {application/json: {schema: {type: string}}}}
  /range:
    get:
      operationId: range
      responses:
        2XX: {description: ok}
  /both:
    get:
      operationId: both
      responses:
        "200":
          description: ok
          headers:
            X-Page: {$ref: "#/components/headers/Page"}
            X-Tags: {schema: {type: array, items: {type: string}}}
            "Bad Name": {schema: {type: string}}
        2XX: {description: ok}
  /file:
    get:
      operationId: file
      responses:
        "200":
          description: a file
          headers: {Content-Length: {schema: {type: integer}}, X-Checksum: {schema: {type: string}}}
          content: {application/octet-stream: {schema: {type: string, format: binary}}}
components:
  headers:
    Page: {schema: {type: integer, format: int32}}
"##;
    // No reply carries a header of that name: it is not read, said where.
    let api = lowered(text).unwrap();
    let said = format!("{}: {}", api.warnings[0].pointer, api.warnings[0].message);
    assert_eq!(
        said,
        "#/paths/~1both/get/responses/200/headers/Bad Name: `Bad Name` is not a valid header name, so no reply carries it; it is not read"
    );
    let api = lowered(&text.replace("\"Bad Name\"", "X-Fine")).unwrap();
    let reply = |id: &str| &api.operations.iter().find(|op| op.id == id).unwrap().reply;
    // The lowest 3xx is the reply of a redirect flow; a lone `default` and a `2XX` are read as 200.
    assert!(matches!(reply("login"), Reply::Empty { status: 302, headers: None, .. }));
    assert!(matches!(reply("any"), Reply::Json { status: 200, ty: TypeRef::String, .. }));
    assert!(matches!(reply("range"), Reply::Empty { status: 200, .. }));
    let Reply::Empty { headers: Some(headers), .. } = reply("both") else { panic!("{:?}", reply("both")) };
    assert!(api.type_id(&headers.name).is_none(), "the operation owns its reply headers");
    let fields: Vec<(&str, &str, &TypeRef)> =
        headers.fields.iter().map(|f| (f.wire.as_str(), f.name.as_str(), &f.ty)).collect();
    assert_eq!(fields, [("X-Page", "x_page", &TypeRef::I32), ("X-Fine", "x_fine", &TypeRef::String)]);
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    let expected = [
        "#/paths/~1both/get/responses/200/headers/X-Tags/schema: header `X-Tags` is not a single value, so it is not read or written",
        "#/paths/~1both/get/responses/2XX: the `2XX` reply is ignored beside the listed success statuses",
        "#/paths/~1file/get/responses/200/headers/X-Checksum: header `X-Checksum` of a file download is not read or written by the generated code",
        "#/paths/~1range/get/responses/2XX: the `2XX` reply is read as the 200 reply; other 2xx statuses are refused",
    ];
    assert_eq!(notes, expected);
}

#[test]
fn downloads_at_several_statuses_are_one_download_and_json_beside_them_is_read_as_bytes() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /file:
    get:
      operationId: file
      responses:
        "200": {description: whole, content: {application/octet-stream: {schema: {type: string, format: binary}}}}
        "206": {description: part, content: {text/plain: {schema: {type: string}}}}
  /mixed:
    get:
      operationId: mixed
      responses:
        "200": {description: a file, content: {application/octet-stream: {schema: {type: string, format: binary}}}}
        "202": {description: queued, content: {application/json: {schema: {type: string}}}}
"##;
    // The JSON reply is read as bytes, with a located warning (an error in strict mode).
    let lenient = lowered(text).unwrap();
    let notes: Vec<String> = lenient.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert!(notes.contains(&"#/paths/~1mixed/get/responses/202/content: this application/json reply beside a file download is read as a download too: its bytes, not a typed value".to_string()), "{notes:#?}");
    let mixed = &lenient.operations.iter().find(|op| op.id == "mixed").unwrap().reply;
    let Reply::Download { also, content_type, .. } = mixed else { panic!("{mixed:?}") };
    assert_eq!(
        (also.as_slice(), content_type.as_str()),
        ([202].as_slice(), "application/octet-stream, application/json")
    );
    let api = lowered(&text.replace("application/json: {schema: {type: string}}", "application/zip: {}")).unwrap();
    let reply = |id: &str| &api.operations.iter().find(|op| op.id == id).unwrap().reply;
    let Reply::Download { status: 200, also, content_type, doc } = reply("file") else { panic!("{:?}", reply("file")) };
    assert_eq!((also.as_slice(), content_type.as_str()), ([206].as_slice(), "application/octet-stream, text/plain"));
    assert_eq!(doc.as_deref(), Some("whole\n\n206: part"));
    assert!(matches!(reply("mixed"), Reply::Download { status: 200, also, .. } if also == &[202]));
}

#[test]
fn a_choice_beside_shared_properties_is_a_union_of_merged_members() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Cat: {type: object, required: [meow], properties: {meow: {type: boolean}}}
    Dog: {type: object, required: [bark], properties: {bark: {type: boolean}}}
    Base: {type: object, properties: {name: {type: string}}}
    Pet:
      allOf: [{$ref: "#/components/schemas/Base"}]
      properties: {id: {type: integer, format: int64}}
      oneOf: [{$ref: "#/components/schemas/Cat"}, {type: object, required: [hiss], properties: {hiss: {type: boolean}}}]
    Same:
      oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
      anyOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
    Different:
      oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
      anyOf: [{$ref: "#/components/schemas/Cat"}]
"##;
    // Two different choices have no one Rust type: any JSON value, said where.
    let api = lowered(text).unwrap();
    let located: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        located,
        [
            "#/components/schemas/Different: a schema that combines `oneOf`, `anyOf`, `allOf` or `not` with each other or with `properties` has no one Rust type; the value is read as any JSON value, which servers check against the schema"
        ]
    );
    assert!(matches!(ty(&api, "Different"), TypeDef::Alias { target: TypeRef::Json, check: Some(_), .. }));
    let api = lowered(&text.replace("      anyOf: [{$ref: \"#/components/schemas/Cat\"}]\n", "")).unwrap();
    let TypeDef::Union(pet) = ty(&api, "Pet") else { panic!() };
    let variants: Vec<(&str, &TypeRef)> = pet.variants.iter().map(|v| (v.name.as_str(), &v.ty)).collect();
    assert_eq!(variants, [("Cat", &named(&api, "PetCat")), ("Option2", &named(&api, "PetOption2"))]);
    let TypeDef::Struct(cat) = ty(&api, "PetCat") else { panic!() };
    let fields: Vec<&str> = cat.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fields, ["name", "id", "meow"], "the shared part, then the member's own");
    let TypeDef::Union(same) = ty(&api, "Same") else { panic!() };
    assert_eq!(same.variants.len(), 2, "an `anyOf` that repeats the `oneOf` is the same union");
    assert!(api.warnings.is_empty(), "{:?}", api.warnings);
}

#[test]
fn binary_properties_are_files_only_in_multipart_bodies() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /upload:
    post:
      operationId: upload
      requestBody:
        content:
          multipart/form-data:
            schema:
              type: object
              properties:
                items: {type: string, format: binary}
                more: {type: array, items: {type: string, format: binary}}
                note: {type: string}
      responses:
        "204": {description: done}
  /shared:
    post:
      operationId: shared
      requestBody:
        content:
          multipart/form-data:
            schema: {$ref: "#/components/schemas/Upload"}
      responses:
        "204": {description: done}
  /json:
    post:
      operationId: json
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Upload"}
      responses:
        "200": {description: done, content: {application/json: {schema: {$ref: "#/components/schemas/Upload"}}}}
components:
  schemas:
    Upload:
      type: object
      properties:
        file: {type: string, format: binary}
    Nested:
      type: object
      properties:
        inner: {type: object, properties: {file: {type: string, format: binary}}}
"##;
    // The multipart schema met as JSON (its file parts have no JSON form) is any JSON value
    // there, with a warning at each place, rather than the operation being left out.
    let api = lowered(text).unwrap();
    let json = api.operations.iter().find(|op| op.id == "json").unwrap();
    assert_eq!(json.body.as_ref().unwrap().ty, TypeRef::Json);
    assert!(matches!(&json.reply, Reply::Json { ty: TypeRef::Json, .. }), "{:?}", json.reply);
    let warned: Vec<&str> =
        api.warnings.iter().filter(|d| d.pointer.starts_with("#/paths/~1json")).map(|d| d.pointer.as_str()).collect();
    assert_eq!(
        warned,
        [
            "#/paths/~1json/post/requestBody/content/application~1json/schema",
            "#/paths/~1json/post/responses/200/content/application~1json/schema",
        ]
    );
    // A binary property outside a multipart body (`Nested`) is a string, with a warning; with the
    // shared schema sent as multipart everywhere, the rest lowers.
    let fixed = text.split("    Nested:").next().unwrap().replace("application/json", "multipart/form-data");
    let fixed =
        fixed.replace(", content: {multipart/form-data: {schema: {$ref: \"#/components/schemas/Upload\"}}}", "");
    let api = lowered(&fixed).unwrap();
    let body = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap().body.clone().unwrap();
    let TypeRef::Named(upload) = body("upload").ty else { panic!() };
    let TypeDef::Struct(s) = api.ty(upload) else { panic!() };
    let types: Vec<&TypeRef> = s.fields.iter().map(|f| &f.ty).collect();
    assert_eq!(types, [&TypeRef::File, &TypeRef::Vec(Box::new(TypeRef::File)), &TypeRef::String]);
    assert_eq!(body("shared").ty, named(&api, "Upload"));
}

#[test]
fn swagger_2_documents_are_converted_with_notes_on_what_changed() {
    let loaded = load(&fixture("swagger2")).unwrap();
    assert!(loaded.converted);
    let notes: Vec<String> = loaded.notes.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1dogs/get/parameters/3/collectionFormat: `collectionFormat: tsv` has no OpenAPI 3.0 form here; the items are joined with commas",
            "#/paths/~1dogs~1{id}~1photo/put/parameters/1/in: `in: form` is read as `in: formData`",
            "#/definitions/Dog/properties/mood/type: `enum` is not a JSON type; the value is read as any JSON value",
        ]
    );
    let api = lower(&loaded.doc, &config()).unwrap();
    assert_eq!(api.default_base_url.as_deref(), Some("https://kennel.example.com/v2"));
    let op = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap();
    let list = op("listDogs");
    let params: Vec<(&str, bool, char)> =
        list.params.iter().map(|p| (p.wire.as_str(), p.explode, p.delimiter)).collect();
    assert_eq!(params, [("limit", true, ','), ("names", false, '|'), ("ids", true, ','), ("tabs", false, ',')]);
    assert_eq!(list.reply.headers().map(|h| h.name.as_str()), Some("ListDogsReplyHeaders"));
    // The body parameter behind a `$ref`, the path item's parameter, and error replies.
    assert!(matches!(&op("addDog").body, Some(b) if b.ty == named(&api, "Dog") && b.required));
    assert_eq!(op("addDog").errors.as_ref().map(|e| e.name.as_str()), Some("AddDogError"));
    assert_eq!(op("getDog").params[0].wire, "id");
    assert_eq!(op("getDog").errors.as_ref().map(|e| e.name.as_str()), Some("GetDogError"));
    // A shared reply answers in the media types of the operation that refers to it: text here,
    // so the server's own rejections are text too.
    let bark = op("bark");
    assert!(bark.errors.is_none());
    let shapes: Vec<&str> = bark.error_shapes.iter().map(|s| s.content_type.as_str()).collect();
    assert_eq!(shapes, ["text/plain"]);
    // Form data with a file is multipart; without one, a form. A `file` reply is a download.
    let upload = op("uploadPhoto");
    assert!(matches!(&upload.body, Some(b) if b.encoding == apigen::ir::BodyEncoding::Multipart));
    assert!(matches!(&upload.reply, Reply::Download { content_type, .. } if content_type == "application/json"));
    assert!(matches!(&op("renameDog").body, Some(b) if b.encoding == apigen::ir::BodyEncoding::Form));
    let TypeRef::Named(rename) = &op("renameDog").body.as_ref().unwrap().ty else { panic!("a named body") };
    let TypeDef::Struct(rename) = api.ty(*rename) else { panic!("a struct") };
    assert_eq!(rename.fields.iter().map(|f| f.wire.as_str()).collect::<Vec<_>>(), ["name", "nick"]);
    assert_eq!(api.credentials.iter().map(|c| c.carrier.header()).collect::<Vec<_>>(), ["X-Key", "authorization"]);
    let TypeDef::Struct(dog) = ty(&api, "Dog") else { panic!() };
    let chip = dog.fields.iter().find(|f| f.wire == "chip").unwrap();
    assert!(chip.nullable);
    assert_eq!(dog.fields.iter().find(|f| f.wire == "mood").unwrap().ty, TypeRef::Json);
}

#[test]
fn limits_are_lowered_and_patterns_no_engine_reads_are_left_unchecked_with_a_warning() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Limits:
      type: object
      properties:
        code: {type: string, pattern: "^[a-z]+$"}
        lookbehind: {type: string, pattern: "(?<=a)b"}
        broken: {type: string, pattern: "([a-z]"}
        ratio: {type: number, minimum: 0, exclusiveMinimum: true, multipleOf: 0.5}
        tags: {type: array, uniqueItems: true, items: {type: string, maxLength: 3}}
"##;
    let api = lowered(text).unwrap();
    let TypeDef::Struct(s) = ty(&api, "Limits") else { panic!() };
    let c = |wire: &str| &s.fields.iter().find(|f| f.wire == wire).unwrap().constraints;
    assert_eq!(c("code").pattern.as_deref(), Some("^[a-z]+$"));
    // Look-behind is for fancy-regex, which the generated crates then turn on.
    assert_eq!(c("lookbehind").pattern.as_deref(), Some("(?<=a)b"));
    assert!(api.fancy_patterns);
    assert_eq!(c("broken").pattern, None);
    assert!(c("ratio").exclusive_minimum && c("ratio").multiple_of == Some(0.5));
    assert!(c("tags").unique_items);
    assert_eq!(c("tags").items.as_ref().and_then(|i| i.max_length), Some(3));
    assert_eq!(api.warnings.len(), 1);
    assert_eq!(api.warnings[0].pointer, "#/components/schemas/Limits/properties/broken/pattern");
    assert!(api.warnings[0].message.starts_with("the pattern is not checked: "), "{}", api.warnings[0].message);
}

#[test]
fn a_choice_of_required_properties_is_not_a_union() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Results:
      type: array
      oneOf:
        - required: [error]
        - required: [series]
      items: {type: string}
"##;
    let api = lowered(text).unwrap();
    assert!(matches!(ty(&api, "Results"), TypeDef::Alias { target: TypeRef::Vec(_), .. }));
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        ["#/components/schemas/Results/oneOf: `oneOf` only states which properties are required, which is not checked"]
    );
}

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
fn spec_mistakes_are_located_where_they_are_made() {
    use apigen::load;
    let header = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n";

    // A repeated operationId is a warning at the second use, naming the first and the Rust name
    // that tells them apart.
    let ids = format!(
        "{header}paths:\n  /a:\n    get:\n      operationId: getThing\n      responses: {{'200': {{description: ok}}}}\n  /b:\n    get:\n      operationId: getThing\n      responses: {{'200': {{description: ok}}}}\n"
    );
    let api = lowered(&ids).unwrap();
    let located: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        located,
        [
            "#/paths/~1b/get/operationId: operationId `getThing` is already the id of the operation at #/paths/~1a/get; this one is `get_thing2` in Rust"
        ]
    );
    let names: Vec<&str> = api.operations.iter().map(|op| op.fn_name.as_str()).collect();
    assert_eq!(names, ["get_thing", "get_thing2"]);

    // A key given twice in one mapping is refused with both lines, not silently overwritten.
    let keys = format!(
        "{header}paths: {{}}\ncomponents:\n  schemas:\n    Event:\n      type: string\n    Other:\n      type: integer\n    Event:\n      type: boolean\n"
    );
    let err = load(&keys).unwrap_err();
    assert_eq!(err.line, Some(10), "{err}");
    assert!(err.message.contains("the key `Event` appears twice in #/components/schemas (lines 6 and 10)"), "{err}");

    // A keyword moved out one level is found where it is, not at the outermost schema.
    let slip = format!(
        "{header}paths: {{}}\ncomponents:\n  schemas:\n    Outer:\n      type: object\n      properties:\n        inner:\n          type: object\n          properties:\n            name: {{type: string}}\n            nullable: true\n"
    );
    // The rest of the document still loads: the slip is set aside where it is, read leniently
    // as any JSON value, and an error of a strict run.
    assert!(load(&slip).is_ok());
    let err = apigen::generate(&slip, &config()).unwrap_err().to_string();
    assert!(
        err.contains(
            "#/components/schemas/Outer/properties/inner/properties/nullable (line 13): this is not a valid schema (property `nullable` must be a schema"
        ),
        "{err}"
    );
    assert!(err.contains("may belong one level up"), "{err}");

    // A misspelt type is not a missing feature: leniently any JSON value, strictly an error,
    // located either way.
    let typo = format!("{header}paths: {{}}\ncomponents:\n  schemas:\n    Code: {{type: strin}}\n");
    let err = apigen::generate(&typo, &config()).unwrap_err().to_string();
    assert!(
        err.contains("#/components/schemas/Code/type (line 6): `strin` is not a JSON Schema type (string, number, integer, boolean, array or object); the value is read as any JSON value"),
        "{err}"
    );
}

#[test]
fn limits_travel_with_referenced_schemas_and_skip_types_that_fix_their_form() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Code: {type: string, maxLength: 3, pattern: "^[A-Z]+$"}
    Holder:
      type: object
      properties:
        code: {$ref: "#/components/schemas/Code"}
        codes: {type: array, maxItems: 4, items: {$ref: "#/components/schemas/Code"}}
        other: {$ref: "#/components/schemas/Code"}
        id: {type: string, format: uuid, maxLength: 36}
        at: {type: string, format: date-time, pattern: "^2"}
"##;
    // The limits a date-time and a UUID cannot have are warned about: a lenient run.
    let generated = apigen::generate(text, &Config { strict: false, ..config() }).unwrap();
    let api = lowered(text).unwrap();
    let TypeDef::Struct(holder) = ty(&api, "Holder") else { panic!() };
    let field = |wire: &str| &holder.fields.iter().find(|f| f.wire == wire).unwrap().constraints;
    assert_eq!((field("code").max_length, field("code").pattern.as_deref()), (Some(3), Some("^[A-Z]+$")));
    assert_eq!(field("other"), field("code"));
    assert_eq!(field("codes").max_items, Some(4));
    assert_eq!(field("codes").items.as_ref().unwrap().max_length, Some(3));
    assert!(field("id").is_empty() && field("at").is_empty());
    let warnings: Vec<String> = generated.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(
        warnings[0].contains("properties/at/pattern (line 15)") && warnings[0].contains("not checked"),
        "{warnings:#?}"
    );
    assert!(warnings[1].contains("properties/id/maxLength (line 14)"), "{warnings:#?}");
}

#[test]
fn tag_features_gate_operations_and_the_types_only_they_reach() {
    let config = Config { tag_features: true, ..config() };
    let api = lower(&load(&fixture("features")).unwrap().doc, &config).unwrap();
    let tags = api.tag_features.as_ref().expect("asked for");
    // Tags in first-use order, as cargo feature names.
    assert_eq!(tags.features, ["pets", "notes", "shape-drawing", "labels"]);
    let op = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap_or_else(|| panic!("no {id}"));
    assert_eq!(op("echoLabel").features, ["labels", "shape-drawing"]);
    assert!(op("follow").features.is_empty(), "an untagged operation is always compiled");
    // A type is compiled by any feature whose operations reach it, through other types too.
    assert_eq!(tags.of_type(id(&api, "Label")), ["shape-drawing", "labels"]);
    assert_eq!(tags.of_type(id(&api, "Circle")), ["shape-drawing"]);
    assert_eq!(tags.of_type(id(&api, "Cat")), ["pets"]);
    // Reached from an untagged operation (`checkLimits`): always compiled.
    assert!(tags.of_type(id(&api, "Limits")).is_empty());
    assert!(tags.of_type(id(&api, "CountryCode")).is_empty());
    // A schema no operation reaches is compiled by a feature of its own, off by default.
    assert_eq!(tags.unused.as_deref(), Some("unused-schemas"));
    assert_eq!(tags.of_type(id(&api, "PetBase")), ["unused-schemas"]);
}

const REPEATED: &str = r##"
openapi: 3.0.3
info: { title: t, version: "1" }
tags: [{ name: a }, { name: b }]
paths:
  /a:
    get:
      operationId: getA
      tags: [a]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [owner]
                properties:
                  owner: { type: object, required: [login], properties: { login: { type: string } } }
                  next: { $ref: "#/components/schemas/Node" }
  /b:
    get:
      operationId: getB
      tags: [b]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [owner]
                properties:
                  owner:
                    description: described differently, the same on the wire
                    type: object
                    required: [login]
                    properties: { login: { type: string, description: the login } }
                  next: { $ref: "#/components/schemas/Copy" }
  /c:
    get:
      operationId: getC
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: object, properties: { owner: { type: object, properties: { login: { type: integer } } } } }
components:
  schemas:
    User: { type: object, required: [login], properties: { login: { type: string } } }
    Node: { type: object, properties: { next: { $ref: "#/components/schemas/Node" } } }
    Copy: { type: object, properties: { next: { $ref: "#/components/schemas/Copy" } } }
    Unused: { type: object, properties: { user: { $ref: "#/components/schemas/User" }, size: { type: integer } } }
"##;

const SAME_ERRORS: &str = r##"
openapi: 3.0.3
info: { title: t, version: "1" }
tags: [{ name: a }, { name: b }]
paths:
  /a:
    get:
      operationId: getA
      tags: [a]
      responses: { "204": { description: ok }, "404": { $ref: "#/components/responses/missing" } }
  /b:
    get:
      operationId: getB
      tags: [b]
      responses: { "204": { description: ok }, "404": { $ref: "#/components/responses/missing" } }
  /c:
    get:
      operationId: getC
      tags: [b]
      responses:
        "204": { description: ok }
        "404": { description: gone, content: { application/json: { schema: { $ref: "#/components/schemas/Problem" } } } }
components:
  responses:
    missing: { description: not here, content: { application/json: { schema: { $ref: "#/components/schemas/Problem" } } } }
  schemas:
    Problem: { type: object, properties: { message: { type: string } } }
"##;

#[test]
fn operations_documenting_the_same_errors_share_one_enum_and_one_list_of_bodies() {
    let api = lower(&load(SAME_ERRORS).unwrap().doc, &Config { tag_features: true, ..config() }).unwrap();
    let op = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap();
    let errors = |id: &str| op(id).errors.as_ref().unwrap();
    assert!(errors("getA").defines());
    assert_eq!(errors("getA").shared, 1);
    assert_eq!(errors("getB").same_as.as_deref(), Some("GetAError"));
    // Another description is another enum: its variant's docs differ.
    assert!(errors("getC").defines());
    // Compiled by the features of every operation it serves.
    assert_eq!(errors("getA").features, ["a", "b"]);
    assert_eq!(errors("getC").features, ["b"]);
    // The server's error bodies: the same for all three, so one list.
    assert_eq!(op("getA").error_shapes_of, None);
    assert_eq!(op("getB").error_shapes_of, Some(0));
    assert_eq!(op("getC").error_shapes_of, Some(0));
}

#[test]
fn types_of_the_same_structure_become_one_and_the_other_names_stay_as_aliases() {
    let api = lower(&load(REPEATED).unwrap().doc, &Config { tag_features: true, ..config() }).unwrap();
    let alias_of = |name: &str| match ty(&api, name) {
        TypeDef::Alias { target, merged: true, .. } => target.clone(),
        other => panic!("{name} is not a merged alias: {other:?}"),
    };
    // The inline owners are the component `User`, which keeps its name: descriptions do not count.
    assert!(matches!(ty(&api, "User"), TypeDef::Struct(_)));
    assert_eq!(alias_of("GetAReplyOwner"), named(&api, "User"));
    assert_eq!(alias_of("GetBReplyOwner"), named(&api, "User"));
    // Recursive copies merge; of two component names as long, the first in name order is kept.
    assert_eq!(alias_of("Node"), named(&api, "Copy"));
    // The replies are the same in turn, and every reference points at the kept type.
    assert_eq!(alias_of("GetBReply"), named(&api, "GetAReply"));
    let TypeDef::Struct(reply) = ty(&api, "GetAReply") else { panic!("a struct") };
    assert_eq!(reply.fields[0].ty, named(&api, "User"));
    assert_eq!(reply.fields[1].ty, named(&api, "Copy"));
    // A field of another type keeps a copy apart.
    assert!(matches!(ty(&api, "GetCReplyOwner"), TypeDef::Struct(_)));
    // A merged name is compiled with what it names; `User` is reached by both tags and by the
    // schema no operation uses, so by any of their features.
    let tags = api.tag_features.as_ref().unwrap();
    assert_eq!(tags.of_type(id(&api, "GetBReplyOwner")), tags.of_type(id(&api, "User")));
    assert_eq!(tags.of_type(id(&api, "User")), ["a", "b", "unused-schemas"]);
    assert_eq!(tags.of_type(id(&api, "Unused")), ["unused-schemas"]);
}

/// Every repair and simplification the unseen fixture needs is a warning with its place; the list
/// is `fixtures/unseen.warnings` (`UPDATE_EXPECT=1` rewrites it).
#[test]
fn slips_public_documents_make_are_repaired_with_located_warnings() {
    let config = Config { strict: false, ..config() };
    let text = fixture("unseen");
    let loaded = load(&text).expect("the slips are repaired while loading");
    let api = lower(&loaded.doc, &config).expect("the rest is read");
    let mut warnings: Vec<String> =
        loaded.notes.iter().chain(&api.warnings).map(|d| format!("{}: {}\n", d.pointer, d.message)).collect();
    warnings.sort();
    expect_test::expect_file!["fixtures/unseen.warnings"].assert_eq(&warnings.concat());
    // What the warnings say was kept is there.
    assert!(api.operations.iter().any(|op| op.id == "getBlob" && matches!(op.reply, Reply::Download { .. })));
    assert!(!api.operations.iter().any(|op| op.id == "upload"), "left out");
    assert!(matches!(ty(&api, "Upload"), TypeDef::Struct(s) if s.fields[0].ty == TypeRef::File));
    // What no one Rust type holds is kept, looser: the operation stays, only the parameter that
    // names nothing is gone, and an undescribed body is bytes.
    let op = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap_or_else(|| panic!("no {id}"));
    let loose = op("putLoose");
    let wires: Vec<&str> = loose.params.iter().map(|p| p.wire.as_str()).collect();
    assert_eq!(wires, ["id", "tag", "note", "single", "flat"]);
    assert!(loose.params[1].json && loose.params[1].ty == named(&api, "PutLooseTag"));
    assert!(matches!(ty(&api, "PutLooseTag"), TypeDef::Alias { target: TypeRef::Json, check: Some(_), .. }));
    assert_eq!(loose.body.as_ref().map(|b| b.encoding), Some(BodyEncoding::Binary));
    assert!(matches!(op("deleteLoose").reply, Reply::Download { .. }));
    assert!(matches!(op("postLoose").reply, Reply::Empty { status: 200, .. }));
    let TypeDef::Struct(fields) = ty(&api, "Loose") else { panic!("Loose is a struct") };
    let field = |wire: &str| &fields.fields.iter().find(|f| f.wire == wire).unwrap().ty;
    assert_eq!(*field("day"), named(&api, "LooseDay"), "any JSON value, checked");
    assert_eq!(*field("rows"), TypeRef::Vec(Box::new(TypeRef::Json)));
    assert!(matches!(ty(&api, "LooseLevel"), TypeDef::IntEnum(e) if e.variants[0].0 == "Value1"));
}

/// Streams the generator has no framing for, or that share an operation with other replies, and
/// request bodies of items: their bytes, with a warning, rather than a refusal.
#[test]
fn streams_it_cannot_frame_are_read_as_bytes() {
    let text = r##"
openapi: 3.2.0
info: {title: t, version: "1"}
paths:
  /feed:
    post:
      operationId: feed
      requestBody:
        content:
          application/jsonl:
            itemSchema: {type: object, properties: {n: {type: integer}}}
      responses:
        "200":
          description: Items as they come.
          content:
            application/jsonl:
              itemSchema: {type: object, properties: {n: {type: integer}}}
        "201":
          description: Stored.
          content:
            text/plain: {schema: {type: string}}
  /frames:
    get:
      operationId: frames
      responses:
        "200":
          description: Items in a framing of the service's own.
          content:
            application/x-frames:
              itemSchema: {type: string}
"##;
    let loaded = load(text).unwrap();
    let api = lower(&loaded.doc, &Config { strict: false, ..config() }).expect("nothing is refused");
    let op = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap_or_else(|| panic!("no {id}"));
    assert!(matches!(op("feed").reply, Reply::Download { .. }), "{:?}", op("feed").reply);
    assert_eq!(op("feed").body.as_ref().map(|b| b.encoding), Some(BodyEncoding::Binary));
    assert!(matches!(op("frames").reply, Reply::Download { .. }));
    let said: Vec<&str> = api.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(said.iter().any(|m| m.starts_with("a stream of items beside other success replies")), "{said:?}");
    assert!(said.iter().any(|m| m.starts_with("items of application/x-frames have no framing")), "{said:?}");
}

/// An integer schema that allows values past 64 bits is read as `i64`, which refuses them: one
/// warning says so, where the first is and how many there are; bounds or a format that keep the
/// values within 64 bits need none.
#[test]
fn integers_that_may_pass_64_bits_are_read_as_i64_with_one_warning() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Counts:
      type: object
      properties:
        a: {type: integer}
        b: {type: integer, minimum: 0}
        c: {type: integer, format: uint64}
        d: {type: integer, minimum: -5, maximum: 5}
        e: {type: integer, format: int32}
        f: {type: integer, format: uint32}
        g: {type: integer, format: int64}
"##;
    let api = lowered(text).unwrap();
    let said: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        said,
        [
            "#/components/schemas/Counts/properties/a: an integer without `format` or bounds is read as a 64-bit integer (`i64`) (here and in 2 other places), as Rust generators do: a larger value, which the schema allows, is refused; `format: int64` says so exactly"
        ]
    );
    let TypeDef::Struct(counts) = ty(&api, "Counts") else { panic!("a struct") };
    assert!(counts.fields.iter().all(|f| matches!(f.ty, TypeRef::I64 | TypeRef::I32)));
}

/// Swagger 2.0's `produces: []` on an operation clears the document's list, leaving a reply's
/// schema without a media type: the document's list is read instead, noted where.
#[test]
fn an_empty_list_of_media_types_keeps_the_documents_own() {
    let text = r##"
swagger: "2.0"
info: {title: t, version: "1"}
produces: [application/json]
paths:
  /info:
    get:
      operationId: info
      produces: []
      responses:
        "200": {description: ok, schema: {type: object, properties: {v: {type: string}}}}
  /gone:
    delete:
      operationId: gone
      produces: []
      responses:
        "204": {description: gone}
"##;
    let loaded = load(text).unwrap();
    let notes: Vec<String> = loaded.notes.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1info/get/produces: `produces: []` would leave the operation's schemas without a media type; the document's `produces` is read instead"
        ]
    );
    let api = lower(&loaded.doc, &config()).unwrap();
    assert!(matches!(api.operations[0].reply, Reply::Json { status: 200, .. }));
}

/// A mock's download in a JSON media type (a file a Swagger 2.0 document produces as JSON) is
/// JSON, so that a reader of the document can read it.
#[test]
fn a_mock_download_sent_as_json_is_json() {
    let text = r##"
swagger: "2.0"
info: {title: t, version: "1"}
produces: [application/json]
paths:
  /spec.json:
    get:
      operationId: getSpec
      responses:
        "200": {description: the document, schema: {type: file}}
"##;
    let named = |side: &str| Some(apigen::CrateConfig { name: format!("t-{side}"), dir: side.into() });
    let config = Config { server: named("server"), types: named("types"), ..config() };
    let files = apigen::generate(text, &config).unwrap().files;
    let samples = &files.iter().find(|f| f.path == "server/src/samples.rs").unwrap().contents;
    assert!(samples.contains(r#"FileDownload::new("\"sample\"").with_content_type("application/json")"#), "{samples}");
}

/// Lists of the same items that only their limits tell apart are one JSON value, which servers
/// check against the whole choice: a reader would take the first list and refuse a value of the
/// second by the first's limits.
#[test]
fn lists_told_apart_only_by_their_limits_are_checked_as_a_whole() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Input:
      oneOf:
        - {type: string}
        - {type: array, items: {type: string}, minItems: 1, maxItems: 1}
        - {type: array, items: {type: string}, minItems: 2, maxItems: 2}
    Batch:
      oneOf:
        - {type: array, items: {type: string}, minItems: 2}
        - {type: array, items: {type: array, items: {type: string}}}
    Plain:
      oneOf:
        - {type: array, items: {type: string}}
        - {type: array, items: {type: array, items: {type: string}}}
"##;
    let api = lowered(text).unwrap();
    assert!(matches!(ty(&api, "Input"), TypeDef::Alias { target: TypeRef::Json, check: Some(_), .. }));
    // An empty list reads as either member: only the first's limit could say it is the second.
    assert!(matches!(ty(&api, "Batch"), TypeDef::Alias { target: TypeRef::Json, check: Some(_), .. }));
    assert!(matches!(ty(&api, "Plain"), TypeDef::Union(_)), "lists of other items, without limits");
    assert!(
        api.warnings[0].message.contains("told apart only by their items' types and their limits"),
        "{:?}",
        api.warnings
    );
}

/// A router whose only checked input is a value held as any JSON checks it against the schema
/// and imports nothing it does not call (an unused import is a warning in the generated crate).
#[test]
fn a_router_checking_only_json_values_imports_no_validate() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      parameters:
        - name: q
          in: query
          content: {application/json: {schema: {oneOf: [{type: string}], anyOf: [{type: string, minLength: 2}]}}}
      responses:
        "204": {description: ok}
"##;
    let named = |side: &str| Some(apigen::CrateConfig { name: format!("t-{side}"), dir: side.into() });
    let config = Config { server: named("server"), types: named("types"), strict: false, ..config() };
    let files = apigen::generate(text, &config).unwrap().files;
    let router = &files.iter().find(|f| f.path == "server/src/router.rs").unwrap().contents;
    assert!(router.contains("types::check_schema(0, value, at, problems);"), "{router}");
    assert!(!router.contains("Validate"), "{router}");
}

/// The schemas a server reads XML bodies by, and checks values held as JSON against, are the ones
/// the document gives wherever they are written: through a shared request body too.
#[test]
fn xml_and_check_schemas_are_found_through_references() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets:
    post:
      operationId: addPet
      parameters:
        - $ref: "#/components/parameters/Tag"
      requestBody: {$ref: "#/components/requestBodies/Pet"}
      responses:
        "204": {description: ok}
components:
  parameters:
    Tag:
      name: tag
      in: query
      content: {application/json: {schema: {not: {type: string}}}}
  requestBodies:
    Pet:
      content:
        application/json: {schema: {$ref: "#/components/schemas/Pet"}}
        application/xml: {schema: {$ref: "#/components/schemas/Pet"}}
  schemas:
    Pet:
      type: object
      xml: {name: pet}
      properties:
        id: {type: integer, format: int64, xml: {attribute: true}}
"##;
    let api = lower(&load(text).unwrap().doc, &Config { strict: false, ..config() }).unwrap();
    let bundle = &api.schema_checks.as_ref().expect("a check and an XML body").0;
    assert_eq!(bundle["xml"][0], serde_json::json!({"$ref": "#/components/schemas/Pet"}));
    assert_eq!(bundle["checks"][0], serde_json::json!({"not": {"type": "string"}}));
    let pet = &bundle["components"]["schemas"]["Pet"];
    assert_eq!(pet["properties"]["id"]["xml"], serde_json::json!({"attribute": true}), "{pet}");
    assert!(api.warnings.iter().all(|w| !w.message.contains("cannot be found")), "{:?}", api.warnings);
}

#[test]
fn versions_other_than_2_0_and_3_0_to_3_2_are_refused_by_name() {
    use apigen::load;
    let body = "info: {title: t, version: '1'}\npaths: {}\n";
    for version in ["3.0.3", "3.1.0", "3.2.0"] {
        assert!(load(&format!("openapi: {version}\n{body}")).is_ok(), "{version}");
    }
    let err = load(&format!("info: {{title: t}}\nopenapi: 4.0.0\n{}", "paths: {}\n")).unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.message.starts_with("`openapi: 4.0.0` is not a version this generator reads"), "{err}");
    let err = load(&format!("swagger: '1.2'\n{body}")).unwrap_err();
    assert!(err.message.starts_with("`swagger: 1.2` is not a version"), "{err}");
    let err = load(body).unwrap_err();
    assert!(err.message.contains("no `openapi` (or `swagger`) field"), "{err}");
}

#[test]
fn an_openapi_3_1_document_lowers_as_its_3_0_twin() {
    let v31 = r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
components:
  schemas:
    Pet:
      type: object
      required: [kind]
      properties:
        kind: {const: cat}
        name: {type: [string, "null"], examples: [Tom]}
        age: {type: integer, format: int64, exclusiveMinimum: 0}
        owner: {$ref: "#/components/schemas/Owner", description: Who feeds it.}
    Owner: {type: object, properties: {name: {type: string}}}
"##;
    let v30 = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
components:
  schemas:
    Pet:
      type: object
      required: [kind]
      properties:
        kind: {type: string, enum: [cat]}
        name: {type: string, nullable: true, example: Tom}
        age: {type: integer, format: int64, minimum: 0, exclusiveMinimum: true}
        owner: {allOf: [{$ref: "#/components/schemas/Owner"}], description: Who feeds it.}
    Owner: {type: object, properties: {name: {type: string}}}
"##;
    let (a, b) = (lowered(v31).unwrap(), lowered(v30).unwrap());
    assert!(a.warnings.is_empty() && b.warnings.is_empty(), "{:?} {:?}", a.warnings, b.warnings);
    assert_eq!(format!("{:?}", a.types), format!("{:?}", b.types));
    assert_eq!(format!("{:?}", a.operations), format!("{:?}", b.operations));
    // And the crates written from each are the same, file for file.
    let crates = |text: &str| {
        let named = |side: &str| Some(apigen::CrateConfig { name: format!("t-{side}"), dir: side.into() });
        let config = Config { client: named("client"), server: named("server"), types: named("types"), ..config() };
        let files = apigen::generate(text, &config).unwrap().files;
        // The server's copy of the document is the one difference there is.
        files.into_iter().filter(|f| f.path != "server/src/openapi.yaml").collect::<Vec<_>>()
    };
    let (a, b) = (crates(v31), crates(v30));
    assert!(a.len() > 10 && a == b, "the crates differ");
}

#[test]
fn members_carrying_the_same_tag_are_read_by_shape() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Event:
      oneOf:
        - {type: object, required: [type, a], properties: {type: {type: string, enum: [x]}, a: {type: integer, format: int64}}}
        - {type: object, required: [type, b], properties: {type: {type: string, enum: [x]}, b: {type: string}}}
      discriminator: {propertyName: type}
"##;
    let api = lowered(text).unwrap();
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        [
            "#/components/schemas/Event/discriminator: members 0 and 1 both carry `type` = \"x\", so the discriminator cannot tell them apart; the value is read by its shape"
        ]
    );
    let TypeDef::Union(event) = ty(&api, "Event") else { panic!() };
    assert!(matches!(event.dispatch, apigen::ir::Dispatch::Shape(_)), "{:?}", event.dispatch);
}

#[test]
fn a_parent_tag_feature_turns_on_its_children() {
    let text = r##"
openapi: 3.2.0
info: {title: t, version: "1"}
tags:
  - {name: Cats, parent: Pets}
  - {name: Dogs, parent: Pets}
  - {name: Pets, parent: Animals, kind: nav}
  - {name: Loop, parent: Loop}
paths:
  /cats: {get: {operationId: listCats, tags: [Cats], responses: {"204": {description: ok}}}}
  /dogs: {get: {operationId: listDogs, tags: [Dogs], responses: {"204": {description: ok}}}}
  /loop: {get: {operationId: spin, tags: [Loop], responses: {"204": {description: ok}}}}
"##;
    let config = Config { tag_features: true, ..config() };
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let tags = api.tag_features.as_ref().expect("asked for");
    // Parents no operation names still become features, after the tags in use.
    assert_eq!(tags.features, ["cats", "dogs", "loop", "pets", "animals"]);
    assert_eq!(tags.children["pets"], ["cats", "dogs"]);
    assert_eq!(tags.children["animals"], ["pets"]);
    assert!(!tags.children.contains_key("loop"), "a tag is not its own child");
    assert!(api.warnings.iter().any(|w| w.pointer == "#/tags/3/parent"), "{:?}", api.warnings);
    // The manifests say the same to cargo.
    let named = |side: &str| Some(apigen::CrateConfig { name: format!("t-{side}"), dir: side.into() });
    // The tag that is its own parent is warned about: a lenient run.
    let config = Config { client: named("client"), types: named("types"), strict: false, ..config };
    let files = apigen::generate(text, &config).unwrap().files;
    let manifest = &files.iter().find(|f| f.path == "client/Cargo.toml").unwrap().contents;
    assert!(manifest.contains("pets = [\"cats\", \"dogs\", \"t-types/pets\"]"), "{manifest}");
    assert!(manifest.contains("animals = [\"pets\", \"t-types/animals\"]"), "{manifest}");
}

#[test]
fn an_alias_inside_an_all_of_is_what_it_names_and_a_loop_through_one_is_any_value() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Base: {type: object, properties: {id: {type: string}}}
    BaseAlias: {$ref: "#/components/schemas/Base"}
    Full: {allOf: [{$ref: "#/components/schemas/BaseAlias"}, {type: object, properties: {name: {type: string}}}]}
"##;
    let api = lowered(text).unwrap();
    let TypeDef::Struct(full) = ty(&api, "Full") else { panic!("a struct") };
    assert_eq!(full.fields.iter().map(|f| f.wire.as_str()).collect::<Vec<_>>(), ["id", "name"]);
    let looped = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    A: {allOf: [{$ref: "#/components/schemas/B"}, {type: object, properties: {x: {type: string}}}]}
    B: {$ref: "#/components/schemas/A"}
"##;
    // A value that must be itself and more has no type: any JSON value, said where.
    let api = lowered(looped).unwrap();
    assert!(api.warnings.iter().any(|d| d.message.contains("within itself")), "{:?}", api.warnings);
    assert!(matches!(ty(&api, "A"), TypeDef::Alias { target: TypeRef::Json, .. }));
}

#[test]
fn keywords_of_several_types_without_a_type_are_any_value_with_a_warning() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  inputs: {type: object, additionalProperties: {format: any}}
                  size: {minimum: 0, format: int64x}
"##;
    let api = lowered(text).unwrap();
    assert_eq!(api.operations.len(), 1, "the operation is kept");
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert!(
        notes.iter().any(|n| n.contains("/inputs/additionalProperties: without `type`, `format` could belong to several types")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("/size: without `type`")), "{notes:?}");
}

#[test]
fn a_swagger_2_operation_producing_json_gets_its_own_rejections_as_json() {
    let doc = r#"
swagger: '2.0'
info: {title: t, version: '1'}
produces: [application/json]
paths:
  /things:
    delete:
      operationId: deleteThings
      parameters:
        - {name: id, in: query, type: integer, required: true}
      responses:
        '204': {description: gone}
        '400': {description: bad request, no schema}
"#;
    let api = lowered(doc).unwrap();
    let shapes = &api.operations[0].error_shapes;
    assert!(
        shapes.iter().any(|s| s.status == ErrorStatus::Default && s.content_type == "application/json"),
        "{shapes:?}"
    );
}

#[test]
fn a_204_reply_documented_with_content_has_none_and_says_so() {
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /things/{id}:
    delete:
      operationId: deleteThing
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '204':
          description: gone
          content:
            application/json:
              schema: {type: string}
"#;
    let api = lowered(doc).unwrap();
    assert!(matches!(api.operations[0].reply, Reply::Empty { status: 204, .. }), "{:?}", api.operations[0].reply);
    let warned: Vec<(&str, &str)> = api.warnings.iter().map(|d| (d.pointer.as_str(), d.message.as_str())).collect();
    assert!(
        warned
            .iter()
            .any(|(p, m)| *p == "#/paths/~1things~1{id}/delete/responses/204/content"
                && m.contains("no content in HTTP")),
        "{warned:#?}"
    );
}

#[test]
fn an_optional_choice_with_a_member_of_any_value_may_be_null() {
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Filter: {type: object, properties: {must: {type: array, items: {type: string}}}}
    Count:
      type: object
      properties:
        filter:
          anyOf: [{$ref: '#/components/schemas/Filter'}, {nullable: true}]
        exact: {type: boolean}
"#;
    let api = lowered(doc).unwrap();
    let TypeDef::Struct(count) = ty(&api, "Count") else { panic!("a struct") };
    let nullable: Vec<(&str, bool)> = count.fields.iter().map(|f| (f.wire.as_str(), f.nullable)).collect();
    assert_eq!(nullable, [("filter", true), ("exact", false)]);
    assert!(matches!(&count.fields[0].ty, TypeRef::Named(n) if matches!(api.ty(*n), TypeDef::Union(_))));
}

#[test]
fn a_default_its_own_schema_refuses_is_ignored_with_a_warning() {
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Flags:
      type: object
      properties:
        flags: {type: array, items: {type: string}, minItems: 1, default: []}
        level: {type: integer, format: int32, maximum: 5, default: 3}
"#;
    let loaded = load(doc).unwrap();
    let api = lower(&loaded.doc, &Config { strict: false, ..config() }).unwrap();
    let TypeDef::Struct(flags) = ty(&api, "Flags") else { panic!("a struct") };
    let defaults: Vec<bool> = flags.fields.iter().map(|f| f.default.is_some()).collect();
    assert_eq!(defaults, [false, true], "only the default the schema allows is kept");
    let warned: Vec<&str> = api.warnings.iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(warned, ["#/components/schemas/Flags/properties/flags/default"]);
}

#[test]
fn a_member_that_is_itself_a_choice_is_selected_by_each_of_its_members_values() {
    // A discriminator without `mapping` over a plain member and a choice of two: the choice is
    // what the wire names by its members' values, not by its schema's name.
    let doc = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Input:
      oneOf:
        - {type: object, required: [type], properties: {type: {enum: [text, note]}}}
        - {$ref: '#/components/schemas/Call', title: A call}
      discriminator: {propertyName: type}
    Call:
      type: object
      oneOf:
        - {type: object, required: [type], properties: {type: {const: call}}}
        - {type: object, required: [type, id], properties: {type: {const: call_output}, id: {type: string}}}
      discriminator: {propertyName: type}
"#;
    let api = lowered(doc).unwrap();
    let TypeDef::Union(input) = ty(&api, "Input") else { panic!("a union") };
    let Dispatch::Tag { values, .. } = &input.dispatch else { panic!("{:?}", input.dispatch) };
    // A member listing two values is selected by each; so is a choice, by its members' values.
    let expected = [("text", 0), ("note", 0), ("call", 1), ("call_output", 1)].map(|(v, i)| (v.to_string(), i));
    assert_eq!(values, &expected);
}

#[test]
fn members_that_each_fix_a_required_property_are_told_apart_by_it() {
    // An internally tagged enum as schemars writes it: no `discriminator`, one `type` value each.
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Storage:
      oneOf:
        - {type: object, required: [type], properties: {type: {type: string, enum: [in_memory]}}}
        - {type: object, required: [type, path], properties: {type: {type: string, enum: [mmap]}, path: {type: string}}}
    Condition:
      anyOf:
        - {type: object, required: [key], properties: {key: {type: string}}}
        - {type: object, required: [has_id], properties: {has_id: {type: array, items: {type: integer, format: int64}}}}
        - {type: object, properties: {must: {type: array, items: {type: string}}}}
"#;
    let api = lowered(doc).unwrap();
    let TypeDef::Union(storage) = ty(&api, "Storage") else { panic!("a union") };
    let names: Vec<&str> = storage.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["InMemory", "Mmap"], "named by their tags");
    let Dispatch::Tag { property, values } = &storage.dispatch else { panic!("{:?}", storage.dispatch) };
    assert_eq!(property, "type");
    assert_eq!(values, &[("in_memory".to_string(), 0), ("mmap".to_string(), 1)]);
    // One object member without a property of its own is read when no other member's is there.
    let TypeDef::Union(condition) = ty(&api, "Condition") else { panic!("a union") };
    let Dispatch::Shape(order) = &condition.dispatch else { panic!("{:?}", condition.dispatch) };
    let markers: Vec<(Option<&str>, usize)> = order
        .iter()
        .map(|(shape, i)| match shape {
            Shape::Object { marker } => (marker.as_deref(), *i),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(markers, [(Some("key"), 0), (Some("has_id"), 1), (None, 2)]);
    assert!(api.warnings.is_empty(), "{:?}", api.warnings);
}

#[test]
fn not_is_left_unchecked_with_a_warning_and_the_other_keywords_give_the_type() {
    let doc = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Anything: {not: {type: string}}
    Word: {type: string, maxLength: 5, not: {enum: [admin]}}
    Holder:
      type: object
      properties:
        word: {$ref: '#/components/schemas/Word'}
        anything: {$ref: '#/components/schemas/Anything'}
"#;
    let api = lowered(doc).unwrap();
    assert!(matches!(ty(&api, "Anything"), TypeDef::Alias { target: TypeRef::Json, .. }));
    assert!(matches!(ty(&api, "Word"), TypeDef::Alias { target: TypeRef::String, .. }));
    let warned: Vec<&str> = api.warnings.iter().map(|d| d.pointer.as_str()).collect();
    assert!(warned.contains(&"#/components/schemas/Anything/not"), "{warned:?}");
    assert!(warned.contains(&"#/components/schemas/Word/not"), "{warned:?}");
}

#[test]
fn one_method_on_paths_that_differ_only_in_parameter_names_is_refused() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /apps/{name}:
    get:
      operationId: byName
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses: {"204": {description: ok}}
  /apps/{app.name}:
    get:
      operationId: byAppName
      parameters: [{name: app.name, in: path, required: true, schema: {type: string}}]
      responses: {"204": {description: ok}}
"##;
    let errors = lowered(text).unwrap_err();
    let located: Vec<String> = errors.0.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        located,
        [
            "#/paths/~1apps~1{app.name}/get: GET /apps/{name} is already this operation's method and path, but for the parameters' names"
        ]
    );
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

#[test]
fn required_names_without_a_property_are_required_properties() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Bare: {type: object, required: [id]}
    Counted:
      type: object
      required: [total]
      additionalProperties: {type: integer, format: int64}
    Closed:
      type: object
      required: [gone]
      additionalProperties: false
      properties: {kept: {type: string}}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let field = |name: &str, wire: &str| match ty(&api, name) {
        TypeDef::Struct(s) => s.fields.iter().find(|f| f.wire == wire).cloned(),
        other => panic!("{name} is not a struct: {other:?}"),
    };
    // Without properties, the value is still an object that must carry `id`.
    let id = field("Bare", "id").expect("a field for `id`");
    assert!(id.required && id.ty == TypeRef::Json, "{id:?}");
    // The required name holds what `additionalProperties` allows.
    let total = field("Counted", "total").expect("a field for `total`");
    assert!(total.required && total.ty == TypeRef::I64, "{total:?}");
    // A closed object cannot carry it: nothing is added, and the warning says why.
    assert!(field("Closed", "gone").is_none());
    let messages: Vec<&str> = api.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("no value can satisfy both")), "{messages:?}");
}

#[test]
fn one_of_members_that_may_accept_one_value_are_checked_for_exclusivity() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Lists:
      oneOf: [{type: array, items: {type: string}}, {type: object, properties: {a: {type: string}}}, {$ref: '#/components/schemas/Inner'}]
    Inner:
      oneOf: [{type: string}, {type: array, items: {type: integer, format: int64}}]
    Kinds:
      oneOf: [{type: string}, {type: boolean}, {type: array, items: {type: string}}]
    Either:
      anyOf: [{type: array, items: {type: string}}, {type: array, items: {type: boolean}}]
"##;
    let api = lowered(text).unwrap();
    let check = |name: &str| match ty(&api, name) {
        TypeDef::Union(u) => u.check,
        other => panic!("{name} is not a union: {other:?}"),
    };
    // A list member beside a choice with a list member: `[]` fits both.
    assert!(check("Lists").is_some());
    // One member per kind of JSON value: no value fits two.
    assert_eq!(check("Inner"), None);
    assert_eq!(check("Kinds"), None);
    // `anyOf` takes a value any number of members fit.
    assert_eq!(check("Either"), None);
    assert!(api.schema_checks.is_some());
}

#[test]
fn a_swagger_2_body_beside_form_fields_is_one_body_of_either_form() {
    let text = r##"
swagger: "2.0"
info: {title: t, version: "1"}
paths:
  /paint:
    post:
      operationId: paint
      consumes: [multipart/form-data, application/json]
      parameters:
        - {in: formData, name: model, type: string, required: true}
        - {in: formData, name: image, type: file, required: true}
        - {in: body, name: request, schema: {type: object, properties: {model: {type: string}}}}
      responses:
        '200': {description: ok}
  /only-forms:
    post:
      operationId: onlyForms
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {in: formData, name: model, type: string}
        - {in: body, name: request, schema: {type: object}}
      responses:
        '200': {description: ok}
"##;
    let loaded = load(text).unwrap();
    let notes: Vec<String> = loaded.notes.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1paint/post/parameters/2: Swagger 2.0 takes a `body` parameter or `formData` parameters, not both; read as one body: the form fields as a form, this parameter as application/json",
            "#/paths/~1only-forms/post/parameters/1: Swagger 2.0 takes a `body` parameter or `formData` parameters, not both; every type `consumes` lists is a form, so the form fields are read and this parameter is left out",
        ]
    );
    let paint = &loaded.doc.paths.paths["/paint"];
    let body = paint.as_item().and_then(|p| p.post.as_ref()).and_then(|op| op.request_body.as_ref());
    let body = body.and_then(|b| b.as_item()).expect("a body");
    let types: Vec<&str> = body.content.keys().map(String::as_str).collect();
    assert_eq!(types, ["multipart/form-data", "application/json"]);
    assert!(body.required);
}

#[test]
fn rejections_no_produced_media_type_can_carry_are_problem_details_with_a_warning() {
    let text = r##"
swagger: "2.0"
info: {title: t, version: "1"}
paths:
  /speech:
    post:
      operationId: speak
      produces: [audio/x-wav]
      parameters:
        - {in: query, name: text, type: string, required: true}
      responses:
        '200': {description: the audio, schema: {type: file}}
  /note:
    get:
      operationId: note
      produces: [text/plain]
      responses:
        '200': {description: the note, schema: {type: string}}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    // Text carries the message: only the audio operation is warned about.
    let warned: Vec<&str> =
        api.warnings.iter().filter(|w| w.message.contains("can carry a message")).map(|w| w.pointer.as_str()).collect();
    assert_eq!(warned, ["#/paths/~1speech/post/responses"], "{:?}", api.warnings);
}

#[test]
fn a_value_that_is_always_null_is_read_looser_with_a_warning_in_every_version_and_sampled_as_null() {
    for (version, schema, key) in
        [("3.1.0", "{type: 'null'}", "type"), ("3.0.3", "{enum: [null]}", "enum"), ("3.1.0", "{enum: [null]}", "enum")]
    {
        let text = format!(
            "openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
             Member: {{type: object, required: [avatar], properties: {{avatar: {schema}}}}}\n"
        );
        let loaded = load(&text).unwrap();
        let api = lower(&loaded.doc, &Config { strict: false, ..config() }).unwrap();
        let warned = loaded.notes.iter().chain(&api.warnings).any(|w| {
            w.pointer == format!("#/components/schemas/Member/properties/avatar/{key}")
                && w.message.contains("always null")
        });
        assert!(warned, "{version} {schema}: {:?} {:?}", loaded.notes, api.warnings);
        let doc = serde_json::to_value(&loaded.doc).unwrap();
        let schemas = apigen::sample::Schemas::of(&loaded.doc);
        let member = serde_json::json!({"$ref": "#/components/schemas/Member"});
        let options = apigen::sample::Options { seed: 1, full: true };
        let value = apigen::sample::sample(&schemas, &member, options).unwrap();
        assert_eq!(value, serde_json::json!({"avatar": null}), "{version} {schema} in {doc}");
    }
}

#[test]
fn structured_error_bodies_under_a_media_type_without_their_form_are_json_with_a_warning() {
    let text = r##"
swagger: "2.0"
info: {title: t, version: "1"}
paths:
  /archive:
    get:
      operationId: archive
      produces: [application/x-tar]
      parameters:
        - {in: query, name: path, type: string, required: true}
      responses:
        '200': {description: the files, schema: {type: file}}
        '404': {description: no such path, schema: {$ref: "#/definitions/Error"}}
        '500': {description: broken, schema: {type: string}}
definitions:
  Error:
    type: object
    required: [message]
    properties: {message: {type: string}}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let op = &api.operations[0];
    // The object is the 404's documented body, read by the client and written by the server as
    // JSON; the 500's text has a form in an archive's bytes, so it stays as it is.
    let errors = op.errors.as_ref().expect("the documented error body");
    let statuses: Vec<ErrorStatus> = errors.cases.iter().map(|c| c.status).collect();
    assert_eq!(statuses, [ErrorStatus::Exact(404)]);
    let shape = op.error_shapes.iter().find(|s| s.status == ErrorStatus::Exact(404)).expect("a 404 shape");
    assert_eq!(shape.content_type, "application/json");
    assert!(shape.template.contains("message"), "{}", shape.template);
    let warned: Vec<&str> =
        api.warnings.iter().filter(|w| w.message.contains("has no form for")).map(|w| w.pointer.as_str()).collect();
    assert_eq!(warned, ["#/paths/~1archive/get/responses/404/content/application~1x-tar"], "{:?}", api.warnings);
}

#[test]
fn swagger_2_bodies_and_replies_without_a_media_type_are_read_as_json_with_notes() {
    let text = r##"
swagger: "2.0"
info: {title: t, version: "1"}
paths:
  /jobs:
    post:
      operationId: addJob
      parameters:
        - {in: body, name: job, required: true, schema: {type: object, properties: {name: {type: string}}}}
      responses:
        '200': {description: the job, schema: {type: object}}
  /typed:
    post:
      operationId: typed
      consumes: [application/json]
      produces: [application/json]
      parameters:
        - {in: body, name: job, schema: {type: object}}
      responses:
        '200': {description: ok, schema: {type: object}}
"##;
    let loaded = load(text).unwrap();
    let notes: Vec<String> = loaded.notes.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1jobs/post/parameters/0: neither the operation nor the document lists `consumes`, so no media type is given for this body; it is read as `application/json`",
            "#/paths/~1jobs/post/responses: neither the operation nor the document lists `produces`, so no media type is given for its replies; those with a schema are read as `application/json` (`application/octet-stream` for files)",
        ]
    );
    // The assumed type is marked, for a reader that compares with the document as written.
    let body = |path: &str| {
        let op = loaded.doc.paths.paths[path].as_item().and_then(|p| p.post.clone()).expect("an operation");
        op.request_body.and_then(|b| b.into_item()).expect("a body")
    };
    assert!(body("/jobs").extensions.contains_key(apigen::ASSUMED_MEDIA_TYPE));
    assert!(!body("/typed").extensions.contains_key(apigen::ASSUMED_MEDIA_TYPE));
    assert_eq!(body("/jobs").content.keys().collect::<Vec<_>>(), ["application/json"]);
}

#[test]
fn header_parameters_openapi_ignores_are_left_out_with_a_note() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /report:
    get:
      operationId: report
      parameters:
        - {name: Accept, in: header, schema: {type: string}}
        - {name: authorization, in: header, required: true, schema: {type: string}}
        - {name: X-Trace, in: header, schema: {type: string}}
      responses:
        '200': {description: ok}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let params: Vec<&str> = api.operations[0].params.iter().map(|p| p.wire.as_str()).collect();
    assert_eq!(params, ["X-Trace"]);
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    assert_eq!(
        notes,
        [
            "#/paths/~1report/get/parameters/0: header parameter `Accept` is ignored, as OpenAPI says: the replies' media types say what the client accepts",
            "#/paths/~1report/get/parameters/1: header parameter `authorization` is ignored, as OpenAPI says: credentials are sent as the operation's `security` says",
        ]
    );
}

#[test]
fn objects_inside_a_query_object_are_written_as_json_text_with_a_note() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /notes:
    delete:
      operationId: deleteNotes
      parameters:
        - name: filter
          in: query
          required: true
          schema:
            type: object
            required: [stream]
            properties:
              stream: {type: string}
              tags: {type: array, items: {type: string}}
              labels: {type: object, additionalProperties: {type: string}}
        - name: page
          in: query
          style: deepObject
          schema:
            type: object
            properties:
              size: {type: integer, format: int32}
              cursors: {type: array, items: {type: object, properties: {at: {type: string}}}}
      responses:
        '204': {description: gone}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let notes: Vec<String> = api.warnings.iter().map(|d| format!("{}: {}", d.pointer, d.message)).collect();
    let form =
        "no form in OpenAPI's styles (an object or list of objects inside an object); each is written as its JSON text";
    assert_eq!(
        notes,
        [
            format!("#/paths/~1notes/delete/parameters/0/schema: in query object `filter`, `labels` has {form}"),
            format!("#/paths/~1notes/delete/parameters/1/schema: in query object `page`, `cursors` has {form}"),
        ],
        "a list of text has a form (the name repeated); a map or a list of objects has none"
    );
}

#[test]
fn bounds_of_a_32_bit_float_are_compared_as_f32() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Backup:
      type: object
      properties:
        quota: {type: number, format: float, minimum: 0, maximum: 9999999999}
        ratio: {type: number, format: float, maximum: 0.1}
        huge: {type: number, format: float, maximum: 1.0e300}
        exact: {type: number, maximum: 9999999999}
"##;
    let mut config = config();
    config.strict = false;
    let api = lower(&load(text).unwrap().doc, &config).unwrap();
    let TypeDef::Struct(backup) = ty(&api, "Backup") else { panic!("a struct") };
    let maximum = |name: &str| backup.fields.iter().find(|f| f.wire == name).and_then(|f| f.constraints.maximum);
    // 9999999998 reads as the f32 10000000000: compared with the bound as written, a valid
    // value would be refused.
    assert_eq!(maximum("quota"), Some(10_000_000_000.0));
    assert_eq!(maximum("ratio"), Some(f64::from(0.1_f32)));
    assert_eq!((maximum("huge"), maximum("exact")), (Some(1.0e300), Some(9_999_999_999.0)));
    let notes: Vec<&str> = api.warnings.iter().map(|d| d.message.as_str()).collect();
    assert!(
        notes.contains(&"`maximum: 9999999999` is compared as the nearest 32-bit float (`format: float`), 10000000000"),
        "{notes:?}"
    );
}

#[test]
fn a_propertys_example_is_shown_in_its_docs() {
    let text = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Pet:
      type: object
      properties:
        name: {type: string, description: What it answers to., example: Tom}
        tags:
          type: array
          items: {type: string}
          example: [indoor, "a long tag that makes the example too long", "for one line of the docs"]
        plain: {type: integer}
"##;
    let api = lowered(text).unwrap();
    let Some(TypeDef::Struct(pet)) = api.types.iter().find(|t| t.name() == "Pet") else { panic!("no Pet") };
    let doc = |name: &str| pet.fields.iter().find(|f| f.name == name).unwrap().doc.clone();
    assert_eq!(doc("name").as_deref(), Some("What it answers to.\n\nExample: `\"Tom\"`."));
    let tags = doc("tags").unwrap();
    assert!(tags.starts_with("Example:\n\n```json\n[\n  \"indoor\","), "{tags}");
    assert_eq!(doc("plain"), None);
}

/// One operation with `declaration` as its `x-apigen-pagination` (none when empty), the page,
/// offset and cursor parameters, and a reply with items, totals and cursors to point at.
fn paged(declaration: &str) -> Result<Api, Diagnostics> {
    let declaration =
        if declaration.is_empty() { String::new() } else { format!("x-apigen-pagination: {declaration}") };
    lowered(&format!(
        r#"
openapi: 3.0.3
info: {{title: t, version: '1'}}
paths:
  /things:
    get:
      operationId: listThings
      {declaration}
      parameters:
        - {{name: pageNo, in: query, schema: {{type: integer, format: int32, minimum: 0}}}}
        - {{name: at, in: query, schema: {{type: integer, format: int64}}}}
        - {{name: token, in: query, schema: {{type: string}}}}
        - {{name: count, in: query, schema: {{type: integer, format: int32, default: 25}}}}
        - {{name: label, in: query, schema: {{type: string}}}}
      responses:
        '200':
          description: Some things.
          headers:
            Link: {{schema: {{type: string}}}}
          content:
            application/json:
              schema:
                type: object
                required: [page]
                properties:
                  page:
                    type: object
                    required: [things]
                    properties:
                      things: {{type: array, items: {{type: string}}}}
                      pages: {{type: integer, format: int32}}
                  resume: {{type: string}}
                  tally: {{type: integer, format: int64}}
"#
    ))
}

#[test]
fn declared_pagination_names_its_parameters_and_where_the_reply_keeps_things() {
    use apigen::ir::{Holder, NextKey, PageKind, PageShape};
    let api =
        paged("{page: pageNo, size: count, items: '$response.body#/page/things', total: '$response.body#/page/pages'}")
            .expect("declared");
    let paging = api.operations[0].paging.as_ref().expect("paged");
    assert_eq!(paging.kind, PageKind::Number { param: 0, first: 0 }, "zero-based by its minimum");
    assert_eq!((paging.size, paging.default_size, &paging.item), (Some(3), Some(25), &TypeRef::String));
    let PageShape::Wrapper(wrapper) = &paging.shape else { panic!("{:?}", paging.shape) };
    let names = |path: &apigen::ir::FieldPath| path.fields.clone();
    assert_eq!(names(&wrapper.items), [("page".to_string(), Holder::Plain), ("things".to_string(), Holder::Plain)]);
    assert_eq!(
        names(wrapper.total.as_ref().unwrap()),
        [("page".into(), Holder::Plain), ("pages".into(), Holder::Option)]
    );

    let api = paged("{offset: at, items: '$response.body#/page/things', total: '$response.body#/tally'}").unwrap();
    assert_eq!(api.operations[0].paging.as_ref().unwrap().kind, PageKind::Offset { param: 1 });

    let api = paged("{cursor: token, next: '$response.body#/resume', items: '$response.body#/page/things'}").unwrap();
    let paging = api.operations[0].paging.as_ref().unwrap();
    assert_eq!(
        paging.next,
        Some(NextKey::Body(apigen::ir::FieldPath {
            fields: vec![("resume".into(), Holder::Option)],
            ty: TypeRef::String
        }))
    );
    let api = paged("{cursor: token, next: $response.header.link, items: '$response.body#/page/things'}").unwrap();
    assert!(matches!(api.operations[0].paging.as_ref().unwrap().next, Some(NextKey::Link(_))));

    // Turned off: no paging, and nothing to warn about.
    assert_eq!(paged("false").unwrap().operations[0].paging, None);
}

#[test]
fn a_declaration_that_cannot_be_followed_is_a_located_warning_and_no_stream() {
    let cases = [
        ("{page: nope}", "`nope` is not a query parameter of this operation"),
        ("{page: label, items: '$response.body#/page/things'}", "the parameter `label` is not an integer"),
        ("{page: pageNo, offset: at}", "exactly one of `page`, `offset` and `cursor`"),
        ("{pages: pageNo}", "`pages` is not one of page, offset, cursor, size, next, items and total"),
        ("[pageNo]", "neither an object nor `false`"),
        ("{page: pageNo}", "`items` must say where the items are"),
        ("{page: pageNo, items: '$response.body#/page/pages'}", "`items` names `page/pages`, which is not an array"),
        ("{page: pageNo, items: '$response.body#/page/gone'}", "the reply has no `page/gone`"),
        ("{page: pageNo, items: 'page/things'}", "is not a `$response.body#/…` expression"),
        ("{page: pageNo, items: '$response.body#/page/things', total: '$response.body#/resume'}", "`total` names"),
        ("{cursor: token, items: '$response.body#/page/things'}", "a `cursor` needs `next`"),
        (
            "{cursor: token, next: '$response.body#/tally', items: '$response.body#/page/things'}",
            "another type than the parameter `token`",
        ),
        (
            "{cursor: token, next: $response.header.X-Next, items: '$response.body#/page/things'}",
            "the header `X-Next`, which the reply does not document",
        ),
        (
            "{page: pageNo, next: '$response.body#/resume', items: '$response.body#/page/things'}",
            "`next` belongs with a `cursor`",
        ),
    ];
    for (declaration, expected) in cases {
        let api = paged(declaration).expect("lowered");
        assert_eq!(api.operations[0].paging, None, "{declaration}");
        let text = Diagnostics(api.warnings).to_string();
        assert!(text.contains("/paths/~1things/get/x-apigen-pagination"), "{declaration}: {text}");
        assert!(text.contains(expected), "{declaration}: {text}");
        assert!(text.contains("has no `into_stream()`"), "{declaration}: {text}");
    }
}

#[test]
fn pagination_recognised_by_name_says_so_in_a_warning() {
    let lenient = |text: &str| {
        let doc = load(text).expect("parses").doc;
        lower(&doc, &Config { strict: false, ..config() }).expect("lenient")
    };
    let spec = fixture("unseen");
    let api = lenient(&spec);
    let paged: Vec<&str> = api.operations.iter().filter(|op| op.paging.is_some()).map(|op| op.id.as_str()).collect();
    assert_eq!(
        paged,
        [
            "listReadingPages",
            "listReadingOffsets",
            "listReadingsAfter",
            "listContinuedReadings",
            "listLinkedReadings",
            "listResumedReadings"
        ]
    );
    let recognised = api.warnings.iter().filter(|w| w.message.contains("recognised by name")).count();
    assert_eq!(recognised, 4, "the declared ones are not warned about");
}
