//! Project automation. `cargo xtask codegen` regenerates the crates from `spec/openapi.yaml`;
//! `cargo xtask codegen --check` writes nothing and fails when a checked-in file is stale.

use std::process::ExitCode;

use xtask::codegen;

const USAGE: &str = "usage: cargo xtask codegen [--check]

  codegen          regenerate generated-client/ from spec/openapi.yaml
  codegen --check  write nothing; exit 1 listing every file that differs, is missing or is extra";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen"] => codegen::run(codegen::Mode::Write),
        ["codegen", "--check"] => codegen::run(codegen::Mode::Check),
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
