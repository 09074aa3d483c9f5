//! Names the commit the generator is built from, for `apigen --version`.
//!
//! The commit is read once per target directory: following every commit (`rerun-if-changed` on
//! git's refs) would rebuild the generator and everything using it after each one. `cargo install`
//! builds in a fresh directory, so an installed tool names its commit exactly.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=APIGEN_COMMIT");
    let commit = std::env::var("APIGEN_COMMIT").ok().or_else(|| {
        let dir = std::env::var("CARGO_MANIFEST_DIR").ok()?;
        let git = |args: &[&str]| {
            let out = Command::new("git").arg("-C").arg(Path::new(&dir)).args(args).output().ok()?;
            out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let commit = git(&["rev-parse", "--short=12", "HEAD"])?;
        // Changes to the generator's own files that no commit holds.
        let changed = git(&["status", "--porcelain", "--", "."]).is_some_and(|status| !status.is_empty());
        Some(if changed { format!("{commit}, with changes") } else { commit })
    });
    println!("cargo:rustc-env=APIGEN_COMMIT={}", commit.unwrap_or_default());
}
