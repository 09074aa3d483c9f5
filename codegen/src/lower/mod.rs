//! Lowering: the only stage that reads `openapiv3` types. It resolves every `$ref`, names every
//! Rust item once, and reports what it cannot represent as [`Diagnostic`]s instead of guessing.

mod any_schema;
mod boxing;
mod checks;
mod example_checks;
mod merge;
mod mock_replies;
mod operation;
mod paging;
mod prune;
mod schema;
mod tag_features;
mod union;

use indexmap::IndexMap;
use openapiv3::{OpenAPI, ReferenceOr};

use crate::config::{Config, VersionHeader};
use crate::diagnostic::{Diagnostic, Diagnostics, Pointer};
use crate::front::markers;
use crate::ir::{Api, Carrier, CommonHeader, Credential, TypeDef, TypeId, TypeRef};
use crate::naming::{Scope, camel, snake};

/// Names the generated `types` modules import or take from the prelude; a schema with one of these
/// names gets a numbered name instead.
const RESERVED_TYPE_NAMES: &[&str] = &[
    "BTreeMap",
    "Box",
    "DateTime",
    "Deserialize",
    "File",
    "FromStr",
    "Option",
    "Result",
    "Serialize",
    "String",
    "Uuid",
    "Value",
    "Vec",
    "fmt",
];

/// Lowers a parsed spec to the IR, or returns every problem found.
pub fn lower(doc: &OpenAPI, config: &Config) -> Result<Api, Diagnostics> {
    let (query_operations, unreadable) = query_operations(doc);
    let mut lowerer = Lowerer::new(doc, &query_operations, !config.strict, config.mock_seed);
    lowerer.diagnostics.extend(unreadable);
    let mut api = lowerer.api(config);
    if let Ok(whole) = serde_json::to_value(doc) {
        let schemas = lowerer.sample_schemas.get_or_init(|| crate::sample::Schemas::of(doc));
        api.warnings.extend(example_checks::contradicting_examples(&whole, schemas));
    }
    // A spec-wide problem (the top-level `security`) is met by every operation; say it once.
    api.warnings.sort();
    api.warnings.dedup();
    if lowerer.diagnostics.is_empty() {
        if !lowerer.left_out.is_empty() {
            let had_operations = !api.operations.is_empty() || lowerer.left_out.iter().any(|l| l.is_operation());
            let left_out = std::mem::take(&mut lowerer.left_out);
            prune::leave_out(&mut api, &lowerer.schema_names, &lowerer.type_names, left_out);
            if had_operations && api.operations.is_empty() {
                // Nothing useful would be generated; say why instead.
                return Err(Diagnostics(api.warnings));
            }
        }
        renumber(&mut api, &lowerer.type_names)?;
        let components: std::collections::BTreeSet<&str> = lowerer.schema_names.values().map(String::as_str).collect();
        merge::merge_identical(&mut api, &components);
        merge::share_errors(&mut api);
        boxing::box_fields(&mut api.types);
        if config.tag_features {
            tag_features::assign(&mut api, &tag_parents(doc));
        }
        api.assign_routes();
        Ok(api)
    } else {
        let mut all = lowerer.diagnostics;
        all.sort();
        all.dedup();
        Err(Diagnostics(all))
    }
}

/// Gives every handle its final value, the index of its type in the sorted `api.types`, once
/// no type will be added or left out any more.
fn renumber(api: &mut Api, names: &[String]) -> Result<(), Diagnostics> {
    let position: std::collections::HashMap<&str, u32> =
        api.types.iter().zip(0..).map(|(t, i)| (t.name(), i)).collect();
    let new: Vec<Option<TypeId>> = names.iter().map(|name| position.get(name.as_str()).copied().map(TypeId)).collect();
    let mut missing = Vec::new();
    let mut renumber = |id: &mut TypeId| match new[id.index()] {
        Some(final_id) => *id = final_id,
        None => missing.push(names[id.index()].clone()),
    };
    api.types.iter_mut().for_each(|t| t.handles_mut(&mut renumber));
    api.operations.iter_mut().for_each(|op| op.handles_mut(&mut renumber));
    // Leaving out a type leaves out what uses it, so this is a defect of the generator, said
    // as such rather than emitted as code that does not compile.
    missing.sort();
    missing.dedup();
    match missing.is_empty() {
        true => Ok(()),
        false => Err(Diagnostics(
            missing
                .into_iter()
                .map(|name| Diagnostic {
                    severity: crate::diagnostic::Severity::Error,
                    pointer: Pointer::root().to_string(),
                    line: None,
                    message: format!("internal error: the type `{name}` is used but was not generated"),
                })
                .collect(),
        )),
    }
}

/// The extension by which a document says that `null` and absence mean the same for its
/// optional properties.
pub(crate) const NULL_MEANS_ABSENT: &str = "x-null-means-absent";

/// (child, parent) for every tag nested in another (OpenAPI 3.2), in document order.
fn tag_parents(doc: &OpenAPI) -> Vec<(String, String)> {
    let parent = |tag: &openapiv3::Tag| tag.extensions.get(markers::TAG_PARENT)?.as_str().map(str::to_string);
    doc.tags.iter().filter_map(|tag| Some((tag.name.clone(), parent(tag)?))).collect()
}

/// Each path's `query` operation, read from where loading kept it, and what could not be read.
fn query_operations(doc: &OpenAPI) -> (Vec<(String, openapiv3::Operation)>, Vec<Diagnostic>) {
    let (mut read, mut unreadable) = (Vec::new(), Vec::new());
    for (path, item) in &doc.paths.paths {
        let ReferenceOr::Item(item) = item else { continue };
        let Some(value) = item.extensions.get(markers::QUERY_OPERATION) else { continue };
        match serde_json::from_value::<openapiv3::Operation>(value.clone()) {
            Ok(operation) => read.push((path.clone(), operation)),
            Err(e) => unreadable.push(Diagnostic {
                severity: crate::diagnostic::Severity::Error,
                pointer: Pointer::root().push("paths").push(path).push("query").to_string(),
                line: None,
                message: format!("not a valid operation: {e}"),
            }),
        }
    }
    (read, unreadable)
}

/// How a schema that needs a named type (an object or an enum) gets its name.
#[derive(Debug, Clone)]
pub(crate) enum Naming {
    /// A component schema: its name was claimed before lowering started.
    Claimed(String),
    /// An inline schema: named from its location, e.g. `Account` + `Status` → `AccountStatus`.
    Derived(String),
}

pub(crate) struct Lowerer<'a> {
    doc: &'a OpenAPI,
    /// Each path's `query` operation (OpenAPI 3.2), which the typed model has no slot for.
    query_operations: &'a [(String, openapiv3::Operation)],
    diagnostics: Vec<Diagnostic>,
    /// Rust names of types, shared by component schemas and inline schemas.
    type_scope: Scope,
    /// Component schema name → Rust type name, decided before any schema is lowered.
    schema_names: IndexMap<String, String>,
    types: Vec<TypeDef>,
    /// The name of each type handle given out so far, by handle: types are referred to before
    /// they are lowered (a component schema by its claimed name), so a handle is a name until
    /// [`renumber`] makes it an index into the final types.
    type_names: Vec<String>,
    /// Name → handle, for [`Self::type_names`].
    type_ids: std::collections::HashMap<String, TypeId>,
    /// Handle → index in `types`, so lookups stay cheap on large specs.
    type_index: std::collections::HashMap<TypeId, usize>,
    /// Unions without a discriminator, with where they are, to be told apart once every type
    /// they refer to is known.
    pending_unions: Vec<(String, Pointer, serde_json::Value)>,
    /// Property defaults to check once every type is known: the struct, the field's index, the
    /// value, the property's schema (as JSON) and where the default is written.
    pending_defaults: Vec<(String, usize, serde_json::Value, serde_json::Value, Pointer)>,
    /// Leave out what cannot be represented instead of failing.
    skip: bool,
    /// Pointers (`#/components/schemas/X`) of the component schemas that are multipart bodies,
    /// whose binary properties are file parts.
    multipart_schemas: std::collections::HashSet<String>,
    /// Schemas and operations left out so far, with the problems that decided it.
    left_out: Vec<prune::LeftOut>,
    /// Simplifications that still generate working code, e.g. one of several security
    /// alternatives chosen.
    warnings: Vec<Diagnostic>,
    /// What `warnings` holds, to keep each warning once without a scan per warning.
    warned: std::collections::HashSet<(String, String)>,
    /// The component schemas as JSON, for sampling error bodies; made on first use.
    sample_schemas: std::cell::OnceCell<crate::sample::Schemas>,
    /// The seed of the mock's sampled replies.
    seed: u64,
    /// Integer schemas whose values may reach past 64 bits, all read as `i64`: where the first
    /// is, and how many there are, for one warning.
    wide_integers: Option<(Pointer, usize)>,
    /// The schemas values held as any JSON are checked against, by check index, with where each
    /// is.
    checks: Vec<(serde_json::Value, Pointer)>,
    /// The schemas of the bodies servers read from XML, by index, with where each is.
    xml_reads: Vec<(serde_json::Value, Pointer)>,
    /// Some pattern kept is one only `fancy-regex` reads.
    fancy_patterns: bool,
    /// Properties `allOf` merges have copied so far, and how many they may copy.
    merged: std::cell::Cell<usize>,
    most_merged: usize,
}

/// Where a unit started: the counts of diagnostics and types before it.
#[derive(Clone, Copy)]
pub(crate) struct UnitMark {
    diagnostics: usize,
    types: usize,
}

impl<'a> Lowerer<'a> {
    fn new(doc: &'a OpenAPI, query_operations: &'a [(String, openapiv3::Operation)], skip: bool, seed: u64) -> Self {
        Lowerer {
            seed,
            query_operations,
            skip,
            multipart_schemas: operation::multipart_schemas(doc),
            left_out: Vec::new(),
            warnings: Vec::new(),
            warned: Default::default(),
            sample_schemas: std::cell::OnceCell::new(),
            pending_unions: Vec::new(),
            pending_defaults: Vec::new(),
            doc,
            diagnostics: Vec::new(),
            type_scope: Scope::with_reserved(RESERVED_TYPE_NAMES),
            schema_names: IndexMap::new(),
            types: Vec::new(),
            type_names: Vec::new(),
            type_ids: std::collections::HashMap::new(),
            type_index: std::collections::HashMap::new(),
            wide_integers: None,
            checks: Vec::new(),
            xml_reads: Vec::new(),
            fancy_patterns: false,
            merged: std::cell::Cell::new(0),
            most_merged: schema::merge_room(doc),
        }
    }

    pub(crate) fn add_type(&mut self, t: TypeDef) {
        let id = self.type_id(t.name());
        self.type_index.insert(id, self.types.len());
        self.types.push(t);
    }

    /// A reference to the type called `name`, which may not be lowered yet.
    pub(crate) fn named(&mut self, name: &str) -> TypeRef {
        TypeRef::Named(self.type_id(name))
    }

    /// The handle of the type called `name`, given out on first use.
    fn type_id(&mut self, name: &str) -> TypeId {
        if let Some(&id) = self.type_ids.get(name) {
            return id;
        }
        let id = TypeId(self.type_names.len() as u32);
        self.type_names.push(name.to_string());
        self.type_ids.insert(name.to_string(), id);
        id
    }

    /// Whether `ty` refers to the type called `name`.
    pub(crate) fn is_named(&self, ty: &TypeRef, name: &str) -> bool {
        matches!(ty, TypeRef::Named(id) if self.type_names[id.index()] == name)
    }

    /// The Rust name of the type `id`.
    pub(crate) fn name_of(&self, id: TypeId) -> &str {
        &self.type_names[id.index()]
    }

    /// Where the type called `name` is in `types`, once lowered.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.type_ids.get(name).and_then(|id| self.type_index.get(id)).copied()
    }

    /// The type `id`, once lowered.
    pub(crate) fn def(&self, id: TypeId) -> Option<&TypeDef> {
        self.type_index.get(&id).map(|&i| &self.types[i])
    }

    pub(crate) fn report(&mut self, pointer: &Pointer, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic {
            severity: crate::diagnostic::Severity::Error,
            pointer: pointer.to_string(),
            line: None,
            message: message.into(),
        });
    }

    /// Whether `reference` is to another file that loading could not bring in (the reason is
    /// its own warning), reported as a problem of the part that uses it: its shape is unknown to
    /// this run, and reading it as any value would hide that.
    pub(crate) fn foreign(&mut self, pointer: &Pointer, reference: &str) -> bool {
        let foreign = !reference.starts_with('#');
        if foreign {
            let message = format!("the reference {reference} is to another file, which could not be brought in");
            self.report(pointer, message);
        }
        foreign
    }

    /// Records a warning once, however many places lead to the same node (a schema referenced
    /// from several properties).
    pub(crate) fn warn(&mut self, pointer: &Pointer, message: impl Into<String>) {
        self.warn_at(pointer.to_string(), message);
    }

    /// Records a note once: something recognised or assumed with nothing lost, which a strict
    /// run lists and accepts.
    pub(crate) fn note(&mut self, pointer: &Pointer, message: impl Into<String>) {
        let note = Diagnostic {
            severity: crate::diagnostic::Severity::Note,
            pointer: pointer.to_string(),
            line: None,
            message: message.into(),
        };
        if self.warned.insert((note.pointer.clone(), note.message.clone())) {
            self.warnings.push(note);
        }
    }

    /// [`Self::warn`] at a pointer already written out.
    pub(crate) fn warn_at(&mut self, pointer: String, message: impl Into<String>) {
        let warning =
            Diagnostic { severity: crate::diagnostic::Severity::Warning, pointer, line: None, message: message.into() };
        if self.warned.insert((warning.pointer.clone(), warning.message.clone())) {
            self.warnings.push(warning);
        }
    }

    /// Whether the document says an optional property's `null` means the same as its absence
    /// (`x-null-means-absent: true` at its root): such properties are then one `Option`.
    pub(crate) fn null_means_absent(&self) -> bool {
        self.doc.extensions.get(NULL_MEANS_ABSENT).and_then(serde_json::Value::as_bool) == Some(true)
    }

    /// Marks the start of a part of the spec that can be left out on its own (a schema or an
    /// operation).
    pub(crate) fn unit_start(&self) -> UnitMark {
        UnitMark { diagnostics: self.diagnostics.len(), types: self.types.len() }
    }

    /// Ends a unit: `true` when it lowered cleanly. When skipping is on and it did not, its
    /// problems and the types it added are set aside and it is recorded as left out.
    pub(crate) fn unit_end(&mut self, mark: UnitMark, what: prune::Unit) -> bool {
        if self.diagnostics.len() == mark.diagnostics {
            return true;
        }
        if self.skip {
            let problems = self.set_aside(mark);
            self.left_out.push(prune::LeftOut { what, problems });
        }
        false
    }

    /// Takes back the problems and types recorded since `mark`, returning the problems.
    pub(crate) fn set_aside(&mut self, mark: UnitMark) -> Vec<Diagnostic> {
        for t in self.types.split_off(mark.types) {
            self.type_index.remove(&self.type_ids[t.name()]);
        }
        self.diagnostics.split_off(mark.diagnostics)
    }

    fn api(&mut self, config: &Config) -> Api {
        let doc = self.doc;
        if !doc.openapi.starts_with("3.0") {
            self.report(
                &Pointer::root().push("openapi"),
                format!("OpenAPI version {} is not supported; only 3.0.x is", doc.openapi),
            );
        }
        let schemas = doc.components.as_ref().map(|c| &c.schemas);
        // Names first, in declaration order, so references resolve regardless of order and a new
        // schema never renames an existing one.
        for name in schemas.into_iter().flat_map(|s| s.keys()) {
            let rust = self.type_scope.claim(&camel(name));
            self.schema_names.insert(name.clone(), rust);
        }
        for (name, schema) in schemas.into_iter().flatten() {
            let ptr = Pointer::root().push("components").push("schemas").push(name);
            let mark = self.unit_start();
            self.lower_component_schema(name, schema, &ptr);
            self.unit_end(mark, prune::Unit::Schema { name: self.schema_names[name].clone() });
        }
        let credentials = self.credentials();
        let common_headers = self.common_headers(config);
        let mut operations = self.operations(&credentials, &common_headers);
        let credentials = only_used(credentials, &mut operations);
        schema::finish_unions(self);
        schema::finish_defaults(self);
        if let Some((first, count)) = self.wide_integers.take() {
            let elsewhere = match count {
                1 => String::new(),
                2 => " (here and in 1 other place)".to_string(),
                n => format!(" (here and in {} other places)", n - 1),
            };
            let message = format!(
                "an integer without `format` or bounds is read as a 64-bit integer (`i64`){elsewhere}, as Rust generators do: a larger value, which the schema allows, is refused; `format: int64` says so exactly"
            );
            self.warn(&first, message);
        }
        let schema_checks = checks::schema_checks(self);
        // Alphabetical order reads like an index and does not depend on where inline types sit.
        self.types.sort_by(|a, b| a.name().cmp(b.name()));
        Api {
            title: doc.info.title.clone(),
            version: doc.info.version.clone(),
            description: prose(&doc.info.description),
            default_base_url: doc.servers.first().map(|server| {
                let mut url = server.url.clone();
                for (name, var) in server.variables.iter().flatten() {
                    url = url.replace(&format!("{{{name}}}"), &var.default);
                }
                url
            }),
            types: std::mem::take(&mut self.types),
            operations,
            credentials,
            common_headers,
            warnings: std::mem::take(&mut self.warnings),
            tag_features: None,
            schema_checks,
            fancy_patterns: self.fancy_patterns,
            document: None,
        }
    }

    /// `written` spelled for the servers' regex engines when one of them reads it (noting when
    /// only `fancy-regex` does), else why neither does.
    pub(crate) fn readable_pattern(&mut self, written: &str) -> Result<String, String> {
        use apigen_runtime::codegen::pattern::{Pattern, Support};
        let spelled = crate::sample::pattern::for_rust(written).into_owned();
        let support = Pattern::support(&spelled)?;
        self.fancy_patterns |= support == Support::Fancy;
        Ok(spelled)
    }

    /// Every security scheme a request can carry becomes a credential (in a header, a cookie or the
    /// query); the others (HTTP schemes other than bearer and basic) are reported where an
    /// operation requires them.
    fn credentials(&mut self) -> Vec<Credential> {
        use openapiv3::{APIKeyLocation, SecurityScheme};
        let mut out = Vec::new();
        let mut fields = Scope::default();
        let Some(components) = &self.doc.components else { return out };
        for (name, scheme) in &components.security_schemes {
            let ptr = Pointer::root().push("components").push("securitySchemes").push(name);
            let scheme = match scheme {
                ReferenceOr::Reference { reference } => {
                    match component(reference, "securitySchemes", Some(&components.security_schemes)) {
                        Some(item) => ReferenceOr::Item(item.clone()),
                        None => {
                            let message = format!(
                                "the reference `{reference}` does not resolve to a security scheme, so operations that require `{name}` are left out"
                            );
                            self.warn(&ptr, message);
                            continue;
                        }
                    }
                }
                item => item.clone(),
            };
            let (carrier, description) = match &scheme {
                ReferenceOr::Item(SecurityScheme::APIKey { location, name: key, description, .. }) => match location {
                    APIKeyLocation::Header => (Carrier::Header(key.clone()), description),
                    APIKeyLocation::Cookie => (Carrier::Cookie(key.clone()), description),
                    APIKeyLocation::Query => (Carrier::Query(key.clone()), description),
                },
                ReferenceOr::Item(SecurityScheme::HTTP { scheme: http, description, .. }) => {
                    match http.to_ascii_lowercase().as_str() {
                        "bearer" => (Carrier::Authorization("Bearer".to_string()), description),
                        "basic" => (Carrier::Authorization("Basic".to_string()), description),
                        // Any other scheme still travels in `Authorization` after its name;
                        // what it exchanges to get there (a digest's challenge) is the caller's.
                        _ if is_header_name(http) => {
                            let message = format!(
                                "HTTP `{http}` authentication: the credential is sent as given after `{http} `, and the server only checks that one is there; any exchange the scheme defines is the caller's to make"
                            );
                            self.warn(&ptr.push("scheme"), message);
                            (Carrier::Authorization(http.clone()), description)
                        }
                        _ => continue,
                    }
                }
                ReferenceOr::Item(
                    SecurityScheme::OAuth2 { description, .. } | SecurityScheme::OpenIDConnect { description, .. },
                ) => (Carrier::Authorization("Bearer".to_string()), description),
                ReferenceOr::Reference { .. } => continue,
            };
            // `Authorization: Bearer` as an API key's header is the header after that scheme.
            let carrier = match carrier {
                Carrier::Header(header) if !is_header_name(&header) => {
                    let Some((field, scheme)) = header.split_once(':').map(|(h, s)| (h.trim(), s.trim())) else {
                        continue;
                    };
                    if !field.eq_ignore_ascii_case("authorization") || !is_header_name(scheme) {
                        continue;
                    }
                    let message =
                        format!("an API key named `{header}` is read as the `authorization` header after `{scheme}`");
                    self.warn(&ptr.push("name"), message);
                    Carrier::Authorization(scheme.to_string())
                }
                carrier => carrier,
            };
            out.push(Credential {
                scheme: name.clone(),
                carrier,
                field: fields.claim(&snake(name)),
                doc: prose(description),
                optional: false,
            });
        }
        out
    }

    /// The header parameter named by `config.version_header`, when operations use it, becomes a
    /// client-wide setting that defaults to `info.version`.
    fn common_headers(&mut self, config: &Config) -> Vec<CommonHeader> {
        let Some(VersionHeader { header, field }) = &config.version_header else { return Vec::new() };
        if !is_header_name(header) {
            self.report(&Pointer::root(), format!("the version header `{header}` is not a valid header name"));
            return Vec::new();
        }
        let used = self.doc.operations().any(|(_, _, op)| {
            op.parameters.iter().any(|p| match self.resolve_parameter(p) {
                Some(openapiv3::Parameter::Header { parameter_data, .. }) => {
                    parameter_data.name.eq_ignore_ascii_case(header)
                }
                _ => false,
            })
        });
        if !used {
            return Vec::new();
        }
        vec![CommonHeader {
            header: header.clone(),
            field: field.clone(),
            default: self.doc.info.version.clone(),
            doc: Some("API version sent with every request.".to_string()),
        }]
    }

    /// Follows a parameter `$ref` into `components/parameters`.
    pub(crate) fn resolve_parameter<'p>(
        &self,
        p: &'p ReferenceOr<openapiv3::Parameter>,
    ) -> Option<&'p openapiv3::Parameter>
    where
        'a: 'p,
    {
        resolve(p, "parameters", self.doc.components.as_ref().map(|c| &c.parameters))
    }
}

/// `item` itself, or the component its `$ref` names in `#/components/<section>/`, given that
/// section's map; `None` for a reference to anything else, or to another reference.
pub(crate) fn resolve<'r, T>(
    item: &'r ReferenceOr<T>,
    section: &str,
    components: Option<&'r IndexMap<String, ReferenceOr<T>>>,
) -> Option<&'r T> {
    match item {
        ReferenceOr::Item(item) => Some(item),
        ReferenceOr::Reference { reference } => component(reference, section, components),
    }
}

/// The component `reference` names in `#/components/<section>/`, when it is not a reference itself.
pub(crate) fn component<'c, T>(
    reference: &str,
    section: &str,
    components: Option<&'c IndexMap<String, ReferenceOr<T>>>,
) -> Option<&'c T> {
    component_named(reference, section, components).map(|(_, item)| item)
}

/// As [`component`], with the name of the component finally reached: one that is only a
/// `$ref` to another of its section (an alias) is followed, a few steps at most.
pub(crate) fn component_named<'c, 'r, T>(
    reference: &'r str,
    section: &str,
    components: Option<&'c IndexMap<String, ReferenceOr<T>>>,
) -> Option<(&'r str, &'c T)>
where
    'c: 'r,
{
    let components = components?;
    let mut reference = reference;
    for _ in 0..16 {
        let name = reference.strip_prefix("#/components/")?.strip_prefix(section)?.strip_prefix('/')?;
        match components.get(name)? {
            ReferenceOr::Item(item) => return Some((name, item)),
            ReferenceOr::Reference { reference: next } => reference = next,
        }
    }
    None
}

/// Keeps the credentials some operation sends, so a client is never asked for one it cannot use,
/// renumbers the operations' references to them, and marks as optional those that every operation
/// sending them could do without.
pub(crate) fn only_used(credentials: Vec<Credential>, operations: &mut [crate::ir::Operation]) -> Vec<Credential> {
    let used: Vec<bool> =
        (0..credentials.len()).map(|i| operations.iter().any(|op| op.credentials.contains(&i))).collect();
    let needed: Vec<bool> = (0..credentials.len())
        .map(|i| operations.iter().any(|op| op.credential_alternatives.is_empty() && op.credentials.contains(&i)))
        .collect();
    let mut new_index = Vec::with_capacity(credentials.len());
    let mut next = 0;
    for &u in &used {
        new_index.push(next);
        next += usize::from(u);
    }
    for op in operations.iter_mut() {
        let sets = op.credential_alternatives.iter_mut().flatten();
        for i in op.credentials.iter_mut().chain(sets) {
            *i = new_index[*i];
        }
    }
    let kept = credentials.into_iter().zip(used).zip(needed).filter(|((_, u), _)| *u);
    kept.map(|((c, _), needed)| Credential { optional: !needed, ..c }).collect()
}

/// A description as doc text: `None` when the spec gives none or only blanks, so emitters fall
/// back to a generated sentence rather than an empty doc comment.
/// `Example: `"Tom"``, or a JSON block for a longer example; nothing for one over 30 lines, which
/// would bury the rest of the docs.
pub(crate) fn example_note(example: &serde_json::Value) -> Option<String> {
    let compact = serde_json::to_string(example).ok()?;
    if compact.len() <= 80 && !compact.contains('`') {
        return Some(format!("Example: `{compact}`."));
    }
    let pretty = serde_json::to_string_pretty(example).ok()?;
    (pretty.lines().count() <= 30 && !pretty.contains("```")).then(|| format!("Example:\n\n```json\n{pretty}\n```"))
}

/// `description` as prose, followed by the example's note when there is one; `inline` keeps to a
/// note of one line, for docs that are one item of a list.
pub(crate) fn described(
    description: &Option<String>,
    example: Option<&serde_json::Value>,
    inline: bool,
) -> Option<String> {
    let note = example.and_then(example_note).filter(|note| !inline || !note.contains('\n'));
    match (prose(description), note) {
        (Some(text), Some(note)) => Some(format!("{text}\n\n{note}")),
        (text, note) => text.or(note),
    }
}

pub(crate) fn prose(description: &Option<String>) -> Option<String> {
    description.clone().filter(|d| !d.trim().is_empty())
}

/// Whether `name` is an HTTP header name (RFC 9110 token characters, at least one).
pub(crate) fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
