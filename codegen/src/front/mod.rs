//! The front end: document text → one OpenAPI 3.0 document in the typed model, which lowering
//! reads. [`load`] drives it: parse, bundle the files a tree's `$ref`s reach, apply overlays,
//! convert Swagger 2.0 and OpenAPI 3.1/3.2, repair common slips, set aside what cannot be read.
//! What the typed model has no slot for travels as the extensions in [`markers`].

pub(crate) mod bundle;
pub(crate) mod isolate;
pub mod load;
pub(crate) mod locate;
pub(crate) mod markers;
pub(crate) mod openapi31;
pub(crate) mod overlay;
pub(crate) mod repair;
pub(crate) mod swagger2;
