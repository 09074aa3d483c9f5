//! Sending a request and reading its reply, shared by every operation.

use bytes::Bytes;
use reqwest::Response;
use serde::de::DeserializeOwned;

use crate::{Error, ProblemDetails, StatusError};

/// Sends a request, mapping a failure to [`Error::Transport`].
pub(crate) async fn send(operation: &'static str, request: reqwest::RequestBuilder) -> Result<Response, Error> {
    request.send().await.map_err(|source| Error::Transport { operation, source })
}

/// Reads a JSON reply with the documented success status.
pub(crate) async fn json<T: DeserializeOwned>(operation: &'static str, response: Response, success: u16) -> Result<T, Error> {
    let response = expect_status(operation, response, success).await?;
    let body = read_body(operation, response).await?;
    match serde_json::from_slice(&body) {
        Ok(value) => Ok(value),
        Err(source) => {
            // Decode again, tracking the path, only now that it is needed: the fast path stays fast.
            let mut de = serde_json::Deserializer::from_slice(&body);
            let path = match serde_path_to_error::deserialize::<_, T>(&mut de) {
                Err(e) => e.path().to_string(),
                Ok(_) => ".".to_string(),
            };
            Err(Error::Decode { operation, path, body, source })
        }
    }
}

/// Reads a reply without a body, discarding whatever body the server sent anyway.
pub(crate) async fn empty(operation: &'static str, response: Response, success: u16) -> Result<(), Error> {
    let response = expect_status(operation, response, success).await?;
    read_body(operation, response).await.map(drop)
}

/// Passes a reply with the documented success status through; turns any other into
/// [`Error::Status`], reading its body.
pub(crate) async fn expect_status(operation: &'static str, response: Response, success: u16) -> Result<Response, Error> {
    if response.status().as_u16() == success {
        return Ok(response);
    }
    let status = response.status();
    let headers = response.headers().clone();
    let body = read_body(operation, response).await?;
    let is_json = headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.split(';').next().unwrap_or("").trim().ends_with("json"));
    let problem = if is_json { ProblemDetails::from_body(&body) } else { None };
    Err(Error::Status(Box::new(StatusError { operation, status, headers, body, problem })))
}

async fn read_body(operation: &'static str, response: Response) -> Result<Bytes, Error> {
    response.bytes().await.map_err(|source| Error::Transport { operation, source })
}
