//! The generator on disk: reading a spec and the files its references reach, writing the crates
//! (and only ever removing files it wrote), and checking them. The rest of the library works on
//! text; this module is its only disk I/O, shared by the `apigen` tool, build scripts and the
//! project's own `cargo xtask codegen`.

mod explain;
mod read;
mod runtime;
mod write;

pub use explain::{FileChange, explain};
pub use read::{
    CHANGES_FILE, MOST_FILE_BYTES, MOST_TREE_BYTES, changes_beside, crate_version, generate_from_disk,
    generate_from_disk_watched, load_from_disk,
};
pub use runtime::{Released, USERS_LIST, release, runtime_of, share};
pub use write::{Checked, Written, check, write};

use std::path::{Component, Path, PathBuf};

/// The Cargo workspace whose root manifest is at or above `dir` and would take crates written
/// there as members: not when `dir` is inside that workspace's `target` directory (or
/// `CARGO_TARGET_DIR`), where build output goes. `dir` need not exist yet.
pub fn enclosing_workspace(dir: &Path) -> Option<PathBuf> {
    let dir = absolute(dir).ok()?;
    let root = dir.ancestors().skip(1).find(|ancestor| declares_workspace(&ancestor.join("Cargo.toml")))?;
    // Build output goes to `target/` unless `CARGO_TARGET_DIR` says otherwise; neither is the
    // workspace's own.
    let targets =
        std::iter::once(root.join("target")).chain(std::env::var_os("CARGO_TARGET_DIR").map(|t| root.join(t)));
    let in_target = targets.into_iter().any(|target| dir.starts_with(target));
    (!in_target).then(|| root.to_path_buf())
}

/// How a workspace gives its members the runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclaredRuntime {
    /// `[workspace.dependencies]` has no `apigen-runtime`.
    Not,
    /// It names the runtime at this directory.
    Path(PathBuf),
    /// It names the runtime from git or a registry.
    Elsewhere,
}

/// What the manifest of the workspace at `root` declares for `apigen-runtime` in its
/// `[workspace.dependencies]`.
pub fn declared_runtime(root: &Path) -> Result<DeclaredRuntime, String> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let manifest: toml::Table =
        text.parse().map_err(|e| format!("{} is not a manifest cargo reads: {e}", path.display()))?;
    let declared =
        manifest.get("workspace").and_then(|w| w.get("dependencies")).and_then(|d| d.get(crate::RUNTIME_CRATE));
    Ok(match declared {
        None => DeclaredRuntime::Not,
        Some(toml::Value::Table(table)) => match table.get("path").and_then(toml::Value::as_str) {
            Some(dir) => DeclaredRuntime::Path(absolute(&root.join(dir))?),
            None => DeclaredRuntime::Elsewhere,
        },
        Some(_) => DeclaredRuntime::Elsewhere,
    })
}

/// Whether the manifest at `path` has a `[workspace]` table.
fn declares_workspace(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| text.lines().any(|line| line.trim() == "[workspace]"))
}

/// `to` relative to `from`, both directories, `/`-separated, with `..` where it leads out of
/// `from`; `to` as given (absolute) when no relative path reaches it.
pub fn relative_path(from: &Path, to: &Path) -> Result<String, String> {
    let (from, to) = (absolute(from)?, absolute(to)?);
    let common = from.components().zip(to.components()).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return Ok(to.to_string_lossy().replace('\\', "/"));
    }
    let up = from.components().skip(common).map(|_| "..".to_string());
    let down = to.components().skip(common).map(|c| c.as_os_str().to_string_lossy().into_owned());
    let parts: Vec<String> = up.chain(down).collect();
    Ok(if parts.is_empty() { ".".to_string() } else { parts.join("/") })
}

/// `path` made absolute against the current directory, with `.` and `..` resolved by name.
pub(crate) fn absolute(path: &Path) -> Result<PathBuf, String> {
    let path = std::path::absolute(path).map_err(|e| format!("cannot resolve {}: {e}", path.display()))?;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_lead_up_and_down() {
        let rel = |a: &str, b: &str| relative_path(Path::new(a), Path::new(b)).unwrap();
        assert_eq!(rel("/w/gen/a", "/w/gen/a/apigen-runtime"), "apigen-runtime");
        assert_eq!(rel("/w/gen/a", "/w/shared/rt"), "../../shared/rt");
        assert_eq!(rel("/w/gen/./a/../b", "/w/gen/b"), ".");
    }

    #[test]
    fn a_workspace_is_found_above_but_not_from_its_target_directory() {
        let root = std::env::temp_dir().join(format!("apigen-ws-{}", std::process::id()));
        std::fs::create_dir_all(root.join("member")).unwrap();
        std::fs::write(root.join("Cargo.toml"), "[workspace]\nmembers = [\"member\"]\n").unwrap();
        std::fs::write(root.join("member/Cargo.toml"), "[package]\nname = \"member\"\n").unwrap();
        assert_eq!(enclosing_workspace(&root.join("member/gen")), Some(root.clone()));
        assert_eq!(enclosing_workspace(&root.join("gen/not/yet/made")), Some(root.clone()));
        assert_eq!(enclosing_workspace(&root.join("target/gen")), None);
        assert_eq!(enclosing_workspace(&std::env::temp_dir().join("apigen-no-workspace-here")), None);
        std::fs::remove_dir_all(root).unwrap();
    }
}
