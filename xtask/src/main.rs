//! Project automation. `cargo xtask codegen` regenerates the crates from `spec/openapi.yaml`;
//! `cargo xtask codegen --check` writes nothing and fails when a checked-in file is stale.

use std::process::ExitCode;

use xtask::codegen;

// The generator allocates many small strings and syntax nodes; mimalloc makes the whole run about a
// fifth faster than the system allocator (BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str =
    "usage: cargo xtask codegen [--check] [--spec FILE --out DIR --name NAME [--skip-unsupported] [--tag-features]]

  codegen          regenerate generated-client/ and generated-server-stubs/ from spec/openapi.yaml
  codegen --check  write nothing; exit 1 listing every file that differs, is missing or is extra
  codegen --spec FILE --out DIR --name NAME
                   generate DIR/NAME-client and DIR/NAME-server, crates that build on their own,
                   from any OpenAPI 3.0 document (YAML or JSON); exit 1 with every problem found
  --skip-unsupported
                   leave out the operations and schemas the generator cannot represent, list them
                   as warnings, and generate the rest
  --tag-features   a cargo feature per tag in the client and types crates (all on by default), so a
                   crate that calls a few areas of a large API compiles only those";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen"] => codegen::run(codegen::Mode::Write),
        ["codegen", "--check"] => codegen::run(codegen::Mode::Check),
        ["codegen", rest @ ..] if rest.contains(&"--spec") => generic(rest),
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

/// `codegen --spec FILE --out DIR --name NAME [--check] [--skip-unsupported] [--tag-features]`, options in
/// any order.
fn generic(args: &[&str]) -> Result<(), String> {
    let (mut spec, mut out, mut name, mut mode) = (None, None, None, codegen::Mode::Write);
    let mut options = codegen::SpecOptions::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().copied().ok_or_else(|| format!("{arg} needs a value\n\n{USAGE}"));
        match *arg {
            "--spec" => spec = Some(value()?),
            "--out" => out = Some(value()?),
            "--name" => name = Some(value()?),
            "--check" => mode = codegen::Mode::Check,
            "--skip-unsupported" => options.skip_unsupported = true,
            "--tag-features" => options.tag_features = true,
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        }
    }
    match (spec, out, name) {
        (Some(spec), Some(out), Some(name)) => codegen::run_spec(spec.as_ref(), out.as_ref(), name, mode, options),
        _ => Err(format!("--spec, --out and --name go together\n\n{USAGE}")),
    }
}
