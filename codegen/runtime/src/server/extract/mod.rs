//! Reading parameters and bodies from a request. Every problem is collected, so one 400 reply
//! names all of them. Generated routers call what the files below define, all through this
//! module.

mod bodies;
mod checks;
mod headers;
mod path;
mod query;
#[cfg(test)]
mod tests;

pub use bodies::*;
pub use checks::*;
pub use headers::*;
pub use path::*;
pub use query::*;

pub use crate::Format;
pub use crate::server::problems::{Problems, located};
