//! The tool's commands, as library code that the `apigen` binary and the repository's own
//! `cargo xtask` both call: [`cli`] reads each command's arguments; [`diff`] compares two versions
//! of a document; [`serve_mock`] serves a document's generated mock server; [`client_probe`] calls
//! every operation of a document's generated client against a server.

pub mod cli;
pub mod client_probe;
pub mod diff;
mod helper;
pub mod serve_mock;

pub use helper::crate_name;
