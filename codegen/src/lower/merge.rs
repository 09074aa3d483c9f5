//! Types of the same structure become one. Large descriptions repeat the same object under
//! many names (GitHub's description spells out one user object over 300 times, inline in its
//! webhook payloads); each copy would be a struct of its own, with its own serde code to
//! compile. Two types are the same when everything but their names and descriptions is the
//! same, the types they hold being the same in turn, so a recursive type merges with its copies.
//! One of them is kept and the others become `pub type` aliases of it, so every name the
//! document gives still names a type.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{Api, TypeDef, TypeId, TypeRef};

/// Merges the structurally identical structs, enums and unions of `api`, keeping for each group
/// the type of a component schema before an inline one, then the shortest name, then the first
/// in name order, and pointing every reference at it. Handles keep their values: a merged type
/// stays in place, as an alias.
pub(super) fn merge_identical(api: &mut Api, components: &BTreeSet<&str>) {
    let class = classes(&api.types);
    let mut groups: HashMap<u32, Vec<usize>> = HashMap::new();
    for (index, c) in class.iter().enumerate() {
        groups.entry(*c).or_default().push(index);
    }
    // Each type's stand-in: itself, or the type its group keeps.
    let mut kept: Vec<u32> = (0..api.types.len() as u32).collect();
    for members in groups.values().filter(|members| members.len() > 1) {
        let order = |&&i: &&usize| {
            let name = api.types[i].name();
            (!components.contains(name), name.len(), name)
        };
        let first = *members.iter().min_by_key(order).expect("a group has members");
        members.iter().for_each(|&i| kept[i] = first as u32);
    }
    let mut redirect = |id: &mut TypeId| *id = TypeId(kept[id.index()]);
    api.types.iter_mut().for_each(|t| t.handles_mut(&mut redirect));
    api.operations.iter_mut().for_each(|op| op.handles_mut(&mut redirect));
    for (index, target) in kept.iter().enumerate() {
        if *target as usize == index {
            continue;
        }
        let kept = &api.types[*target as usize];
        let (kept_name, kept_doc) = (kept.name().to_string(), own_doc(kept));
        let t = &mut api.types[index];
        let (name, doc) = (t.name().to_string(), own_doc(t));
        let same = format!("The same type as [`{kept_name}`]: the document describes it again under this name.");
        // Words of its own are kept; the kept type's own, repeated, are read there.
        let doc = Some(match doc.filter(|doc| Some(doc) != kept_doc.as_ref()) {
            Some(doc) => format!("{doc}\n\n{same}"),
            None => same,
        });
        *t = TypeDef::Alias { name, doc, target: TypeRef::Named(TypeId(*target)), check: None, merged: true };
    }
}

/// Points every operation's documented errors at the first operation's, in document order,
/// with the same: its error enum at the first with the same cases (statuses, variant names,
/// descriptions and bodies, once the bodies' types are merged), and its error bodies for the
/// server's own rejections at the first with the same bodies.
pub(super) fn share_errors(api: &mut Api) {
    // The cases' text → the index of the first operation with them.
    let mut enums: HashMap<String, usize> = HashMap::new();
    let mut shapes: HashMap<String, usize> = HashMap::new();
    let mut shared = vec![0usize; api.operations.len()];
    for index in 0..api.operations.len() {
        if let Some(errors) = &api.operations[index].errors {
            let first = *enums.entry(format!("{:?}", errors.cases)).or_insert(index);
            if first != index {
                let name = api.operations[first].errors.as_ref().map(|e| e.name.clone());
                api.operations[index].errors.as_mut().expect("it has errors").same_as = name;
                shared[first] += 1;
            }
        }
        let op = &mut api.operations[index];
        if !op.error_shapes.is_empty() {
            let first = *shapes.entry(format!("{:?}", op.error_shapes)).or_insert(index);
            op.error_shapes_of = (first != index).then_some(first);
        }
    }
    for (op, shared) in api.operations.iter_mut().zip(shared) {
        if let Some(errors) = op.errors.as_mut() {
            errors.shared = shared;
        }
    }
}

/// The description of a type.
fn own_doc(t: &TypeDef) -> Option<String> {
    match t {
        TypeDef::Struct(s) => s.doc.clone(),
        TypeDef::IntEnum(e) => e.doc.clone(),
        TypeDef::StringEnum(e) => e.doc.clone(),
        TypeDef::Union(u) => u.doc.clone(),
        TypeDef::Alias { doc, .. } => doc.clone(),
    }
}

/// The coarsest grouping of `types` in which two types share a group exactly when they are
/// the same apart from names and descriptions and the types they hold share groups: refined from
/// one group per shape until no group splits (as a finite automaton is minimised). Aliases the
/// document writes keep a group of their own.
fn classes(types: &[TypeDef]) -> Vec<u32> {
    // Each type's shape without the types it holds, written once, and those types in the order
    // the shape holds them; a round compares the shapes and the groups of the held types.
    let mut texts: HashMap<String, u32> = HashMap::new();
    let shapes: Vec<(u32, Vec<u32>)> = types
        .iter()
        .enumerate()
        .map(|(index, t)| {
            let (text, held) = shape(t, index);
            let fresh = texts.len() as u32;
            (*texts.entry(text).or_insert(fresh), held)
        })
        .collect();
    let mut class: Vec<u32> = shapes.iter().map(|(text, _)| *text).collect();
    let mut count = texts.len();
    loop {
        let mut keys: HashMap<(u32, Vec<u32>), u32> = HashMap::new();
        let next: Vec<u32> = shapes
            .iter()
            .zip(&class)
            .map(|((_, held), own)| {
                // The type's own group is part of the key, so a group only ever splits.
                let key = (*own, held.iter().map(|&i| class[i as usize]).collect());
                let fresh = keys.len() as u32;
                *keys.entry(key).or_insert(fresh)
            })
            .collect();
        // Each round splits groups and never joins them, so an unchanged count is the end.
        if keys.len() == count {
            return next;
        }
        count = keys.len();
        class = next;
    }
}

/// What `t` is made of apart from its name, its descriptions and which types it holds, as text,
/// and the types it holds, in order.
fn shape(t: &TypeDef, index: usize) -> (String, Vec<u32>) {
    let mut t = t.clone();
    let mut held = Vec::new();
    t.handles_mut(&mut |id| {
        held.push(id.0);
        *id = TypeId(0);
    });
    match &mut t {
        TypeDef::Struct(s) => {
            s.name.clear();
            s.doc = None;
            s.fields.iter_mut().for_each(|f| f.doc = None);
        }
        TypeDef::IntEnum(e) => {
            e.name.clear();
            e.doc = None;
        }
        TypeDef::StringEnum(e) => {
            e.name.clear();
            e.doc = None;
        }
        TypeDef::Union(u) => {
            u.name.clear();
            u.doc = None;
        }
        // Kept apart: an alias is already a name for something else.
        TypeDef::Alias { .. } => return (format!("alias {index}"), held),
    }
    (format!("{t:?}"), held)
}

#[cfg(test)]
mod tests {
    use super::classes;
    use crate::ir::{Constraints, Field, StructDef, TypeDef, TypeId, TypeRef};

    fn field(name: &str, ty: TypeRef, doc: &str) -> Field {
        Field {
            wire: name.to_string(),
            name: name.to_string(),
            ty,
            required: true,
            nullable: false,
            tristate: false,
            boxed: false,
            constraints: Constraints::default(),
            default: None,
            doc: Some(doc.to_string()),
        }
    }

    fn object(name: &str, fields: Vec<Field>) -> TypeDef {
        TypeDef::Struct(StructDef { name: name.to_string(), doc: None, fields, extra: None, closed: false })
    }

    #[test]
    fn copies_merge_through_what_they_hold_and_differences_keep_them_apart() {
        let types = vec![
            object("A", vec![field("owner", TypeRef::Named(TypeId(2)), "one")]),
            object("B", vec![field("owner", TypeRef::Named(TypeId(3)), "two")]),
            object("OwnerA", vec![field("login", TypeRef::String, "x")]),
            object("OwnerB", vec![field("login", TypeRef::String, "y")]),
            object("OwnerC", vec![field("login", TypeRef::I64, "x")]),
            object("C", vec![field("owner", TypeRef::Named(TypeId(4)), "one")]),
        ];
        let class = classes(&types);
        assert_eq!(class[0], class[1], "holding merged types, they merge");
        assert_eq!(class[2], class[3], "descriptions do not count");
        assert_ne!(class[2], class[4], "a field of another type keeps them apart");
        assert_ne!(class[0], class[5], "and so does holding it");
    }

    #[test]
    fn recursive_copies_merge() {
        // A list node and its copy, each pointing at itself, and one pointing at the other.
        let node = |name: &str, next: u32| {
            object(name, vec![field("next", TypeRef::Nullable(Box::new(TypeRef::Named(TypeId(next)))), "")])
        };
        let types = vec![node("N1", 0), node("N2", 1), node("N3", 0)];
        let class = classes(&types);
        assert!(class.iter().all(|c| *c == class[0]));
    }
}
