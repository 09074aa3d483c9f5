//! Runs the whole generator on one spec file without writing anything: `generate_file SPEC`.
//! Prints the time from reading the text to having every file, for the scaling benchmark.

use std::time::Instant;

// As in the xtask binary, so the figures are those of the real command.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let path = std::env::args().nth(1).expect("usage: generate_file SPEC");
    let text = std::fs::read_to_string(&path).expect("readable spec");
    let config = apigen::Config {
        spec_path: path.clone(),
        client: Some(apigen::CrateConfig { name: "bench-client".into(), dir: "client".into() }),
        server: Some(apigen::CrateConfig { name: "bench-server".into(), dir: "server".into() }),
        types: Some(apigen::CrateConfig { name: "bench-types".into(), dir: "types".into() }),
        strict: true,
        ..apigen::Config::new("bench")
    };
    let started = Instant::now();
    let files = apigen::generate(&text, &config).unwrap_or_else(|d| panic!("{d}")).files;
    let lines: usize = files.iter().map(|f| f.contents.lines().count()).sum();
    println!("{:.1} ms, {} files, {lines} lines", started.elapsed().as_secs_f64() * 1e3, files.len());
}
