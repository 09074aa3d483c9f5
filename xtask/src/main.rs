//! Project automation. `cargo xtask codegen` regenerates the crates from `spec/openapi.yaml`;
//! `cargo xtask codegen --check` writes nothing and fails when a checked-in file is stale.

use std::process::ExitCode;

use xtask::codegen;

// The generator allocates many small strings and syntax nodes; mimalloc makes the whole run about a
// fifth faster than the system allocator (BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: cargo xtask codegen [--check] [--strict | --lenient]
       cargo xtask codegen --spec FILE --out DIR --name NAME [--check] [--strict | --lenient] [--tag-features]
       cargo xtask diff OLD NEW [--json] [--accepted FILE]
       cargo xtask diff --base REV [--spec FILE] [--json] [--accepted FILE]
       cargo xtask serve-mock --spec FILE [--addr HOST:PORT] [--seed N] [--dir DIR]
       cargo xtask client-probe --spec FILE --url URL [--dir DIR]

  codegen          regenerate the crates of spec/openapi.yaml (and of the generator's fixture specs),
                   strictly: any warning is an error
  --check          write nothing; exit 1 listing every file that differs, is missing or is extra
  --spec FILE --out DIR --name NAME
                   generate DIR/NAME-client, DIR/NAME-server and DIR/NAME-types, crates that build
                   on their own, from any OpenAPI 3.0, 3.1, 3.2 or Swagger 2.0 document (YAML or
                   JSON), leniently: what cannot be represented is left out, and every warning is
                   listed on stderr
  --strict         every warning is an error (exit 1 listing all of them): nothing is loosened or
                   left out
  --lenient        leave out what cannot be represented, list every warning, generate the rest
                   (`--skip-unsupported` is another name for it)
  --tag-features   a cargo feature per tag in the client and types crates (all on by default), so a
                   crate that calls a few areas of a large API compiles only those; schemas no
                   operation uses are behind `unused-schemas`, off by default
  --allow-outside-refs
                   let the spec's `$ref`s reach files outside its directory (refused by default)
  --overlay FILE   apply an OpenAPI Overlay 1.0 document to the spec before generating (repeatable;
                   after those in the `overlays/` folder beside the spec, which apply by name)

  diff             list every difference between two versions of a spec (each a file, the root of
                   its tree) with whom it breaks: clients built against the old one, servers built
                   against it, or neither; and how far each generated crate's version moves. Exit 1
                   when a breaking change is not accepted in CHANGES.yaml beside the new spec (a
                   list of `change`, `version`, `why`; `version` is the new `info.version`)
  --base REV       compare the spec (spec/openapi.yaml unless --spec) as committed at REV with
                   the working tree
  --json           the report as JSON, for tools

  serve-mock       generate the server of any document and serve it (at 127.0.0.1:8080 unless
                   --addr says otherwise; port 0 picks a free one), answering every valid request
                   with the document's example, else a value sampled from the reply's schema (the
                   same for the same --seed, 0 by default); prints the base URL once it is ready.
                   Builds under target/serve-mock unless --dir says otherwise

  client-probe     generate the client of any document and call every operation it can make
                   arguments for (sampled from the document's schemas) against the server at URL,
                   one line per operation; exit 1 when a call fails or a reply does not decode.
                   Builds under target/client-probe unless --dir says otherwise";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen", rest @ ..] => codegen_command(rest),
        ["diff", rest @ ..] => match diff_command(rest) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(message) => Err(message),
        },
        ["serve-mock", rest @ ..] => serve_mock_command(rest),
        ["client-probe", rest @ ..] => client_probe_command(rest),
        ["help" | "--help" | "-h"] | [] => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => Err(format!("unknown arguments: {}\n\n{USAGE}", args.join(" "))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// `diff` with its options: whether every breaking change is accepted.
fn diff_command(args: &[&str]) -> Result<bool, String> {
    let (mut base, mut spec, mut files) = (None, None, Vec::new());
    let mut options = xtask::diff::DiffOptions::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().copied().ok_or_else(|| format!("{arg} needs a value\n\n{USAGE}"));
        match *arg {
            "--base" => base = Some(value()?.to_string()),
            "--spec" => spec = Some(value()?.into()),
            "--json" => options.json = true,
            "--accepted" => options.accepted = Some(value()?.into()),
            "help" | "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(true);
            }
            other if other.starts_with("--") => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
            file => files.push(std::path::PathBuf::from(file)),
        }
    }
    let sides = match (base, spec, files.as_slice()) {
        (Some(rev), spec, []) => {
            let spec = match spec {
                Some(spec) => spec,
                None => codegen::workspace_root()?.join("spec/openapi.yaml"),
            };
            xtask::diff::Sides::Base { rev, spec }
        }
        (None, None, [old, new]) => xtask::diff::Sides::Files { old: old.clone(), new: new.clone() },
        _ => return Err(format!("diff takes OLD NEW, or --base REV [--spec FILE]\n\n{USAGE}")),
    };
    xtask::diff::run(&sides, &options)
}

/// `serve-mock` with its options.
fn serve_mock_command(args: &[&str]) -> Result<(), String> {
    let (mut spec, mut addr, mut seed, mut dir) = (None, "127.0.0.1:8080".to_string(), 0, None);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().copied().ok_or_else(|| format!("{arg} needs a value\n\n{USAGE}"));
        match *arg {
            "--spec" => spec = Some(value()?.into()),
            "--addr" => addr = value()?.to_string(),
            "--seed" => {
                let text = value()?;
                seed = text.parse().map_err(|_| format!("--seed takes a whole number, not `{text}`"))?;
            }
            "--dir" => dir = Some(value()?.into()),
            "help" | "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        }
    }
    let spec = spec.ok_or_else(|| format!("serve-mock needs --spec FILE\n\n{USAGE}"))?;
    xtask::serve_mock::serve_mock(&xtask::serve_mock::MockOptions { spec, addr, seed, dir })
}

/// `client-probe` with its options.
fn client_probe_command(args: &[&str]) -> Result<(), String> {
    let (mut spec, mut url, mut dir): (Option<&str>, Option<&str>, Option<&str>) = (None, None, None);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().copied().ok_or_else(|| format!("{arg} needs a value\n\n{USAGE}"));
        match *arg {
            "--spec" => spec = Some(value()?),
            "--url" => url = Some(value()?),
            "--dir" => dir = Some(value()?),
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        }
    }
    let (Some(spec), Some(url)) = (spec, url) else {
        return Err(format!("client-probe needs --spec FILE and --url URL\n\n{USAGE}"));
    };
    xtask::client_probe::client_probe(spec.as_ref(), url, dir.map(Into::into))
}

/// `codegen` with its options, in any order: the project's crates, or with `--spec` those of any
/// document.
fn codegen_command(args: &[&str]) -> Result<(), String> {
    let (mut spec, mut out, mut name, mut mode) = (None, None, None, codegen::Mode::Write);
    let mut options = codegen::SpecOptions::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().copied().ok_or_else(|| format!("{arg} needs a value\n\n{USAGE}"));
        let strictness = match *arg {
            "--spec" => {
                spec = Some(value()?);
                continue;
            }
            "--out" => {
                out = Some(value()?);
                continue;
            }
            "--name" => {
                name = Some(value()?);
                continue;
            }
            "--check" => {
                mode = codegen::Mode::Check;
                continue;
            }
            "--tag-features" => {
                options.tag_features = true;
                continue;
            }
            "--allow-outside-refs" => {
                options.allow_outside_refs = true;
                continue;
            }
            "--overlay" => {
                options.overlays.push(value()?.into());
                continue;
            }
            "--strict" => codegen::Strictness::Strict,
            "--lenient" | "--skip-unsupported" => codegen::Strictness::Lenient,
            "help" | "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        };
        if options.strictness != codegen::Strictness::Default && options.strictness != strictness {
            return Err(format!("--strict and --lenient exclude each other\n\n{USAGE}"));
        }
        options.strictness = strictness;
    }
    match (spec, out, name) {
        (Some(spec), Some(out), Some(name)) => codegen::run_spec(spec.as_ref(), out.as_ref(), name, mode, options),
        (None, None, None) if !options.tag_features && options.overlays.is_empty() && !options.allow_outside_refs => {
            codegen::run(mode, options.strictness)
        }
        (None, None, None) => {
            Err(format!("--tag-features, --overlay and --allow-outside-refs go with --spec\n\n{USAGE}"))
        }
        _ => Err(format!("--spec, --out and --name go together\n\n{USAGE}")),
    }
}
