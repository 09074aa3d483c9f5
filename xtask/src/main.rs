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

  diff, serve-mock, client-probe
                   the `apigen` tool's commands (`apigen COMMAND --help` lists their options), with
                   this repository's defaults: `diff --base REV` compares spec/openapi.yaml unless
                   --spec says otherwise, under the crate-version policy of spec/CHANGES.yaml;
                   serve-mock and client-probe build under target/ unless --dir says otherwise";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen", rest @ ..] => codegen_command(rest),
        // The tool's commands, with the project's spec and target directory as defaults.
        ["diff", rest @ ..] => {
            return apigen::tools::cli::exit(project().and_then(|p| apigen::tools::cli::diff(rest, Some(&p))));
        }
        ["serve-mock", rest @ ..] => helper_dir("serve-mock").and_then(|dir| apigen::tools::cli::serve_mock(rest, dir)),
        ["client-probe", rest @ ..] => {
            helper_dir("client-probe").and_then(|dir| apigen::tools::cli::client_probe(rest, dir))
        }
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

/// The project's spec and configuration, for `diff`.
fn project() -> Result<apigen::tools::cli::Project, String> {
    let spec = codegen::workspace_root()?.join("spec/openapi.yaml");
    Ok(apigen::tools::cli::Project { spec, config: apigen::Config { strict: false, ..codegen::project_config() } })
}

/// Where `serve-mock` and `client-probe` build by default: under the workspace's target.
fn helper_dir(command: &str) -> Result<std::path::PathBuf, String> {
    Ok(codegen::workspace_root()?.join("target").join(command))
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
