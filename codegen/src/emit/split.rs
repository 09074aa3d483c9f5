//! A large API's types in several crates: each tag's own types (the ones no other tag reaches) in
//! a crate of that tag, the rest in the core crate. Cargo then builds the tags' crates side by
//! side, and a build with some tags compiles only their crates and the core.
//!
//! The split follows the features: a type compiled by the feature of one tag reaches only types
//! that tag compiles too, so a tag's crate needs only itself and the core, and the core (whose
//! types are compiled by several features, or always) needs no tag's crate.

use proc_macro2::TokenStream;
use quote::quote;

use super::facts::TypeItem;
use crate::ir::{Api, ErrorsDef};

/// The types crates of a spec: one, or the core and one per tag.
#[derive(Debug, Clone, Default)]
pub struct Split {
    /// The features (tags', and the one of the schemas no operation reaches) whose types have a
    /// crate of their own, in the order of [`crate::ir::TagFeatures::features`]; empty when the
    /// types stay in one crate.
    pub tags: Vec<String>,
}

impl Split {
    /// The split for `api`: none unless it has tag features and at least `from` types.
    pub fn of(api: &Api, from: usize) -> Split {
        let Some(tags) = &api.tag_features else { return Split::default() };
        let items = super::facts::items(api);
        if items.len() < from {
            return Split::default();
        }
        let owned = |feature: &String| items.iter().any(|t| matches!(t.features(api), [one] if one == feature));
        let tags = tags.features.iter().chain(&tags.unused).filter(|f| owned(f)).cloned().collect();
        Split { tags }
    }
}

/// Which of the types crates an emitter writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypesCrate<'a> {
    /// The one types crate of a spec whose types are not split: all of them.
    Whole,
    /// The core crate of a split: the types no single tag owns.
    Core,
    /// The crate of one feature of a split: the types only it compiles.
    Tag(&'a str),
}

impl TypesCrate<'_> {
    /// Whether this crate holds an item that `features` compile (none: always compiled).
    pub fn holds(self, features: &[String]) -> bool {
        match (self, features) {
            (TypesCrate::Whole, _) => true,
            (TypesCrate::Core, [_]) => false,
            (TypesCrate::Core, _) => true,
            (TypesCrate::Tag(tag), [one]) => one == tag,
            (TypesCrate::Tag(_), _) => false,
        }
    }

    /// Whether this crate holds what a spec's types have once (the schema checks, the features
    /// per tag): the one crate, or the core of a split.
    pub fn is_core(self) -> bool {
        !matches!(self, TypesCrate::Tag(_))
    }

    /// Those of `items` (the types crates', in order) this crate holds.
    pub fn select<'b>(self, api: &'b Api, items: &[TypeItem<'b>]) -> Vec<TypeItem<'b>> {
        items.iter().filter(|t| self.holds(t.features(api))).copied().collect()
    }

    /// The `#[cfg]` of an item that `features` compile, in this crate: none in a tag's crate,
    /// which is compiled only with that feature.
    pub fn cfg(self, features: &[String]) -> Option<proc_macro2::TokenStream> {
        match self {
            TypesCrate::Tag(_) => None,
            TypesCrate::Whole | TypesCrate::Core => super::cfg_any(features),
        }
    }
}

/// The error enums `part` defines, in the order of the operations.
pub fn error_enums<'a>(api: &'a Api, part: TypesCrate<'_>) -> impl Iterator<Item = &'a ErrorsDef> {
    api.operations.iter().filter_map(|op| op.errors.as_ref()).filter(move |e| e.defines() && part.holds(&e.features))
}

impl Split {
    /// The `types` module of a client or server crate, which re-exports the types crates' (the
    /// core is the package `core`); each tag's behind the feature `gate` says (none: always).
    pub fn reexport(&self, core: &str, gate: impl Fn(&str) -> Option<String>) -> Reexport {
        let crate_ident = |name: &str| name.replace('-', "_");
        let tags = self.tags.iter().map(|tag| (crate_ident(&tag_crate_name(core, tag)), gate(tag))).collect();
        Reexport { core: crate_ident(core), tags }
    }
}

/// The package of `tag`'s types, beside the core package `core`.
pub fn tag_crate_name(core: &str, tag: &str) -> String {
    format!("{core}-{tag}")
}

/// The `types` module of a client or server crate: the types crates it re-exports.
#[derive(Debug, Clone)]
pub struct Reexport {
    /// The Rust name of the (core) types crate.
    core: String,
    /// The Rust names of the tags' crates, each with the feature it is built with (none: always).
    tags: Vec<(String, Option<String>)>,
}

impl Reexport {
    /// `pub use core::types;` for one crate, else a module of the core's types and each tag's.
    pub fn tokens(&self) -> TokenStream {
        let core = super::ident(&self.core);
        if self.tags.is_empty() {
            return quote! { pub use #core::types; };
        }
        let tags = self.tags.iter().map(|(krate, feature)| {
            let krate = super::ident(krate);
            let cfg = feature.as_ref().map(|feature| quote! { #[cfg(feature = #feature)] });
            quote! { #cfg pub use #krate::types::*; }
        });
        quote! {
            /// The request and reply types, one per schema: the core crate's, and each tag's own
            /// from the crate of that tag.
            pub mod types {
                #[allow(unused_imports, reason = "every type may be some tag's own")]
                pub use #core::types::*;
                #(#tags)*
            }
        }
    }
}
