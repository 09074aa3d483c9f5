//! Binary replies: a file streamed to the caller with its name and content type.

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::Response;

use crate::server::ApiError;
use crate::server::reply::status_code;

/// A file to send: its body (streamed as produced) and what the headers say about it.
#[derive(Debug)]
#[non_exhaustive]
pub struct FileDownload {
    /// `Content-Type`; `application/octet-stream` when not set.
    pub content_type: Option<String>,
    /// Offered to the caller in `Content-Disposition`.
    pub file_name: Option<String>,
    /// The content. `Body::from_stream` sends a stream chunk by chunk without buffering it.
    pub body: Body,
    /// The status to answer with, one the operation documents for a download (`206` for part
    /// of a file, say); the first it documents when not set.
    pub status: Option<u16>,
}

impl FileDownload {
    /// A download of `body`, with no file name and the default content type.
    pub fn new(body: impl Into<Body>) -> Self {
        FileDownload { content_type: None, file_name: None, body: body.into(), status: None }
    }

    /// Sets the file name offered to the caller.
    pub fn with_file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = Some(name.into());
        self
    }

    /// Sets the status to answer with, which must be one the operation documents for a download.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Sets the content type.
    pub fn with_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = Some(content_type.into());
        self
    }
}

/// A streamed file, at the status the file asks for or else the first of `documented`; a status the
/// operation does not document is the implementation's mistake, answered as an internal error.
pub fn reply(documented: &[u16], file: FileDownload) -> Result<Response, ApiError> {
    let status = match file.status {
        None => documented.first().copied().unwrap_or(200),
        Some(status) if documented.contains(&status) => status,
        Some(status) => {
            return Err(ApiError::internal(format!(
                "the download's status {status} is not one the operation documents ({documented:?})"
            )));
        }
    };
    // A status that has no content in HTTP (a `204` beside the download) sends none.
    if matches!(status, 204 | 205 | 304) {
        let mut response = Response::new(Body::empty());
        *response.status_mut() = status_code(status);
        return Ok(response);
    }
    let mut response = Response::new(file.body);
    *response.status_mut() = status_code(status);
    let content_type = file.content_type.as_deref().unwrap_or("application/octet-stream");
    let content_type = HeaderValue::from_str(content_type)
        .map_err(|_| ApiError::internal(format!("`{content_type}` is not a valid content type")))?;
    response.headers_mut().insert(header::CONTENT_TYPE, content_type);
    if let Some(name) = &file.file_name {
        response.headers_mut().insert(header::CONTENT_DISPOSITION, content_disposition(name));
    }
    Ok(response)
}

/// `attachment` with the name twice: an ASCII fallback and the exact UTF-8 name (RFC 6266).
fn content_disposition(name: &str) -> HeaderValue {
    let fallback: String =
        name.chars().map(|c| if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' { c } else { '_' }).collect();
    let encoded = percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC);
    let value = format!("attachment; filename=\"{fallback}\"; filename*=UTF-8''{encoded}");
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

#[cfg(test)]
mod tests {
    use super::content_disposition;

    #[test]
    fn file_names_are_offered_in_ascii_and_utf8() {
        assert_eq!(
            content_disposition("résumé \"v2\".pdf"),
            "attachment; filename=\"r_sum_ _v2_.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22%2Epdf"
        );
    }
}
