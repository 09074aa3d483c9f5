//! Replies that switch protocols (`101 Switching Protocols`): the connection, handed to the
//! caller.

pub use reqwest::Upgraded;

use crate::client::Error;
use crate::client::operation::Read;
use crate::client::transport::{Received, without_query};

/// The switched connection of a `101` reply.
impl Read for Upgraded {
    async fn read(received: Received) -> Result<Self, Error> {
        let operation = received.operation();
        let upgraded = received.into_response().upgrade().await;
        upgraded.map_err(|source| Error::Transport { operation, source: without_query(source) })
    }
}
