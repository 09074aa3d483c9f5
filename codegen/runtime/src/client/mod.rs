//! Client support: the transport (redirects, limits, deadlines, retries), errors, downloads,
//! request encodings and paging, and the builder and credentials plumbing every client shares.

pub(crate) mod builder;
pub(crate) mod download;
pub(crate) mod encoding;
mod error;
pub(crate) mod hooks;
pub(crate) mod multipart;
pub(crate) mod operation;
pub(crate) mod paging;
pub(crate) mod policy;
pub(crate) mod stream;
pub(crate) mod transport;
pub(crate) mod upgrade;

pub use builder::{ApiClient, BoxError, ClientBuilder, Connection, CredentialsProvider, http_client_builder};
pub use download::{ByteStream, Download};
pub use error::{Error, ProblemDetails, StatusError, TimeoutKind};
pub use hooks::Hooks;
pub use operation::Sending;
pub use paging::Items;
pub use policy::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_ERROR_BODY, DEFAULT_MAX_PAGES, DEFAULT_MAX_REPLY_SIZE,
    DEFAULT_MIN_DOWNLOAD_RATE, DEFAULT_READ_TIMEOUT, DEFAULT_STREAM_IDLE_TIMEOUT, DEFAULT_TIMEOUT,
    DOWNLOAD_RATE_WINDOW, RetryPolicy,
};
pub use stream::ItemStream;
pub use upgrade::Upgraded;
