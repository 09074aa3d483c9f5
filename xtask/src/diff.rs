//! `cargo xtask diff`: what a change of the spec does to existing clients, existing servers and
//! the generated crates, and whether every breaking change is accepted.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use apigen::Config;
use apigen::diff::{self, Acceptance, Report};

use crate::codegen::{self, SpecOptions};

/// What to compare.
#[derive(Debug, Clone)]
pub enum Sides {
    /// Two spec files (each the root of its tree).
    Files { old: PathBuf, new: PathBuf },
    /// The spec `spec` as committed at `rev`, against the working tree.
    Base { rev: String, spec: PathBuf },
}

/// How the report is written and what accepts breaking changes.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// JSON for tools instead of text for a person.
    pub json: bool,
    /// The acknowledgements; `CHANGES.yaml` beside the new spec when not given.
    pub accepted: Option<PathBuf>,
}

/// The generated crates' version before and after, and the least the change asks for.
#[derive(Debug, Clone)]
struct Versions {
    old: String,
    new: String,
    least: String,
}

/// Compares, prints the report, and says whether every breaking change is accepted and the crates'
/// version moved as far as their API did.
pub fn run(sides: &Sides, options: &DiffOptions) -> Result<bool, String> {
    let (report, notes, versions) = match sides {
        Sides::Files { old, new } => compare_files(old, new, options)?,
        Sides::Base { rev, spec } => {
            let Some(old_tree) = checkout(rev, spec)? else {
                println!("{} did not exist at {rev}: nothing to compare.", spec.display());
                return Ok(true);
            };
            let result = compare_files(&old_tree.spec, spec, options);
            drop(old_tree);
            result?
        }
    };
    let version_moved = apigen::diff::at_least(&versions.new, &versions.least)?;
    let passes = report.unaccepted().next().is_none() && version_moved;
    if options.json {
        let json = serde_json::json!({ "report": report, "notes": notes, "crate_version": { "old": versions.old, "new": versions.new, "least": versions.least }, "passes": passes });
        println!("{}", serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?);
    } else {
        print!("{report}");
        for note in &notes {
            println!("note: {note}");
        }
        if !version_moved {
            println!(
                "\nThe generated crates' API moves past version {}: raise `crate-version` in {} to {} or beyond.",
                versions.old,
                accepted_path(sides, options).display(),
                versions.least
            );
        }
        let unaccepted: Vec<_> = report.unaccepted().collect();
        if !unaccepted.is_empty() {
            let file = accepted_path(sides, options);
            println!(
                "\n{} breaking change{} not accepted. Fix the spec, or raise `info.version` and accept each in {}:",
                unaccepted.len(),
                if unaccepted.len() == 1 { " is" } else { "s are" },
                file.display()
            );
            for change in unaccepted {
                println!("- change: {:?}\n  version: {:?}\n  why: …", change.id, report.new_version);
            }
        }
    }
    Ok(passes)
}

/// Lowers both specs and compares them, applying the acknowledgements.
fn compare_files(old: &Path, new: &Path, options: &DiffOptions) -> Result<(Report, Vec<String>, Versions), String> {
    let config = config_for(new);
    let lowered = |spec: &Path| -> Result<apigen::ir::Api, String> {
        let loaded = codegen::load_from_disk(spec, false, &[])?;
        apigen::lower(&loaded.doc, &config).map_err(|d| format!("{}: {d}", spec.display()))
    };
    let mut report = diff::compare(&lowered(old)?, &lowered(new)?);
    let acceptance = match &options.accepted {
        Some(file) => fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))
            .and_then(|text| Acceptance::parse(&text).map_err(|e| format!("{}: {e}", file.display())))?,
        None => codegen::changes_beside(new)?,
    };
    let notes = acceptance.apply(&mut report);
    let old_version = codegen::changes_beside(old)?.version().to_string();
    let least = apigen::diff::next_version(&old_version, report.crates.level())?;
    let versions = Versions { old: old_version, new: acceptance.version().to_string(), least };
    Ok((report, notes, versions))
}

/// The project's configuration for its own spec (so names match what `codegen` writes), else the
/// one for any document; leniently, so a change is compared even where generation would refuse.
fn config_for(spec: &Path) -> Config {
    let project = codegen::workspace_root().ok().map(|root| root.join("spec/openapi.yaml"));
    let same = |a: &Path, b: &Path| a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a));
    match project {
        Some(project) if same(spec, &project) => Config { strict: false, ..codegen::project_config() },
        _ => codegen::spec_config(spec, "api", &SpecOptions::default()),
    }
}

fn beside(spec: &Path) -> PathBuf {
    spec.parent().unwrap_or(Path::new(".")).join(codegen::CHANGES_FILE)
}

fn accepted_path(sides: &Sides, options: &DiffOptions) -> PathBuf {
    options.accepted.clone().unwrap_or_else(|| match sides {
        Sides::Files { new, .. } | Sides::Base { spec: new, .. } => beside(new),
    })
}

/// The spec's directory as committed at a revision, in a directory removed when dropped.
struct OldTree {
    dir: PathBuf,
    spec: PathBuf,
}

impl Drop for OldTree {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Writes the directory of `spec` as it was at `rev` into a temporary directory; `None` when it
/// did not exist there.
fn checkout(rev: &str, spec: &Path) -> Result<Option<OldTree>, String> {
    let spec = spec.canonicalize().map_err(|e| format!("{}: {e}", spec.display()))?;
    let directory = spec.parent().ok_or("the spec has no directory")?;
    let git = |args: &[&str]| Command::new("git").current_dir(directory).args(args).output();
    let top = git(&["rev-parse", "--show-toplevel"]).map_err(|e| format!("cannot run git: {e}"))?;
    if !top.status.success() {
        return Err(format!("{} is not in a git repository", directory.display()));
    }
    let top = PathBuf::from(String::from_utf8_lossy(&top.stdout).trim());
    let top = top.canonicalize().unwrap_or(top);
    let relative = directory.strip_prefix(&top).map_err(|_| "the spec is outside its repository")?;
    let relative = if relative.as_os_str().is_empty() { ".".to_string() } else { relative.to_string_lossy().into() };
    let exists = git(&["cat-file", "-e", &format!("{rev}:{}", relative.trim_start_matches("./"))])
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !exists.status.success() {
        let known = git(&["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !known.status.success() {
            return Err(format!("`{rev}` names no commit"));
        }
        return Ok(None);
    }
    let archive = Command::new("git")
        .current_dir(&top)
        .args(["archive", "--format=tar", rev, "--", &relative])
        .output()
        .map_err(|e| format!("cannot run git archive: {e}"))?;
    if !archive.status.success() {
        return Err(format!("git archive {rev}: {}", String::from_utf8_lossy(&archive.stderr).trim()));
    }
    let dir = std::env::temp_dir().join(format!("xtask-diff-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let tree = OldTree { spec: dir.join(&relative).join(spec.file_name().unwrap_or_default()), dir };
    let mut tar = Command::new("tar")
        .current_dir(&tree.dir)
        .args(["-x", "-f", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    tar.stdin.take().ok_or("tar has no input")?.write_all(&archive.stdout).map_err(|e| e.to_string())?;
    let status = tar.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("tar could not unpack the spec at {rev}"));
    }
    if !tree.spec.exists() {
        return Ok(None);
    }
    Ok(Some(tree))
}
