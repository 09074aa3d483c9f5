//! A team adopting the generator: `cargo install` the `apigen` tool from this repository, generate
//! two public APIs into two directories of an existing workspace, sharing one runtime, and use both
//! from one new crate of that workspace, over real HTTP on loopback.
//!
//! The build runs in its own target directory (`target/adoption`, kept between runs), resolved
//! against the registry the rest of the workspace uses.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn run(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{command:?} failed:\n{stdout}\n{stderr}");
    format!("{stdout}{stderr}")
}

const APP_MANIFEST: &str = r#"[package]
name = "app"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
museum-client = { path = "../apis/museum/museum-client" }
museum-server = { path = "../apis/museum/museum-server" }
petstore-client = { path = "../apis/petstore/petstore-client" }
petstore-server = { path = "../apis/petstore/petstore-server" }
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
"#;

/// Each API's mock, served on loopback, answers its own client; both APIs in one binary.
const APP_MAIN: &str = r#"
#[tokio::main]
async fn main() {
    let config = petstore_server::ServeConfig::default();
    let pets = petstore_server::bind("127.0.0.1:0", &config).await.unwrap();
    let pets_url = format!("http://{}", pets.local_addr().unwrap());
    let router = petstore_server::router_with(petstore_server::MockApi::sampled(), Default::default());
    tokio::spawn(petstore_server::serve(pets, router, std::future::pending()));

    let museum = museum_server::bind("127.0.0.1:0", &museum_server::ServeConfig::default()).await.unwrap();
    let museum_url = format!("http://{}", museum.local_addr().unwrap());
    let router = museum_server::router_with(museum_server::MockApi::sampled(), Default::default());
    tokio::spawn(museum_server::serve(museum, router, std::future::pending()));

    let pets = petstore_client::Client::new(&pets_url, petstore_client::Credentials::new()).unwrap();
    let listed = pets.list_pets().limit(2).await.unwrap();
    let museum = museum_client::Client::new(&museum_url, museum_client::Credentials::new("token")).unwrap();
    let hours = museum.get_museum_hours().await.unwrap();
    println!("pets: {listed:?}\nhours: {hours:?}");
}
"#;

#[test]
fn an_installed_tool_generates_two_apis_that_one_crate_of_a_workspace_uses() {
    let root = root();
    let base = root.join("target/adoption");
    let target = base.join("target");
    let (install, ws) = (base.join("install"), base.join("workspace"));
    let _ = std::fs::remove_dir_all(&ws);
    std::fs::create_dir_all(ws.join("app/src")).unwrap();

    // The tool, as a user installs it from a checkout of this repository.
    run(Command::new(env!("CARGO"))
        .args(["install", "--locked", "--quiet", "--path"])
        .arg(root.join("codegen"))
        .arg("--root")
        .arg(&install)
        .arg("--target-dir")
        .arg(&target));
    let apigen = install.join("bin").join(format!("apigen{}", std::env::consts::EXE_SUFFIX));
    assert!(run(Command::new(&apigen).arg("--version")).starts_with("apigen "));
    assert!(run(Command::new(&apigen).arg("--help")).contains("apigen generate --spec FILE --out DIR --name NAME"));

    // An existing workspace, with a member of its own.
    std::fs::write(ws.join("Cargo.toml"), "[workspace]\nresolver = \"3\"\nmembers = [\"app\"]\n").unwrap();
    std::fs::write(ws.join("app/Cargo.toml"), APP_MANIFEST).unwrap();
    std::fs::write(ws.join("app/src/main.rs"), APP_MAIN).unwrap();
    // The same versions of the dependencies as this workspace, which are in the registry.
    std::fs::copy(root.join("Cargo.lock"), ws.join("Cargo.lock")).unwrap();

    let corpus = root.join("codegen/tests/corpus");
    for (spec, name) in [("oai-petstore.yaml", "petstore"), ("redocly-museum.yaml", "museum")] {
        let said = run(Command::new(&apigen)
            .args(["generate", "--spec"])
            .arg(corpus.join(spec))
            .arg("--out")
            .arg(ws.join("apis").join(name))
            .args(["--name", name, "--runtime-dir"])
            .arg(ws.join("apis/runtime")));
        assert!(said.contains("the crates join the workspace at"), "{said}");
        let manifest = std::fs::read_to_string(ws.join(format!("apis/{name}/{name}-client/Cargo.toml"))).unwrap();
        assert!(!manifest.contains("[workspace]"), "a crate inside a workspace joins it: {manifest}");
        assert!(manifest.contains("path = \"../../runtime\""), "one runtime for both APIs: {manifest}");
    }
    assert!(!ws.join("apis/petstore/apigen-runtime").exists(), "no second copy of the runtime");

    let output = run(Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--package", "app"])
        .current_dir(&ws)
        .env("CARGO_TARGET_DIR", &target));
    assert!(output.contains("pets: ") && output.contains("hours: "), "{output}");
}
