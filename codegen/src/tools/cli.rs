//! The `apigen` tool's commands: each reads its arguments, says what is wrong with them next to
//! its usage, and calls the library. `cargo xtask` runs the same functions with the
//! repository's defaults.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::diff::{DiffOptions, Sides};
use super::serve_mock::MockOptions;
use super::{client_probe, helper, serve_mock};
use crate::{Config, Generator, Placement, Severity};

/// Prints a line on stdout. A reader that has gone (`apigen --help | head -1`) ends the tool
/// quietly, with success: what it was asked to do is done or was only printing.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        if writeln!(out, $($arg)*).and_then(|()| out.flush()).is_err() {
            std::process::exit(0);
        }
    }};
}

const USAGE: &str = "apigen: Rust crates from an OpenAPI document

Usage:
  apigen generate --spec FILE --out DIR --name NAME [options]
  apigen diff OLD NEW [options]
  apigen diff --base REV --spec FILE [options]
  apigen serve-mock --spec FILE [options]
  apigen client-probe --spec FILE --url URL [options]
  apigen --help | --version

Commands:
  generate      the types, client and server crates of an OpenAPI 3.0, 3.1, 3.2 or Swagger 2.0
                document (YAML or JSON, one file or a tree of files its `$ref`s reach)
  diff          what a change of a document breaks: clients, servers, and how far each
                generated crate's version moves; exit 1 when a breaking change is not accepted
  serve-mock    serve a document's generated server, answering with its examples or values
                sampled from its schemas
  client-probe  call every operation of a document's generated client against a server

`apigen COMMAND --help` lists a command's options.
  -h, --help    print this text
  -V, --version print the version and the commit the tool was built from";

const GENERATE: &str = "apigen generate --spec FILE --out DIR --name NAME [options]

Writes three crates under DIR from an OpenAPI 3.0, 3.1, 3.2 or Swagger 2.0 document (YAML or
JSON, one file or a tree of files its `$ref`s reach):
  NAME-types    one Rust type per schema, shared by the other two
  NAME-client   a typed async client on reqwest
  NAME-server   an axum server: a trait with a method per operation, its router, and a mock
and the runtime they share: the one a workspace they join declares in [workspace.dependencies],
else a copy at that workspace's root (apigen-runtime/), else one in DIR/apigen-runtime. Only files
whose contents changed are written; a file the generator did not write is never touched or removed.

Options:
  --spec FILE           the document (the root file of a tree of files)
  --out DIR             where the crates are written
  --name NAME           what the crates are named after: NAME-types, NAME-client, NAME-server
  --check               write nothing; exit 1 naming each file that differs, the items that
                        changed in it and its first differing lines
  --strict              every warning is an error: nothing is loosened or left out (by default,
                        what cannot be represented is left out and each warning is printed);
                        notes (recognised with nothing lost) are listed and do not fail it
  --tag-features        a cargo feature per tag in the client and types crates (all on by
                        default); schemas no operation uses behind `unused-schemas`, off
  --split-types-from N  with --tag-features, a spec of N types or more (2000 by default) gets
                        each tag's own types in a crate of that tag, NAME-types/tags/TAG, which
                        cargo builds side by side; NAME-types keeps the rest
  --standalone          each crate declares its own [workspace], even inside another workspace
  --in-workspace        the crates join the workspace they are in, as path dependencies of its
                        members or listed in its `members` (the default inside a workspace)
  --runtime-dir DIR     write the runtime to DIR instead of the shared one; switching where the
                        runtime comes from removes the copy used before once no API uses it
  --runtime-git URL[#REV]
                        depend on the runtime in this generator's git repository (at commit REV)
                        instead of writing a copy
  --overlay FILE        apply an OpenAPI Overlay 1.0 document (repeatable), after those in the
                        `overlays/` folder beside the spec
  --allow-outside-refs  let `$ref`s reach files outside the spec's directory
  --seed N              vary the values the mock answers with where the document has no example
  -h, --help            print this text";

const DIFF: &str = "apigen diff OLD NEW [options]
apigen diff --base REV --spec FILE [options]

Lists every difference between two versions of a document (each a file, the root of its tree)
with whom it breaks: clients built against the old one, servers built against it, or neither;
and how far each generated crate's version moves. Exit 1 when a change breaks clients or
servers and is not accepted; 0 otherwise.

Where a changes file (CHANGES.yaml beside the new document, or --accepted FILE) is found, it
accepts breaking changes (a list of `change`, `version`, `why`; `version` is the new
`info.version`) and its `crate-version` must move as far as the crates' API does.

Options:
  --base REV        compare the document as committed at git revision REV with the working tree
  --spec FILE       with --base: the document to compare
  --accepted FILE   the changes file, instead of CHANGES.yaml beside the new document
  --json            the report as JSON, for tools
  -h, --help        print this text";

const SERVE_MOCK: &str = "apigen serve-mock --spec FILE [options]

Generates the server of any document and serves it, answering every valid request with the
document's example, else a value sampled from the reply's schema; prints the base URL once it
accepts connections, and serves until stopped.

Options:
  --spec FILE       the document (the root file of a tree of files)
  --addr HOST:PORT  where to listen (127.0.0.1:8080 by default; port 0 picks a free one)
  --seed N          vary the sampled values (the same for the same seed; 0 by default)
  --dir DIR         where the crates and their build go (by default a directory of the
                    system's temporary one, kept between runs so dependencies build once)
  -h, --help        print this text";

const CLIENT_PROBE: &str = "apigen client-probe --spec FILE --url URL [options]

Generates the client of any document and calls every operation it can make arguments for
(sampled from the document's schemas) against the server at URL, one line per operation; exit 1
when a call fails or a reply does not decode.

Options:
  --spec FILE       the document (the root file of a tree of files)
  --url URL         the server's base URL
  --dir DIR         where the crates and their build go (by default a directory of the
                    system's temporary one, kept between runs so dependencies build once)
  -h, --help        print this text";

/// The tool: the command the arguments name, its outcome as the exit status.
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        [] | ["-h" | "--help" | "help"] => {
            say!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        ["-V" | "--version"] => {
            match env!("APIGEN_COMMIT") {
                "" => say!("apigen {}", env!("CARGO_PKG_VERSION")),
                commit => say!("apigen {} ({commit})", env!("CARGO_PKG_VERSION")),
            }
            return ExitCode::SUCCESS;
        }
        ["generate", rest @ ..] => generate(rest),
        ["diff", rest @ ..] => diff(rest, None),
        ["serve-mock", rest @ ..] => serve_mock(rest, helper::default_dir("serve-mock")).map(|()| true),
        ["client-probe", rest @ ..] => client_probe(rest, helper::default_dir("client-probe")).map(|()| true),
        [other, ..] => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    exit(result)
}

/// The exit status of a command: success, failure after it said why, or an error to print.
pub fn exit(result: Result<bool, String>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The arguments' values in turn: `next_value` for a flag's value, named in the error.
struct Args<'a> {
    args: std::slice::Iter<'a, &'a str>,
    usage: &'static str,
}

impl<'a> Args<'a> {
    fn new(args: &'a [&'a str], usage: &'static str) -> Args<'a> {
        Args { args: args.iter(), usage }
    }

    fn next(&mut self) -> Option<&'a str> {
        self.args.next().copied()
    }

    fn value(&mut self, flag: &str) -> Result<&'a str, String> {
        self.next().ok_or_else(|| format!("`{flag}` needs a value\n\n{}", self.usage))
    }

    fn number(&mut self, flag: &str) -> Result<u64, String> {
        let text = self.value(flag)?;
        text.parse().map_err(|_| format!("`{flag}` takes a whole number, not `{text}`"))
    }

    fn unknown(&self, arg: &str) -> String {
        format!("unknown argument `{arg}`\n\n{}", self.usage)
    }
}

/// The project a command runs in, when it is this repository's `cargo xtask`: its spec (what
/// `diff --base` compares without `--spec`) and how that spec's crates are named.
pub struct Project {
    pub spec: PathBuf,
    pub config: Config,
}

/// `diff` with its options: whether every breaking change is accepted.
pub fn diff(args: &[&str], project: Option<&Project>) -> Result<bool, String> {
    let (mut base, mut spec, mut files) = (None, None, Vec::new());
    let mut options = DiffOptions::default();
    let mut args = Args::new(args, DIFF);
    while let Some(arg) = args.next() {
        match arg {
            "--base" => base = Some(args.value(arg)?.to_string()),
            "--spec" => spec = Some(PathBuf::from(args.value(arg)?)),
            "--json" => options.json = true,
            "--accepted" => options.accepted = Some(args.value(arg)?.into()),
            "-h" | "--help" => {
                say!("{DIFF}");
                return Ok(true);
            }
            other if other.starts_with("--") => return Err(args.unknown(other)),
            file => files.push(PathBuf::from(file)),
        }
    }
    let sides = match (base, spec, files.as_slice()) {
        (Some(rev), Some(spec), []) => Sides::Base { rev, spec },
        (Some(rev), None, []) => match project {
            Some(project) => Sides::Base { rev, spec: project.spec.clone() },
            None => return Err(format!("`--base` needs `--spec FILE`\n\n{DIFF}")),
        },
        (None, None, [old, new]) => Sides::Files { old: old.clone(), new: new.clone() },
        _ => return Err(format!("`diff` takes OLD NEW, or --base REV --spec FILE\n\n{DIFF}")),
    };
    let new = match &sides {
        Sides::Files { new, .. } | Sides::Base { spec: new, .. } => new,
    };
    options.config = project.filter(|project| same_file(new, &project.spec)).map(|project| project.config.clone());
    super::diff::run(&sides, &options)
}

fn same_file(a: &Path, b: &Path) -> bool {
    a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a))
}

/// `serve-mock` with its options; builds under `dir` unless `--dir` says otherwise.
pub fn serve_mock(args: &[&str], dir: PathBuf) -> Result<(), String> {
    let mut options = MockOptions { spec: PathBuf::new(), addr: "127.0.0.1:8080".to_string(), seed: 0, dir };
    let mut spec = None;
    let mut args = Args::new(args, SERVE_MOCK);
    while let Some(arg) = args.next() {
        match arg {
            "--spec" => spec = Some(PathBuf::from(args.value(arg)?)),
            "--addr" => options.addr = args.value(arg)?.to_string(),
            "--seed" => options.seed = args.number(arg)?,
            "--dir" => options.dir = args.value(arg)?.into(),
            "-h" | "--help" => {
                say!("{SERVE_MOCK}");
                return Ok(());
            }
            other => return Err(args.unknown(other)),
        }
    }
    options.spec = spec.ok_or_else(|| format!("`serve-mock` needs --spec FILE\n\n{SERVE_MOCK}"))?;
    serve_mock::serve_mock(&options)
}

/// `client-probe` with its options; builds under `dir` unless `--dir` says otherwise.
pub fn client_probe(args: &[&str], mut dir: PathBuf) -> Result<(), String> {
    let (mut spec, mut url) = (None, None);
    let mut args = Args::new(args, CLIENT_PROBE);
    while let Some(arg) = args.next() {
        match arg {
            "--spec" => spec = Some(PathBuf::from(args.value(arg)?)),
            "--url" => url = Some(args.value(arg)?),
            "--dir" => dir = args.value(arg)?.into(),
            "-h" | "--help" => {
                say!("{CLIENT_PROBE}");
                return Ok(());
            }
            other => return Err(args.unknown(other)),
        }
    }
    let (Some(spec), Some(url)) = (spec, url) else {
        return Err(format!("`client-probe` needs --spec FILE and --url URL\n\n{CLIENT_PROBE}"));
    };
    client_probe::client_probe(&spec, url, &dir)
}

/// `generate` with its options: whether the crates are current (always, when writing).
pub fn generate(args: &[&str]) -> Result<bool, String> {
    let (mut spec, mut out, mut name) = (None, None, None);
    let (mut check, mut strict, mut tags, mut outside) = (false, false, false, false);
    let (mut placement, mut seed, mut split) = (Placement::Auto, 0, None);
    let (mut runtime_dir, mut runtime_git, mut overlays) = (None, None, Vec::new());
    let mut args = args.iter();
    while let Some(&arg) = args.next() {
        let mut value = || args.next().copied().ok_or_else(|| format!("`{arg}` needs a value\n\n{GENERATE}"));
        match arg {
            "--spec" => spec = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--name" => name = Some(value()?.to_string()),
            "--check" => check = true,
            "--strict" => strict = true,
            "--tag-features" => tags = true,
            "--standalone" => placement = Placement::Standalone,
            "--in-workspace" => placement = Placement::Member,
            "--runtime-dir" => runtime_dir = Some(PathBuf::from(value()?)),
            "--runtime-git" => runtime_git = Some(value()?.to_string()),
            "--overlay" => overlays.push(PathBuf::from(value()?)),
            "--allow-outside-refs" => outside = true,
            "--seed" => seed = value()?.parse().map_err(|_| "`--seed` takes a whole number".to_string())?,
            "--split-types-from" => {
                let from = value()?.parse().map_err(|_| "`--split-types-from` takes a whole number".to_string())?;
                split = Some(from);
            }
            "-h" | "--help" => {
                say!("{GENERATE}");
                return Ok(true);
            }
            other => return Err(format!("unknown argument `{other}`\n\n{GENERATE}")),
        }
    }
    let (Some(spec), Some(out), Some(name)) = (spec, out, name) else {
        return Err(format!("`generate` needs --spec, --out and --name\n\n{GENERATE}"));
    };
    let mut generator = Generator::new(spec, out, &name)?
        .strict(strict)
        .tag_features(tags)
        .mock_seed(seed)
        .allow_outside_refs(outside)
        .placement(placement);
    if let Some(from) = split {
        generator = generator.split_types_from(from);
    }
    for overlay in overlays {
        generator = generator.overlay(overlay);
    }
    match (runtime_dir, runtime_git) {
        (Some(_), Some(_)) => return Err("give --runtime-dir or --runtime-git, not both".to_string()),
        (Some(dir), None) => generator = generator.runtime_dir(dir),
        (None, Some(git)) => {
            let (url, rev) = git.split_once('#').map_or((git.as_str(), None), |(url, rev)| (url, Some(rev)));
            generator = generator.runtime_git(url, rev);
        }
        (None, None) => {}
    }
    if check {
        let outcome = generator.check()?;
        print_warnings(&outcome.warnings);
        if outcome.files.is_current() {
            say!("{} generated files are up to date", outcome.files.generated);
            return Ok(true);
        }
        eprint!("the generated crates differ from what the spec generates:\n{}", outcome.files.report());
        eprintln!("run `{}` to regenerate them", outcome.command);
        return Ok(false);
    }
    let outcome = generator.write()?;
    print_warnings(&outcome.warnings);
    say!("{}", outcome.files);
    if let Some(released) = &outcome.released {
        say!("{released}");
    }
    if let Some(workspace) = &outcome.workspace {
        say!(
            "the crates join the workspace at {}: depend on them by path from one of its members, or list them in its `members` (`--standalone` keeps them apart)",
            workspace.display()
        );
    }
    Ok(true)
}

fn print_warnings(diagnostics: &[crate::Diagnostic]) {
    for diagnostic in diagnostics {
        eprintln!("{}: {diagnostic}", diagnostic.severity.label());
    }
    let count = |severity| diagnostics.iter().filter(|d| d.severity == severity).count();
    let (warnings, notes) = (count(Severity::Warning), count(Severity::Note));
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if warnings > 0 {
        let what = plural(warnings, "warning");
        eprintln!("{what}: what each names was loosened or left out (`--strict` refuses instead)");
    }
    if notes > 0 {
        let what = plural(notes, "note");
        eprintln!("{what}: what each names was recognised or assumed, with nothing lost; each says how to declare it");
    }
}
