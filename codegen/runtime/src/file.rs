//! Files that travel as parts of a multipart body, the same type on both sides.

use bytes::Bytes;

/// A file in a multipart body: sent by a client, received by a server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct File {
    /// The file name. A client offers `file` when it is not set, since many servers only treat a
    /// part with a file name as a file; a server sees what the client offered, if anything.
    pub name: Option<String>,
    /// The media type of the bytes; a client declares `application/octet-stream` when not set.
    pub content_type: Option<String>,
    /// The content; on a server it shares the request body's memory rather than copying it.
    pub bytes: Bytes,
}

impl File {
    /// A file called `name` holding `bytes`, of no particular media type.
    pub fn new(name: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        File { name: Some(name.into()), content_type: None, bytes: bytes.into() }
    }

    /// The same file, declared to be of `content_type` (e.g. `image/png`).
    pub fn with_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.content_type = Some(content_type.into());
        self
    }
}
