//! Server support: reading and checking requests, problem+json replies, downloads and serving
//! with limits.

#[doc(hidden)]
pub mod body;
#[doc(hidden)]
pub mod budget;
mod config;
#[doc(hidden)]
pub mod download;
mod error_reply;
#[doc(hidden)]
pub mod extract;
#[doc(hidden)]
pub mod form;
#[doc(hidden)]
pub mod mock;
#[doc(hidden)]
pub mod multipart;
#[doc(hidden)]
pub mod problem;
#[doc(hidden)]
pub mod reply;
#[doc(hidden)]
pub mod serve;
#[doc(hidden)]
pub mod stream;
#[doc(hidden)]
pub mod upgrade;

pub use config::ServerConfig;
#[doc(hidden)]
pub use config::{Shared, unrouted};
pub use download::FileDownload;
pub use error_reply::{ErrorList, ErrorReply, ErrorShape, Fill, Statuses};
pub use problem::{ApiError, problem_types};
pub use serve::{ServeConfig, bind, serve, serve_with, shutdown_signal};
pub use stream::ItemStream;
pub use upgrade::{Switch, Upgraded};
