//! Who uses a copy of the runtime the generator wrote, so that an API switching to another runtime
//! takes the old copy away once no API uses it. A copy keeps the crate directories of the APIs
//! that depend on it in `.apigen-users`, one per line, relative to the copy; an entry counts only
//! while that crate's manifest still points at the copy, so a crate deleted by hand releases it too.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::RUNTIME_CRATE;
use crate::emit::crates::WRITTEN_LIST;

/// The list of a runtime copy's users, beside its `.apigen-files`.
pub const USERS_LIST: &str = ".apigen-users";

/// What became of the copy of the runtime an API used before it switched to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Released {
    /// No API uses the copy any more: its files were removed.
    Removed { dir: PathBuf, files: usize },
    /// Other APIs still use the copy: it stays.
    Kept { dir: PathBuf, users: usize },
}

impl std::fmt::Display for Released {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Released::Removed { dir, files } => {
                write!(f, "removed the runtime copy at {} ({files} files): no API uses it now", dir.display())
            }
            Released::Kept { dir, users } => {
                let apis = if *users == 1 { "another API uses" } else { "other APIs use" };
                write!(f, "kept the runtime copy at {}: {users} {apis} it", dir.display())
            }
        }
    }
}

/// The runtime copy the crate at `crate_dir` depends on by path, if its manifest names one.
pub fn runtime_of(crate_dir: &Path) -> Option<PathBuf> {
    let manifest: toml::Table = fs::read_to_string(crate_dir.join("Cargo.toml")).ok()?.parse().ok()?;
    let runtime = manifest.get("dependencies")?.get(RUNTIME_CRATE)?;
    let path = runtime.get("path")?.as_str()?;
    super::absolute(&crate_dir.join(path)).ok()
}

/// Records that the crate at `user` depends on the runtime copy at `runtime`.
pub fn share(runtime: &Path, user: &Path) -> Result<(), String> {
    let mut users = users(runtime);
    if users.insert(super::relative_path(runtime, user)?) {
        save(runtime, &users)?;
    }
    Ok(())
}

/// Takes `user` off the users of the copy at `runtime`, and removes the copy's files (those its
/// `.apigen-files` lists, and the lists) once no crate uses it. Nothing, for a runtime the
/// generator did not write (it has no list of files).
pub fn release(runtime: &Path, user: &Path) -> Result<Option<Released>, String> {
    let runtime = super::absolute(runtime)?;
    if !runtime.join(WRITTEN_LIST).is_file() {
        return Ok(None);
    }
    let mut users = users(&runtime);
    users.remove(&super::relative_path(&runtime, user)?);
    users.retain(|entry| runtime_of(&runtime.join(entry)).as_deref() == Some(runtime.as_path()));
    if !users.is_empty() {
        save(&runtime, &users)?;
        return Ok(Some(Released::Kept { users: users.len(), dir: runtime }));
    }
    let listed = fs::read_to_string(runtime.join(WRITTEN_LIST)).unwrap_or_default();
    let mut files = 0;
    let names = listed.lines().filter(|line| !line.is_empty() && !line.starts_with('#'));
    for name in names.chain([WRITTEN_LIST, USERS_LIST]) {
        // An edited list cannot reach outside the copy.
        if !Path::new(name).components().all(|c| matches!(c, Component::Normal(_))) {
            continue;
        }
        let path = runtime.join(name);
        if path.is_file() {
            fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            files += 1;
            remove_empty_parents(&path, &runtime);
        }
    }
    // The copy's directory goes too when nothing else is in it.
    let _ = fs::remove_dir(&runtime);
    Ok(Some(Released::Removed { dir: runtime, files }))
}

fn users(runtime: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(runtime.join(USERS_LIST)).unwrap_or_default();
    text.lines().filter(|line| !line.is_empty() && !line.starts_with('#')).map(str::to_string).collect()
}

fn save(runtime: &Path, users: &BTreeSet<String>) -> Result<(), String> {
    let mut text = String::from("# The crates that use this copy of the runtime, written by apigen.\n");
    for user in users {
        text.push_str(user);
        text.push('\n');
    }
    let path = runtime.join(USERS_LIST);
    fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Removes the directories between `file` (removed) and `root` that are now empty.
fn remove_empty_parents(file: &Path, root: &Path) {
    let mut dir = file.parent().map(PathBuf::from);
    while let Some(current) = dir {
        if current == root || !current.starts_with(root) || fs::remove_dir(&current).is_err() {
            break;
        }
        dir = current.parent().map(PathBuf::from);
    }
}
