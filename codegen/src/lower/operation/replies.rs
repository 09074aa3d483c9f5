//! An operation's successful replies: one value, several by status, a download, a stream or an
//! upgrade, with their headers.

use openapiv3::{ParameterSchemaOrContent, ReferenceOr, StatusCode};

use super::bodies::{FILES_IN_JSON, binary_medium, essence, is_json, preferred_json, unwritten_schema};
use super::errors::status_name;
use super::{OpContext, UNDESCRIBED_REPLY};

use crate::diagnostic::Pointer;
use crate::front::markers::ITEM_SCHEMA;
use crate::ir::{Field, Framing, RepliesDef, Reply, ReplyCase, StructDef, TypeRef};
use crate::lower::Lowerer;
use crate::lower::Naming;
use crate::naming::{Scope, camel, snake};

impl<'a> Lowerer<'a> {
    pub(super) fn reply(&mut self, ctx: &OpContext, responses: &'a openapiv3::Responses) -> Option<Reply> {
        let ptr = ctx.ptr.push("responses");
        let codes = |range: std::ops::Range<u16>| -> Vec<(u16, &'a ReferenceOr<openapiv3::Response>)> {
            let in_range = |(code, r): (&StatusCode, _)| match code {
                StatusCode::Code(c) if range.contains(c) => Some((*c, r)),
                _ => None,
            };
            let mut found: Vec<_> = responses.responses.iter().filter_map(in_range).collect();
            found.sort_by_key(|(code, _)| *code);
            found
        };
        let mut successes = codes(200..300);
        if successes.is_empty() {
            // Redirect flows (a browser login answering 302) document only 3xx replies: the
            // lowest is the reply, and the client does not follow it.
            successes = codes(300..400).into_iter().take(1).collect();
        }
        if successes.is_empty() {
            // No status given: a `2XX` range, else a `default` that describes every reply.
            let (key, fallback) = match responses.responses.get(&StatusCode::Range(2)) {
                Some(r) => ("2XX", Some(r)),
                None => ("default", responses.default.as_ref()),
            };
            let Some(response) = fallback else {
                // Only error replies documented (a sample petstore's `405 Invalid input`): the
                // success is a plain 200 without a body.
                let switches = codes(100..200);
                let Some((status, response)) = switches.first() else {
                    self.warn(&ptr, "the operation documents no success reply; it is read as a 200 without a body");
                    return Some(Reply::Empty { status: 200, headers: None, doc: None });
                };
                // A protocol switch hands the connection over; the other informational
                // statuses are no reply at all.
                if *status != 101 {
                    let message = format!(
                        "a {status} reply is informational, not an answer, and there is no other; read as a 200 without a body"
                    );
                    self.warn(&ptr.push(status), message);
                    return Some(Reply::Empty { status: 200, headers: None, doc: None });
                }
                let doc = match response {
                    ReferenceOr::Item(r) => crate::lower::prose(&Some(r.description.clone())),
                    ReferenceOr::Reference { .. } => None,
                };
                return Some(Reply::Upgrade { doc });
            };
            // A `default` alone describes every reply, so the success is the plain 200; a `2XX`
            // admits statuses the client will refuse, so it is worth a warning.
            if key == "2XX" {
                self.warn(&ptr.push(key), "the `2XX` reply is read as the 200 reply; other 2xx statuses are refused");
            }
            let naming = Naming::Derived(format!("{}Reply", ctx.type_name));
            return self.one_reply(ctx, &ptr.push(key), 200, response, naming);
        }
        if responses.responses.contains_key(&StatusCode::Range(2)) {
            self.warn(&ptr.push("2XX"), "the `2XX` reply is ignored beside the listed success statuses");
        }
        match successes.as_slice() {
            [(status, response)] => {
                let naming = Naming::Derived(format!("{}Reply", ctx.type_name));
                self.one_reply(ctx, &ptr.push(status), *status, response, naming)
            }
            several => self.several_replies(ctx, &ptr, several),
        }
    }

    /// Several success statuses of which some are downloads (a 200 and a `206 Partial Content`,
    /// say): one download, whose status the server picks. `None` when none is a download.
    fn downloads(
        &mut self,
        ctx: &OpContext,
        ptr: &Pointer,
        successes: &[(u16, &'a ReferenceOr<openapiv3::Response>)],
    ) -> Option<Option<Reply>> {
        let contents: Vec<Option<&openapiv3::Content>> =
            successes.iter().map(|(_, response)| self.response_read(response).map(|r| &r.content)).collect();
        // As `one_reply` decides: a binary medium, or none that is JSON.
        let download = |content: &openapiv3::Content| {
            !content.is_empty() && (binary_medium(self, content).is_some() || !content.keys().any(|ct| is_json(ct)))
        };
        // Replies without a body beside downloads (a report sent now, or `204` when it is queued
        // instead) are downloads with no bytes; a JSON reply beside them is a download of its
        // JSON's bytes, since one reply cannot be both a typed value and a stream of bytes.
        if contents.iter().any(Option::is_none) || !contents.iter().any(|c| c.is_some_and(download)) {
            return None;
        }
        let typed: Vec<bool> = contents.iter().map(|c| c.is_some_and(|c| !c.is_empty() && !download(c))).collect();
        let mut replies = Vec::new();
        for ((&(status, response), content), &typed) in successes.iter().zip(&contents).zip(&typed) {
            let at = ptr.push(status);
            if let Some(content) = content.filter(|_| typed) {
                let content_type = content.keys().find(|ct| is_json(ct)).cloned().unwrap_or_default();
                let reply_doc =
                    self.response_read(response).and_then(|r| crate::lower::prose(&Some(r.description.clone())));
                self.warn(
                    &at.push("content"),
                    format!("this {content_type} reply beside a file download is read as a download too: its bytes, not a typed value"),
                );
                replies.push(Reply::Download { status, also: Vec::new(), content_type, doc: reply_doc });
                continue;
            }
            let naming = Naming::Derived(format!("{}Reply{status}", ctx.type_name));
            match self.one_reply(ctx, &at, status, response, naming) {
                Some(reply) => replies.push(reply),
                None => return Some(None),
            }
        }
        // One reply cannot be both items and bytes: beside other replies, a stream is its bytes.
        if replies.len() > 1 {
            for reply in &mut replies {
                if let Reply::Stream { status, content_type, doc, .. } = reply {
                    let message =
                        "a stream of items beside other success replies is read as a download: its bytes, not items";
                    self.warn(&ptr.push(*status).push("content").push(content_type.as_str()), message);
                    let (status, content_type, doc) = (*status, std::mem::take(content_type), doc.take());
                    *reply = Reply::Download { status, also: Vec::new(), content_type, doc };
                }
            }
        }
        // A file's own status leads (the mock answers with it), rather than JSON read as bytes.
        let is_file = |(r, typed): (&Reply, &bool)| matches!(r, Reply::Download { .. }) && !typed;
        let primary = replies.iter().zip(&typed).position(is_file).unwrap_or(0);
        let mut first = replies.remove(primary);
        if let Reply::Download { also, content_type, doc, .. } = &mut first {
            for reply in replies {
                if let Reply::Empty { status, headers, doc: other_doc } = reply {
                    if headers.is_some() {
                        let at = ptr.push(status).push("headers");
                        self.warn(&at, "the headers of a reply read as a download without bytes are not read");
                    }
                    also.push(status);
                    if let (Some(doc), Some(other_doc)) = (doc.as_mut(), other_doc) {
                        doc.push_str(&format!("\n\n{status}: {other_doc}"));
                    }
                    continue;
                }
                if let Reply::Download { status, content_type: other, doc: other_doc, .. } = reply {
                    also.push(status);
                    if other != *content_type {
                        content_type.push_str(", ");
                        content_type.push_str(&other);
                    }
                    if let (Some(doc), Some(other_doc)) = (doc.as_mut(), other_doc) {
                        doc.push_str(&format!("\n\n{status}: {other_doc}"));
                    }
                }
            }
        }
        Some(Some(first))
    }

    /// Several success statuses: an enum in the types module with a variant per status.
    fn several_replies(
        &mut self,
        ctx: &OpContext,
        ptr: &Pointer,
        successes: &[(u16, &'a ReferenceOr<openapiv3::Response>)],
    ) -> Option<Reply> {
        if let Some(download) = self.downloads(ctx, ptr, successes) {
            return download;
        }
        let name = self.claim(Naming::Derived(format!("{}Reply", ctx.type_name)));
        let mut cases = Vec::new();
        let mut scope = Scope::default();
        for &(status, response) in successes {
            let naming = Naming::Derived(format!("{name}{status}"));
            let case = match self.one_reply(ctx, &ptr.push(status), status, response, naming)? {
                Reply::Empty { doc, headers, .. } => {
                    ReplyCase { status, name: String::new(), body: None, headers, doc }
                }
                Reply::Json { ty, doc, headers, .. } => {
                    ReplyCase { status, name: String::new(), body: Some(ty), headers, doc }
                }
                Reply::Download { .. } | Reply::Several(_) | Reply::Upgrade { .. } => {
                    self.report(
                        &ptr.push(status),
                        "a file download beside success replies that are not downloads is not supported yet",
                    );
                    return None;
                }
                Reply::Stream { .. } => {
                    self.report(
                        &ptr.push(status),
                        "a stream of items beside other success replies is not supported yet",
                    );
                    return None;
                }
            };
            cases.push(ReplyCase { name: scope.claim(&status_name(status)), ..case });
        }
        let operation = format!("{} {}", ctx.method.as_str(), ctx.path);
        Some(Reply::Several(RepliesDef { name, operation, cases }))
    }

    /// The reply of one success status, documented at `rptr`.
    fn one_reply(
        &mut self,
        ctx: &OpContext,
        rptr: &Pointer,
        status: u16,
        response: &'a ReferenceOr<openapiv3::Response>,
        naming: Naming,
    ) -> Option<Reply> {
        let response = self.resolve_response(rptr, response)?;
        let doc = Some(response.description.clone()).filter(|d| !d.trim().is_empty());
        let (Naming::Derived(base) | Naming::Claimed(base)) = &naming;
        let headers_name = format!("{base}Headers");
        // HTTP gives these statuses no content, whatever the document says.
        if matches!(status, 204 | 205 | 304) && !response.content.is_empty() {
            self.warn(
                &rptr.push("content"),
                format!("a {status} reply has no content in HTTP; the content documented for it is left out"),
            );
            let headers = self.reply_headers(ctx, rptr, status, response, headers_name);
            return Some(Reply::Empty { status, headers, doc });
        }
        if response.content.is_empty() {
            let headers = self.reply_headers(ctx, rptr, status, response, headers_name);
            return Some(Reply::Empty { status, headers, doc });
        }
        if let Some((content_type, media)) =
            response.content.iter().find(|(_, m)| m.extensions.contains_key(ITEM_SCHEMA))
        {
            let at = rptr.push("content").push(content_type).push("itemSchema");
            let framing = match essence(content_type).as_str() {
                "application/jsonl" | "application/x-ndjson" | "application/json-seq" | "application/x-jsonlines" => {
                    Framing::JsonLines
                }
                "text/event-stream" => Framing::EventStream,
                // No framing the generator knows: the stream's bytes, for the caller to split.
                _ => {
                    let message = format!(
                        "items of {content_type} have no framing the generator knows (JSON Lines and server-sent events do); read as a download: its bytes"
                    );
                    self.warn(&at, message);
                    let content_type = content_type.clone();
                    return Some(Reply::Download { status, also: Vec::new(), content_type, doc });
                }
            };
            let item = match &media.schema {
                Some(schema) => {
                    let suffix = if framing == Framing::EventStream { "Event" } else { "Item" };
                    self.lower_schema(schema, &at, naming.derive(suffix))?
                }
                None => TypeRef::Json,
            };
            let content_type = content_type.clone();
            return Some(Reply::Stream { status, item, framing, content_type, doc });
        }
        if let Some(ct) = binary_medium(self, &response.content) {
            // A download carries its length, type and file name itself; any other header is lost.
            let handled = ["content-disposition", "content-length", "content-type"];
            for header in response.headers.keys().filter(|h| !handled.contains(&h.to_ascii_lowercase().as_str())) {
                self.warn(
                    &rptr.push("headers").push(header),
                    format!("header `{header}` of a file download is not read or written by the generated code"),
                );
            }
            return Some(Reply::Download { status, also: Vec::new(), content_type: ct.clone(), doc });
        }
        let json: Vec<String> = response.content.keys().filter(|ct| is_json(ct)).cloned().collect();
        let Some(content_type) = preferred_json(&json) else {
            // Text, images, `*/*`: whatever is not JSON is read as bytes, the way downloads are.
            let list = response.content.keys().cloned().collect::<Vec<_>>();
            let content_type = list.join(", ");
            self.warn(
                &rptr.push("content"),
                format!("a reply of type {content_type} is read as a download: its bytes, streamed"),
            );
            return Some(Reply::Download { status, also: Vec::new(), content_type, doc });
        };
        let media = &response.content[&content_type];
        let ty = match &media.schema {
            Some(s) => self.lower_schema(s, &rptr.push("content").push(&content_type).push("schema"), naming)?,
            None => TypeRef::Json,
        };
        // Other media types (a .NET service also offers `text/plain`) must carry the same schema;
        // the client asks for JSON.
        for (ct, m) in &response.content {
            if *ct == content_type {
                continue;
            }
            if m.schema != media.schema {
                self.warn(
                    &rptr.push("content").push(ct),
                    format!(
                        "this schema differs from the one under {content_type}, which is the one read: the client asks for {content_type}"
                    ),
                );
            }
        }
        let ty = if self.has_files(&ty) {
            self.warn(&rptr.push("content").push(&content_type).push("schema"), FILES_IN_JSON);
            TypeRef::Json
        } else {
            ty
        };
        let headers = self.reply_headers(ctx, rptr, status, response, headers_name);
        Some(Reply::Json { status, ty, headers, doc })
    }

    /// A response, following a `$ref` into `#/components/responses`.
    pub(super) fn resolve_response(
        &mut self,
        rptr: &Pointer,
        response: &'a ReferenceOr<openapiv3::Response>,
    ) -> Option<&'a openapiv3::Response> {
        match (
            crate::lower::resolve(response, "responses", self.doc.components.as_ref().map(|c| &c.responses)),
            response,
        ) {
            (Some(found), _) => Some(found),
            (None, ReferenceOr::Reference { reference }) if self.foreign(rptr, reference) => None,
            // A reply the document names but does not describe is still a reply: its bytes.
            (None, ReferenceOr::Reference { reference }) => {
                let message = format!(
                    "the reference {reference} does not name a response in #/components/responses; the reply is read as bytes of any media type"
                );
                self.warn(rptr, message);
                Some(&UNDESCRIBED_REPLY)
            }
            (None, ReferenceOr::Item(_)) => None,
        }
    }

    /// Says that a reference names nothing: a warning that `then` happens, unless it is to
    /// another file.
    pub(super) fn unresolved<T>(&mut self, ptr: &Pointer, item: &ReferenceOr<T>, what: &str, then: &str) {
        if let ReferenceOr::Reference { reference } = item
            && !self.foreign(ptr, reference)
        {
            self.warn(ptr, format!("the reference {reference} does not name {what}; {then}"));
        }
    }

    /// The response `response` is, as [`Self::resolve_response`] reads it, without a word.
    fn response_read(&self, response: &'a ReferenceOr<openapiv3::Response>) -> Option<&'a openapiv3::Response> {
        let found = crate::lower::resolve(response, "responses", self.doc.components.as_ref().map(|c| &c.responses));
        let local = matches!(response, ReferenceOr::Reference { reference } if reference.starts_with('#'));
        found.or_else(|| local.then_some(&*UNDESCRIBED_REPLY))
    }

    /// The headers a reply documents, as a struct named `name` with a field per header; `None`
    /// when it documents none that the generated code can read and write.
    fn reply_headers(
        &mut self,
        ctx: &OpContext,
        rptr: &Pointer,
        status: u16,
        response: &openapiv3::Response,
        name: String,
    ) -> Option<StructDef> {
        let mut scope = Scope::default();
        let mut fields = Vec::new();
        for (header, value) in &response.headers {
            let ptr = rptr.push("headers").push(header);
            // OpenAPI says a `Content-Type` here is ignored: the media type already says it.
            if header.eq_ignore_ascii_case("content-type") {
                continue;
            }
            let resolved = match value {
                ReferenceOr::Item(h) => Some(h),
                ReferenceOr::Reference { reference } => reference
                    .strip_prefix("#/components/headers/")
                    .and_then(|n| self.doc.components.as_ref()?.headers.get(n))
                    .and_then(|h| h.as_item()),
            };
            let Some(h) = resolved else {
                self.unresolved(&ptr, value, "a header in #/components/headers", "the header is not read");
                continue;
            };
            if !crate::lower::is_header_name(header) {
                self.warn(
                    &ptr,
                    format!("`{header}` is not a valid header name, so no reply carries it; it is not read"),
                );
                continue;
            }
            let text = unwritten_schema(false);
            let schema = match &h.format {
                ParameterSchemaOrContent::Schema(schema) => schema,
                // A header holds one line of text: its media type's schema says what it reads as.
                ParameterSchemaOrContent::Content(content) => match content.iter().next() {
                    Some((_, media)) if media.schema.is_some() => media.schema.as_ref().unwrap_or(&text),
                    _ => {
                        self.warn(&ptr.push("content"), "the header's `content` gives no schema; it is read as text");
                        &text
                    }
                },
            };
            let naming = Naming::Derived(format!("{name}{}", camel(header)));
            let Some(ty) = self.lower_schema(schema, &ptr.push("schema"), naming) else { continue };
            if !self.is_simple(&ty, false) {
                self.warn(
                    &ptr.push("schema"),
                    format!("header `{header}` is not a single value, so it is not read or written"),
                );
                continue;
            }
            fields.push(Field {
                wire: header.clone(),
                name: scope.claim(&snake(header)),
                ty,
                required: h.required,
                nullable: false,
                tristate: false,
                boxed: false,
                constraints: Default::default(),
                default: None,
                doc: crate::lower::prose(&h.description),
            });
        }
        if fields.is_empty() {
            return None;
        }
        let name = self.claim(Naming::Derived(name));
        let doc = Some(format!("The headers of the {status} reply to `{} {}`.", ctx.method.as_str(), ctx.path));
        Some(StructDef { name, doc, fields, extra: None, closed: false })
    }
}
