//! One generic send path for every operation: a generated request builder says how to build its
//! request and how to turn a successful reply into its typed answer, both synchronously;
//! credentials, sending, retries, status checks and reading the body happen here, once.

use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::time::Duration;

use bytes::Bytes;
use reqwest::header::{ACCEPT, HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;

use crate::client::transport::{self, Call, Received};
use crate::client::{ApiClient, Connection, Error};

/// A request on its way, as a builder's `send()` returns it: a future of the reply (or why there is
/// none) that may move between threads, so it can be spawned or stored by name.
pub type Sending<'a, T> = Pin<Box<dyn Future<Output = Result<T, Error>> + Send + 'a>>;

/// An operation's request builder for the client `A`, as the runtime sends it.
pub trait Operation<A: ApiClient>: Sized + Send {
    /// What a successful call answers.
    type Reply;
    /// How much of a successful reply is read before [`Operation::reply`] sees it.
    type Read: Read;
    /// The operation, for the request, retries and the span.
    const CALL: Call;
    /// Which credentials the operation sends, and who adds them to the request.
    const SIGNING: Signing = Signing::Usual;
    /// Whether the operation sends the API's version header (when the API has one).
    const VERSIONED: bool = true;

    /// The request, ready to send through `client`.
    fn request(self, client: Target<'_, A>) -> Result<reqwest::RequestBuilder, Error>;

    /// The typed answer of a successful reply.
    fn reply(reply: Self::Read) -> Result<Self::Reply, Error>;
}

/// Sends `operation` through `client`, within `timeout` when given, as a future that may move
/// between threads.
pub fn sending<'a, A, O>(client: &'a Connection<A>, timeout: Option<Duration>, operation: O) -> Sending<'a, O::Reply>
where
    A: ApiClient,
    O: Operation<A> + 'a,
    O::Reply: Send,
{
    Box::pin(send(client, timeout, operation))
}

async fn send<A: ApiClient, O: Operation<A>>(
    client: &Connection<A>,
    timeout: Option<Duration>,
    operation: O,
) -> Result<O::Reply, Error> {
    let credentials = match O::SIGNING {
        Signing::Anonymous => None,
        Signing::Usual | Signing::Own => Some(client.credential_headers(O::CALL.operation).await?),
    };
    let target = Target {
        connection: client,
        credentials: credentials.as_deref(),
        operation: O::CALL.operation,
        usual: O::SIGNING == Signing::Usual,
        versioned: O::VERSIONED,
    };
    let request = operation.request(target)?;
    let received = client.send(&O::CALL, timeout, request).await?;
    let received = transport::any_of(received, O::CALL.success).await?;
    O::reply(O::Read::read(received).await?)
}

/// Which credentials an operation sends, and who adds them to its request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signing {
    /// None: the credentials are not fetched.
    Anonymous,
    /// The API's usual set, which [`ApiClient::sign`] adds when the request is made.
    Usual,
    /// Another set (an alternative, a cookie, a query parameter), which the operation adds itself
    /// from [`Target::credentials`].
    Own,
}

/// Where a request is built: the client's connection and, for a signed operation, the
/// credentials to send.
pub struct Target<'a, A: ApiClient> {
    connection: &'a Connection<A>,
    credentials: Option<&'a A::CredentialHeaders>,
    operation: &'static str,
    usual: bool,
    versioned: bool,
}

impl<'a, A: ApiClient> Target<'a, A> {
    /// A request of `call` to `url`, asking for `accept`, with the usual credentials and the
    /// version header when the operation sends them.
    pub fn request(&self, call: &Call, url: String, accept: &'static str) -> reqwest::RequestBuilder {
        let mut request = self.connection.transport.http.request(call.method(), url);
        request = request.header(ACCEPT, HeaderValue::from_static(accept));
        if let (true, Some(credentials)) = (self.usual, self.credentials) {
            request = A::sign(request, credentials);
        }
        if let (true, Some((header, _))) = (self.versioned, A::VERSION_HEADER) {
            request = request.header(header, self.connection.version().clone());
        }
        request
    }

    /// The credentials of a signed operation. An error only if the operation sends credentials
    /// while saying it does not ([`Operation::SIGNING`]), which the generator never writes.
    pub fn credentials(&self) -> Result<&'a A::CredentialHeaders, Error> {
        self.credentials.ok_or_else(|| Error::InvalidArgument {
            name: "credentials",
            reason: format!("{} sends credentials but was given none", self.operation),
        })
    }
}

impl<A: ApiClient> std::ops::Deref for Target<'_, A> {
    type Target = Connection<A>;

    fn deref(&self) -> &Connection<A> {
        self.connection
    }
}

/// How much of a successful reply the runtime reads for an operation.
pub trait Read: Sized + Send {
    /// Reads `received` (whose status is a documented success).
    fn read(received: Received) -> impl Future<Output = Result<Self, Error>> + Send;
}

/// The reply left open, for downloads and item streams, which read their bodies as they arrive.
impl Read for Received {
    async fn read(received: Received) -> Result<Self, Error> {
        Ok(received)
    }
}

/// A reply read whole (within the client's reply limit): its status, headers and body.
#[derive(Debug)]
pub struct Whole {
    operation: &'static str,
    status: u16,
    headers: HeaderMap,
    body: Bytes,
}

impl Read for Whole {
    async fn read(mut received: Received) -> Result<Self, Error> {
        let (operation, status) = (received.operation(), received.status().as_u16());
        let headers = std::mem::take(received.headers_mut());
        let body = transport::read_body(received).await?;
        Ok(Whole { operation, status, headers, body })
    }
}

impl Whole {
    /// The reply's status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The body decoded as JSON; a failure names the path of the value that did not fit.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, Error> {
        transport::decode(self.operation, self.body.clone())
    }

    /// An optional reply header; a value that does not parse is an [`Error::Decode`] naming it.
    pub fn header<T>(&self, name: &'static str) -> Result<Option<T>, Error>
    where
        T: FromStr,
        T::Err: std::fmt::Display,
    {
        transport::header(self.operation, &self.headers, name)
    }

    /// A reply header the operation documents as always present.
    pub fn required_header<T>(&self, name: &'static str) -> Result<T, Error>
    where
        T: FromStr,
        T::Err: std::fmt::Display,
    {
        transport::required_header(self.operation, &self.headers, name)
    }
}

/// What every generated request builder has besides its parameters and its [`Operation`]: a
/// per-call `timeout`, and `send()` and `.await` through [`sending`].
///
/// `request_builder!(Builder, Reply)`: the builder has `client: &Client` and
/// `timeout: Option<Duration>` fields and implements [`Operation`] with `Reply`.
#[doc(hidden)]
#[macro_export]
macro_rules! __request_builder {
    ($builder:ident, $reply:ty) => {
        impl<'a> $builder<'a> {
            /// Gives up on this call after `timeout`, whatever the client's own timeout.
            pub fn timeout(mut self, timeout: ::std::time::Duration) -> Self {
                self.timeout = Some(timeout);
                self
            }

            /// Sends the request and reads the reply; awaiting the builder does the same.
            pub fn send(self) -> $crate::client::Sending<'a, $reply> {
                let client = self.client;
                $crate::codegen::client::operation::sending(&client.connection, self.timeout, self)
            }
        }

        impl<'a> ::std::future::IntoFuture for $builder<'a> {
            type Output = ::std::result::Result<$reply, $crate::client::Error>;
            type IntoFuture = $crate::client::Sending<'a, $reply>;
            fn into_future(self) -> Self::IntoFuture {
                self.send()
            }
        }
    };
}

#[doc(hidden)]
pub use crate::__request_builder as request_builder;
