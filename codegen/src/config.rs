//! What to generate and where: [`Config`] and its parts, read by every stage.

/// What to generate and where, relative to the output root.
///
/// [`Config::new`] gives the usual configuration for an API of one's own name; change its fields
/// from there.
#[derive(Debug, Clone)]
pub struct Config {
    /// How the crates' READMEs name their source, e.g. `spec/openapi.yaml`. Only the READMEs name
    /// it, so moving the spec changes nothing else.
    pub spec_path: String,
    /// The command that regenerates the crates, named in their READMEs, e.g. `cargo xtask codegen`.
    pub command: String,
    /// A header parameter that carries the API version: the client sends `info.version` in it
    /// unless told otherwise, instead of taking it on every call.
    pub version_header: Option<VersionHeader>,
    /// The client crate, if one is wanted.
    pub client: Option<CrateConfig>,
    /// The server crate, if one is wanted. Its trait is named after the crate: `petstore-server`
    /// gets `PetstoreApi`.
    pub server: Option<CrateConfig>,
    /// The crate of the types the client and server share; needed when either is wanted.
    pub types: Option<CrateConfig>,
    /// The crates stand alone: their manifests declare an empty `[workspace]`, so they build where
    /// they are written. Off for crates placed in a workspace of their user's, which they then
    /// join (as path dependencies of its members, or listed in its `members`).
    pub standalone: bool,
    /// Where the crates find the runtime crate they all depend on.
    pub runtime: Runtime,
    /// Strict: every warning is an error, and nothing is left out. Otherwise (lenient) an
    /// operation or schema that cannot be put on the wire is left out with a located warning in
    /// [`Generated::warnings`](crate::Generated::warnings), and the rest is generated. Strict suits a contract of one's own,
    /// lenient someone else's document.
    pub strict: bool,
    /// A cargo feature per tag in the client and types crates (all on by default), so a crate that
    /// calls a few areas of a large API compiles only their operations and the types they reach.
    pub tag_features: bool,
    /// With [`Config::tag_features`], a spec of this many types or more gets its types in several
    /// crates: each tag's own in a crate of that tag, the rest in the types crate, so cargo builds
    /// them side by side and a build with some tags compiles only theirs. Fewer types stay in one
    /// crate.
    pub split_types_from: usize,
    /// Varies the values the generated mock answers with where the document gives no valid
    /// example; the same seed gives the same values.
    pub mock_seed: u64,
    /// The version of the generated crates (`0.1.0` to start): raised as far as
    /// [`diff::compare`](crate::diff::compare) says their public API moved.
    pub crate_version: String,
}

impl Config {
    /// `NAME-client`, `NAME-server` and `NAME-types` in directories of those names, standalone,
    /// with a copy of the runtime in `apigen-runtime/`, generated leniently from `openapi.yaml` at
    /// version `0.1.0`.
    pub fn new(name: &str) -> Config {
        let side = |side: &str| Some(CrateConfig { name: format!("{name}-{side}"), dir: format!("{name}-{side}") });
        Config {
            spec_path: "openapi.yaml".to_string(),
            command: "apigen generate".to_string(),
            version_header: None,
            client: side("client"),
            server: side("server"),
            types: side("types"),
            standalone: true,
            runtime: Runtime::Path { dir: RUNTIME_CRATE.to_string(), vendored: true },
            strict: false,
            tag_features: false,
            split_types_from: DEFAULT_SPLIT_FROM,
            mock_seed: 0,
            crate_version: "0.1.0".to_string(),
        }
    }

    /// The directories the generator owns under the output root: the crates', and the runtime's
    /// when it writes a copy of it.
    pub fn owned_dirs(&self) -> Vec<&str> {
        let crates = [&self.client, &self.server, &self.types].into_iter().flatten().map(|c| c.dir.as_str());
        let runtime = match &self.runtime {
            Runtime::Path { dir, vendored: true } => Some(dir.as_str()),
            _ => None,
        };
        crates.chain(runtime).collect()
    }

    /// Why the configuration cannot be generated, if it cannot: each crate needs a package name of
    /// letters, digits, `-` and `_` (it is a manifest key, a feature's prefix and, with `-` as
    /// `_`, a Rust path), and `crate_version` must be one line.
    pub fn check(&self) -> Result<(), String> {
        for krate in [&self.client, &self.server, &self.types].into_iter().flatten() {
            let name = &krate.name;
            let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !valid {
                return Err(format!(
                    "`{name}` is not a crate name: start with a letter, then letters, digits, `-` and `_`"
                ));
            }
        }
        if self.crate_version.is_empty() || self.crate_version.contains(char::is_control) {
            return Err(format!("`{}` is not a crate version", self.crate_version.escape_debug()));
        }
        Ok(())
    }
}

/// The package name of the runtime crate, and the directory its copy goes to by default.
pub const RUNTIME_CRATE: &str = "apigen-runtime";

/// Where generated crates find the runtime crate. Every API used in one build must find the same
/// one: one copy per output root, or one git dependency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A path dependency on the runtime at `dir`, relative to the output root (it may lead out of
    /// it with `..`). With `vendored`, the generator writes a copy of the runtime there, byte for
    /// byte the one it was built with.
    Path {
        /// The runtime crate's directory.
        dir: String,
        /// Whether the generator writes the runtime there.
        vendored: bool,
    },
    /// The runtime the workspace the crates join declares in its `[workspace.dependencies]`,
    /// from whatever source it names there (`apigen-runtime = { workspace = true }`).
    Workspace,
    /// A git dependency on the repository this generator comes from, at `rev` (a commit) when given.
    Git {
        /// The repository's URL.
        url: String,
        /// The commit to pin.
        rev: Option<String>,
    },
}

/// A header every operation takes that carries the API version, and what the crates call it.
#[derive(Debug, Clone)]
pub struct VersionHeader {
    /// The header, e.g. `x-pps-api-version`.
    pub header: String,
    /// The Rust name of its value, e.g. `api_version`: the client's getter, `with_<field>` and
    /// builder setter, the request context's field, and the server's `supported_<field>s`.
    pub field: String,
}

/// Name and directory of one generated crate.
#[derive(Debug, Clone)]
pub struct CrateConfig {
    /// Package name, e.g. `petstore-client`.
    pub name: String,
    /// Directory relative to the output root, e.g. `petstore-client`.
    pub dir: String,
}

/// How many types (schemas, and the reply, error and header types of operations) a types crate
/// with tag features holds before it is split: below this one crate builds as fast, and fewer
/// crates are easier to read.
pub const DEFAULT_SPLIT_FROM: usize = 2_000;
