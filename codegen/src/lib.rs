//! apigen: an OpenAPI document (3.0, 3.1, 3.2 or Swagger 2.0) → a typed reqwest client crate, an
//! axum server crate and the types crate they share.
//!
//! [`Generator`] writes the crates of a document on disk, as the `apigen` tool does. Below it the
//! library runs in one direction on text: [`load`] parses it, `lower` resolves it into a small IR
//! and decides every Rust name, the emitters turn the IR into Rust tokens, and `render` prints and
//! assembles them into files. [`generate`] runs all of that and leaves where the files go to its
//! caller; [`disk`] is the only module that reads or writes files.

mod bundle;
mod diagnostic;
pub mod diff;
pub mod disk;
mod emit;
mod encode;
mod generator;
pub mod ir;
mod isolate;
mod jsonpath;
mod load;
mod locate;
mod lower;
mod naming;
mod openapi31;
mod overlay;
mod render;
mod repair;
#[doc(hidden)]
pub mod sample;
mod swagger2;

pub use diagnostic::{Diagnostic, Diagnostics};
pub use generator::{Generator, Outcome, Placement};
pub use load::{LoadError, Loaded, Sources, SpecFiles, load, load_files};
/// How generated code spells a name decided during lowering (a keyword is written raw).
pub use naming::rust_ident;
pub use render::GeneratedFile;
pub use repair::CONTRADICTED;
pub use swagger2::ASSUMED_MEDIA_TYPE;

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
    /// [`Generated::warnings`], and the rest is generated. Strict suits a contract of one's own,
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
    /// [`diff::compare`] says their public API moved.
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
            split_types_from: emit::split::DEFAULT_SPLIT_FROM,
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

/// The result of a successful run.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Every file to write, sorted by path.
    pub files: Vec<GeneratedFile>,
    /// What was repaired or left out on the way, each located in the spec; empty for a spec the
    /// generator handles whole.
    pub warnings: Vec<Diagnostic>,
}

/// Generates the configured crates from spec text (YAML or JSON) that stands alone: a reference
/// to another file is reported, as there is nothing to read it from (see [`generate_files`]).
///
/// Returns every file to write, in a fixed order, or every problem found in the spec.
pub fn generate(spec_text: &str, config: &Config) -> Result<Generated, Diagnostics> {
    const ROOT: &str = "spec";
    let read = |path: &str| match path {
        ROOT => Ok(spec_text.to_string()),
        _ => Err("the spec was given as text alone, so no other file can be read".to_string()),
    };
    generate_files(SpecFiles { root: ROOT, read: &read, allow_outside: false, overlays: &[] }, config)
}

/// Generates the configured crates from a spec that may be split across files: the root document
/// and every file its relative `$ref`s reach, read through `files`.
///
/// Returns every file to write, in a fixed order, or every problem found in the spec, each named
/// by the file (other than the root) and pointer of the node it is about.
pub fn generate_files(files: SpecFiles<'_>, config: &Config) -> Result<Generated, Diagnostics> {
    let refused = |message| Diagnostics(vec![Diagnostic { pointer: "#".to_string(), line: None, message }]);
    config.check().map_err(|message| refused(format!("the configuration cannot be generated: {message}")))?;
    let (Loaded { doc, notes, converted, .. }, sources) = load_files(files).map_err(Diagnostics)?;
    let located = |mut diagnostics: Vec<Diagnostic>| {
        // A converted Swagger document is named by the pointers of what the user wrote.
        if converted {
            for d in &mut diagnostics {
                d.pointer = swagger2::original_pointer(&d.pointer);
            }
        }
        sources.locate(&mut diagnostics);
        diagnostics
    };
    let unfollowed = || sources.unfollowed().iter().cloned();
    let mut api = lower(&doc, config).map_err(|d| Diagnostics(unfollowed().chain(located(d.0)).collect()))?;
    if config.server.is_some() {
        api.document = Some(sources.document());
    }
    // The IR holds all that emitting needs: the document's memory is free for the output.
    drop(doc);
    let mut warnings = notes;
    warnings.extend(api.warnings.iter().cloned());
    // What could not be brought in from other files comes first: it explains the rest.
    let warnings: Vec<Diagnostic> = sources.unfollowed().iter().cloned().chain(located(warnings)).collect();
    if config.strict && !warnings.is_empty() {
        return Err(Diagnostics(warnings));
    }
    // The generated files name every file of the spec they come from.
    let files = match sources.read_beside_root() {
        0 => emit(&api, config)?,
        n => {
            let plural = if n == 1 { "" } else { "s" };
            let spec_path = format!("{} and the {n} file{plural} it refers to", config.spec_path);
            emit(&api, &Config { spec_path, ..config.clone() })?
        }
    };
    // Every stage is bounded on its own; this says so once more of the whole.
    let read = sources.bytes_read();
    let written: usize = files.iter().map(|f| f.contents.len()).sum();
    let room = read.saturating_mul(MOST_OUTPUT_FACTOR).saturating_add(LEAST_OUTPUT_ROOM);
    if written.saturating_sub(crates::RUNTIME_BYTES) > room {
        return Err(refused(format!(
            "the generated crates would hold {written} bytes, more than {MOST_OUTPUT_FACTOR} times the spec's {read}"
        )));
    }
    Ok(Generated { files, warnings })
}

/// How many times the bytes of its spec the generated crates may hold, beyond
/// [`LEAST_OUTPUT_ROOM`]: GitHub's description gives about three.
const MOST_OUTPUT_FACTOR: usize = 32;

/// The bytes generated crates may hold however short their spec: 64 MiB.
const LEAST_OUTPUT_ROOM: usize = 64 << 20;

/// The lowering stage alone: resolves a parsed spec into the IR, or reports every problem.
pub fn lower(doc: &openapiv3::OpenAPI, config: &Config) -> Result<ir::Api, Diagnostics> {
    lower::lower(doc, config)
}

/// The emit and render stages: IR → formatted files of the configured crates, sorted by path.
pub fn emit(api: &ir::Api, config: &Config) -> Result<Vec<GeneratedFile>, Diagnostics> {
    let split = emit::split::Split::of(api, config.split_types_from);
    let mut plans = Vec::new();
    if let Some(client) = &config.client {
        plans.push((client, crates::client(api, client, config, &split).map_err(bug)?));
    }
    if let Some(server) = &config.server {
        plans.push((server, crates::server(api, server, config, &split).map_err(bug)?));
    }
    let mut files = match &config.runtime {
        Runtime::Path { dir, vendored: true } => crates::vendored_runtime(dir),
        _ => Vec::new(),
    };
    let mut jobs = Vec::new();
    if let Some(types) = &config.types {
        plans.push((types, crates::types(api, types, config, &split).map_err(bug)?));
    }
    for (_, plan) in plans {
        files.extend(plan.files);
        jobs.extend(plan.jobs);
    }
    files.extend(render::rust_jobs(jobs).map_err(bug)?);
    let lists: Vec<GeneratedFile> =
        config.owned_dirs().into_iter().map(|dir| crates::written_list(dir, &files)).collect();
    files.extend(lists);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// An internal failure, reported like a spec problem so callers still get an error, not a panic.
fn bug(message: String) -> Diagnostics {
    Diagnostics(vec![Diagnostic { pointer: "#".to_string(), line: None, message }])
}

mod crates;
