//! `apigen serve-mock`: the generated server of any document, answering through its real router
//! and validation with the document's examples or values sampled from its schemas.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::helper;

/// What to serve, where.
#[derive(Debug, Clone)]
pub struct MockOptions {
    pub spec: PathBuf,
    /// `HOST:PORT`; port 0 picks a free one.
    pub addr: String,
    pub seed: u64,
    /// Where the generated crates and the server's build go.
    pub dir: PathBuf,
}

/// Generates the document's crates and a small binary serving `MockApi::sampled()`, builds it,
/// and runs it in the foreground; it prints the base URL on stdout once it accepts connections.
pub fn serve_mock(options: &MockOptions) -> Result<(), String> {
    let binary = build_mock(options)?;
    let mut command = Command::new(&binary);
    command.arg(&options.addr);
    run_in_place(command).map_err(|e| format!("cannot run {}: {e}", binary.display()))
}

/// Runs the server in this process's place, so stopping the tool (by its process id too) stops
/// the server; returns only if it cannot.
#[cfg(unix)]
fn run_in_place(mut command: Command) -> Result<(), String> {
    use std::os::unix::process::CommandExt as _;
    Err(command.exec().to_string())
}

/// Runs the server in the foreground until it stops.
#[cfg(not(unix))]
fn run_in_place(mut command: Command) -> Result<(), String> {
    let status = command.status().map_err(|e| e.to_string())?;
    status.success().then_some(()).ok_or_else(|| format!("the mock server stopped: {status}"))
}

/// Generates and builds the mock server of `options.spec`; returns the binary.
pub fn build_mock(options: &MockOptions) -> Result<PathBuf, String> {
    let name = helper::crate_name(&options.spec);
    let out = options.dir.join(&name);
    helper::write_crates(&options.spec, helper::generator(&options.spec, &out, &name, options.seed)?)?;
    let bin = out.join("mock");
    write_binary_crate(&bin, &name)?;
    // One target directory for every document, so the dependencies build once.
    let target = options.dir.join("target");
    helper::build_helper(&bin, &target)
        .map_err(|_| format!("the generated mock server of {} does not build", options.spec.display()))?;
    Ok(target.join("debug").join(format!("{name}-mock{}", std::env::consts::EXE_SUFFIX)))
}

fn write_binary_crate(dir: &Path, name: &str) -> Result<(), String> {
    let server = format!("{}_server", name.replace('-', "_"));
    let manifest = helper::manifest(
        &format!("{name}-mock"),
        vec![
            (format!("{name}-server"), helper::path_dependency(&format!("../{name}-server"), &[])),
            ("tokio".to_string(), helper::registry_dependency("1", &["macros", "net", "rt-multi-thread"])),
        ],
    );
    // `name` is a crate name (letters, digits and `-`), so `server` is a Rust identifier.
    let main = format!(
        "//! Serves `MockApi::sampled()` of the generated server at the address given.\n\n\
         #[tokio::main]\nasync fn main() -> std::io::Result<()> {{\n    \
         let addr = std::env::args().nth(1).unwrap_or_else(|| \"127.0.0.1:0\".to_string());\n    \
         let router = {server}::router_with({server}::MockApi::sampled(), Default::default());\n    \
         let listener = tokio::net::TcpListener::bind(&addr).await?;\n    \
         println!(\"http://{{}}\", listener.local_addr()?);\n    \
         {server}::serve(listener, router, {server}::shutdown_signal()).await\n}}\n"
    );
    helper::write_helper(dir, &manifest, &main)
}
