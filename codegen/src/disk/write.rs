//! Writing generated files under an output root, and checking them, without ever touching a file
//! the generator did not write: each directory it owns lists what it wrote there
//! (`.apigen-files`), and only a listed file that is no longer generated is removed.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use super::explain::{FileChange, explain};
use crate::GeneratedFile;
use crate::emit::crates::WRITTEN_LIST;

/// What [`write()`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Files generated.
    pub generated: usize,
    /// Of those, files whose contents changed and were written; the others keep their timestamps,
    /// so cargo does not rebuild them.
    pub written: usize,
    /// Files the generator wrote before and no longer generates, removed.
    pub removed: usize,
}

impl std::fmt::Display for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Written { generated, written, removed } = self;
        write!(f, "{generated} files generated, {written} written, {removed} removed")
    }
}

/// Writes `files` (paths relative to `root`) where their contents changed, and removes the files
/// the lists in `dirs` name that are no longer generated.
pub fn write(root: &Path, dirs: &[&str], files: &[GeneratedFile]) -> Result<Written, String> {
    // Read before writing, which replaces the lists.
    let leftovers = leftovers(root, dirs, files);
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
    for leftover in &leftovers {
        fs::remove_file(root.join(leftover)).map_err(|e| format!("cannot remove {leftover}: {e}"))?;
    }
    Ok(Written { generated: files.len(), written, removed: leftovers.len() })
}

/// What [`check()`] found: every file that differs from what the spec generates.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Files generated.
    pub generated: usize,
    /// Files whose contents differ: what changed in each.
    pub stale: Vec<FileChange>,
    /// Files generated that are not on disk.
    pub missing: Vec<String>,
    /// Files the generator wrote that it no longer generates.
    pub extra: Vec<String>,
}

impl Checked {
    /// Whether every generated file is on disk as generated.
    pub fn is_current(&self) -> bool {
        self.stale.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }

    /// The differences for a person: each file with the items that changed in it and a short diff.
    pub fn report(&self) -> String {
        let mut out = String::new();
        for change in &self.stale {
            out.push_str(&change.to_string());
        }
        for path in &self.missing {
            out.push_str(&format!("  missing: {path}\n"));
        }
        for path in &self.extra {
            out.push_str(&format!("  extra:   {path} (generated before, no longer)\n"));
        }
        out
    }
}

/// Compares `files` with what is under `root`, writing nothing.
pub fn check(root: &Path, dirs: &[&str], files: &[GeneratedFile]) -> Result<Checked, String> {
    let mut checked = Checked { generated: files.len(), ..Checked::default() };
    for file in files {
        match fs::read_to_string(root.join(&file.path)) {
            Ok(contents) if contents == file.contents => {}
            Ok(contents) => checked.stale.push(explain(&file.path, &contents, &file.contents)),
            Err(_) => checked.missing.push(file.path.clone()),
        }
    }
    checked.extra = leftovers(root, dirs, files);
    Ok(checked)
}

/// Files that the lists of `dirs` on disk name, that exist, and that `files` no longer holds,
/// relative to `root`. A listed name that is not a plain relative path is ignored, so an edited
/// list cannot reach outside its directory.
fn leftovers(root: &Path, dirs: &[&str], files: &[GeneratedFile]) -> Vec<String> {
    let generated: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut out = Vec::new();
    for dir in dirs {
        let list = root.join(dir).join(WRITTEN_LIST);
        let Ok(text) = fs::read_to_string(&list) else { continue };
        for name in text.lines().filter(|line| !line.is_empty() && !line.starts_with('#')) {
            let plain = Path::new(name).components().all(|c| matches!(c, std::path::Component::Normal(_)));
            let path = format!("{dir}/{name}");
            if plain && !generated.contains(path.as_str()) && root.join(&path).is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
