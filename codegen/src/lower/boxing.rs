//! Which struct fields are stored in a `Box`: those whose type contains their own struct (or the
//! type would be infinitely large) and those whose type is large.
//!
//! Large documents (Kubernetes-style APIs) nest objects many levels deep. Held inline, one value
//! of the outermost type is hundreds of KiB, and reading it in a debug build takes a stack frame
//! per level that holds every level below: a 2 MiB worker stack overflows on a valid `{}`.
//! Boxing a field whose type is larger than [`LARGE`] bounds every struct to its own fields.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{Field, TypeDef, TypeRef};

/// Estimated size in bytes above which a field's type is held in a `Box`. Large enough that
/// ordinary nested objects (an address in a customer) stay inline and read naturally.
const LARGE: usize = 512;

/// Marks the fields to box: first those that break a cycle, then, with those counted as
/// pointers, those whose type is estimated larger than [`LARGE`].
pub(crate) fn box_fields(types: &mut [TypeDef]) {
    box_recursive_fields(types);
    box_large_fields(types);
}

/// Marks fields whose type contains their own struct without an indirection (`Vec` or map), so
/// the type stays finitely sized.
fn box_recursive_fields(types: &mut [TypeDef]) {
    let by_name: BTreeMap<&str, &TypeDef> = types.iter().map(|t| (t.name(), t)).collect();
    // Direct (unboxed) type edges of every struct, alias and union.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for t in types.iter() {
        let targets = match t {
            TypeDef::Struct(s) => s.fields.iter().filter_map(|f| direct_name(&f.ty)).collect(),
            TypeDef::Alias { target, .. } => direct_name(target).into_iter().collect(),
            TypeDef::Union(u) => u.variants.iter().filter_map(|v| direct_name(&v.ty)).collect(),
            _ => BTreeSet::new(),
        };
        edges.insert(t.name().to_string(), targets);
    }
    let reaches = |from: &str, to: &str| -> bool {
        let mut stack = vec![from.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n.clone()) {
                stack.extend(edges.get(&n).into_iter().flatten().cloned());
            }
        }
        false
    };
    let boxed: BTreeSet<(String, String)> = types
        .iter()
        .filter_map(|t| match t {
            TypeDef::Struct(s) => Some(s),
            _ => None,
        })
        .flat_map(|s| {
            s.fields
                .iter()
                .filter(|f| {
                    direct_name(&f.ty)
                        .is_some_and(|target| by_name.contains_key(target.as_str()) && reaches(&target, &s.name))
                })
                .map(|f| (s.name.clone(), f.name.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    mark(types, |s, f| boxed.contains(&(s.to_string(), f.name.clone())));
}

/// Marks fields whose named type is estimated larger than [`LARGE`] bytes inline, sizes taken
/// with those fields already boxed inside it.
fn box_large_fields(types: &mut [TypeDef]) {
    let by_name = types.iter().map(|t| (t.name(), t)).collect();
    let mut sizes = Sizes { types: by_name, known: BTreeMap::new() };
    for t in types.iter() {
        sizes.of_named(t.name());
    }
    let large: BTreeSet<String> = sizes.known.into_iter().filter(|(_, size)| *size > LARGE).map(|(n, _)| n).collect();
    mark(types, |_, f| direct_name(&f.ty).is_some_and(|target| large.contains(&target)));
}

/// Sets `boxed` on every struct field for which `pick(struct name, field)` holds.
fn mark(types: &mut [TypeDef], pick: impl Fn(&str, &Field) -> bool) {
    for t in types.iter_mut() {
        if let TypeDef::Struct(s) = t {
            for f in &mut s.fields {
                f.boxed = f.boxed || pick(&s.name, f);
            }
        }
    }
}

/// Estimated inline sizes of named types, with boxed fields counted as pointers. Close enough
/// to tell a few words from kilobytes; not the layout rustc picks.
struct Sizes<'a> {
    types: BTreeMap<&'a str, &'a TypeDef>,
    known: BTreeMap<String, usize>,
}

impl Sizes<'_> {
    fn of_named(&mut self, name: &str) -> usize {
        if let Some(&size) = self.known.get(name) {
            return size;
        }
        // A pointer while in progress: a cycle is already broken by a box somewhere on it.
        self.known.insert(name.to_string(), 8);
        let size = match self.types.get(name).copied() {
            Some(TypeDef::Struct(s)) => {
                let fields: usize = s
                    .fields
                    .iter()
                    .map(|f| {
                        let inline = match f.boxed {
                            true => 8,
                            // Boxed below when its type is large: what it holds is a pointer.
                            false if direct_name(&f.ty).is_some() => {
                                Some(self.of(&f.ty)).filter(|&size| size <= LARGE).unwrap_or(8)
                            }
                            false => self.of(&f.ty),
                        };
                        // `Option` or `Nullable` around it, at worst a word more.
                        if f.required && !f.nullable { inline } else { inline + 8 }
                    })
                    .sum();
                fields + if s.extra.is_some() { 24 } else { 0 }
            }
            Some(TypeDef::Union(u)) => u.variants.iter().map(|v| self.of(&v.ty)).max().unwrap_or(0) + 8,
            Some(TypeDef::Alias { target, .. }) => self.of(target),
            Some(TypeDef::IntEnum(_) | TypeDef::StringEnum(_)) | None => 8,
        };
        self.known.insert(name.to_string(), size);
        size
    }

    fn of(&mut self, ty: &TypeRef) -> usize {
        match ty {
            TypeRef::Bool => 1,
            TypeRef::I32 | TypeRef::F32 => 4,
            TypeRef::I64 | TypeRef::F64 => 8,
            TypeRef::Uuid | TypeRef::DateTime => 16,
            TypeRef::String | TypeRef::Vec(_) | TypeRef::Map(_) => 24,
            TypeRef::Json | TypeRef::Bytes => 32,
            TypeRef::File => 80,
            TypeRef::Nullable(inner) => self.of(inner) + 8,
            TypeRef::Named(name) => self.of_named(name),
        }
    }
}

fn direct_name(ty: &TypeRef) -> Option<String> {
    match ty {
        TypeRef::Named(n) => Some(n.clone()),
        _ => None,
    }
}
