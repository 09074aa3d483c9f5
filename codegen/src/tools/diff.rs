//! `apigen diff`: what a change of a document does to existing clients, existing servers and the
//! generated crates, and whether every breaking change is accepted.
//!
//! It fails (`Ok(false)`) for one reason: a change breaks existing clients or servers and is not
//! accepted. Where a changes file (`CHANGES.yaml`) is found beside the new document or given, its
//! acceptances apply and so does its crate-version policy: the crates' version must move as far as
//! their API does.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::Config;
use crate::diff::{self, Acceptance, Report};
use crate::disk::{CHANGES_FILE, changes_beside, load_from_disk};

/// What to compare.
#[derive(Debug, Clone)]
pub enum Sides {
    /// Two spec files (each the root of its tree).
    Files { old: PathBuf, new: PathBuf },
    /// The spec `spec` as committed at `rev`, against the working tree.
    Base { rev: String, spec: PathBuf },
}

/// How the report is written, what accepts breaking changes and how both versions are read.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// JSON for tools instead of text for a person.
    pub json: bool,
    /// The changes file; `CHANGES.yaml` beside the new spec, if there is one, when not given.
    pub accepted: Option<PathBuf>,
    /// How both versions are lowered (the names of what they generate); the configuration of any
    /// document when not given.
    pub config: Option<Config>,
}

/// The generated crates' version before and after, and the least the change asks for.
#[derive(Debug, Clone)]
struct Versions {
    old: String,
    new: String,
    least: String,
}

/// A comparison's outcome: the report, the notes on the acceptances, and the changes file with
/// the versions its policy checks (none without a changes file; none to check when both
/// documents stand beside that one file, so the old crates' version is not known).
struct Compared {
    report: Report,
    notes: Vec<String>,
    policy: Option<(PathBuf, Option<Versions>)>,
}

/// Compares, prints the report, and says whether every breaking change is accepted (and, under a
/// changes file, the crates' version moved as far as their API did).
pub fn run(sides: &Sides, options: &DiffOptions) -> Result<bool, String> {
    let compared = match sides {
        Sides::Files { old, new } => compare_files(old, new, options)?,
        Sides::Base { rev, spec } => {
            let Some(old_tree) = checkout(rev, spec)? else {
                show(&format!("{} did not exist at {rev}: nothing to compare.\n", spec.display()), true);
                return Ok(true);
            };
            let result = compare_files(&old_tree.spec, spec, options);
            drop(old_tree);
            result?
        }
    };
    let Compared { report, notes, policy } = compared;
    let version_moved = match &policy {
        Some((_, Some(versions))) => diff::at_least(&versions.new, &versions.least)?,
        _ => true,
    };
    let passes = report.unaccepted().next().is_none() && version_moved;
    let text = if options.json {
        let versions = policy.as_ref().map(|(file, v)| match v {
            Some(v) => serde_json::json!({ "changes_file": file, "old": v.old, "new": v.new, "least": v.least }),
            None => serde_json::json!({ "changes_file": file }),
        });
        let json = serde_json::json!({ "report": report, "notes": notes, "crate_version": versions, "passes": passes });
        format!("{}\n", serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?)
    } else {
        text(sides, &report, &notes, policy.as_ref(), version_moved)
    };
    show(&text, passes);
    Ok(passes)
}

/// Writes the report on stdout. A reader that has gone ends the tool with the report's outcome,
/// which is what a caller of `diff` asks for.
fn show(text: &str, passes: bool) {
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
        std::process::exit(if passes { 0 } else { 1 });
    }
}

/// The report for a person: the changes, the notes, which policy applied, and what to do about
/// each breaking change not accepted.
fn text(
    sides: &Sides,
    report: &Report,
    notes: &[String],
    policy: Option<&(PathBuf, Option<Versions>)>,
    version_moved: bool,
) -> String {
    use std::fmt::Write as _;
    let mut out = report.to_string();
    for note in notes {
        let _ = writeln!(out, "note: {note}");
    }
    match policy {
        None => {
            let _ = writeln!(
                out,
                "\nNo {CHANGES_FILE} beside the new spec: nothing is accepted, and the crates' version is not checked."
            );
        }
        Some((file, None)) => {
            let _ = writeln!(
                out,
                "\nThe acceptances of {0} apply. Both documents stand beside {0}, so the old crates' version is not known \
                 and the crates' version is not checked (`apigen diff --base REV` reads it as committed).",
                file.display()
            );
        }
        Some((file, Some(versions))) => {
            let _ = writeln!(out, "\nThe acceptances and crate-version policy of {} apply.", file.display());
            if !version_moved {
                let _ = writeln!(
                    out,
                    "The generated crates' API moves past version {}: raise `crate-version` in {} to {} or beyond.",
                    versions.old,
                    file.display(),
                    versions.least
                );
            }
        }
    }
    let unaccepted: Vec<_> = report.unaccepted().collect();
    if !unaccepted.is_empty() {
        let file = policy.map_or_else(|| beside(new_spec(sides)), |(file, _)| file.clone());
        let _ = writeln!(
            out,
            "\n{} breaking change{} not accepted. Fix the spec, or raise `info.version` and accept each in {}:",
            unaccepted.len(),
            if unaccepted.len() == 1 { " is" } else { "s are" },
            file.display()
        );
        for change in unaccepted {
            let _ = writeln!(out, "- change: {:?}\n  version: {:?}\n  why: …", change.id, report.new_version);
        }
    }
    out
}

/// Lowers both specs and compares them, applying the acknowledgements of the changes file.
fn compare_files(old: &Path, new: &Path, options: &DiffOptions) -> Result<Compared, String> {
    let config = options.config.clone().unwrap_or_else(|| any_document(new));
    let lowered = |spec: &Path| -> Result<crate::ir::Api, String> {
        let loaded = load_from_disk(spec, false, &[])?;
        crate::lower(&loaded.doc, &config).map_err(|d| format!("{}: {d}", spec.display()))
    };
    let mut report = diff::compare(&lowered(old)?, &lowered(new)?);
    let file = match &options.accepted {
        Some(file) => Some(file.clone()),
        None => Some(beside(new)).filter(|file| file.is_file()),
    };
    let Some(file) = file else {
        let notes = Acceptance::default().apply(&mut report);
        return Ok(Compared { report, notes, policy: None });
    };
    let acceptance = match &options.accepted {
        Some(_) => fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))
            .and_then(|text| Acceptance::parse(&text).map_err(|e| format!("{}: {e}", file.display())))?,
        None => changes_beside(new)?,
    };
    let notes = acceptance.apply(&mut report);
    let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
    if same(&beside(old), &file) {
        return Ok(Compared { report, notes, policy: Some((file, None)) });
    }
    let old_version = changes_beside(old)?.version().to_string();
    let least = diff::next_version(&old_version, report.crates.level())?;
    let versions = Versions { old: old_version, new: acceptance.version().to_string(), least };
    Ok(Compared { report, notes, policy: Some((file, Some(versions))) })
}

/// How any document is read to compare it: as `apigen generate` names its crates, leniently, so a
/// change is compared even where generation would refuse.
fn any_document(spec: &Path) -> Config {
    let spec_path = spec.file_name().map_or_else(|| spec.display().to_string(), |f| f.to_string_lossy().into_owned());
    Config { spec_path, strict: false, ..Config::new("api") }
}

fn new_spec(sides: &Sides) -> &Path {
    match sides {
        Sides::Files { new, .. } | Sides::Base { spec: new, .. } => new,
    }
}

fn beside(spec: &Path) -> PathBuf {
    spec.parent().unwrap_or(Path::new(".")).join(CHANGES_FILE)
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
    let dir = std::env::temp_dir().join(format!("apigen-diff-{}", std::process::id()));
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
