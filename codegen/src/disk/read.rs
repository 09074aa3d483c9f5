//! Reading a spec from disk: its root document, the files its references reach, its overlays, and
//! the crates' version from `CHANGES.yaml` beside it.

use std::cell::{Cell, RefCell};
use std::fs::{self, File};
use std::io::Read;
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
    on_disk(spec, allow_outside, overlays, |files| generate_files(files, config)).0
}

/// [`generate_from_disk`], and every file it read or tried to, with the `overlays/` folder
/// beside the spec when there is one: what a build script watches to generate again.
pub fn generate_from_disk_watched(
    spec: &Path,
    allow_outside: bool,
    overlays: &[PathBuf],
    config: &Config,
) -> (Result<Generated, Diagnostics>, Vec<PathBuf>) {
    on_disk(spec, allow_outside, overlays, |files| generate_files(files, config))
}

/// Loads the spec at `spec` and every file its references reach, as [`generate_from_disk`] reads them.
pub fn load_from_disk(spec: &Path, allow_outside: bool, overlays: &[PathBuf]) -> Result<Loaded, String> {
    on_disk(spec, allow_outside, overlays, |files| load_files(files).map(|(loaded, _)| loaded).map_err(Diagnostics))
        .0
        .map_err(|d| format!("{}: {d}", spec.display()))
}

/// Hands `use_files` the spec at `spec` as the library reads it: files from its directory (see
/// [`Tree::read`]) and its overlays; with the paths it read or tried to.
fn on_disk<T>(
    spec: &Path,
    allow_outside: bool,
    overlays: &[PathBuf],
    use_files: impl FnOnce(SpecFiles<'_>) -> Result<T, Diagnostics>,
) -> (Result<T, Diagnostics>, Vec<PathBuf>) {
    let tree = Tree::new(spec, allow_outside);
    let root = spec.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    // The root is the file the user named, wherever a link to it leads.
    let read = |path: &str| if path == root { tree.read(spec, "the spec", false) } else { tree.read_relative(path) };
    let result = read_overlays(&tree, overlays)
        .and_then(|overlays| use_files(SpecFiles { root: &root, read: &read, allow_outside, overlays: &overlays }));
    let mut watched = tree.tried.into_inner();
    let folder = tree.directory.join("overlays");
    if folder.is_dir() {
        watched.push(folder);
    }
    (result, watched)
}

/// The most bytes one file of a spec may hold: 128 MiB, above the largest public descriptions
/// (GitHub's is 13 MB, and 78 MB with every reference written out in place).
pub const MOST_FILE_BYTES: u64 = 128 * 1024 * 1024;

/// The most bytes all the files of one spec may hold together: 512 MiB.
pub const MOST_TREE_BYTES: u64 = 512 * 1024 * 1024;

/// The directory a spec is read from, and what has been read from it so far.
///
/// Every file the generator reads for a spec (the root, the files its references reach, the
/// Markdown they bring in, overlays, `CHANGES.yaml`) is read through [`Tree::read`]: a regular
/// file (never a device, a FIFO or a socket), of at most [`MOST_FILE_BYTES`], and inside the
/// directory once symbolic links are followed, unless reaching outside is allowed.
struct Tree {
    directory: PathBuf,
    allow_outside: bool,
    read: Cell<u64>,
    /// Every path asked for, read or not.
    tried: RefCell<Vec<PathBuf>>,
}

impl Tree {
    fn new(spec: &Path, allow_outside: bool) -> Tree {
        // `openapi.yaml` has the parent `""`, which is the current directory.
        let directory = spec.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Tree { directory: directory.to_path_buf(), allow_outside, read: Cell::new(0), tried: RefCell::default() }
    }

    /// Reads `path` (relative, `/`-separated) under the directory.
    fn read_relative(&self, path: &str) -> Result<String, String> {
        self.read(&self.directory.join(path), &format!("`{path}`"), true)
    }

    /// Reads `file`, which errors call `shown`; `contained` says it must be inside the directory
    /// (a file the user named need not be).
    fn read(&self, file: &Path, shown: &str, contained: bool) -> Result<String, String> {
        self.tried.borrow_mut().push(file.to_path_buf());
        let canonical = file.canonicalize().map_err(|e| e.to_string())?;
        if contained && !self.allow_outside {
            let directory = self
                .directory
                .canonicalize()
                .map_err(|e| format!("the spec's directory `{}` cannot be read: {e}", self.directory.display()))?;
            if !canonical.starts_with(&directory) {
                return Err(format!(
                    "{shown} leads outside the spec's directory (to `{}`); allow it with `--allow-outside-refs`",
                    canonical.display()
                ));
            }
        }
        // Looked at before it is opened: opening a FIFO waits for a writer.
        let not_regular = || format!("{shown} is not a regular file (a device, a FIFO or a socket is never read)");
        if !fs::metadata(&canonical).map_err(|e| e.to_string())?.is_file() {
            return Err(not_regular());
        }
        let mut opened = File::open(&canonical).map_err(|e| e.to_string())?;
        let metadata = opened.metadata().map_err(|e| e.to_string())?;
        if !metadata.is_file() {
            return Err(not_regular());
        }
        let left = MOST_TREE_BYTES.saturating_sub(self.read.get());
        let most = MOST_FILE_BYTES.min(left);
        let too_large = || {
            if most < MOST_FILE_BYTES {
                format!("{shown} takes the spec's files past {MOST_TREE_BYTES} bytes in all")
            } else {
                format!("{shown} is larger than {MOST_FILE_BYTES} bytes")
            }
        };
        if metadata.len() > most {
            return Err(too_large());
        }
        // The size may be wrong (a file still growing, or one the kernel makes up as it is read).
        let mut bytes = Vec::with_capacity(metadata.len() as usize);
        (&mut opened).take(most + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        if bytes.len() as u64 > most {
            return Err(too_large());
        }
        self.read.set(self.read.get() + bytes.len() as u64);
        String::from_utf8(bytes).map_err(|e| format!("{shown} is not UTF-8 text: {e}"))
    }
}

/// The overlays to apply to the spec in `tree`: its `overlays/` folder's YAML and JSON files by
/// name, then `given`; each as (path for diagnostics, text).
fn read_overlays(tree: &Tree, given: &[PathBuf]) -> Result<Vec<(String, String)>, Diagnostics> {
    let directory = &tree.directory;
    let mut paths: Vec<PathBuf> = match fs::read_dir(directory.join("overlays")) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json"))
            .collect(),
        Err(_) => Vec::new(),
    };
    paths.sort();
    let beside = paths.len();
    paths.extend(given.iter().cloned());
    paths
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let shown = path.strip_prefix(directory).unwrap_or(path).to_string_lossy().replace('\\', "/");
            // Those found beside the spec are part of its tree; those given by name are the user's.
            let text = tree.read(path, "it", i < beside).map_err(|e| {
                Diagnostics(vec![Diagnostic {
                    severity: crate::diagnostic::Severity::Error,
                    pointer: format!("{shown}#"),
                    line: None,
                    message: format!("the overlay cannot be read: {e}"),
                }])
            })?;
            Ok((shown, text))
        })
        .collect()
}

/// The file beside a spec that holds its crates' version and the breaking changes it accepts.
pub const CHANGES_FILE: &str = "CHANGES.yaml";

/// The version the crates of `spec` get: `crate-version` in `CHANGES.yaml` beside it, else the first.
pub fn crate_version(spec: &Path) -> Result<String, String> {
    Ok(changes_beside(spec)?.version().to_string())
}

/// What `CHANGES.yaml` beside `spec` says; nothing when there is none.
pub fn changes_beside(spec: &Path) -> Result<diff::Acceptance, String> {
    let tree = Tree::new(spec, false);
    let file = tree.directory.join(CHANGES_FILE);
    if fs::symlink_metadata(&file).is_err() {
        return Ok(Default::default());
    }
    let text = tree.read(&file, "it", true).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    diff::Acceptance::parse(&text).map_err(|e| format!("{}: {e}", file.display()))
}
