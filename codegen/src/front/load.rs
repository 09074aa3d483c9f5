//! Parsing spec text (YAML or JSON) into `openapiv3::OpenAPI`, converting Swagger 2.0 on the way.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use openapiv3::OpenAPI;
use serde::Deserialize;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::front::bundle::{self, Origins, ReadFile};
use crate::front::overlay::{self, Overlay};
use crate::front::{isolate, locate, markers, openapi31, repair, swagger2};

/// Malformed schemas and operations a document may have set aside before it is refused whole:
/// past this many, it is not a document with slips but something else.
const MOST_SET_ASIDE: usize = 100;

/// A parsed spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The document, in the OpenAPI 3.0 model.
    pub doc: OpenAPI,
    /// What converting a Swagger 2.0 document and repairing slips (see `repair`) changed,
    /// located in the document as written.
    pub notes: Vec<Diagnostic>,
    /// Whether the document was Swagger 2.0, so its diagnostics' pointers refer to the converted
    /// form.
    pub converted: bool,
    /// Whether the document's JSON Schema counts as integers only numbers written without a
    /// fraction or an exponent: draft 4's reading, which Swagger 2.0 and OpenAPI 3.0 use (OpenAPI
    /// 3.1 counts `1.0` too).
    pub integers_as_written: bool,
}

/// A spec that could not be parsed, with the line and column where parsing stopped when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// 1-based line of the offending text, when the parser reports one.
    pub line: Option<usize>,
    /// 1-based column of the offending text, when the parser reports one.
    pub column: Option<usize>,
    /// The JSON pointer of the node that does not fit the model, when the fault is one.
    pub pointer: Option<String>,
    /// What the parser said.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "line {line}, column {column}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for LoadError {}

/// Parses an OpenAPI 3.0 document, or a Swagger 2.0, OpenAPI 3.1 or 3.2 one converted to the 3.0
/// model; any other version is refused, naming it. Text whose first non-blank character is `{`
/// is read as JSON, anything else as YAML (of which JSON is a subset, but the JSON parser gives
/// better messages). References to other files are left as written; [`load_files`] follows them.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    typed_from(text, parse(text)?, &|| parse(text), &|pointer| locate::line_of(text, pointer))
}

/// A spec split across files: the root document and what it needs to read the others.
#[derive(Clone, Copy)]
pub struct SpecFiles<'a> {
    /// The root document's path, relative to the directory `read` reads from: `openapi.yaml`.
    pub root: &'a str,
    /// Reads a file by its `/`-separated path relative to that directory.
    pub read: ReadFile<'a>,
    /// Whether references may reach outside that directory (`../shared/errors.yaml`).
    pub allow_outside: bool,
    /// OpenAPI Overlay 1.0 documents, as (path, text), applied in order to the description once
    /// the files it refers to are brought in, before anything else reads it.
    pub overlays: &'a [(String, String)],
}

/// The files a document was read from, to say in which file and on which line a diagnostic's node
/// is written.
#[derive(Debug)]
pub struct Sources {
    root: String,
    origins: Origins,
    texts: BTreeMap<String, String>,
    unfollowed: Vec<Diagnostic>,
    /// The document bundled from several files or changed by overlays, before conversion.
    bundled: Option<Value>,
}

impl Sources {
    /// Each reference to another file that could not be followed (a file that does not exist or
    /// parse, a pointer that names nothing, a path outside the spec's directory), located where it
    /// is written. It was left as written: what uses it is left out, with its own warning.
    pub fn unfollowed(&self) -> &[Diagnostic] {
        &self.unfollowed
    }

    /// The document as read: the root file's text when it stands alone, else the bundled tree as
    /// JSON.
    pub fn document(&self) -> crate::ir::Document {
        let (text, json) = match &self.bundled {
            // Written out only when a server crate asks for it.
            Some(bundled) => (serde_json::to_string_pretty(bundled).unwrap_or_default() + "\n", true),
            None => {
                let text = self.texts.get(&self.root).cloned().unwrap_or_default();
                let json = text.trim_start().starts_with('{');
                (text, json)
            }
        };
        crate::ir::Document { text, media_type: if json { "application/json" } else { "application/yaml" } }
    }

    /// The bytes of every file read.
    pub fn bytes_read(&self) -> usize {
        self.texts.values().map(String::len).sum()
    }

    /// How many files besides the root document were read.
    pub fn read_beside_root(&self) -> usize {
        self.texts.len().saturating_sub(1)
    }

    /// Rewrites each diagnostic's pointer, a pointer into the bundled document, as the file and
    /// pointer of the node as written (`schemas/Pet.yaml#/properties/id`; the root's without a
    /// file), and finds its line where the file is YAML.
    pub fn locate(&self, diagnostics: &mut [Diagnostic]) {
        let mut locators: HashMap<&str, Option<locate::Locator<'_>>> = HashMap::new();
        for d in diagnostics {
            let (file, pointer) = self.origins.source(&d.pointer);
            let file = file.unwrap_or(&self.root);
            let locator = locators.entry(file).or_insert_with(|| {
                let text = self.texts.get(file)?;
                (!text.trim_start().starts_with('{')).then(|| locate::Locator::new(text))
            });
            if d.line.is_none() || file != self.root {
                d.line = locator.as_mut().and_then(|l| l.line_of(&pointer));
            }
            d.pointer = format!("{}{pointer}", crate::front::bundle::file_prefix(file, &self.root));
        }
    }
}

/// Loads the root document of `files` and every file it refers to, as one document; with where
/// each part came from. Every problem is reported located in the file it is written in.
pub fn load_files(files: SpecFiles<'_>) -> Result<(Loaded, Sources), Vec<Diagnostic>> {
    let at_root = |error: LoadError| {
        vec![Diagnostic {
            severity: crate::diagnostic::Severity::Error,
            pointer: "#".to_string(),
            line: error.line,
            message: format!("the spec does not parse: {error}"),
        }]
    };
    let text = (files.read)(files.root).map_err(|message| {
        vec![Diagnostic {
            severity: crate::diagnostic::Severity::Error,
            pointer: "#".to_string(),
            line: None,
            message: format!("`{}` cannot be read: {message}", files.root),
        }]
    })?;
    let (root, notes) = parse(&text).map_err(at_root)?;
    let mut texts = BTreeMap::new();
    let (value, origins, unfollowed) = if bundle::refers_outside(&root) {
        let parse_file = |text: &str| parse(text).map(|(value, _)| value).map_err(|e| (e.to_string(), e.line));
        let mut bundled = bundle::bundle(files.root, root, files.read, files.allow_outside, &parse_file)?;
        // The root's own references are located in its text.
        for d in bundled.unfollowed.iter_mut().filter(|d| d.pointer.starts_with('#')) {
            d.line = locate::line_of(&text, &d.pointer);
        }
        texts = bundled.texts;
        (bundled.value, bundled.origins, bundled.unfollowed)
    } else {
        (root, Origins::default(), Vec::new())
    };
    let mut value = value;
    if !files.overlays.is_empty() {
        let overlays: Vec<Overlay<'_>> = files
            .overlays
            .iter()
            .map(|(path, text)| Overlay {
                path,
                text,
                parsed: parse(text).map(|(v, _)| v).map_err(|e| (e.to_string(), e.line)),
            })
            .collect();
        overlay::apply(&mut value, &overlays)?;
    }
    texts.insert(files.root.to_string(), text);
    let mut sources = Sources { root: files.root.to_string(), origins, texts, unfollowed, bundled: None };
    let text = &sources.texts[files.root];
    // Typing again after a failure needs the document again: a copy is kept only when it was
    // made from several files or changed by overlays (one file is parsed again instead). The same
    // copy is the document a server crate serves.
    let copy = (!sources.origins.is_empty() || !files.overlays.is_empty()).then(|| value.clone());
    let again = || match &copy {
        Some(value) => Ok((value.clone(), notes.clone())),
        None => parse(text),
    };
    let loaded = typed_from(text, (value, notes.clone()), &again, &|_| None).map_err(|error| {
        // The typing error names a pointer into the bundled document; say where it is written.
        let mut diagnostics = vec![Diagnostic {
            severity: crate::diagnostic::Severity::Error,
            pointer: error.pointer.clone().unwrap_or_else(|| "#".to_string()),
            line: error.line,
            message: error.message.clone(),
        }];
        sources.locate(&mut diagnostics);
        diagnostics
    });
    let loaded = loaded?;
    sources.bundled = copy;
    Ok((loaded, sources))
}

/// The typed document from a parsed one (`first`), converted and repaired; `again` parses it anew
/// when typing fails and the fault must be found, and `line_of` finds a pointer's line.
fn typed_from(
    text: &str,
    first: (Value, Vec<Diagnostic>),
    again: &dyn Fn() -> Result<(Value, Vec<Diagnostic>), LoadError>,
    line_of: &dyn Fn(&str) -> Option<usize>,
) -> Result<Loaded, LoadError> {
    let (value, notes, converted, integers_as_written) = prepared(text, first)?;
    // Typing consumes the value, so its memory is reused as the typed document is built; only a
    // document that does not type is prepared again, to find and locate the node at fault.
    if let Ok(doc) = OpenAPI::deserialize(value) {
        return Ok(Loaded { doc, notes, converted, integers_as_written });
    }
    let (mut value, notes, converted, integers_as_written) = prepared(text, again()?)?;
    // A few malformed schemas or operations are set aside, each where it is, and the rest loads;
    // lowering reports each where it is used. A fault anywhere else stops the document.
    let mut set_aside = 0;
    let (pointer, message) = loop {
        match typed(&value) {
            Ok(doc) => return Ok(Loaded { doc, notes, converted, integers_as_written }),
            Err((pointer, message))
                if set_aside < MOST_SET_ASIDE && isolate::set_aside(&mut value, &pointer, &message) =>
            {
                set_aside += 1;
            }
            Err(fault) => break fault,
        }
    };
    Err(if converted {
        LoadError {
            line: None,
            column: None,
            pointer: None,
            message: format!("the Swagger 2.0 document does not convert to OpenAPI 3.0: at {pointer}: {message}"),
        }
    } else {
        LoadError {
            line: line_of(&pointer),
            column: None,
            message: format!("at {pointer}: {message}"),
            pointer: Some(pointer),
        }
    })
}

/// The document as a JSON value in the OpenAPI 3.0 form, ready to type: `parsed` from `text`,
/// converted from Swagger 2.0 or OpenAPI 3.1/3.2, and repaired; with the notes on what changed,
/// whether it was Swagger 2.0, and whether its integers are read as written (see [`Loaded`]).
fn prepared(text: &str, parsed: (Value, Vec<Diagnostic>)) -> Result<(Value, Vec<Diagnostic>, bool, bool), LoadError> {
    let (mut value, mut notes) = parsed;
    check_version(text, &value)?;
    if swagger2::is_swagger2(&value) {
        let (mut converted, converting) = swagger2::convert(&value);
        notes.extend(converting);
        notes.extend(repair::repair(&mut converted));
        return Ok((converted, notes, true, true));
    }
    let openapi31 = openapi31::is_openapi31(&value);
    if openapi31 {
        notes.extend(openapi31::convert(&mut value));
    }
    notes.extend(repair::repair(&mut value));
    keep_query_operations(&mut value);
    Ok((value, notes, false, !openapi31))
}

/// The typed model has no slot for a path's `query` operation (OpenAPI 3.2), so it moves to an
/// extension, which the model keeps and lowering reads.
fn keep_query_operations(value: &mut Value) {
    let Some(Value::Object(paths)) = value.get_mut("paths") else { return };
    for item in paths.values_mut() {
        let Value::Object(item) = item else { continue };
        if let Some(query) = item.remove("query") {
            item.insert(markers::QUERY_OPERATION.to_string(), query);
        }
    }
}

/// Refuses a document whose version the generator does not read, naming the version.
fn check_version(text: &str, value: &Value) -> Result<(), LoadError> {
    const READ: &str = "Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 are read";
    let refuse = |pointer: &str, message: String| LoadError {
        line: locate::line_of(text, pointer),
        column: None,
        pointer: Some(pointer.to_string()),
        message,
    };
    let field = |key: &str| value.get(key).map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
    match (field("openapi"), field("swagger")) {
        (Some(version), _) if ["3.0.", "3.1.", "3.2."].iter().any(|p| version.starts_with(p)) => Ok(()),
        (Some(version), _) => {
            Err(refuse("#/openapi", format!("`openapi: {version}` is not a version this generator reads; {READ}")))
        }
        (None, Some(version)) if version.starts_with("2.") => Ok(()),
        (None, Some(version)) => {
            Err(refuse("#/swagger", format!("`swagger: {version}` is not a version this generator reads; {READ}")))
        }
        (None, None) if value.is_object() => {
            Err(refuse("#", format!("the document has no `openapi` (or `swagger`) field saying its version; {READ}")))
        }
        (None, None) => Err(refuse("#", format!("the document is not a mapping; {READ}"))),
    }
}

/// The document typed, or the JSON pointer of the innermost node that does not fit and why.
fn typed(value: &Value) -> Result<OpenAPI, (String, String)> {
    let error = match serde_path_to_error::deserialize::<_, OpenAPI>(value) {
        Ok(doc) => return Ok(doc),
        Err(error) => error,
    };
    let mut pointer = String::from("#");
    for segment in error.path().iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            serde_path_to_error::Segment::Map { key } => pointer.push_str(&format!("/{}", escape(key))),
            _ => {}
        }
    }
    let message = error.into_inner().to_string();
    // A schema is an untagged choice (a `$ref` or a schema), so the parser stops at the outermost
    // schema or map of schemas and says little; look inside for the node at fault.
    let in_schema = pointer.split('/').any(|segment| segment == "schemas" || segment == "schema");
    if (in_schema || message.contains("did not match any variant"))
        && let Some(node) = value.pointer(&pointer[1..])
        && let Some(fault) = schema_fault(node, &pointer, pointer.ends_with("/schemas"))
    {
        return Err(fault);
    }
    Err((pointer, message))
}

/// The innermost node under `node` that is not a schema, with the reason. `map` says `node` is a
/// map of named schemas rather than one schema.
fn schema_fault(node: &Value, at: &str, map: bool) -> Option<(String, String)> {
    let is_schema = |v: &Value| openapiv3::ReferenceOr::<openapiv3::Schema>::deserialize(v).is_ok();
    let Value::Object(members) = node else {
        return (!map && !is_schema(node))
            .then(|| (at.to_string(), format!("a schema must be a mapping, not {}", kind(node))));
    };
    if map {
        return members.iter().find(|(_, v)| !is_schema(v)).map(|(name, v)| {
            let at = format!("{at}/{}", escape(name));
            schema_fault(v, &at, false).unwrap_or_else(|| (at, "this is not a valid schema".to_string()))
        });
    }
    if is_schema(node) {
        return None;
    }
    // Children that are schemas themselves, then maps of schemas.
    for key in ["items", "not", "additionalProperties"] {
        if let Some(child @ Value::Object(_)) = members.get(key)
            && let Some(fault) = schema_fault(child, &format!("{at}/{key}"), false)
        {
            return Some(fault);
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(Value::Array(items)) = members.get(key) {
            for (i, item) in items.iter().enumerate() {
                if let Some(fault) = schema_fault(item, &format!("{at}/{key}/{i}"), false) {
                    return Some(fault);
                }
            }
        }
    }
    if let Some(properties) = members.get("properties") {
        let at = format!("{at}/properties");
        let Value::Object(properties) = properties else {
            return Some((at, format!("`properties` must map names to schemas, not be {}", kind(properties))));
        };
        for (name, property) in properties {
            if !property.is_object() {
                let hint = if ["nullable", "type", "format", "description", "default", "required", "readOnly"]
                    .contains(&name.as_str())
                {
                    format!("; `{name}` may belong one level up, beside `properties`")
                } else {
                    String::new()
                };
                return Some((
                    format!("{at}/{}", escape(name)),
                    format!("property `{name}` must be a schema (a mapping), not {}{hint}", kind(property)),
                ));
            }
            if let Some(fault) = schema_fault(property, &format!("{at}/{}", escape(name)), false) {
                return Some(fault);
            }
        }
    }
    // The fault is in this schema's own keywords: typed as a schema alone, the parser names it.
    let reason = match openapiv3::Schema::deserialize(node) {
        Err(e) => e.to_string(),
        Ok(_) => "this is neither a `$ref` nor a valid schema".to_string(),
    };
    Some((at.to_string(), reason))
}

/// What kind of JSON value `value` is, for messages.
fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{n}`"),
        Value::String(s) => format!("the string `{s}`"),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "a mapping".to_string(),
    }
}

/// A key as a JSON pointer segment.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Reads YAML or JSON text into a JSON value, refusing a key given twice in one mapping: YAML
/// parsers keep the last silently, which would drop a schema or an operation without a word.
/// `crumb` is where the value sits; a duplicate is recorded in `duplicate` (the pointer of its
/// mapping and the key) for the error to locate both occurrences.
///
/// In YAML, a `<<` key merges the mapping it holds (or each of a list of them) into the mapping
/// it stands in, as YAML 1.1 defines and documents written with anchors rely on; the mapping's own
/// keys win, and an earlier mapping's over a later one's. In JSON `<<` is a key like any other;
/// in YAML a quoted `'<<'` merges too, as the parser does not say how a key was written.
#[derive(Clone, Copy)]
struct Strict<'a> {
    crumb: Crumb<'a>,
    duplicate: &'a RefCell<Option<(String, String)>>,
    yaml: bool,
    size: &'a Size,
}

/// How much of the document has been read, in nodes and string bytes, against how much it may
/// grow to: YAML aliases repeat what their anchor holds, so a short text can stand for a
/// document far larger than itself. Without aliases a document weighs less than its text.
struct Size {
    weight: std::cell::Cell<usize>,
    most: usize,
}

impl Size {
    /// Room for a document expanded to [`MOST_EXPANSION`] times its text, and at least
    /// [`LEAST_EXPANSION_ROOM`].
    fn for_text(text: &str) -> Size {
        let most = text.len().saturating_mul(MOST_EXPANSION).max(LEAST_EXPANSION_ROOM);
        Size { weight: std::cell::Cell::new(0), most }
    }

    /// Counts a node holding `bytes` of text; past the room, the error that refuses the text.
    fn add<E: serde::de::Error>(&self, bytes: usize) -> Result<(), E> {
        let weight = self.weight.get().saturating_add(1).saturating_add(bytes);
        self.weight.set(weight);
        if weight > self.most {
            return Err(E::custom(format!(
                "the document's aliases expand it past {MOST_EXPANSION} times the size of its text; write the repeated parts once, as components"
            )));
        }
        Ok(())
    }
}

/// How many times the size of its text a document may weigh once YAML aliases are expanded.
const MOST_EXPANSION: usize = 8;

/// The weight any document may reach however short its text: a million nodes and bytes.
const LEAST_EXPANSION_ROOM: usize = 1 << 20;

/// YAML's merge key.
const MERGE: &str = "<<";

/// A step from the document root to a value, borrowed from the parser's loop: no allocation
/// unless a pointer is needed.
#[derive(Clone, Copy)]
enum Crumb<'a> {
    Root,
    Key(&'a Crumb<'a>, &'a str),
    Index(&'a Crumb<'a>, usize),
}

impl Crumb<'_> {
    fn pointer(&self) -> String {
        match self {
            Crumb::Root => "#".to_string(),
            Crumb::Key(parent, key) => format!("{}/{}", parent.pointer(), escape(key)),
            Crumb::Index(parent, index) => format!("{}/{index}", parent.pointer()),
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON or YAML value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(v.into())
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(v.into())
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(v.into())
    }

    /// An integer wider than 64 bits (`-9223372036854776000`, a float's spelling of `i64::MIN`)
    /// is kept as the nearest float; where it stands as a limit, the repairs say what it became.
    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(i64::try_from(v).map_or_else(|_| float(v as f64), Value::from))
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(u64::try_from(v).map_or_else(|_| float(v as f64), Value::from))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(float(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        self.size.add(v.len())?;
        Ok(v.into())
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        self.size.add(v.len())?;
        Ok(v.into())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(Value::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        self.size.add(0)?;
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        serde::de::DeserializeSeed::deserialize(self, deserializer)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.size.add(0)?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            let crumb = Crumb::Index(&self.crumb, items.len());
            match seq.next_element_seed(Strict { crumb, ..self })? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.size.add(0)?;
        let mut object = serde_json::Map::new();
        // Keys that came from a merged mapping, which the mapping's own keys may replace.
        let mut merged = std::collections::HashSet::new();
        while let Some(Key(key)) = map.next_key()? {
            self.size.add(key.len())?;
            // The value of a `<<` that is no merge, read already.
            let mut read = None;
            if self.yaml && key == MERGE {
                let value = map.next_value_seed(Strict { crumb: Crumb::Key(&self.crumb, &key), ..self })?;
                let sources = match value {
                    Value::Array(items) if items.iter().all(Value::is_object) => items,
                    source @ Value::Object(_) => vec![source],
                    // Not a merge: a key like any other, to be reported where it is read.
                    other => {
                        read = Some(other);
                        Vec::new()
                    }
                };
                let sources = sources.into_iter().filter_map(|source| match source {
                    Value::Object(source) => Some(source),
                    _ => None,
                });
                for (name, value) in sources.flatten() {
                    if !object.contains_key(&name) {
                        merged.insert(name.clone());
                        object.insert(name, value);
                    }
                }
                if read.is_none() {
                    continue;
                }
            }
            if object.contains_key(&key) && !merged.remove(&key) {
                *self.duplicate.borrow_mut() = Some((self.crumb.pointer(), key.clone()));
                return Err(serde::de::Error::custom(format!("the key `{key}` appears twice in one mapping")));
            }
            let value = match read {
                Some(value) => value,
                None => map.next_value_seed(Strict { crumb: Crumb::Key(&self.crumb, &key), ..self })?,
            };
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// A float as a JSON number; JSON has none for NaN and the infinities, which become null.
fn float(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// A mapping key as text: YAML keys such as `200:` or `true:` are scalars of other types.
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let unused = RefCell::new(None);
        // A key is counted where it stands, by the mapping that holds it.
        let unbounded = Size { weight: std::cell::Cell::new(0), most: usize::MAX };
        let seed = Strict { crumb: Crumb::Root, duplicate: &unused, yaml: false, size: &unbounded };
        match serde::de::DeserializeSeed::deserialize(seed, deserializer)? {
            Value::String(text) => Ok(Key(text)),
            Value::Null => Ok(Key("null".to_string())),
            scalar @ (Value::Bool(_) | Value::Number(_)) => Ok(Key(scalar.to_string())),
            _ => Err(serde::de::Error::custom("a mapping key must be a single value, not a list or a mapping")),
        }
    }
}

/// The text as a JSON value, with a note where the text held more than the document; a syntax
/// error or a repeated key names its line.
fn parse(text: &str) -> Result<(Value, Vec<Diagnostic>), LoadError> {
    // A byte-order mark says only that the text is UTF-8, which it already is here; neither
    // parser reads one.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let duplicate = RefCell::new(None);
    let json = text.trim_start().starts_with('{');
    let size = Size::for_text(text);
    let seed = Strict { crumb: Crumb::Root, duplicate: &duplicate, yaml: !json, size: &size };
    let result = if json {
        serde::de::DeserializeSeed::deserialize(seed, &mut serde_json::Deserializer::from_str(text))
            .map(|value| (value, Vec::new()))
            .map_err(|e| LoadError {
                line: Some(e.line()),
                column: Some(e.column()),
                pointer: None,
                message: e.to_string(),
            })
    } else if let Some((line, column)) = flow_too_deep(text) {
        Err(LoadError {
            line: Some(line),
            column: Some(column),
            pointer: None,
            message: format!("flow collections (`[` and `{{`) nest more than {MOST_FLOW_DEPTH} deep"),
        })
    } else {
        yaml_stream(text, seed).map_err(|e| {
            let location = e.location();
            LoadError {
                line: location.as_ref().map(|l| l.line()),
                column: location.as_ref().map(|l| l.column()),
                pointer: None,
                message: e.to_string(),
            }
        })
    };
    let Some((mapping, key)) = duplicate.into_inner() else { return result };
    let first = locate::line_of(text, &format!("{mapping}/{}", escape(&key)));
    let second = first.and_then(|line| locate::repeat_of(text, line));
    let lines = match (first, second) {
        (Some(first), Some(second)) => format!(" (lines {first} and {second})"),
        _ => String::new(),
    };
    Err(LoadError {
        line: second.or(first),
        column: None,
        pointer: Some(mapping.clone()),
        message: format!(
            "the key `{key}` appears twice in {mapping}{lines}; a YAML or JSON parser would keep only the last"
        ),
    })
}

/// How deep YAML flow collections may nest: as deep as the YAML reader recurses. Checked before
/// it reads the text, whose scanner slows with the square of the nesting (100,000 levels take
/// it a minute).
const MOST_FLOW_DEPTH: usize = 128;

/// Where, if anywhere, YAML `text` opens a flow collection more than [`MOST_FLOW_DEPTH`] deep,
/// as the line and column of its `[` or `{`.
///
/// A streaming YAML 1.2 reader follows the nesting exactly; it is stricter than the one that
/// reads the document, and where it stops at something it refuses, the rest is counted bracket by
/// bracket, which can only see nesting deeper than it is, never miss it where brackets are not
/// quoted.
fn flow_too_deep(text: &str) -> Option<(usize, usize)> {
    use saphyr_parser::{Event, Parser};
    let mut depth = 0usize;
    for event in Parser::new_from_str(text) {
        match event {
            Ok((Event::SequenceStart(..) | Event::MappingStart(..), span)) => {
                depth += 1;
                if depth > MOST_FLOW_DEPTH {
                    return Some((span.start.line(), span.start.col() + 1));
                }
            }
            Ok((Event::SequenceEnd | Event::MappingEnd, _)) => depth = depth.saturating_sub(1),
            Ok(_) => {}
            Err(error) if error.info().contains("recursion limit") => {
                return Some((error.marker().line(), error.marker().col() + 1));
            }
            Err(error) => return bracket_depth(text, error.marker().index(), depth),
        }
    }
    None
}

/// Where brackets in `text` from byte `from` on, counted naively from `depth`, open deeper than
/// [`MOST_FLOW_DEPTH`].
fn bracket_depth(text: &str, from: usize, mut depth: usize) -> Option<(usize, usize)> {
    let start = text.char_indices().map(|(at, _)| at).nth(from).unwrap_or(text.len());
    for (at, c) in text[start..].char_indices() {
        match c {
            '[' | '{' => {
                depth += 1;
                if depth > MOST_FLOW_DEPTH {
                    let before = &text[..start + at];
                    let line = before.matches('\n').count() + 1;
                    let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
                    return Some((line, column));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The document of a YAML stream. A stream may hold several (`---` between them): the first that
/// names its `openapi` or `swagger` version is read, with a note on the others; empty ones hold
/// nothing to note.
fn yaml_stream(text: &str, seed: Strict) -> Result<(Value, Vec<Diagnostic>), serde_yaml_ng::Error> {
    let mut documents = Vec::new();
    for document in serde_yaml_ng::Deserializer::from_str(text) {
        let value = serde::de::DeserializeSeed::deserialize(seed, document)?;
        if !value.is_null() {
            documents.push(value);
        }
    }
    let is_api = |value: &Value| value.get("openapi").or_else(|| value.get("swagger")).is_some();
    let chosen = documents.iter().position(is_api).unwrap_or(0);
    let mut notes = Vec::new();
    if documents.len() > 1 {
        let apis = documents.iter().filter(|d| is_api(d)).count();
        let others = match apis {
            1 => String::new(),
            n => format!(", {} of the others OpenAPI or Swagger documents too", n - 1),
        };
        let message = format!(
            "the file is a YAML stream of {} documents; document {} is read and the rest ignored{others}: give each its own file",
            documents.len(),
            chosen + 1
        );
        notes.push(Diagnostic {
            severity: crate::diagnostic::Severity::Warning,
            pointer: "#".to_string(),
            line: None,
            message,
        });
    }
    Ok((if documents.is_empty() { Value::Null } else { documents.swap_remove(chosen) }, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_errors_name_the_line() {
        let text = "openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a: [unclosed\n";
        let err = load(text).unwrap_err();
        assert_eq!(err.line, Some(7), "{err}");
        let err = load(&text.replace("openapi: 3.0.3", "swagger: '2.0'")).unwrap_err();
        assert_eq!(err.line, Some(7), "a Swagger document's syntax errors are located too: {err}");
    }

    #[test]
    fn json_errors_name_line_and_column() {
        let err = load("{\n  \"openapi\": \"3.0.3\",\n  \"info\": 5\n}").unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
        assert!(err.message.starts_with("at #/info: invalid type: integer `5`"), "{err}");
        let err = load("{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\n}").unwrap_err();
        assert_eq!((err.line, err.column.is_some()), (Some(4), true), "a syntax error has a column: {err}");
    }

    #[test]
    fn minimal_documents_load_from_yaml_and_json() {
        let yaml = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n";
        let json = r#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}"#;
        assert_eq!(load(yaml).unwrap().doc, load(json).unwrap().doc);
        // A byte-order mark before either is no part of the document.
        assert_eq!(load(&format!("\u{feff}{yaml}")).unwrap().doc, load(yaml).unwrap().doc);
        assert_eq!(load(&format!("\u{feff}{json}")).unwrap().doc, load(json).unwrap().doc);
    }

    #[test]
    fn a_yaml_stream_reads_its_api_document_and_says_so() {
        let api = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n";
        let text = format!("kind: ConfigMap\n---\n{api}---\n");
        let loaded = load(&text).unwrap();
        assert_eq!(loaded.doc, load(api).unwrap().doc);
        let note = loaded.notes.iter().find(|n| n.pointer == "#").expect("a note on the stream");
        assert!(note.message.contains("a YAML stream of 2 documents; document 2 is read"), "{}", note.message);
        // A document ended by `---` and nothing more is one document.
        assert!(load(&format!("{api}---\n")).unwrap().notes.is_empty());
    }

    #[test]
    fn yaml_merge_keys_merge_and_the_mappings_own_keys_win() {
        let text = "\
a: &base {x: 1, y: 2}
b: &more {y: 3, z: 4}
one: {<<: *base, y: 9}
list: {w: 0, <<: [*base, *more]}
in_a_list: [{<<: *base}]
";
        let (value, _) = parse(text).unwrap();
        assert_eq!(value["one"], serde_json::json!({"x": 1, "y": 9}));
        // Earlier mappings win over later ones; keys stand where the merge stood.
        assert_eq!(value["list"], serde_json::json!({"w": 0, "x": 1, "y": 2, "z": 4}));
        let keys: Vec<_> = value["list"].as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["w", "x", "y", "z"]);
        assert_eq!(value["in_a_list"], serde_json::json!([{"x": 1, "y": 2}]));
        // A key given twice by the mapping itself is still refused.
        let err = parse("a: &base {x: 1}\nb: {<<: *base, x: 2, x: 3}\n").unwrap_err();
        assert!(err.message.contains("`x` appears twice"), "{err}");
        // A `<<` holding no mapping is a key like any other, given once.
        assert_eq!(parse("m: {<<: 1}\n").unwrap().0["m"], serde_json::json!({"<<": 1}));
        assert!(parse("m: {<<: 1, <<: 2}\n").unwrap_err().message.contains("`<<` appears twice"));
        // In JSON, `<<` is a key like any other.
        let (json, _) = parse(r#"{"m": {"<<": {"x": 1}}}"#).unwrap();
        assert_eq!(json["m"], serde_json::json!({"<<": {"x": 1}}));
    }
}
