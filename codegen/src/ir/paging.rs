//! How an operation's replies page: where the next page's key is and what a page holds.

use super::types::{Field, TypeRef};

/// A paged operation: which parameter selects a page, how the next one is found, and where a
/// reply keeps its items.
#[derive(Debug, Clone, PartialEq)]
pub struct Paging {
    pub kind: PageKind,
    /// The page-size parameter, when there is one: an index into [`Operation::params`](super::Operation::params).
    pub size: Option<usize>,
    /// The spec's default page size, to recognise a short (last) page.
    pub default_size: Option<i64>,
    /// Where the key of the next page is read; `None` for numbered and offset pages, whose next
    /// key is counted.
    pub next: Option<NextKey>,
    /// Type of one item.
    pub item: TypeRef,
    pub shape: PageShape,
}

/// What the paging parameter holds. Each names its parameter by an index into
/// [`Operation::params`](super::Operation::params).
#[derive(Debug, Clone, PartialEq)]
pub enum PageKind {
    /// A page number; the first page is `first` (0 or 1).
    Number { param: usize, first: i64 },
    /// How many items to skip.
    Offset { param: usize },
    /// An opaque value the previous reply gave; absent for the first page.
    Cursor { param: usize },
}

impl PageKind {
    /// The paging parameter's index into [`Operation::params`](super::Operation::params).
    pub fn param(&self) -> usize {
        match self {
            PageKind::Number { param, .. } | PageKind::Offset { param } | PageKind::Cursor { param } => *param,
        }
    }
}

/// Where a reply gives the key of the next page.
#[derive(Debug, Clone, PartialEq)]
pub enum NextKey {
    /// A value in the body, by this path from the reply (or from each wrapper).
    Body(FieldPath),
    /// A documented reply header holding the key itself: its field in the headers struct.
    Header(FieldPath),
    /// A documented `Link` header (RFC 8288): the paging parameter's value in the query of its
    /// `rel="next"` URL.
    Link(FieldPath),
}

/// A value inside a reply or its headers: the Rust fields that lead to it, each with how it
/// holds its value, and its type.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldPath {
    pub fields: Vec<(String, Holder)>,
    pub ty: TypeRef,
}

/// How a struct field holds its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// As it is.
    Plain,
    /// In an `Option`.
    Option,
    /// In a `Nullable`, which tells `null` from absent.
    Nullable,
}

impl Holder {
    /// How `field` holds its value.
    pub fn of(field: &Field) -> Holder {
        if field.tristate {
            Holder::Nullable
        } else if !field.required || field.nullable {
            Holder::Option
        } else {
            Holder::Plain
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum PageShape {
    /// The reply is the array of items.
    Array,
    /// The reply is one wrapper object.
    Wrapper(PageWrapper),
    /// The reply is an array of wrapper objects whose items are concatenated.
    ArrayOfWrappers(PageWrapper),
}

/// Where a paged wrapper keeps its items and, when it says, the total that ends the walk: the
/// number of pages for numbered pages, of items for offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct PageWrapper {
    pub items: FieldPath,
    pub total: Option<FieldPath>,
}
