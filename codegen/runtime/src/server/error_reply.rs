//! Error replies in the body the document gives for their status: the server's own rejections
//! (a bad parameter, a missing credential, an unknown path) and an implementation's errors are
//! written in that shape, and as problem details where the document says nothing.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::ApiError;

/// Which statuses a documented error body is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statuses {
    /// One status, e.g. `404`.
    Exact(u16),
    /// A class, e.g. `4` for `4XX`.
    Class(u16),
    /// Any status the operation does not otherwise document (`default`).
    Default,
}

/// A part of an error, and where a documented body holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// What went wrong (the error's detail, else its title).
    Detail,
    /// A short summary: the error's title.
    Title,
    /// The status as a number.
    Status,
    /// The status as text (`"404"`).
    StatusText,
    /// A short machine-readable code: the last segment of the problem type, or the title in
    /// `snake_case` when the type is `about:blank`.
    Code,
    /// The problem type URI.
    Type,
    /// The request path.
    Instance,
    /// The per-field messages, in the form given.
    Errors(ErrorList),
}

/// How a documented body lists per-field messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorList {
    /// `["limit: must be at most 100"]`.
    Strings,
    /// `[{"field": "limit", "message": "must be at most 100"}]`, with these property names.
    Objects {
        /// The property naming the field.
        name: &'static str,
        /// The property holding the message.
        message: &'static str,
    },
    /// `[{"detail": "limit: must be at most 100"}]`: objects with a message and no field name;
    /// with no per-field message, the one item is the error's detail.
    Messages {
        /// The property holding the message.
        message: &'static str,
    },
    /// `{"limit": "must be at most 100"}`.
    Map,
    /// `{"limit": ["must be at most 100"]}`.
    MapOfLists,
}

/// A documented error body: a valid instance of its schema with what the schema requires, and
/// where an error's parts are written into it.
#[derive(Debug, Clone, Copy)]
pub struct ErrorShape {
    /// The statuses it is documented for.
    pub statuses: Statuses,
    /// Its media type.
    pub content_type: &'static str,
    /// The body before filling, as JSON text; empty for problem details, labelled with
    /// `content_type` (`application/json` where the operation documents no other JSON type), or
    /// for a `text/*` type their text: the detail, then a line per field problem.
    pub template: &'static str,
    /// JSON pointers into the body, and what each receives.
    pub fills: &'static [(&'static str, Fill)],
}

impl ErrorShape {
    /// The body for `error` about the request path `instance`.
    pub fn body(&self, error: &ApiError, instance: &str) -> Value {
        let mut body: Value = serde_json::from_str(self.template).unwrap_or_else(|_| json!({}));
        for &(pointer, fill) in self.fills {
            if let Some(value) = part(error, instance, fill) {
                write(&mut body, pointer, value);
            }
        }
        body
    }
}

/// Where an error reply is written: the operation (none for a path no operation serves), the
/// request path, and the error bodies the document gives for the operation.
#[derive(Debug, Clone, Copy)]
pub struct ErrorReply<'a> {
    operation: Option<&'static str>,
    instance: &'a str,
    shapes: &'static [ErrorShape],
}

impl<'a> ErrorReply<'a> {
    #[doc(hidden)]
    pub fn new(operation: &'static str, instance: &'a str, shapes: &'static [ErrorShape]) -> Self {
        ErrorReply { operation: Some(operation), instance, shapes }
    }

    #[doc(hidden)]
    pub fn unrouted(instance: &'a str, shapes: &'static [ErrorShape]) -> Self {
        ErrorReply { operation: None, instance, shapes }
    }

    /// The `operationId` of the operation that answers, or `None` for a request no operation
    /// serves (an unknown path, a method the path does not serve).
    pub fn operation(&self) -> Option<&'static str> {
        self.operation
    }

    /// The request path.
    pub fn instance(&self) -> &'a str {
        self.instance
    }

    /// The documented error body for `status`: that status's own, else its class's (`4XX`), else
    /// `default`'s; `None` when the document gives none.
    pub fn shape(&self, status: StatusCode) -> Option<&'static ErrorShape> {
        let code = status.as_u16();
        let find = |wanted: Statuses| self.shapes.iter().find(|s| s.statuses == wanted);
        find(Statuses::Exact(code)).or_else(|| find(Statuses::Class(code / 100))).or_else(|| find(Statuses::Default))
    }

    /// The reply for `error`: a body the implementation chose as is, else the documented body for
    /// its status filled from it, else problem details.
    pub fn render(&self, error: ApiError) -> Response {
        if error.has_body() {
            return error.into_response_for(self.instance);
        }
        let shape = match self.shape(error.status()) {
            None => return error.into_response_for(self.instance),
            // An operation that documents text or bytes and no JSON gets its problems as text.
            Some(shape)
                if shape.template.is_empty()
                    && (shape.content_type.starts_with("text/")
                        || shape.content_type == "application/octet-stream") =>
            {
                return error.into_text_response(shape.content_type);
            }
            Some(shape) if shape.template.is_empty() => {
                return error.into_problem_response(self.instance, shape.content_type);
            }
            Some(shape) => shape,
        };
        let bytes = serde_json::to_vec(&shape.body(&error, self.instance)).unwrap_or_else(|_| b"{}".to_vec());
        let mut response = Response::new(Body::from(bytes));
        *response.status_mut() = error.status();
        let content_type = HeaderValue::from_static(shape.content_type);
        response.headers_mut().insert(header::CONTENT_TYPE, content_type);
        if let Some(seconds) = error.retry_after() {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The value of one part of `error`, or `None` to leave the template's.
fn part(error: &ApiError, instance: &str, fill: Fill) -> Option<Value> {
    let value = match fill {
        Fill::Detail => Value::String(error.detail().unwrap_or(error.title()).to_string()),
        Fill::Title => Value::String(error.title().to_string()),
        Fill::Status => Value::from(error.status().as_u16()),
        Fill::StatusText => Value::String(error.status().as_u16().to_string()),
        Fill::Code => Value::String(code(error)),
        Fill::Type => Value::String(error.problem_type().to_string()),
        Fill::Instance => Value::String(instance.to_string()),
        Fill::Errors(list) => {
            let errors = error.errors();
            let item = |message: &str, text: String| {
                let mut item = Map::new();
                item.insert(message.to_string(), Value::String(text));
                Value::Object(item)
            };
            if errors.is_empty() {
                // A list of messages is where such a body says what went wrong.
                let ErrorList::Messages { message } = list else { return None };
                return Some(Value::Array(vec![item(message, error.detail().unwrap_or(error.title()).to_string())]));
            }
            let pairs = errors.iter().flat_map(|(name, messages)| messages.iter().map(move |m| (name, m)));
            match list {
                ErrorList::Strings => pairs.map(|(name, m)| Value::String(format!("{name}: {m}"))).collect(),
                ErrorList::Objects { name, message } => pairs
                    .map(|(field, m)| {
                        let mut item = Map::new();
                        item.insert(name.to_string(), Value::String(field.clone()));
                        item.insert(message.to_string(), Value::String(m.clone()));
                        Value::Object(item)
                    })
                    .collect(),
                ErrorList::Messages { message } => {
                    pairs.map(|(name, m)| item(message, format!("{name}: {m}"))).collect()
                }
                ErrorList::Map => {
                    errors.iter().map(|(name, messages)| (name.clone(), Value::String(messages.join("; ")))).collect()
                }
                ErrorList::MapOfLists => errors
                    .iter()
                    .map(|(name, messages)| {
                        (name.clone(), messages.iter().cloned().map(Value::String).collect::<Value>())
                    })
                    .collect(),
            }
        }
    };
    Some(value)
}

/// `invalid-request` from `urn:problem-type:invalid-request`; `not_found` from the title
/// `Not Found` when the type says nothing.
fn code(error: &ApiError) -> String {
    let problem_type = error.problem_type();
    if problem_type != "about:blank" {
        let last = problem_type.rsplit([':', '/']).find(|s| !s.is_empty());
        if let Some(last) = last {
            return last.to_string();
        }
    }
    let mut code = String::new();
    for c in error.title().chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' => code.push(c.to_ascii_lowercase()),
            _ if !code.is_empty() && !code.ends_with('_') => code.push('_'),
            _ => {}
        }
    }
    code.trim_end_matches('_').to_string()
}

/// Writes `value` at a JSON pointer, adding objects on the way.
fn write(body: &mut Value, pointer: &str, value: Value) {
    let mut at = body;
    let mut names = pointer.split('/').skip(1).map(|n| n.replace("~1", "/").replace("~0", "~")).peekable();
    while let Some(name) = names.next() {
        let Some(object) = at.as_object_mut() else { return };
        if names.peek().is_none() {
            object.insert(name, value);
            return;
        }
        at = object.entry(name).or_insert_with(|| json!({}));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SHAPES: &[ErrorShape] = &[
        ErrorShape {
            statuses: Statuses::Exact(409),
            content_type: "application/problem+json",
            template: "",
            fills: &[],
        },
        ErrorShape {
            statuses: Statuses::Exact(404),
            content_type: "application/json",
            template: r#"{"message":""}"#,
            fills: &[("/message", Fill::Detail)],
        },
        ErrorShape {
            statuses: Statuses::Exact(413),
            content_type: "application/json",
            template: r#"{"errors":[]}"#,
            fills: &[("/errors", Fill::Errors(ErrorList::Messages { message: "detail" }))],
        },
        ErrorShape {
            statuses: Statuses::Class(4),
            content_type: "application/json",
            template: r#"{"code":0,"message":"","extra":true}"#,
            fills: &[
                ("/code", Fill::Status),
                ("/message", Fill::Detail),
                ("/error/kind", Fill::Code),
                ("/fields", Fill::Errors(ErrorList::Objects { name: "field", message: "reason" })),
            ],
        },
    ];

    async fn body_of(response: Response) -> Value {
        let bytes = http_body_util::BodyExt::collect(response.into_body()).await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn an_error_is_written_in_the_shape_documented_for_its_status() {
        let reply = ErrorReply::new("listPets", "/pets", SHAPES);
        let error = ApiError::bad_request("the query is invalid")
            .with_type("urn:problem-type:invalid-request")
            .with_error("limit", "must be at most 100");
        let response = reply.render(error);
        assert_eq!(response.status(), 400);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(
            body_of(response).await,
            json!({
                "code": 400, "message": "the query is invalid", "extra": true,
                "error": { "kind": "invalid-request" },
                "fields": [{ "field": "limit", "reason": "must be at most 100" }]
            })
        );
        let not_found = reply.render(ApiError::new(StatusCode::NOT_FOUND));
        assert_eq!(body_of(not_found).await, json!({ "message": "Not Found" }));
    }

    #[tokio::test]
    async fn a_list_of_messages_holds_the_detail_or_each_fields_message() {
        let reply = ErrorReply::new("listPets", "/pets", SHAPES);
        let too_large = reply.render(ApiError::new(StatusCode::PAYLOAD_TOO_LARGE).with_detail("at most 1 MiB"));
        assert_eq!(body_of(too_large).await, json!({ "errors": [{ "detail": "at most 1 MiB" }] }));
        let fields = ApiError::new(StatusCode::PAYLOAD_TOO_LARGE).with_error("a", "x").with_error("b", "y");
        assert_eq!(
            body_of(reply.render(fields)).await,
            json!({ "errors": [{ "detail": "a: x" }, { "detail": "b: y" }] })
        );
    }

    #[tokio::test]
    async fn undocumented_statuses_and_chosen_bodies_are_left_as_they_are() {
        let reply = ErrorReply::unrouted("/x", SHAPES);
        let response = reply.render(ApiError::internal("boom"));
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/problem+json");
        let conflict = reply.render(ApiError::new(StatusCode::CONFLICT));
        assert_eq!(conflict.headers()[header::CONTENT_TYPE], "application/problem+json", "documented so");
        let chosen = reply.render(ApiError::json(StatusCode::CONFLICT, &json!({ "mine": 1 })));
        assert_eq!(body_of(chosen).await, json!({ "mine": 1 }));
    }

    #[test]
    fn codes_come_from_the_type_or_the_title() {
        assert_eq!(code(&ApiError::new(StatusCode::METHOD_NOT_ALLOWED)), "method_not_allowed");
        assert_eq!(code(&ApiError::new(StatusCode::UNAUTHORIZED).with_type("https://x.test/problems/auth/")), "auth");
    }
}
