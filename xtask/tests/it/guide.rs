//! The user guide (`codegen/README.md`) run as written, outside this repository: `cargo install`
//! the tool into a temporary root, generate two public APIs into a new workspace in the system's
//! temporary directory with default flags, build and run the guide's crate that uses both, serve
//! one with `apigen serve-mock` and call it, compare versions with `apigen diff`, then add the
//! guide's build-time crate (and a second one) beside the checked-in crates and check that the
//! build right after a spec edit fails naming the field.
//!
//! Builds share one target directory under this repository's `target/guide`, kept between runs,
//! resolved with this workspace's `Cargo.lock`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn guide() -> String {
    std::fs::read_to_string(root().join("codegen/README.md")).unwrap()
}

/// A code block of the guide: the section it is in, its info string and its text.
struct Block {
    section: String,
    info: String,
    text: String,
}

fn blocks(guide: &str) -> Vec<Block> {
    let (mut out, mut section, mut open): (Vec<Block>, String, Option<Block>) = (Vec::new(), String::new(), None);
    for line in guide.lines() {
        match open.as_mut() {
            Some(_) if line == "```" => out.extend(open.take()),
            Some(block) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            None if line.starts_with("```") => {
                open = Some(Block { section: section.clone(), info: line[3..].to_string(), text: String::new() });
            }
            None if line.starts_with("## ") => section = line[3..].to_string(),
            None => {}
        }
    }
    assert!(open.is_none(), "a code block of the guide is not closed");
    out
}

fn run(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{command:?} failed:\n{stdout}\n{stderr}");
    format!("{stdout}{stderr}")
}

/// The guide's one `sh` block in `section`, as lines of words.
fn commands<'a>(blocks: &'a [Block], section: &str) -> Vec<Vec<&'a str>> {
    let block = blocks.iter().find(|b| b.section == section && b.info == "sh").expect(section);
    block.text.lines().filter(|l| !l.trim().is_empty()).map(|l| l.split_whitespace().collect()).collect()
}

struct Workspace {
    dir: PathBuf,
    apigen: PathBuf,
    target: PathBuf,
}

impl Workspace {
    fn apigen(&self, args: &[&str]) -> Command {
        let mut command = Command::new(&self.apigen);
        command.args(args).current_dir(&self.dir);
        command
    }

    fn cargo(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO"));
        command.args(args).current_dir(&self.dir).env("CARGO_TARGET_DIR", &self.target);
        command
    }

    /// Writes every `file=PATH` block of `section`; how many.
    fn write_files(&self, blocks: &[Block], section: &str) -> usize {
        let files: Vec<&Block> = blocks.iter().filter(|b| b.section == section && b.info.contains(" file=")).collect();
        for block in &files {
            let path = self.dir.join(block.info.split_once(" file=").unwrap().1);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            // The guide's workspace keeps apigen's checkout beside it; this one is the repository.
            let text = block.text.replace("\"../apigen/", &format!("\"{}/", root().display()));
            std::fs::write(path, text).unwrap();
        }
        files.len()
    }
}

#[test]
fn the_guide_runs_as_written_in_a_workspace_of_its_own() {
    let guide = guide();
    let blocks = blocks(&guide);
    let base = root().join("target/guide");
    let scratch = std::env::temp_dir().join(format!("apigen-guide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let ws = Workspace {
        dir: scratch.join("workspace"),
        apigen: scratch.join("install/bin").join(format!("apigen{}", std::env::consts::EXE_SUFFIX)),
        target: base.join("target"),
    };
    std::fs::create_dir_all(&ws.dir).unwrap();
    std::fs::write(ws.dir.join("Cargo.toml"), "[workspace]\nresolver = \"3\"\nmembers = [\"app\"]\n").unwrap();
    std::fs::copy(root().join("Cargo.lock"), ws.dir.join("Cargo.lock")).unwrap();
    let corpus = root().join("codegen/tests/corpus");
    std::fs::copy(corpus.join("oai-petstore.yaml"), ws.dir.join("petstore.yaml")).unwrap();
    std::fs::copy(corpus.join("redocly-museum.yaml"), ws.dir.join("museum.yaml")).unwrap();

    // Install, into a root of the test's own.
    for words in commands(&blocks, "Install") {
        let ["cargo", "install", options @ .., "--path", "codegen"] = words.as_slice() else { panic!("{words:?}") };
        run(Command::new(env!("CARGO"))
            .arg("install")
            .args(options)
            .args(["--quiet", "--path"])
            .arg(root().join("codegen"))
            .arg("--root")
            .arg(scratch.join("install"))
            .arg("--target-dir")
            .arg(base.join("install")));
    }
    let version = run(&mut ws.apigen(&["--version"]));
    let commit = version.trim().strip_prefix("apigen ").and_then(|v| v.split_once(" (")).map_or("", |(_, c)| c);
    assert!(commit.len() > 12 && commit[..12].chars().all(|c| c.is_ascii_hexdigit()), "{version}");

    // Generate, with default flags.
    let generate = commands(&blocks, "Generate");
    assert_eq!(generate.len(), 2, "one command per API");
    for words in &generate {
        let ["apigen", args @ ..] = words.as_slice() else { panic!("{words:?}") };
        let said = run(&mut ws.apigen(args));
        assert!(said.contains("the crates join the workspace at"), "{said}");
    }
    for name in ["petstore", "museum"] {
        let manifest = std::fs::read_to_string(ws.dir.join(format!("apis/{name}/{name}-client/Cargo.toml"))).unwrap();
        assert!(manifest.contains("path = \"../../../apigen-runtime\""), "one runtime for both APIs: {manifest}");
    }

    // The client, the server and the in-process mock.
    assert_eq!(
        ws.write_files(&blocks, "Call an API with the client") + ws.write_files(&blocks, "Implement the server"),
        3
    );
    let output = run(&mut ws.cargo(&["run", "--quiet", "--package", "app"]));
    assert!(output.contains("pets: [Pet {") && output.contains("hours: [MuseumDailyHours {"), "{output}");

    // The tool's mock, called by the app.
    let mock = commands(&blocks, "Test with the mock");
    let ["apigen", "serve-mock", spec_flag, spec, "--addr", _] = mock[0].as_slice() else { panic!("{:?}", mock[0]) };
    let mut server = ws
        .apigen(&["serve-mock", spec_flag, spec, "--addr", "127.0.0.1:0", "--dir"])
        .arg(&base)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut url).unwrap();
    let ["cargo", args @ .., _url] = mock[1].as_slice() else { panic!("{:?}", mock[1]) };
    let called = ws.cargo(args).arg(url.trim()).output().unwrap();
    // The tool's process is the server's (it runs in its place), so this stops it.
    let _ = server.kill();
    let _ = server.wait();
    let said = String::from_utf8_lossy(&called.stdout);
    assert!(
        called.status.success() && said.contains("pets: [Pet {"),
        "{said}{}",
        String::from_utf8_lossy(&called.stderr)
    );

    evolve(&ws, &blocks);
    build_time(&ws, &blocks);
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `apigen diff` on the guide's two files: with no changes file only a break fails; the guide's
/// `CHANGES.yaml` accepts it.
fn evolve(ws: &Workspace, blocks: &[Block]) {
    let diff = commands(blocks, "Evolve the contract");
    let ["apigen", args @ ..] = diff[0].as_slice() else { panic!("{:?}", diff[0]) };
    let (old, new) = (ws.dir.join(args[1]), ws.dir.join(args[2]));
    let petstore = std::fs::read_to_string(&old).unwrap();
    let removed = petstore.replace("        - name\n", "").replace("        name:\n          type: string\n", "");
    let edits = [
        (
            "a description",
            petstore.replace("description: A paged array of pets", "description: Pets, a page at a time"),
            true,
        ),
        ("a required reply field removed", removed.clone(), false),
    ];
    for (what, text, passes) in edits {
        assert_ne!(text, petstore, "{what}: the edit applies");
        std::fs::write(&new, text).unwrap();
        let output = ws.apigen(args).output().unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.success(), passes, "{what}:\n{said}{}", String::from_utf8_lossy(&output.stderr));
        assert!(passes || said.contains("Pet.name: field removed"), "{what}:\n{said}");
    }
    // Accepted beside the new file, announced by a new `info.version`.
    let changes = blocks.iter().find(|b| b.section == "Evolve the contract" && b.info == "yaml").unwrap();
    std::fs::write(new.with_file_name("CHANGES.yaml"), &changes.text).unwrap();
    std::fs::write(&new, removed.replace("  version: 1.0.0", "  version: 2.0.0")).unwrap();
    let output = ws.apigen(args).output().unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && said.contains("CHANGES.yaml"),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::remove_file(new.with_file_name("CHANGES.yaml")).unwrap();
}

/// The guide's build-time crate and a second one for the other API, beside the checked-in crates,
/// in one build; an edit of the spec fails the very next build.
fn build_time(ws: &Workspace, blocks: &[Block]) {
    assert_eq!(ws.write_files(blocks, "Generate at build time"), 4);
    std::fs::copy(ws.dir.join("petstore.yaml"), ws.dir.join("pets/petstore.yaml")).unwrap();
    let gallery = ws.dir.join("gallery");
    std::fs::create_dir_all(gallery.join("src")).unwrap();
    let pets = std::fs::read_to_string(ws.dir.join("pets/Cargo.toml")).unwrap();
    std::fs::write(gallery.join("Cargo.toml"), pets.replace("name = \"pets\"", "name = \"gallery\"")).unwrap();
    std::fs::write(
        gallery.join("build.rs"),
        "fn main() {\n    apigen::Build::new(\"museum.yaml\", \"museum\").client(false).run();\n}\n",
    )
    .unwrap();
    std::fs::write(
        gallery.join("src/lib.rs"),
        "//! The museum's server alone.\n\npub mod museum {\n    apigen_runtime::include_api!(\"museum\");\n}\n\n\
         /// The museum's operations.\npub fn operations() -> usize {\n    museum::server::OPERATIONS.len()\n}\n",
    )
    .unwrap();
    std::fs::copy(ws.dir.join("museum.yaml"), gallery.join("museum.yaml")).unwrap();
    let manifest = std::fs::read_to_string(ws.dir.join("Cargo.toml")).unwrap();
    std::fs::write(ws.dir.join("Cargo.toml"), manifest.replace("\"pets\"]", "\"pets\", \"gallery\"]")).unwrap();

    // Generating again gives the checked-in crates the declared runtime, and the copy goes.
    for words in commands(blocks, "Generate") {
        let said = run(&mut ws.apigen(&words[1..]));
        assert!(!said.contains("kept the runtime copy") || said.contains("another API uses it"), "{said}");
    }
    assert!(!ws.dir.join("apigen-runtime").exists(), "the copy no API uses is removed");
    let manifest = std::fs::read_to_string(ws.dir.join("apis/petstore/petstore-client/Cargo.toml")).unwrap();
    assert!(manifest.contains("apigen-runtime = { workspace = true"), "{manifest}");
    run(&mut ws.cargo(&["build", "--quiet", "--workspace"]));

    // The build right after an edit compiles the new contract; restoring it builds again.
    let spec = ws.dir.join("pets/petstore.yaml");
    let petstore = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(
        &spec,
        petstore.replace("        - name\n", "").replace("        name:\n          type: string\n", ""),
    )
    .unwrap();
    let output = ws.cargo(&["build", "--quiet", "--package", "pets"]).output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && said.contains("no field `name`"), "{said}");
    std::fs::write(&spec, petstore).unwrap();
    run(&mut ws.cargo(&["build", "--quiet", "--package", "pets"]));
}

#[test]
fn the_guide_keeps_its_paragraphs_short_and_its_reference_whole() {
    let guide = guide();
    let mut in_code = false;
    let mut paragraph = 0;
    for (n, line) in guide.lines().enumerate() {
        in_code ^= line.starts_with("```");
        let prose = !in_code && !line.starts_with("```") && !line.starts_with('|') && !line.starts_with('#');
        paragraph = if prose && !line.trim().is_empty() { paragraph + 1 } else { 0 };
        assert!(paragraph <= 12, "the paragraph ending at line {} is over 12 lines", n + 1);
    }
    // Every code block is run or compiled: the commands and files by the test above, the
    // changes file by `evolve`, the paging declaration by the generator's `lower::paging` tests.
    let run = ["Install", "Generate", "Test with the mock", "Evolve the contract"];
    let untested: Vec<String> = blocks(&guide)
        .into_iter()
        .filter(|b| {
            let command = b.info == "sh" && run.contains(&b.section.as_str());
            let changes = b.info == "yaml" && b.section == "Evolve the contract";
            let paging = b.info == "yaml" && b.section == "Reference" && b.text.starts_with("x-apigen-pagination:");
            !(command || changes || paging || b.info.contains(" file="))
        })
        .map(|b| format!("{} ({})", b.info, b.section))
        .collect();
    assert!(untested.is_empty(), "code blocks no test runs: {untested:?}");

    // Every option of every command (their usage texts), and every extension the generator reads.
    let mut sources = vec![root().join("codegen/src")];
    let mut texts = Vec::new();
    while let Some(dir) = sources.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            match path.is_dir() {
                true => sources.push(path),
                false => texts.push((path.ends_with("tools/cli.rs"), std::fs::read_to_string(path).unwrap())),
            }
        }
    }
    let mut missing = Vec::new();
    for (usage, text) in &texts {
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            let flag = *usage && word.starts_with("--") && word.len() > 2 && !["--help", "--version"].contains(&word);
            let extension = word.starts_with("x-apigen-") && word.len() > "x-apigen-".len();
            if (flag || extension) && !guide.contains(&format!("`{word}")) && !missing.contains(&word.to_string()) {
                missing.push(word.to_string());
            }
        }
    }
    assert!(missing.is_empty(), "the guide's reference does not name {missing:?}");
}
