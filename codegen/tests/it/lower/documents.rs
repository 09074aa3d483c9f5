//! Whole documents: versions, Swagger 2.0 and OpenAPI 3.1 conversions, repairs, and where each
//! diagnostic points.

use super::*;

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

/// Every repair and simplification the unseen fixture needs is a warning with its place; the list
/// is `fixtures/unseen.warnings` (`UPDATE_EXPECT=1` rewrites it).
#[test]
fn slips_public_documents_make_are_repaired_with_located_warnings() {
    let config = Config { strict: false, ..config() };
    let text = fixture("unseen");
    let loaded = load(&text).expect("the slips are repaired while loading");
    let api = lower(&loaded.doc, &config).expect("the rest is read");
    let mut warnings: Vec<String> = loaded
        .notes
        .iter()
        .chain(&api.warnings)
        .map(|d| format!("{} {}: {}\n", d.severity.label(), d.pointer, d.message))
        .collect();
    warnings.sort();
    expect_test::expect_file!["../../fixtures/unseen.warnings"].assert_eq(&warnings.concat());
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
fn null_where_a_list_or_map_belongs_is_read_as_left_out_wherever_the_document_has_one() {
    let text = fixture("nulls");
    let loaded = load(&text).expect("every null is repaired while loading");
    let api = lower(&loaded.doc, &Config { strict: false, ..config() }).expect("the rest is read");
    let warned: Vec<&str> = loaded.notes.iter().map(|d| d.pointer.as_str()).collect();
    let keys = [
        "#/tags",
        "#/servers",
        "#/security",
        "#/paths/~1notes/parameters",
        "#/paths/~1notes/get/tags",
        "#/paths/~1notes/get/parameters",
        "#/paths/~1notes/get/servers",
        "#/paths/~1notes/get/security",
        "#/paths/~1notes/get/callbacks",
        "#/paths/~1notes/get/responses/200/headers",
        "#/paths/~1notes/get/responses/200/links",
        "#/paths/~1notes/get/responses/200/content/application~1json/examples",
        "#/paths/~1notes/get/responses/200/content/application~1json/encoding",
        "#/components/schemas/Note/required",
        "#/components/schemas/Note/properties/kind/enum",
        "#/components/schemas/Note/properties/either/oneOf",
        "#/components/schemas/Note/properties/either/anyOf",
        "#/components/schemas/Note/properties/either/allOf",
        "#/components/responses",
        "#/components/parameters",
        "#/components/examples",
        "#/components/requestBodies",
        "#/components/headers",
        "#/components/securitySchemes",
        "#/components/links",
        "#/components/callbacks",
    ];
    for key in keys {
        assert!(warned.contains(&key), "{key} is not repaired: {warned:?}");
    }
    assert_eq!(warned.len(), keys.len(), "{warned:?}");
    assert!(loaded.notes.iter().all(|d| d.message.contains("is `null` where OpenAPI wants a")), "{:?}", loaded.notes);
    // Properties named like keywords keep their schemas.
    let TypeDef::Struct(note) = ty(&api, "Note") else { panic!("Note is a struct") };
    let wires: Vec<&str> = note.fields.iter().map(|f| f.wire.as_str()).collect();
    assert_eq!(wires, ["tags", "parameters", "kind", "either"]);
    assert_eq!(note.fields[0].ty, TypeRef::Vec(Box::new(TypeRef::String)));

    // What must be there is read as empty.
    let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n";
    let loaded = load(text).expect("paths: null");
    assert!(loaded.notes.iter().any(|d| d.pointer == "#/paths" && d.message.ends_with("read as empty")));
    let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n";
    let loaded = load(text).expect("responses: null");
    assert!(
        loaded.notes.iter().any(|d| d.pointer == "#/paths/~1a/get/responses" && d.message.ends_with("read as empty"))
    );
}
