//! The reply a mock answers an operation with when no handler is set: the document's example
//! when it is valid, else a value sampled from the reply's schema (the same for the same seed).

use openapiv3::{ReferenceOr, StatusCode};
use serde_json::Value;

use super::Lowerer;
use crate::diagnostic::Pointer;
use crate::front::markers::ITEM_SCHEMA;
use crate::ir::{Reply, ReplySample, StructDef};
use crate::sample::{Options, check, sample};

impl<'a> Lowerer<'a> {
    /// The sampled reply of an operation whose reply is `reply`, or `None` when its schema allows
    /// no value the sampler can make (with a located warning).
    pub(crate) fn reply_sample(
        &mut self,
        ptr: &Pointer,
        responses: &'a openapiv3::Responses,
        reply: &Reply,
        seed: u64,
    ) -> Option<ReplySample> {
        let (status, has_body, headers) = match reply {
            // Nothing to make up (an operation that documents only errors answers this way too).
            Reply::Empty { headers: None, .. } => return Some(ReplySample::default()),
            Reply::Empty { status, headers, .. } => (*status, false, headers.as_ref()),
            Reply::Json { status, headers, .. } => (*status, true, headers.as_ref()),
            Reply::Stream { status, .. } => (*status, true, None),
            Reply::Several(replies) => {
                let first = replies.cases.first()?;
                (first.status, first.body.is_some(), first.headers.as_ref())
            }
            Reply::Download { status, content_type, .. } => {
                return self.download_sample(ptr, responses, *status, content_type, seed);
            }
            Reply::Upgrade { .. } => return Some(ReplySample::default()),
        };
        let (rptr, response) = self.success_response(ptr, responses, status)?;
        let options = Options { seed, full: true };
        let body = if has_body {
            let stream = matches!(reply, Reply::Stream { .. });
            let mut candidates = response.content.iter().filter(|(ct, m)| match stream {
                true => m.extensions.contains_key(ITEM_SCHEMA),
                false => super::operation::is_json(ct),
            });
            let (content_type, media) =
                candidates.clone().find(|(ct, _)| *ct == "application/json").or_else(|| candidates.next())?;
            let at = rptr.push("content").push(content_type);
            let item = media.extensions.get(ITEM_SCHEMA);
            let (schema, at) = match item {
                Some(item) => (item.clone(), at.push("itemSchema")),
                // No schema: any value, so the example if there is one.
                None => match &media.schema {
                    Some(schema) => (serde_json::to_value(schema).ok()?, at.push("schema")),
                    None => (Value::Object(Default::default()), at),
                },
            };
            let examples = item.is_none().then(|| example_of(media)).flatten();
            Some(self.sampled(&at, &schema, examples, options)?.to_string())
        } else {
            None
        };
        let mut header_values = Vec::new();
        for field in headers.map(|h: &StructDef| h.fields.as_slice()).unwrap_or_default() {
            let found = response.headers.iter().find(|(name, _)| name.eq_ignore_ascii_case(&field.wire));
            let Some((name, header)) = found else { continue };
            let header = match header {
                ReferenceOr::Item(h) => Some(h),
                ReferenceOr::Reference { reference } => reference
                    .strip_prefix("#/components/headers/")
                    .and_then(|n| self.doc.components.as_ref()?.headers.get(n))
                    .and_then(|h| h.as_item()),
            };
            let Some(header) = header else { continue };
            let openapiv3::ParameterSchemaOrContent::Schema(schema) = &header.format else { continue };
            let Ok(schema) = serde_json::to_value(schema) else { continue };
            let at = rptr.push("headers").push(name).push("schema");
            let value = self.sampled(&at, &schema, header.example.clone(), options)?;
            header_values.push((field.name.clone(), value.to_string()));
        }
        Some(ReplySample { body, headers: header_values })
    }

    /// A download's bytes: where its media type has a schema other than bytes (YAML, CSV, text
    /// described as a string or an object), a value of it, as text; else a few bytes.
    fn download_sample(
        &mut self,
        ptr: &Pointer,
        responses: &'a openapiv3::Responses,
        status: u16,
        content_type: &str,
        seed: u64,
    ) -> Option<ReplySample> {
        let (rptr, response) = self.success_response(ptr, responses, status)?;
        let media = response.content.get(content_type);
        let schema = media.and_then(|m| m.schema.as_ref()).and_then(|s| serde_json::to_value(s).ok());
        let binary = |s: &Value| matches!(s.get("format").and_then(Value::as_str), Some("binary" | "byte"));
        let text = match schema.filter(|s| !binary(s)) {
            Some(schema) => {
                let at = rptr.push("content").push(content_type).push("schema");
                let example = media.and_then(example_of);
                match self.sampled(&at, &schema, example, Options { seed, full: true })? {
                    Value::String(text) => text,
                    other => other.to_string(),
                }
            }
            None => "sample".to_string(),
        };
        Some(ReplySample { body: Some(text), headers: Vec::new() })
    }

    /// The response documented for `status` (or its class, or `default`).
    fn success_response(
        &mut self,
        ptr: &Pointer,
        responses: &'a openapiv3::Responses,
        status: u16,
    ) -> Option<(Pointer, &'a openapiv3::Response)> {
        let ptr = ptr.push("responses");
        let (rptr, response) = match responses.responses.get(&StatusCode::Code(status)) {
            Some(r) => (ptr.push(status), r),
            None => match responses.responses.get(&StatusCode::Range(status / 100)) {
                Some(r) => (ptr.push(format!("{}XX", status / 100)), r),
                None => (ptr.push("default"), responses.default.as_ref()?),
            },
        };
        let response = super::resolve(response, "responses", self.doc.components.as_ref().map(|c| &c.responses))?;
        Some((rptr, response))
    }

    /// The example when it satisfies `schema`, else a sample; a warning says when no value
    /// could be made.
    fn sampled(&mut self, at: &Pointer, schema: &Value, example: Option<Value>, options: Options) -> Option<Value> {
        let schemas = self.sample_schemas.get_or_init(|| crate::sample::Schemas::of(self.doc));
        // An example its schema forbids is reported where it is (see `examples`); the mock
        // samples instead.
        if let Some(example) = example.filter(|example| check(schemas, schema, example).is_ok()) {
            return Some(example);
        }
        match sample(schemas, schema, options) {
            Ok(value) => Some(value),
            Err(why) => {
                self.warn(at, format!("no value this schema allows could be made ({why}), so mocks cannot answer it"));
                None
            }
        }
    }
}

/// A media type's `example`, else the value of its first `examples` entry.
fn example_of(media: &openapiv3::MediaType) -> Option<Value> {
    if let Some(example) = &media.example {
        return Some(example.clone());
    }
    media.examples.values().find_map(|example| match example {
        ReferenceOr::Item(example) => example.value.clone(),
        ReferenceOr::Reference { .. } => None,
    })
}
