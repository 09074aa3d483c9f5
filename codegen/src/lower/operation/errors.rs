//! An operation's error replies: the bodies each error status documents and the shapes that
//! carry a message.

use openapiv3::{ReferenceOr, Schema, SchemaKind, StatusCode, Type};

use super::OpContext;
use super::bodies::{FILES_IN_JSON, essence, holds_no_structure, is_json, is_yaml};

use crate::diagnostic::Pointer;
use crate::ir::{ErrorCase, ErrorShape, ErrorStatus, ErrorsDef, TypeRef};
use crate::lower::Lowerer;
use crate::lower::Naming;
use crate::naming::Scope;

impl<'a> Lowerer<'a> {
    /// The documented error replies: exact statuses ascending, then classes (`4XX`), then
    /// `default` unless it is the operation's only way to succeed.
    pub(super) fn error_responses(
        &mut self,
        ctx: &OpContext,
        responses: &'a openapiv3::Responses,
    ) -> Vec<(ErrorStatus, Pointer, &'a openapiv3::Response)> {
        let ptr = ctx.ptr.push("responses");
        let mut listed: Vec<(ErrorStatus, Pointer, &ReferenceOr<openapiv3::Response>)> = responses
            .responses
            .iter()
            .filter_map(|(code, r)| match code {
                StatusCode::Code(c) if *c >= 400 => Some((ErrorStatus::Exact(*c), ptr.push(c), r)),
                StatusCode::Range(r4) if *r4 >= 4 => Some((ErrorStatus::Class(*r4), ptr.push(format!("{r4}XX")), r)),
                _ => None,
            })
            .collect();
        listed.sort_by_key(|(status, ..)| *status);
        let succeeds_otherwise = responses.responses.keys().any(|code| match code {
            StatusCode::Code(c) => (200..400).contains(c),
            StatusCode::Range(r) => *r == 2,
        });
        if let Some(default) = responses.default.as_ref().filter(|_| succeeds_otherwise) {
            listed.push((ErrorStatus::Default, ptr.push("default"), default));
        }
        listed
            .into_iter()
            .filter_map(|(status, rptr, response)| {
                Some((status, rptr.clone(), self.resolve_response(&rptr, response)?))
            })
            .collect()
    }

    /// The documented error replies whose bodies are JSON other than problem details (which the
    /// generated crates already read and write), as an enum with a variant per status.
    pub(super) fn error_replies(
        &mut self,
        ctx: &OpContext,
        listed: &[(ErrorStatus, Pointer, &'a openapiv3::Response)],
    ) -> Option<ErrorsDef> {
        let wanted = format!("{}Error", ctx.type_name);
        let mut scope = Scope::default();
        let mut cases = Vec::new();
        for &(status, ref rptr, response) in listed {
            let Some(ErrorMedia { listed: content_type, written, media }) = self.error_body_media(response) else {
                continue;
            };
            let Some(schema) = &media.schema else { continue };
            if written != *content_type {
                let message = format!(
                    "this error reply's schema describes a structured value, which `{content_type}` has no form for; it is read and written as JSON, `{written}`, which the document does not list here"
                );
                self.warn(&rptr.push("content").push(content_type), message);
            }
            let variant = match status {
                ErrorStatus::Exact(code) => status_name(code),
                ErrorStatus::Class(4) => "ClientError".to_string(),
                ErrorStatus::Class(5) => "ServerError".to_string(),
                ErrorStatus::Class(other) => format!("Status{other}xx"),
                ErrorStatus::Default => "Other".to_string(),
            };
            let naming = Naming::Derived(format!("{wanted}{variant}"));
            let schema_ptr = rptr.push("content").push(content_type).push("schema");
            let Some(mut body) = self.lower_schema(schema, &schema_ptr, naming) else { continue };
            if self.has_files(&body) {
                self.warn(&schema_ptr, FILES_IN_JSON);
                body = TypeRef::Json;
            }
            let doc = crate::lower::prose(&Some(response.description.clone()));
            cases.push(ErrorCase { status, name: scope.claim(&variant), body, doc });
        }
        if cases.is_empty() {
            return None;
        }
        let name = self.claim(Naming::Derived(wanted));
        let operation = format!("{} {}", ctx.method.as_str(), ctx.path);
        Some(ErrorsDef { name, operation, cases, same_as: None, shared: 0, features: Vec::new() })
    }

    /// The documented body of an error reply ([`error_media`]); or else one whose schema describes
    /// a structured value under a media type with no form for it (Swagger 2.0's `produces: [application/x-tar]`
    /// covering an error reply's object too), read and written as JSON.
    fn error_body_media<'r>(&self, response: &'r openapiv3::Response) -> Option<ErrorMedia<'r>> {
        error_media(response).or_else(|| {
            let (listed, media) = response.content.iter().find(|(ct, media)| {
                holds_no_structure(ct) && media.schema.as_ref().is_some_and(|s| self.is_structured(s, 0))
            })?;
            Some(ErrorMedia { listed, written: "application/json".to_string(), media })
        })
    }

    /// Whether `schema` describes an object or a list (directly, or as all of its `allOf`).
    pub(super) fn is_structured(&self, schema: &ReferenceOr<Schema>, depth: usize) -> bool {
        let Some(schema) = self.resolve_schema(schema).filter(|_| depth < 8) else { return false };
        match &schema.schema_kind {
            SchemaKind::Type(Type::Object(_) | Type::Array(_)) => true,
            SchemaKind::Any(any) => !any.properties.is_empty() || any.items.is_some(),
            SchemaKind::AllOf { all_of } => all_of.iter().any(|s| self.is_structured(s, depth + 1)),
            _ => false,
        }
    }

    /// The documented JSON error bodies as shapes the server writes its own rejections in.
    pub(super) fn error_shapes(
        &mut self,
        ptr: &Pointer,
        responses: &'a openapiv3::Responses,
        listed: &[(ErrorStatus, Pointer, &'a openapiv3::Response)],
        produces: &[&str],
    ) -> Vec<ErrorShape> {
        let mut shapes = Vec::new();
        for &(status, ref rptr, response) in listed {
            let Some(ErrorMedia { listed, written: content_type, media }) = self.error_body_media(response) else {
                // Problem details documented for this status: the server's default, kept for it
                // rather than a class's or `default`'s body.
                if let Some(problem) = response.content.keys().find(|ct| ct.ends_with("problem+json")) {
                    let (content_type, template, fills) = (problem.clone(), String::new(), Vec::new());
                    shapes.push(ErrorShape { status, content_type, template, fills });
                }
                continue;
            };
            let Some(schema) = &media.schema else { continue };
            let Ok(schema) = serde_json::to_value(schema) else { continue };
            let schemas = self.sample_schemas.get_or_init(|| crate::sample::Schemas::of(self.doc));
            match crate::sample::error_body(schemas, &schema) {
                Some((template, fills)) => shapes.push(ErrorShape {
                    status,
                    content_type,
                    template: template.to_string(),
                    fills,
                }),
                None => self.warn(
                    &rptr.push("content").push(listed).push("schema"),
                    "no body this schema allows could be made, so the server's own rejections with this status are problem details",
                ),
            }
        }
        // Where the operation's replies are all plain JSON, problem details for the statuses the
        // document leaves open go as `application/json` too: a reader of the document expects no
        // other media type from it (Swagger 2.0's `produces` says so for every reply).
        let media: Vec<&str> = responses
            .responses
            .values()
            .chain(&responses.default)
            .filter_map(|r| crate::lower::resolve(r, "responses", self.doc.components.as_ref().map(|c| &c.responses)))
            .flat_map(|r| r.content.keys().map(String::as_str))
            .chain(produces.iter().copied())
            .collect();
        let plain_json = media.contains(&"application/json") && !media.iter().any(|ct| ct.ends_with("problem+json"));
        if plain_json && !shapes.iter().any(|s| s.status == ErrorStatus::Default) {
            let (content_type, template) = ("application/json".to_string(), String::new());
            shapes.push(ErrorShape { status: ErrorStatus::Default, content_type, template, fills: Vec::new() });
        }
        // Where none is JSON (a Swagger 2.0 operation that `produces` only `text/plain`, a CSV
        // export, a file of bytes), the problem goes as text in the operation's own text or
        // bytes media type: a reader expects no JSON from the operation at all, and a message
        // is valid text and valid bytes.
        let carries_text =
            |e: &String| (e.starts_with("text/") && e != "text/event-stream") || e == "application/octet-stream";
        let text = media.iter().map(|ct| essence(ct)).filter(carries_text).min_by_key(|e| e != "text/plain");
        if let Some(content_type) = text
            && !media.iter().any(|ct| is_json(ct))
            && !shapes.iter().any(|s| s.status == ErrorStatus::Default)
        {
            shapes.push(ErrorShape {
                status: ErrorStatus::Default,
                content_type,
                template: String::new(),
                fills: Vec::new(),
            });
        }
        // Where Swagger 2.0's `produces`, which covers every reply, lists only media types no
        // message fits in (audio, images, PDF), the server's own rejections stay problem
        // details: the document lists no type they could be written in.
        if !produces.is_empty()
            && !media.iter().any(|ct| is_json(ct) || is_yaml(ct) || ct.contains("xml"))
            && !shapes.iter().any(|s| s.status == ErrorStatus::Default)
        {
            let mut listed: Vec<&str> = produces.to_vec();
            listed.sort_unstable();
            listed.dedup();
            // Statuses whose documented body is read as JSON (`error_body_media`) keep it.
            let which = match shapes.is_empty() {
                true => "the server's own rejections (a bad request, missing credentials)",
                false => "the server's own rejections with a status the operation documents no body for",
            };
            let message = format!(
                "none of the media types the operation `produces` ({}) can carry a message, so {which} are problem details, `application/problem+json`, which the document does not list",
                listed.join(", ")
            );
            self.warn(&ptr.push("responses"), message);
        }
        // Problem details as problem+json only: what the server writes anyway.
        if shapes.iter().all(|s| s.template.is_empty() && s.content_type.ends_with("problem+json")) {
            shapes.clear();
        }
        shapes
    }
}

/// The documented body of an error reply, other than problem details (which the generated crates
/// already read and write): where it is listed and in which media type it is written. JSON,
/// `application/json` first, or else YAML, which any JSON text is (so the same body serves).
struct ErrorMedia<'r> {
    /// The media type it is listed under (its key in the reply's `content`).
    listed: &'r String,
    /// The media type it is written in.
    written: String,
    media: &'r openapiv3::MediaType,
}

fn error_media(response: &openapiv3::Response) -> Option<ErrorMedia<'_>> {
    let written =
        response.content.iter().filter(|(ct, _)| (is_json(ct) || is_yaml(ct)) && !ct.ends_with("problem+json"));
    let (listed, media) = written.min_by_key(|(ct, _)| (!is_json(ct), *ct != "application/json"))?;
    Some(ErrorMedia { listed, written: listed.clone(), media })
}

/// The variant name for a status: its reason phrase, or `Status` and the code.
pub(super) fn status_name(status: u16) -> String {
    let name = match status {
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        203 => "NonAuthoritative",
        204 => "NoContent",
        205 => "ResetContent",
        206 => "PartialContent",
        207 => "MultiStatus",
        301 => "MovedPermanently",
        302 => "Found",
        303 => "SeeOther",
        304 => "NotModified",
        307 => "TemporaryRedirect",
        308 => "PermanentRedirect",
        400 => "BadRequest",
        401 => "Unauthorized",
        402 => "PaymentRequired",
        403 => "Forbidden",
        404 => "NotFound",
        405 => "MethodNotAllowed",
        406 => "NotAcceptable",
        408 => "RequestTimeout",
        409 => "Conflict",
        410 => "Gone",
        412 => "PreconditionFailed",
        413 => "ContentTooLarge",
        415 => "UnsupportedMediaType",
        422 => "UnprocessableContent",
        423 => "Locked",
        428 => "PreconditionRequired",
        429 => "TooManyRequests",
        500 => "InternalServerError",
        501 => "NotImplemented",
        502 => "BadGateway",
        503 => "ServiceUnavailable",
        504 => "GatewayTimeout",
        _ => return format!("Status{status}"),
    };
    name.to_string()
}
