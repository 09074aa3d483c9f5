//! The generated client against raw reqwest, both calling `GET /api/holdings` on a running server
//! and decoding the reply: `bench_client BASE_URL [REQUESTS] [ROUNDS]`. Alternates the two, prints
//! requests per second and CPU time per request for each round, then the medians and their ratio.

use std::time::Instant;

use portfolio_client::types::{ClassificationType, HoldingData};
use portfolio_client::{Client, Credentials, DateTime};

/// User plus system CPU time of this process, in seconds (Linux).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

async fn generated(client: &Client, n: usize) {
    let date = DateTime::parse("2024-06-30T00:00:00Z").unwrap();
    for _ in 0..n {
        let reply = client.get_au_holdings(["A1", "A2"], date, ClassificationType::MarketType).await.unwrap();
        std::hint::black_box(reply);
    }
}

async fn raw(http: &reqwest::Client, base: &str, n: usize) {
    for _ in 0..n {
        let response = http
            .get(format!("{base}/api/holdings?AccountIds=A1&AccountIds=A2&ValuationDate=2024-06-30T00:00:00Z&ClassificationType=3"))
            .header("accept", "application/json")
            .header("Authorization", "t")
            .header("x-pps-subscription-key", "k")
            .header("x-pps-api-version", "2022.09.26")
            .send()
            .await
            .unwrap();
        assert!(response.status().is_success());
        let bytes = response.bytes().await.unwrap();
        let reply: Vec<HoldingData> = serde_json::from_slice(&bytes).unwrap();
        std::hint::black_box(reply);
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let base = args.next().unwrap_or_else(|| "http://127.0.0.1:18002".into());
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let http = reqwest::Client::new();
    let client = Client::with_http_client(http.clone(), &base, Credentials::new("t", "k")).unwrap();
    // Warm the pools.
    generated(&client, 200).await;
    raw(&http, &base, 200).await;
    let (mut g_rps, mut r_rps, mut g_cpu, mut r_cpu) = (vec![], vec![], vec![], vec![]);
    for round in 0..rounds {
        for which in 0..2 {
            let (cpu0, t0) = (cpu_seconds(), Instant::now());
            if (round + which) % 2 == 0 {
                generated(&client, n).await
            } else {
                raw(&http, &base, n).await
            }
            let (secs, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - cpu0);
            let (rps, cpu_us) = (n as f64 / secs, cpu / n as f64 * 1e6);
            if (round + which) % 2 == 0 {
                g_rps.push(rps);
                g_cpu.push(cpu_us);
                println!("round {round} generated: {rps:.0} req/s, {cpu_us:.1} µs CPU/request");
            } else {
                r_rps.push(rps);
                r_cpu.push(cpu_us);
                println!("round {round} raw:       {rps:.0} req/s, {cpu_us:.1} µs CPU/request");
            }
        }
    }
    let (g, r) = (median(g_rps), median(r_rps));
    let (gc, rc) = (median(g_cpu), median(r_cpu));
    println!("median generated {g:.0} req/s, raw {r:.0} req/s, throughput ratio {:.3}", g / r);
    println!("median CPU per request: generated {gc:.1} µs, raw {rc:.1} µs, ratio {:.3}", gc / rc);
}
