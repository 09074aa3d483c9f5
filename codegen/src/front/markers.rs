//! The extensions the front end writes into a document for lowering (and for oracles reading the
//! document afterwards): what the typed OpenAPI 3.0 model has no slot for, and what a repair or
//! conversion found. Every one is named `x-apigen-*`; a document that writes one itself is
//! taken at its word, as for any extension.

/// A set-aside schema or operation, with the reason it could not be read (`isolate`).
pub(crate) const UNREADABLE: &str = "x-apigen-unreadable";

/// A path's `query` operation (OpenAPI 3.2), kept for want of a slot in the typed model.
pub(crate) const QUERY_OPERATION: &str = "x-apigen-query";

/// A tag's `parent` (OpenAPI 3.2).
pub(crate) const TAG_PARENT: &str = "x-apigen-parent";

/// A schema's `propertyNames` (OpenAPI 3.1), which the 3.0 model lacks.
pub(crate) const PROPERTY_NAMES: &str = "x-apigen-property-names";

/// A media type whose schema was an `itemSchema` (OpenAPI 3.2): the schema of each item of a
/// stream, not of the whole body.
pub(crate) const ITEM_SCHEMA: &str = "x-apigen-item-schema";

/// What a Swagger 2.0 operation's `produces` lists, kept on the converted operation.
pub(crate) const PRODUCES: &str = "x-apigen-produces";

/// A request body whose media type no Swagger 2.0 `consumes` names, read as JSON: an oracle
/// reading the document as written may take no body at all there.
pub const ASSUMED_MEDIA_TYPE: &str = "x-apigen-assumed-media-type";

/// A schema's `xml` object, which the typed model does not keep.
pub(crate) const XML: &str = "x-apigen-xml";

/// A `oneOf` or `anyOf` whose members only narrow the value, kept as `{key: members}` once the
/// schema is read as its plain type: servers check values against it, and samples meet it.
pub const NARROWED: &str = "x-apigen-narrowed";

/// A schema that allows only `null`, read as any JSON value, nullable: samples of it are `null`.
pub const NULL_ONLY: &str = "x-apigen-null-only";

/// A schema that, as written, allows no value at all (its keywords contradict each other), with
/// why and how it was read instead. A peer reading the document as written (a mock, a validator)
/// refuses every value there: oracles use the mark to tell the document's slip from a fault of
/// the generated code.
pub const CONTRADICTED: &str = "x-apigen-contradicted";
