//! Paging, declared with `x-apigen-pagination` or recognised by name.

use super::*;

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

#[test]
fn the_guides_declaration_is_followed_whole() {
    // The user guide's example, as written there.
    let guide = include_str!("../../../README.md");
    let section = guide.split_once("### Paged operations\n").expect("the section").1;
    let block = section.split_once("```yaml\n").and_then(|(_, rest)| rest.split_once("```")).expect("its example").0;
    let declaration: String = block.lines().map(|line| format!("      {line}\n")).collect();
    let api = lowered(&format!(
        r#"
openapi: 3.0.3
info: {{title: t, version: '1'}}
paths:
  /things:
    get:
      operationId: listThings
{declaration}
      parameters:
        - {{name: after, in: query, schema: {{type: string}}}}
        - {{name: limit, in: query, schema: {{type: integer, format: int32}}}}
      responses:
        '200':
          description: Some things.
          content:
            application/json:
              schema:
                type: object
                properties:
                  meta:
                    type: object
                    properties:
                      next_cursor: {{type: string}}
                      total: {{type: integer, format: int64}}
                  data: {{type: array, items: {{type: string}}}}
"#
    ))
    .expect("lowers");
    let paging = api.operations[0].paging.as_ref().unwrap_or_else(|| panic!("not paged: {:?}", api.warnings));
    assert!(matches!(paging.kind, apigen::ir::PageKind::Cursor { .. }), "{:?}", paging.kind);
    assert_eq!(paging.size, Some(1));
    let warnings: Vec<String> = api.warnings.iter().map(ToString::to_string).collect();
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn paging_recognised_by_name_is_a_note_a_strict_run_accepts_and_a_warning_still_fails_it() {
    let spec = |extra: &str| {
        format!(
            r#"
openapi: 3.0.3
info: {{title: t, version: '1'}}
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - {{name: cursor, in: query, schema: {{type: string}}}}
        - {{name: limit, in: query, schema: {{type: integer, format: int32}}}}
{extra}
      responses:
        '200':
          description: Some things.
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: {{type: array, items: {{type: string}}}}
                  next_cursor: {{type: string}}
"#
        )
    };
    let strict = Config { strict: true, ..Config::new("things") };
    let generated =
        apigen::generate(&spec(""), &strict).expect("a strict run takes a spec whose only diagnostics are notes");
    let severities: Vec<apigen::Severity> = generated.warnings.iter().map(|d| d.severity).collect();
    assert_eq!(severities, [apigen::Severity::Note], "{:?}", generated.warnings);
    assert!(generated.warnings[0].message.contains("declare `x-apigen-pagination`"), "{:?}", generated.warnings);

    // One warning (an integer read as 64 bits) fails it, and the failure lists only that.
    let loosened = spec("        - {name: page_size, in: header, schema: {type: integer}}");
    let refused = apigen::generate(&loosened, &strict).expect_err("a warning fails a strict run");
    assert_eq!(refused.0.len(), 1, "{refused}");
    assert_eq!(refused.0[0].severity, apigen::Severity::Warning, "{refused}");
    assert!(refused.to_string().starts_with("1 problem in the spec"), "{refused}");
}
