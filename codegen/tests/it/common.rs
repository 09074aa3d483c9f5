//! What the integration tests share.

use apigen::{Config, CrateConfig, Runtime};

/// Generates all three crates from `spec_path` (as the headers name it), strictly, in this
/// workspace's layout: `{prefix}-client` in `client/`, and so for `server` and `types`.
pub fn config(prefix: &str, spec_path: &str) -> Config {
    let crate_config = |side: &str| Some(CrateConfig { name: format!("{prefix}-{side}"), dir: side.to_string() });
    Config {
        spec_path: spec_path.to_string(),
        client: crate_config("client"),
        server: crate_config("server"),
        types: crate_config("types"),
        standalone: false,
        runtime: Runtime::Path { dir: "codegen/runtime".to_string(), vendored: false },
        strict: true,
        ..Config::new(prefix)
    }
}
