//! OpenAPI 3.0 → Rust client and server crates.
//!
//! One direction, no disk I/O: [`load`] parses the text, `lower` resolves it into a small IR and
//! decides every Rust name, the emitters turn the IR into Rust tokens, and `render` prints and
//! assembles them into files. [`generate`] runs all of it; the caller decides where the
//! files go.

mod bundle;
mod diagnostic;
pub mod diff;
mod emit;
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
pub use load::{LoadError, Loaded, Sources, SpecFiles, load, load_files};
/// How generated code spells a name decided during lowering (a keyword is written raw).
pub use naming::rust_ident;
pub use render::GeneratedFile;
pub use repair::CONTRADICTED;
pub use swagger2::ASSUMED_MEDIA_TYPE;

/// What to generate and where, relative to the output root.
#[derive(Debug, Clone)]
pub struct Config {
    /// How generated files name their source in their header line, e.g. `spec/openapi.yaml`.
    pub spec_path: String,
    /// A header parameter that carries the API version: the client sends `info.version` in it
    /// unless told otherwise, instead of taking it on every call.
    pub version_header: Option<VersionHeader>,
    /// The client crate, if one is wanted.
    pub client: Option<CrateConfig>,
    /// The server crate, if one is wanted. Its trait is named after the crate: `portfolio-server`
    /// gets `PortfolioApi`.
    pub server: Option<CrateConfig>,
    /// The crate of the types the client and server share; needed when either is wanted.
    pub types: Option<CrateConfig>,
    /// The crates stand alone: their manifests declare an empty workspace, so they build where
    /// they are written even inside another workspace, and a copy of the runtime crate is
    /// written at `runtime_dir`.
    pub standalone: bool,
    /// Where the runtime crate the generated crates depend on is, relative to the output root:
    /// `codegen/runtime` in this workspace, or where the copy goes for standalone crates.
    pub runtime_dir: String,
    /// Strict: every warning is an error, and nothing is left out. Otherwise (lenient) an
    /// operation or schema that cannot be put on the wire is left out with a located warning in
    /// [`Generated::warnings`], and the rest is generated. Strict suits a contract of one's own,
    /// lenient someone else's document.
    pub strict: bool,
    /// A cargo feature per tag in the client and types crates (all on by default), so a crate that
    /// calls a few areas of a large API compiles only their operations and the types they reach.
    pub tag_features: bool,
    /// Varies the values the generated mock answers with where the document gives no valid
    /// example; the same seed gives the same values.
    pub mock_seed: u64,
    /// The version of the generated crates (`0.1.0` to start): raised as far as
    /// [`diff::compare`] says their public API moved.
    pub crate_version: String,
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
    /// Package name, e.g. `portfolio-client`.
    pub name: String,
    /// Directory relative to the output root, e.g. `generated-client`.
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
    let api = lower(&doc, config).map_err(|d| Diagnostics(unfollowed().chain(located(d.0)).collect()))?;
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
    Ok(Generated { files, warnings })
}

/// The lowering stage alone: resolves a parsed spec into the IR, or reports every problem.
pub fn lower(doc: &openapiv3::OpenAPI, config: &Config) -> Result<ir::Api, Diagnostics> {
    lower::lower(doc, config)
}

/// The emit and render stages: IR → formatted files of the configured crates, sorted by path.
pub fn emit(api: &ir::Api, config: &Config) -> Result<Vec<GeneratedFile>, Diagnostics> {
    let mut plans = Vec::new();
    if let Some(client) = &config.client {
        plans.push((client, crates::client(api, client, config).map_err(bug)?));
    }
    if let Some(server) = &config.server {
        plans.push((server, crates::server(api, server, config).map_err(bug)?));
    }
    let mut files = if config.standalone { crates::vendored_runtime(&config.runtime_dir) } else { Vec::new() };
    let mut jobs = Vec::new();
    if let Some(types) = &config.types {
        plans.push((types, crates::types(api, types, config).map_err(bug)?));
    }
    for (_, plan) in plans {
        files.extend(plan.files);
        jobs.extend(plan.jobs);
    }
    files.extend(render::rust_jobs(jobs, &config.spec_path).map_err(bug)?);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// An internal failure, reported like a spec problem so callers still get an error, not a panic.
fn bug(message: String) -> Diagnostics {
    Diagnostics(vec![Diagnostic { pointer: "#".to_string(), line: None, message }])
}

mod crates;
