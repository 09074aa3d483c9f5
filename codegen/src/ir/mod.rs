//! The resolved intermediate representation: everything the emitters need, with every `$ref`
//! followed and every Rust name decided. Emitters read only these types, never `openapiv3`.

mod operation;
mod paging;
mod types;

pub use operation::*;
pub use paging::*;
pub use types::*;

/// One API, ready to emit.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
    /// `info.title`.
    pub title: String,
    /// `info.version`: the API version, not a crate version.
    pub version: String,
    /// `info.description`.
    pub description: Option<String>,
    /// The first server URL with its variables replaced by their defaults, if any.
    pub default_base_url: Option<String>,
    /// Named types, sorted by Rust name; a [`TypeId`] is an index into it.
    pub types: Vec<TypeDef>,
    /// Operations in the order the spec declares them (path, then method).
    pub operations: Vec<Operation>,
    /// Credentials sent as headers, from the security schemes in use.
    pub credentials: Vec<Credential>,
    /// Header parameters shared by every operation that the client sets once (e.g. the API version).
    pub common_headers: Vec<CommonHeader>,
    /// What the generator simplified, or left out because it cannot represent it (only when
    /// asked to skip unsupported parts), each located in the spec.
    pub warnings: Vec<crate::diagnostic::Diagnostic>,
    /// Cargo features per tag, when [`crate::config::Config::tag_features`] asks for them.
    pub tag_features: Option<TagFeatures>,
    /// The schemas values held as any JSON are checked against, and those XML bodies are read
    /// by, when there are any.
    pub schema_checks: Option<SchemaChecks>,
    /// Some pattern uses what only `fancy-regex` reads (look-around, back-references): the
    /// generated crates turn on the runtime's `fancy-pattern` feature.
    pub fancy_patterns: bool,
    /// The document as the generator read it, which the server crate can serve (feature
    /// `document`); set by [`crate::generate_files`], not by lowering.
    pub document: Option<Document>,
}

/// A document's text and its media type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The text: the file as written when it stands alone, else the tree bundled (and the overlays
    /// applied) as JSON.
    pub text: String,
    /// `application/json` or `application/yaml`.
    pub media_type: &'static str,
}

/// The document's schemas for the values the generated types hold as any JSON (see
/// [`TypeDef::Alias`]) and for the bodies servers read from XML (see [`XmlRead`]), with the
/// component schemas they refer to and their patterns spelled for the servers' regex engine:
/// `{"checks": [...], "xml": [...], "components": {"schemas": {...}}}`, the JSON a server reads.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaChecks(pub serde_json::Value);

/// Which cargo feature compiles which operation and type, so that a crate using a few areas of a
/// large API builds only those.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TagFeatures {
    /// One feature per tag in use, in the order tags first appear, then one per parent tag
    /// (OpenAPI 3.2) above them.
    pub features: Vec<String>,
    /// Features that turn on others: a parent tag's turns on its children's.
    pub children: std::collections::BTreeMap<String, Vec<String>>,
    /// Named types reached only from tagged operations, or from no operation, with the features
    /// any of which compiles them; a type not listed is always compiled.
    pub types: std::collections::BTreeMap<TypeId, Vec<String>>,
    /// The feature that compiles the schemas no operation reaches (off by default), when there
    /// are such schemas.
    pub unused: Option<String>,
}

impl TagFeatures {
    /// The features that compile the type `id`; empty when it is always compiled.
    pub fn of_type(&self, id: TypeId) -> &[String] {
        self.types.get(&id).map_or(&[], Vec::as_slice)
    }
}

/// A handle to a named type: its index in [`Api::types`], so looking it up cannot fail.
///
/// Lowering hands out handles as it names types, before it knows them all, and renumbers them
/// once the types are final; an [`Api`] that lowering returns holds only final handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId(pub(crate) u32);

impl TypeId {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

impl Api {
    /// Whether a server reads some body from XML.
    pub fn reads_xml(&self) -> bool {
        self.operations.iter().filter_map(|op| op.body.as_ref()).any(|body| body.xml.is_some())
    }

    /// Whether some parameter's, property's or member's limits satisfy `f`.
    pub fn any_limits(&self, f: &dyn Fn(&Constraints) -> bool) -> bool {
        let params = self.operations.iter().flat_map(|op| &op.params).map(|p| &p.constraints);
        let members = self.types.iter().flat_map(|t| -> Vec<&Constraints> {
            match t {
                TypeDef::Struct(s) => s.fields.iter().map(|field| &field.constraints).collect(),
                TypeDef::Union(u) => u.variants.iter().map(|v| &v.constraints).collect(),
                _ => Vec::new(),
            }
        });
        params.chain(members).any(|c| c.any(f))
    }

    /// The sets of credentials a client sends for `op`, in the document's order, up to the
    /// first whose credentials the client always holds: a later one would never be chosen.
    pub fn client_sets(&self, op: &Operation) -> Vec<Vec<usize>> {
        if op.credential_alternatives.is_empty() {
            return vec![op.credentials.clone()];
        }
        let mut sets = Vec::new();
        for set in &op.credential_alternatives {
            sets.push(set.clone());
            if set.iter().all(|&i| !self.credentials[i].optional) {
                break;
            }
        }
        sets
    }

    /// The credentials a client may send, in [`Api::credentials`] order: the others only a
    /// server reads.
    pub fn client_credentials(&self) -> Vec<&Credential> {
        let mut sent = vec![false; self.credentials.len()];
        for op in &self.operations {
            self.client_sets(op).iter().flatten().for_each(|&i| sent[i] = true);
        }
        self.credentials.iter().zip(sent).filter_map(|(c, sent)| sent.then_some(c)).collect()
    }

    /// The named type `id` stands for.
    pub fn ty(&self, id: TypeId) -> &TypeDef {
        &self.types[id.index()]
    }

    /// The Rust name of the type `id`.
    pub fn name_of(&self, id: TypeId) -> &str {
        self.ty(id).name()
    }

    /// The handle of the type called `name`, for tools and tests that start from a name; the
    /// emitters only follow handles.
    pub fn type_id(&self, name: &str) -> Option<TypeId> {
        let index = self.types.binary_search_by(|t| t.name().cmp(name)).ok()?;
        Some(TypeId(index as u32))
    }

    /// Every named type with its handle.
    pub fn types_with_ids(&self) -> impl Iterator<Item = (TypeId, &TypeDef)> {
        (0..).map(TypeId).zip(&self.types)
    }

    /// `ty` with named aliases followed to what they stand for.
    pub fn unaliased<'a>(&'a self, mut ty: &'a TypeRef) -> &'a TypeRef {
        // Bounded: an alias cycle cannot be lowered, but a loop here must still end.
        for _ in 0..self.types.len() {
            match ty {
                TypeRef::Named(id) => match self.ty(*id) {
                    TypeDef::Alias { target, .. } => ty = target,
                    _ => break,
                },
                _ => break,
            }
        }
        ty
    }
}

/// A credential carried in a request header: an `apiKey` in a header or cookie, an `http` bearer
/// or basic scheme, or the access token of an `oauth2` or `openIdConnect` scheme.
#[derive(Debug, Clone, PartialEq)]
pub struct Credential {
    /// The security scheme's name in `components/securitySchemes`.
    pub scheme: String,
    /// Where the credential travels.
    pub carrier: Carrier,
    /// Rust field name, e.g. `access_token`.
    pub field: String,
    pub doc: Option<String>,
    /// Whether every operation that sends it could send another set instead, so a client need
    /// not hold it.
    pub optional: bool,
}

/// Where and how a credential travels in a request.
#[derive(Debug, Clone, PartialEq)]
pub enum Carrier {
    /// The whole value of a header (an API key), e.g. `x-api-key`.
    Header(String),
    /// The `Authorization` header after an authentication scheme, `Bearer` or `Basic`.
    Authorization(String),
    /// The cookie of this name.
    Cookie(String),
    /// The query parameter of this name.
    Query(String),
}

impl Carrier {
    /// The header that carries the credential, lowercase for the ones HTTP defines.
    pub fn header(&self) -> &str {
        match self {
            Carrier::Header(header) => header,
            Carrier::Authorization(_) => "authorization",
            Carrier::Cookie(_) => "cookie",
            Carrier::Query(name) => name,
        }
    }

    /// What precedes the credential in its header: `Bearer `, `name=` for a cookie, or nothing.
    pub fn prefix(&self) -> String {
        match self {
            Carrier::Header(_) => String::new(),
            Carrier::Authorization(scheme) => format!("{scheme} "),
            Carrier::Cookie(name) | Carrier::Query(name) => format!("{name}="),
        }
    }
}

/// A header parameter every operation takes, lifted to client configuration and server context.
#[derive(Debug, Clone, PartialEq)]
pub struct CommonHeader {
    pub header: String,
    /// Rust field name, e.g. `api_version`.
    pub field: String,
    /// Value the client sends unless told otherwise.
    pub default: String,
    pub doc: Option<String>,
}

impl Api {
    /// Sets each operation's [`Operation::route`], in one pass over the operations.
    pub(crate) fn assign_routes(&mut self) {
        let mut first: std::collections::HashMap<String, String> = std::collections::HashMap::new();
        for op in &mut self.operations {
            op.route = first.entry(route_key(&op.path)).or_insert_with(|| op.path.clone()).clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Constraints, media_type_within};

    #[test]
    fn both_sets_of_limits_hold_the_tighter_bound_winning() {
        let a = Constraints { minimum: Some(0.0), maximum: Some(10.0), exclusive_maximum: true, ..Default::default() };
        let b = Constraints { minimum: Some(2.0), maximum: Some(20.0), max_length: Some(3), ..Default::default() };
        let both = a.and(b);
        assert_eq!((both.minimum, both.maximum, both.max_length), (Some(2.0), Some(10.0), Some(3)));
        assert!(both.exclusive_maximum && !both.exclusive_minimum);
    }

    #[test]
    fn a_range_gives_a_type_it_allows() {
        assert_eq!(media_type_within("text/csv"), "text/csv");
        assert_eq!(media_type_within("*/*"), "application/octet-stream");
        assert_eq!(media_type_within("application/*"), "application/octet-stream");
        assert_eq!(media_type_within("text/*; charset=utf-8"), "text/plain");
        assert_eq!(media_type_within("image/*"), "image/png");
    }
}
