//! Specs split across files: the root document with every `$ref` into another file (and, inside
//! another file, every `#/…` reference, which names a node of that file) brought in, so the rest
//! of the pipeline reads one document.
//!
//! What a reference brings in depends on where it stands. A schema, parameter, response, request
//! body, header, example or callback goes into the root's components under the name it is
//! defined with — its key when the pointer names one (`common.yaml#/components/schemas/Pet` is
//! `Pet`), else the file's stem (`schemas/Pet.yaml` is `Pet`) — and the reference points there,
//! so a type is named the same however often and from wherever it is used. Anything else (a path
//! item, a description in a Markdown file) is put in place. Each brought-in node remembers its file
//! and pointer, so diagnostics about it name them.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;

/// Most files one spec may be split into: a bound on what a hostile tree can make the generator
/// read, well above the largest public descriptions (a few thousand files).
const MOST_FILES: usize = 10_000;

/// How deep nodes put in place may nest through references (a path item in a file that refers
/// to another...), beyond which the chain is refused rather than followed.
const MOST_NESTED: usize = 64;

/// Deepest a node may stand in the bundled document: the walk recurses once per level, and
/// nodes put in place nest inside one another.
const MOST_DEPTH: usize = 512;

/// Most nodes the walk may visit, counting each copy a reference puts in place: a bound on what
/// references to references (a diamond of them doubles per level) can make the generator copy,
/// twenty times what the largest public tree needs (DigitalOcean's: about 47,000).
const MOST_VISITED: usize = 1_000_000;

/// How much the nodes references copy may weigh (a node counts one, a string its length too),
/// beyond [`LEAST_COPY_ROOM`], as a multiple of the bytes of the files read: the same text
/// brought in many times (a Markdown description referred to from every operation) makes the
/// document, and every crate generated from it, grow with the product of the two.
const MOST_COPY_FACTOR: usize = 8;

/// The weight copies may reach however small the tree: 16 million nodes and bytes.
const LEAST_COPY_ROOM: usize = 16 << 20;

/// What `value` weighs: each node one, each string and key its length too.
pub fn weight(value: &Value) -> usize {
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total = total.saturating_add(1);
        match value {
            Value::String(text) => total = total.saturating_add(text.len()),
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (key, value) in map {
                    total = total.saturating_add(key.len());
                    stack.push(value);
                }
            }
            _ => {}
        }
    }
    total
}

/// Reads a file of the spec by its path relative to the spec's directory, `/`-separated and
/// normalised (no `.` segments; `..` only at the start, and only when reaching outside is allowed).
pub type ReadFile<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// Parses a file's text as the loader does; a failure says why and on which line.
pub type ParseFile<'a> = &'a dyn Fn(&str) -> Result<Value, (String, Option<usize>)>;

/// One document made from a tree of files.
#[derive(Debug)]
pub struct Bundled {
    /// The document, every reference into it local.
    pub value: Value,
    /// Where each brought-in node came from.
    pub origins: Origins,
    /// The text of every file read, by path, to find diagnostics' lines in.
    pub texts: BTreeMap<String, String>,
    /// Each reference that could not be followed, located where it is written; it is left as
    /// written, for lowering to leave out what uses it.
    pub unfollowed: Vec<Diagnostic>,
}

/// Where brought-in nodes came from: a pointer in the bundled document ↦ a file and the pointer of
/// the node in it.
#[derive(Debug, Default)]
pub struct Origins(BTreeMap<String, (String, String)>);

impl Origins {
    /// Whether nothing was brought in from another file.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The file (`None` for the root document) and pointer in it that `pointer`, a pointer into
    /// the bundled document, names.
    pub fn source(&self, pointer: &str) -> (Option<&str>, String) {
        let mut prefix = pointer;
        loop {
            if let Some((file, at)) = self.0.get(prefix) {
                return (Some(file), format!("{at}{}", &pointer[prefix.len()..]));
            }
            match prefix.rfind('/') {
                Some(cut) => prefix = &prefix[..cut],
                None => return (None, pointer.to_string()),
            }
        }
    }
}

/// Whether `root` refers to anything outside itself: only then is there anything to bundle.
pub fn refers_outside(root: &Value) -> bool {
    match root {
        Value::Object(map) => map.iter().any(|(key, value)| match (key.as_str(), value) {
            ("$ref", Value::String(reference)) => !reference.starts_with('#'),
            _ => refers_outside(value),
        }),
        Value::Array(items) => items.iter().any(refers_outside),
        _ => false,
    }
}

/// Brings every file `root` (parsed from `root_path`) refers to into it. `parse` reads a file's
/// text as the loader does. A reference that cannot be followed is left as written and reported,
/// located in the file it is written in; a tree of more than [`MOST_FILES`] files is refused.
pub fn bundle(
    root_path: &str,
    root: Value,
    read: ReadFile<'_>,
    allow_outside: bool,
    parse: ParseFile<'_>,
) -> Result<Bundled, Vec<Diagnostic>> {
    let swagger2 = root.get("swagger").is_some();
    let mut bundler = Bundler {
        read,
        parse,
        allow_outside,
        root_path: root_path.to_string(),
        files: HashMap::new(),
        texts: BTreeMap::new(),
        hoisted: HashMap::new(),
        taken: HashMap::new(),
        queue: VecDeque::new(),
        placed: Vec::new(),
        nesting: Vec::new(),
        origins: Origins::default(),
        errors: Vec::new(),
        too_many: false,
        visited: 0,
        copied: 0,
        read_bytes: 0,
        swagger2,
    };
    // The root's own components keep their names, and an entry that is a reference to another
    // file names what it refers to.
    for section in Section::ALL {
        let path = section.path(swagger2);
        let Some(Value::Object(names)) = path.iter().try_fold(&root, |v, key| v.get(key)) else { continue };
        bundler.taken.entry(section).or_default().extend(names.keys().cloned());
        for (name, entry) in names {
            let Some(reference) = entry.get("$ref").and_then(Value::as_str) else { continue };
            if reference.starts_with('#') || reference.contains("://") {
                continue;
            }
            if let Ok((file, pointer)) = bundler.target(root_path, reference) {
                bundler.hoisted.entry((section, file, pointer)).or_insert_with(|| name.clone());
            }
        }
    }
    let mut root = root;
    let root_file = bundler.root_path.clone();
    bundler.walk(&mut root, Kind::Root, &root_file, "#", "#", 0);
    // Hoisted nodes are brought in one at a time, each walked for the references it holds in turn,
    // so a chain of files is followed without recursion and a cycle ends at a name already given.
    // Past a bound, nothing more is read: the tree is refused whole.
    while !bundler.too_many {
        let Some(hoist) = bundler.queue.pop_front() else { break };
        bundler.bring(hoist);
    }
    bundler.locate_errors();
    if bundler.too_many {
        return Err(bundler.errors);
    }
    bundler.errors.sort();
    bundler.errors.dedup();
    for (section, name, value) in std::mem::take(&mut bundler.placed) {
        let mut at = &mut root;
        for key in section.path(swagger2) {
            let Value::Object(map) = at else { break };
            at = map.entry(key).or_insert_with(|| Value::Object(Map::new()));
        }
        if let Value::Object(map) = at {
            map.insert(name, value);
        }
    }
    Ok(Bundled { value: root, origins: bundler.origins, texts: bundler.texts, unfollowed: bundler.errors })
}

/// Where a component of each kind lives in the root document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Section {
    Schemas,
    Parameters,
    Responses,
    RequestBodies,
    Headers,
    Examples,
    Callbacks,
}

impl Section {
    const ALL: [Section; 7] = [
        Section::Schemas,
        Section::Parameters,
        Section::Responses,
        Section::RequestBodies,
        Section::Headers,
        Section::Examples,
        Section::Callbacks,
    ];

    /// The keys leading to the section in a document of either version (Swagger 2.0 keeps
    /// schemas, parameters and responses at its top level and has no other sections).
    fn path(self, swagger2: bool) -> Vec<&'static str> {
        match (self, swagger2) {
            (Section::Schemas, true) => vec!["definitions"],
            (Section::Parameters, true) => vec!["parameters"],
            (Section::Responses, true) => vec!["responses"],
            (Section::Schemas, false) => vec!["components", "schemas"],
            (Section::Parameters, false) => vec!["components", "parameters"],
            (Section::Responses, false) => vec!["components", "responses"],
            (Section::RequestBodies, _) => vec!["components", "requestBodies"],
            (Section::Headers, _) => vec!["components", "headers"],
            (Section::Examples, _) => vec!["components", "examples"],
            (Section::Callbacks, _) => vec!["components", "callbacks"],
        }
    }

    fn pointer(self, swagger2: bool, name: &str) -> String {
        let mut pointer = "#".to_string();
        for key in self.path(swagger2) {
            pointer.push('/');
            pointer.push_str(key);
        }
        format!("{pointer}/{}", escape(name))
    }
}

/// What a node is, by where it stands in the document: decides what a `$ref` there brings in
/// and what its children are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Root,
    Components,
    /// A map of path items (`paths`, `webhooks`, a callback).
    PathItems,
    PathItem,
    Operation,
    /// A map or list of parameters.
    Parameters,
    Parameter,
    Responses,
    Response,
    RequestBodies,
    RequestBody,
    Content,
    MediaType,
    Encodings,
    Encoding,
    Headers,
    Header,
    Examples,
    Example,
    /// A map of callbacks (an operation's, or the components').
    Callbacks,
    /// A callback: a map of expressions to path items.
    Callback,
    /// A map of named schemas (`properties`, `definitions`, `$defs`).
    Schemas,
    /// A list of schemas (`allOf`, `prefixItems`).
    SchemaList,
    Schema,
    /// A schema's `discriminator`, and its `mapping` of values to schemas.
    Discriminator,
    Mapping,
    /// A schema a discriminator's mapping names: a name, or a reference written as text.
    MappedSchema,
    /// Values the document describes (`example`, `default`, `enum`): a `$ref` key there is data.
    Data,
    /// Anything else: a reference there is put in place.
    Other,
}

impl Kind {
    /// The kind of the member `key` (a key, or an index for lists) of a node of this kind.
    fn child(self, key: &str, value: &Value) -> Kind {
        use Kind::*;
        match self {
            Root => match key {
                "paths" | "webhooks" => PathItems,
                "components" => Components,
                // Swagger 2.0's sections.
                "definitions" => Schemas,
                "parameters" => Parameters,
                "responses" => Responses,
                _ => Other,
            },
            Components => match key {
                "schemas" => Schemas,
                "parameters" => Parameters,
                "responses" => Responses,
                "requestBodies" => RequestBodies,
                "headers" => Headers,
                "examples" => Examples,
                "callbacks" => Callbacks,
                "pathItems" => PathItems,
                _ => Other,
            },
            PathItems => PathItem,
            PathItem => match key {
                "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace" | "query" => Operation,
                "parameters" => Parameters,
                "additionalOperations" => Other,
                _ => Other,
            },
            Operation => match key {
                "parameters" => Parameters,
                "requestBody" => RequestBody,
                "responses" => Responses,
                "callbacks" => Callbacks,
                _ => Other,
            },
            Parameters => Parameter,
            Parameter | Header => match key {
                "schema" => Schema,
                "content" => Content,
                "examples" => Examples,
                "example" => Data,
                _ => Other,
            },
            Responses => Response,
            Response => match key {
                "content" => Content,
                "headers" => Headers,
                // Swagger 2.0's response schema and examples.
                "schema" => Schema,
                "examples" => Data,
                _ => Other,
            },
            RequestBodies => RequestBody,
            RequestBody => match key {
                "content" => Content,
                _ => Other,
            },
            Content => MediaType,
            MediaType => match key {
                "schema" => Schema,
                "examples" => Examples,
                "encoding" => Encodings,
                "example" => Data,
                _ => Other,
            },
            Encodings => Encoding,
            Encoding => match key {
                "headers" => Headers,
                _ => Other,
            },
            Headers => Header,
            Examples => Example,
            Example => match key {
                "value" | "dataValue" => Data,
                _ => Other,
            },
            Callbacks => Callback,
            Callback => PathItem,
            Schemas => Schema,
            SchemaList => Schema,
            Schema => match key {
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => Schemas,
                "items" if value.is_array() => SchemaList,
                "allOf" | "anyOf" | "oneOf" | "prefixItems" => SchemaList,
                "items"
                | "additionalProperties"
                | "not"
                | "contains"
                | "if"
                | "then"
                | "else"
                | "propertyNames"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "additionalItems"
                | "contentSchema" => Schema,
                "example" | "examples" | "default" | "enum" | "const" | "x-example" => Data,
                "discriminator" => Discriminator,
                _ => Other,
            },
            Discriminator => match key {
                "mapping" => Mapping,
                _ => Other,
            },
            Mapping => MappedSchema,
            MappedSchema => Data,
            Data => Data,
            Other => Other,
        }
    }

    /// The section a reference of this kind is hoisted into, when it has one.
    fn section(self, swagger2: bool) -> Option<Section> {
        let section = match self {
            Kind::Schema => Section::Schemas,
            Kind::Parameter => Section::Parameters,
            Kind::Response => Section::Responses,
            Kind::RequestBody if !swagger2 => Section::RequestBodies,
            Kind::Header if !swagger2 => Section::Headers,
            Kind::Example if !swagger2 => Section::Examples,
            Kind::Callback if !swagger2 => Section::Callbacks,
            _ => return None,
        };
        Some(section)
    }
}

/// A node to bring into a section under a name already given.
struct Hoist {
    section: Section,
    name: String,
    kind: Kind,
    file: String,
    pointer: String,
    /// The node as read, its references not yet resolved.
    value: Value,
}

struct Bundler<'a> {
    read: ReadFile<'a>,
    parse: ParseFile<'a>,
    allow_outside: bool,
    root_path: String,
    /// Every file read, parsed (`None`: it could not be read or parsed, already reported).
    files: HashMap<String, Option<Value>>,
    texts: BTreeMap<String, String>,
    /// The name each hoisted node (section, file, pointer) was given.
    hoisted: HashMap<(Section, String, String), String>,
    /// The names in use in each section.
    taken: HashMap<Section, HashSet<String>>,
    queue: VecDeque<Hoist>,
    /// Hoisted nodes, walked, in the order they were named.
    placed: Vec<(Section, String, Value)>,
    /// The nodes being put in place, outermost first, to refuse a cycle.
    nesting: Vec<(String, String)>,
    origins: Origins,
    errors: Vec<Diagnostic>,
    /// Set once a bound was passed (files, nodes visited or depth): the tree is refused.
    too_many: bool,
    /// Nodes walked so far, against [`MOST_VISITED`].
    visited: usize,
    /// What the nodes copied from files so far weigh (see [`weight`]).
    copied: usize,
    /// Bytes of the files read so far.
    read_bytes: usize,
    swagger2: bool,
}

impl Bundler<'_> {
    /// Resolves the references in `value`, a node of `kind` written in `file` at `src`, which
    /// will stand at `at` in the bundled document.
    fn walk(&mut self, value: &mut Value, kind: Kind, file: &str, at: &str, src: &str, depth: usize) {
        if kind == Kind::Data || self.too_many {
            return;
        }
        self.visited += 1;
        if self.visited > MOST_VISITED {
            self.refuse(file, src, format!("references put in place copy more than {MOST_VISITED} nodes"));
            return;
        }
        if depth > MOST_DEPTH {
            self.refuse(file, src, format!("nodes nest more than {MOST_DEPTH} deep here"));
            return;
        }
        match value {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get("$ref") {
                    let reference = reference.clone();
                    if let Some(replacement) = self.reference(&reference, map, kind, file, at, src, depth) {
                        *value = replacement;
                    }
                    return;
                }
                for (key, child) in map.iter_mut() {
                    let child_kind = kind.child(key, child);
                    let (at, src) = (format!("{at}/{}", escape(key)), format!("{src}/{}", escape(key)));
                    self.walk(child, child_kind, file, &at, &src, depth + 1);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    let item_kind = match kind {
                        Kind::Parameters => Kind::Parameter,
                        Kind::SchemaList => Kind::Schema,
                        _ => kind.child(&index.to_string(), item),
                    };
                    let (at, src) = (format!("{at}/{index}"), format!("{src}/{index}"));
                    self.walk(item, item_kind, file, &at, &src, depth + 1);
                }
            }
            Value::String(mapped) if kind == Kind::MappedSchema => {
                if let Some(local) = self.mapped_schema(mapped, file, src) {
                    *mapped = local;
                }
            }
            _ => {}
        }
    }

    /// A discriminator's mapping names a schema by name or by reference; one in another file (or,
    /// in another file, one of that file's) becomes the local reference to where it is brought in.
    fn mapped_schema(&mut self, mapped: &str, file: &str, src: &str) -> Option<String> {
        let is_file = |text: &str| {
            let path = text.split_once('#').map_or(text, |(path, _)| path);
            path.starts_with("./")
                || path.starts_with("../")
                || [".yaml", ".yml", ".json"].iter().any(|e| path.ends_with(e))
        };
        // A name, or a pointer into the root, stays as written.
        let in_sub_file = mapped.starts_with('#') && file != self.root_path;
        if !(is_file(mapped) || in_sub_file) {
            return None;
        }
        let mut node = Map::new();
        node.insert("$ref".to_string(), Value::String(mapped.to_string()));
        self.reference(mapped, &mut node, Kind::Schema, file, "", src, 0);
        node.get("$ref").and_then(Value::as_str).map(str::to_string)
    }

    /// What a `$ref` node (`node`, of `kind`, in `file` at `src`) becomes: a new node to stand in
    /// its place, or `None` to leave it (changed in place or not at all).
    #[allow(clippy::too_many_arguments, reason = "the walk's position, passed down as it is")]
    fn reference(
        &mut self,
        reference: &str,
        node: &mut Map<String, Value>,
        kind: Kind,
        file: &str,
        at: &str,
        src: &str,
        depth: usize,
    ) -> Option<Value> {
        let in_root = file == self.root_path;
        // Remote references are not fetched; lowering reports them where they are used.
        if reference.contains("://") || reference.starts_with("urn:") {
            return None;
        }
        let (target_file, pointer) = match self.target(file, reference) {
            Ok(target) => target,
            Err(message) => {
                self.fail(file, src, message);
                return None;
            }
        };
        if target_file == self.root_path {
            // A node of the root: a sub-file's reference to it becomes local; the root's own
            // references stay as written.
            if !in_root {
                node.insert("$ref".to_string(), Value::String(pointer));
            }
            return None;
        }
        if let Some(section) = kind.section(self.swagger2) {
            let home = self.hoisted.get(&(section, target_file.clone(), pointer.clone()));
            // The root's own entry for the node (`Pet: {$ref: ./Pet.yaml}`) is where it is put;
            // every other reference points there.
            if home.is_none_or(|name| section.pointer(self.swagger2, name) != at) {
                if let Some(name) = self.name_of(section, kind, &target_file, &pointer, reference, file, src) {
                    node.insert("$ref".to_string(), Value::String(section.pointer(self.swagger2, &name)));
                }
                return None;
            }
        }
        // Put in place: the target, walked in its own file, with the reference's other keys
        // (a `description` or `summary` beside it) over its own.
        if self.nesting.contains(&(target_file.clone(), pointer.clone())) || self.nesting.len() >= MOST_NESTED {
            let chain: Vec<String> = self.nesting.iter().map(|(f, p)| format!("{f}{p}")).collect();
            self.fail(file, src, format!("`{reference}` leads back to itself, through {}", chain.join(" → ")));
            return None;
        }
        let mut target = self.node(&target_file, &pointer, file, src, reference)?;
        if let Value::String(_) = target {
            return Some(target);
        }
        self.origins.0.insert(at.to_string(), (target_file.clone(), pointer.clone()));
        self.nesting.push((target_file.clone(), pointer.clone()));
        self.walk(&mut target, kind, &target_file, at, &pointer, depth);
        self.nesting.pop();
        if let Value::Object(target_map) = &mut target {
            for (key, value) in node.iter() {
                if key != "$ref" {
                    target_map.insert(key.clone(), value.clone());
                }
            }
        }
        Some(target)
    }

    /// The name the node `pointer` of `target_file` has in `section`, given (and the node queued to
    /// be brought in) on first use; `None`, with the reason reported, when it cannot be read, so
    /// the reference stays as written for lowering to leave out what uses it.
    #[allow(clippy::too_many_arguments, reason = "the reference and where it is written")]
    fn name_of(
        &mut self,
        section: Section,
        kind: Kind,
        target_file: &str,
        pointer: &str,
        reference: &str,
        file: &str,
        src: &str,
    ) -> Option<String> {
        let key = (section, target_file.to_string(), pointer.to_string());
        if let Some(name) = self.hoisted.get(&key) {
            return Some(name.clone());
        }
        let value = self.node(target_file, pointer, file, src, reference)?;
        let wanted = own_name(target_file, pointer);
        let taken = self.taken.entry(section).or_default();
        // Another file's node of the same name takes its directories' names in front, then a number.
        let directories = target_file.rsplit_once('/').map(|(dir, _)| dir.replace(['/', '.'], "_"));
        let prefixed = directories.filter(|d| d.chars().any(char::is_alphanumeric)).map(|d| format!("{d}_{wanted}"));
        let mut name = wanted.clone();
        if taken.contains(&name) {
            name = prefixed.filter(|p| !taken.contains(p)).unwrap_or_default();
        }
        let mut n = 2;
        while name.is_empty() || taken.contains(&name) {
            name = format!("{wanted}{n}");
            n += 1;
        }
        taken.insert(name.clone());
        self.hoisted.insert(key, name.clone());
        self.queue.push_back(Hoist {
            section,
            name: name.clone(),
            kind,
            file: target_file.to_string(),
            pointer: pointer.to_string(),
            value,
        });
        Some(name)
    }

    /// Brings one hoisted node in: resolves the references it holds.
    fn bring(&mut self, hoist: Hoist) {
        let Hoist { section, name, kind, file, pointer, mut value } = hoist;
        let at = section.pointer(self.swagger2, &name);
        self.origins.0.insert(at.clone(), (file.clone(), pointer.clone()));
        self.walk(&mut value, kind, &file, &at, &pointer, 0);
        self.placed.push((section, name, value));
    }

    /// The node at `pointer` in `target_file`, read and parsed on first use; a failure is
    /// reported at the reference (`file`, `src`).
    fn node(&mut self, target_file: &str, pointer: &str, file: &str, src: &str, reference: &str) -> Option<Value> {
        if !self.files.contains_key(target_file) {
            if self.files.len() >= MOST_FILES {
                self.refuse(file, src, format!("the spec is split into more than {MOST_FILES} files"));
                return None;
            }
            let read = (self.read)(target_file);
            if let Ok(text) = &read {
                self.read_bytes = self.read_bytes.saturating_add(text.len());
            }
            let parsed = match read {
                Err(message) => {
                    self.fail(file, src, format!("`{reference}` cannot be read: {message}"));
                    None
                }
                // Prose (a description kept in Markdown) is brought in as text.
                Ok(text) if is_prose(target_file) => {
                    let value = Value::String(text.clone());
                    self.texts.insert(target_file.to_string(), text);
                    Some(value)
                }
                Ok(text) => {
                    let parsed = (self.parse)(&text);
                    self.texts.insert(target_file.to_string(), text);
                    match parsed {
                        Ok(value) => Some(value),
                        Err((message, line)) => {
                            let pointer = format!("{target_file}#");
                            self.errors.push(Diagnostic {
                                severity: crate::diagnostic::Severity::Warning,
                                pointer,
                                line,
                                message: format!("does not parse: {message}"),
                            });
                            None
                        }
                    }
                }
            };
            self.files.insert(target_file.to_string(), parsed);
        }
        let document = self.files.get(target_file)?.as_ref()?;
        let found = match pointer.strip_prefix('#') {
            Some("") | None => Some(document),
            Some(path) => document.pointer(path),
        };
        match found {
            Some(value) => {
                self.copied = self.copied.saturating_add(weight(value));
                let room = self.read_bytes.saturating_mul(MOST_COPY_FACTOR).max(LEAST_COPY_ROOM);
                if self.copied > room {
                    let message = format!(
                        "references copy more than {MOST_COPY_FACTOR} times what the spec's files hold (`{reference}` is copied here once more)"
                    );
                    self.refuse(file, src, message);
                    return None;
                }
                Some(value.clone())
            }
            None => {
                self.fail(file, src, format!("`{reference}` names nothing: `{target_file}` has no `{pointer}`"));
                None
            }
        }
    }

    /// The file and pointer `reference`, written in `file`, names.
    fn target(&self, file: &str, reference: &str) -> Result<(String, String), String> {
        let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let pointer = format!("#{}", percent_decode(fragment));
        if path.is_empty() {
            return Ok((file.to_string(), pointer));
        }
        let path = percent_decode(path);
        // A drive (`C:x.yaml`) or any other scheme-like prefix is not a relative path.
        if path.starts_with('/') || path.contains('\\') || path.contains(':') {
            return Err(format!("`{reference}` is not a path relative to the file it is written in"));
        }
        let directory = file.rsplit_once('/').map_or("", |(dir, _)| dir);
        let joined = if directory.is_empty() { path } else { format!("{directory}/{path}") };
        let normal = normalise(&joined);
        if (normal == ".." || normal.starts_with("../")) && !self.allow_outside {
            return Err(format!(
                "`{reference}` reaches outside the spec's directory (`{normal}`); allow it with `--allow-outside-refs`"
            ));
        }
        Ok((normal, pointer))
    }

    /// Finds the line of each error written in a YAML file read (the root's text is not kept
    /// here: its errors are located by the caller).
    fn locate_errors(&mut self) {
        for error in &mut self.errors {
            let Some((file, pointer)) = error.pointer.split_once('#') else { continue };
            let Some(text) = self.texts.get(file).filter(|t| !t.trim_start().starts_with('{')) else { continue };
            error.line = error.line.or_else(|| crate::front::locate::line_of(text, &format!("#{pointer}")));
        }
    }

    /// Reports a bound passed at `file`'s `src` and stops the walk: the tree is refused whole.
    fn refuse(&mut self, file: &str, src: &str, message: String) {
        if !self.too_many {
            self.too_many = true;
            self.fail(file, src, message);
        }
    }

    fn fail(&mut self, file: &str, src: &str, message: String) {
        let pointer = format!("{}{}", file_prefix(file, &self.root_path), src);
        self.errors.push(Diagnostic { severity: crate::diagnostic::Severity::Warning, pointer, line: None, message });
    }
}

/// How a diagnostic's pointer names a node of `file`: bare for the root, else `file#/…`.
pub fn file_prefix<'a>(file: &'a str, root_path: &str) -> &'a str {
    if file == root_path { "" } else { file }
}

/// A node's own name: its key when the pointer names one, else its file's stem.
fn own_name(file: &str, pointer: &str) -> String {
    match pointer.rsplit_once('/') {
        Some((_, last)) if !last.is_empty() => last.replace("~1", "/").replace("~0", "~"),
        _ => {
            let base = file.rsplit_once('/').map_or(file, |(_, base)| base);
            let stem = base.split_once('.').map_or(base, |(stem, _)| stem);
            if stem.is_empty() { base.to_string() } else { stem.to_string() }
        }
    }
}

/// Whether a file holds prose rather than YAML or JSON, by its extension.
fn is_prose(path: &str) -> bool {
    let extension = path.rsplit_once('.').map_or("", |(_, ext)| ext).to_ascii_lowercase();
    matches!(extension.as_str(), "md" | "markdown" | "txt" | "html" | "htm")
}

/// `a/./b/../c` as `a/c`; leading `..` kept.
fn normalise(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            _ => parts.push(segment),
        }
    }
    parts.join("/")
}

/// `%20` and the like decoded, as references are URIs; an invalid escape is left as written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((high * 16 + low) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_and_decoded() {
        assert_eq!(normalise("a/./b/../c.yaml"), "a/c.yaml");
        assert_eq!(normalise("../x/../y.yaml"), "../y.yaml");
        assert_eq!(percent_decode("my%20file.yaml"), "my file.yaml");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(own_name("schemas/Pet.v1.yaml", "#"), "Pet");
        assert_eq!(own_name("common.yaml", "#/components/schemas/Error"), "Error");
        assert_eq!(own_name("headers.yml", "#/ratelimit-limit"), "ratelimit-limit");
    }
}
