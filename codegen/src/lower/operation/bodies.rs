//! An operation's request body: one per media type it takes, each read as JSON, a form,
//! multipart, text or bytes.

use openapiv3::{ReferenceOr, Schema, SchemaKind, Type};

use super::OpContext;

use crate::diagnostic::Pointer;
use crate::ir::{BodiesDef, Body, BodyCase, BodyEncoding, Constraints, TypeRef, XmlRead};
use crate::lower::Lowerer;
use crate::lower::Naming;
use crate::naming::{Scope, camel};

impl<'a> Lowerer<'a> {
    pub(super) fn body(&mut self, ctx: &OpContext, body: &ReferenceOr<openapiv3::RequestBody>) -> Option<Body> {
        let ptr = ctx.ptr.push("requestBody");
        let found =
            crate::lower::resolve(body, "requestBodies", self.doc.components.as_ref().map(|c| &c.request_bodies));
        // A body the document names but does not describe is still a body: its bytes, of any
        // media type, as the caller writes them. Another file's is an error until such files are
        // read.
        let unknown;
        let body = match (found, body) {
            (Some(found), _) if !found.content.is_empty() => found,
            (None, ReferenceOr::Reference { reference }) if self.foreign(&ptr, reference) => return None,
            (found, _) => {
                let why = match body {
                    ReferenceOr::Reference { reference } if found.is_none() => {
                        format!("the reference {reference} does not name a request body in #/components/requestBodies")
                    }
                    _ => "the request body lists no media type".to_string(),
                };
                self.warn(
                    &ptr,
                    format!("{why}; the body is read as bytes of any media type, as the caller writes them"),
                );
                let any = openapiv3::Content::from_iter([("*/*".to_string(), openapiv3::MediaType::default())]);
                let required = found.is_some_and(|b| b.required);
                unknown = openapiv3::RequestBody { content: any, required, ..found.cloned().unwrap_or_default() };
                &unknown
            }
        };
        // Media types whose schemas differ make a choice: the body is an enum with a case per
        // media type, each read and written as its own media type says.
        let distinct = body.content.values().map(|m| &m.schema).fold(Vec::new(), |mut seen, s| {
            if !seen.contains(&s) {
                seen.push(s);
            }
            seen
        });
        // (A form and a multipart body of one schema are two cases too, unless JSON reads both.)
        let keys = || body.content.keys();
        // JSON of a schema also given as multipart with files is a case of its own too: JSON
        // cannot carry the files, so it cannot be read as the multipart case's type.
        let json_beside_files = keys().any(|json| {
            is_json(json)
                && keys().any(|ct| {
                    is_multipart(ct)
                        && body.content[ct].schema == body.content[json].schema
                        && has_file_property(self, body.content[ct].schema.as_ref())
                })
        });
        let several = distinct.len() > 1
            || json_beside_files
            || (!keys().any(|ct| is_json(ct)) && keys().any(|ct| is_form(ct)) && keys().any(|ct| is_multipart(ct)));
        let mut left: Vec<&String> = body.content.keys().collect();
        let first = self.media_body(ctx, &ptr, body, &left, several)?;
        let mut cases = vec![first];
        let mut unread: Vec<&str> = Vec::new();
        loop {
            left.retain(|ct| !cases.iter().any(|c| c.accepted.contains(ct) || c.also_form.contains(ct)));
            // A media type of a schema already read that the generator has no reader for (XML
            // beside JSON) is named in a warning; a form or multipart one (multipart beside a
            // form body of its schema) is a case of its own.
            let described: Vec<_> = cases.iter().map(|c| &body.content[&c.described].schema).collect();
            let (same, other): (Vec<&String>, Vec<&String>) = left.iter().partition(|ct| {
                let own_case = is_form(ct) || is_multipart(ct) || (is_json(ct) && json_beside_files);
                described.contains(&&body.content[ct.as_str()].schema) && !own_case
            });
            unread.extend(same.iter().map(|ct| ct.as_str()));
            left = other;
            if left.is_empty() {
                break;
            }
            // A further case that cannot be lowered leaves out that media type only.
            let mark = self.unit_start();
            let case = self.media_body(ctx, &ptr, body, &left, several);
            match case {
                Some(case) if self.diagnostics.len() == mark.diagnostics => cases.push(case),
                _ => {
                    let problems = self.set_aside(mark);
                    let ct = left.remove(0);
                    for p in problems {
                        let message = format!(
                            "the body may also be sent as {ct}, which the generated code does not read: {}",
                            p.message
                        );
                        self.warn_at(p.pointer, message);
                    }
                    if let Some(case) = case {
                        left.retain(|l| !case.accepted.contains(l));
                    }
                }
            }
        }
        let xml = self.xml_beside_json(&ptr, body, &cases, &mut unread);
        self.join_plain_media_types(&ptr, body, &mut cases, &mut unread);
        if !unread.is_empty() {
            let read: Vec<&str> =
                cases.iter().flat_map(|c| c.accepted.iter().chain(&c.also_form)).map(|s| s.as_str()).collect();
            self.warn(
                &ptr.push("content"),
                format!(
                    "the body may also be sent as {}; the generated code sends and accepts only {}",
                    unread.join(", "),
                    read.join(", ")
                ),
            );
        }
        let required = body.required;
        let doc = crate::lower::prose(&body.description);
        let mut cases: Vec<Body> =
            cases.into_iter().map(|c| Body { required, doc: doc.clone(), xml: xml.clone(), ..c.body }).collect();
        if cases.len() == 1 {
            return cases.pop();
        }
        Some(self.body_choice(ctx, cases))
    }

    /// XML beside a JSON body of the same schema, taken from `unread`: the server reads it as the
    /// schema's `xml` objects say (the client sends JSON).
    fn xml_beside_json(
        &mut self,
        ptr: &Pointer,
        body: &openapiv3::RequestBody,
        cases: &[MediaBody],
        unread: &mut Vec<&str>,
    ) -> Option<XmlRead> {
        let [case] = cases else { return None };
        if case.body.encoding != BodyEncoding::Json {
            return None;
        }
        let (types, rest): (Vec<&str>, Vec<&str>) = unread.iter().partition(|ct| is_xml(ct));
        let first = types.first()?;
        let media = &body.content[*first];
        let at = ptr.push("content").push(first).push("schema");
        let schema =
            self.register_xml(media.schema.as_ref().map(crate::lower::checks::as_json).unwrap_or_default(), &at);
        *unread = rest;
        Some(XmlRead { media_types: types.iter().map(|ct| ct.to_string()).collect(), schema })
    }

    /// A body also listed under types with no form of their own for its schema (`text/plain` or
    /// `application/octet-stream` beside JSON, as Docker's API lists them), taken from `unread`:
    /// the server reads it in the form its schema has, a structured value as JSON, a string as
    /// text, a file as bytes.
    fn join_plain_media_types(
        &mut self,
        ptr: &Pointer,
        body: &openapiv3::RequestBody,
        cases: &mut [MediaBody],
        unread: &mut Vec<&str>,
    ) {
        let mut joined: Vec<(&str, &str, String)> = Vec::new();
        unread.retain(|ct| {
            let schema = &body.content[*ct].schema;
            let plain = (ct.starts_with("text/") || holds_no_structure(ct)) && !is_xml(ct) && !is_yaml(ct);
            let structured = schema.as_ref().is_some_and(|s| self.is_structured(s, 0));
            let case = cases.iter_mut().find(|c| {
                body.content[&c.described].schema == *schema
                    && match c.body.encoding {
                        BodyEncoding::Json => structured,
                        BodyEncoding::Text | BodyEncoding::Binary => true,
                        BodyEncoding::Form | BodyEncoding::Multipart => false,
                    }
            });
            match case {
                Some(case) if plain => {
                    case.body.accepted.push(ct.to_string());
                    let form = match case.body.encoding {
                        BodyEncoding::Json => "JSON",
                        BodyEncoding::Text => "text",
                        _ => "bytes",
                    };
                    joined.push((ct, form, case.body.content_type.clone()));
                    false
                }
                _ => true,
            }
        });
        for (ct, form, sent) in joined {
            let message = format!(
                "the body may also be sent as {ct}, which gives its schema no form of its own: the server reads it as {form}, as the client sends it ({sent})"
            );
            self.warn(&ptr.push("content").push(ct), message);
        }
    }

    /// The enum of a body sent in several media types, a case each.
    fn body_choice(&mut self, ctx: &OpContext, cases: Vec<Body>) -> Body {
        let name = self.claim(Naming::Derived(format!("{}Body", ctx.type_name)));
        let mut scope = Scope::default();
        let cases: Vec<BodyCase> = cases
            .into_iter()
            .map(|body| BodyCase { name: scope.claim(&case_word(body.encoding, &body.content_type)), body })
            .collect();
        let first = cases[0].body.clone();
        let operation = format!("{} {}", ctx.method.as_str(), ctx.path);
        Body {
            ty: TypeRef::BodyChoice(name.clone()),
            accepted: cases.iter().flat_map(|c| c.body.accepted.iter().chain(&c.body.also_form)).cloned().collect(),
            choice: Some(BodiesDef { name, operation, cases }),
            ..first
        }
    }

    /// The body of one media type among `keys` (JSON first, then forms, multipart, text and
    /// bytes) with the others of the same schema it also accepts.
    fn media_body(
        &mut self,
        ctx: &OpContext,
        ptr: &Pointer,
        body: &openapiv3::RequestBody,
        keys: &[&String],
        several: bool,
    ) -> Option<MediaBody> {
        let Encoding { encoding, mut accepted, mut wildcard_json, mut also_form } =
            self.body_encoding(ptr, body, keys)?;
        // Only JSON wildcards (`application/*+json`): `application/json` is one they allow.
        wildcard_json |= encoding == BodyEncoding::Json && preferred_json(&accepted).is_none();
        let preferred = match encoding {
            BodyEncoding::Json if wildcard_json => Some("application/json".to_string()),
            BodyEncoding::Json => preferred_json(&accepted),
            // A range is no content type: the client sends one it allows.
            BodyEncoding::Binary | BodyEncoding::Text => accepted.first().map(|ct| crate::ir::media_type_within(ct)),
            BodyEncoding::Form | BodyEncoding::Multipart => accepted.first().cloned(),
        };
        let Some(content_type) = preferred else {
            self.report(&ptr.push("content"), "the request body lists no content type");
            return None;
        };
        // The media type whose schema the body is: the one sent, or the wildcard it stands for.
        let described = match body.content.contains_key(&content_type) && !wildcard_json {
            true => content_type.clone(),
            false => accepted[0].clone(),
        };
        let media = &body.content[&described];
        // Accepted types of another schema are a case of their own.
        accepted.retain(|ct| body.content[ct].schema == media.schema);
        let media_ptr = ptr.push("content").push(&described);
        let (ty, encoding) = self.media_type(ctx, &media_ptr, media, (encoding, &content_type), several)?;
        // Only an object's properties can be form pairs.
        if !also_form.is_empty() && !self.is_object(&ty) {
            self.warn(
                &ptr.push("content"),
                format!(
                    "the body may also be sent as {}, but its schema is not an object: the generated code sends and \
                     accepts only {}",
                    also_form.join(", "),
                    accepted.join(", ")
                ),
            );
            also_form.clear();
        }
        let ty = if encoding != BodyEncoding::Multipart && self.has_files(&ty) {
            self.warn(&media_ptr.push("schema"), FILES_IN_JSON);
            TypeRef::Json
        } else {
            ty
        };
        // A JSON body whose schema allows `null` may be `null`: an `Option` of its type.
        let nullable =
            media.schema.as_ref().and_then(|s| self.resolve_schema(s)).is_some_and(|s| s.schema_data.nullable);
        let ty = match ty {
            ty if nullable && encoding == BodyEncoding::Json && !self.takes_null(&ty, 0) => {
                TypeRef::Nullable(Box::new(ty))
            }
            ty => ty,
        };
        let constraints = self.body_constraints(&media_ptr, media, encoding, &ty);
        let body = Body {
            ty,
            required: body.required,
            encoding,
            content_type,
            accepted,
            also_form,
            doc: None,
            choice: None,
            xml: None,
            constraints,
        };
        Some(MediaBody { body, described })
    }

    /// How a body of the media types `keys` is sent: JSON first, then forms, multipart, text and
    /// bytes; `None` (reported) when none of them can be.
    fn body_encoding(&mut self, ptr: &Pointer, body: &openapiv3::RequestBody, keys: &[&String]) -> Option<Encoding> {
        let mut accepted: Vec<String> = keys.iter().filter(|ct| is_json(ct)).map(|ct| ct.to_string()).collect();
        let mut encoding = BodyEncoding::Json;
        let others: Vec<&String> = keys.iter().copied().filter(|ct| !is_json(ct)).collect();
        if accepted.is_empty() && others.iter().any(|ct| is_form(ct)) {
            // A form body stands in for the others only when there is no JSON to prefer.
            encoding = BodyEncoding::Form;
            accepted = others.iter().filter(|ct| is_form(ct)).map(|ct| ct.to_string()).collect();
        }
        let binary = |ct: &str| {
            let schema = body.content[ct].schema.as_ref();
            !ct.starts_with("multipart/") && !is_form(ct) && (schema.is_none() || is_binary(self, schema))
        };
        let text = |ct: &str| {
            let schema = body.content[ct].schema.as_ref().and_then(|s| self.resolve_schema(s));
            // A schema that says nothing (`{}`, or only a title) is any text too.
            ct.starts_with("text/")
                && schema.is_none_or(|s| match &s.schema_kind {
                    SchemaKind::Type(Type::String(t)) => t.enumeration.is_empty(),
                    SchemaKind::Any(any) => *any == openapiv3::AnySchema::default(),
                    _ => false,
                })
        };
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| is_multipart(ct))
        {
            encoding = BodyEncoding::Multipart;
            accepted = vec![ct.to_string()];
        }
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| text(ct))
        {
            // Text as it is: a `text/*` type whose schema, if any, is a plain string.
            encoding = BodyEncoding::Text;
            accepted = vec![ct.to_string()];
        }
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| binary(ct))
        {
            // Raw bytes when that is all the body can be: no schema, or a binary string.
            encoding = BodyEncoding::Binary;
            accepted = vec![ct.to_string()];
        }
        // A wildcard (`*/*`, `application/*`) with a schema that is more than bytes: JSON is one
        // of the types it allows, and the one the schema can be written in.
        let mut wildcard_json = false;
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| ct.contains('*'))
        {
            self.warn(
                &ptr.push("content").push(ct.as_str()),
                format!(
                    "a body of type {ct} is sent as application/json and read as JSON; any content type is accepted"
                ),
            );
            accepted = vec![ct.to_string()];
            wildcard_json = true;
        }
        // Any other media type (`application/xml`, `image/png` with a schema): its bytes as they
        // are, for the caller to write and read; the schema is not checked.
        if accepted.is_empty()
            && let Some(ct) = others.iter().find(|ct| !is_multipart(ct) && !is_form(ct))
        {
            self.warn(
                &ptr.push("content").push(ct.as_str()),
                format!("a body of type {ct} is sent and read as bytes, as the caller writes them; its schema is not checked"),
            );
            encoding = BodyEncoding::Binary;
            accepted = vec![ct.to_string()];
        }
        // A body offered as JSON and as multipart of the same schema, which has file parts, goes
        // as multipart: JSON cannot carry the files.
        if encoding == BodyEncoding::Json
            && let Some(ct) = others.iter().find(|ct| is_multipart(ct))
            && accepted.iter().any(|json| body.content[json].schema == body.content[ct.as_str()].schema)
            && has_file_property(self, body.content[ct.as_str()].schema.as_ref())
        {
            encoding = BodyEncoding::Multipart;
            accepted = vec![ct.to_string()];
        }
        // A form (urlencoded or multipart, without files) beside JSON, of the same schema: the
        // server reads any of them, the client sends JSON.
        let mut also_form: Vec<String> = Vec::new();
        if encoding == BodyEncoding::Json
            && let Some(json) = accepted.first()
        {
            let same = |ct: &&&String| body.content[ct.as_str()].schema == body.content[json].schema;
            also_form = others
                .iter()
                .filter(|ct| is_form(ct) || is_multipart(ct))
                .filter(same)
                .map(|ct| ct.to_string())
                .collect();
        }
        if accepted.is_empty() {
            let list = keys.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
            self.report(
                &ptr.push("content"),
                format!(
                    "request bodies of type {list} are not supported yet; only JSON, form, text and binary bodies are"
                ),
            );
            return None;
        }
        Some(Encoding { encoding, accepted, wildcard_json, also_form })
    }

    /// The type of a body of `media`, and how it is sent once its schema is known: a form or
    /// multipart schema that is no object is the caller's bytes.
    fn media_type(
        &mut self,
        ctx: &OpContext,
        media_ptr: &Pointer,
        media: &openapiv3::MediaType,
        (encoding, content_type): (BodyEncoding, &str),
        several: bool,
    ) -> Option<(TypeRef, BodyEncoding)> {
        // A form or multipart schema that plainly is no object is not lowered as one would be
        // inside JSON: it is bytes (below), and its JSON reading would only mislead.
        let scalar = media.schema.as_ref().and_then(|s| self.resolve_schema(s)).is_some_and(|s| {
            matches!(
                s.schema_kind,
                SchemaKind::Type(
                    Type::String(_) | Type::Integer(_) | Type::Number(_) | Type::Boolean(_) | Type::Array(_)
                )
            )
        });
        let ty = match (&media.schema, encoding) {
            (_, BodyEncoding::Binary) => TypeRef::Bytes,
            (Some(_), BodyEncoding::Form | BodyEncoding::Multipart) if scalar => TypeRef::Bytes,
            (_, BodyEncoding::Text) => TypeRef::String,
            (Some(schema), _) => {
                // Among several cases the type is named after its media type.
                let word = if several { case_word(encoding, content_type) } else { String::new() };
                let naming = Naming::Derived(format!("{}{word}Body", ctx.type_name));
                self.lower_schema(schema, &media_ptr.push("schema"), naming)?
            }
            (None, _) => TypeRef::Json,
        };
        // Form and multipart bodies are the properties of an object; anything else under those
        // media types can only be the caller's own bytes.
        let (ty, encoding) = if matches!(encoding, BodyEncoding::Form | BodyEncoding::Multipart) && !self.is_object(&ty)
        {
            self.warn(
                &media_ptr.push("schema"),
                format!(
                    "a {content_type} body whose schema is not an object is sent and read as bytes, as the caller writes them"
                ),
            );
            (TypeRef::Bytes, BodyEncoding::Binary)
        } else {
            (ty, encoding)
        };
        Some((ty, encoding))
    }

    /// A body's own limits: a list's or a scalar's (`maxItems`, its items' `pattern`), which no
    /// type carries; an object's are its struct's, and bytes have none to read.
    fn body_constraints(
        &mut self,
        media_ptr: &Pointer,
        media: &openapiv3::MediaType,
        encoding: BodyEncoding,
        ty: &TypeRef,
    ) -> Constraints {
        let mut constraints = match (&media.schema, encoding) {
            (Some(schema), BodyEncoding::Json | BodyEncoding::Text) if !self.is_struct(ty) => match schema {
                ReferenceOr::Item(item) => self.constraints(item, &media_ptr.push("schema")),
                ReferenceOr::Reference { reference } => self.referenced_constraints(reference),
            },
            _ => Constraints::default(),
        };
        // Text is read as a string whatever its schema says: only a string's limits apply to it.
        if encoding == BodyEncoding::Text {
            let Constraints { min_length, max_length, pattern, format, .. } = constraints;
            constraints = Constraints { min_length, max_length, pattern, format, ..Constraints::default() };
        }
        constraints.nullable = matches!(ty, TypeRef::Nullable(_)) && !constraints.is_empty();
        constraints
    }
}

/// How a body is sent, before its schema is read.
struct Encoding {
    encoding: BodyEncoding,
    /// The media types read as it, of the same schema.
    accepted: Vec<String>,
    /// A wildcard (or JSON wildcards only) stands for `application/json`.
    wildcard_json: bool,
    /// Forms of the same schema the server reads too, beside JSON.
    also_form: Vec<String>,
}

/// Why a schema that is also a multipart body's, whose binary properties are therefore file
/// parts, is read as any JSON value where it appears as JSON.
pub(super) const FILES_IN_JSON: &str = "this schema is also a multipart body, whose binary properties are file parts, which \
                             JSON cannot carry: here it is read as any JSON value";

/// One media type's body, and the media type whose schema it is (a wildcard JSON body is sent as
/// `application/json` but described under `*/*`).
struct MediaBody {
    body: Body,
    described: String,
}

impl std::ops::Deref for MediaBody {
    type Target = Body;

    fn deref(&self) -> &Body {
        &self.body
    }
}

/// The word a body case is named by: its encoding, or for JSON of a type other than
/// `application/json`, that type (`MergePatchJson`).
fn case_word(encoding: BodyEncoding, content_type: &str) -> String {
    match encoding {
        BodyEncoding::Json if !content_type.eq_ignore_ascii_case("application/json") => {
            let subtype = content_type.split(['/', ';']).nth(1).unwrap_or("json");
            camel(subtype)
        }
        BodyEncoding::Json => "Json".to_string(),
        BodyEncoding::Form => "Form".to_string(),
        BodyEncoding::Multipart => "Multipart".to_string(),
        BodyEncoding::Binary => "Bytes".to_string(),
        BodyEncoding::Text => "Text".to_string(),
    }
}

fn is_form(content_type: &str) -> bool {
    content_type.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

/// A media type without its parameters, lower-case: `text/csv; charset=utf-8` is `text/csv`.
pub(super) fn essence(content_type: &str) -> String {
    content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

/// Whether `content_type` is XML (`application/xml`, `text/xml`, `application/atom+xml`).
fn is_xml(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence == "application/xml" || essence == "text/xml" || essence.ends_with("+xml")
}

pub(crate) fn is_json(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

/// The content type the client sends or expects: `application/json` when listed, else the first
/// concrete JSON type (never a wildcard such as `application/*+json`).
pub(super) fn preferred_json(types: &[String]) -> Option<String> {
    types
        .iter()
        .find(|t| t.eq_ignore_ascii_case("application/json"))
        .or_else(|| types.iter().find(|t| !t.contains('*')))
        .cloned()
}

/// The schema of a value whose media type gives none: any JSON value, or text.
pub(super) fn unwritten_schema(json: bool) -> ReferenceOr<Schema> {
    let kind =
        if json { SchemaKind::Any(Default::default()) } else { SchemaKind::Type(Type::String(Default::default())) };
    ReferenceOr::Item(Schema { schema_data: Default::default(), schema_kind: kind })
}

fn is_multipart(content_type: &str) -> bool {
    content_type.split(';').next().is_some_and(|ct| ct.trim().eq_ignore_ascii_case("multipart/form-data"))
}

/// The component schemas that some operation takes as its multipart body (directly by `$ref`, or
/// through a `$ref` to `#/components/requestBodies`), as pointers.
pub(in crate::lower) fn multipart_schemas(doc: &openapiv3::OpenAPI) -> std::collections::HashSet<String> {
    let bodies = doc.paths.paths.values().filter_map(|item| item.as_item()).flat_map(|item| item.iter());
    let named = doc.components.iter().flat_map(|c| c.request_bodies.values());
    let direct = bodies.filter_map(|(_, op)| op.request_body.as_ref());
    direct
        .chain(named)
        .filter_map(|body| body.as_item())
        .flat_map(|body| body.content.iter())
        .filter(|(ct, _)| is_multipart(ct))
        .filter_map(|(_, media)| match media.schema.as_ref()? {
            ReferenceOr::Reference { reference } => Some(reference.clone()),
            ReferenceOr::Item(_) => None,
        })
        .collect()
}

/// The media type of a reply's content that is bytes: `application/octet-stream`, or a binary
/// string schema.
pub(super) fn binary_medium<'c>(
    lowerer: &Lowerer,
    content: &'c indexmap::IndexMap<String, openapiv3::MediaType>,
) -> Option<&'c String> {
    content
        .iter()
        .find(|(ct, m)| *ct == "application/octet-stream" || is_binary(lowerer, m.schema.as_ref()))
        .map(|(ct, _)| ct)
}

/// Whether an object schema has a property that is a file (a binary string, or a list of them).
fn has_file_property(lowerer: &Lowerer, schema: Option<&ReferenceOr<Schema>>) -> bool {
    let Some(schema) = schema.and_then(|s| lowerer.resolve_schema(s)) else { return false };
    let SchemaKind::Type(Type::Object(object)) = &schema.schema_kind else { return false };
    object.properties.values().any(|property| {
        let property = property.clone().unbox();
        let items = match lowerer.resolve_schema(&property).map(|s| &s.schema_kind) {
            Some(SchemaKind::Type(Type::Array(a))) => a.items.clone().map(ReferenceOr::unbox),
            _ => None,
        };
        // A choice with a file among its members is read as file parts too.
        let choice = match lowerer.resolve_schema(&property).map(|s| &s.schema_kind) {
            Some(SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members }) => {
                lowerer.file_choice(members).is_some()
            }
            _ => false,
        };
        is_binary(lowerer, Some(&property)) || is_binary(lowerer, items.as_ref()) || choice
    })
}

fn is_binary(lowerer: &Lowerer, schema: Option<&ReferenceOr<Schema>>) -> bool {
    let Some(schema) = schema.and_then(|s| lowerer.resolve_schema(s)) else { return false };
    matches!(&schema.schema_kind, SchemaKind::Type(Type::String(s))
        if s.format == openapiv3::VariantOrUnknownOrEmpty::Item(openapiv3::StringFormat::Binary))
}

/// Whether `content_type` has no form of its own for a structured value: neither JSON, YAML, XML,
/// text, nor a form (an archive, a stream of frames, an image, bytes).
pub(super) fn holds_no_structure(content_type: &str) -> bool {
    let essence = essence(content_type);
    !(is_json(&essence)
        || is_yaml(&essence)
        || is_xml(&essence)
        || essence.starts_with("text/")
        || essence.starts_with("multipart/")
        || essence == "application/x-www-form-urlencoded")
}

/// Whether `content_type` is YAML (`application/yaml`, `application/x-yaml`, `text/yaml`, `+yaml`).
pub(super) fn is_yaml(content_type: &str) -> bool {
    let essence = essence(content_type);
    essence.ends_with("/yaml") || essence.ends_with("/x-yaml") || essence.ends_with("+yaml")
}
