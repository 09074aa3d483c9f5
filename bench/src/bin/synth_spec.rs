//! Writes a synthetic spec with N operations to standard output: `synth_spec N`.

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    println!("{}", portfolio_bench::synthetic::spec(n));
}
