//! `cargo bench -p portfolio-bench --bench generate`: the generator's stages on the project spec.

use apigen::{Config, CrateConfig, Runtime, VersionHeader};

// As in the xtask binary, so the stages are timed as the real command runs them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

fn spec() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/openapi.yaml")).unwrap()
}

fn config() -> Config {
    Config {
        spec_path: "spec/openapi.yaml".into(),
        version_header: Some(VersionHeader { header: "x-pps-api-version".into(), field: "api_version".into() }),
        client: Some(CrateConfig { name: "portfolio-client".into(), dir: "generated-client".into() }),
        server: Some(CrateConfig { name: "portfolio-server".into(), dir: "generated-server-stubs".into() }),
        types: Some(CrateConfig { name: "portfolio-types".into(), dir: "generated-types".into() }),
        standalone: false,
        runtime: Runtime::Path { dir: "codegen/runtime".into(), vendored: false },
        strict: true,
        ..Config::new("portfolio")
    }
}

#[divan::bench(sample_count = 20)]
fn load(bencher: divan::Bencher) {
    let text = spec();
    bencher.bench(|| apigen::load(divan::black_box(&text)).unwrap());
}

#[divan::bench(sample_count = 20)]
fn lower(bencher: divan::Bencher) {
    let doc = apigen::load(&spec()).unwrap().doc;
    let config = config();
    bencher.bench(|| apigen::lower(divan::black_box(&doc), &config).unwrap());
}

#[divan::bench(sample_count = 20)]
fn emit_and_render(bencher: divan::Bencher) {
    let config = config();
    let api = apigen::lower(&apigen::load(&spec()).unwrap().doc, &config).unwrap();
    bencher.bench(|| apigen::emit(divan::black_box(&api), &config).unwrap());
}

#[divan::bench(sample_count = 20)]
fn generate(bencher: divan::Bencher) {
    let (text, config) = (spec(), config());
    bencher.bench(|| apigen::generate(divan::black_box(&text), &config).unwrap());
}
