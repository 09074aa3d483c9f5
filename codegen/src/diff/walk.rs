//! The walk: operations matched by method and path, then each one's parameters, body, replies
//! and errors, following named types into their fields with the direction they travel in.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Display;

use super::{Change, Crates, Semver};
use crate::ir::{
    Api, Body, Constraints, ErrorStatus, Location, Operation, Param, Reply, StructDef, TypeDef, TypeId, TypeRef,
};

/// Which way a value travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Direction {
    /// From client to server.
    Request,
    /// From server to client.
    Reply,
}

/// How the set of values allowed at a place moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shift {
    /// Neither way, or only in a way every party ignores (an optional member added).
    Neutral,
    /// More values are allowed.
    Widened,
    /// Fewer values are allowed.
    Narrowed,
    /// Some values are no longer allowed and others are new.
    Changed,
}

impl Shift {
    /// Who breaks: clients when what they send is narrowed or what they read is widened, servers
    /// the other way round.
    fn breaks(self, direction: Direction) -> (bool, bool) {
        match (self, direction) {
            (Shift::Neutral, _) => (false, false),
            (Shift::Changed, _) => (true, true),
            (Shift::Narrowed, Direction::Request) | (Shift::Widened, Direction::Reply) => (true, false),
            (Shift::Widened, Direction::Request) | (Shift::Narrowed, Direction::Reply) => (false, true),
        }
    }
}

/// An operation's parameters by where they travel (a path parameter by its position, as its name
/// is not on the wire), each with its label: `query limit`.
fn by_place<'p>(path: &str, params: &'p [Param]) -> BTreeMap<String, (String, &'p Param)> {
    params
        .iter()
        .map(|p| {
            let location = p.location.as_str();
            let label = format!("{location} {}", p.wire);
            let position = path.find(&format!("{{{}}}", p.wire)).map(|at| path[..at].matches('{').count());
            let place = match (p.location, position) {
                (Location::Path, Some(position)) => format!("path #{position}"),
                _ => label.clone(),
            };
            (place, (label, p))
        })
        .collect()
}

/// What each kind of change does to each generated crate's own public API (the client and server
/// re-export the types crate, and all three share one version, so the version moves as far as the
/// furthest). Generated structs and enums are `#[non_exhaustive]`, built with `new(required…)` and
/// `with_<field>` setters, so a member that may be left out (an optional field, an enum value, an
/// error) is an addition; one every value must name (a required field: a constructor argument) or
/// a removal is not.
mod rust {
    use super::{Crates, Semver};

    /// A named type's shape changed (a field removed or retyped, a required field added, a
    /// variant removed).
    pub const SHAPE: Crates = Crates { types: Semver::Major, client: Semver::None, server: Semver::None };
    /// A member added to a named type where values may leave it out: an optional field and its
    /// setter, a variant.
    pub const ADDITION: Crates = Crates { types: Semver::Minor, client: Semver::None, server: Semver::None };
    /// Only what servers check changed (a limit, a pattern).
    pub const CHECKS: Crates = Crates { types: Semver::Patch, client: Semver::Patch, server: Semver::Patch };
    /// An operation's inputs changed: the client's builder and the server's input struct.
    pub const INPUTS: Crates = Crates { types: Semver::None, client: Semver::Major, server: Semver::Major };
    /// An optional input added: a new builder setter, and a new field of the server's input.
    pub const OPTIONAL_INPUT: Crates = Crates { types: Semver::None, client: Semver::Minor, server: Semver::Minor };
    /// A required input added: an argument of the client's method, a new field of the server's
    /// input.
    pub const REQUIRED_INPUT: Crates = Crates { types: Semver::None, client: Semver::Major, server: Semver::Minor };
    /// An operation added: a new client method, and a new trait method every server must write.
    pub const OPERATION_ADDED: Crates = Crates { types: Semver::None, client: Semver::Minor, server: Semver::Major };
}

pub(super) fn changes(old: &Api, new: &Api) -> Vec<Change> {
    let mut walker =
        Walker { old, new, found: BTreeMap::new(), seen: HashSet::new(), from: String::new(), surface: rust::INPUTS };
    walker.operations();
    walker.type_names();
    walker.credential_schemes();
    walker.found.into_values().collect()
}

/// The names of every type the types crate declares for `api`.
fn type_names(api: &Api) -> BTreeSet<&str> {
    let per_operation = api.operations.iter().flat_map(|op| {
        let errors = op.errors.iter().map(|e| e.name.as_str());
        let replies = match &op.reply {
            Reply::Several(replies) => Some(replies.name.as_str()),
            _ => None,
        };
        let bodies = op.body.as_ref().and_then(|b| b.choice.as_ref()).map(|c| c.name.as_str());
        errors.chain(replies).chain(bodies)
    });
    api.types.iter().map(TypeDef::name).chain(per_operation).collect()
}

struct Walker<'a> {
    old: &'a Api,
    new: &'a Api,
    /// By id, so a change reached from several operations is one.
    found: BTreeMap<String, Change>,
    /// Pairs of types compared within the current operation, for recursive schemas.
    seen: HashSet<(TypeId, TypeId, Direction)>,
    /// The operation being walked.
    from: String,
    /// The crates whose public API holds the value being compared: the client's and server's
    /// signatures for an operation's parameters, body and reply; the types crate too for the
    /// members of a named type.
    surface: Crates,
}

/// An operation's identity on the wire: its method and path, parameters' names left out.
fn key(op: &Operation) -> String {
    let mut path = String::new();
    let mut in_name = false;
    for c in op.path.chars() {
        match c {
            '{' => {
                in_name = true;
                path.push_str("{}");
            }
            '}' => in_name = false,
            _ if in_name => {}
            c => path.push(c),
        }
    }
    format!("{} {path}", op.method.as_str())
}

impl Walker<'_> {
    /// Records a change whose effect on the wire follows from how it shifts values travelling
    /// in `direction`.
    fn shift(&mut self, at: &str, what: String, shift: Shift, direction: Direction, rust: Crates) {
        let (clients, servers) = shift.breaks(direction);
        let way = match direction {
            Direction::Request => "request",
            Direction::Reply => "reply",
        };
        let from = format!("{} ({way})", self.from);
        self.record(at, what, clients, servers, rust, Some(from));
    }

    fn record(&mut self, at: &str, what: String, clients: bool, servers: bool, rust: Crates, from: Option<String>) {
        let id = format!("{at}: {what}");
        let change = self.found.entry(id.clone()).or_insert_with(|| Change {
            id,
            at: at.to_string(),
            what,
            breaks_clients: false,
            breaks_servers: false,
            rust: Crates::default(),
            reached_from: Vec::new(),
            accepted: None,
        });
        change.breaks_clients |= clients;
        change.breaks_servers |= servers;
        change.rust = change.rust.max(rust);
        if let Some(from) = from.filter(|f| !change.reached_from.contains(f)) {
            change.reached_from.push(from);
        }
    }

    /// Types the types crate gains or loses (a schema no operation reaches any more, an error
    /// enum of an operation removed).
    fn type_names(&mut self) {
        let (old, new) = (type_names(self.old), type_names(self.new));
        for name in old.difference(&new) {
            self.record(name, "type removed".into(), false, false, rust::SHAPE, None);
        }
        for name in new.difference(&old) {
            self.record(name, "type added".into(), false, false, rust::ADDITION, None);
        }
    }

    /// Credentials the API takes: the client's `Credentials` and the server's request context
    /// have a field per scheme.
    fn credential_schemes(&mut self) {
        let schemes = |api: &Api| -> BTreeSet<String> { api.credentials.iter().map(|c| c.scheme.clone()).collect() };
        let (old, new) = (schemes(self.old), schemes(self.new));
        for scheme in old.difference(&new) {
            self.record("credentials", format!("scheme `{scheme}` removed"), false, false, rust::INPUTS, None);
        }
        for scheme in new.difference(&old) {
            self.record("credentials", format!("scheme `{scheme}` added"), false, false, rust::INPUTS, None);
        }
    }

    fn operations(&mut self) {
        fn by_key(api: &Api) -> BTreeMap<String, &Operation> {
            api.operations.iter().map(|op| (key(op), op)).collect()
        }
        let (old, new) = (by_key(self.old), by_key(self.new));
        // In Rust an operation is its method's name: one moved to another path or HTTP method
        // keeps it.
        let names = |ops: &BTreeMap<String, &Operation>| -> BTreeSet<String> {
            ops.values().map(|op| op.fn_name.clone()).collect()
        };
        let (old_names, new_names) = (names(&old), names(&new));
        for (key, op) in &old {
            if !new.contains_key(key) {
                let what = format!("operation `{}` removed", op.id);
                let rust = if new_names.contains(&op.fn_name) { Crates::default() } else { rust::INPUTS };
                self.record(key, what, true, false, rust, None);
            }
        }
        for (key, op) in &new {
            match old.get(key) {
                None => {
                    let what = format!("operation `{}` added", op.id);
                    let rust = if old_names.contains(&op.fn_name) { Crates::default() } else { rust::OPERATION_ADDED };
                    self.record(key, what, false, false, rust, None);
                }
                Some(old_op) => self.operation(key, old_op, op),
            }
        }
    }

    fn operation(&mut self, at: &str, old: &Operation, new: &Operation) {
        self.from = at.to_string();
        self.seen.clear();
        self.surface = rust::INPUTS;
        if old.fn_name != new.fn_name {
            let what = format!("renamed in Rust from `{}` to `{}`", old.fn_name, new.fn_name);
            self.record(at, what, false, false, rust::INPUTS, None);
        }
        if !old.deprecated && new.deprecated {
            self.record(at, "deprecated".to_string(), false, false, Crates::all(Semver::Patch), None);
        }
        self.params(at, old, new);
        self.body(at, old.body.as_ref(), new.body.as_ref());
        self.reply(at, &old.reply, &new.reply);
        self.errors(at, old, new);
        self.credentials(at, old, new);
    }

    fn params(&mut self, at: &str, old: &Operation, new: &Operation) {
        let (old, new) = (by_place(&old.path, &old.params), by_place(&new.path, &new.params));
        let request = Direction::Request;
        for (place, (name, param)) in &old {
            if !new.contains_key(place) {
                // Old clients still send it and the server ignores it; new clients leave out
                // what old servers may still require.
                let shift = if param.required { Shift::Widened } else { Shift::Neutral };
                self.shift(&format!("{at} › {name}"), "parameter removed".into(), shift, request, rust::INPUTS);
            }
        }
        for (place, (name, param)) in &new {
            let here = format!("{at} › {name}");
            let Some((_, was)) = old.get(place) else {
                let (shift, rust) = if param.required {
                    (Shift::Narrowed, rust::REQUIRED_INPUT)
                } else {
                    (Shift::Neutral, rust::OPTIONAL_INPUT)
                };
                let what = if param.required { "required parameter added" } else { "optional parameter added" };
                self.shift(&here, what.into(), shift, request, rust);
                continue;
            };
            if was.name != param.name {
                let what = format!("renamed in Rust from `{}` to `{}`", was.name, param.name);
                // A path parameter is an argument of the client's method, whose name is not API.
                let rust = match param.location {
                    Location::Path => Crates { client: Semver::None, ..rust::INPUTS },
                    _ => rust::INPUTS,
                };
                self.record(&here, what, false, false, rust, None);
            }
            self.required(&here, "parameter", was.required, param.required, request, rust::INPUTS);
            self.types(&was.ty, &param.ty, request, &here);
            self.constraints(&was.constraints, &param.constraints, request, &here);
        }
    }

    /// A member made required or optional.
    fn required(&mut self, at: &str, member: &str, was: bool, is: bool, direction: Direction, rust: Crates) {
        match (was, is) {
            (false, true) => self.shift(at, format!("{member} made required"), Shift::Narrowed, direction, rust),
            (true, false) => self.shift(at, format!("{member} made optional"), Shift::Widened, direction, rust),
            _ => {}
        }
    }

    fn body(&mut self, at: &str, old: Option<&Body>, new: Option<&Body>) {
        let here = format!("{at} › body");
        let request = Direction::Request;
        match (old, new) {
            (None, None) => {}
            (None, Some(body)) => {
                let (shift, rust) = match body.required {
                    true => (Shift::Narrowed, rust::REQUIRED_INPUT),
                    false => (Shift::Neutral, rust::OPTIONAL_INPUT),
                };
                self.shift(&here, "request body added".into(), shift, request, rust);
            }
            (Some(body), None) => {
                let shift = if body.required { Shift::Widened } else { Shift::Neutral };
                self.shift(&here, "request body removed".into(), shift, request, rust::INPUTS);
            }
            (Some(old), Some(new)) => {
                self.required(&here, "request body", old.required, new.required, request, rust::INPUTS);
                let (was, is) = (media_types(old), media_types(new));
                // A body the document describes per media type is an enum with a case for each.
                let rust = if old.choice.is_some() || new.choice.is_some() { rust::SHAPE } else { rust::CHECKS };
                for media in was.difference(&is) {
                    self.shift(&here, format!("`{media}` no longer accepted"), Shift::Narrowed, request, rust);
                }
                for media in is.difference(&was) {
                    self.shift(&here, format!("`{media}` accepted"), Shift::Widened, request, rust);
                }
                self.types(&old.ty, &new.ty, request, &here);
            }
        }
    }

    fn reply(&mut self, at: &str, old: &Reply, new: &Reply) {
        let reply = Direction::Reply;
        let here = format!("{at} › reply");
        match (old, new) {
            (Reply::Empty { status: a, headers: ha, .. }, Reply::Empty { status: b, headers: hb, .. }) => {
                self.status(&here, *a, *b);
                self.headers(&here, ha.as_ref(), hb.as_ref());
            }
            (
                Reply::Json { status: a, ty: ta, headers: ha, .. },
                Reply::Json { status: b, ty: tb, headers: hb, .. },
            ) => {
                self.status(&here, *a, *b);
                self.types(ta, tb, reply, &format!("{here} {b}"));
                self.headers(&here, ha.as_ref(), hb.as_ref());
            }
            (
                Reply::Download { status: a, content_type: ca, .. },
                Reply::Download { status: b, content_type: cb, .. },
            ) => {
                self.status(&here, *a, *b);
                if ca != cb {
                    let what = format!("content type changed from `{ca}` to `{cb}`");
                    self.shift(&here, what, Shift::Changed, reply, rust::CHECKS);
                }
            }
            (
                Reply::Stream { status: a, item: ia, framing: fa, .. },
                Reply::Stream { status: b, item: ib, framing: fb, .. },
            ) => {
                self.status(&here, *a, *b);
                if fa != fb {
                    let what = format!("framing changed from {fa:?} to {fb:?}");
                    self.shift(&here, what, Shift::Changed, reply, rust::CHECKS);
                }
                self.types(ia, ib, reply, &format!("{here} {b} item"));
            }
            (Reply::Several(a), Reply::Several(b)) => {
                for case in &a.cases {
                    match b.cases.iter().find(|c| c.status == case.status) {
                        // Old servers may still answer with it, and new clients refuse it.
                        None => {
                            let what = format!("reply {} removed", case.status);
                            self.shift(&here, what, Shift::Narrowed, reply, rust::SHAPE);
                        }
                        Some(new_case) => {
                            let here = format!("{here} {}", case.status);
                            match (&case.body, &new_case.body) {
                                (Some(ta), Some(tb)) => self.types(ta, tb, reply, &here),
                                (None, None) => {}
                                _ => self.shift(&here, "body changed".into(), Shift::Changed, reply, rust::SHAPE),
                            }
                            self.headers(&here, case.headers.as_ref(), new_case.headers.as_ref());
                        }
                    }
                }
                for case in b.cases.iter().filter(|c| a.cases.iter().all(|o| o.status != c.status)) {
                    let what = format!("reply {} added", case.status);
                    // The replies' enum is exhaustive: the generated crates match every case.
                    self.shift(&here, what, Shift::Widened, reply, rust::SHAPE);
                }
            }
            (Reply::Upgrade { .. }, Reply::Upgrade { .. }) => {}
            (a, b) => {
                let what = format!("changed from {} to {}", reply_kind(a), reply_kind(b));
                self.shift(&here, what, Shift::Changed, reply, rust::INPUTS);
            }
        }
    }

    /// The success status changed: old clients refuse the new one, new clients the old.
    fn status(&mut self, at: &str, old: u16, new: u16) {
        if old != new {
            let what = format!("status changed from {old} to {new}");
            self.shift(at, what, Shift::Changed, Direction::Reply, rust::CHECKS);
        }
    }

    /// A reply's documented headers. The first or the last of them changes the reply's Rust type
    /// (a tuple with the headers' struct), so that is a change of the client and server.
    fn headers(&mut self, at: &str, old: Option<&StructDef>, new: Option<&StructDef>) {
        let reply = Direction::Reply;
        let here = format!("{at} headers");
        match (old, new) {
            (None, None) => {}
            (None, Some(new)) => {
                // Old servers do not send a header the reply now requires.
                let shift = if new.fields.iter().any(|f| f.required) { Shift::Narrowed } else { Shift::Neutral };
                self.shift(&here, format!("`{}` added", new.name), shift, reply, rust::INPUTS);
            }
            (Some(old), None) => {
                let shift = if old.fields.iter().any(|f| f.required) { Shift::Widened } else { Shift::Neutral };
                self.shift(&here, format!("`{}` removed", old.name), shift, reply, rust::INPUTS);
            }
            (Some(old), Some(new)) => self.structs(&here, old, new, reply),
        }
    }

    fn errors(&mut self, at: &str, old: &Operation, new: &Operation) {
        let status = |s: &ErrorStatus| match s {
            ErrorStatus::Exact(code) => code.to_string(),
            ErrorStatus::Class(class) => format!("{class}XX"),
            ErrorStatus::Default => "default".to_string(),
        };
        let cases = |op: &Operation| -> BTreeMap<String, TypeRef> {
            op.errors.iter().flat_map(|e| &e.cases).map(|c| (status(&c.status), c.body.clone())).collect()
        };
        let (a, b) = (cases(old), cases(new));
        let here = format!("{at} › error");
        // Any client meets undocumented errors; only the Rust enum of documented ones changes.
        for code in a.keys().filter(|code| !b.contains_key(*code)) {
            self.record(&here, format!("error {code} removed"), false, false, rust::SHAPE, None);
        }
        for (code, body) in &b {
            match a.get(code) {
                None => self.record(&here, format!("error {code} added"), false, false, rust::ADDITION, None),
                Some(was) => self.types(was, body, Direction::Reply, &format!("{here} {code}")),
            }
        }
    }

    fn credentials(&mut self, at: &str, old: &Operation, new: &Operation) {
        let schemes = |api: &Api, op: &Operation| -> BTreeSet<String> {
            op.credentials.iter().map(|&i| api.credentials[i].scheme.clone()).collect()
        };
        let (a, b) = (schemes(self.old, old), schemes(self.new, new));
        let request = Direction::Request;
        for scheme in b.difference(&a) {
            let what = format!("credentials `{scheme}` required");
            self.shift(at, what, Shift::Narrowed, request, Crates::all(Semver::Patch));
        }
        for scheme in a.difference(&b) {
            let what = format!("credentials `{scheme}` no longer required");
            self.shift(at, what, Shift::Widened, request, Crates::all(Semver::Patch));
        }
    }

    /// Compares the values two type references allow, at `at`.
    fn types(&mut self, old: &TypeRef, new: &TypeRef, direction: Direction, at: &str) {
        // An alias stands for its target.
        let unalias = |api: &Api, ty: &TypeRef| match ty {
            TypeRef::Named(id) => match api.ty(*id) {
                TypeDef::Alias { target, .. } => Some(target.clone()),
                _ => None,
            },
            _ => None,
        };
        if let Some(target) = unalias(self.old, old) {
            return self.types(&target, new, direction, at);
        }
        if let Some(target) = unalias(self.new, new) {
            return self.types(old, &target, direction, at);
        }
        match (old, new) {
            (TypeRef::Named(a), TypeRef::Named(b)) => self.named(*a, *b, direction),
            (TypeRef::Vec(a), TypeRef::Vec(b)) => self.types(a, b, direction, &format!("{at}[]")),
            (TypeRef::Map(a), TypeRef::Map(b)) => self.types(a, b, direction, &format!("{at}{{}}")),
            (TypeRef::Nullable(a), TypeRef::Nullable(b)) => self.types(a, b, direction, at),
            (TypeRef::Nullable(a), b) => {
                self.shift(at, "no longer null".into(), Shift::Narrowed, direction, self.surface);
                self.types(a, b, direction, at);
            }
            (a, TypeRef::Nullable(b)) => {
                self.shift(at, "may be null".into(), Shift::Widened, direction, self.surface);
                self.types(a, b, direction, at);
            }
            (a, b) if a == b => {}
            (a, b) => {
                let what =
                    format!("type changed from {} to {}", self.describe(self.old, a), self.describe(self.new, b));
                self.shift(at, what, primitive_shift(a, b), direction, self.surface);
            }
        }
    }

    fn describe(&self, api: &Api, ty: &TypeRef) -> String {
        match ty {
            TypeRef::String => "string".into(),
            TypeRef::Bool => "boolean".into(),
            TypeRef::I32 => "32-bit integer".into(),
            TypeRef::I64 => "64-bit integer".into(),
            TypeRef::F32 => "32-bit number".into(),
            TypeRef::F64 => "number".into(),
            TypeRef::Uuid => "uuid".into(),
            TypeRef::DateTime => "date-time".into(),
            TypeRef::Json => "any JSON".into(),
            TypeRef::Bytes => "bytes".into(),
            TypeRef::File => "file".into(),
            TypeRef::Vec(item) => format!("list of {}", self.describe(api, item)),
            TypeRef::Map(value) => format!("map of {}", self.describe(api, value)),
            TypeRef::Nullable(inner) => format!("{} or null", self.describe(api, inner)),
            TypeRef::Named(id) => format!("`{}`", api.name_of(*id)),
            TypeRef::BodyChoice(name) => format!("`{name}`"),
        }
    }

    fn named(&mut self, a: TypeId, b: TypeId, direction: Direction) {
        if !self.seen.insert((a, b, direction)) {
            return;
        }
        let outer = std::mem::replace(&mut self.surface, rust::SHAPE);
        self.named_members(a, b, direction);
        self.surface = outer;
    }

    fn named_members(&mut self, a: TypeId, b: TypeId, direction: Direction) {
        let (old, new) = (self.old.ty(a), self.new.ty(b));
        let name = new.name().to_string();
        if old.name() != new.name() {
            let what = format!("renamed in Rust from `{}`", old.name());
            self.record(&name, what, false, false, rust::SHAPE, None);
        }
        match (old, new) {
            (TypeDef::Struct(a), TypeDef::Struct(b)) => self.structs(&name, a, b, direction),
            (TypeDef::IntEnum(a), TypeDef::IntEnum(b)) => {
                let values = |v: &[(String, i64)]| v.iter().map(|(_, n)| n.to_string()).collect();
                self.values(&name, values(&a.variants), values(&b.variants), direction);
            }
            (TypeDef::StringEnum(a), TypeDef::StringEnum(b)) => {
                let values = |v: &[(String, String)]| v.iter().map(|(_, s)| format!("\"{s}\"")).collect();
                self.values(&name, values(&a.variants), values(&b.variants), direction);
            }
            (TypeDef::Union(a), TypeDef::Union(b)) => {
                for variant in &a.variants {
                    match b.variants.iter().find(|v| v.name == variant.name) {
                        None => {
                            let what = format!("variant `{}` removed", variant.name);
                            self.shift(&name, what, Shift::Narrowed, direction, rust::SHAPE);
                        }
                        Some(now) => {
                            self.types(&variant.ty, &now.ty, direction, &format!("{name}::{}", now.name));
                        }
                    }
                }
                for variant in b.variants.iter().filter(|v| a.variants.iter().all(|o| o.name != v.name)) {
                    let what = format!("variant `{}` added", variant.name);
                    self.shift(&name, what, Shift::Widened, direction, rust::ADDITION);
                }
            }
            (a, b) => {
                let what = format!("changed from {} to {}", type_kind(a), type_kind(b));
                self.shift(&name, what, Shift::Changed, direction, rust::SHAPE);
            }
        }
    }

    /// An enum's listed values.
    fn values(&mut self, at: &str, old: BTreeSet<String>, new: BTreeSet<String>, direction: Direction) {
        for value in old.difference(&new) {
            self.shift(at, format!("value {value} removed"), Shift::Narrowed, direction, rust::SHAPE);
        }
        for value in new.difference(&old) {
            self.shift(at, format!("value {value} added"), Shift::Widened, direction, rust::ADDITION);
        }
    }

    fn structs(&mut self, name: &str, old: &StructDef, new: &StructDef, direction: Direction) {
        for field in &old.fields {
            if new.fields.iter().any(|f| f.wire == field.wire) {
                continue;
            }
            let shift = match direction {
                // Clients that read it miss it, whether or not it was required.
                Direction::Reply => Shift::Widened,
                // New clients leave out what old servers may require; old clients' copy is
                // ignored unless the object is now closed.
                Direction::Request if field.required => Shift::Widened,
                Direction::Request if new.closed => Shift::Narrowed,
                Direction::Request => Shift::Neutral,
            };
            self.shift(&format!("{name}.{}", field.wire), "field removed".into(), shift, direction, rust::SHAPE);
        }
        for field in &new.fields {
            let at = format!("{name}.{}", field.wire);
            let Some(was) = old.fields.iter().find(|f| f.wire == field.wire) else {
                let (shift, what) = match (field.required, old.closed) {
                    (true, _) => (Shift::Narrowed, "required field added"),
                    // A closed object refused it before.
                    (false, true) => (Shift::Widened, "optional field added"),
                    (false, false) => (Shift::Neutral, "optional field added"),
                };
                // A required field that may be null is no constructor argument.
                let rust = if field.required && !field.nullable { rust::SHAPE } else { rust::ADDITION };
                self.shift(&at, what.into(), shift, direction, rust);
                continue;
            };
            self.required(&at, "field", was.required, field.required, direction, rust::SHAPE);
            match (was.nullable, field.nullable) {
                (false, true) => self.shift(&at, "may be null".into(), Shift::Widened, direction, rust::SHAPE),
                (true, false) => self.shift(&at, "no longer null".into(), Shift::Narrowed, direction, rust::SHAPE),
                _ => {}
            }
            self.types(&was.ty, &field.ty, direction, &at);
            self.constraints(&was.constraints, &field.constraints, direction, &at);
        }
        match (old.closed, new.closed) {
            (false, true) => {
                let what = "other properties refused".to_string();
                self.shift(name, what, Shift::Narrowed, direction, rust::CHECKS);
            }
            (true, false) => {
                let what = "other properties allowed".to_string();
                self.shift(name, what, Shift::Widened, direction, rust::CHECKS);
            }
            _ => {}
        }
        match (&old.extra, &new.extra) {
            (None, Some(_)) => {
                self.shift(name, "takes other properties".into(), Shift::Widened, direction, rust::ADDITION)
            }
            (Some(_), None) => {
                self.shift(name, "keeps no other properties".into(), Shift::Narrowed, direction, rust::SHAPE)
            }
            (Some((_, a)), Some((_, b))) => self.types(a, b, direction, &format!("{name}{{}}")),
            (None, None) => {}
        }
    }

    fn constraints(&mut self, old: &Constraints, new: &Constraints, direction: Direction, at: &str) {
        self.bound(at, "minLength", old.min_length, new.min_length, true, direction);
        self.bound(at, "maxLength", old.max_length, new.max_length, false, direction);
        self.bound(at, "minItems", old.min_items, new.min_items, true, direction);
        self.bound(at, "maxItems", old.max_items, new.max_items, false, direction);
        self.bound(at, "minProperties", old.min_properties, new.min_properties, true, direction);
        self.bound(at, "maxProperties", old.max_properties, new.max_properties, false, direction);
        self.bound(at, "minimum", old.minimum, new.minimum, true, direction);
        self.bound(at, "maximum", old.maximum, new.maximum, false, direction);
        self.flag(at, "exclusiveMinimum", old.exclusive_minimum, new.exclusive_minimum, direction);
        self.flag(at, "exclusiveMaximum", old.exclusive_maximum, new.exclusive_maximum, direction);
        self.flag(at, "uniqueItems", old.unique_items, new.unique_items, direction);
        self.exact(at, "multipleOf", old.multiple_of, new.multiple_of, direction);
        self.exact(at, "pattern", old.pattern.as_ref(), new.pattern.as_ref(), direction);
        self.exact(at, "format", old.format.map(|f| format!("{f:?}")), new.format.map(|f| format!("{f:?}")), direction);
        let nested =
            [(&old.items, &new.items, "[]"), (&old.values, &new.values, "{}"), (&old.keys, &new.keys, " keys")];
        for (a, b, suffix) in nested {
            if a.is_none() && b.is_none() {
                continue;
            }
            let none = Constraints::default();
            let (a, b) = (a.as_deref().unwrap_or(&none), b.as_deref().unwrap_or(&none));
            self.constraints(a, b, direction, &format!("{at}{suffix}"));
        }
    }

    /// A lower (`lower`) or upper bound set, moved or dropped.
    fn bound<T: PartialOrd + Display + Copy>(
        &mut self,
        at: &str,
        name: &str,
        old: Option<T>,
        new: Option<T>,
        lower: bool,
        direction: Direction,
    ) {
        let (what, tighter) = match (old, new) {
            (None, None) => return,
            (Some(a), Some(b)) if a == b => return,
            (None, Some(b)) => (format!("{name} {b} set"), true),
            (Some(a), None) => (format!("{name} {a} dropped"), false),
            (Some(a), Some(b)) => (format!("{name} changed from {a} to {b}"), if lower { b > a } else { b < a }),
        };
        let shift = if tighter { Shift::Narrowed } else { Shift::Widened };
        self.shift(at, what, shift, direction, rust::CHECKS);
    }

    fn flag(&mut self, at: &str, name: &str, old: bool, new: bool, direction: Direction) {
        match (old, new) {
            (false, true) => self.shift(at, format!("{name} set"), Shift::Narrowed, direction, rust::CHECKS),
            (true, false) => self.shift(at, format!("{name} dropped"), Shift::Widened, direction, rust::CHECKS),
            _ => {}
        }
    }

    /// A constraint that is either met or not (a pattern, a format): adding one narrows,
    /// dropping one widens, changing one does both.
    fn exact<T: PartialEq + Display>(
        &mut self,
        at: &str,
        name: &str,
        old: Option<T>,
        new: Option<T>,
        direction: Direction,
    ) {
        let (what, shift) = match (old, new) {
            (None, None) => return,
            (Some(a), Some(b)) if a == b => return,
            (None, Some(b)) => (format!("{name} `{b}` set"), Shift::Narrowed),
            (Some(a), None) => (format!("{name} `{a}` dropped"), Shift::Widened),
            (Some(a), Some(b)) => (format!("{name} changed from `{a}` to `{b}`"), Shift::Changed),
        };
        self.shift(at, what, shift, direction, rust::CHECKS);
    }
}

/// How a change of one plain type for another moves the values allowed.
fn primitive_shift(old: &TypeRef, new: &TypeRef) -> Shift {
    use TypeRef::*;
    let wider = |a: &TypeRef, b: &TypeRef| {
        matches!((a, b), (I32, I64 | F64) | (I64, F64) | (F32, F64) | (Uuid | DateTime, String) | (_, Json))
    };
    if wider(old, new) {
        Shift::Widened
    } else if wider(new, old) {
        Shift::Narrowed
    } else {
        Shift::Changed
    }
}

/// Every media type a request body is taken in.
fn media_types(body: &Body) -> BTreeSet<&str> {
    let xml = body.xml.iter().flat_map(|xml| &xml.media_types);
    body.accepted.iter().chain(&body.also_form).chain(xml).map(String::as_str).collect()
}

fn reply_kind(reply: &Reply) -> &'static str {
    match reply {
        Reply::Empty { .. } => "no body",
        Reply::Json { .. } => "a JSON body",
        Reply::Download { .. } => "a download",
        Reply::Stream { .. } => "a stream",
        Reply::Several(_) => "several statuses",
        Reply::Upgrade { .. } => "a protocol switch",
    }
}

fn type_kind(ty: &TypeDef) -> &'static str {
    match ty {
        TypeDef::Struct(_) => "an object",
        TypeDef::IntEnum(_) => "an integer enum",
        TypeDef::StringEnum(_) => "a string enum",
        TypeDef::Union(_) => "a choice of schemas",
        TypeDef::Alias { .. } => "an alias",
    }
}
