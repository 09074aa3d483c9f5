//! The end-to-end tests, one binary with a module per wire feature or topic. Client and server are
//! the generated crates of the project spec and of the fixtures under `codegen/tests/fixtures`,
//! talking over real HTTP on 127.0.0.1, or one of them against a raw peer.

mod fixtures;

// The project spec, its generated crates and the sandbox.
mod end_to_end;
mod generated_code;
mod mock_and_partial;
mod prism;
mod sandbox;
mod spec;

// What travels on the wire, across the fixtures.
mod bodies;
mod errors;
mod multipart;
mod paging;
mod parameters;
mod repairs;
mod replies;
mod routing;
mod security;
mod unions;
mod validation;

// Documents of other shapes: OpenAPI 3.1 and 3.2, specs split across files.
mod openapi31;
mod openapi32;
mod split;

// The client's own behaviour: arguments, calls, safety against peers, wire bytes, memory.
mod client_arguments;
mod client_features;
mod client_safety;
mod client_wire;
mod hostile_server;
mod memory;

// The server under load and against bad requests.
mod serve_limits;
mod serve_pressure;
mod server_rejections;
