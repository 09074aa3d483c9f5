//! Leaving out what cannot be represented (a lenient run, not `Config::strict`): the schemas and operations
//! that failed, then everything that depends on them, each recorded as a located warning.

use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexMap;

use crate::diagnostic::{Diagnostic, Pointer};
use crate::ir::{Api, Method, TypeId};

/// A part of the spec that is generated whole or not at all.
#[derive(Debug, Clone)]
pub(crate) enum Unit {
    /// A component schema, by Rust name.
    Schema {
        name: String,
    },
    Operation {
        id: String,
        method: Method,
        path: String,
    },
    /// A path item the generator cannot read at all.
    Path {
        path: String,
    },
}

impl LeftOut {
    pub(crate) fn is_operation(&self) -> bool {
        matches!(self.what, Unit::Operation { .. } | Unit::Path { .. })
    }
}

impl Unit {
    fn describe(&self) -> String {
        match self {
            Unit::Schema { name, .. } => format!("schema `{name}`"),
            Unit::Operation { id, method, path, .. } => format!("operation `{id}` ({} {path})", method.as_str()),
            Unit::Path { path, .. } => format!("every operation of {path}"),
        }
    }
}

/// A unit that failed to lower, with the problems that decided it.
#[derive(Debug, Clone)]
pub(crate) struct LeftOut {
    pub what: Unit,
    pub problems: Vec<Diagnostic>,
}

/// Removes from `api` every type and operation that mentions a type no longer there (transitively),
/// and records in `api.warnings` what went and why. `names` are the names of the type handles
/// given out so far.
pub(crate) fn leave_out(
    api: &mut Api,
    schema_names: &IndexMap<String, String>,
    names: &[String],
    left_out: Vec<LeftOut>,
) {
    let named = |id: TypeId| names[id.index()].as_str();
    let mut notes = Vec::new();
    for unit in &left_out {
        let what = unit.what.describe();
        for problem in &unit.problems {
            notes.push(Diagnostic {
                severity: crate::diagnostic::Severity::Warning,
                pointer: problem.pointer.clone(),
                line: None,
                message: format!("left out {what}: {}", problem.message),
            });
        }
    }
    // For each missing type, the left-out schema it goes back to.
    let mut cause: BTreeMap<String, String> = left_out
        .iter()
        .filter_map(|unit| match &unit.what {
            Unit::Schema { name, .. } => Some((name.clone(), name.clone())),
            _ => None,
        })
        .collect();
    let component_of: BTreeMap<&str, &str> =
        schema_names.iter().map(|(spec, rust)| (rust.as_str(), spec.as_str())).collect();
    loop {
        let present: BTreeSet<String> = api.types.iter().map(|t| t.name().to_string()).collect();
        let mut removed = Vec::new();
        api.types.retain(|t| match first_missing(&present, |f| t.visit_types(&mut |id| f(named(id)))) {
            None => true,
            Some(missing) => {
                removed.push((t.name().to_string(), missing));
                false
            }
        });
        if removed.is_empty() {
            break;
        }
        for (name, missing) in removed {
            let root = cause.get(&missing).cloned().unwrap_or(missing);
            if let Some(spec) = component_of.get(name.as_str()) {
                let pointer = Pointer::root().push("components").push("schemas").push(spec).to_string();
                notes.push(Diagnostic {
                    severity: crate::diagnostic::Severity::Warning,
                    pointer,
                    line: None,
                    message: format!("left out schema `{name}`: it uses `{root}`, which was left out"),
                });
            }
            cause.insert(name, root);
        }
    }
    let present: BTreeSet<String> = api.types.iter().map(|t| t.name().to_string()).collect();
    let mut gone = Vec::new();
    api.operations.retain(|op| match first_missing(&present, |f| op.visit_types(&mut |id| f(named(id)))) {
        None => true,
        Some(missing) => {
            let root = cause.get(&missing).cloned().unwrap_or(missing);
            let pointer = Pointer::root().push("paths").push(&op.path).push(op.method.as_str().to_ascii_lowercase());
            gone.push(format!("{pointer}/"));
            notes.push(Diagnostic {
                severity: crate::diagnostic::Severity::Warning,
                pointer: pointer.to_string(),
                line: None,
                message: format!(
                    "left out operation `{}` ({} {}): it uses `{root}`, which was left out",
                    op.id,
                    op.method.as_str(),
                    op.path
                ),
            });
            false
        }
    });
    drop_orphans(api, &component_of, names);
    api.credentials = super::only_used(std::mem::take(&mut api.credentials), &mut api.operations);
    // What was said about the inside of an operation that is gone no longer concerns anyone.
    api.warnings.retain(|w| !gone.iter().any(|op| w.pointer.starts_with(op.as_str())));
    notes.append(&mut api.warnings);
    notes.sort();
    notes.dedup();
    api.warnings = notes;
}

/// The first named type that `visit` mentions and `present` lacks.
fn first_missing(present: &BTreeSet<String>, visit: impl FnOnce(&mut dyn FnMut(&str))) -> Option<String> {
    let mut missing = None;
    let mut check = |name: &str| {
        if missing.is_none() && !present.contains(name) {
            missing = Some(name.to_string());
        }
    };
    visit(&mut check);
    missing
}

/// Removes inline types nothing refers to any more (those of a left-out schema or operation);
/// component schemas stay, since the spec names them for their own sake.
fn drop_orphans(api: &mut Api, component_of: &BTreeMap<&str, &str>, names: &[String]) {
    let by_name: BTreeMap<&str, &crate::ir::TypeDef> = api.types.iter().map(|t| (t.name(), t)).collect();
    let mut stack: Vec<String> =
        api.types.iter().map(|t| t.name()).filter(|n| component_of.contains_key(n)).map(str::to_string).collect();
    for op in &api.operations {
        op.visit_types(&mut |id| stack.push(names[id.index()].clone()));
    }
    let mut reached = BTreeSet::new();
    while let Some(name) = stack.pop() {
        if let Some(t) = by_name.get(name.as_str()).filter(|_| !reached.contains(&name)) {
            t.visit_types(&mut |id| stack.push(names[id.index()].clone()));
            reached.insert(name);
        }
    }
    api.types.retain(|t| reached.contains(t.name()));
}
