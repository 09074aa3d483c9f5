//! Shared pieces of the benchmarks: the reply both servers send, the generated router with a
//! trivial implementation, the hand-written axum baseline, and a generator of synthetic specs.

pub mod baseline;
pub mod synthetic;
pub mod trivial;

use portfolio_server::types::{Holding, HoldingData, HoldingSecurity, Valuation};

/// The fixed reply of `GET /api/holdings` in the server benchmark: two accounts, five holdings each.
pub fn holdings() -> Vec<HoldingData> {
    (1..=2)
        .map(|a| HoldingData {
            account_id: Some(format!("A{a}")),
            valuation: Some(Valuation { total_value: Some(1000.0 * a as f64), ..Default::default() }),
            holdings: Some(
                (0..5)
                    .map(|i| Holding {
                        security: Some(HoldingSecurity {
                            code: Some(format!("SEC{i}")),
                            exchange: Some("ASX".into()),
                            ..Default::default()
                        }),
                        quantity: Some(10.0 * i as f64),
                        value: Some(100.0 * i as f64),
                        ..Default::default()
                    })
                    .collect(),
            ),
            ..Default::default()
        })
        .collect()
}
