fn main() {
    let start = std::time::Instant::now();
    let built = apigen::Build::new("/work/main/target/large-bench/github.json", "github").generate();
    let included = built.result.unwrap();
    let size = std::fs::metadata(&included.path).unwrap().len();
    let text = format!("{:.1} s, {} bytes, {} warnings, features {:?}\n", start.elapsed().as_secs_f64(), size, included.warnings.len(), included.runtime_features);
    std::fs::write("/tmp/gh/time.txt", text).unwrap();
}
