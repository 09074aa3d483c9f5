//! [`Generator`]: the crates of one document, written to a directory. `apigen generate` is this
//! type behind a command line; a build script or a tool of one's own calls it directly.

use std::path::{Path, PathBuf};

use crate::disk::{self, Checked, Written};
use crate::{Config, Diagnostic, Diagnostics, Generated, GeneratedFile, RUNTIME_CRATE, Runtime};

/// Whether generated crates declare a workspace of their own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Placement {
    /// Standalone unless the output directory is inside a Cargo workspace (and not in its
    /// `target` directory): there the crates join it.
    #[default]
    Auto,
    /// Each crate declares an empty `[workspace]` and builds where it is, even inside another
    /// workspace.
    Standalone,
    /// The crates join the workspace they are in, as path dependencies of its members or listed in
    /// its `members`.
    Member,
}

/// Where the generated crates find the runtime crate.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RuntimeSource {
    /// A copy every API can share: at the root of the workspace the crates join
    /// (`ROOT/apigen-runtime`), else beside them (`OUT/apigen-runtime`).
    Shared,
    /// A copy written to (and shared by every API generated with) this directory.
    Dir(PathBuf),
    /// A git dependency on this generator's repository.
    Git { url: String, rev: Option<String> },
}

/// Generates `NAME-client`, `NAME-server` and `NAME-types` from an OpenAPI document (3.0, 3.1,
/// 3.2 or Swagger 2.0; YAML or JSON; one file or a tree of them) into a directory.
///
/// ```no_run
/// // build.rs of a crate that keeps generated crates beside it, or a tool of one's own
/// let outcome = apigen::Generator::new("petstore.yaml", "generated", "petstore")?.write()?;
/// for warning in &outcome.warnings {
///     println!("cargo:warning={warning}");
/// }
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone)]
pub struct Generator {
    spec: PathBuf,
    out: PathBuf,
    name: String,
    strict: bool,
    tag_features: bool,
    split_types_from: usize,
    mock_seed: u64,
    allow_outside_refs: bool,
    overlays: Vec<PathBuf>,
    placement: Placement,
    runtime: RuntimeSource,
    command: Option<String>,
}

/// What a run wrote or found, and what it left out of the document on the way.
#[derive(Debug, Clone)]
pub struct Outcome<T> {
    /// What was written ([`Written`]) or found stale ([`Checked`]).
    pub files: T,
    /// What was repaired, left out (warnings) or recognised with nothing lost (notes), each
    /// located in the document; empty when it was generated whole.
    pub warnings: Vec<Diagnostic>,
    /// The workspace the crates joined, when they did.
    pub workspace: Option<PathBuf>,
    /// The command that regenerates the crates as this run did.
    pub command: String,
    /// The runtime copy the crates used before this run, when they now use another: removed once
    /// no API uses it, else kept.
    pub released: Option<disk::Released>,
}

impl Generator {
    /// The crates of the document at `spec`, named `NAME-client`, `NAME-server` and `NAME-types`,
    /// under `out`; generated leniently, with the runtime's copy in `out/apigen-runtime`.
    pub fn new(spec: impl Into<PathBuf>, out: impl Into<PathBuf>, name: &str) -> Result<Generator, String> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(format!("`{name}` is not a crate name: use letters, digits, `-` and `_`"));
        }
        Ok(Generator {
            spec: spec.into(),
            out: out.into(),
            name: name.to_string(),
            strict: false,
            tag_features: false,
            split_types_from: crate::config::DEFAULT_SPLIT_FROM,
            mock_seed: 0,
            allow_outside_refs: false,
            overlays: Vec::new(),
            placement: Placement::Auto,
            runtime: RuntimeSource::Shared,
            command: None,
        })
    }

    /// Every warning is an error: nothing is loosened or left out.
    pub fn strict(mut self, strict: bool) -> Generator {
        self.strict = strict;
        self
    }

    /// A cargo feature per tag in the client and types crates.
    pub fn tag_features(mut self, on: bool) -> Generator {
        self.tag_features = on;
        self
    }

    /// With tag features, how many types a spec has before its types are split into the core
    /// crate and a crate per tag (2,000 by default; 0 always splits).
    pub fn split_types_from(mut self, types: usize) -> Generator {
        self.split_types_from = types;
        self
    }

    /// The seed of the values the mock answers with where the document gives no example.
    pub fn mock_seed(mut self, seed: u64) -> Generator {
        self.mock_seed = seed;
        self
    }

    /// Lets the document's `$ref`s reach files outside its directory (refused by default).
    pub fn allow_outside_refs(mut self, allow: bool) -> Generator {
        self.allow_outside_refs = allow;
        self
    }

    /// Applies an OpenAPI Overlay document, after those in the `overlays/` folder beside the spec.
    pub fn overlay(mut self, overlay: impl Into<PathBuf>) -> Generator {
        self.overlays.push(overlay.into());
        self
    }

    /// Whether the crates declare a workspace of their own ([`Placement::Auto`] by default).
    pub fn placement(mut self, placement: Placement) -> Generator {
        self.placement = placement;
        self
    }

    /// Writes the runtime to `dir` instead of beside the crates: every API generated with the same
    /// `dir` shares one runtime, so they can be used in one build.
    pub fn runtime_dir(mut self, dir: impl Into<PathBuf>) -> Generator {
        self.runtime = RuntimeSource::Dir(dir.into());
        self
    }

    /// Depends on the runtime in the git repository at `url` (this generator's), at commit `rev`
    /// when given, instead of writing a copy.
    pub fn runtime_git(mut self, url: &str, rev: Option<&str>) -> Generator {
        self.runtime = RuntimeSource::Git { url: url.to_string(), rev: rev.map(str::to_string) };
        self
    }

    /// The command the crates' READMEs and `check`'s report give for regenerating them, instead of
    /// the `apigen generate` line that repeats this run.
    pub fn command(mut self, command: &str) -> Generator {
        self.command = Some(command.to_string());
        self
    }

    /// The configuration this run generates with: placement and runtime resolved against `out`.
    pub fn config(&self) -> Result<Config, String> {
        let standalone = match self.placement {
            Placement::Auto => disk::enclosing_workspace(&self.out).is_none(),
            Placement::Standalone => true,
            Placement::Member => false,
        };
        let runtime = match &self.runtime {
            RuntimeSource::Shared => match disk::enclosing_workspace(&self.out).filter(|_| !standalone) {
                // A workspace that declares the runtime for its members gets that one, with no copy.
                Some(root) if disk::declared_runtime(&root)? != disk::DeclaredRuntime::Not => Runtime::Workspace,
                Some(root) => {
                    Runtime::Path { dir: disk::relative_path(&self.out, &root.join(RUNTIME_CRATE))?, vendored: true }
                }
                None => Runtime::Path { dir: RUNTIME_CRATE.to_string(), vendored: true },
            },
            RuntimeSource::Dir(dir) => Runtime::Path { dir: disk::relative_path(&self.out, dir)?, vendored: true },
            RuntimeSource::Git { url, rev } => Runtime::Git { url: url.clone(), rev: rev.clone() },
        };
        let spec_path =
            self.spec.file_name().map_or_else(|| self.spec.display().to_string(), |f| f.to_string_lossy().into_owned());
        Ok(Config {
            spec_path,
            command: self.command.clone().unwrap_or_else(|| self.command_line()),
            standalone,
            runtime,
            strict: self.strict,
            tag_features: self.tag_features,
            split_types_from: self.split_types_from,
            mock_seed: self.mock_seed,
            crate_version: disk::crate_version(&self.spec)?,
            ..Config::new(&self.name)
        })
    }

    /// The `apigen generate` line that repeats this run.
    fn command_line(&self) -> String {
        let shown = |path: &Path| {
            let text = path.display().to_string();
            if text.contains(char::is_whitespace) { format!("'{text}'") } else { text }
        };
        let mut line =
            format!("apigen generate --spec {} --out {} --name {}", shown(&self.spec), shown(&self.out), self.name);
        for (on, flag) in [(self.strict, " --strict"), (self.tag_features, " --tag-features")] {
            if on {
                line.push_str(flag);
            }
        }
        if self.split_types_from != crate::config::DEFAULT_SPLIT_FROM {
            line.push_str(&format!(" --split-types-from {}", self.split_types_from));
        }
        match &self.runtime {
            RuntimeSource::Shared => {}
            RuntimeSource::Dir(dir) => line.push_str(&format!(" --runtime-dir {}", shown(dir))),
            RuntimeSource::Git { url, rev: None } => line.push_str(&format!(" --runtime-git {url}")),
            RuntimeSource::Git { url, rev: Some(rev) } => line.push_str(&format!(" --runtime-git {url}#{rev}")),
        }
        line
    }

    /// The files this run would write (paths relative to `out`) and its warnings, writing nothing.
    pub fn generate(&self) -> Result<(Config, Generated), String> {
        let config = self.config()?;
        let generated = self.generate_with(&config)?;
        Ok((config, generated))
    }

    fn generate_with(&self, config: &Config) -> Result<Generated, String> {
        disk::generate_from_disk(&self.spec, self.allow_outside_refs, &self.overlays, config)
            .map_err(|problems| failure(&self.spec, config.strict, &problems))
    }

    /// Writes the crates: only files whose contents changed, and removes only files an earlier run
    /// wrote that are no longer generated. Any other file under `out` is left as it is.
    pub fn write(&self) -> Result<Outcome<Written>, String> {
        let config = self.config()?;
        // The first crate stands for the API among a runtime copy's users.
        let user = config.owned_dirs().first().map(|dir| self.out.join(dir));
        let before = user.as_deref().and_then(disk::runtime_of);
        let mut outcome = self.run(&config, |files| disk::write(&self.out, &config.owned_dirs(), files))?;
        let Some(user) = user else { return Ok(outcome) };
        let now = match &config.runtime {
            Runtime::Path { dir, vendored: true } => Some(disk::absolute(&self.out.join(dir))?),
            _ => None,
        };
        if let Some(now) = &now {
            disk::share(now, &user)?;
        }
        if let Some(before) = before.filter(|before| Some(before) != now.as_ref()) {
            outcome.released = disk::release(&before, &user)?;
        }
        Ok(outcome)
    }

    /// Compares the crates under `out` with what the document generates, writing nothing.
    pub fn check(&self) -> Result<Outcome<Checked>, String> {
        let config = self.config()?;
        self.run(&config, |files| disk::check(&self.out, &config.owned_dirs(), files))
    }

    fn run<T>(
        &self,
        config: &Config,
        act: impl FnOnce(&[GeneratedFile]) -> Result<T, String>,
    ) -> Result<Outcome<T>, String> {
        let generated = self.generate_with(config)?;
        self.no_other_runtime(config)?;
        let files = act(&generated.files)?;
        let workspace = if config.standalone { None } else { disk::enclosing_workspace(&self.out) };
        let command = config.command.clone();
        Ok(Outcome { files, warnings: generated.warnings, workspace, command, released: None })
    }
}

impl Generator {
    /// Refuses to write over a copy of the runtime of another version (APIs generated by another
    /// apigen use it, and their crates ask for that version exactly), or to use a runtime of
    /// another version that the workspace declares.
    fn no_other_runtime(&self, config: &Config) -> Result<(), String> {
        let (dir, whose, remedy) = match &config.runtime {
            Runtime::Path { dir, vendored: true } => (
                self.out.join(dir),
                "which crates generated by another apigen use; this one writes",
                "Remove it and regenerate every API that uses it with this apigen, or give this one a copy of its own with `--runtime-dir DIR`",
            ),
            Runtime::Workspace => {
                let Some(root) = disk::enclosing_workspace(&self.out) else { return Ok(()) };
                let disk::DeclaredRuntime::Path(dir) = disk::declared_runtime(&root)? else { return Ok(()) };
                (
                    dir,
                    "which the workspace declares for its members in `[workspace.dependencies]`; this apigen generates for",
                    "Point the declaration at a runtime of this version, or give these crates a copy of their own with `--runtime-dir DIR`",
                )
            }
            _ => return Ok(()),
        };
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else { return Ok(()) };
        let theirs = package_version(&manifest);
        let ours = crate::runtime_version();
        if theirs.is_none_or(|theirs| theirs == ours) {
            return Ok(());
        }
        Err(format!("{} holds apigen-runtime {}, {whose} {ours}. {remedy}", dir.display(), theirs.unwrap_or_default()))
    }
}

/// The `version` of a manifest's `[package]`, as the runtime's manifest writes it (the first
/// `version = "…"` line of the table).
fn package_version(manifest: &str) -> Option<&str> {
    let lines = manifest.lines().map(str::trim).skip_while(|line| *line != "[package]").skip(1);
    let mut package = lines.take_while(|line| !line.starts_with('['));
    package.find_map(|line| line.strip_prefix("version = ")).map(|v| v.trim_matches('"'))
}

/// Why a run failed: every problem, and for a strict run, how to see what a lenient one makes of
/// them.
pub(crate) fn failure(spec: &Path, strict: bool, problems: &Diagnostics) -> String {
    let hint = if strict {
        "\nThis run is strict: every warning is an error. Without `--strict` what can be generated is, and the rest is listed."
    } else {
        ""
    };
    format!("{}: {problems}{hint}", spec.display())
}
