//! `cargo xtask codegen [--check]`: the only code that writes generated files.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use portfolio_codegen::{
    Config, CrateConfig, Diagnostics, Generated, GeneratedFile, SpecFiles, VersionHeader, generate_files,
};

/// What `run` does with the generated files.
#[derive(Debug, Clone, Copy)]
pub enum Mode {
    /// Write changed files and remove extra ones.
    Write,
    /// Write nothing; fail listing every stale, missing or extra file.
    Check,
}

/// The project's own configuration of the generator.
pub fn project_config() -> Config {
    Config {
        spec_path: "spec/openapi.yaml".to_string(),
        version_header: Some(VersionHeader { header: "x-pps-api-version".into(), field: "api_version".into() }),
        client: Some(CrateConfig { name: "portfolio-client".to_string(), dir: "generated-client".to_string() }),
        server: Some(CrateConfig { name: "portfolio-server".to_string(), dir: "generated-server-stubs".to_string() }),
        types: Some(CrateConfig { name: "portfolio-types".to_string(), dir: "generated-types".to_string() }),
        standalone: false,
        runtime_dir: "codegen/runtime".to_string(),
        // The project's own contract: anything loosened or left out is an error.
        strict: true,
        tag_features: false,
        mock_seed: 0,
        crate_version: "0.1.0".to_string(),
    }
}

/// A fixture spec, `codegen/tests/fixtures/<name>.yaml`, generated into `fixtures/<name>-*` so it
/// is compiled, linted and tested with the workspace: `features` exercises what the project spec
/// does not use (unions, `allOf`, other credential kinds); `reserved` names its operations,
/// parameters and schemas like the generated crates' own items and Rust keywords, so a clash is
/// a compile error; `unseen` holds what public documents write that the project spec does not
/// (slips the loader repairs, constructs read with a warning, an operation left out); `openapi31`
/// holds the OpenAPI 3.1 constructs that convert exactly, `openapi32` the streams of OpenAPI 3.2;
/// `split` (`codegen/tests/fixtures/split/openapi.yaml`) is a spec split across files, with every
/// form of reference to another file. `features` also has a cargo feature per tag; `unseen` is
/// generated leniently (its warnings are pinned by a test), the others strictly.
pub fn fixture_config(name: &str) -> Config {
    let crate_config =
        |side: &str| CrateConfig { name: format!("{name}-{side}"), dir: format!("fixtures/{name}-{side}") };
    // A spec split across files is a directory with its root document.
    let spec_path = match name {
        "split" => format!("codegen/tests/fixtures/{name}/openapi.yaml"),
        _ => format!("codegen/tests/fixtures/{name}.yaml"),
    };
    Config {
        spec_path,
        version_header: None,
        client: Some(crate_config("client")),
        server: Some(crate_config("server")),
        types: Some(crate_config("types")),
        standalone: false,
        runtime_dir: "codegen/runtime".to_string(),
        strict: name != "unseen",
        tag_features: name == "features",
        mock_seed: 0,
        crate_version: "0.1.0".to_string(),
    }
}

/// The root of the checkout this command was run in, where `spec/` and the generated crates live.
///
/// It is found at run time, never from the path this binary was compiled in: with a target
/// directory shared between checkouts, one cached binary serves them all. `cargo xtask` (that is,
/// `cargo run`) tells the binary its manifest directory in `CARGO_MANIFEST_DIR`; run directly, the
/// root is the nearest directory above the current one that holds `Cargo.toml` and
/// `xtask/Cargo.toml`.
pub fn workspace_root() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from)
        && dir.join("Cargo.toml").is_file()
        && let Some(root) = dir.parent().filter(|root| is_root(root))
    {
        return Ok(root.to_path_buf());
    }
    let here = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    here.ancestors().find(|dir| is_root(dir)).map(Path::to_path_buf).ok_or_else(|| {
        format!(
            "cannot find the workspace: no directory at or above {} holds Cargo.toml and xtask/Cargo.toml",
            here.display()
        )
    })
}

fn is_root(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file() && dir.join("xtask/Cargo.toml").is_file()
}

/// Regenerates from `spec/openapi.yaml` under the workspace root.
pub fn run(mode: Mode, strictness: Strictness) -> Result<(), String> {
    run_in(&workspace_root()?, mode, strictness)
}

/// Whether warnings fail a run: the default of each command, or what a flag asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Strictness {
    /// The command's own default: strict for the project's spec, lenient for `--spec`.
    #[default]
    Default,
    /// `--strict`: every warning is an error.
    Strict,
    /// `--lenient`: what cannot be represented is left out and listed; the rest is generated.
    Lenient,
}

impl Strictness {
    fn strict(self, default: bool) -> bool {
        match self {
            Strictness::Default => default,
            Strictness::Strict => true,
            Strictness::Lenient => false,
        }
    }
}

/// Regenerates from `spec/openapi.yaml` (and the fixture specs) under `root`. The project's spec
/// and its fixtures are generated strictly unless `strictness` says otherwise; the unseen
/// fixture, there to be repaired, always leniently.
pub fn run_in(root: &Path, mode: Mode, strictness: Strictness) -> Result<(), String> {
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let fixtures = ["features", "reserved", "unseen", "openapi31", "openapi32", "split"].map(fixture_config);
    for mut config in std::iter::once(project_config()).chain(fixtures) {
        config.strict = config.strict && strictness.strict(true);
        let spec_file = root.join(&config.spec_path);
        config.crate_version = crate_version(&spec_file)?;
        let generated = generate_from_disk(&spec_file, false, &[], &config).map_err(|d| strict_failure(&config, &d))?;
        if strictness == Strictness::Lenient {
            for warning in &generated.warnings {
                eprintln!("warning: {}: {warning}", config.spec_path);
            }
        }
        files.extend(generated.files);
        dirs.extend(config.client.iter().chain(&config.server).chain(&config.types).map(|c| c.dir.clone()));
    }
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    match mode {
        Mode::Write => write(root, &dirs, &files).map(|summary| println!("{summary}")),
        Mode::Check => check(root, &dirs, &files),
    }
}

/// Why a run failed: every problem, and for a strict run, how to see what a lenient one makes of
/// them.
fn strict_failure(config: &Config, problems: &portfolio_codegen::Diagnostics) -> String {
    let hint = if config.strict {
        "\nThis run is strict: every warning is an error. `--lenient` generates what can be generated and lists the rest."
    } else {
        ""
    };
    format!("{}: {problems}{hint}", config.spec_path)
}

/// How `run_spec` treats a document beyond where it writes.
#[derive(Debug, Clone, Default)]
pub struct SpecOptions {
    /// Whether warnings fail the run; lenient unless asked.
    pub strictness: Strictness,
    /// A cargo feature per tag in the client and types crates.
    pub tag_features: bool,
    /// The seed of the values the mock answers with where the document gives no example.
    pub seed: u64,
    /// Whether the spec's references may reach files outside its directory.
    pub allow_outside_refs: bool,
    /// Overlays to apply after those in the `overlays/` folder beside the spec, in order.
    pub overlays: Vec<PathBuf>,
}

/// Generates from the spec at `spec` and every file its references reach, read from its directory
/// (and, when `allow_outside` says so, beyond it), with the overlays beside it (`overlays/*.yaml`,
/// by name) and then `overlays`, in order.
pub fn generate_from_disk(
    spec: &Path,
    allow_outside: bool,
    overlays: &[PathBuf],
    config: &Config,
) -> Result<Generated, Diagnostics> {
    on_disk(spec, allow_outside, overlays, |files| generate_files(files, config))
}

/// Loads the spec at `spec` and every file its references reach, as [`generate_from_disk`] reads them.
pub fn load_from_disk(
    spec: &Path,
    allow_outside: bool,
    overlays: &[PathBuf],
) -> Result<portfolio_codegen::Loaded, String> {
    on_disk(spec, allow_outside, overlays, |files| {
        portfolio_codegen::load_files(files).map(|(loaded, _)| loaded).map_err(Diagnostics)
    })
    .map_err(|d| format!("{}: {d}", spec.display()))
}

/// Hands `use_files` the spec at `spec` as the library reads it: files from its directory (see
/// [`read_spec_file`]) and its overlays.
fn on_disk<T>(
    spec: &Path,
    allow_outside: bool,
    overlays: &[PathBuf],
    use_files: impl FnOnce(SpecFiles<'_>) -> Result<T, Diagnostics>,
) -> Result<T, Diagnostics> {
    let directory = spec.parent().unwrap_or(Path::new("."));
    let root = spec.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let read = |path: &str| read_spec_file(directory, path, allow_outside);
    let overlays = read_overlays(directory, overlays)?;
    use_files(SpecFiles { root: &root, read: &read, allow_outside, overlays: &overlays })
}

/// The overlays to apply to the spec in `directory`: its `overlays/` folder's YAML and JSON files by
/// name, then `given`; each as (path for diagnostics, text).
fn read_overlays(directory: &Path, given: &[PathBuf]) -> Result<Vec<(String, String)>, Diagnostics> {
    let mut paths: Vec<PathBuf> = match fs::read_dir(directory.join("overlays")) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json"))
            .collect(),
        Err(_) => Vec::new(),
    };
    paths.sort();
    paths.extend(given.iter().cloned());
    paths
        .iter()
        .map(|path| {
            let shown = path.strip_prefix(directory).unwrap_or(path).to_string_lossy().replace('\\', "/");
            let text = fs::read_to_string(path).map_err(|e| {
                Diagnostics(vec![portfolio_codegen::Diagnostic {
                    pointer: format!("{shown}#"),
                    line: None,
                    message: format!("the overlay cannot be read: {e}"),
                }])
            })?;
            Ok((shown, text))
        })
        .collect()
}

/// Reads `path` (relative, `/`-separated) under `directory`; unless `allow_outside`, a file that
/// resolves outside the directory (through a symbolic link) is refused.
fn read_spec_file(directory: &Path, path: &str, allow_outside: bool) -> Result<String, String> {
    let file = directory.join(path);
    if !allow_outside {
        let inside = |dir: &Path, file: &Path| Some(file.canonicalize().ok()?.starts_with(dir.canonicalize().ok()?));
        if inside(directory, &file) == Some(false) {
            return Err(format!("`{path}` leads outside the spec's directory"));
        }
    }
    fs::read_to_string(&file).map_err(|e| e.to_string())
}

/// Generates `<out>/<name>-client`, `<out>/<name>-server` and `<out>/<name>-types` from any
/// OpenAPI document (YAML or JSON), with a copy of the runtime they share in
/// `<out>/portfolio-runtime`, as crates that build on their own. With `mode` [`Mode::Check`]
/// nothing is written. Leniently unless `options` asks for strict: what the generator cannot
/// represent is left out, and every warning is listed on stderr.
pub fn run_spec(spec: &Path, out: &Path, name: &str, mode: Mode, options: SpecOptions) -> Result<(), String> {
    let (files, dirs) = spec_files(spec, name, options)?;
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    match mode {
        Mode::Write => write(out, &dirs, &files).map(|summary| println!("{summary}")),
        Mode::Check => check(out, &dirs, &files),
    }
}

/// Generates the crates of any document, writing them under `out`; returns what it wrote, for a
/// person to read.
pub fn write_spec(spec: &Path, out: &Path, name: &str, options: SpecOptions) -> Result<String, String> {
    let (files, dirs) = spec_files(spec, name, options)?;
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    write(out, &dirs, &files)
}

/// The files generated from any document, and the directories they own (warnings go to stderr).
fn spec_files(spec: &Path, name: &str, options: SpecOptions) -> Result<(Vec<GeneratedFile>, Vec<String>), String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(format!("`{name}` is not a crate name: use letters, digits, `-` and `_`"));
    }
    let config = Config { crate_version: crate_version(spec)?, ..spec_config(spec, name, &options) };
    let label = config.spec_path.clone();
    let generated = generate_from_disk(spec, options.allow_outside_refs, &options.overlays, &config)
        .map_err(|d| strict_failure(&config, &d))?;
    for warning in &generated.warnings {
        eprintln!("warning: {label}: {warning}");
    }
    let dirs = vec![format!("{name}-client"), format!("{name}-server"), format!("{name}-types"), config.runtime_dir];
    Ok((generated.files, dirs))
}

/// The file beside a spec that holds its crates' version and the breaking changes it accepts.
pub const CHANGES_FILE: &str = "CHANGES.yaml";

/// The version the crates of `spec` get: `crate-version` in `CHANGES.yaml` beside it, else the first.
pub fn crate_version(spec: &Path) -> Result<String, String> {
    Ok(changes_beside(spec)?.version().to_string())
}

/// What `CHANGES.yaml` beside `spec` says; nothing when there is none.
pub fn changes_beside(spec: &Path) -> Result<portfolio_codegen::diff::Acceptance, String> {
    let file = spec.parent().unwrap_or(Path::new(".")).join(CHANGES_FILE);
    match fs::read_to_string(&file) {
        Ok(text) => portfolio_codegen::diff::Acceptance::parse(&text).map_err(|e| format!("{}: {e}", file.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Default::default()),
        Err(e) => Err(format!("cannot read {}: {e}", file.display())),
    }
}

/// How the crates of any document are generated: standalone, named `NAME-client` and so on.
pub fn spec_config(spec: &Path, name: &str, options: &SpecOptions) -> Config {
    let label = spec.file_name().map_or_else(|| spec.display().to_string(), |f| f.to_string_lossy().into_owned());
    Config {
        spec_path: label,
        version_header: None,
        client: Some(CrateConfig { name: format!("{name}-client"), dir: format!("{name}-client") }),
        server: Some(CrateConfig { name: format!("{name}-server"), dir: format!("{name}-server") }),
        types: Some(CrateConfig { name: format!("{name}-types"), dir: format!("{name}-types") }),
        standalone: true,
        runtime_dir: "portfolio-runtime".to_string(),
        strict: options.strictness.strict(false),
        tag_features: options.tag_features,
        mock_seed: options.seed,
        crate_version: "0.1.0".to_string(),
    }
}

/// Writes changed files only (so unchanged files keep their timestamps and cargo does not rebuild),
/// and removes files the generator no longer produces.
fn write(root: &Path, dirs: &[&str], files: &[GeneratedFile]) -> Result<String, String> {
    let mut written = 0;
    for file in files {
        let path = root.join(&file.path);
        if fs::read_to_string(&path).ok().as_deref() == Some(file.contents.as_str()) {
            continue;
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        fs::write(&path, &file.contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written += 1;
    }
    let expected: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut removed = 0;
    for extra in existing(root, dirs)?.iter().filter(|p| !expected.contains(p.as_str())) {
        fs::remove_file(root.join(extra)).map_err(|e| format!("cannot remove {extra}: {e}"))?;
        removed += 1;
    }
    Ok(format!("codegen: {} files generated, {written} written, {removed} removed", files.len()))
}

fn check(root: &Path, dirs: &[&str], files: &[GeneratedFile]) -> Result<(), String> {
    let mut problems = Vec::new();
    for file in files {
        match fs::read_to_string(root.join(&file.path)) {
            Ok(contents) if contents == file.contents => {}
            Ok(_) => problems.push(format!("  stale:   {}", file.path)),
            Err(_) => problems.push(format!("  missing: {}", file.path)),
        }
    }
    let expected: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    for extra in existing(root, dirs)?.iter().filter(|p| !expected.contains(p.as_str())) {
        problems.push(format!("  extra:   {extra}"));
    }
    if problems.is_empty() {
        println!("codegen --check: {} generated files are up to date", files.len());
        Ok(())
    } else {
        Err(format!(
            "generated code is out of date with its spec:\n{}\nrun `cargo xtask codegen` locally and commit the result",
            problems.join("\n")
        ))
    }
}

/// Files currently under the generated crates' directories, relative to the root, `/`-separated.
fn existing(root: &Path, dirs: &[&str]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for dir in dirs {
        walk(root, &root.join(dir), &mut out)?;
    }
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            if entry.file_name() != "target" {
                walk(root, &path, out)?;
            }
        } else {
            let relative = path.strip_prefix(root).expect("walked below the root");
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}
