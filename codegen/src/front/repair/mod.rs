//! Repairs on the parsed document, before it is typed: slips that public documents make often and
//! whose intent is plain, fixed in place with a located note, so one of them does not stop a whole
//! document from loading.
//!
//! - A length or count limit written as a float (`maxLength: 10.0`), or negative: the integer, or
//!   the limit dropped.
//! - An integer bound that no 64-bit integer holds (`minimum: -9223372036854776000`, a float's
//!   spelling of `i64::MIN` and beyond): the nearest integer that is one, or the bound dropped.
//! - `exclusiveMinimum`/`exclusiveMaximum` given as a number (the JSON Schema 2019 form): the bound
//!   and `true`.
//! - Enum values of another type than the schema's (`true` in a string enum, `"2"` in an integer
//!   one): converted where the value's text says what was meant, dropped otherwise.
//! - `x-enum-varnames` with more names than values: the extra names dropped.
//! - Swagger 2.0 spellings in an OpenAPI 3 document: a top-level `definitions` (moved into
//!   `components/schemas`, its `#/definitions/` references with it) and a `basic` security
//!   scheme (an `http` one of scheme `basic`).
//! - A reply header given as a `$ref` to a header parameter: the header that parameter describes.
//! - `externalDocs` without the `url` it requires: left out.
//! - `nullable: true` beside a `$ref`: the referenced schema or `null`.

mod all_of;
mod collections;
mod document;
mod parameters;
mod references;
mod schema;
#[cfg(test)]
mod tests;
mod walk;

pub(crate) use references::rewrite_references;
pub(crate) use schema::{json_schema_forms, null_only};
pub(crate) use walk::each_schema_object;

use serde_json::Value;

use all_of::{all_of_targets, hoist_annotation_members, merge_plain_all_of};
use collections::{empty_lists_as_maps, null_collections};
use document::{
    drop_external_docs_without_url, express_path_parameters, external_docs_urls, form_data_parameters,
    headers_from_parameters, malformed_examples, oauth_flow_urls, repair_security, reply_descriptions, required_info,
    responses_from_request_bodies, swagger2_spellings,
};
use parameters::parameter_styles;
use references::lift_deep_references;
use schema::{nullable_reference, repair_schema};
use walk::each_schema;

use crate::diagnostic::{Diagnostic, Pointer};

/// Repairs `doc` (in the OpenAPI 3.0 form) in place and says what it changed.
pub(crate) fn repair(doc: &mut Value) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    null_collections(doc, &mut notes);
    empty_lists_as_maps(doc, &Pointer::root(), &mut notes);
    required_info(doc, &mut notes);
    reply_descriptions(doc, &mut notes);
    express_path_parameters(doc, &mut notes);
    swagger2_spellings(doc, &mut notes);
    form_data_parameters(doc, &mut notes);
    malformed_examples(doc, &Pointer::root(), &mut notes);
    parameter_styles(doc, &mut notes);
    repair_security(doc, &mut notes);
    oauth_flow_urls(doc, &mut notes);
    responses_from_request_bodies(doc, &mut notes);
    headers_from_parameters(doc, &mut notes);
    external_docs_urls(doc, &mut notes);
    lift_deep_references(doc, &mut notes);
    each_schema_object(doc, &mut |schema, at| nullable_reference(schema, at, &mut notes));
    // Component schemas as written, for `allOf` members that refer to one.
    let components = all_of_targets(doc);
    each_schema(doc, &mut |schema, at| {
        drop_external_docs_without_url(schema, at, &mut notes);
        repair_schema(schema, at, &mut notes);
        hoist_annotation_members(schema);
        merge_plain_all_of(schema, at, &components, &mut notes);
    });
    notes
}
