//! Reading a spec from disk: its root document, the files its references reach, its overlays, and
//! the crates' version from `CHANGES.yaml` beside it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::{Config, Diagnostic, Diagnostics, Generated, Loaded, SpecFiles, diff, generate_files, load_files};

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
pub fn load_from_disk(spec: &Path, allow_outside: bool, overlays: &[PathBuf]) -> Result<Loaded, String> {
    on_disk(spec, allow_outside, overlays, |files| load_files(files).map(|(loaded, _)| loaded).map_err(Diagnostics))
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
                Diagnostics(vec![Diagnostic {
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

/// The file beside a spec that holds its crates' version and the breaking changes it accepts.
pub const CHANGES_FILE: &str = "CHANGES.yaml";

/// The version the crates of `spec` get: `crate-version` in `CHANGES.yaml` beside it, else the first.
pub fn crate_version(spec: &Path) -> Result<String, String> {
    Ok(changes_beside(spec)?.version().to_string())
}

/// What `CHANGES.yaml` beside `spec` says; nothing when there is none.
pub fn changes_beside(spec: &Path) -> Result<diff::Acceptance, String> {
    let file = spec.parent().unwrap_or(Path::new(".")).join(CHANGES_FILE);
    match fs::read_to_string(&file) {
        Ok(text) => diff::Acceptance::parse(&text).map_err(|e| format!("{}: {e}", file.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Default::default()),
        Err(e) => Err(format!("cannot read {}: {e}", file.display())),
    }
}
