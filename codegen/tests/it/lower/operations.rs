//! Operations: parameters, bodies, replies, downloads, streams and error replies.

use super::*;

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
