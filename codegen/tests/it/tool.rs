//! The `apigen` binary as a user runs it: every command and its help, and `diff`'s exit status
//! on two files with no changes file beside them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn apigen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_apigen")).current_dir(dir).args(args).output().expect("apigen runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("apigen-tool-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn each_command_s_help_lists_every_flag_it_takes() {
    let commands: &[(&str, &[&str])] = &[
        (
            "generate",
            &[
                "--spec",
                "--out",
                "--name",
                "--check",
                "--strict",
                "--tag-features",
                "--split-types-from",
                "--standalone",
                "--in-workspace",
                "--runtime-dir",
                "--runtime-git",
                "--overlay",
                "--allow-outside-refs",
                "--seed",
                "--help",
            ],
        ),
        ("diff", &["--base", "--spec", "--accepted", "--json", "--help"]),
        ("serve-mock", &["--spec", "--addr", "--seed", "--dir", "--help"]),
        ("client-probe", &["--spec", "--url", "--dir", "--help"]),
    ];
    let here = std::env::temp_dir();
    let top = apigen(&here, &["--help"]);
    let top = String::from_utf8_lossy(&top.stdout);
    for (command, flags) in commands {
        assert!(top.contains(&format!("apigen {command} ")), "`apigen --help` names {command}:\n{top}");
        let run = apigen(&here, &[command, "--help"]);
        let help = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success() && help.starts_with(&format!("apigen {command}")), "{command}: {help}");
        for flag in *flags {
            assert!(help.contains(&format!(" {flag}")), "`apigen {command} --help` lists {flag}:\n{help}");
        }
        let wrong = apigen(&here, &[command, "--no-such-flag"]);
        let said = String::from_utf8_lossy(&wrong.stderr);
        assert!(!wrong.status.success() && said.contains("unknown argument `--no-such-flag`"), "{command}: {said}");
    }
}

const OLD: &str = "openapi: 3.0.3
info: {title: Books, version: '1'}
paths:
  /books/{id}:
    get:
      operationId: getBook
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: a book
          content:
            application/json:
              schema:
                type: object
                required: [id, title]
                properties:
                  id: {type: string}
                  title: {type: string}
";

#[test]
fn diff_fails_only_for_a_breaking_change_when_no_changes_file_is_beside() {
    let dir = scratch("diff");
    fs::write(dir.join("old.yaml"), OLD).unwrap();
    let cases = [
        ("described", OLD.replace("description: a book", "description: the book asked for"), true),
        (
            "optional field",
            OLD.replace("title: {type: string}", "title: {type: string}\n                  isbn: {type: string}"),
            true,
        ),
        (
            "removed required field",
            OLD.replace("required: [id, title]", "required: [id]")
                .replace("                  title: {type: string}\n", ""),
            false,
        ),
    ];
    for (what, new, passes) in cases {
        fs::write(dir.join("new.yaml"), &new).unwrap();
        let run = apigen(&dir, &["diff", "old.yaml", "new.yaml"]);
        let said = String::from_utf8_lossy(&run.stdout);
        assert_eq!(run.status.success(), passes, "{what}: {said}{}", String::from_utf8_lossy(&run.stderr));
        assert!(said.contains("No CHANGES.yaml beside the new spec"), "{what}: {said}");
        let moved = said.contains("Generated crates: ") || said.contains("No changes on the wire");
        assert!(moved, "{what}: how far the crates move: {said}");
        // A reader that has gone (`apigen diff … | head -1`) does not change the answer.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let child = Command::new(env!("CARGO_BIN_EXE_apigen"))
            .current_dir(&dir)
            .args(["diff", "old.yaml", "new.yaml"])
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("apigen runs");
        let run = child.wait_with_output().expect("apigen ends");
        assert_eq!(
            run.status.code(),
            Some(if passes { 0 } else { 1 }),
            "{what}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    // With a changes file beside the new one, its policy applies and says so.
    let sub = dir.join("next");
    fs::create_dir_all(&sub).unwrap();
    fs::write(sub.join("new.yaml"), OLD.replace("description: a book", "description: the book")).unwrap();
    fs::write(sub.join("CHANGES.yaml"), "crate-version: 0.1.0\naccepted: []\n").unwrap();
    let run = apigen(&dir, &["diff", "old.yaml", "next/new.yaml"]);
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(said.contains("crate-version policy of next/CHANGES.yaml apply"), "{said}");
    let _ = fs::remove_dir_all(&dir);
}
