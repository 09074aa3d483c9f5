//! apigen: an OpenAPI document (3.0, 3.1, 3.2 or Swagger 2.0) → a typed reqwest client crate, an
//! axum server crate and the types crate they share.
//!
//! [`Generator`] writes the crates of a document on disk, as the `apigen` tool does. Below it the
//! library runs in one direction on text: [`load`] parses it, `lower` resolves it into a small IR
//! and decides every Rust name, the emitters turn the IR into Rust tokens, and `render` prints and
//! assembles them into files. [`generate`] runs all of that and leaves where the files go to its
//! caller; [`disk`] is the only module that reads or writes files.

mod build_script;
mod config;
mod diagnostic;
pub mod diff;
pub mod disk;
mod emit;
mod front;
mod generator;
pub mod ir;
mod lower;
mod naming;
mod render;
#[doc(hidden)]
pub mod sample;
pub mod tools;

pub use build_script::{Build, Built, Included};
pub use config::{Config, CrateConfig, RUNTIME_CRATE, Runtime, VersionHeader};
pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use front::load::{LoadError, Loaded, Sources, SpecFiles, load, load_files};
pub use front::markers::{ASSUMED_MEDIA_TYPE, CONTRADICTED};
pub use generator::{Generator, Outcome, Placement};
/// How generated code spells a name decided during lowering (a keyword is written raw).
pub use naming::rust_ident;
pub use render::GeneratedFile;

/// The result of a successful run.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Every file to write, sorted by path.
    pub files: Vec<GeneratedFile>,
    /// What was repaired or left out on the way (warnings), and what was recognised with nothing
    /// lost (notes), each located in the spec; empty for a spec the generator handles whole.
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
    let refused = |message| {
        Diagnostics(vec![Diagnostic {
            severity: crate::Severity::Error,
            pointer: "#".to_string(),
            line: None,
            message,
        }])
    };
    config.check().map_err(|message| refused(format!("the configuration cannot be generated: {message}")))?;
    let (Loaded { doc, notes, converted, .. }, sources) = load_files(files).map_err(Diagnostics)?;
    let located = |mut diagnostics: Vec<Diagnostic>| {
        // A converted Swagger document is named by the pointers of what the user wrote.
        if converted {
            for d in &mut diagnostics {
                d.pointer = front::swagger2::original_pointer(&d.pointer);
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
    // A strict run refuses what was loosened or left out; notes lose nothing.
    if config.strict && warnings.iter().any(|w| w.severity != Severity::Note) {
        return Err(Diagnostics(warnings.into_iter().filter(|w| w.severity != Severity::Note).collect()));
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
    if written.saturating_sub(emit::crates::RUNTIME_BYTES) > room {
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

/// The version of the runtime crate this generator writes and its crates ask for.
pub(crate) fn runtime_version() -> &'static str {
    emit::crates::runtime_version()
}

/// The emit and render stages: IR → formatted files of the configured crates, sorted by path.
pub fn emit(api: &ir::Api, config: &Config) -> Result<Vec<GeneratedFile>, Diagnostics> {
    let split = emit::split::Split::of(api, config.split_types_from);
    let mut plans = Vec::new();
    if let Some(client) = &config.client {
        plans.push((client, emit::crates::client(api, client, config, &split).map_err(bug)?));
    }
    if let Some(server) = &config.server {
        plans.push((server, emit::crates::server(api, server, config, &split).map_err(bug)?));
    }
    let mut files = match &config.runtime {
        Runtime::Path { dir, vendored: true } => emit::crates::vendored_runtime(dir),
        _ => Vec::new(),
    };
    let mut jobs = Vec::new();
    if let Some(types) = &config.types {
        plans.push((types, emit::crates::types(api, types, config, &split).map_err(bug)?));
    }
    for (_, plan) in plans {
        files.extend(plan.files);
        jobs.extend(plan.jobs);
    }
    files.extend(render::rust_jobs(jobs).map_err(bug)?);
    let lists: Vec<GeneratedFile> =
        config.owned_dirs().into_iter().map(|dir| emit::crates::written_list(dir, &files)).collect();
    files.extend(lists);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// An internal failure, reported like a spec problem so callers still get an error, not a panic.
fn bug(message: String) -> Diagnostics {
    Diagnostics(vec![Diagnostic { severity: crate::Severity::Error, pointer: "#".to_string(), line: None, message }])
}
