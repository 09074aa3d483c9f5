//! Which struct fields are stored in a `Box`: those whose type contains their own struct (or the
//! type would be infinitely large) and those whose type is large.
//!
//! Large documents (Kubernetes-style APIs) nest objects many levels deep. Held inline, one value
//! of the outermost type is hundreds of KiB, and reading it in a debug build takes a stack frame
//! per level that holds every level below: a 2 MiB worker stack overflows on a valid `{}`.
//! Boxing a field whose type is larger than [`LARGE`] bounds every struct to its own fields.

use std::collections::BTreeSet;

use crate::ir::{Field, TypeDef, TypeId, TypeRef};

/// Estimated size in bytes above which a field's type is held in a `Box`. Large enough that
/// ordinary nested objects (an address in a customer) stay inline and read naturally.
const LARGE: usize = 512;

/// Marks the fields to box: first those that break a cycle, then, with those counted as
/// pointers, those whose type is estimated larger than [`LARGE`]. Runs on the final types, where
/// a [`TypeId`] is an index into `types`.
pub(crate) fn box_fields(types: &mut [TypeDef]) {
    box_recursive_fields(types);
    box_large_fields(types);
}

/// Marks fields whose type contains their own struct without an indirection (`Vec` or map), so
/// the type stays finitely sized.
fn box_recursive_fields(types: &mut [TypeDef]) {
    // Direct (unboxed) type edges of every struct, alias and union.
    let edges: Vec<Vec<TypeId>> = types
        .iter()
        .map(|t| match t {
            TypeDef::Struct(s) => s.fields.iter().filter_map(|f| direct(&f.ty)).collect(),
            TypeDef::Alias { target, .. } => direct(target).into_iter().collect(),
            TypeDef::Union(u) => u.variants.iter().filter_map(|v| direct(&v.ty)).collect(),
            TypeDef::IntEnum(_) | TypeDef::StringEnum(_) => Vec::new(),
        })
        .collect();
    let reaches = |from: TypeId, to: usize| -> bool {
        let mut stack = vec![from];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n.index() == to {
                return true;
            }
            if seen.insert(n) {
                stack.extend(edges[n.index()].iter().copied());
            }
        }
        false
    };
    let boxed: Vec<Vec<bool>> = types
        .iter()
        .enumerate()
        .map(|(i, t)| match t {
            TypeDef::Struct(s) => {
                s.fields.iter().map(|f| direct(&f.ty).is_some_and(|target| reaches(target, i))).collect()
            }
            _ => Vec::new(),
        })
        .collect();
    mark(types, |i, field, _| boxed[i][field]);
}

/// Marks fields whose named type is estimated larger than [`LARGE`] bytes inline, sizes taken
/// with those fields already boxed inside it.
fn box_large_fields(types: &mut [TypeDef]) {
    let mut sizes = Sizes { types: &*types, known: vec![None; types.len()] };
    for i in 0..types.len() {
        sizes.of_named(TypeId(i as u32));
    }
    let large: Vec<bool> = sizes.known.iter().map(|size| size.is_some_and(|size| size > LARGE)).collect();
    mark(types, |_, _, f| direct(&f.ty).is_some_and(|target| large[target.index()]));
}

/// Sets `boxed` on every struct field for which `pick(type index, field index, field)` holds.
fn mark(types: &mut [TypeDef], pick: impl Fn(usize, usize, &Field) -> bool) {
    for (i, t) in types.iter_mut().enumerate() {
        if let TypeDef::Struct(s) = t {
            for (j, f) in s.fields.iter_mut().enumerate() {
                f.boxed = f.boxed || pick(i, j, f);
            }
        }
    }
}

/// Estimated inline sizes of named types, with boxed fields counted as pointers. Close enough
/// to tell a few words from kilobytes; not the layout rustc picks.
struct Sizes<'a> {
    types: &'a [TypeDef],
    known: Vec<Option<usize>>,
}

impl Sizes<'_> {
    fn of_named(&mut self, id: TypeId) -> usize {
        if let Some(size) = self.known[id.index()] {
            return size;
        }
        // A pointer while in progress: a cycle is already broken by a box somewhere on it.
        self.known[id.index()] = Some(8);
        let size = match &self.types[id.index()] {
            TypeDef::Struct(s) => {
                let fields: usize = s
                    .fields
                    .iter()
                    .map(|f| {
                        let inline = match f.boxed {
                            true => 8,
                            // Boxed below when its type is large: what it holds is a pointer.
                            false if direct(&f.ty).is_some() => {
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
            TypeDef::Union(u) => u.variants.iter().map(|v| self.of(&v.ty)).max().unwrap_or(0) + 8,
            TypeDef::Alias { target, .. } => self.of(target),
            TypeDef::IntEnum(_) | TypeDef::StringEnum(_) => 8,
        };
        self.known[id.index()] = Some(size);
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
            TypeRef::Named(id) => self.of_named(*id),
            // A struct-sized enum of bodies is never a field.
            TypeRef::BodyChoice(_) => 8,
        }
    }
}

/// The named type a field holds inline, if any.
fn direct(ty: &TypeRef) -> Option<TypeId> {
    match ty {
        TypeRef::Named(id) => Some(*id),
        _ => None,
    }
}
