//! `cargo xtask codegen [--check]`: the project's crates, written by the library's `disk` module as
//! the `apigen` tool writes any API's.

use std::path::{Path, PathBuf};

use apigen::disk::{self, Checked};
use apigen::disk::{crate_version, generate_from_disk};
use apigen::{Config, CrateConfig, Generator, Runtime, VersionHeader};

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
    let side = |name: &str, dir: &str| Some(CrateConfig { name: name.to_string(), dir: dir.to_string() });
    Config {
        spec_path: "spec/openapi.yaml".to_string(),
        command: "cargo xtask codegen".to_string(),
        version_header: Some(VersionHeader { header: "x-pps-api-version".into(), field: "api_version".into() }),
        client: side("portfolio-client", "generated-client"),
        server: side("portfolio-server", "generated-server-stubs"),
        types: side("portfolio-types", "generated-types"),
        standalone: false,
        runtime: Runtime::Path { dir: "codegen/runtime".to_string(), vendored: false },
        // The project's own contract: anything loosened or left out is an error.
        strict: true,
        ..Config::new("portfolio")
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
/// form of reference to another file. `features` also has a cargo feature per tag and its types
/// split into a crate per tag, as a large API's are; `unseen` is
/// generated leniently (its warnings are pinned by a test), the others strictly.
pub fn fixture_config(name: &str) -> Config {
    let crate_config =
        |side: &str| Some(CrateConfig { name: format!("{name}-{side}"), dir: format!("fixtures/{name}-{side}") });
    // A spec split across files is a directory with its root document.
    let spec_path = match name {
        "split" => format!("codegen/tests/fixtures/{name}/openapi.yaml"),
        _ => format!("codegen/tests/fixtures/{name}.yaml"),
    };
    let mut config = Config {
        spec_path,
        command: "cargo xtask codegen".to_string(),
        client: crate_config("client"),
        server: crate_config("server"),
        types: crate_config("types"),
        standalone: false,
        runtime: Runtime::Path { dir: "codegen/runtime".to_string(), vendored: false },
        strict: name != "unseen",
        tag_features: name == "features",
        ..Config::new(name)
    };
    // Split as a large API's types are, however few: each tag's own types in a crate of its own.
    if name == "features" {
        config.split_types_from = 0;
    }
    config
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
                eprintln!("{}: {}: {warning}", warning.severity.label(), config.spec_path);
            }
        }
        files.extend(generated.files);
        dirs.extend(config.owned_dirs().into_iter().map(str::to_string));
    }
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    match mode {
        Mode::Write => {
            let written = disk::write(root, &dirs, &files)?;
            println!("codegen: {written}");
            Ok(())
        }
        Mode::Check => report_check(&disk::check(root, &dirs, &files)?, "cargo xtask codegen"),
    }
}

/// Ok when every file is current; else every difference, and the command that fixes them.
fn report_check(checked: &Checked, command: &str) -> Result<(), String> {
    if checked.is_current() {
        println!("codegen --check: {} generated files are up to date", checked.generated);
        return Ok(());
    }
    Err(format!(
        "generated code is out of date with its spec:\n{}run `{command}` and commit the result",
        checked.report()
    ))
}

/// Why a run failed: every problem, and for a strict run, how to see what a lenient one makes of
/// them.
fn strict_failure(config: &Config, problems: &apigen::Diagnostics) -> String {
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
    /// Whether the spec's references may reach files outside its directory.
    pub allow_outside_refs: bool,
    /// Overlays to apply after those in the `overlays/` folder beside the spec, in order.
    pub overlays: Vec<PathBuf>,
}

/// The generator of any document's crates under `out`, as `cargo xtask codegen --spec` runs it.
pub fn spec_generator(spec: &Path, out: &Path, name: &str, options: &SpecOptions) -> Result<Generator, String> {
    let mut generator = Generator::new(spec, out, name)?
        .strict(options.strictness.strict(false))
        .tag_features(options.tag_features)
        .allow_outside_refs(options.allow_outside_refs);
    for overlay in &options.overlays {
        generator = generator.overlay(overlay);
    }
    Ok(generator)
}

/// Generates `<out>/<name>-client`, `<out>/<name>-server` and `<out>/<name>-types` from any
/// OpenAPI document (YAML or JSON), with a copy of the runtime they share in
/// `<out>/apigen-runtime`. With `mode` [`Mode::Check`] nothing is written. Leniently unless
/// `options` asks for strict: what the generator cannot represent is left out, and every warning
/// is listed on stderr.
pub fn run_spec(spec: &Path, out: &Path, name: &str, mode: Mode, options: SpecOptions) -> Result<(), String> {
    match mode {
        Mode::Write => {
            let outcome = spec_generator(spec, out, name, &options)?.write()?;
            print_warnings(spec, &outcome.warnings);
            println!("codegen: {}", outcome.files);
            Ok(())
        }
        Mode::Check => {
            let outcome = spec_generator(spec, out, name, &options)?.check()?;
            print_warnings(spec, &outcome.warnings);
            report_check(&outcome.files, &outcome.command)
        }
    }
}

fn print_warnings(spec: &Path, warnings: &[apigen::Diagnostic]) {
    for warning in warnings {
        eprintln!("{}: {}: {warning}", warning.severity.label(), spec.display());
    }
}
