//! Paged operations → [`Paging`]: what `x-apigen-pagination` declares, or else the common shapes
//! recognised by their names, with a note that says what was recognised.
//!
//! A declaration names the parameter that selects a page, by one of `page` (numbered pages),
//! `offset` (items skipped) or `cursor` (a value the previous reply gave), and optionally `size`
//! (the page-size parameter), `items` and `total` (`$response.body#/pointer`) and, for a cursor,
//! `next` (`$response.body#/pointer` or `$response.header.Name`). `false` turns paging off.

use indexmap::IndexMap;
use serde_json::Value;

use super::Lowerer;
use crate::diagnostic::Pointer;
use crate::ir::{
    DefaultValue, Field, FieldPath, Holder, Location, NextKey, PageKind, PageShape, PageWrapper, Paging, Param, Reply,
    StructDef, TypeRef,
};
use crate::naming::snake;

/// The operation extension that declares (or, as `false`, turns off) paging.
pub(crate) const PAGINATION: &str = "x-apigen-pagination";

/// Names (in snake case) that mark the paging parameters and reply fields of the common shapes.
const PAGE_PARAMS: &[&str] = &["page", "page_number", "page_num", "page_no", "page_index"];
const OFFSET_PARAMS: &[&str] = &["offset", "skip", "start_index"];
const CURSOR_PARAMS: &[&str] =
    &["cursor", "page_token", "next_token", "continuation_token", "page_cursor", "starting_after", "after", "marker"];
const SIZE_PARAMS: &[&str] = &["size", "page_size", "per_page", "limit", "max_results", "max_items", "top", "take"];
const TOTAL_PAGES: &[&str] = &["total_pages", "page_count", "pages", "num_pages", "total_page_count"];
const TOTAL_ITEMS: &[&str] = &["total", "total_count", "total_items", "total_results", "total_records", "total_size"];
/// Not `next`: that name usually holds the next page's whole URL rather than a cursor.
const NEXT_CURSORS: &[&str] =
    &["next_cursor", "next_page_token", "next_token", "continuation_token", "next_marker", "end_cursor", "cursor"];

/// A paging declaration, as written.
struct Declared<'v> {
    kind: &'static str,
    param: &'v str,
    size: Option<&'v str>,
    next: Option<&'v str>,
    items: Option<&'v str>,
    total: Option<&'v str>,
}

impl Lowerer<'_> {
    /// The paging of an operation whose parameters and reply are lowered: declared, turned off,
    /// or recognised (with a note at `ptr`).
    pub(super) fn paging(
        &mut self,
        ptr: &Pointer,
        extensions: &IndexMap<String, Value>,
        params: &[Param],
        reply: &Reply,
    ) -> Option<Paging> {
        let declared = extensions.get(PAGINATION);
        if declared == Some(&Value::Bool(false)) {
            return None;
        }
        let Reply::Json { ty, headers, .. } = reply else {
            if declared.is_some() {
                let message = "only an operation with one JSON reply can be paged; it has no `into_stream()`";
                self.warn(&ptr.push(PAGINATION), message);
            }
            return None;
        };
        let headers = headers.as_ref();
        if let Some(declared) = declared {
            let paging = parse(declared).and_then(|d| self.declared_paging(&d, params, ty, headers));
            return paging
                .map_err(|why| self.warn(&ptr.push(PAGINATION), format!("{why}; the operation has no `into_stream()`")))
                .ok();
        }
        let paging = self.detected_paging(params, ty, headers)?;
        let message = format!(
            "`into_stream()` walks {}, recognised by name; declare `{PAGINATION}` to confirm it or `false` to turn it off",
            describe(&paging, params)
        );
        self.note(ptr, message);
        Some(paging)
    }

    fn declared_paging(
        &self,
        declared: &Declared,
        params: &[Param],
        reply: &TypeRef,
        headers: Option<&StructDef>,
    ) -> Result<Paging, String> {
        let query = |wire: &str| {
            params
                .iter()
                .position(|p| p.location == Location::Query && p.wire == wire)
                .ok_or_else(|| format!("`{wire}` is not a query parameter of this operation"))
        };
        let at = query(declared.param)?;
        let param = &params[at];
        let kind = match declared.kind {
            "page" => PageKind::Number { param: at, first: first_page(param) },
            "offset" => PageKind::Offset { param: at },
            _ => PageKind::Cursor { param: at },
        };
        check_param(&kind, param)?;
        let size = declared.size.map(query).transpose()?;
        if let Some(size) = size.map(|at| &params[at])
            && !is_integer(&size.ty)
        {
            return Err(format!("the page size `{}` is not an integer", size.wire));
        }
        let root = each(reply);
        let (item, shape) = match declared.items {
            None => self.page_shape(reply).ok_or("the reply is neither an array nor an object with one array property, so `items` must say where the items are")?,
            Some(pointer) => {
                let pointer = body_pointer(pointer)?;
                if pointer.is_empty() {
                    let TypeRef::Vec(item) = reply else { return Err("`items` names the whole reply, which is not an array".into()) };
                    ((**item).clone(), PageShape::Array)
                } else {
                    let path = self.field_path(root, &pointer)?;
                    let TypeRef::Vec(item) = &path.ty else {
                        return Err(format!("`items` names `{}`, which is not an array", pointer.join("/")));
                    };
                    let item = (**item).clone();
                    let wrapper = PageWrapper { items: path, total: None };
                    match reply {
                        TypeRef::Vec(_) => (item, PageShape::ArrayOfWrappers(wrapper)),
                        _ => (item, PageShape::Wrapper(wrapper)),
                    }
                }
            }
        };
        let mut paging =
            Paging { kind, size, default_size: default_size(size.map(|at| &params[at])), next: None, item, shape };
        if let Some(total) = declared.total {
            if matches!(paging.kind, PageKind::Cursor { .. }) {
                return Err("`total` is not used by a cursor, whose walk ends when a reply gives no next cursor".into());
            }
            let (PageShape::Wrapper(wrapper) | PageShape::ArrayOfWrappers(wrapper)) = &mut paging.shape else {
                return Err("`total` needs a reply of objects".into());
            };
            let path = self.field_path(root, &body_pointer(total)?)?;
            if !is_integer(&path.ty) {
                return Err(format!("`total` names `{total}`, which is not an integer"));
            }
            wrapper.total = Some(path);
        }
        match (declared.next, &paging.kind) {
            (Some(next), PageKind::Cursor { .. }) => {
                paging.next = Some(self.next_key(next, param, reply, headers, &paging.shape)?)
            }
            (None, PageKind::Cursor { .. }) => {
                return Err("a `cursor` needs `next`, which says where a reply gives the next one".into());
            }
            (Some(_), _) => return Err("`next` belongs with a `cursor`: numbered pages and offsets are counted".into()),
            (None, _) => {}
        }
        Ok(paging)
    }

    /// Where the key of the next page is, from `$response.body#/…` or `$response.header.Name`.
    fn next_key(
        &self,
        next: &str,
        param: &Param,
        reply: &TypeRef,
        headers: Option<&StructDef>,
        shape: &PageShape,
    ) -> Result<NextKey, String> {
        let (key, ty) = if let Some(name) = next.strip_prefix("$response.header.") {
            let field = headers
                .and_then(|h| h.fields.iter().find(|f| f.wire.eq_ignore_ascii_case(name)))
                .ok_or_else(|| format!("`next` names the header `{name}`, which the reply does not document"))?;
            let path = path_to(field);
            if name.eq_ignore_ascii_case("link") {
                if field.ty != TypeRef::String {
                    return Err("the `Link` header is not a string".into());
                }
                return Ok(NextKey::Link(path));
            }
            (NextKey::Header(path), field.ty.clone())
        } else {
            if matches!(shape, PageShape::ArrayOfWrappers(_) | PageShape::Array) {
                return Err("`next` in the body needs a reply that is an object".into());
            }
            let path = self.field_path(reply, &body_pointer(next)?)?;
            let ty = path.ty.clone();
            (NextKey::Body(path), ty)
        };
        if ty != param.ty {
            return Err(format!("`next` names a value of another type than the parameter `{}`", param.wire));
        }
        Ok(key)
    }

    /// The common shapes, by the names of the parameters and of the reply's fields.
    fn detected_paging(&self, params: &[Param], reply: &TypeRef, headers: Option<&StructDef>) -> Option<Paging> {
        let named = |names: &[&str], fits: fn(&Param) -> bool| {
            params
                .iter()
                .position(|p| p.location == Location::Query && names.contains(&snake(&p.wire).as_str()) && fits(p))
        };
        let size = named(SIZE_PARAMS, |p| is_integer(&p.ty));
        let (item, shape) = self.page_shape(reply)?;
        let paging = |kind, next| Paging {
            kind,
            size,
            default_size: default_size(size.map(|at| &params[at])),
            next,
            item: item.clone(),
            shape: shape.clone(),
        };
        if let Some(at) = named(CURSOR_PARAMS, |p| p.ty == TypeRef::String && !p.required)
            && let Some(next) = self.detected_next(reply, headers, &shape)
        {
            return Some(paging(PageKind::Cursor { param: at }, Some(next)));
        }
        let (kind, totals) = if let Some(at) = named(PAGE_PARAMS, |p| is_integer(&p.ty)) {
            (PageKind::Number { param: at, first: first_page(&params[at]) }, TOTAL_PAGES)
        } else {
            (PageKind::Offset { param: named(OFFSET_PARAMS, |p| is_integer(&p.ty))? }, TOTAL_ITEMS)
        };
        let mut paging = paging(kind, None);
        if let PageShape::Wrapper(wrapper) | PageShape::ArrayOfWrappers(wrapper) = &mut paging.shape {
            wrapper.total = self.find_field(each(reply), totals, is_integer);
        }
        Some(paging)
    }

    /// A next cursor a reply is recognised to give: a string field of the body with a usual name
    /// (at its top or one object down), a documented header of such a name, or a `Link` header.
    fn detected_next(&self, reply: &TypeRef, headers: Option<&StructDef>, shape: &PageShape) -> Option<NextKey> {
        if let PageShape::Wrapper(_) = shape
            && let Some(path) = self.find_field(reply, NEXT_CURSORS, |ty| *ty == TypeRef::String)
        {
            return Some(NextKey::Body(path));
        }
        let fields = headers.map(|h| h.fields.as_slice()).unwrap_or_default();
        let header = |f: &&Field| {
            let name = snake(&f.wire);
            f.ty == TypeRef::String && NEXT_CURSORS.contains(&name.strip_prefix("x_").unwrap_or(&name))
        };
        if let Some(f) = fields.iter().find(header) {
            return Some(NextKey::Header(path_to(f)));
        }
        let link = fields.iter().find(|f| f.wire.eq_ignore_ascii_case("link") && f.ty == TypeRef::String)?;
        Some(NextKey::Link(path_to(link)))
    }

    /// A field of the struct `ty` whose name is one of `names` and whose type `fits`, at its top or
    /// in one of its struct fields.
    fn find_field(&self, ty: &TypeRef, names: &[&str], fits: fn(&TypeRef) -> bool) -> Option<FieldPath> {
        let s = self.struct_of(ty)?;
        let matches = |f: &&Field| names.contains(&snake(&f.wire).as_str()) && fits(&f.ty);
        if let Some(f) = s.fields.iter().find(matches) {
            return Some(path_to(f));
        }
        s.fields.iter().find_map(|outer| {
            let inner = self.struct_of(&outer.ty)?.fields.iter().find(matches)?;
            let mut path = path_to(inner);
            path.fields.insert(0, (outer.name.clone(), Holder::of(outer)));
            Some(path)
        })
    }

    /// The items of a reply that is an array, an object with one array property, or an array of
    /// such objects (whose items are put together).
    fn page_shape(&self, reply: &TypeRef) -> Option<(TypeRef, PageShape)> {
        let wrapper = |ty: &TypeRef| {
            let s = self.struct_of(ty)?;
            let arrays: Vec<_> = s.fields.iter().filter(|f| matches!(f.ty, TypeRef::Vec(_))).collect();
            let [items] = arrays.as_slice() else { return None };
            let TypeRef::Vec(item) = &items.ty else { return None };
            Some(((**item).clone(), PageWrapper { items: path_to(items), total: None }))
        };
        match reply {
            TypeRef::Vec(inner) => Some(match wrapper(inner) {
                Some((item, w)) => (item, PageShape::ArrayOfWrappers(w)),
                None => ((**inner).clone(), PageShape::Array),
            }),
            other => wrapper(other).map(|(item, w)| (item, PageShape::Wrapper(w))),
        }
    }

    /// The path of Rust fields to the value a JSON pointer (split into wire names) names in the
    /// struct `root`, and its type.
    fn field_path(&self, root: &TypeRef, pointer: &[String]) -> Result<FieldPath, String> {
        let mut fields = Vec::new();
        let mut ty = root.clone();
        for (depth, name) in pointer.iter().enumerate() {
            let at = || pointer[..=depth].join("/");
            let s = self.struct_of(&ty).ok_or_else(|| format!("`{}` is not inside an object", at()))?;
            let f = s.fields.iter().find(|f| f.wire == *name).ok_or_else(|| format!("the reply has no `{}`", at()))?;
            fields.push((f.name.clone(), Holder::of(f)));
            ty = f.ty.clone();
        }
        Ok(FieldPath { fields, ty })
    }

    fn struct_of(&self, ty: &TypeRef) -> Option<&StructDef> {
        self.struct_named(self.unaliased(ty))
    }
}

/// A declaration's parts, or what is wrong with it.
fn parse(value: &Value) -> Result<Declared<'_>, String> {
    let Value::Object(map) = value else {
        return Err("the declaration is neither an object nor `false`".into());
    };
    let text = |key: &str| match map.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(format!("`{key}` is not a string")),
    };
    if let Some(key) =
        map.keys().find(|k| !["page", "offset", "cursor", "size", "next", "items", "total"].contains(&k.as_str()))
    {
        return Err(format!("`{key}` is not one of page, offset, cursor, size, next, items and total"));
    }
    let mut kinds = Vec::new();
    for kind in ["page", "offset", "cursor"] {
        if let Some(param) = text(kind)? {
            kinds.push((kind, param));
        }
    }
    let [(kind, param)] = kinds[..] else {
        return Err("the declaration names exactly one of `page`, `offset` and `cursor`".into());
    };
    Ok(Declared { kind, param, size: text("size")?, next: text("next")?, items: text("items")?, total: text("total")? })
}

/// The wire names of a `$response.body#/a/b` expression, or what is wrong with it.
fn body_pointer(expression: &str) -> Result<Vec<String>, String> {
    let pointer = expression
        .strip_prefix("$response.body")
        .map(|rest| rest.strip_prefix('#').unwrap_or(rest))
        .ok_or_else(|| format!("`{expression}` is not a `$response.body#/…` expression"))?;
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let pointer = pointer.strip_prefix('/').ok_or_else(|| format!("`{expression}` has no `/` after `#`"))?;
    Ok(pointer.split('/').map(|part| part.replace("~1", "/").replace("~0", "~")).collect())
}

/// What the pointers of a reply start from: each object of a reply that is an array of them,
/// else the reply itself.
fn each(reply: &TypeRef) -> &TypeRef {
    match reply {
        TypeRef::Vec(inner) => inner,
        _ => reply,
    }
}

/// Whether the paging parameter has a type its kind can walk.
fn check_param(kind: &PageKind, param: &Param) -> Result<(), String> {
    match kind {
        PageKind::Number { .. } | PageKind::Offset { .. } if !is_integer(&param.ty) => {
            Err(format!("the parameter `{}` is not an integer", param.wire))
        }
        PageKind::Cursor { .. } if param.required => {
            Err(format!("the cursor `{}` is required, but the first page is asked for without one", param.wire))
        }
        PageKind::Cursor { .. } if !matches!(param.ty, TypeRef::String | TypeRef::I32 | TypeRef::I64) => {
            Err(format!("the cursor `{}` is neither a string nor an integer", param.wire))
        }
        _ => Ok(()),
    }
}

/// Pages are counted from 0 where the page parameter defaults to 0 or allows it as its minimum.
fn first_page(param: &Param) -> i64 {
    let zero_based = matches!(param.default, Some(DefaultValue::Int(0))) || param.constraints.minimum == Some(0.0);
    if zero_based { 0 } else { 1 }
}

fn default_size(size: Option<&Param>) -> Option<i64> {
    match size?.default {
        Some(DefaultValue::Int(n)) => Some(n),
        _ => None,
    }
}

fn is_integer(ty: &TypeRef) -> bool {
    matches!(ty, TypeRef::I32 | TypeRef::I64)
}

/// The path to a field of the struct at hand.
fn path_to(f: &Field) -> FieldPath {
    FieldPath { fields: vec![(f.name.clone(), Holder::of(f))], ty: f.ty.clone() }
}

/// How a walk pages, for warnings and docs: "numbered pages in `page` (from 1), sized by `size`".
pub(crate) fn describe(paging: &Paging, params: &[Param]) -> String {
    let wire = |at: usize| &params[at].wire;
    let mut text = match &paging.kind {
        PageKind::Number { param, first } => format!("numbered pages in `{}` (from {first})", wire(*param)),
        PageKind::Offset { param } => format!("offsets in `{}`", wire(*param)),
        PageKind::Cursor { param } => {
            let from = match &paging.next {
                Some(NextKey::Body(_)) => "the reply body",
                Some(NextKey::Header(_)) => "a reply header",
                _ => "the `Link` header",
            };
            format!("cursors in `{}` (the next one from {from})", wire(*param))
        }
    };
    if let Some(size) = paging.size {
        text.push_str(&format!(", sized by `{}`", wire(size)));
    }
    text
}
