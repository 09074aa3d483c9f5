//! `apigen`: generates a typed reqwest client, an axum server and their shared types from an
//! OpenAPI document.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use apigen::{Generator, Placement};

// The generator allocates many small strings and syntax nodes; mimalloc makes a run about a fifth
// faster than the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "apigen: Rust crates from an OpenAPI document

Usage:
  apigen generate --spec FILE --out DIR --name NAME [options]
  apigen --help | --version

`generate` writes three crates under DIR from an OpenAPI 3.0, 3.1, 3.2 or Swagger 2.0 document
(YAML or JSON, one file or a tree of files its `$ref`s reach):
  NAME-types    one Rust type per schema, shared by the other two
  NAME-client   a typed async client on reqwest
  NAME-server   an axum server: a trait with a method per operation, its router, and a mock
and a copy of the runtime they share in DIR/apigen-runtime. Only files whose contents changed are
written; a file the generator did not write is never touched or removed.

Options:
  --check               write nothing; exit 1 naming each file that differs, the items that
                        changed in it and its first differing lines
  --strict              every warning is an error: nothing is loosened or left out (by default,
                        what cannot be represented is left out and each warning is printed)
  --tag-features        a cargo feature per tag in the client and types crates (all on by
                        default); schemas no operation uses behind `unused-schemas`, off
  --split-types-from N  with --tag-features, a spec of N types or more (2000 by default) gets
                        each tag's own types in a crate of that tag, NAME-types/tags/TAG, which
                        cargo builds side by side; NAME-types keeps the rest
  --standalone          each crate declares its own [workspace], even inside another workspace
  --in-workspace        the crates join the workspace they are in, as path dependencies of its
                        members or listed in its `members` (the default inside a workspace)
  --runtime-dir DIR     write the runtime to DIR instead: APIs generated with the same DIR share
                        it and can be used in one build
  --runtime-git URL[#REV]
                        depend on the runtime in this generator's git repository (at commit REV)
                        instead of writing a copy
  --overlay FILE        apply an OpenAPI Overlay 1.0 document (repeatable), after those in the
                        `overlays/` folder beside the spec
  --allow-outside-refs  let `$ref`s reach files outside the spec's directory
  --seed N              vary the values the mock answers with where the document has no example
  -h, --help            print this text
  -V, --version         print the version and the commit the tool was built from";

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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        [] | ["-h" | "--help" | "help", ..] => {
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
        [other, ..] => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `generate` with its options: whether the crates are current (always, when writing).
fn generate(args: &[&str]) -> Result<bool, String> {
    let (mut spec, mut out, mut name) = (None, None, None);
    let (mut check, mut strict, mut tags, mut outside) = (false, false, false, false);
    let (mut placement, mut seed, mut split) = (Placement::Auto, 0, None);
    let (mut runtime_dir, mut runtime_git, mut overlays) = (None, None, Vec::new());
    let mut args = args.iter();
    while let Some(&arg) = args.next() {
        let mut value = || args.next().copied().ok_or_else(|| format!("`{arg}` needs a value\n\n{USAGE}"));
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
                say!("{USAGE}");
                return Ok(true);
            }
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        }
    }
    let (Some(spec), Some(out), Some(name)) = (spec, out, name) else {
        return Err(format!("`generate` needs --spec, --out and --name\n\n{USAGE}"));
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
    if let Some(workspace) = &outcome.workspace {
        say!(
            "the crates join the workspace at {}: depend on them by path from one of its members, or list them in its `members` (`--standalone` keeps them apart)",
            workspace.display()
        );
    }
    Ok(true)
}

fn print_warnings(warnings: &[apigen::Diagnostic]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
    if !warnings.is_empty() {
        eprintln!("{} warnings: what they name was loosened or left out (`--strict` refuses instead)", warnings.len());
    }
}
