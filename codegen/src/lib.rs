//! OpenAPI 3.0 → Rust client and server crates.
//!
//! The pipeline runs in one direction: [`load`] parses text into `openapiv3` types; later stages
//! lower that into a resolved IR and emit Rust from it. Nothing here touches the disk.

mod load;

pub use load::{LoadError, load};
