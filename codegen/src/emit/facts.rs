//! What emitters need to know about the IR as a whole: facts several of them ask, computed in
//! one place below them all.

use std::collections::BTreeSet;

use crate::ir::{Api, Carrier, Operation, OwnedType, TypeDef, TypeId, TypeRef};

/// Whether any type or operation mentions [`File`](crate::ir::TypeRef::File), so the crates
/// re-export it: a multipart body's file parts, or a schema with one whose operation was left out.
pub fn mentions_files(api: &Api) -> bool {
    fn is_file(ty: &TypeRef) -> bool {
        match ty {
            TypeRef::File => true,
            TypeRef::Vec(inner) | TypeRef::Map(inner) => is_file(inner),
            _ => false,
        }
    }
    let in_types = api.types.iter().any(|t| match t {
        TypeDef::Struct(s) => s.fields.iter().any(|f| is_file(&f.ty)),
        TypeDef::Union(u) => u.variants.iter().any(|v| is_file(&v.ty)),
        TypeDef::Alias { target, .. } => is_file(target),
        TypeDef::IntEnum(_) | TypeDef::StringEnum(_) => false,
    });
    in_types || api.operations.iter().any(|op| op.body.iter().flat_map(|b| b.cases()).any(|b| is_file(&b.ty)))
}

/// Whether a struct has a property whose absence and `null` are told apart.
pub fn has_tristate(api: &Api) -> bool {
    api.types.iter().any(|t| matches!(t, TypeDef::Struct(s) if s.fields.iter().any(|f| f.tristate)))
}

/// The structs and unions of requests whose values need checks beyond serde: a field with
/// limits, or a field or union member holding such a struct. Replies are not checked, so their
/// types need none.
pub fn validated_types(api: &Api) -> BTreeSet<TypeId> {
    let requested = request_types(api);
    let mut out = BTreeSet::new();
    loop {
        let before = out.len();
        for (id, t) in api.types_with_ids().filter(|(id, _)| requested.contains(id)) {
            let checked = match t {
                TypeDef::Struct(s) => {
                    s.fields.iter().any(|f| !f.constraints.is_empty() || holds_validated(api, &f.ty, &out))
                }
                TypeDef::Union(u) => {
                    u.variants.iter().any(|v| !v.constraints.is_empty() || holds_validated(api, &v.ty, &out))
                }
                _ => false,
            };
            if checked {
                out.insert(id);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The named types a request can hold: those of parameters and bodies, and what they reach.
fn request_types(api: &Api) -> BTreeSet<TypeId> {
    let mut stack = Vec::new();
    for op in &api.operations {
        op.params.iter().for_each(|p| p.ty.visit_types(&mut |id| stack.push(id)));
        op.body.iter().flat_map(|b| b.cases()).for_each(|b| b.ty.visit_types(&mut |id| stack.push(id)));
    }
    let mut reached = BTreeSet::new();
    while let Some(id) = stack.pop() {
        if reached.insert(id) {
            api.ty(id).visit_types(&mut |inner| stack.push(inner));
        }
    }
    reached
}

/// Whether a value of `ty` contains a struct from `validated`, or a value checked against the
/// document's schema, directly or in a `Vec` or map: whether it has anything to validate.
pub fn holds_validated(api: &Api, ty: &TypeRef, validated: &BTreeSet<TypeId>) -> bool {
    holds(api, ty, validated, true)
}

/// Whether validating a value of `ty` calls `Validate::validate`: it contains a struct or union
/// from `validated` (a checked JSON value is checked by a function of its own).
pub fn calls_validate(api: &Api, ty: &TypeRef, validated: &BTreeSet<TypeId>) -> bool {
    holds(api, ty, validated, false)
}

fn holds(api: &Api, ty: &TypeRef, validated: &BTreeSet<TypeId>, checked: bool) -> bool {
    match ty {
        TypeRef::Named(id) => {
            validated.contains(id)
                || match api.ty(*id) {
                    TypeDef::Alias { check: Some(_), .. } => checked,
                    TypeDef::Alias { target, .. } => holds(api, target, validated, checked),
                    _ => false,
                }
        }
        TypeRef::Vec(item) | TypeRef::Map(item) | TypeRef::Nullable(item) => holds(api, item, validated, checked),
        _ => false,
    }
}

/// The set of credentials most signed operations send, all in headers of their own: the runtime
/// adds it to their requests (`ApiClient::sign`), so only the other operations spell theirs out.
/// Empty when no operation sends such a set.
pub fn usual_credentials(api: &Api) -> Vec<usize> {
    let mut counted: Vec<(Vec<usize>, usize)> = Vec::new();
    for set in api.operations.iter().filter_map(|op| header_set(api, op)) {
        match counted.iter_mut().find(|(seen, _)| *seen == set) {
            Some((_, count)) => *count += 1,
            None => counted.push((set, 1)),
        }
    }
    // The most frequent, the first seen among equals.
    let most = counted.iter().map(|(_, count)| *count).max().unwrap_or(0);
    counted.into_iter().find(|(_, count)| *count == most).map(|(set, _)| set).unwrap_or_default()
}

/// The credentials `op` always sends, when it sends one set of them, all in headers of their own.
fn header_set(api: &Api, op: &Operation) -> Option<Vec<usize>> {
    let [set] = api.client_sets(op).try_into().ok()?;
    let in_header = |i: &usize| {
        let c = &api.credentials[*i];
        !c.optional && matches!(c.carrier, Carrier::Header(_) | Carrier::Authorization(_))
    };
    (!op.credentials.is_empty() && !set.is_empty() && set.iter().all(in_header)).then_some(set)
}

/// Whether the runtime adds `op`'s credentials: it always sends the `usual` set.
pub fn signs_usually(api: &Api, usual: &[usize], op: &Operation) -> bool {
    header_set(api, op).is_some_and(|set| set == usual)
}

/// One item of `types.rs`: a named type of the spec, or a type an operation owns, which is
/// compiled whenever its operation is.
#[derive(Debug, Clone, Copy)]
pub enum TypeItem<'a> {
    Named(TypeId, &'a TypeDef),
    Owned(OwnedType<'a>, &'a Operation),
}

impl<'a> TypeItem<'a> {
    fn name(&self) -> &str {
        match self {
            TypeItem::Named(_, t) => t.name(),
            TypeItem::Owned(t, _) => t.name(),
        }
    }

    /// The features any of which compiles this item; empty when it is always compiled.
    pub fn features(&self, api: &'a Api) -> &'a [String] {
        match *self {
            TypeItem::Named(id, _) => api.tag_features.as_ref().map_or(&[][..], |tags| tags.of_type(id)),
            TypeItem::Owned(OwnedType::Errors(e), _) if e.defines() => &e.features,
            TypeItem::Owned(_, op) => &op.features,
        }
    }
}

/// Every item of the types crates, by name.
pub fn items(api: &Api) -> Vec<TypeItem<'_>> {
    let mut items: Vec<TypeItem<'_>> = api.types_with_ids().map(|(id, t)| TypeItem::Named(id, t)).collect();
    for op in &api.operations {
        items.extend(op.owned_types().into_iter().map(|t| TypeItem::Owned(t, op)));
    }
    items.sort_by(|a, b| a.name().cmp(b.name()));
    items
}

/// How many items the types crates hold, for the crates' READMEs.
pub fn item_count(api: &Api) -> usize {
    api.types.len() + api.operations.iter().map(|op| op.owned_types().len()).sum::<usize>()
}
