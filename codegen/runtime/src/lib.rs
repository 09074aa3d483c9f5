//! What every crate written by `portfolio-codegen` shares and nothing in a spec changes: date-times,
//! enum support and files for the types; the transport, errors, retries and paging of clients
//! (feature `client`); extraction, validation, problem replies and serving for servers (feature
//! `server`).
//!
//! Generated crates re-export what their users need, so depending on this crate directly is rarely
//! necessary. [`codegen`] holds what only generated code calls; it is not a stable interface.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod date_time;
#[doc(hidden)]
pub mod enums;
mod file;
mod format;
#[doc(hidden)]
pub mod framing;
#[cfg(feature = "json-schema")]
#[doc(hidden)]
pub mod json_schema;
mod nullable;
#[doc(hidden)]
pub mod object_only;
#[cfg(feature = "pattern")]
#[doc(hidden)]
pub mod pattern;
#[doc(hidden)]
pub mod request_json;
#[cfg(feature = "xml")]
#[doc(hidden)]
pub mod xml;

#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "server")]
pub mod server;

pub use date_time::{DateTime, DateTimeError};
pub use enums::UnknownVariant;
pub use file::{File, safe_file_name};
pub use format::Format;
pub use nullable::Nullable;

/// The `time` crate, whose types [`DateTime`] converts to and from.
#[cfg(feature = "time")]
pub use time;

/// What generated code calls and nothing else should: its paths change whenever the generator's
/// output does.
#[doc(hidden)]
pub mod codegen {
    #[cfg(feature = "json-schema")]
    pub use crate::json_schema;
    #[cfg(feature = "pattern")]
    pub use crate::pattern;
    #[cfg(feature = "xml")]
    pub use crate::xml;
    pub use crate::{enums, framing, object_only, request_json};
    /// serde, for the impls the runtime's macros write.
    pub use serde;

    /// The client's internals.
    #[cfg(feature = "client")]
    pub mod client {
        pub use crate::client::{cookie_credential, header_value, http_client_builder_for, query_credential};
        pub use crate::client::{download, encoding, multipart, paging, policy, stream, transport, upgrade};
    }

    /// The server's internals.
    #[cfg(feature = "server")]
    pub mod server {
        pub use crate::server::{Shared, unrouted};
        pub use crate::server::{
            body, budget, download, extract, form, mock, multipart, problem, reply, serve, stream, upgrade,
        };
        /// The listener the generated `serve` takes.
        pub use tokio::net::TcpListener;
    }
}
