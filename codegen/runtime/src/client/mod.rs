//! Client support: the transport (redirects, limits, deadlines, retries), errors, downloads,
//! request encodings and paging, and the builder and credentials plumbing every client shares.

mod builder;
#[doc(hidden)]
pub mod download;
#[doc(hidden)]
pub mod encoding;
mod error;
#[doc(hidden)]
pub mod multipart;
#[doc(hidden)]
pub mod paging;
#[doc(hidden)]
pub mod policy;
#[doc(hidden)]
pub mod stream;
#[doc(hidden)]
pub mod transport;
#[doc(hidden)]
pub mod upgrade;

pub use builder::{ApiClient, BoxError, ClientBuilder, Connection, CredentialsProvider, http_client_builder};
#[doc(hidden)]
pub use builder::{cookie_credential, header_value, http_client_builder_for, query_credential};
pub use download::{ByteStream, Download};
pub use error::{Error, ProblemDetails, StatusError, TimeoutKind};
pub use paging::Items;
pub use policy::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_ERROR_BODY, DEFAULT_MAX_REPLY_SIZE, DEFAULT_READ_TIMEOUT,
    DEFAULT_STREAM_IDLE_TIMEOUT, DEFAULT_TIMEOUT, RetryPolicy,
};
pub use stream::ItemStream;
pub use upgrade::Upgraded;
