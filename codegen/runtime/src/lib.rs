//! What every crate written by `apigen` shares and nothing in a spec changes: date-times,
//! enum support and files for the types; the transport, errors, retries and paging of clients
//! (feature `client`); extraction, validation, problem replies and serving for servers (feature
//! `server`).
//!
//! Generated crates re-export what their users need, so depending on this crate directly is rarely
//! necessary. [`codegen`] holds what only generated code calls; it is not a stable interface.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod date_time;
mod enums;
mod file;
mod format;
mod framing;
#[cfg(feature = "json-schema")]
mod json_schema;
mod nullable;
#[cfg(feature = "pattern")]
mod pattern;
mod record;
mod request_json;
mod setters;
#[cfg(feature = "xml")]
mod xml;

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
    /// Re-exports a module of the runtime here, the one path generated code reaches it by.
    macro_rules! door {
        ($($(#[$attr:meta])* $name:ident = $path:path;)*) => {
            $($(#[$attr])* pub mod $name {
                pub use $path::*;
            })*
        };
    }

    door! {
        enums = crate::enums;
        framing = crate::framing;
        record = crate::record;
        request_json = crate::request_json;
        setters = crate::setters;
        #[cfg(feature = "json-schema")]
        json_schema = crate::json_schema;
        #[cfg(feature = "pattern")]
        pattern = crate::pattern;
        #[cfg(feature = "xml")]
        xml = crate::xml;
    }

    /// serde, for the impls the runtime's macros write.
    pub use serde;

    /// The client's internals.
    #[cfg(feature = "client")]
    pub mod client {
        pub use crate::client::builder::{cookie_credential, header_value, http_client_builder_for, query_credential};

        door! {
            download = crate::client::download;
            encoding = crate::client::encoding;
            multipart = crate::client::multipart;
            operation = crate::client::operation;
            paging = crate::client::paging;
            policy = crate::client::policy;
            stream = crate::client::stream;
            transport = crate::client::transport;
            upgrade = crate::client::upgrade;
        }
    }

    /// The server's internals.
    #[cfg(feature = "server")]
    pub mod server {
        pub use crate::server::config::{Shared, unrouted};
        /// The listener the generated `serve` takes.
        pub use tokio::net::TcpListener;

        door! {
            body = crate::server::body;
            budget = crate::server::budget;
            download = crate::server::download;
            extract = crate::server::extract;
            form = crate::server::form;
            mock = crate::server::mock;
            multipart = crate::server::multipart;
            problem = crate::server::api_error;
            reply = crate::server::reply;
            serve = crate::server::serve;
            stream = crate::server::stream;
            upgrade = crate::server::upgrade;
        }
    }
}
