//! Replies that switch protocols (`101 Switching Protocols`): the connection, handed to the
//! caller.

pub use reqwest::Upgraded;

use crate::client::Error;
use crate::client::transport::{Received, expect_status};

/// The switched connection of a `101` reply; any other status is an [`Error::Status`].
pub async fn read(response: Received) -> Result<Upgraded, Error> {
    let response = expect_status(response, 101).await?;
    let operation = response.operation();
    let upgraded = response.into_response().upgrade().await;
    upgraded.map_err(|source| Error::Transport { operation, source: crate::client::transport::without_query(source) })
}
