//! `cargo xtask serve-mock`: the generated server of any document, answering through its real
//! router and validation with the document's examples or values sampled from its schemas.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::codegen::{SpecOptions, Strictness, workspace_root};

/// What to serve, where.
#[derive(Debug, Clone)]
pub struct MockOptions {
    pub spec: PathBuf,
    /// `HOST:PORT`; port 0 picks a free one.
    pub addr: String,
    pub seed: u64,
    /// Where the generated crates and the server's build go (`target/serve-mock` by default).
    pub dir: Option<PathBuf>,
}

/// Generates the document's crates and a small binary serving `MockApi::sampled()`, builds it,
/// and runs it in the foreground; it prints the base URL on stdout once it accepts connections.
pub fn serve_mock(options: &MockOptions) -> Result<(), String> {
    let binary = build_mock(options)?;
    let status = Command::new(&binary)
        .arg(&options.addr)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("the mock server stopped: {status}")),
    }
}

/// Generates and builds the mock server of `options.spec`; returns the binary.
pub fn build_mock(options: &MockOptions) -> Result<PathBuf, String> {
    let root = workspace_root()?;
    let base = options.dir.clone().unwrap_or_else(|| root.join("target").join("serve-mock"));
    let name = crate_name(&options.spec);
    let out = base.join(&name);
    let spec_options = SpecOptions {
        strictness: Strictness::Lenient,
        seed: options.seed,
        // A helper build of its own, even when `--dir` is inside a workspace.
        placement: apigen::Placement::Standalone,
        ..SpecOptions::default()
    };
    let summary = crate::codegen::write_spec(&options.spec, &out, &name, spec_options)?;
    eprintln!("{summary}");
    let bin = out.join("mock");
    write_binary_crate(&bin, &name)?;
    // One target directory for every document, so the dependencies build once.
    let target = base.join("target");
    build_helper(&bin, &target)
        .map_err(|_| format!("the generated mock server of {} does not build", options.spec.display()))?;
    Ok(target.join("debug").join(format!("{name}-mock{}", std::env::consts::EXE_SUFFIX)))
}

/// A crate name from the document's file name: `petstore-v3.yaml` → `petstore-v3`.
pub(crate) fn crate_name(spec: &Path) -> String {
    let stem = spec.file_stem().map(|s| s.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let name: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let name = name.trim_matches('-').to_string();
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => name,
        _ => format!("api-{name}"),
    }
}

fn write_binary_crate(dir: &Path, name: &str) -> Result<(), String> {
    let server = format!("{}_server", name.replace('-', "_"));
    let manifest = format!(
        "[package]\nname = \"{name}-mock\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [workspace]\n\n\
         [dependencies]\n{name}-server = {{ path = \"../{name}-server\" }}\n\
         tokio = {{ version = \"1\", features = [\"macros\", \"net\", \"rt-multi-thread\"] }}\n"
    );
    let main = format!(
        "//! Serves `MockApi::sampled()` of the generated server at the address given.\n\n\
         #[tokio::main]\nasync fn main() -> std::io::Result<()> {{\n    \
         let addr = std::env::args().nth(1).unwrap_or_else(|| \"127.0.0.1:0\".to_string());\n    \
         let router = {server}::router_with({server}::MockApi::sampled(), Default::default());\n    \
         let listener = tokio::net::TcpListener::bind(&addr).await?;\n    \
         println!(\"http://{{}}\", listener.local_addr()?);\n    \
         {server}::serve(listener, router, {server}::shutdown_signal()).await\n}}\n"
    );
    write_helper(dir, &manifest, &main)
}

/// Writes a helper crate's manifest and `src/main.rs`, each only when it changed (so cargo does
/// not rebuild it).
pub(crate) fn write_helper(dir: &Path, manifest: &str, main: &str) -> Result<(), String> {
    for (path, text) in [(dir.join("Cargo.toml"), manifest), (dir.join("src").join("main.rs"), main)] {
        fs::create_dir_all(path.parent().unwrap_or(dir))
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        if fs::read_to_string(&path).ok().as_deref() != Some(text) {
            fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Builds the helper crate at `dir` into `target` (shared by every document, so dependencies
/// build once); `Err` when it does not build, after cargo has said why on stderr.
pub(crate) fn build_helper(dir: &Path, target: &Path) -> Result<(), String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()))
        .args(["build", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    status.success().then_some(()).ok_or_else(|| format!("{} does not build", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::crate_name;
    use std::path::Path;

    #[test]
    fn crate_names_come_from_the_file_name() {
        assert_eq!(crate_name(Path::new("specs/Petstore v3.yaml")), "petstore-v3");
        assert_eq!(crate_name(Path::new("3d.json")), "api-3d");
    }
}
