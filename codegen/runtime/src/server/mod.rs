//! Server support: reading and checking requests, problem+json replies, downloads and serving
//! with limits.

pub(crate) mod api_error;
pub(crate) mod body;
pub(crate) mod budget;
pub(crate) mod config;
pub(crate) mod download;
mod error_reply;
pub(crate) mod extract;
pub(crate) mod form;
pub(crate) mod mock;
pub(crate) mod multipart;
pub(crate) mod operation;
mod pairs;
mod problems;
pub(crate) mod reply;
pub(crate) mod serve;
pub(crate) mod stream;
pub(crate) mod upgrade;

pub use api_error::{ApiError, ApiResult, problem_types};
pub use config::ServerConfig;
pub use download::FileDownload;
pub use error_reply::{ErrorList, ErrorReply, ErrorShape, Fill, Statuses};
pub use operation::Operation;
pub use serve::{ServeConfig, bind, serve, serve_with, shutdown_signal};
pub use stream::ItemStream;
pub use upgrade::{Switch, Upgraded};
