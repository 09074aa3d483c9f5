//! Cargo features per tag (`Config::tag_features`): each tag in use becomes a feature, each
//! operation is compiled by the features of its tags, and each type by the features of every
//! operation that reaches it; the schemas no operation reaches, by a feature of their own.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::ir::{Api, TagFeatures, TypeDef, TypeId};
use heck::ToKebabCase;

use crate::naming::Scope;

/// Features the generated manifests define for themselves, which no tag may take.
const RESERVED: &[&str] = &["all-tags", "client", "default", "document", "rustls", "server", "time", UNUSED_SCHEMAS];

/// The feature that compiles the schemas no operation reaches.
pub const UNUSED_SCHEMAS: &str = "unused-schemas";

/// Names a feature for every tag the operations use and records, on each operation and in
/// [`Api::tag_features`], which features compile what. `parents` (child tag, parent tag) are
/// OpenAPI 3.2's nested tags: a parent's feature turns on its children's.
pub(super) fn assign(api: &mut Api, parents: &[(String, String)]) {
    let mut scope = Scope::with_reserved(RESERVED);
    let mut by_tag: HashMap<String, String> = HashMap::new();
    let mut features = Vec::new();
    for op in &mut api.operations {
        let mut mine = Vec::new();
        for tag in &op.tags {
            let feature = by_tag.entry(tag.clone()).or_insert_with(|| {
                let feature = scope.claim(&feature_name(tag));
                features.push(feature.clone());
                feature
            });
            if !mine.contains(feature) {
                mine.push(feature.clone());
            }
        }
        op.features = mine;
    }
    let children = nest(parents, &mut by_tag, &mut features, &mut scope, &mut api.warnings);

    // What each type is reached from: `None` once an always-compiled operation reaches it.
    let mut reached: BTreeMap<TypeId, Option<BTreeSet<String>>> = BTreeMap::new();
    for op in &api.operations {
        let gate: Option<BTreeSet<String>> = (!op.features.is_empty()).then(|| op.features.iter().cloned().collect());
        let mut roots = Vec::new();
        op.visit_types(&mut |id| roots.push(id));
        spread(api, &mut reached, roots, gate);
    }
    // Schemas no operation reaches get a feature of their own, off by default: in a large
    // description they are most of the types (GitHub's webhook payloads), and compiling them in
    // every build would make a build with one tag as slow as one with all. What they refer to is
    // compiled with them.
    let merged = |t: &TypeDef| matches!(t, TypeDef::Alias { merged: true, .. });
    let unused: Vec<TypeId> =
        api.types_with_ids().filter(|(id, t)| !reached.contains_key(id) && !merged(t)).map(|(id, _)| id).collect();
    let unused_feature = (!unused.is_empty()).then(|| UNUSED_SCHEMAS.to_string());
    if let Some(feature) = &unused_feature {
        spread(api, &mut reached, unused, Some(BTreeSet::from([feature.clone()])));
    }
    // A merged name is compiled with the type it names.
    for (id, t) in api.types_with_ids() {
        if let TypeDef::Alias { merged: true, target, .. } = t {
            let mut gate = None;
            target.visit_types(&mut |target| gate = reached.get(&target).cloned());
            reached.insert(id, gate.flatten());
        }
    }
    // Features in the order they were named, so a type's cfg reads like the feature list.
    let order: HashMap<&str, usize> =
        features.iter().chain(&unused_feature).enumerate().map(|(i, f)| (f.as_str(), i)).collect();
    let types = reached
        .into_iter()
        .filter_map(|(id, gate)| {
            let mut gate: Vec<String> = gate?.into_iter().collect();
            gate.sort_by_key(|f| order[f.as_str()]);
            Some((id, gate))
        })
        .collect();
    errors_features(api, &features);
    api.tag_features = Some(TagFeatures { features, types, children, unused: unused_feature });
}

/// Gives each error enum the features of every operation it serves: its own, and those of the
/// operations whose errors are another name for it.
fn errors_features(api: &mut Api, named: &[String]) {
    // `None`: some operation that needs it is always compiled.
    let mut gates: HashMap<String, Option<BTreeSet<String>>> = HashMap::new();
    for op in &api.operations {
        let Some(errors) = &op.errors else { continue };
        let name = errors.same_as.clone().unwrap_or_else(|| errors.name.clone());
        let gate = gates.entry(name).or_insert_with(|| Some(BTreeSet::new()));
        match (gate.as_mut(), op.features.is_empty()) {
            (Some(_), true) => *gate = None,
            (Some(features), false) => features.extend(op.features.iter().cloned()),
            (None, _) => {}
        }
    }
    let order: HashMap<&str, usize> = named.iter().enumerate().map(|(i, f)| (f.as_str(), i)).collect();
    for op in &mut api.operations {
        let Some(errors) = op.errors.as_mut().filter(|e| e.defines()) else { continue };
        let Some(Some(gate)) = gates.get(&errors.name) else { continue };
        // In the order features were named, so a cfg reads like the feature list.
        let mut features: Vec<String> = gate.iter().cloned().collect();
        features.sort_by_key(|f| order.get(f.as_str()).copied());
        errors.features = features;
    }
}

/// Records that `gate` (any of its features; `None`: always) compiles each of `roots` and every
/// type they reach, widening what was recorded before.
fn spread(
    api: &Api,
    reached: &mut BTreeMap<TypeId, Option<BTreeSet<String>>>,
    mut stack: Vec<TypeId>,
    gate: Option<BTreeSet<String>>,
) {
    while let Some(id) = stack.pop() {
        let grew = match reached.get_mut(&id) {
            None => {
                reached.insert(id, gate.clone());
                true
            }
            // Already always compiled: nothing to add.
            Some(None) => false,
            Some(Some(existing)) => match &gate {
                None => {
                    reached.insert(id, None);
                    true
                }
                Some(more) => {
                    let before = existing.len();
                    existing.extend(more.iter().cloned());
                    existing.len() > before
                }
            },
        };
        if grew {
            api.ty(id).visit_types(&mut |inner| stack.push(inner));
        }
    }
}

/// The features each parent tag's feature turns on, naming a feature for every parent above a
/// tag in use. A tag that would be its own ancestor is kept apart, with a warning, since cargo
/// refuses features that turn themselves on.
fn nest(
    parents: &[(String, String)],
    by_tag: &mut HashMap<String, String>,
    features: &mut Vec<String>,
    scope: &mut Scope,
    warnings: &mut Vec<crate::diagnostic::Diagnostic>,
) -> BTreeMap<String, Vec<String>> {
    let mut children: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let turns_on = |children: &BTreeMap<String, Vec<String>>, from: &str, to: &str| {
        let mut stack = vec![from.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(f) = stack.pop() {
            if f == to {
                return true;
            }
            if seen.insert(f.clone()) {
                stack.extend(children.get(&f).into_iter().flatten().cloned());
            }
        }
        false
    };
    // Until nothing changes, so a chain of parents is followed whatever order the tags come in.
    let mut changed = true;
    while changed {
        changed = false;
        for (i, (child, parent)) in parents.iter().enumerate() {
            let Some(child_feature) = by_tag.get(child).cloned() else { continue };
            let parent_feature = by_tag
                .entry(parent.clone())
                .or_insert_with(|| {
                    let feature = scope.claim(&feature_name(parent));
                    features.push(feature.clone());
                    feature
                })
                .clone();
            if children.get(&parent_feature).is_some_and(|c| c.contains(&child_feature)) {
                continue;
            }
            if turns_on(&children, &child_feature, &parent_feature) || child_feature == parent_feature {
                let pointer = crate::diagnostic::Pointer::root().push("tags").push(i).push("parent").to_string();
                let message = format!("tag `{child}` is its own ancestor through `{parent}`; its feature stands alone");
                if !warnings.iter().any(|w| w.pointer == pointer) {
                    warnings.push(crate::diagnostic::Diagnostic {
                        severity: crate::diagnostic::Severity::Warning,
                        pointer,
                        line: None,
                        message,
                    });
                }
                continue;
            }
            children.entry(parent_feature).or_default().push(child_feature);
            changed = true;
        }
    }
    children
}

/// A tag as a cargo feature: lowercase ASCII words joined by `-` (`Reference Data` →
/// `reference-data`); `tag` when nothing of it is left.
fn feature_name(tag: &str) -> String {
    let name: String =
        tag.to_kebab_case().chars().filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-').collect();
    let words: Vec<&str> = name.split('-').filter(|w| !w.is_empty()).collect();
    if words.is_empty() { "tag".to_string() } else { words.join("-") }
}

#[cfg(test)]
mod tests {
    use super::feature_name;

    #[test]
    fn tags_become_cargo_feature_names() {
        assert_eq!(feature_name("ReferenceData"), "reference-data");
        assert_eq!(feature_name("Reference Data"), "reference-data");
        assert_eq!(feature_name("payment_intents"), "payment-intents");
        assert_eq!(feature_name("✓"), "tag");
        assert_eq!(feature_name("v2 (beta)"), "v2-beta");
    }
}
